"""The new-game screen: the table and the rules, then off to the game."""

from __future__ import annotations

from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from pitchkeeper.clubs.access import club_view
from pitchkeeper.games.forms.seats import initial_from
from pitchkeeper.games.forms.setup import GameForm
from pitchkeeper.games.models import Seat


@require_http_methods(["GET", "POST"])
@club_view(need="score")
def game_new(request: HttpRequest) -> HttpResponse:
    """Start a game. A POST with ``move``, ``action=pick`` (a player ticked or unticked),
    ``action=add`` (a typed name onto the roster and into the next seat) or
    ``action=preset`` only rearranges the form (htmx swaps in
    the part that changed); ``action=enter`` (Enter pressed in a text field) adds the
    name typed in the box when there is one; any other POST starts the game."""
    club = request.membership.club  # type: ignore[attr-defined]
    roster = list(club.players.filter(retired=False))
    last = (
        club.games.alive()
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player")))
        .first()
    )
    if request.method == "GET":
        form = GameForm(club=club, roster=roster, initial=initial_from(last, roster))
        return render(request, "games/game_new.html", {"form": form})
    form = GameForm(request.POST, club=club, roster=roster)
    action = request.POST.get("action")
    if action == "enter":
        # The form's first button, which Enter in a text field presses: a name typed in
        # the box is added, as on the phone once app.js has loaded (which sends Enter in
        # the box to "Add"), rather than the game started with one player and refused.
        action = "add" if form.name_typed else "start"
    if "move" in request.POST:
        return _rearranged(request, form.moved(request.POST["move"]), "players")
    if action == "pick":
        return _rearranged(request, form.picked(), "players")
    if action == "add":
        form = form.with_player()
        status = 400 if form.errors else 200
        return _rearranged(request, form, "players", status=status, adding=True)
    if action == "preset":
        return _rearranged(request, form.with_preset(last.rules if last else None), "settings")
    if form.settings_stale:
        notice = _("These are the settings for %(preset)s: check them, then start the game.")
        form = form.with_preset(last.rules if last else None)
        return render(
            request,
            "games/game_new.html",
            {"form": form, "notice": notice % {"preset": form.settings_label}},
        )
    if form.is_valid() and (state := form.create()):
        return redirect("game", state.game.pk)
    return render(request, "games/game_new.html", {"form": form}, status=400)


def _rearranged(
    request: HttpRequest, form: GameForm, part: str, status: int = 200, adding: bool = False
) -> HttpResponse:
    template = f"games/game_new.html#{part}" if request.htmx else "games/game_new.html"
    # After a name is added (or refused), the box for the next one has the focus.
    context = {"form": form, "adding": adding}
    return render(request, template, context, status=status)
