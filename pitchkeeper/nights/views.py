"""The night's screens: the list of nights, a new night, the night itself (its round,
its standing, who is here, and the buttons that move it on), a table's own link, and
the room board, for the club and read-only by link.

Each button posts to a view of its own, which calls one service and comes back to the
night (the round's part of it for htmx); a refusal is shown as a message there."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_not_required
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from pitchkeeper.clubs.access import club_membership, club_view
from pitchkeeper.clubs.models import Player
from pitchkeeper.clubs.players import roster
from pitchkeeper.core.pages import is_partial, polled
from pitchkeeper.core.paging import page_of
from pitchkeeper.games.words import preset_label, refusal_text
from pitchkeeper.nights.board import board_etag, current_round, here_now, nights_listed, standing
from pitchkeeper.nights.forms import NightForm, PlayerForm, SwapForm
from pitchkeeper.nights.models import Night, NightTable
from pitchkeeper.nights.services import (
    last_round,
    night_close,
    night_start,
    player_arrive,
    player_leave,
    round_next,
    round_start,
    round_swap,
    unfinished_tables,
)
from pitchkeeper.rules import RuleError

NIGHTS_PAGE = 20


def _night(request: HttpRequest, pk: int) -> Night:
    return get_object_or_404(Night, pk=pk, club=request.membership.club)  # type: ignore[attr-defined]


@club_view()
@require_safe
def night_list(request: HttpRequest) -> HttpResponse:
    club = request.membership.club  # type: ignore[attr-defined]
    page = page_of(club.nights.all(), request.GET.get("page"), NIGHTS_PAGE)
    context = {
        "page": page,
        "nights": nights_listed(page.object_list),
        "can_score": request.membership.can_score,  # type: ignore[attr-defined]
    }
    return render(
        request,
        "nights/night_list.html#nights" if is_partial(request) else "nights/night_list.html",
        context,
    )


@club_view("score")
def night_new(request: HttpRequest) -> HttpResponse:
    club = request.membership.club  # type: ignore[attr-defined]
    form = NightForm(request.POST or None, club=club)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            with transaction.atomic():
                typed = roster(data["new_players"], club=club)
                players = list(dict.fromkeys([*data["players"], *typed.values()]))
                night = night_start(
                    club=club,
                    players=players,
                    preset=data["preset"],
                    rounds=data["rounds"],
                    progressive=data["progressive"],
                    order=data["order"],
                    by=request.user,
                )
            return redirect("night", pk=night.pk)
        except ValidationError as error:
            form.add_error(None, error)
        except RuleError as error:
            form.add_error("players", refusal_text(error))
    return render(
        request, "nights/night_new.html", {"form": form}, status=400 if form.errors else 200
    )


def _night_context(night: Night) -> dict[str, Any]:
    shown = current_round(night)
    here = here_now(night)
    names = [(p.pk, p.name) for p in here]
    away = night.club.players.filter(retired=False).exclude(pk__in=[p.pk for p in here])
    return {
        "night": night,
        "preset": preset_label(night.rules.get("preset", "")),
        "round": shown,
        "standing": standing(night),
        "here": here,
        "swap": SwapForm(players=names) if shown and not shown.started else None,
        "arrive": PlayerForm(players=[(p.pk, p.name) for p in away.order_by("name")], typed=True),
        "leave": PlayerForm(players=names),
        "unfinished": unfinished_tables(night),
    }


@club_view()
@require_safe
def night_detail(request: HttpRequest, pk: int) -> HttpResponse:
    night = _night(request, pk)
    template = "nights/night.html#round" if is_partial(request) else "nights/night.html"
    context = _night_context(night) | {"can_score": request.membership.can_score}  # type: ignore[attr-defined]
    return render(request, template, context)


def _refused(error: ValidationError | RuleError) -> str:
    return refusal_text(error) if isinstance(error, RuleError) else " ".join(error.messages)


def _act(request: HttpRequest, pk: int, act: Callable[[Night], str | None]) -> HttpResponse:
    """Run one action on the night and come back to it, with its message."""
    night = _night(request, pk)
    try:
        done = act(night)
    except (ValidationError, RuleError) as error:
        messages.error(request, _refused(error))
    else:
        if done:
            messages.success(request, done)
    return redirect("night", pk=pk)


@require_POST
@club_view("score")
def night_next(request: HttpRequest, pk: int) -> HttpResponse:
    def act(night: Night) -> str:
        proposal = round_next(night=night)
        return _("Round %(number)d: check the tables, then start it.") % {"number": proposal.number}

    return _act(request, pk, act)


@require_POST
@club_view("score")
def night_round_start(request: HttpRequest, pk: int) -> HttpResponse:
    def act(night: Night) -> str | None:
        shown = last_round(night)
        if shown is None:
            raise Http404
        round_start(night_round=shown)
        return _("Round %(number)d has started: each table plays its game.") % {
            "number": shown.number
        }

    return _act(request, pk, act)


def _player(night: Night, pk: int) -> Player:
    return get_object_or_404(Player, pk=pk, club=night.club)


@require_POST
@club_view("score")
def night_swap(request: HttpRequest, pk: int) -> HttpResponse:
    def act(night: Night) -> str | None:
        shown = last_round(night)
        names = [(p.pk, p.name) for p in here_now(night)]
        form = SwapForm(request.POST, players=names)
        if shown is None or not form.is_valid():
            raise ValidationError(_("Choose two players of this round to swap."))
        first, second = (
            _player(night, form.cleaned_data["first"]),
            _player(night, form.cleaned_data["second"]),
        )
        round_swap(night_round=shown, first=first, second=second)
        return _("%(first)s and %(second)s swapped places.") % {
            "first": first.name,
            "second": second.name,
        }

    return _act(request, pk, act)


def _attendance(request: HttpRequest, pk: int, arriving: bool) -> HttpResponse:
    def act(night: Night) -> str:
        roster_ids = list(night.club.players.values_list("pk", "name"))
        form = PlayerForm(request.POST, players=roster_ids, typed=arriving)
        if not form.is_valid():
            raise ValidationError([e for errors in form.errors.values() for e in errors])
        if form.cleaned_data.get("name"):
            player = roster([form.cleaned_data["name"]], club=night.club)[form.cleaned_data["name"]]
        else:
            player = _player(night, form.cleaned_data["player"])
        if arriving:
            player_arrive(night=night, player=player)
            return _("%(name)s plays from the next round.") % {"name": player.name}
        player_leave(night=night, player=player)
        return _("%(name)s has left: the next rounds go on without them.") % {"name": player.name}

    return _act(request, pk, act)


@require_POST
@club_view("score")
def night_arrive(request: HttpRequest, pk: int) -> HttpResponse:
    return _attendance(request, pk, arriving=True)


@require_POST
@club_view("score")
def night_leave(request: HttpRequest, pk: int) -> HttpResponse:
    return _attendance(request, pk, arriving=False)


@club_view("score")
def night_end(request: HttpRequest, pk: int) -> HttpResponse:
    """Close the night: with a game still in play, it asks first (this page)."""
    night = _night(request, pk)
    if request.method == "POST":
        try:
            night_close(night=night, by=request.user, unfinished_ok="anyway" in request.POST)
        except ValidationError:
            pass  # asked below
        else:
            messages.success(request, _("The night is closed and its payout is on the ledger."))
            return redirect("night", pk=pk)
    context = {"night": night, "unfinished": unfinished_tables(night)}
    return render(request, "nights/night_close.html", context)


@require_safe
def night_table(request: HttpRequest, token: str) -> HttpResponse:
    """A table's own link (or QR code): its game once the round has started, else the
    table and a button that starts the round."""
    table = get_object_or_404(NightTable.objects.select_related("night_round__night"), token=token)
    night = table.night_round.night
    club_membership(request, night.club_id)
    if table.game_id is not None:
        return redirect("game", pk=table.game_id)
    # A table of an earlier round whose game was deleted is no longer the round's.
    shown = current_round(night)
    mine = next((t for t in shown.tables if t.table.pk == table.pk), None) if shown else None
    return render(
        request, "nights/night_table.html", {"night": night, "table": mine, "round": shown}
    )


@require_POST
def night_table_start(request: HttpRequest, token: str) -> HttpResponse:
    table = get_object_or_404(NightTable.objects.select_related("night_round__night"), token=token)
    club_membership(request, table.night_round.night.club_id, "score")
    try:
        round_start(night_round=table.night_round)
    except (ValidationError, RuleError) as error:
        messages.error(request, _refused(error))
        return redirect("night_table", token=token)
    table.refresh_from_db()
    return redirect("game", pk=table.game_id)


def _board(request: HttpRequest, night: Night, shared: bool) -> HttpResponse:
    context = {
        "night": night,
        "round": current_round(night),
        "standing": standing(night),
        "shared": shared,
    }
    template = "nights/night_board.html#board" if is_partial(request) else "nights/night_board.html"
    return render(request, template, context)


def _board_tag(request: HttpRequest, night: Night | None) -> str | None:
    if night is None:
        return None
    return board_etag(night, "board" if is_partial(request) else "page", get_language())


def _member_board_tag(request: HttpRequest, pk: int) -> str | None:
    club = request.membership.club  # type: ignore[attr-defined]
    return _board_tag(request, Night.objects.filter(pk=pk, club=club).first())


def _shared_board_tag(request: HttpRequest, token: str) -> str | None:
    return _board_tag(request, Night.objects.filter(share_token=token).first())


@club_view()
@polled(_member_board_tag)
def night_board(request: HttpRequest, pk: int) -> HttpResponse:
    return _board(request, _night(request, pk), shared=False)


@login_not_required
@polled(_shared_board_tag)
def night_board_shared(request: HttpRequest, token: str) -> HttpResponse:
    return _board(request, get_object_or_404(Night, share_token=token), shared=True)
