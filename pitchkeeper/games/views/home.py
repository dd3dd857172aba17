"""The home screen: the club's games in progress with their scores (as their last save
stored them: no game is replayed here), then the finished ones, newest first."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_GET

from pitchkeeper.clubs.access import club_view
from pitchkeeper.core.paging import page_of
from pitchkeeper.games.board import standing
from pitchkeeper.games.models import Seat
from pitchkeeper.games.words import preset_label

# Games listed per section: the page costs the same few queries however many are stored.
PAGE_SIZE = 10


@require_GET
@club_view()
def home(request: HttpRequest) -> HttpResponse:
    """Games in progress with their scores, then finished games, newest first.

    ``?page=N`` shows older finished games; htmx asks for just those to append them.
    """
    games = request.membership.club.games.alive()  # type: ignore[attr-defined]
    seats = Prefetch("seats", queryset=Seat.objects.select_related("player"))
    finished = page_of(
        games.exclude(finished_at=None).select_related("winner").prefetch_related(seats),
        request.GET.get("page"),
        PAGE_SIZE,
    )
    context = {
        "finished": [(game, preset_label(game.rules["preset"])) for game in finished],
        "older": finished.next_page_number() if finished.has_next() else None,
    }
    if request.htmx:
        return render(request, "games/home.html#finished", context)
    playing = games.filter(finished_at=None).prefetch_related(seats)[:PAGE_SIZE]
    # Untouched this long, a game is marked abandoned: to finish, delete or leave.
    abandoned = timezone.now() - timedelta(days=settings.ABANDONED_DAYS)
    context |= {
        "playing": [
            (game, preset_label(game.rules["preset"]), standing(game), game.updated < abandoned)
            for game in playing
        ],
        "last": games.prefetch_related(seats).first(),
    }
    return render(request, "games/home.html", context)
