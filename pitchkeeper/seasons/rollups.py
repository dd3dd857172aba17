"""The rollups besides the plain sums: how each player fared with and against each
other player in a month (MonthPair, summed like MonthLine), a month's runs of results
(MonthRun, written again from the month's lines), and the chip values of a month's
games (MonthChipValue, written again from its games), so that a player page and a
season's ledger read a row per month rather than one per game.

Kept up to date by pitchkeeper.seasons.derive as each game changes, and rebuilt with
the other rollups."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from datetime import date
from typing import Any

from django.db import connection
from django.db.models import Count, Max, Min, Q, QuerySet

from pitchkeeper.games.models import Game
from pitchkeeper.seasons.models import GameLine, MonthChipValue, MonthLine, MonthPair, MonthRun
from pitchkeeper.seasons.spans import whole_months

# The sums a MonthPair keeps, for a player and one other player they met.
PAIR_FIELDS = ("games", "partners", "wins_against", "losses_to", "ahead")


def _pair_values(mine: GameLine, other: GameLine) -> tuple[int, ...]:
    apart = mine.side != other.side
    return (
        1,
        int(not apart),
        int(mine.won and apart),
        int(other.won and apart),
        int(other.place > mine.place),
    )


def pair_sums(lines: Sequence[GameLine], sign: int) -> dict[tuple[int, int, Any], list[int]]:
    """The head-to-head sums of the counted lines, by player, other player and month."""
    games: dict[int, list[GameLine]] = defaultdict(list)
    for line in lines:
        if line.counted:
            games[line.game_id].append(line)
    pairs: dict[tuple[int, int, Any], list[int]] = {}
    for table in games.values():
        for mine in table:
            month = connection.ops.adapt_datefield_value(mine.month)
            for other in table:
                if other.player_id != mine.player_id:
                    tally = pairs.setdefault((mine.player_id, other.player_id, month), [0] * 5)
                    for index, value in enumerate(_pair_values(mine, other)):
                        tally[index] += sign * value
    return pairs


def pairs_rebuild(*, club_id: int) -> None:
    """Every MonthPair of the club summed again from its lines, each joined to the
    other lines of its game, in one statement."""
    MonthPair.objects.filter(club_id=club_id).delete()
    quote = connection.ops.quote_name
    line = quote(GameLine._meta.db_table)
    columns = ", ".join(
        quote(n) for n in ("club_id", "player_id", "other_id", "month", *PAIR_FIELDS)
    )
    sql = f"""
        INSERT INTO {quote(MonthPair._meta.db_table)} ({columns})
        SELECT m.club_id, m.player_id, o.player_id, m.month, COUNT(*),
               SUM(CASE WHEN m.side = o.side THEN 1 ELSE 0 END),
               SUM(CASE WHEN m.won AND m.side <> o.side THEN 1 ELSE 0 END),
               SUM(CASE WHEN o.won AND m.side <> o.side THEN 1 ELSE 0 END),
               SUM(CASE WHEN o.place > m.place THEN 1 ELSE 0 END)
        FROM {line} m JOIN {line} o ON o.game_id = m.game_id AND o.player_id <> m.player_id
        WHERE m.club_id = %s AND m.counted AND o.counted
        GROUP BY m.club_id, m.player_id, o.player_id, m.month
    """
    with connection.cursor() as cursor:
        cursor.execute(sql, [club_id])


# Each month's runs of equal results ("gaps and islands"), then each month's first and
# last run and longest of each kind, from its counted lines: one statement on SQLite
# and PostgreSQL alike, for the whole club or for a few players' months.
RUNS_SQL = """
    INSERT INTO {run} (club_id, player_id, month, games, head, head_won, tail, tail_won,
                       longest_wins, longest_without)
    SELECT club_id, player_id, month, MAX(games),
           MAX(CASE WHEN first_n = 1 THEN length ELSE 0 END),
           MAX(CASE WHEN first_n = 1 AND won THEN 1 ELSE 0 END),
           MAX(CASE WHEN last_n = games THEN length ELSE 0 END),
           MAX(CASE WHEN last_n = games AND won THEN 1 ELSE 0 END),
           MAX(CASE WHEN won THEN length ELSE 0 END),
           MAX(CASE WHEN won THEN 0 ELSE length END)
    FROM (
        SELECT club_id, player_id, month, won, COUNT(*) AS length, MIN(n) AS first_n,
               MAX(n) AS last_n, MAX(MAX(n)) OVER (PARTITION BY player_id, month) AS games
        FROM (
            SELECT club_id, player_id, month, won,
                   ROW_NUMBER() OVER (PARTITION BY player_id, month
                                      ORDER BY finished_at, game_id) AS n,
                   ROW_NUMBER() OVER (PARTITION BY player_id, month
                                      ORDER BY finished_at, game_id)
                   - ROW_NUMBER() OVER (PARTITION BY player_id, month, won
                                        ORDER BY finished_at, game_id) AS run
            FROM {line} WHERE counted AND {where}
        ) seq
        GROUP BY club_id, player_id, month, won, run
    ) runs
    GROUP BY club_id, player_id, month
"""


def runs_refresh(*, club_id: int, players: Iterable[int] = (), months: Iterable[date] = ()) -> None:
    """The MonthRuns of these players in these months (every one of the club's, when
    none are named) written again from their lines."""
    players, months = sorted(set(players)), sorted(set(months))
    rows = MonthRun.objects.filter(club_id=club_id)
    where, params = "club_id = %s", [club_id]
    if players or months:
        rows = rows.filter(player_id__in=players, month__in=months)
        where += f" AND player_id IN ({', '.join(['%s'] * len(players))})"
        where += f" AND month IN ({', '.join(['%s'] * len(months))})"
        params += [*players, *(connection.ops.adapt_datefield_value(m) for m in months)]
        # The same months as a range of finish times, which the (player, finished_at)
        # index serves: without it, every line the players ever had is read.
        stored = GameLine._meta.get_field("finished_at")
        where += " AND finished_at >= %s AND finished_at < %s"
        params += [
            stored.get_db_prep_value(moment, connection)
            for moment in whole_months(months[0], months[-1]).bounds()
        ]
    rows.delete()
    quote = connection.ops.quote_name
    sql = RUNS_SQL.format(
        run=quote(MonthRun._meta.db_table), line=quote(GameLine._meta.db_table), where=where
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


# A stretch of games' chip values, as MonthChipValue keeps them for a month.
CHIP_VALUES = {
    "games": Count("pk"),
    "lowest": Min("chip_value"),
    "highest": Max("chip_value"),
    "no_value": Count("pk", filter=Q(chip_value=None)),
}


def counted_games(club_id: int) -> QuerySet[Game]:
    """The club's games the statistics count: finished, not deleted, not practice."""
    return Game.objects.alive().filter(club_id=club_id, counts=True, finished_at__isnull=False)


def chip_values_refresh(
    *, club_id: int, months: Iterable[date] = (), erasing: int | None = None
) -> None:
    """The MonthChipValues of these months (every month the club has counted games in,
    when none are named) written again from their games, leaving out the game being
    ``erasing`` (deleted for good once this is done). A month's games are read by their
    finish times from the index that holds their chip values: a few hundred index
    entries in a busy month, where reading the month's lines joined to their games took
    PostgreSQL 12 ms at 60,000 games."""
    rows = MonthChipValue.objects.filter(club_id=club_id)
    wanted = set(months)
    if wanted:
        rows = rows.filter(month__in=wanted)
    else:
        wanted = set(MonthLine.objects.filter(club_id=club_id).values_list("month", flat=True))
    rows.delete()
    games = counted_games(club_id).exclude(pk=erasing)
    found = []
    for month in sorted(wanted):
        values = games.filter(whole_months(month, month).moments()).aggregate(**CHIP_VALUES)
        if values["games"]:
            found.append(MonthChipValue(club_id=club_id, month=month, **values))
    MonthChipValue.objects.bulk_create(found)


def month_rows_rewrite(
    *, club_id: int, lines: Iterable[GameLine], erasing: int | None = None
) -> None:
    """The rollups that are written again rather than summed, for the months of these
    lines (a game's, before and after its change): the players' runs, and the months'
    chip values."""
    found = list(lines)
    if found:
        months = [line.month for line in found]
        runs_refresh(club_id=club_id, players=[line.player_id for line in found], months=months)
        chip_values_refresh(club_id=club_id, months=months, erasing=erasing)
