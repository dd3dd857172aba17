"""The rating of every player of a club, game by game in the order they finished.

A change to a game re-rates every later game. A few are re-rated at once, in the
change's own transaction; a longer history is marked due from that game on
(``RatingsDue``) and re-rated by seasons.tasks in short steps, each its own
transaction, so that no request waits on the whole history."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from datetime import datetime
from typing import Any

from django.db import connection, transaction
from django.db.models import OuterRef, Q, QuerySet, Subquery
from openskill.models import PlackettLuce

from pitchkeeper.clubs.models import Club, Player
from pitchkeeper.seasons.models import (
    GameLine,
    RatingPoint,
    RatingsDue,
)

# openskill's Plackett-Luce model: ranks any number of sides of any size, teams too.
RATING_MODEL = PlackettLuce()

# Rating rows read, and rating points inserted, at a time.
RATING_BATCH = 5000
# Seats at most games have (more only cost another read).
SEATS = 6


def _after(since: tuple[datetime, int]) -> Q:
    """The rows of games finished from ``since`` on. Written as a range on finished_at
    less the games before it at that moment, rather than as the equivalent
    ``finished_at > t OR (= t AND game >= g)``: with the OR, SQLite reads every row of
    the club through the club's index, however recent ``since`` is; with the range, the
    (club, finished_at, ...) indexes take it straight to the end of the history."""
    moment, game_id = since
    return Q(finished_at__gte=moment) & ~Q(finished_at=moment, game_id__lt=game_id)


def _before(since: tuple[datetime, int]) -> Q:
    """The rows of games finished before ``since``, as a range too (see _after)."""
    moment, game_id = since
    return Q(finished_at__lte=moment) & ~Q(finished_at=moment, game_id__gte=game_id)


def latest_rating(before: Q) -> QuerySet[RatingPoint]:
    """A player's rating points matching ``before``, latest first: the subquery, on the
    outer query's player, whose first row is their rating then."""
    return RatingPoint.objects.filter(before, player=OuterRef("pk")).order_by(
        "-finished_at", "-game_id"
    )


Key = tuple[datetime, int]


# A rating point as written: club, game, player, finish time (in the column's stored
# form), mu and sigma.
Row = tuple[int, int, int, Any, float, float]
COLUMNS = ("club_id", "game_id", "player_id", "finished_at", "mu", "sigma")


def _ratings_from(
    *, club_id: int, since: Key | None, games: int | None = None
) -> Iterator[tuple[Key, list[Row]]]:
    """Every counted game of the club from ``since`` on (all for None), in the order
    they finished, with the rating points it gives, each player starting from their
    rating just before ``since``. ``games``: about how many will be taken, so that a
    short step reads little more than those from the database."""
    current: dict[int, Any] = {}
    if since:
        latest = latest_rating(_before(since))
        players = Player.objects.filter(club_id=club_id).annotate(
            mu=Subquery(latest.values("mu")[:1]), sigma=Subquery(latest.values("sigma")[:1])
        )
        for player_id, mu, sigma in players.values_list("pk", "mu", "sigma"):
            if mu is not None:
                current[player_id] = RATING_MODEL.rating(mu=mu, sigma=sigma)
    rows = (
        GameLine.objects.filter(_after(since) if since else Q(), club_id=club_id, counted=True)
        .order_by("finished_at", "game_id", "place", "side", "player_id")
        .values_list("game_id", "finished_at", "player_id", "side", "place")
    )
    chunk = RATING_BATCH if games is None else min(RATING_BATCH, (games + 1) * SEATS)
    for (game_id, finished_at), seats in itertools.groupby(
        rows.iterator(chunk_size=chunk), key=lambda row: (row[0], row[1])
    ):
        sides: dict[str, list[int]] = {}
        ranks: dict[str, int] = {}
        for _game, _at, player_id, side, place in seats:
            sides.setdefault(side, []).append(player_id)
            ranks[side] = place
        points: list[Row] = []
        if len(sides) >= 2:
            stored_at = connection.ops.adapt_datetimefield_value(finished_at)
            teams = [[current.get(p) or RATING_MODEL.rating() for p in ps] for ps in sides.values()]
            new = RATING_MODEL.rate(teams, ranks=list(ranks.values()))
            for members, ratings in zip(sides.values(), new, strict=True):
                for player_id, rating in zip(members, ratings, strict=True):
                    current[player_id] = rating
                    points.append((club_id, game_id, player_id, stored_at, rating.mu, rating.sigma))
        yield (finished_at, game_id), points


def _insert(rows: list[Row]) -> None:
    """Rating points written with one prepared statement: Django's bulk_create makes a
    model and prepares every field of every row in Python, which was most of the time
    a re-rating held the write lock."""
    if not rows:
        return
    quote = connection.ops.quote_name
    columns = ", ".join(quote(name) for name in COLUMNS)
    marks = ", ".join(["%s"] * len(COLUMNS))
    sql = f"INSERT INTO {quote(RatingPoint._meta.db_table)} ({columns}) VALUES ({marks})"
    with connection.cursor() as cursor:
        cursor.executemany(sql, rows)


def ratings_recompute(*, club_id: int) -> int:
    """Re-rate every counted game of the club, in the order they finished (after a bulk
    load, and in stats_rebuild). Returns the number of games rated."""
    RatingsDue.objects.filter(club_id=club_id).delete()
    RatingPoint.objects.filter(club_id=club_id).delete()
    points: list[Row] = []
    rated = 0
    for _key, new in _ratings_from(club_id=club_id, since=None):
        points += new
        rated += bool(new)
        if len(points) >= RATING_BATCH:
            _insert(points)
            points = []
    _insert(points)
    return rated


def _rated_from(*, club_id: int, since: Key, games: int) -> tuple[list[Row], Key | None]:
    """The rating points of up to ``games`` counted games from ``since`` on, and the
    next game left (None when none is left). Reads only: it writes nothing."""
    points: list[Row] = []
    for count, (key, new) in enumerate(_ratings_from(club_id=club_id, since=since, games=games)):
        if count == games:
            return points, key
        points += new
    return points, None


def _replace_points(*, club_id: int, since: Key, until: Key | None, points: list[Row]) -> None:
    """The rating points from ``since`` up to ``until`` (all from ``since`` on for None)
    replaced by ``points``. Only those are deleted: the later ones stay, as they were,
    until their turn."""
    upto = _before(until) if until else Q()
    RatingPoint.objects.filter(_after(since), upto, club_id=club_id).delete()
    _insert(points)


def _rerate(*, club_id: int, since: Key, games: int) -> Key | None:
    """Re-rate up to ``games`` counted games from ``since`` on, in the caller's
    transaction. Returns the next game left, or None when the ratings are up to date."""
    points, until = _rated_from(club_id=club_id, since=since, games=games)
    _replace_points(club_id=club_id, since=since, until=until, points=points)
    return until


def _due_locked(club_id: int) -> RatingsDue | None:
    """The club's mark, read with the club's row locked: on PostgreSQL two changes to
    one club's ratings (or a change and a step) then take turns, as all writes do on
    SQLite, rather than both rewriting the same rating points."""
    Club.objects.select_for_update().filter(pk=club_id).values_list("pk", flat=True).first()
    return RatingsDue.objects.filter(club_id=club_id).first()


def ratings_changed(*, club_id: int, since: Key, games: int) -> bool:
    """A change at ``since`` (a game's finish time and id) for the ratings from there on:
    the first ``games`` games re-rated at once when none were due; whatever is left
    marked due, from ``since`` or from where it already was, if earlier. Call it in the
    change's transaction. Returns whether the ratings are due (for seasons.tasks)."""
    due = _due_locked(club_id)
    if due is None:
        until = _rerate(club_id=club_id, since=since, games=games) if games else since
        if until is None:
            return False
        RatingsDue.objects.create(club_id=club_id, since_at=until[0], since_game=until[1])
    else:
        # Counted even when the mark stays, so that a step rated from a reading taken
        # before this change knows to throw its work away (ratings_catch_up).
        due.changes += 1
        if since < (due.since_at, due.since_game):
            due.since_at, due.since_game = since
        due.save()
    return True


def ratings_catch_up(*, club_id: int, games: int) -> bool:
    """One step of a due re-rating: up to ``games`` games from the club's mark on, and
    the mark moved past them (removed at the end). The games are read and rated before
    the step's transaction, which only checks that the mark is as it was read (no
    change came meanwhile; otherwise the step is thrown away and taken again) and
    writes: the write lock is held for the writes alone, not for the reading and the
    rating. Run again, a step interrupted or repeated does the same work again: nothing
    is lost or counted twice. Call it outside a transaction. Returns whether the
    ratings are up to date."""
    read = RatingsDue.objects.filter(club_id=club_id).first()
    if read is None:
        return True
    since = (read.since_at, read.since_game)
    points, until = _rated_from(club_id=club_id, since=since, games=games)
    with transaction.atomic():
        due = _due_locked(club_id)
        if due is None:
            return True
        if (due.since_at, due.since_game, due.changes, due.moved_at) != (
            *since,
            read.changes,
            read.moved_at,
        ):
            return False
        _replace_points(club_id=club_id, since=since, until=until, points=points)
        if until is None:
            due.delete()
            return True
        due.since_at, due.since_game = until
        due.save()
    return False


def ratings_pending(*, club_id: int) -> bool:
    """Whether some of the club's ratings are still being brought up to date."""
    return RatingsDue.objects.filter(club_id=club_id).exists()
