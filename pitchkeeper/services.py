"""Load games, replay them through the rules engine, validate and save.

Every change to a game's hands goes through ``_save``: the whole game is replayed with
the change, and only a game the engine accepts is written, in one transaction, together
with a HandChange row that keeps who made the change and the hand before and after.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.core.validators import ProhibitNullCharactersValidator
from django.db import IntegrityError, transaction
from django.db.models import F, Prefetch, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from pitchkeeper.models import (
    Club,
    Game,
    Hand,
    HandChange,
    Invitation,
    Membership,
    Player,
    Role,
    Seat,
    new_token,
)
from pitchkeeper.rules import (
    GameRecord,
    GameResult,
    HandRecord,
    HandResult,
    RuleError,
    Ruleset,
    Seating,
    Team,
    game_to_data,
    parse_game,
    replay,
    resolve_rules,
)
from pitchkeeper.rules.record import MAX_NAME_LENGTH, check_name, hand_to_data, parse_hand
from pitchkeeper.stats import stats_game_saved

# Hand numbers are moved out of the way before renumbering, so that the unique
# (game, number) constraint holds after every row of the update.
RENUMBER_OFFSET = 1_000_000


@dataclass(frozen=True)
class GameState:
    """A game with its seats and hands as stored and everything the engine derives."""

    game: Game
    seats: list[Seat]
    hands: list[Hand]
    record: GameRecord
    result: GameResult

    @property
    def names(self) -> dict[int, str]:
        return {seat.player_id: seat.player.name for seat in self.seats}


def game_state(*, game: Game) -> GameState:
    """A game replayed: a fixed number of queries however long the game is."""
    return _replayed(game, list(game.seats.select_related("player")), list(game.hands.all()))


def games_replayed(*, games: QuerySet[Game]) -> list[GameState]:
    """Games replayed in three queries, however many and however long they are."""
    games = games.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player")), "hands"
    )
    return [_replayed(game, list(game.seats.all()), list(game.hands.all())) for game in games]


def _replayed(game: Game, seats: list[Seat], hands: list[Hand]) -> GameState:
    names = {seat.player_id: seat.player.name for seat in seats}
    seating = _seating(seats)
    rules = resolve_rules(game.rules)
    record = GameRecord(
        rules,
        seating,
        names[game.first_dealer_id],
        tuple(_hand_record(hand, names, seating) for hand in hands),
    )
    return GameState(game, seats, hands, record, record.replay())


def _seating(seats: Sequence[Seat]) -> Seating:
    teams: dict[str, list[str]] = {}
    for seat in seats:
        if seat.team:
            teams.setdefault(seat.team, []).append(seat.player.name)
    return Seating(
        tuple(seat.player.name for seat in seats),
        tuple(Team(name, tuple(members)) for name, members in teams.items()),
    )


def _side_name(side: int | str, names: Mapping[int, str]) -> str:
    """A stored side: a player id, or a team's name in team games."""
    return names[side] if isinstance(side, int) else side


def _hand_record(hand: Hand, names: Mapping[int, str], seating: Seating) -> HandRecord:
    if hand.misdeal:
        return HandRecord(misdeal=True)
    points: dict[str, Any] = {}
    for key, went_to in hand.points.items():
        if isinstance(went_to, dict):
            points[key] = {
                _side_name(int(side) if not seating.teams else side, names): count
                for side, count in went_to.items()
            }
        else:
            points[key] = None if went_to is None else _side_name(went_to, names)
    auction = None
    if hand.auction is not None:
        auction = tuple((names[player_id], bid) for player_id, bid in hand.auction)
    contract = hand.auction is None and hand.bid is not None
    return HandRecord(
        auction=auction,
        pitcher=names[hand.pitcher_id] if contract and hand.pitcher_id else None,
        bid=hand.bid if contract else None,
        points=points,
        revoked=tuple(_side_name(side, names) for side in hand.revoked),
        all_tricks=hand.all_tricks,
        partner=names[hand.partner_id] if hand.partner_id else None,
    )


def _stored_side(side: str, ids: Mapping[str, int], seating: Seating) -> int | str:
    return side if seating.teams else ids[side]


def _hand_fields(
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
    "all_tricks",
    "kind",
    "dealer_id",
    "made",
)


def _save(
    state: GameState, records: Sequence[HandRecord], rows: Sequence[Hand | None]
) -> GameState:
    """Replay ``records`` (``rows`` are their stored rows; for a new hand None, or an
    unsaved Hand with its entry form's token) and write what changed; a RuleError from
    the engine leaves everything as it was. Every row written gets a new version."""
    game = state.game
    seating = state.record.seating
    result = replay(state.record.rules, seating, state.record.first_dealer, records)
    ids = {name: player_id for player_id, name in state.names.items()}
    version = _next_version(state)

    new: list[Hand] = []
    changed: list[Hand] = []
    moved: list[int] = []
    for number, (record, hand_result, row) in enumerate(
        zip(records, result.hands, rows, strict=True), start=1
    ):
        fields = {"number": number, **_hand_fields(record, hand_result, ids, seating)}
        if row is None or row.pk is None:
            token = row.token if row is not None else None
            new.append(Hand(game=game, version=version, token=token, **fields))
        elif any(getattr(row, name) != value for name, value in fields.items()):
            if row.number != number:
                moved.append(row.pk)
            for name, value in fields.items():
                setattr(row, name, value)
            # A moved hand too: a page showing the hand that had this number is stale.
            row.version = version
            changed.append(row)
    if moved:
        Hand.objects.filter(pk__in=moved).update(number=F("number") + RENUMBER_OFFSET)
    if changed:
        columns = [c for c in HAND_COLUMNS if c != "number"]
        Hand.objects.bulk_update(changed, [*columns, "version", "number"])
    if new:
        Hand.objects.bulk_create(new)
    _save_outcome(game, result, ids)
    stats_game_saved(game=game, record=state.record, result=result, ids=ids)
    return game_state(game=game)


def _save_outcome(game: Game, result: GameResult, ids: Mapping[str, int]) -> None:
    """The game's derived ending: finished when the engine says so, won or drawn (a
    drawn game is finished with no winner and ``won_by`` "draw", so the check that a
    finished game has a ``won_by`` holds)."""
    winner_id = ids.get(result.winner) if result.winner else None
    outcome = {
        "winner_id": winner_id,
        "winner_team": result.winner if result.winner and winner_id is None else "",
        "won_by": result.won_by or "",
        "finished_at": (game.finished_at or timezone.now()) if result.finished else None,
    }
    for name, value in outcome.items():
        setattr(game, name, value)
    game.save(update_fields=[*outcome, "updated"])


class Conflict(RuleError):
    """The game changed after the page the entry was made on was shown: another phone
    saved first. Nothing was saved; the entry is shown again beside the game as it is
    now, for its user to check and save again."""


def _locked_state(game: Game) -> GameState:
    # Serialises writers of one game: a row lock on PostgreSQL; on SQLite the IMMEDIATE
    # transactions (settings) already let one writer in at a time. Whatever the caller
    # read before, the checks below run on what is stored once it holds the lock.
    locked = Game.objects.select_for_update().get(pk=game.pk)
    if locked.deleted_at is not None:
        raise Conflict(_("This game was deleted meanwhile."))
    return game_state(game=locked)


def _next_version(state: GameState) -> int:
    """The version for the hands written now: above every version the game's hands have
    and have had (each change is one HandChange row, so their count only grows).

    One counter per game, not per hand: a hand that moves up when an earlier one is
    deleted, or a new hand where an undone one was, never takes the version that a
    stale page still carries for its number."""
    changes = HandChange.objects.filter(game=state.game).count()
    return max([changes, *(hand.version for hand in state.hands)]) + 1


def _hand_data(state: GameState, number: int) -> dict[str, Any]:
    """Hand ``number`` in the game-record format, with the dealer the rotation gave it
    (for reading; a restore leaves the dealer out, as the rotation may have moved)."""
    index = number - 1
    dealer = state.result.hands[index].dealer
    return hand_to_data(replace(state.record.hands[index], dealer=dealer))


def _log(
    state: GameState,
    number: int,
    action: str,
    before: dict[str, Any] | None,
    user: AbstractBaseUser | None,
) -> GameState:
    """Keep who changed hand ``number`` and what it was before and after; in the
    transaction of the change, so that there is never one without the other."""
    after = None if action == HandChange.Action.DELETE else _hand_data(state, number)
    HandChange.objects.create(
        game=state.game,
        number=number,
        action=action,
        before=before,
        after=after,
        user=user if user is not None and user.is_authenticated else None,
    )
    return state


@transaction.atomic
def hand_record(
    *,
    game: Game,
    record: HandRecord,
    token: str | None = None,
    expected: int | None = None,
    user: AbstractBaseUser | None = None,
) -> GameState:
    """Add a hand at the end of the game.

    ``token`` is the entry form's one-time token: when a hand was already saved with it
    (a double tap, a form sent again) the game is returned as it is, nothing added.
    ``expected`` is the number of the hand the form was for: when another phone saved
    (or removed) a hand meanwhile, Conflict is raised and nothing is saved.
    """
    state = _locked_state(game)
    if token is not None and any(hand.token == token for hand in state.hands):
        return state
    number = len(state.hands) + 1
    if expected is not None and expected != number:
        if expected < number:
            message = _(
                "Hand %(number)d was saved from another phone meanwhile; check the scores "
                "and save yours again if it is still right."
            ) % {"number": expected}
        else:
            message = _(
                "The hands were changed from another phone meanwhile; check the scores "
                "and save yours again if it is still right."
            )
        raise Conflict(message)
    return _insert(state, number, record, user=user, action=HandChange.Action.ADD, token=token)


def _index(state: GameState, number: int) -> int:
    if not 1 <= number <= len(state.hands):
        raise RuleError(
            _("there is no hand %(number)d in this game") % {"number": number}, field="number"
        )
    return number - 1


def _stale(state: GameState, index: int, version: int | None) -> bool:
    return version is not None and state.hands[index].version != version


def _differs(state: GameState, records: Sequence[HandRecord], index: int) -> bool:
    """Whether saving ``records`` would change hand ``index`` as stored (if it does
    not, no other hand changes either: the game replays the same)."""
    seating = state.record.seating
    try:
        result = replay(state.record.rules, seating, state.record.first_dealer, records)
    except RuleError:
        return True
    ids = {name: player_id for player_id, name in state.names.items()}
    fields = _hand_fields(records[index], result.hands[index], ids, seating)
    row = state.hands[index]
    return any(getattr(row, name) != value for name, value in fields.items())


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
    if not _differs(state, records, index):
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
    before = _hand_data(state, index + 1)
    saved = _save(state, records, state.hands)
    return _log(saved, index + 1, action, before, user)


@transaction.atomic
def hand_delete(
    *,
    game: Game,
    number: int,
    version: int | None = None,
    user: AbstractBaseUser | None = None,
) -> GameState:
    """Remove hand ``number``; later hands move up one. With ``version`` (the hand's
    version on the page), a hand changed or moved since is not removed: Conflict."""
    state = _locked_state(game)
    index = _index(state, number)
    if _stale(state, index, version):
        raise Conflict(
            _(
                "Hand %(number)d was changed from another phone meanwhile and was not "
                "deleted; check it and delete it again if it should go."
            )
            % {"number": number}
        )
    before = _hand_data(state, number)
    records = list(state.record.hands)
    rows: list[Hand | None] = list(state.hands)
    del records[index]
    removed = rows.pop(index)
    assert removed is not None
    # A refused removal raises from _save and the transaction brings the row back.
    removed.delete()
    saved = _save(state, records, rows)
    return _log(saved, number, HandChange.Action.DELETE, before, user)


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
    if not 1 <= number <= count + 1:
        raise RuleError(
            _("the game has %(count)d hands, so there is no place for hand %(number)d")
            % {"count": count, "number": number},
            field="number",
        )
    records = list(state.record.hands)
    records.insert(number - 1, record)
    rows: list[Hand | None] = list(state.hands)
    rows.insert(number - 1, Hand(token=token))
    saved = _save(state, records, rows)
    return _log(saved, number, action, None, user)


@transaction.atomic
def change_restore(
    *, game: Game, change: HandChange, user: AbstractBaseUser | None = None
) -> GameState:
    """Put the hand back as it was before ``change``: a changed hand gets its earlier
    entry again, a deleted one goes back in at its number (later hands move down).
    The game is replayed; what the rules refuse now is not restored (RuleError)."""
    state = _locked_state(game)
    if change.game_id != state.game.pk or change.before is None:
        raise RuleError(_("There is nothing to restore from this change."))
    number = change.number
    # The token makes a second tap on the same Restore button put nothing in twice.
    token = f"restore:{change.pk}"
    try:
        record = replace(parse_hand(change.before, state.record.rules), dealer=None)
        if change.after is None:
            if any(hand.token == token for hand in state.hands):
                return state
            return _insert(
                state, number, record, user=user, action=HandChange.Action.RESTORE, token=token
            )
        index = _index(state, number)
        return _replace(
            state, index, record, version=None, user=user, action=HandChange.Action.RESTORE
        )
    except Conflict:
        raise
    except RuleError as error:
        raise RuleError(
            _("Hand %(number)d cannot be restored: %(error)s") % {"number": number, "error": error},
            field=error.field,
        ) from None


def game_delete(*, game: Game) -> Game:
    """Hide the game from every list and page; it can be restored from the deleted
    games screen. Nothing of it is dropped."""
    game.deleted_at = timezone.now()
    # "deleted_at" named, so that whoever watches the game's saves (the statistics)
    # sees it go.
    game.save(update_fields=["deleted_at", "updated"])
    return game


def game_restore(*, game: Game) -> Game:
    """Bring a deleted game back as it was."""
    game.deleted_at = None
    game.save(update_fields=["deleted_at", "updated"])
    return game


def roster(names: Sequence[str], *, club: Club) -> dict[str, Player]:
    """The club's players of these names, matched without regard to case, added when new.

    Compared in Python: SQLite's LOWER() folds ASCII letters only.
    """
    known = {player.name.casefold(): player for player in club.players.all()}
    players = {}
    for name in names:
        player = known.get(name.casefold())
        if player is None:
            player = Player.objects.create(club=club, name=check_name(name, "a player's name"))
            known[name.casefold()] = player
        players[name] = player
    return players


@transaction.atomic
def game_create(
    *,
    players: Sequence[Player],
    first_dealer: Player,
    rules: Ruleset,
    teams: Mapping[str, Sequence[Player]] | None = None,
    chip_value: Decimal | None = None,
) -> GameState:
    """A new game of the players' club with ``players`` in clockwise seat order."""
    club_ids = {player.club_id for player in players}
    if len(club_ids) != 1:
        raise RuleError(_("all players of a game must be of one club"), field="players")
    seating = Seating(
        tuple(p.name for p in players),
        tuple(
            Team(name, tuple(p.name for p in members)) for name, members in (teams or {}).items()
        ),
    )
    seating.check(rules)
    if first_dealer not in players:
        raise RuleError(
            _("%(name)s is not at this table") % {"name": first_dealer.name},
            field="first_dealer",
        )
    game = Game.objects.create(
        club_id=club_ids.pop(),
        rules=rules.to_dict(),
        first_dealer=first_dealer,
        chip_value=chip_value,
    )
    Seat.objects.bulk_create(
        Seat(
            game=game,
            player=player,
            position=position,
            team=next((t.name for t in seating.teams if player.name in t.members), ""),
        )
        for position, player in enumerate(players)
    )
    return game_state(game=game)


def _game_import(data: Any, club: Club) -> Game:
    record = parse_game(data)
    players = roster(record.seating.players, club=club)
    state = game_create(
        players=[players[name] for name in record.seating.players],
        first_dealer=players[record.first_dealer],
        rules=record.rules,
        teams={t.name: [players[m] for m in t.members] for t in record.seating.teams},
    )
    return _save(state, record.hands, [None] * len(record.hands)).game


@transaction.atomic
def games_import(*, club: Club, games: Sequence[Any]) -> list[Game]:
    """Save game records into ``club``, all or nothing: the first bad one raises a
    RuleError that says which game and hand, and nothing is saved."""
    saved = []
    for number, data in enumerate(games, start=1):
        try:
            saved.append(_game_import(data, club))
        except RuleError as error:
            raise RuleError(
                _("game %(number)d: %(error)s") % {"number": number, "error": error}
            ) from None
    return saved


def game_export(*, game: Game) -> dict[str, Any]:
    state = game_state(game=game)
    return game_to_data(state.record, state.result, game.pk)


def game_rematch(*, game: Game) -> GameState:
    """A new game for the same table and rules, the first deal one seat on."""
    seats = list(game.seats.select_related("player"))
    players = [seat.player for seat in seats]
    teams: dict[str, list[Player]] = {}
    for seat in seats:
        if seat.team:
            teams.setdefault(seat.team, []).append(seat.player)
    dealer_seat = next(i for i, p in enumerate(players) if p.pk == game.first_dealer_id)
    return game_create(
        players=players,
        first_dealer=players[(dealer_seat + 1) % len(players)],
        rules=resolve_rules(game.rules),
        teams=teams,
        chip_value=game.chip_value,
    )


def player_name_check(name: str, *, club: Club, player: Player | None = None) -> str:
    """``name`` stripped, as ``check_name`` does, or a ValidationError saying what is
    wrong with it: empty, too long, or the name of another player in any case.

    Compared in Python: SQLite's LOWER() folds ASCII letters only.
    """
    name = name.strip()
    if not name:
        raise ValidationError(_("Give the player a name."), code="required")
    # PostgreSQL refuses text with a NUL byte: that was a 500.
    ProhibitNullCharactersValidator()(name)
    if len(name) > MAX_NAME_LENGTH:
        raise ValidationError(
            _("A name can be at most %(limit)d characters long; this one has %(length)d."),
            code="max_length",
            params={"limit": MAX_NAME_LENGTH, "length": len(name)},
        )
    others = club.players.exclude(pk=player.pk) if player else club.players.all()
    folded = name.casefold()
    for other in others.values_list("name", flat=True):
        if other.casefold() == folded:
            raise ValidationError(
                _("There is already a player called %(name)s."),
                code="duplicate",
                params={"name": other},
            )
    return name


def _save_name(player: Player, name: str) -> Player:
    player.name = player_name_check(name, club=player.club, player=player if player.pk else None)
    try:
        # A savepoint, so that losing a race to the unique constraint leaves any
        # surrounding transaction usable.
        with transaction.atomic():
            player.save()
    except IntegrityError:
        raise ValidationError(
            _("There is already a player called %(name)s."),
            code="duplicate",
            params={"name": player.name},
        ) from None
    return player


def player_add(*, club: Club, name: str) -> Player:
    """A new player on the club's roster."""
    return _save_name(Player(club=club), name)


def player_rename(*, player: Player, name: str) -> Player:
    """A new name for ``player``; their games show it too."""
    return _save_name(player, name)


def player_retire(*, player: Player, retired: bool) -> Player:
    """Take ``player`` off (or put them back on) the list to pick a table from; their
    games are kept."""
    player.retired = retired
    player.save(update_fields=["retired"])
    return player


def share_link_renew(*, game: Game) -> Game:
    """A new unguessable live scoreboard address; the old one stops working."""
    game.share_token = new_token()
    game.save(update_fields=["share_token", "updated"])
    return game


CLUB_NAME_LENGTH = 60


@transaction.atomic
def club_create(*, name: str, owner: AbstractBaseUser) -> Club:
    """A new club with ``owner`` as its first member."""
    club = Club.objects.create(name=club_name_check(name))
    Membership.objects.create(club=club, user=owner, role=Role.OWNER)
    return club


def _role(role: str) -> str:
    if role not in Role.values:
        raise ValidationError(_("Choose owner, scorekeeper or viewer."), code="invalid")
    return role


def invitation_create(*, club: Club, role: str, by: AbstractBaseUser) -> Invitation:
    """A link that lets whoever follows it join ``club`` as ``role``."""
    return Invitation.objects.create(club=club, role=_role(role), created_by=by)


def invitation_revoke(*, club: Club, pk: int) -> None:
    if not club.invitations.filter(pk=pk).update(revoked=True):
        raise ValidationError(_("There is no such invitation."), code="missing")


@transaction.atomic
def invitation_accept(*, invitation: Invitation, user: AbstractBaseUser) -> Membership:
    """``user`` joins the invitation's club; a member already keeps their role."""
    membership, _created = Membership.objects.get_or_create(
        club=invitation.club, user=user, defaults={"role": invitation.role}
    )
    return membership


@transaction.atomic
def member_change(*, club: Club, pk: int, role: str | None) -> None:
    """Give member ``pk`` a new role, or remove them (``role`` None). A club always
    keeps an owner."""
    membership = club.memberships.select_for_update().filter(pk=pk).first()
    if membership is None:
        raise ValidationError(_("There is no such member."), code="missing")
    if role is not None:
        membership.role = _role(role)
    owners = club.memberships.filter(role=Role.OWNER).exclude(pk=pk).exists()
    if not owners and (role is None or membership.role != Role.OWNER):
        raise ValidationError(_("A club needs an owner: make someone else owner first."))
    if role is None:
        club.players.filter(user=membership.user).update(user=None)
        membership.delete()
    else:
        membership.save(update_fields=["role"])


def player_link(*, club: Club, player_pk: int, member_pk: int | None) -> Player:
    """Link a roster player to a member's account (or unlink it)."""
    player = club.players.filter(pk=player_pk).first()
    if player is None:
        raise ValidationError(_("There is no such player."), code="missing")
    user = None
    if member_pk is not None:
        membership = club.memberships.filter(pk=member_pk).select_related("user").first()
        if membership is None:
            raise ValidationError(_("There is no such member."), code="missing")
        user = membership.user
        if club.players.filter(user=user).exclude(pk=player.pk).exists():
            raise ValidationError(
                _("%(user)s already plays as another player of this club.") % {"user": user}
            )
    player.user = user
    player.save(update_fields=["user"])
    return player


# ---- Backup and restore of a whole club: the format ``pitchkeeper.club/1`` ----


def club_name_check(name: str) -> str:
    """``name`` stripped, or a ValidationError saying what is wrong with it."""
    name = name.strip()
    if not name:
        raise ValidationError(_("Give the club a name."), code="required")
    # PostgreSQL refuses text with a NUL byte: that was a 500.
    ProhibitNullCharactersValidator()(name)
    if len(name) > CLUB_NAME_LENGTH:
        raise ValidationError(
            _("A club name can be at most %(limit)d characters long."),
            code="max_length",
            params={"limit": CLUB_NAME_LENGTH},
        )
    return name


CLUB_FORMAT = "pitchkeeper.club/1"
CLUB_KEYS = {"format", "name", "players", "games"}
CLUB_PLAYER_KEYS = {"name", "retired"}
CLUB_GAME_KEYS = {"record", "created", "finished", "deleted", "chip_value", "counts"}


def club_export(*, club: Club) -> dict[str, Any]:
    """The whole club as JSON data: its name, its roster, and every game (deleted ones
    too, marked) in the game-record format with the times it was started and finished.
    ``club_import`` makes a new club of it; exporting that gives the same data again,
    apart from the games' ids."""
    games = []
    for game in Game.objects.filter(club=club).order_by("created", "pk"):
        entry: dict[str, Any] = {
            "created": game.created.isoformat(),
            "finished": game.finished_at.isoformat() if game.finished_at else None,
        }
        if game.deleted_at is not None:
            entry["deleted"] = game.deleted_at.isoformat()
        if game.chip_value is not None:
            entry["chip_value"] = str(game.chip_value)
        if not getattr(game, "counts", True):
            entry["counts"] = False
        entry["record"] = game_export(game=game)
        games.append(entry)
    return {
        "format": CLUB_FORMAT,
        "name": club.name,
        "players": [
            {"name": player.name, "retired": player.retired}
            for player in club.players.order_by("name", "pk")
        ],
        "games": games,
    }


def _club_moment(entry: Mapping[str, Any], key: str, *, required: bool) -> Any:
    """A time written by ``club_export`` (ISO 8601), or None when it may be left out."""
    from django.utils.dateparse import parse_datetime

    value = entry.get(key)
    if value is None and not required:
        return None
    moment = parse_datetime(value) if isinstance(value, str) and "\x00" not in value else None
    if moment is None:
        raise RuleError(f'"{key}" must be a date and time such as "2024-05-01T20:30:00+00:00"')
    if timezone.is_naive(moment):
        moment = timezone.make_aware(moment)
    return moment


def _club_chip_value(entry: Mapping[str, Any]) -> Decimal | None:
    from decimal import InvalidOperation

    value = entry.get("chip_value")
    if value is None:
        return None
    message = '"chip_value" must be an amount such as "0.25" (at most 999999.99)'
    if not isinstance(value, str):
        raise RuleError(message)
    try:
        amount = Decimal(value)
    except InvalidOperation:
        raise RuleError(message) from None
    if not amount.is_finite() or amount < 0 or amount != amount.quantize(Decimal("0.01")):
        raise RuleError(message)
    if amount >= 1_000_000:
        raise RuleError(message)
    return amount


def _club_players(raw: Any, club: Club) -> None:
    if not isinstance(raw, list):
        raise RuleError('"players" must be a list of {"name": ..., "retired": ...} objects')
    seen: set[str] = set()
    for number, entry in enumerate(raw, start=1):
        if not isinstance(entry, Mapping) or set(entry) - CLUB_PLAYER_KEYS:
            raise RuleError(f'player {number} must be an object with "name" and "retired"')
        name = check_name(entry.get("name"), f"player {number}'s name")
        retired = entry.get("retired", False)
        if not isinstance(retired, bool):
            raise RuleError(f'player {number}: "retired" must be true or false')
        if name.casefold() in seen:
            raise RuleError(f"player {number}: {name} is on the list twice")
        seen.add(name.casefold())
        Player.objects.create(club=club, name=name, retired=retired)


def _club_game(entry: Any, club: Club) -> Game:
    if not isinstance(entry, Mapping):
        raise RuleError("a game must be a JSON object")
    unknown = set(entry) - CLUB_GAME_KEYS
    if unknown:
        raise RuleError(f"unknown field {', '.join(sorted(map(str, unknown)))}")
    counts = entry.get("counts", True)
    if not isinstance(counts, bool):
        raise RuleError('"counts" must be true or false')
    created = _club_moment(entry, "created", required=True)
    finished = _club_moment(entry, "finished", required=False)
    deleted = _club_moment(entry, "deleted", required=False)
    chip_value = _club_chip_value(entry)

    record = parse_game(entry.get("record"))
    players = roster(record.seating.players, club=club)
    state = game_create(
        players=[players[name] for name in record.seating.players],
        first_dealer=players[record.first_dealer],
        rules=record.rules,
        teams={t.name: [players[m] for m in t.members] for t in record.seating.teams},
        chip_value=chip_value,
    )
    # Set before the hands are saved, so that what is derived from them (the finish
    # time, the statistics) is derived from the game as it was.
    game = state.game
    game.created = created
    game.deleted_at = deleted
    game.finished_at = finished
    fields = ["created", "deleted_at"]
    if hasattr(game, "counts"):
        game.counts = counts
        fields.append("counts")
    game.save(update_fields=fields)
    game = _save(state, record.hands, [None] * len(record.hands)).game
    if (finished is None) != (game.finished_at is None):
        if finished is None:
            raise RuleError('the game is over: "finished" must say when it ended')
        raise RuleError('"finished" is given but the game is not over')
    return game


@transaction.atomic
def club_import(*, data: Any, owner: AbstractBaseUser | None) -> Club:
    """A new club from ``club_export`` data, with ``owner`` (if any) as its owner; all or
    nothing: bad data raises a RuleError (or a ValidationError for the club's name) that
    says what is wrong and where, and nothing is saved."""
    if not isinstance(data, Mapping):
        raise RuleError("a club must be a JSON object")
    if data.get("format") != CLUB_FORMAT:
        raise RuleError(f'"format" must be "{CLUB_FORMAT}"')
    unknown = set(data) - CLUB_KEYS
    if unknown:
        raise RuleError(f"unknown field {', '.join(sorted(map(str, unknown)))}")
    name = data.get("name")
    if not isinstance(name, str):
        raise RuleError('"name" must be the club\'s name')
    if owner is not None:
        club = club_create(name=name, owner=owner)
    else:
        club = Club.objects.create(name=club_name_check(name))
    _club_players(data.get("players", []), club)
    games = data.get("games", [])
    if not isinstance(games, list):
        raise RuleError('"games" must be a list')
    for number, entry in enumerate(games, start=1):
        try:
            _club_game(entry, club)
        except RuleError as error:
            raise RuleError(f"game {number}: {error}") from None
    return club
