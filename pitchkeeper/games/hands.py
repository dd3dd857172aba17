"""Recording, editing, deleting and restoring a game's hands.

Every change to a game's hands goes through ``game_save``: the whole game is replayed with
the change, and only a game the engine accepts is written, in one transaction, together
with a HandChange row that keeps who made the change and the hand before and after.
The statistics hear of it through the ``game_saved`` signal."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from pitchkeeper.games.basis import Basis, Conflict, basis_check
from pitchkeeper.games.models import Game, Hand, HandChange
from pitchkeeper.games.replay import (
    GameState,
    game_state,
    saved_state,
    standing_of,
)
from pitchkeeper.games.restoring import (
    cannot_restore,
    number_check,
    place_check,
    restore_token,
    restored_record,
)
from pitchkeeper.games.signals import game_saved
from pitchkeeper.rules import (
    GameResult,
    HandRecord,
    HandResult,
    RuleError,
    Seating,
    play_on,
    replay,
)
from pitchkeeper.rules.record import MAX_HANDS

RESTORE_STALE = gettext_lazy(
    "The hands were changed meanwhile, so nothing was restored; check what it would do now."
)
# Hand numbers are moved out of the way before renumbering, so that the unique
# (game, number) constraint holds after every row of the update.
RENUMBER_OFFSET = 1_000_000


def _stored_side(side: str, ids: Mapping[str, int], seating: Seating) -> int | str:
    return side if seating.teams else ids[side]


def hand_fields(
    record: HandRecord, result: HandResult, ids: Mapping[str, int], seating: Seating
) -> dict[str, Any]:
    """The columns of a hand row, from its record and what the engine made of it."""
    points: dict[str, Any] = {}
    for key, went_to in result.points.items():
        if isinstance(went_to, dict):
            points[key] = {
                str(_stored_side(side, ids, seating)): count for side, count in went_to.items()
            }
        else:
            points[key] = None if went_to is None else _stored_side(went_to, ids, seating)
    auction = None
    if record.auction is not None:
        auction = [[ids[seating.player(name)], bid] for name, bid in record.auction]
    return {
        "misdeal": record.misdeal,
        "auction": auction,
        "pitcher_id": ids[result.pitcher] if result.pitcher else None,
        # A whole number or a word bid ("6x2", "moon"), as the engine took it.
        "bid": result.bid,
        "partner_id": ids[result.partner] if result.partner else None,
        "points": points,
        "revoked": [_stored_side(side, ids, seating) for side in result.revoked],
        "forced": [ids[seating.player(name)] for name in dict.fromkeys(record.forced)],
        "all_tricks": record.all_tricks,
        "kind": result.kind,
        "dealer_id": ids[result.dealer],
        "made": result.made,
    }


HAND_COLUMNS = (
    "number",
    "misdeal",
    "auction",
    "pitcher_id",
    "bid",
    "partner_id",
    "points",
    "revoked",
    "forced",
    "all_tricks",
    "kind",
    "dealer_id",
    "made",
)


def game_save(
    *,
    state: GameState,
    records: Sequence[HandRecord],
    rows: Sequence[Hand | None],
    result: GameResult | None = None,
) -> GameState:
    """Replay ``records`` (``rows`` are their stored rows; for a new hand None, or an
    unsaved Hand with its entry form's token) and write what changed; a RuleError from
    the engine leaves everything as it was. Every row written gets a new version.
    ``result`` is what the engine made of ``records``, when the caller has it already.
    The game as saved is returned without reading or replaying it again."""
    game = state.game
    seating = state.record.seating
    if result is None:
        result = _played(state, records)
    ids = {name: player_id for player_id, name in state.names.items()}
    version = _next_version(state)

    # The game's own hands before the first one changed are stored as they are: a hand
    # added to a long game (or the last one taken back) compares no other row.
    kept = _kept(state, records, rows)
    stored: list[Hand] = list(state.hands[:kept])
    new: list[Hand] = []
    changed: list[Hand] = []
    moved: list[int] = []
    for number, (record, hand_result, row) in enumerate(
        zip(records[kept:], result.hands[kept:], rows[kept:], strict=True), start=kept + 1
    ):
        fields = {"number": number, **hand_fields(record, hand_result, ids, seating)}
        if row is None or row.pk is None:
            token = row.token if row is not None else None
            row = Hand(game=game, version=version, token=token, **fields)
            new.append(row)
        elif any(getattr(row, name) != value for name, value in fields.items()):
            if row.number != number:
                moved.append(row.pk)
            for name, value in fields.items():
                setattr(row, name, value)
            # A moved hand too: a page showing the hand that had this number is stale.
            row.version = version
            changed.append(row)
        stored.append(row)
    if moved:
        Hand.objects.filter(pk__in=moved).update(number=F("number") + RENUMBER_OFFSET)
    if changed:
        columns = [c for c in HAND_COLUMNS if c != "number"]
        Hand.objects.bulk_update(changed, [*columns, "version", "number"])
    if new:
        Hand.objects.bulk_create(new)
    _save_outcome(game, result, seating, ids, revision=version)
    game_saved.send(
        Game,
        game=game,
        record=state.record,
        result=result,
        ids=ids,
        was_over=state.result.finished,
    )
    known = state.record.hands[:kept]
    return saved_state(game=game, seats=state.seats, hands=stored, result=result, known=known)


def _kept(state: GameState, records: Sequence[HandRecord], rows: Sequence[Hand | None]) -> int:
    """How many of the game's hands ``records`` and ``rows`` begin with, unchanged. The
    engine makes a hand of it and the hands before it only, so those rows stand."""
    kept = 0
    for row, hand, record, before in zip(
        rows, state.hands, records, state.record.hands, strict=False
    ):
        if row is not hand or record != before:
            break
        kept += 1
    return kept


def _played(state: GameState, records: Sequence[HandRecord]) -> GameResult:
    """What the engine makes of ``records``: when they only add hands after the game's
    own, just the added hands are played."""
    rules, seating = state.record.rules, state.record.seating
    before = state.record.hands
    if tuple(records[: len(before)]) == before:
        return play_on(rules, seating, state.result, records[len(before) :])
    return replay(rules, seating, state.record.first_dealer, records)


def _save_outcome(
    game: Game, result: GameResult, seating: Seating, ids: Mapping[str, int], *, revision: int
) -> None:
    """The game's derived ending: finished when the engine says so, won or drawn (a
    drawn game is finished with no winner and ``won_by`` "draw", so the check that a
    finished game has a ``won_by`` holds); its standing for the home screen and its new
    revision, in the same write."""
    winner_id = ids.get(result.winner) if result.winner else None
    outcome = {
        "revision": revision,
        "standing": standing_of(result, seating, ids),
        "winner_id": winner_id,
        "winner_team": result.winner if result.winner and winner_id is None else "",
        "won_by": result.won_by or "",
        "finished_at": (game.finished_at or timezone.now()) if result.finished else None,
    }
    for name, value in outcome.items():
        setattr(game, name, value)
    game.save(update_fields=[*outcome, "updated"])


def _locked_state(game: Game, seen: GameState | None = None) -> GameState:
    # Serialises writers of one game: a row lock on PostgreSQL; on SQLite the IMMEDIATE
    # transactions (settings) already let one writer in at a time. Whatever the caller
    # read before, the checks below run on what is stored once it holds the lock.
    locked = Game.objects.select_for_update().get(pk=game.pk)
    if locked.deleted_at is not None:
        raise Conflict(_("This game was deleted meanwhile."))
    if seen is not None and (locked.revision, locked.updated) == (
        seen.game.revision,
        seen.game.updated,
    ):
        # The game is as the caller read it: every change to its hands moves its
        # revision, and the rules and seats never change, so its replay still holds.
        return replace(seen, game=locked)
    return game_state(game=locked, whole=True)


def _next_version(state: GameState) -> int:
    """The game's revision after this change, and the version of the hands written now:
    one past its revision, which every change has made the version it wrote, so it is at
    or above every version the game's hands have and have had. (Hands written another
    way, a generated league's, may be above it: then one past theirs.)

    One counter per game, not per hand: a hand that moves up when an earlier one is
    deleted, or a new hand where an undone one was, never takes the version that a
    stale page still carries for its number."""
    return max([state.game.revision, *(hand.version for hand in state.hands)]) + 1


def _log(
    state: GameState,
    number: int,
    action: str,
    before: dict[str, Any] | None,
    user: AbstractBaseUser | None,
) -> GameState:
    """Keep who changed hand ``number`` and what it was before and after; in the
    transaction of the change, so that there is never one without the other."""
    removed = action in (HandChange.Action.DELETE, HandChange.Action.UNDO)
    after = None if removed else state.hand_data(number)
    HandChange.objects.create(
        game=state.game,
        number=number,
        action=action,
        before=before,
        after=after,
        user=user if user is not None and user.is_authenticated else None,
    )
    return state


def token_recorded(*, state: GameState, token: str | None) -> bool:
    """Whether a hand of the game was saved with this entry form's one-time token: the
    same save sent again (a double tap, a form resent), to be answered as the first."""
    return token is not None and any(hand.token == token for hand in state.hands)


@transaction.atomic
def hand_record(
    *,
    game: Game,
    record: HandRecord,
    token: str | None = None,
    basis: Basis | None = None,
    user: AbstractBaseUser | None = None,
    seen: GameState | None = None,
) -> GameState:
    """Add a hand at the end of the game.

    ``token`` is the entry form's one-time token: when a hand was already saved with it
    (a double tap, a form sent again) the game is returned as it is, nothing added.
    ``basis`` is what the page the entry was made on was made from: a page's save always
    gives one, and unless the game is still exactly that (``basis_check``), Conflict is
    raised and nothing is saved. None only from code that adds to the game as it is (a
    command, a test).
    ``seen`` is the game as the caller read it, used again if it is still what is
    stored, so that a request replays the game once.
    """
    state = _locked_state(game, seen)
    if token_recorded(state=state, token=token):
        return state
    if basis is not None:
        basis_check(state=state, basis=basis)
    number = len(state.hands) + 1
    return _insert(state, number, record, user=user, action=HandChange.Action.ADD, token=token)


def _index(state: GameState, number: int) -> int:
    number_check(count=len(state.hands), number=number)
    return number - 1


def _stale(state: GameState, index: int, version: int | None) -> bool:
    return version is not None and state.hands[index].version != version


def _differs(state: GameState, records: Sequence[HandRecord], index: int) -> GameResult | None:
    """What saving ``records`` makes of the game, or None when it would not change hand
    ``index`` as stored (if it does not, no other hand changes either: the game replays
    the same). A RuleError from the engine is raised."""
    result = _played(state, records)
    ids = {name: player_id for player_id, name in state.names.items()}
    fields = hand_fields(records[index], result.hands[index], ids, state.record.seating)
    row = state.hands[index]
    return result if any(getattr(row, name) != value for name, value in fields.items()) else None


@transaction.atomic
def hand_edit(
    *,
    game: Game,
    number: int,
    record: HandRecord,
    version: int | None = None,
    user: AbstractBaseUser | None = None,
) -> GameState:
    """Replace hand ``number``; the game is replayed and every later hand rechecked.

    ``version`` is the hand's version on the page the edit was made on: when the hand
    was changed (or moved) since, Conflict is raised, unless the entry is what is
    stored already (an edit sent twice), which changes nothing.
    """
    state = _locked_state(game)
    index = _index(state, number)
    return _replace(state, index, record, version=version, user=user, action=HandChange.Action.EDIT)


def _replace(
    state: GameState,
    index: int,
    record: HandRecord,
    *,
    version: int | None,
    user: AbstractBaseUser | None,
    action: str,
) -> GameState:
    records = list(state.record.hands)
    records[index] = record
    refused: RuleError | None = None
    try:
        result = _differs(state, records, index)
    except RuleError as error:
        # Told after a conflict: the refusal may be the other phone's doing.
        result, refused = None, error
    if result is None and refused is None:
        # Nothing to write, nothing to keep in the history: the version stays.
        return state
    if _stale(state, index, version):
        raise Conflict(
            _(
                "Hand %(number)d was changed from another phone meanwhile; check it and "
                "save yours again if it is still right."
            )
            % {"number": index + 1}
        )
    if refused is not None:
        raise refused
    before = state.hand_data(index + 1)
    saved = game_save(state=state, records=records, rows=state.hands, result=result)
    return _log(saved, index + 1, action, before, user)


@transaction.atomic
def hand_delete(
    *,
    game: Game,
    number: int,
    version: int | None = None,
    user: AbstractBaseUser | None = None,
    seen: GameState | None = None,
    undo: bool = False,
) -> GameState:
    """Remove hand ``number``; later hands move up one. With ``version`` (the hand's
    version on the page), a hand changed or moved since is not removed: Conflict.
    ``seen``: the game as the caller read it, as for hand_record. ``undo``: the last
    hand taken back with Undo, logged as an undo."""
    state = _locked_state(game, seen)
    index = _index(state, number)
    if _stale(state, index, version):
        raise Conflict(
            _(
                "Hand %(number)d was changed from another phone meanwhile and was not "
                "deleted; check it and delete it again if it should go."
            )
            % {"number": number}
        )
    before = state.hand_data(number)
    records = list(state.record.hands)
    rows: list[Hand | None] = list(state.hands)
    del records[index]
    removed = rows.pop(index)
    assert removed is not None
    # A refused removal raises from _save and the transaction brings the row back.
    removed.delete()
    saved = game_save(state=state, records=records, rows=rows)
    action = HandChange.Action.UNDO if undo else HandChange.Action.DELETE
    return _log(saved, number, action, before, user)


@transaction.atomic
def hand_insert(
    *,
    game: Game,
    number: int,
    record: HandRecord,
    user: AbstractBaseUser | None = None,
) -> GameState:
    """Put a hand in at ``number``, from 1 to one past the last; the hands from there
    on move down one, and the game is replayed with it."""
    state = _locked_state(game)
    return _insert(state, number, record, user=user, action=HandChange.Action.ADD)


def _insert(
    state: GameState,
    number: int,
    record: HandRecord,
    *,
    user: AbstractBaseUser | None,
    action: str,
    token: str | None = None,
) -> GameState:
    count = len(state.hands)
    if count >= MAX_HANDS:
        raise RuleError(
            _(
                "A game can have at most %(most)d hands, and this one has them all. No real "
                "game comes near; more would make its pages slow. Start a new game."
            )
            % {"most": MAX_HANDS}
        )
    place_check(count=count, number=number)
    records = list(state.record.hands)
    records.insert(number - 1, record)
    rows: list[Hand | None] = list(state.hands)
    rows.insert(number - 1, Hand(token=token))
    saved = game_save(state=state, records=records, rows=rows)
    return _log(saved, number, action, None, user)


@transaction.atomic
def change_restore(
    *,
    game: Game,
    change: HandChange,
    user: AbstractBaseUser | None = None,
    revision: int | None = None,
) -> GameState:
    """Put the hand back as it was before ``change``: a changed hand gets its earlier
    entry again, a deleted one goes back in at its number (later hands move down).
    The game is replayed; what the rules refuse now is not restored (RuleError).
    ``revision``: the game's revision the scorekeeper saw what the restore does on
    (games.restoring.restore_plan); changed since, Conflict, unless it is done already."""
    state = _locked_state(game)
    if change.game_id != state.game.pk:
        raise RuleError(_("There is nothing to restore from this change."))
    rules, number = state.record.rules, change.number
    record = restored_record(change, rules)
    token = restore_token(change)
    moved = revision is not None and revision != state.game.revision
    try:
        if change.after is None:
            if token_recorded(state=state, token=token):
                return state
            if moved:
                raise Conflict(str(RESTORE_STALE))
            return _insert(
                state, number, record, user=user, action=HandChange.Action.RESTORE, token=token
            )
        index = _index(state, number)
        if moved and state.record.hands[index] != record:
            raise Conflict(str(RESTORE_STALE))
        return _replace(
            state, index, record, version=None, user=user, action=HandChange.Action.RESTORE
        )
    except Conflict:
        raise
    except RuleError as error:
        raise cannot_restore(number, error, rules) from None
