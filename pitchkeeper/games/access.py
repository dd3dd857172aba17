"""Reaching a game: only through a membership of the game's own club, as for everything
else (see clubs.access)."""

from __future__ import annotations

from django.db.models import OuterRef, Subquery
from django.http import Http404, HttpRequest

from pitchkeeper.clubs.access import Need, role_allows
from pitchkeeper.clubs.models import Membership
from pitchkeeper.games.models import Game


def member_game(
    request: HttpRequest, pk: int, need: Need = "read", *, deleted: bool = False
) -> tuple[Game, str]:
    """The game ``pk`` and the user's role in its club, in one query. A deleted game is
    not found, but by the screen that restores it (``deleted``)."""
    role = Membership.objects.filter(club=OuterRef("club"), user=request.user).values("role")
    games = Game.objects.all() if deleted else Game.objects.alive()
    game = games.annotate(role=Subquery(role[:1])).filter(pk=pk, role__isnull=False).first()
    if game is None:
        raise Http404
    role_allows(game.role, need)
    return game, game.role
