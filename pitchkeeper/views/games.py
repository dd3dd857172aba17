"""The game screen: scoreboard, hand entry, history and chart; editing and undo."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from pitchkeeper import display
from pitchkeeper.access import ROLES_FOR, Need, member_game
from pitchkeeper.forms.hand import HandForm, initial_for
from pitchkeeper.models import Game
from pitchkeeper.rules import HandRecord, RuleError, bidding_order
from pitchkeeper.rules.record import hand_to_data, parse_hand
from pitchkeeper.services import (
    GameState,
    game_rematch,
    game_state,
    hand_delete,
    hand_edit,
    hand_record,
    share_link_renew,
)

REDO_KEY = "redo"


def _game(request: HttpRequest, pk: int, need: Need = "score") -> tuple[Game, GameState]:
    game, request.role = member_game(request, pk, need)  # type: ignore[attr-defined]
    return game, game_state(game=game)


def _new_hand_form(state: GameState, data: Any = None) -> HandForm | None:
    if state.result.dealer is None:
        return None
    form = HandForm(data, state=state, dealer=state.result.dealer)
    form.offer_legal_bids()
    return form


def _render_game(
    request: HttpRequest, state: GameState, form: HandForm | None, status: int = 200
) -> HttpResponse:
    can_score = request.role in ROLES_FOR["score"]  # type: ignore[attr-defined]
    context = {
        "game": state.game,
        "state": state,
        "board": display.board(state),
        "history": display.history(state),
        "chart": display.chart(state),
        "form": form if can_score else None,
        "redo": _redo_stack(request, state.game),
        "can_score": can_score,
        "is_owner": request.role in ROLES_FOR["own"],  # type: ignore[attr-defined]
    }
    template = "game.html#table" if request.htmx else "game.html"
    return render(request, template, context, status=status)


@require_GET
def game_detail(request: HttpRequest, pk: int) -> HttpResponse:
    _game_row, state = _game(request, pk, "read")
    return _render_game(request, state, _new_hand_form(state))


def _save_hand(request: HttpRequest, game: Game, record: HandRecord) -> GameState:
    state = hand_record(game=game, record=record)
    request.session.pop(_redo_key(game), None)
    return state


@require_POST
def hand_add(request: HttpRequest, pk: int) -> HttpResponse:
    """Save a hand: the entered one, or a misdeal or an all-pass with one tap."""
    game, state = _game(request, pk)
    form = _new_hand_form(state, request.POST)
    if form is None:
        messages.error(request, _("The game is over; no hand can follow the winning one."))
        return _render_game(request, state, None, status=409)
    action = request.POST.get("action", "save")
    try:
        if action == "misdeal":
            state = _save_hand(request, game, HandRecord(misdeal=True))
        elif action == "passed":
            passes = tuple((name, None) for name in form.order)
            state = _save_hand(request, game, HandRecord(auction=passes))
        elif form.is_valid():
            state = _save_hand(request, game, form.record())
        else:
            return _render_game(request, state, form, status=400)
    except RuleError as error:
        if action == "save":
            form.add_rule_error(error)
        else:
            messages.error(request, error.message)
        return _render_game(request, state, form, status=400)
    if not request.htmx:
        return redirect("game", pk=pk)
    return _render_game(request, state, _new_hand_form(state))


@require_POST
def auction(request: HttpRequest, pk: int) -> HttpResponse:
    """The auction part of the hand form with only the legal bids enabled."""
    _game_row, state = _game(request, pk)
    form = _new_hand_form(state, request.POST)
    return render(request, "_hand_fields.html#auction", {"game": state.game, "form": form})


@require_http_methods(["GET", "POST"])
def hand_change(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Edit an earlier hand; the game is replayed and may reopen or change winner."""
    game, state = _game(request, pk)
    if not 1 <= number <= len(state.hands):
        raise Http404(_("There is no such hand."))
    record = state.record.hands[number - 1]
    dealer = state.result.hands[number - 1].dealer
    if request.method == "POST":
        form = HandForm(request.POST, state=state, dealer=dealer)
        if form.is_valid():
            try:
                hand_edit(game=game, number=number, record=form.record())
            except RuleError as error:
                form.add_rule_error(error)
            else:
                messages.success(request, _("Hand %(number)s changed.") % {"number": number})
                if request.htmx:
                    # A redirect would be followed inside the XHR and swapped into the form.
                    return HttpResponseClientRedirect(reverse("game", args=[pk]))
                return redirect("game", pk=pk)
        status = 400
    else:
        order = bidding_order(state.record.seating, dealer)
        form = HandForm(
            initial=initial_for(record, order, state.result.sides), state=state, dealer=dealer
        )
        status = 200
    form.offer_legal_bids()
    context = {
        "game": game,
        "state": state,
        "form": form,
        "number": number,
        "dealer": dealer,
        "misdeal": record.misdeal,
    }
    template = "hand_edit.html#form" if request.htmx else "hand_edit.html"
    return render(request, template, context, status=status)


@require_POST
def hand_remove(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    game, _role = member_game(request, pk, "score")
    try:
        hand_delete(game=game, number=number)
    except RuleError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Hand %(number)s deleted.") % {"number": number})
    return redirect("game", pk=pk)


def _redo_key(game: Game) -> str:
    return f"{REDO_KEY}:{game.pk}"


def _redo_stack(request: HttpRequest, game: Game) -> list[dict[str, Any]]:
    return request.session.get(_redo_key(game), [])


@require_POST
def undo(request: HttpRequest, pk: int) -> HttpResponse:
    """Take back the last hand; it waits on a redo stack in the session."""
    game, state = _game(request, pk)
    if not state.hands:
        messages.error(request, _("There is no hand to undo."))
        return _after(request, game, status=409)
    last = state.record.hands[-1]
    state = hand_delete(game=game, number=len(state.hands))
    request.session[_redo_key(game)] = [*_redo_stack(request, game), hand_to_data(last)]
    return _after(request, game, state)


@require_POST
def redo(request: HttpRequest, pk: int) -> HttpResponse:
    game, state = _game(request, pk)
    stack = _redo_stack(request, game)
    if not stack:
        messages.error(request, _("There is nothing to redo."))
        return _after(request, game, status=409)
    try:
        state = hand_record(game=game, record=parse_hand(stack[-1]))
    except RuleError as error:
        messages.error(request, error.message)
        return _after(request, game, status=409)
    request.session[_redo_key(game)] = stack[:-1]
    return _after(request, game, state)


def _after(
    request: HttpRequest, game: Game, state: GameState | None = None, status: int = 200
) -> HttpResponse:
    """Back to the game screen: the fresh table for htmx, else a redirect."""
    if not request.htmx:
        return redirect("game", pk=game.pk)
    state = state or game_state(game=game)
    return _render_game(request, state, _new_hand_form(state), status=status)


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
