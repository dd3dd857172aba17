"""A game as a whole: rematch, the live link, deleting and restoring."""

from __future__ import annotations

from django.contrib import messages
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from pitchkeeper.clubs.access import club_view
from pitchkeeper.core.paging import page_of
from pitchkeeper.games.access import member_game
from pitchkeeper.games.board import board
from pitchkeeper.games.models import Seat
from pitchkeeper.games.replay import game_state
from pitchkeeper.games.services import (
    game_counts_set,
    game_delete,
    game_rematch,
    game_restore,
    share_link_renew,
)
from pitchkeeper.games.views.edits import PAGE_SIZE
from pitchkeeper.games.words import preset_label


@require_POST
def rematch(request: HttpRequest, pk: int) -> HttpResponse:
    """Same players, seats and rules; the deal moves one seat on."""
    game, _role = member_game(request, pk, "score")
    state = game_rematch(game=game)
    return redirect("game", pk=state.game.pk)


@require_POST
def share_revoke(request: HttpRequest, pk: int) -> HttpResponse:
    """Give the live scoreboard a new address: whoever had the old one is shut out."""
    game, _role = member_game(request, pk, "own")
    share_link_renew(game=game)
    messages.success(request, _("The old live scoreboard link no longer works."))
    return redirect("game", pk=pk)


@require_http_methods(["GET", "POST"])
def game_remove(request: HttpRequest, pk: int) -> HttpResponse:
    """Delete a game, after asking: it leaves every list and page, and its live link
    stops working, until it is restored from the deleted games."""
    game, _role = member_game(request, pk, "score")
    if request.method == "POST":
        game_delete(game=game)
        messages.success(
            request,
            _("Game %(number)d deleted. It can be restored from the deleted games.")
            % {"number": game.pk},
        )
        return redirect("home")
    state = game_state(game=game)
    context = {"game": game, "board": board(state), "hands": len(state.hands)}
    return render(request, "games/game_delete.html", context)


@require_POST
def game_unremove(request: HttpRequest, pk: int) -> HttpResponse:
    """Bring a deleted game back, hands, live link and all."""
    game, _role = member_game(request, pk, "score", deleted=True)
    if game.deleted_at is not None:
        game_restore(game=game)
        messages.success(request, _("Game %(number)d restored.") % {"number": game.pk})
    return redirect("game", pk=pk)


@require_GET
@club_view()
def games_deleted(request: HttpRequest) -> HttpResponse:
    """The current club's deleted games, last deleted first, to be restored."""
    membership = request.membership  # type: ignore[attr-defined]
    seats = Prefetch("seats", queryset=Seat.objects.select_related("player"))
    games = page_of(
        membership.club.games.deleted().order_by("-deleted_at", "-pk").prefetch_related(seats),
        request.GET.get("page"),
        PAGE_SIZE,
    )
    context = {
        "games": [(game, preset_label(game.rules.get("preset", ""))) for game in games],
        "can_score": membership.can_score,
        "older": games.next_page_number() if games.has_next() else None,
        "newer": games.previous_page_number() if games.has_previous() else None,
    }
    template = "games/games_deleted.html#games" if request.htmx else "games/games_deleted.html"
    return render(request, template, context)


@require_POST
def game_counts(request: HttpRequest, pk: int) -> HttpResponse:
    """Mark a game as counting (``counts=1``) or as practice (``counts=0``)."""
    game, role = member_game(request, pk, "score")
    game_counts_set(game=game, counts=request.POST.get("counts") == "1")
    if request.htmx:
        return render(request, "games/_game_counts.html", {"game": game, "can_score": True})
    if game.counts:
        messages.success(request, _("This game counts in the seasons again."))
    else:
        messages.success(request, _("This game is practice: it is left out of the seasons."))
    return redirect("game", pk=pk)
