"""A stored game read back into the engine's terms and replayed: the GameState that
every screen, service and statistic starts from.

The game's hands in the engine's terms and what the engine made of them are kept in
Django's cache, keyed by the game and the id and version of each of its hands: every
change to a hand writes it with a new version (games.hands), so a key names one set of
hands, and a change, an undo or a deletion is never answered from an older entry. A
screen then reads only each hand's number, version and token, and replays nothing;
a saved hand leaves what it played on for the next request."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.core.cache import cache
from django.db.models import Prefetch, QuerySet

from pitchkeeper.games.models import Game, Hand, Seat
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
# What a screen reads of each hand when the rest is kept: its place, version and token
# (and its game, which Django checks as it hands the rows to the game they belong to).
LIGHT_COLUMNS = ("game", "number", "version", "token")


def game_state(*, game: Game, whole: bool = False) -> GameState:
    """A game replayed, in a fixed number of queries however long it is. When it is
    kept, it is not replayed, and its hands are read with LIGHT_COLUMNS only (another
    column of them is read from the database when it is asked for); ``whole`` reads
    every column of every hand, as a change compares them."""
    seats = list(game.seats.select_related("player"))
    if not whole:
        light = list(game.hands.only(*LIGHT_COLUMNS))
        kept = _entry(game, light)
        if kept is not None:
            records, result = kept
            return GameState(game, seats, light, _record(game, seats, [], records), result)
    hands = list(game.hands.all())
    record = _record(game, seats, hands)
    kept = _entry(game, hands)
    if kept is not None:
        return GameState(game, seats, hands, record, kept[1])
    result = record.replay()
    _keep(game, hands, record.hands, result)
    return GameState(game, seats, hands, record, result)


def kept_result(*, game: Game, hands: Sequence[Hand]) -> GameResult | None:
    """What the engine made of the game when its hands were ``hands`` (stored rows, as
    they are stored), if it is still in the cache."""
    kept = _entry(game, hands)
    return kept[1] if kept is not None else None


def _entry(game: Game, hands: Sequence[Hand]) -> tuple[tuple[HandRecord, ...], GameResult] | None:
    """The records and result kept for ``hands``, if the cache still has them."""
    key = _key(game, hands)
    return cache.get(key) if key else None


def _keep(
    game: Game, hands: Sequence[Hand], records: tuple[HandRecord, ...], result: GameResult
) -> None:
    key = _key(game, hands)
    if key:
        cache.set(key, (records, result), KEPT_SECONDS)


def _key(game: Game, hands: Sequence[Hand]) -> str | None:
    """The cache key of ``hands`` as stored; None for rows not saved."""
    if game.pk is None or any(hand.pk is None for hand in hands):
        return None
    # The game's creation time too: a test database hands out the same ids again.
    stored = f"{game.created.isoformat() if game.created else ''}:" + ",".join(
        f"{hand.pk}.{hand.version}" for hand in hands
    )
    return f"pitchkeeper:game:{game.pk}:{hashlib.sha256(stored.encode()).hexdigest()}"


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
    the save left as they were). The state is kept for the game's next read."""
    record = _record(game, seats, hands, known)
    _keep(game, hands, record.hands, result)
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
