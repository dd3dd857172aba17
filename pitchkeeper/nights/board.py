"""What the night's screens show: the round in play (each table's players, live totals
and dealer, read from the standing each game stores, so no game is replayed), the
night's standing, and the list of nights with who won each."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Max
from django.utils.crypto import salted_hmac

from pitchkeeper.clubs.models import Player
from pitchkeeper.games.models import Game
from pitchkeeper.nights.models import Night, NightRound, NightTable
from pitchkeeper.nights.services import last_round, next_round_number, night_games, present
from pitchkeeper.rules.nights import Standing, night_standing


@dataclass(frozen=True)
class TableView:
    table: NightTable
    players: list[str]
    teams: list[list[str]]
    # Each side's total in seat order, and who deals next; empty before the game starts.
    scores: list[tuple[str, int]]
    dealer: str | None
    done: bool


@dataclass(frozen=True)
class RoundView:
    night_round: NightRound
    tables: list[TableView]
    sitting_out: list[str]

    @property
    def started(self) -> bool:
        return self.night_round.started_at is not None

    @property
    def done(self) -> int:
        return sum(table.done for table in self.tables)


def _table(table: NightTable, names: dict[int, str]) -> TableView:
    game: Game | None = table.game
    scores: list[tuple[str, int]] = []
    dealer = None
    if game is not None and game.standing:
        scores = [
            (names.get(side, str(side)) if isinstance(side, int) else side, score)
            for side, score in game.standing["scores"]
        ]
        dealer = names.get(game.standing.get("dealer"))
    done = game is not None and (game.finished_at is not None or game.deleted_at is not None)
    return TableView(
        table,
        [names[pk] for pk in table.seated],
        [[names[pk] for pk in team] for team in table.teams],
        scores,
        dealer,
        done,
    )


def round_view(night_round: NightRound) -> RoundView:
    names = dict(Player.objects.filter(club=night_round.night.club).values_list("pk", "name"))
    tables = [_table(t, names) for t in night_round.tables.select_related("game")]
    return RoundView(night_round, tables, [names[pk] for pk in night_round.sitting_out])


def current_round(night: Night) -> RoundView | None:
    last = last_round(night)
    return round_view(last) if last else None


def standing(night: Night) -> tuple[Standing, ...]:
    return night_standing(night_games(night), order=night.order)  # type: ignore[arg-type]


def here_now(night: Night) -> list[Player]:
    return present(night, next_round_number(night))


def board_etag(night: Night, part: str, language: str) -> str:
    """Everything the room board shows depends on: the night's revision (its rounds,
    tables and players), its games' last changes, the language and page or fragment. An
    HMAC, as the live board's, so the tag tells a spectator nothing."""
    games = Game.objects.filter(night_table__night_round__night=night).aggregate(
        changed=Max("updated"), count=Count("pk")
    )
    version = "\n".join(map(str, [night.pk, night.revision, games, part, language]))
    return salted_hmac("pitchkeeper.night.etag", version, algorithm="sha256").hexdigest()[:32]


def nights_listed(nights: Any) -> list[tuple[Night, Standing | None]]:
    """Each night with its winner (the first of its standing), once it has one."""
    return [(night, next(iter(standing(night)), None)) for night in nights]
