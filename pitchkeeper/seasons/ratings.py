"""The rating of every player of a club, game by game in the order they finished."""

from __future__ import annotations

import itertools
from datetime import datetime
from typing import Any

from django.db.models import OuterRef, Q, QuerySet, Subquery
from openskill.models import PlackettLuce

from pitchkeeper.clubs.models import Player
from pitchkeeper.seasons.models import (
    GameLine,
    RatingPoint,
)

# openskill's Plackett-Luce model: ranks any number of sides of any size, teams too.
RATING_MODEL = PlackettLuce()


RATING_BATCH = 5000


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
        latest = _latest_rating(_before(since))
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
