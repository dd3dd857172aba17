"""The statistics' derived rows: a game's per-player rows from the engine's result, the
monthly rollups, and keeping both up to date when a game changes.

Games never call in here: each change that alters what counts is sent by the games code
that makes it, as one of the signals of games.signals (hands saved, a game that starts
or stops counting, a game deleted for good, counted fields updated), and received here
in its transaction. ``stats_rebuild`` writes everything again from the hands."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from datetime import date, datetime
from typing import Any

from django.db import connection, transaction
from django.db.models import Count, Q, Sum
from django.dispatch import receiver
from django.utils import timezone

from pitchkeeper.clubs.models import Club
from pitchkeeper.games.models import Game
from pitchkeeper.games.replay import games_replayed
from pitchkeeper.games.signals import (
    game_counting_changed,
    game_erasing,
    game_saved,
    games_updated,
)
from pitchkeeper.rules import GameRecord, GameResult, Ruleset, settled_per_player
from pitchkeeper.seasons.models import (
    LINE_SUMS,
    MONTH_FIELDS,
    GameCount,
    GameLine,
    MonthCount,
    MonthLine,
    MonthPair,
    TotalCount,
)
from pitchkeeper.seasons.ratings import ratings_recompute
from pitchkeeper.seasons.rollups import (
    PAIR_FIELDS,
    chip_values_refresh,
    month_rows_rewrite,
    pair_sums,
    pairs_rebuild,
    runs_refresh,
)
from pitchkeeper.seasons.tasks import rerate_from
from pitchkeeper.seasons.zone import zone_recorded

CATEGORY, BID = "cat", "bid"
# Monthly rollup rows inserted at a time when they are summed again (rollups_rebuild).
ROLLUP_INSERT_BATCH = 5000


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
    each = settled_per_player(rules, seating, result.settlement)
    chips: dict[int, int] = {}
    if each is not None:
        chips = {ids[name]: amount for name, amount in each.items()}
    else:
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


@receiver(game_saved, dispatch_uid="stats_game_saved")
# Sent inside the save's own transaction, which a failure here rolls back whole: a
# savepoint of its own would only cost two more statements on every save.
@transaction.atomic(savepoint=False)
def stats_game_saved(
    *,
    game: Game,
    record: GameRecord,
    result: GameResult,
    ids: Mapping[str, int],
    was_over: bool = True,
    **signal: Any,
) -> None:
    """Bring a game's derived rows, the rollups and the ratings up to date after its
    hands changed. No query for a game in progress that was in progress before (only a
    finished game has derived rows: ``was_over`` says whether there may be some to
    compare); a few when it finished or a finished game changed; re-rating from this
    game on only when its outcome changed."""
    lines, counts = derive(game=game, record=record, result=result, ids=ids)
    if lines or was_over:
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
    month_rows_rewrite(club_id=game.club_id, lines=[*old_lines, *lines])
    if _rated(old_lines) != _rated(lines):
        moments = [ln.finished_at for ln in [*old_lines, *lines]]
        rerate_from(club_id=game.club_id, since=(min(moments), game.pk))


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
    club_id: int, lines: Sequence[GameLine], counts: Iterable[GameCount], sign: int
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
    totals: dict[tuple[int, str, str], list[int]] = {}
    for (player, _month, kind, key), (count, out_of) in tallies.items():
        total = totals.setdefault((player, kind, key), [0, 0])
        total[0] += count
        total[1] += out_of
    _upsert_add(
        TotalCount._meta.db_table,
        ("player_id", "kind", "key"),
        ("count", "out_of"),
        [(club_id, *key, *total) for key, total in totals.items()],
    )
    _upsert_add(
        MonthPair._meta.db_table,
        ("player_id", "other_id", "month"),
        PAIR_FIELDS,
        [(club_id, *key, *tally) for key, tally in pair_sums(lines, sign).items()],
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
    """The rollups summed again from the per-game rows (after a bulk load)."""
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
        (MonthLine(club_id=club_id, **row) for row in lines.iterator()),
        batch_size=ROLLUP_INSERT_BATCH,
    )
    counted = GameCount.objects.filter(club_id=club_id, counted=True)
    sums = {"count": Sum("count"), "out_of": Sum("out_of")}
    counts = counted.values("player_id", "month", "kind", "key").annotate(**sums)
    MonthCount.objects.bulk_create(
        (MonthCount(club_id=club_id, **row) for row in counts.iterator()),
        batch_size=ROLLUP_INSERT_BATCH,
    )
    TotalCount.objects.filter(club_id=club_id).delete()
    totals = counted.values("player_id", "kind", "key").annotate(**sums)
    TotalCount.objects.bulk_create(TotalCount(club_id=club_id, **row) for row in totals)
    pairs_rebuild(club_id=club_id)
    runs_refresh(club_id=club_id)
    chip_values_refresh(club_id=club_id)


def _counted(game: Game) -> bool:
    return game.counts and game.deleted_at is None


@receiver(game_counting_changed, dispatch_uid="stats_game_counting_changed")
def stats_game_counting_changed(*, game: Game, **signal: Any) -> None:
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
    month_rows_rewrite(club_id=game.club_id, lines=lines)
    rerate_from(club_id=game.club_id, since=(lines[0].finished_at, game.pk))


@receiver(game_erasing, dispatch_uid="stats_game_erasing")
def stats_game_erasing(*, game: Game, **signal: Any) -> None:
    """A game dropped for good leaves the rollups, and the games after it are re-rated."""
    lines = list(GameLine.objects.filter(game=game))
    if not lines:
        return
    counts = list(GameCount.objects.filter(game=game))
    GameLine.objects.filter(game=game).delete()
    GameCount.objects.filter(game=game).delete()
    _rollup(game.club_id, lines, counts, sign=-1)
    month_rows_rewrite(club_id=game.club_id, lines=lines, erasing=game.pk)
    if any(line.counted for line in lines):
        rerate_from(club_id=game.club_id, since=(lines[0].finished_at, game.pk))


@receiver(games_updated, dispatch_uid="stats_games_updated")
def stats_games_updated(*, pks: Sequence[int], **signal: Any) -> None:
    """Games whose counted fields were set by an update: replayed, and their rows
    rewritten as after a change of their hands."""
    for state in games_replayed(games=Game.objects.filter(pk__in=pks).order_by("pk")):
        ids = {name: pk for pk, name in state.names.items()}
        _replace(
            state.game, *derive(game=state.game, record=state.record, result=state.result, ids=ids)
        )
    # A game's chip value is on none of its lines: their months' chip values are
    # written again whether the lines changed or not.
    months: dict[int, set[date]] = defaultdict(set)
    for club_id, month in GameLine.objects.filter(game_id__in=pks).values_list("club_id", "month"):
        months[club_id].add(month)
    for club_id, found in months.items():
        chip_values_refresh(club_id=club_id, months=found)


def stats_rebuild(*, club: Club) -> None:
    """Every derived row of the club written again from its hands through the engine,
    with its months in TIME_ZONE (which is recorded): for a club whose rows predate the
    statistics, after a change of TIME_ZONE, and to check the incremental path."""
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
    zone_recorded(club=club)
