"""A stored game read back into the engine's terms and replayed: the GameState that
every screen, service and statistic starts from.

The game's hands in the engine's terms and what the engine made of them are kept in
Django's cache, keyed by the game's revision, which every change to its hands moves
(games.hands): a key names one set of hands, and a change, an undo or a deletion is
never answered from an older entry. A screen then reads no hand row and replays
nothing; a saved hand leaves what it played on for the next request. The save keeps
it in the database too (GameReplay, in the save's transaction), for the workers whose
own cache does not have it: each of several workers would otherwise replay the game
once after every hand."""

from __future__ import annotations

import hashlib
import pickle
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from django.core.cache import cache
from django.db.models import F, Prefetch, QuerySet

from pitchkeeper import rules
from pitchkeeper.games.models import Game, GameReplay, Hand, Seat
from pitchkeeper.rules import (
    GameRecord,
    GameResult,
    HandRecord,
    Seating,
    Team,
    resolve_rules,
)
from pitchkeeper.rules.record import hand_to_data


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

    def hand_data(self, number: int) -> dict[str, Any]:
        """Hand ``number`` in the game-record format, with the dealer the rotation gave
        it (for reading; a restore leaves the dealer out, as the rotation may have
        moved)."""
        index = number - 1
        dealer = self.result.hands[index].dealer
        return hand_to_data(replace(self.record.hands[index], dealer=dealer))


# A game still on the table is read every minute or so; one left for a day is replayed
# again when it is opened.
KEPT_SECONDS = 24 * 60 * 60
# What a screen has of each hand when the game is kept: its place, version and token
# (another column of it is read from the database when it is asked for), in the order
# of the model's columns, as Model.from_db takes them.
LIGHT_COLUMNS = tuple(
    field.attname
    for field in Hand._meta.concrete_fields
    if field.attname in {"id", "game_id", "number", "version", "token"}
)


def _engine_digest() -> str:
    """A digest of the engine's code and of this module's: a replay kept by another
    version of either (before a deploy, by a server not yet restarted) is not read."""
    digest = hashlib.sha256()
    for source in (*sorted(Path(rules.__file__).parent.glob("*.py")), Path(__file__)):
        digest.update(source.read_bytes())
    return digest.hexdigest()[:16]


ENGINE = _engine_digest()


@dataclass(frozen=True, slots=True)
class Kept:
    """What is kept of a game as it stood at one revision: its hands' LIGHT_COLUMNS,
    their records in the engine's terms, and what the engine made of them."""

    hands: tuple[tuple[Any, ...], ...]
    records: tuple[HandRecord, ...]
    result: GameResult


def game_state(*, game: Game, whole: bool = False) -> GameState:
    """The game as it is now, replayed, in a fixed number of queries however long it
    is. When it is kept, it is not replayed and its hands are not read: they are
    LIGHT_COLUMNS rows (another column of them is read from the database when it is
    asked for). ``whole`` reads every column of every hand, as a change compares them.
    A ``game`` row read before a change since is read again, in place."""
    # Each seat says the game's revision and time of its last write as stored now.
    seats = list(
        game.seats.select_related("player").annotate(
            game_revision=F("game__revision"), game_updated=F("game__updated")
        )
    )
    if seats and (seats[0].game_revision, seats[0].game_updated) != (game.revision, game.updated):
        game.refresh_from_db()
    kept = _kept(game)
    if kept is not None and not whole:
        hands = [_light_hand(game, columns) for columns in kept.hands]
        return GameState(game, seats, hands, _record(game, seats, [], kept.records), kept.result)
    # And each hand, as its query found it: hands read after another change than the
    # one the game's row was read at are not kept under its revision.
    hands = list(game.hands.annotate(game_revision=F("game__revision")))
    record = _record(game, seats, hands)
    if kept is not None and kept.hands == _light_columns(hands):
        return GameState(game, seats, hands, record, kept.result)
    result = record.replay()
    if all(hand.game_revision == game.revision for hand in hands):
        _keep(game, hands, record.hands, result)
    return GameState(game, seats, hands, record, result)


def _light_hand(game: Game, columns: tuple[Any, ...]) -> Hand:
    """A hand as ``game.hands.only(*LIGHT_COLUMNS)`` reads it, from its kept columns."""
    hand = Hand.from_db(game._state.db, LIGHT_COLUMNS, columns)
    hand.game = game
    return hand


def _light_columns(hands: Sequence[Hand]) -> tuple[tuple[Any, ...], ...]:
    return tuple(tuple(getattr(hand, name) for name in LIGHT_COLUMNS) for hand in hands)


def _kept(game: Game) -> Kept | None:
    """The game as kept at its revision: in this worker's cache, else as the save that
    made the revision kept it in the database, which is then kept in the cache too."""
    key = _key(game)
    if key is None:
        return None
    data = cache.get(key)
    if data is None:
        stored = GameReplay.objects.filter(
            game=game, revision=game.revision, updated=game.updated, engine=ENGINE
        ).values_list("data", flat=True)
        data = next(iter(stored), None)
        if data is None:
            return None
        # PostgreSQL gives a memoryview.
        data = bytes(data)
        cache.set(key, data, KEPT_SECONDS)
    kept: Kept = pickle.loads(data)  # noqa: S301 - written by _keep, as Django's caches do
    return kept


def _keep(
    game: Game, hands: Sequence[Hand], records: tuple[HandRecord, ...], result: GameResult
) -> bytes | None:
    """Keep the game as it stands in this worker's cache; what was kept, pickled once
    for the cache and for the database alike."""
    key = _key(game)
    if key is None:
        return None
    data = pickle.dumps(Kept(_light_columns(hands), records, result), pickle.HIGHEST_PROTOCOL)
    cache.set(key, data, KEPT_SECONDS)
    return data


def _key(game: Game) -> str | None:
    """The cache key of the game as it stands: every change to its hands gives it a new
    revision (games.hands), so a revision names one set of hands. The time of its last
    write too: a save rolled back after keeping its hands leaves them under a revision
    that the next save writes again, at another time. Its database and creation time,
    as two databases (or a test database) hand out the same ids. And the engine's
    digest: a cache shared across a deploy never answers with another engine's replay."""
    if game.pk is None:
        return None
    stored = f"{game._state.db}:{game.pk}:{game.created.isoformat()}"
    return f"pitchkeeper:game:{ENGINE}:{stored}:{game.revision}:{game.updated.isoformat()}"


def games_replayed(*, games: QuerySet[Game]) -> list[GameState]:
    """Games replayed in three queries, however many and however long they are."""
    games = games.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player")), "hands"
    )
    return [_replayed(game, list(game.seats.all()), list(game.hands.all())) for game in games]


def saved_state(
    *,
    game: Game,
    seats: list[Seat],
    hands: list[Hand],
    result: GameResult,
    known: tuple[HandRecord, ...] = (),
) -> GameState:
    """The state of a game whose ``hands`` were just written, with the ``result`` the
    engine gave for them: what game_state would read back, without reading or replaying
    the game again. ``known``: the records of the first hands, as they were read (rows
    the save left as they were). The state is kept for the game's next read, in this
    worker's cache and, in the save's transaction, in the database for the others; a
    finished game is kept in the cache only (it is seldom opened again)."""
    record = _record(game, seats, hands, known)
    data = _keep(game, hands, record.hands, result)
    if result.finished:
        GameReplay.objects.filter(game=game).delete()
    elif data is not None:
        row = GameReplay(
            game=game, revision=game.revision, updated=game.updated, engine=ENGINE, data=data
        )
        GameReplay.objects.bulk_create(
            [row],
            update_conflicts=True,
            unique_fields=["game"],
            update_fields=["revision", "updated", "engine", "data"],
        )
    return GameState(game, seats, hands, record, result)


def standing_of(result: GameResult, seating: Seating, ids: Mapping[str, int]) -> dict[str, Any]:
    """What the home screen shows of a game, stored by games.hands at every save: each
    side's score in seat order (a player by id, so that a new name shows; a team by its
    name) and the id of the player who deals next (None once it is over)."""
    return {
        "scores": [
            [side if seating.teams else ids[side], result.scores[side]] for side in result.sides
        ],
        "dealer": ids[result.dealer] if result.dealer else None,
    }


def standing_replayed(*, game: Any, seats: Sequence[Any], hands: Sequence[Any]) -> dict[str, Any]:
    """The standing of a game stored before standings were (a migration's rows: seats
    with their players, hands in order)."""
    record = _record(game, list(seats), hands)
    ids = {seat.player.name: seat.player_id for seat in seats}
    return standing_of(record.replay(), record.seating, ids)


def _replayed(game: Game, seats: list[Seat], hands: list[Hand]) -> GameState:
    record = _record(game, seats, hands)
    return GameState(game, seats, hands, record, record.replay())


def _record(
    game: Game, seats: list[Seat], hands: Sequence[Hand], known: tuple[HandRecord, ...] = ()
) -> GameRecord:
    """The game in the engine's terms: ``known`` records first, then ``hands`` from
    the first one they do not cover."""
    names = {seat.player_id: seat.player.name for seat in seats}
    seating = _seating(seats)
    return GameRecord(
        resolve_rules(game.rules),
        seating,
        names[game.first_dealer_id],
        known + tuple(_hand_record(hand, names, seating) for hand in hands[len(known) :]),
    )


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
        forced=tuple(names[player_id] for player_id in hand.forced),
        all_tricks=hand.all_tricks,
        partner=names[hand.partner_id] if hand.partner_id else None,
    )
