"""The roster: add, rename, retire and bring back players."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from pitchkeeper.clubs.access import club_player, club_view
from pitchkeeper.clubs.players import player_add, player_rename, player_retire
from pitchkeeper.rules.record import MAX_NAME_LENGTH


@require_http_methods(["GET", "POST"])
@club_view()
def player_list(request: HttpRequest) -> HttpResponse:
    """The roster; a POST adds a player. After an add (``?add`` once redirected) the name
    box has focus again, so that names go in one after another, each with Enter."""
    if request.method == "GET":
        return _roster(request, adding="add" in request.GET)
    name = request.POST.get("name", "")
    try:
        player = player_add(club=request.membership.club, name=name)  # type: ignore[attr-defined]
    except ValidationError as error:
        return _roster(request, status=400, add_errors=error.messages, add_value=name, adding=True)
    notice = _("%(name)s is on the roster.") % {"name": player.name}
    if request.htmx:
        return _roster(request, notice=notice, adding=True)
    messages.success(request, notice)
    return redirect(f"{reverse('players')}?add")


@require_POST
@club_view()
def player_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """Rename, retire or bring back one player, as the button pressed says."""
    player = club_player(request, pk)
    action = request.POST.get("action", "rename")
    if action == "retire":
        player_retire(player=player, retired=True)
        return _done(request, _("%(name)s is retired.") % {"name": player.name})
    if action == "unretire":
        player_retire(player=player, retired=False)
        return _done(request, _("%(name)s is back on the roster.") % {"name": player.name})
    if action != "rename":
        return HttpResponseBadRequest(_("Unknown action."))
    old, name = player.name, request.POST.get("name", "")
    try:
        player_rename(player=player, name=name)
    except ValidationError as error:
        return _roster(request, status=400, editing=pk, edit_errors=error.messages, edit_value=name)
    return _done(request, _("%(old)s is now %(new)s.") % {"old": old, "new": player.name})


def _done(request: HttpRequest, notice: str) -> HttpResponse:
    if request.htmx:
        return _roster(request, notice=notice)
    # Post/redirect/get, so a reload does not post the change again.
    messages.success(request, notice)
    return redirect("players")


def _roster(request: HttpRequest, *, status: int = 200, **context: Any) -> HttpResponse:
    players = list(request.membership.club.players.all())  # type: ignore[attr-defined]
    context |= {
        "active": [player for player in players if not player.retired],
        "retired": [player for player in players if player.retired],
        "max_length": MAX_NAME_LENGTH,
    }
    template = "clubs/players.html#roster" if request.htmx else "clubs/players.html"
    return render(request, template, context, status=status)
