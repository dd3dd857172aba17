"""Reaching a game: only through a membership of the game's own club, as for everything
else (see clubs.access)."""

from __future__ import annotations

from django.db.models import F
from django.http import Http404, HttpRequest

from pitchkeeper.clubs.access import Need, role_allows
from pitchkeeper.games.models import Game


def member_game(
    request: HttpRequest, pk: int, need: Need = "read", *, deleted: bool = False
) -> tuple[Game, str]:
    """The game ``pk`` and the user's role in its club, in one query: a join on the
    user's membership, one at most per club. (A subquery said the same at three times
    the cost of building its SQL, on every game request.) A deleted game is not found,
    but by the screen that restores it (``deleted``)."""
    games = Game.objects.all() if deleted else Game.objects.alive()
    game = (
        games.filter(pk=pk, club__memberships__user=request.user)
        .annotate(role=F("club__memberships__role"))
        .order_by()
        .first()
    )
    if game is None:
        raise Http404
    role_allows(game.role, need)
    return game, game.role
