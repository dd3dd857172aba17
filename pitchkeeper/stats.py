"""Seasons, statistics, ratings and the chip ledger.

Every figure comes from what the rules engine made of the recorded hands. Whenever a
game's hands change, services._save calls ``stats_game_saved`` with the engine's
GameResult, which rewrites that game's derived rows (GameLine: a player's figures in
the game; GameCount: the categories taken and bids made, by kind), adds the difference
to the monthly rollups (MonthLine, MonthCount), and re-rates the club from that game on
when its outcome changed. Nothing else of the season is recomputed.

Pages never replay games: a season is read from the rollups for its whole months and
from the per-game rows for the part-months at its edges, a fixed number of aggregate
queries whatever the number of games.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from typing import Any

from django.db import connection, transaction
from django.db.models import Count, F, Max, Min, OuterRef, Q, QuerySet, Subquery, Sum
from django.db.models.signals import post_save, pre_delete
from django.dispatch import receiver
from django.utils import timezone
from openskill.models import PlackettLuce

from pitchkeeper.models import (
    Club,
    Game,
    GameCount,
    GameLine,
    MonthCount,
    MonthLine,
    Payment,
    Player,
    RatingPoint,
    Season,
)
from pitchkeeper.rules import GameRecord, GameResult, Ruleset

# The sums a MonthLine keeps, each from the GameLine column of the same name except
# the four counted from flags.
LINE_SUMS = (
    "hands",
    "taken",
    "pitched",
    "bids",
    "made",
    "set_back",
    "in_hole",
    "smudges",
    "smudges_made",
    "revokes",
    "chips",
)
MONTH_FIELDS = ("games", "team_games", "wins", "team_wins", "place_sum", *LINE_SUMS)
CATEGORY, BID = "cat", "bid"
# Above this many players with a balance, the exact fewest-payments search (2^n subsets)
# gives way to the greedy one (at most n - 1 payments).
EXACT_SETTLEMENT_LIMIT = 15
# openskill's Plackett-Luce model: ranks any number of sides of any size, teams too.
RATING_MODEL = PlackettLuce()
RATING_BATCH = 5000


# ---- Deriving a game's rows from the engine's result ----


def _month(moment: datetime) -> date:
    return timezone.localtime(moment).date().replace(day=1)


def places(result: GameResult) -> dict[str, int]:
    """Each side's finishing place: the winner first, then the others by final score,
    equal scores sharing a place (1, 2, 2, 4). A drawn game ranks every side by score."""
    others = [side for side in result.sides if side != result.winner]
    ranked = sorted(others, key=lambda side: -result.scores[side])
    first = 1 if result.winner is None else 2
    found: dict[str, int] = {} if result.winner is None else {result.winner: 1}
    for index, side in enumerate(ranked):
        same = index and result.scores[side] == result.scores[ranked[index - 1]]
        found[side] = found[ranked[index - 1]] if same else first + index
    return found


def split_chips(net: int, members: Sequence[int], turn: int) -> dict[int, int]:
    """A side's net chips shared among its members in whole chips: evenly, the odd
    chips one each to the members in seat order from seat ``turn`` (the game's id, so
    that no seat always gets them); the shares add up to ``net``."""
    size = len(members)
    share, odd = divmod(abs(net), size)
    sign = 1 if net >= 0 else -1
    return {
        member: sign * (share + (1 if (index - turn) % size < odd else 0))
        for index, member in enumerate(members)
    }


def _taken(went_to: Any, side: str) -> bool:
    if isinstance(went_to, dict):
        return went_to.get(side, 0) > 0
    return went_to == side


def derive(
    *, game: Game, record: GameRecord, result: GameResult, ids: Mapping[str, int]
) -> tuple[list[GameLine], list[GameCount]]:
    """The derived rows of a finished game (none for one in progress), from the engine's
    result alone."""
    if not result.finished or game.finished_at is None:
        return [], []
    seating = record.seating
    rules: Ruleset = record.rules
    members: dict[str, list[int]] = defaultdict(list)
    for name in seating.players:
        members[seating.side_of(name)].append(ids[name])
    team = bool(seating.teams)
    place = places(result)
    chips: dict[int, int] = {}
    for side, net in (result.settlement or {}).items():
        chips |= split_chips(net, members[side], game.pk or 0)
    finished_at = game.finished_at
    month = _month(finished_at)
    counted = game.counts and game.deleted_at is None
    played = [hand for hand in result.hands if hand.kind == "played"]
    categories = [category.key for category in rules.categories]

    lines: list[GameLine] = []
    counts: list[GameCount] = []
    common = {
        "club_id": game.club_id,
        "game_id": game.pk,
        "finished_at": finished_at,
        "month": month,
        "counted": counted,
    }
    for name in seating.players:
        player = ids[name]
        side = seating.side_of(name)
        figures = dict.fromkeys(LINE_SUMS[2:-1], 0)
        taken = 0
        before = 0
        for hand in result.hands:
            after = hand.scores.get(side, before)
            if before >= 0 > after:
                figures["in_hole"] += 1
            before = after
        for hand in played:
            taken += hand.taken.get(side, 0)
            if side in hand.set_back:
                figures["set_back"] += 1
            if side in hand.revoked:
                figures["revokes"] += 1
            if hand.pitcher != name:
                continue
            figures["pitched"] += 1
            if hand.bid is not None:
                figures["bids"] += 1
                figures["made"] += bool(hand.made)
            if hand.smudge:
                figures["smudges"] += 1
                figures["smudges_made"] += bool(hand.made)
        lines.append(
            GameLine(
                **common,
                player_id=player,
                side=side,
                team=team,
                sides=len(result.sides),
                place=place[side],
                won=side == result.winner,
                score=result.scores[side],
                hands=len(played),
                taken=taken,
                chips=chips.get(player, 0),
                **figures,
            )
        )
        for key in categories:
            took = sum(_taken(hand.points.get(key), side) for hand in played)
            if played:
                counts.append(
                    GameCount(
                        **common,
                        player_id=player,
                        kind=CATEGORY,
                        key=key,
                        count=took,
                        out_of=len(played),
                    )
                )
        bids: dict[str, list[int]] = {}
        for hand in played:
            if hand.pitcher == name and hand.bid is not None:
                tally = bids.setdefault(str(hand.bid), [0, 0])
                tally[0] += bool(hand.made)
                tally[1] += 1
        counts.extend(
            GameCount(**common, player_id=player, kind=BID, key=key, count=made, out_of=bid)
            for key, (made, bid) in bids.items()
        )
    return lines, counts


# ---- Writing: a game's rows, the rollups, the ratings ----

LINE_COMPARED = ("player_id", "side", "team", "finished_at", "counted", "sides", "place", "won")
LINE_COMPARED += ("score", *LINE_SUMS)
COUNT_COMPARED = ("player_id", "finished_at", "counted", "kind", "key", "count", "out_of")


def _line_key(line: GameLine) -> tuple[Any, ...]:
    return tuple(getattr(line, name) for name in LINE_COMPARED)


def _count_key(count: GameCount) -> tuple[Any, ...]:
    return tuple(getattr(count, name) for name in COUNT_COMPARED)


def _rated(lines: Iterable[GameLine]) -> set[tuple[Any, ...]]:
    """What the rating of a game depends on: who played on which side, in what place,
    when, and whether it counts."""
    return {(ln.player_id, ln.side, ln.place, ln.finished_at, ln.counted) for ln in lines}


@transaction.atomic
def stats_game_saved(
    *, game: Game, record: GameRecord, result: GameResult, ids: Mapping[str, int]
) -> None:
    """Bring a game's derived rows, the rollups and the ratings up to date after its
    hands changed. One query for a game in progress; a few more when it finished or a
    finished game changed; re-rating from this game on only when its outcome changed."""
    lines, counts = derive(game=game, record=record, result=result, ids=ids)
    _replace(game, lines, counts)


def _replace(game: Game, lines: list[GameLine], counts: list[GameCount]) -> None:
    old_lines = list(GameLine.objects.filter(game=game))
    if not old_lines and not lines:
        return
    old_counts = list(GameCount.objects.filter(game=game)) if old_lines else []
    same_lines = sorted(map(_line_key, old_lines)) == sorted(map(_line_key, lines))
    if same_lines and sorted(map(_count_key, old_counts)) == sorted(map(_count_key, counts)):
        return
    GameLine.objects.filter(game=game).delete()
    GameCount.objects.filter(game=game).delete()
    GameLine.objects.bulk_create(lines)
    GameCount.objects.bulk_create(counts)
    _rollup(game.club_id, old_lines, old_counts, sign=-1)
    _rollup(game.club_id, lines, counts, sign=1)
    if _rated(old_lines) != _rated(lines):
        moments = [ln.finished_at for ln in [*old_lines, *lines]]
        ratings_recompute(club_id=game.club_id, since=(min(moments), game.pk))


def _month_values(line: GameLine) -> dict[str, int]:
    return {
        "games": 1,
        "team_games": int(line.team),
        "wins": int(line.won),
        "team_wins": int(line.won and line.team),
        "place_sum": line.place,
        **{name: getattr(line, name) for name in LINE_SUMS},
    }


def _rollup(
    club_id: int, lines: Iterable[GameLine], counts: Iterable[GameCount], sign: int
) -> None:
    """Add (``sign`` 1) or take away (-1) the counted rows' figures in the monthly
    rollups, in one statement per table: an INSERT that adds to the row already there,
    which stays right with two games saved at once."""
    # Raw SQL, so the months are put in the column's stored form.
    months: dict[tuple[int, Any], dict[str, int]] = {}
    for line in lines:
        if line.counted:
            key = (line.player_id, connection.ops.adapt_datefield_value(line.month))
            sums = months.setdefault(key, dict.fromkeys(MONTH_FIELDS, 0))
            for name, value in _month_values(line).items():
                sums[name] += sign * value
    tallies: dict[tuple[int, Any, str, str], list[int]] = {}
    for count in counts:
        if count.counted:
            month = connection.ops.adapt_datefield_value(count.month)
            tally = tallies.setdefault((count.player_id, month, count.kind, count.key), [0, 0])
            tally[0] += sign * count.count
            tally[1] += sign * count.out_of
    _upsert_add(
        MonthLine._meta.db_table,
        ("player_id", "month"),
        MONTH_FIELDS,
        [(club_id, *key, *(sums[name] for name in MONTH_FIELDS)) for key, sums in months.items()],
    )
    _upsert_add(
        MonthCount._meta.db_table,
        ("player_id", "month", "kind", "key"),
        ("count", "out_of"),
        [(club_id, *key, *tally) for key, tally in tallies.items()],
    )


def _upsert_add(
    table: str, keys: Sequence[str], sums: Sequence[str], rows: Sequence[Sequence[Any]]
) -> None:
    if not rows:
        return
    quote = connection.ops.quote_name
    columns = ", ".join(quote(name) for name in ("club_id", *keys, *sums))
    marks = ", ".join(["%s"] * (1 + len(keys) + len(sums)))
    adds = ", ".join(f"{quote(n)} = {quote(table)}.{quote(n)} + excluded.{quote(n)}" for n in sums)
    sql = (
        f"INSERT INTO {quote(table)} ({columns}) VALUES ({marks}) "
        f"ON CONFLICT ({', '.join(quote(k) for k in keys)}) DO UPDATE SET {adds}"
    )
    with connection.cursor() as cursor:
        cursor.executemany(sql, rows)


def rollups_rebuild(*, club_id: int) -> None:
    """The monthly rollups summed again from the per-game rows (after a bulk load)."""
    MonthLine.objects.filter(club_id=club_id).delete()
    MonthCount.objects.filter(club_id=club_id).delete()
    lines = (
        GameLine.objects.filter(club_id=club_id, counted=True)
        .values("player_id", "month")
        .annotate(
            games=Count("id"),
            team_games=Count("id", filter=Q(team=True)),
            wins=Count("id", filter=Q(won=True)),
            team_wins=Count("id", filter=Q(won=True, team=True)),
            place_sum=Sum("place"),
            **{name: Sum(name) for name in LINE_SUMS},
        )
    )
    MonthLine.objects.bulk_create(
        (MonthLine(club_id=club_id, **row) for row in lines.iterator()), batch_size=RATING_BATCH
    )
    counts = (
        GameCount.objects.filter(club_id=club_id, counted=True)
        .values("player_id", "month", "kind", "key")
        .annotate(count=Sum("count"), out_of=Sum("out_of"))
    )
    MonthCount.objects.bulk_create(
        (MonthCount(club_id=club_id, **row) for row in counts.iterator()), batch_size=RATING_BATCH
    )


def _after(since: tuple[datetime, int]) -> Q:
    moment, game_id = since
    return Q(finished_at__gt=moment) | Q(finished_at=moment, game_id__gte=game_id)


def _latest_rating(before: Q) -> QuerySet[RatingPoint]:
    return RatingPoint.objects.filter(before, player=OuterRef("pk")).order_by(
        "-finished_at", "-game_id"
    )


def ratings_recompute(*, club_id: int, since: tuple[datetime, int] | None = None) -> int:
    """Re-rate, in the order they finished, every counted game of the club from
    ``since`` (a finish time and a game id) on, each player starting from their rating
    just before it; None re-rates everything. Returns the number of games rated."""
    after = _after(since) if since else Q()
    RatingPoint.objects.filter(after, club_id=club_id).delete()
    current: dict[int, Any] = {}
    if since:
        before = ~_after(since)
        latest = _latest_rating(before)
        players = Player.objects.filter(club_id=club_id).annotate(
            mu=Subquery(latest.values("mu")[:1]), sigma=Subquery(latest.values("sigma")[:1])
        )
        for player_id, mu, sigma in players.values_list("pk", "mu", "sigma"):
            if mu is not None:
                current[player_id] = RATING_MODEL.rating(mu=mu, sigma=sigma)
    rows = (
        GameLine.objects.filter(after, club_id=club_id, counted=True)
        .order_by("finished_at", "game_id", "place", "side", "player_id")
        .values_list("game_id", "finished_at", "player_id", "side", "place")
    )
    points: list[RatingPoint] = []
    rated = 0
    for (game_id, finished_at), seats in itertools.groupby(
        rows.iterator(chunk_size=RATING_BATCH), key=lambda row: (row[0], row[1])
    ):
        sides: dict[str, list[int]] = {}
        ranks: dict[str, int] = {}
        for _game, _at, player_id, side, place in seats:
            sides.setdefault(side, []).append(player_id)
            ranks[side] = place
        if len(sides) < 2:
            continue
        teams = [[current.get(p) or RATING_MODEL.rating() for p in ps] for ps in sides.values()]
        new = RATING_MODEL.rate(teams, ranks=list(ranks.values()))
        for members, ratings in zip(sides.values(), new, strict=True):
            for player_id, rating in zip(members, ratings, strict=True):
                current[player_id] = rating
                points.append(
                    RatingPoint(
                        club_id=club_id,
                        game_id=game_id,
                        player_id=player_id,
                        finished_at=finished_at,
                        mu=rating.mu,
                        sigma=rating.sigma,
                    )
                )
        rated += 1
        if len(points) >= RATING_BATCH:
            RatingPoint.objects.bulk_create(points)
            points = []
    RatingPoint.objects.bulk_create(points)
    return rated


def _counted(game: Game) -> bool:
    return game.counts and game.deleted_at is None


def _refresh_counted(game: Game) -> None:
    """A game that stopped or started counting (practice, deleted, restored): its rows
    move out of or into the rollups and the ratings, without a replay."""
    counted = _counted(game)
    lines = list(GameLine.objects.filter(game=game).exclude(counted=counted))
    if not lines:
        return
    counts = list(GameCount.objects.filter(game=game).exclude(counted=counted))
    GameLine.objects.filter(game=game).update(counted=counted)
    GameCount.objects.filter(game=game).update(counted=counted)
    for row in [*lines, *counts]:
        row.counted = True
    _rollup(game.club_id, lines, counts, sign=1 if counted else -1)
    ratings_recompute(club_id=game.club_id, since=(lines[0].finished_at, game.pk))


@transaction.atomic
def stats_game_counts(*, game: Game, counts: bool) -> Game:
    """Mark a game as counting, or as a practice game left out of seasons, ratings and
    the ledger."""
    game.counts = counts
    game.save(update_fields=["counts", "updated"])
    return game


@receiver(post_save, sender=Game, dispatch_uid="stats_game_flags")
def _game_flags_saved(
    sender: type[Game], instance: Game, update_fields: Any, **kwargs: Any
) -> None:
    # The hand-by-hand saves name their fields and are skipped at no cost; a save of
    # ``counts`` or ``deleted_at`` (or of everything) moves the game in or out.
    if kwargs.get("raw") or kwargs.get("created"):
        return
    if update_fields is None or {"counts", "deleted_at"} & set(update_fields):
        with transaction.atomic():
            _refresh_counted(instance)


@receiver(pre_delete, sender=Game, dispatch_uid="stats_game_deleted")
def _game_deleted(sender: type[Game], instance: Game, **kwargs: Any) -> None:
    """A game dropped for good leaves the rollups, and the games after it are re-rated."""
    lines = list(GameLine.objects.filter(game=instance))
    if not lines:
        return
    counts = list(GameCount.objects.filter(game=instance))
    GameLine.objects.filter(game=instance).delete()
    GameCount.objects.filter(game=instance).delete()
    _rollup(instance.club_id, lines, counts, sign=-1)
    if any(line.counted for line in lines):
        ratings_recompute(club_id=instance.club_id, since=(lines[0].finished_at, instance.pk))


def stats_rebuild(*, club: Club) -> None:
    """Every derived row of the club written again from its hands through the engine:
    for a club whose rows predate the statistics, and to check the incremental path."""
    from pitchkeeper.services import games_replayed

    GameLine.objects.filter(club=club).delete()
    GameCount.objects.filter(club=club).delete()
    games = club.games.exclude(finished_at=None).order_by("pk")
    pks = list(games.values_list("pk", flat=True))
    for start in range(0, len(pks), 500):
        lines: list[GameLine] = []
        counts: list[GameCount] = []
        for state in games_replayed(games=Game.objects.filter(pk__in=pks[start : start + 500])):
            ids = {name: pk for pk, name in state.names.items()}
            new = derive(game=state.game, record=state.record, result=state.result, ids=ids)
            lines += new[0]
            counts += new[1]
        GameLine.objects.bulk_create(lines)
        GameCount.objects.bulk_create(counts)
    rollups_rebuild(club_id=club.pk)
    ratings_recompute(club_id=club.pk)


# ---- Seasons: which one, and which rows it reads ----


@dataclass(frozen=True)
class Span:
    """The days a page covers: a season, or all time (``season`` None)."""

    season: Season | None
    start: date | None = None
    end: date | None = None

    @property
    def key(self) -> str:
        return str(self.season.pk) if self.season else "all"

    def bounds(self) -> tuple[datetime | None, datetime | None]:
        """The first moment in it and the first one after it, in TIME_ZONE."""
        zone = timezone.get_current_timezone()
        low = datetime.combine(self.start, time.min, zone) if self.start else None
        high = datetime.combine(self.end + timedelta(days=1), time.min, zone) if self.end else None
        return low, high

    def moments(self) -> Q:
        low, high = self.bounds()
        q = Q()
        if low:
            q &= Q(finished_at__gte=low)
        if high:
            q &= Q(finished_at__lt=high)
        return q

    def parts(self) -> tuple[Q, Q]:
        """The rollup months wholly inside, and the per-game rows of the part-months at
        the edges: together, every day of the span exactly once."""
        first = None if self.start is None else _month_on_or_after(self.start)
        after_end = None if self.end is None else self.end + timedelta(days=1)
        last = None if after_end is None else after_end.replace(day=1)
        if first is not None and last is not None and first >= last:
            return Q(pk__in=[]), self.moments()
        months = Q()
        if first is not None:
            months &= Q(month__gte=first)
        if last is not None:
            months &= Q(month__lt=last)
        edges = Q(pk__in=[])
        if self.start is not None and first != self.start:
            edges |= Span(None, self.start, first - timedelta(days=1)).moments()
        if after_end is not None and last != after_end:
            edges |= Span(None, last, self.end).moments()
        return months, edges


def _month_on_or_after(day: date) -> date:
    if day.day == 1:
        return day
    return (day.replace(day=28) + timedelta(days=4)).replace(day=1)


def span_for(*, club: Club, key: str | None, today: date | None = None) -> Span:
    """The span a page asks for: ``key`` a season's id or "all"; none, the current
    season (the latest begun one that has not ended), else all time. A season of
    another club is not found (Season.DoesNotExist)."""
    if key == "all":
        return Span(None)
    if key:
        season = Season.objects.get(club=club, pk=int(key))
    else:
        today = today or timezone.localdate()
        season = (
            Season.objects.filter(club=club, start__lte=today)
            .filter(Q(end__isnull=True) | Q(end__gte=today))
            .order_by("-start", "-pk")
            .first()
        )
        if season is None:
            return Span(None)
    return Span(season, season.start, season.end)


# ---- Reading: leaderboard, player page, ledger ----


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
    month_counts = MonthCount.objects.filter(months, mine, club=club)
    edge_counts = GameCount.objects.filter(edges, mine, club=club, counted=True)
    for rows in (month_counts, edge_counts):
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
    latest = _latest_rating(Q(finished_at__lt=high) if high else Q())
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


@dataclass(frozen=True)
class PlayerStats:
    span: Span
    standing: Standing | None
    opponents: list[Opponent]
    streaks: Streaks
    history: list[tuple[datetime, float, float]]
    games: list[GameLine]
    more: bool


def player_stats(*, player: Player, span: Span, page: int = 1, per_page: int = 20) -> PlayerStats:
    """One player's figures over the span: nine queries, whatever the number of games."""
    club = player.club_id
    standing = _gather(club, span, player).get(player.pk)
    # Asked even without a game in the span, so that the page costs the same queries.
    rating = _ratings(club, span, player).values_list("name", "mu", "sigma").get()
    if standing is not None:
        standing.name, standing.mu, standing.sigma = rating
    moments = span.moments()
    mine = GameLine.objects.filter(moments, player=player, counted=True)
    others = (
        GameLine.objects.filter(
            moments, game__lines__player=player, game__lines__counted=True, counted=True
        )
        .exclude(player=player)
        .values("player_id", "player__name")
        .annotate(
            games=Count("id"),
            partners=Count("id", filter=Q(side=F("game__lines__side"))),
            wins_against=Count(
                "id", filter=Q(game__lines__won=True) & ~Q(side=F("game__lines__side"))
            ),
            losses_to=Count("id", filter=Q(won=True) & ~Q(side=F("game__lines__side"))),
            ahead=Count("id", filter=Q(place__gt=F("game__lines__place"))),
        )
        .order_by("-games", "player__name")
    )
    opponents = [
        Opponent(
            row["player_id"],
            row["player__name"],
            row["games"],
            row["partners"],
            row["wins_against"],
            row["losses_to"],
            row["ahead"],
        )
        for row in others
    ]
    history = list(
        RatingPoint.objects.filter(moments, player=player)
        .order_by("finished_at", "game_id")
        .values_list("finished_at", "mu", "sigma")
    )
    start = (page - 1) * per_page
    games = list(
        mine.select_related("game").order_by("-finished_at", "-game_id")[
            start : start + per_page + 1
        ]
    )
    return PlayerStats(
        span,
        standing,
        opponents,
        streaks(player=player, span=span),
        history,
        games[:per_page],
        len(games) > per_page,
    )


def streaks(*, player: Player, span: Span) -> Streaks:
    """The longest runs of wins and of games without a win, and the run the player is
    on, counted in the database (runs of equal results, "gaps and islands")."""
    table = connection.ops.quote_name(GameLine._meta.db_table)
    low, high = span.bounds()
    where = "player_id = %s AND counted"
    params: list[Any] = [player.pk]
    if low:
        where += " AND finished_at >= %s"
        params.append(low)
    if high:
        where += " AND finished_at < %s"
        params.append(high)
    # Raw SQL, so the moments are put in the column's stored form (naive UTC on SQLite).
    stored = GameLine._meta.get_field("finished_at")
    params = [params[0], *(stored.get_db_prep_value(v, connection) for v in params[1:])]
    sql = f"""
        WITH seq AS (
            SELECT won, finished_at, game_id,
                   ROW_NUMBER() OVER (ORDER BY finished_at, game_id)
                   - ROW_NUMBER() OVER (PARTITION BY won ORDER BY finished_at, game_id) AS run
            FROM {table} WHERE {where}
        ), runs AS (
            SELECT won, run, COUNT(*) AS length, MAX(finished_at) AS last_at,
                   MAX(game_id) AS last_game
            FROM seq GROUP BY won, run
        ), latest AS (
            SELECT won, length FROM runs ORDER BY last_at DESC, last_game DESC LIMIT 1
        )
        SELECT 0, won, MAX(length) FROM runs GROUP BY won
        UNION ALL SELECT 1, won, length FROM latest
    """
    longest = {True: 0, False: 0}
    current, current_won = 0, None
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        for which, won, length in cursor.fetchall():
            if which == 0:
                longest[bool(won)] = length
            else:
                current, current_won = length, bool(won)
    return Streaks(longest[True], longest[False], current, current_won)


# ---- The chip ledger ----


def fewest_payments(balances: Mapping[Any, int]) -> list[tuple[Any, Any, int]]:
    """Payments (payer, payee, chips) that bring every balance to zero, as few as can
    be: ``balances`` sum to zero, a negative one owes.

    n players with a balance never need more than n - 1 payments, and need one fewer for
    every group of them whose balances sum to zero on their own: the fewest payments
    are n minus the most such groups the players can be split into. Finding that split
    is NP-hard in general; up to EXACT_SETTLEMENT_LIMIT players it is found exactly over
    the 2^n subsets, beyond that the greedy settlement (the biggest debtor pays the
    biggest creditor) is used, which gives at most n - 1.
    """
    if sum(balances.values()):
        raise ValueError("balances must sum to zero")
    owed = {who: amount for who, amount in balances.items() if amount}
    people = sorted(owed, key=lambda who: (owed[who], str(who)))
    if len(people) > EXACT_SETTLEMENT_LIMIT:
        return _greedy(owed, people)
    payments: list[tuple[Any, Any, int]] = []
    for group in _zero_groups([owed[who] for who in people]):
        members = [people[i] for i in group]
        payments += _greedy(owed, members)
    return payments


def _greedy(owed: Mapping[Any, int], people: Sequence[Any]) -> list[tuple[Any, Any, int]]:
    """The biggest debtor pays the biggest creditor until all are square: a group of k
    with a zero sum settles in at most k - 1 payments."""
    left = {who: owed[who] for who in people}
    payments = []
    while True:
        debtor = min(left, key=lambda who: (left[who], str(who)), default=None)
        creditor = max(left, key=lambda who: (left[who], str(who)), default=None)
        if debtor is None or left[debtor] >= 0:
            return payments
        amount = min(-left[debtor], left[creditor])
        payments.append((debtor, creditor, amount))
        left[debtor] += amount
        left[creditor] -= amount
        for who in (debtor, creditor):
            if not left[who]:
                del left[who]


def _zero_groups(amounts: Sequence[int]) -> list[list[int]]:
    """The indexes of ``amounts`` (summing to zero) split into the most groups that
    each sum to zero: dynamic programming over the subsets, best[mask] being the most
    zero-sum groups the first ones taken out of ``mask`` can make."""
    n = len(amounts)
    if not n:
        return []
    full = (1 << n) - 1
    total = [0] * (full + 1)
    best = [0] * (full + 1)
    for mask in range(1, full + 1):
        low = mask & -mask
        total[mask] = total[mask ^ low] + amounts[low.bit_length() - 1]
        most = 0
        rest = mask
        while rest:
            bit = rest & -rest
            if best[mask ^ bit] > most:
                most = best[mask ^ bit]
            rest ^= bit
        best[mask] = most + (1 if total[mask] == 0 else 0)
    # Walk back: take out one element at a time keeping the count; every time the part
    # taken out so far sums to zero, it is one group.
    groups: list[list[int]] = []
    group: list[int] = []
    mask = full
    while mask:
        gain = 1 if total[mask] == 0 else 0
        rest = mask
        while rest:
            bit = rest & -rest
            if best[mask ^ bit] + gain == best[mask]:
                break
            rest ^= bit
        group.append(bit.bit_length() - 1)
        mask ^= bit
        if total[mask] == 0:
            groups.append(group)
            group = []
    return groups


@dataclass(frozen=True)
class Balance:
    player_id: int
    name: str
    won: int
    paid: int
    received: int

    @property
    def balance(self) -> int:
        """What the player is still owed (negative: still owes)."""
        return self.won + self.paid - self.received


@dataclass(frozen=True)
class Ledger:
    span: Span
    balances: list[Balance]
    payments: list[tuple[Balance, Balance, int]]
    chip_value: Decimal | None
    recorded: list[Payment]


def _payments_in(club: Club, span: Span) -> QuerySet[Payment]:
    payments = Payment.objects.filter(club=club)
    return payments.filter(season=span.season) if span.season else payments


def ledger(*, club: Club, span: Span) -> Ledger:
    """Every player's net chips over the span from the games' settlements, less the
    payments recorded on it, and the fewest payments that settle the rest: six queries."""
    months, edges = span.parts()
    chips: dict[int, int] = defaultdict(int)
    rollup = MonthLine.objects.filter(months, club=club).values("player_id")
    per_game = GameLine.objects.filter(edges, club=club, counted=True).values("player_id")
    for rows in (rollup, per_game):
        for row in rows.annotate(total=Sum("chips")):
            chips[row["player_id"]] += row["total"] or 0
    recorded = list(_payments_in(club, span).select_related("payer", "payee"))
    paid: dict[int, int] = defaultdict(int)
    received: dict[int, int] = defaultdict(int)
    for payment in recorded:
        paid[payment.payer_id] += payment.chips
        received[payment.payee_id] += payment.chips
    names = dict(Player.objects.filter(club=club).values_list("pk", "name"))
    balances = {
        pk: Balance(pk, names[pk], chips[pk], paid[pk], received[pk])
        for pk in {*chips, *paid, *received}
        if chips[pk] or paid[pk] or received[pk]
    }
    plan = fewest_payments({pk: b.balance for pk, b in balances.items()})
    return Ledger(
        span,
        sorted(balances.values(), key=lambda b: (-b.balance, b.name.casefold())),
        [(balances[payer], balances[payee], amount) for payer, payee, amount in plan],
        _chip_value(club, span),
        recorded,
    )


def _chip_value(club: Club, span: Span) -> Decimal | None:
    """The season's chip value; else the games' own, when every counted game of the
    span has the same one."""
    if span.season is not None and span.season.chip_value is not None:
        return span.season.chip_value
    games = Game.objects.filter(
        span.moments(), club=club, counts=True, deleted_at=None, finished_at__isnull=False
    )
    found = games.aggregate(
        low=Min("chip_value"), high=Max("chip_value"), unset=Count("pk", filter=Q(chip_value=None))
    )
    if found["low"] is not None and found["low"] == found["high"] and not found["unset"]:
        return found["low"]
    return None


@transaction.atomic
def payment_record(
    *, club: Club, span: Span, payer: Player, payee: Player, chips: int, by: Any
) -> Payment:
    """Record that ``payer`` paid ``payee`` ``chips`` on the span's ledger."""
    if payer.club_id != club.pk or payee.club_id != club.pk:
        raise ValueError("both players must be of the club")
    if payer.pk == payee.pk or chips < 1:
        raise ValueError("a payment is at least one chip between two players")
    return Payment.objects.create(
        club=club, season=span.season, payer=payer, payee=payee, chips=chips, by=by
    )


def season_games(*, club: Club, span: Span) -> QuerySet[Game]:
    """The span's counted finished games, in the order they finished."""
    return Game.objects.filter(
        span.moments(), club=club, counts=True, deleted_at=None, finished_at__isnull=False
    ).order_by("finished_at", "pk")
