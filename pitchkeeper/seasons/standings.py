"""Reading the statistics: the leaderboard, a player's page and their streaks, each in
a fixed number of queries from the rollups and the part-months at a span's edges."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, NamedTuple

from django.db import connection
from django.db.models import Count, F, Q, QuerySet, Subquery, Sum
from django.db.models.expressions import RawSQL
from django.db.models.fields.json import KeyTextTransform

from pitchkeeper.clubs.models import Club, Player
from pitchkeeper.core.paging import page_of
from pitchkeeper.seasons.derive import CATEGORY
from pitchkeeper.seasons.models import (
    LINE_SUMS,
    MONTH_FIELDS,
    GameCount,
    GameLine,
    MonthCount,
    MonthLine,
    MonthPair,
    MonthRun,
    RatingPoint,
    TotalCount,
)
from pitchkeeper.seasons.ratings import latest_rating
from pitchkeeper.seasons.rollups import PAIR_FIELDS
from pitchkeeper.seasons.spans import Span


@dataclass
class Standing:
    """A player's figures over a span; rates are None where there is nothing to divide."""

    player_id: int
    name: str
    sums: dict[str, int] = field(default_factory=lambda: dict.fromkeys(MONTH_FIELDS, 0))
    # (count, out of) by category key and by bid: hands taken of hands played with
    # the category; bids made of bids.
    by_category: dict[str, tuple[int, int]] = field(default_factory=dict)
    by_bid: dict[str, tuple[int, int]] = field(default_factory=dict)
    mu: float | None = None
    sigma: float | None = None

    def __getattr__(self, name: str) -> Any:
        try:
            return self.__dict__["sums"][name]
        except KeyError:
            raise AttributeError(name) from None

    @staticmethod
    def _rate(part: int, whole: int) -> float | None:
        return part / whole if whole else None

    @property
    def win_rate(self) -> float | None:
        return self._rate(self.sums["wins"], self.sums["games"])

    @property
    def average_place(self) -> float | None:
        return self._rate(self.sums["place_sum"], self.sums["games"])

    @property
    def points_per_hand(self) -> float | None:
        return self._rate(self.sums["taken"], self.sums["hands"])

    @property
    def bid_share(self) -> float | None:
        return self._rate(self.sums["made"], self.sums["bids"])

    @property
    def smudge_share(self) -> float | None:
        return self._rate(self.sums["smudges_made"], self.sums["smudges"])

    @property
    def rating(self) -> float | None:
        """The conservative estimate (mu - 3 sigma) that the leaderboard ranks by."""
        return None if self.mu is None or self.sigma is None else self.mu - 3 * self.sigma

    def category_rate(self, key: str) -> float | None:
        return self._rate(*self.by_category.get(key, (0, 0)))

    def bid_rate(self, key: str) -> float | None:
        return self._rate(*self.by_bid.get(key, (0, 0)))


def _line_sums(rows: QuerySet[GameLine]) -> QuerySet[GameLine]:
    return rows.values("player_id").annotate(
        games=Count("id"),
        team_games=Count("id", filter=Q(team=True)),
        wins=Count("id", filter=Q(won=True)),
        team_wins=Count("id", filter=Q(won=True, team=True)),
        place_sum=Sum("place"),
        **{name: Sum(name) for name in LINE_SUMS},
    )


def _gather(club: Club | int, span: Span, player: Player | None = None) -> dict[int, Standing]:
    """Every player's sums over the span: rollups plus edges, four queries."""
    months, edges = span.parts()
    mine = Q(player=player) if player else Q()
    found: dict[int, Standing] = {}

    def standing(player_id: int) -> Standing:
        return found.setdefault(player_id, Standing(player_id, ""))

    month_lines = MonthLine.objects.filter(months, mine, club=club).values("player_id")
    month_lines = month_lines.annotate(**{name: Sum(name) for name in MONTH_FIELDS})
    edge_lines = _line_sums(GameLine.objects.filter(edges, mine, club=club, counted=True))
    for row in [*month_lines, *edge_lines]:
        sums = standing(row["player_id"]).sums
        for name in MONTH_FIELDS:
            sums[name] += row[name] or 0
    # All time is a row per player and point or bid, not one per month of them.
    if span.all_time:
        rollup_counts = TotalCount.objects.filter(mine, club=club)
    else:
        rollup_counts = MonthCount.objects.filter(months, mine, club=club)
    edge_counts = GameCount.objects.filter(edges, mine, club=club, counted=True)
    for rows in (rollup_counts, edge_counts):
        tallies = rows.values("player_id", "kind", "key").annotate(
            total=Sum("count"), of=Sum("out_of")
        )
        for row in tallies:
            if not row["of"]:
                continue
            target = standing(row["player_id"])
            kind = target.by_category if row["kind"] == CATEGORY else target.by_bid
            count, of = kind.get(row["key"], (0, 0))
            kind[row["key"]] = (count + row["total"], of + row["of"])
    return {pk: s for pk, s in found.items() if s.sums["games"]}


def _ratings(club: Club | int, span: Span, player: Player | None = None) -> QuerySet[Player]:
    """The club's players with their rating at the end of the span: one query."""
    _low, high = span.bounds()
    latest = latest_rating(Q(finished_at__lt=high) if high else Q())
    players = Player.objects.filter(club=club)
    if player is not None:
        players = players.filter(pk=player.pk)
    return players.annotate(
        mu=Subquery(latest.values("mu")[:1]), sigma=Subquery(latest.values("sigma")[:1])
    )


def bid_order(key: str) -> tuple[int, int, str]:
    """Bids in their order: numbers, each before its doubled bid, then word bids."""
    number, _x, times = key.partition("x")
    if number.isdigit():
        return (0, int(number) * 10 + (1 if times else 0), key)
    return (1, 0, key)


@dataclass(frozen=True)
class Leaderboard:
    span: Span
    standings: list[Standing]
    categories: list[str]
    bids: list[str]


def leaderboard(*, club: Club, span: Span) -> Leaderboard:
    """Every player with a counted game in the span and their figures, unsorted: five
    queries, whatever the number of games."""
    standings = _gather(club, span)
    for pk, name, mu, sigma in _ratings(club, span).values_list("pk", "name", "mu", "sigma"):
        if pk in standings:
            standing = standings[pk]
            standing.name, standing.mu, standing.sigma = name, mu, sigma
    categories = {key for s in standings.values() for key in s.by_category}
    bids = {key for s in standings.values() for key in s.by_bid}
    return Leaderboard(
        span,
        list(standings.values()),
        sorted(categories, key=_category_order),
        sorted(bids, key=bid_order),
    )


# High, Low, Jack and Game first, as a table says them; any other point after them.
CATEGORY_ORDER = ("high", "low", "jack", "game")


def _category_order(key: str) -> tuple[int, str]:
    return (CATEGORY_ORDER.index(key), "") if key in CATEGORY_ORDER else (9, key)


@dataclass(frozen=True)
class Opponent:
    player_id: int
    name: str
    games: int
    partners: int
    wins_against: int
    losses_to: int
    ahead: int


@dataclass(frozen=True)
class Streaks:
    longest_wins: int
    longest_without: int
    current: int
    current_won: bool | None


class AtTable(NamedTuple):
    """One player's line of a game on the page, as much of it as the page shows."""

    name: str
    side: str
    team: bool
    won: bool


@dataclass(frozen=True)
class PlayerStats:
    span: Span
    standing: Standing | None
    opponents: list[Opponent]
    streaks: Streaks
    history: list[tuple[datetime, float, float]]
    # A page of the player's lines, latest first, each with ``preset``: its rules' name.
    games: list[GameLine]
    more: bool
    # Who played each of ``games`` (by game id): their lines, the best placed first.
    tables: dict[int, list[AtTable]]


def player_stats(*, player: Player, span: Span, page: int = 1, per_page: int = 20) -> PlayerStats:
    """One player's figures over the span: eleven queries, whatever the number of games
    (four more when it starts or ends in the middle of a month)."""
    club = player.club_id
    standing = _gather(club, span, player).get(player.pk)
    # Asked even without a game in the span, so that the page costs the same queries.
    rating = _ratings(club, span, player).values_list("name", "mu", "sigma").get()
    if standing is not None:
        standing.name, standing.mu, standing.sigma = rating
    moments = span.moments()
    mine = GameLine.objects.filter(moments, player=player, counted=True)
    opponents = _opponents(player, span)
    history = _history(player, span, standing.games if standing else 0)
    ordered = mine.order_by("-finished_at", "-game_id")
    # The name of each game's rules, not the whole ruleset of each.
    preset = KeyTextTransform("preset", "game__rules")
    games = page_of(ordered.annotate(preset=preset), page, per_page)
    # The page's games by a subquery, not by their ids: a page without games costs
    # the query too, so the page's count stays the same.
    start = (games.number - 1) * per_page
    tables: dict[int, list[AtTable]] = defaultdict(list)
    at_table = GameLine.objects.filter(
        game__in=Subquery(ordered.values("game_id")[start : start + per_page])
    ).order_by("place", "side", "player__name")
    # Plain rows, not model instances: a page of games has 80 lines or more.
    for game_id, *line in at_table.values_list("game_id", "player__name", "side", "team", "won"):
        tables[game_id].append(AtTable(*line))
    return PlayerStats(
        span,
        standing,
        opponents,
        streaks(player=player, span=span),
        history,
        list(games),
        games.has_next(),
        tables,
    )


def _opponents(player: Player, span: Span) -> list[Opponent]:
    """Everyone the player met over the span, most games first: the monthly rollup of
    the whole months, and the lines of the part-months at the edges, each joined to the
    player's own line of the game (no query when there are none)."""
    months, edges = span.parts()
    tallies: dict[int, list[int]] = {}
    names: dict[int, str] = {}
    rollup = (
        MonthPair.objects.filter(months, player=player)
        .values("other_id", other_name=F("other__name"))
        .annotate(**{name: Sum(name) for name in PAIR_FIELDS})
    )
    apart = ~Q(side=F("game__lines__side"))
    edge = (
        GameLine.objects.filter(
            edges, game__lines__player=player, game__lines__counted=True, counted=True
        )
        .exclude(player=player)
        .values(other_id=F("player_id"), other_name=F("player__name"))
        .annotate(
            games=Count("id"),
            partners=Count("id", filter=Q(side=F("game__lines__side"))),
            wins_against=Count("id", filter=Q(game__lines__won=True) & apart),
            losses_to=Count("id", filter=Q(won=True) & apart),
            ahead=Count("id", filter=Q(place__gt=F("game__lines__place"))),
        )
    )
    for rows in (rollup, edge):
        for row in rows:
            names[row["other_id"]] = row["other_name"]
            tally = tallies.setdefault(row["other_id"], [0] * len(PAIR_FIELDS))
            for index, name in enumerate(PAIR_FIELDS):
                tally[index] += row[name] or 0
    found = [Opponent(pk, names[pk], *tally) for pk, tally in tallies.items() if tally[0]]
    return sorted(found, key=lambda o: (-o.games, o.name))


# The most points of a player's rating history a page draws.
HISTORY_POINTS = 120


def _history(player: Player, span: Span, games: int) -> list[tuple[datetime, float, float]]:
    """The player's rating after each game of the span, in two queries whatever their
    number: up to HISTORY_POINTS games, all of them; beyond, the rating at as many
    evenly spaced moments from their first game to their last, each found by an index
    seek, so that years of games are not read to draw a line of 120 points."""
    points = RatingPoint.objects.filter(span.moments(), player=player)
    ordered = points.order_by("finished_at", "game_id")
    first, last = (
        Player.objects.filter(pk=player.pk)
        .annotate(
            first=Subquery(ordered.values("finished_at")[:1]),
            last=Subquery(ordered.reverse().values("finished_at")[:1]),
        )
        .values_list("first", "last")
        .get()
    )
    if games > HISTORY_POINTS and first is not None and last is not None:
        step = (last - first) / (HISTORY_POINTS - 1)
        moments = [first + step * k for k in range(HISTORY_POINTS - 1)] + [last]
        ordered = RatingPoint.objects.filter(pk__in=_ratings_at(player, moments))
        ordered = ordered.order_by("finished_at", "game_id")
    return list(ordered.values_list("finished_at", "mu", "sigma"))


def _ratings_at(player: Player, moments: list[datetime]) -> RawSQL:
    """The ids of the player's latest rating point at each moment, one index seek each,
    in one subquery written out here. The moments are a list of values the seek is correlated
    with, so that the seek is planned once: as 120 subqueries (built by the ORM, or
    written out in an ``IN`` list) PostgreSQL spent 19 ms planning them at 60,000 games,
    where this whole statement takes 4 to 5 ms."""
    table = connection.ops.quote_name(RatingPoint._meta.db_table)
    stored = RatingPoint._meta.get_field("finished_at")
    params: list[Any] = [stored.get_db_prep_value(moment, connection) for moment in moments]
    sql = (
        f"WITH moment(at) AS (VALUES {', '.join(['(%s)'] * len(moments))}) "
        f"SELECT (SELECT id FROM {table} WHERE player_id = %s AND finished_at <= moment.at "
        "ORDER BY finished_at DESC, game_id DESC LIMIT 1) FROM moment"
    )
    return RawSQL(sql, [*params, player.pk])


def streaks(*, player: Player, span: Span) -> Streaks:
    """The longest runs of wins and of games without a win, and the run the player is
    on: the runs of each whole month (MonthRun) joined up in order, with the games of
    the part-months at the edges, in a query or two whatever the number of games."""
    months, edges = span.parts()
    parts = [
        (
            run.month,
            run.games,
            run.head,
            bool(run.head_won),
            run.tail,
            bool(run.tail_won),
            run.longest_wins,
            run.longest_without,
        )
        for run in MonthRun.objects.filter(months, player=player)
    ]
    edge = GameLine.objects.filter(edges, player=player, counted=True)
    for month, won in edge.order_by("finished_at", "game_id").values_list("month", "won"):
        parts.append((month, 1, 1, won, 1, won, int(won), int(not won)))
    # A stable sort: the games of a part-month stay in the order they finished.
    parts.sort(key=lambda part: part[0])
    longest = {True: 0, False: 0}
    current, current_won = 0, None
    for _month, games, head, head_won, tail, tail_won, wins, without in parts:
        longest[True] = max(longest[True], wins)
        longest[False] = max(longest[False], without)
        # The month's first run carries on the run before it when of the same kind.
        joined = head + (current if current_won == head_won else 0)
        longest[head_won] = max(longest[head_won], joined)
        current, current_won = (joined, head_won) if head == games else (tail, tail_won)
    return Streaks(longest[True], longest[False], current, current_won)
