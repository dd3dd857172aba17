"""Changing hands already recorded: editing, deleting, undo and redo, and the history
of changes with restore."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from pitchkeeper.clubs.access import ROLES_FOR
from pitchkeeper.core.paging import page_of
from pitchkeeper.games.access import member_game
from pitchkeeper.games.changes import change_rows
from pitchkeeper.games.forms.hand import HandForm, initial_for
from pitchkeeper.games.hand_words import entered_row
from pitchkeeper.games.hands import Conflict, change_restore, hand_delete, hand_edit, hand_record
from pitchkeeper.games.models import Game, HandChange
from pitchkeeper.games.replay import GameState, game_state
from pitchkeeper.games.restoring import RestorePlan, restore_plan
from pitchkeeper.games.views.table import (
    UNREADABLE,
    Unreadable,
    kept_entry,
    new_hand_form,
    posted_basis,
    posted_number,
    redo_key,
    redo_stack,
    render_game,
    scored_game,
    unreadable_answer,
)
from pitchkeeper.games.words import refusal_text
from pitchkeeper.rules import RuleError, resolve_rules
from pitchkeeper.rules.record import hand_to_data, parse_hand

# Changes and deleted games listed per page.
PAGE_SIZE = 30


UNDO_STALE = gettext_lazy(
    "The hands were changed from another phone meanwhile, so nothing was undone; check the scores."
)


@require_http_methods(["GET", "POST"])
def hand_change(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Edit an earlier hand; the game is replayed and may reopen or change winner."""
    game, state = scored_game(request, pk)
    if not 1 <= number <= len(state.hands):
        if request.method == "POST" and request.POST.get("version"):
            # An edit page of a hand deleted since: no 404, say what happened.
            return _edit_conflict(request, game, number, _hand_gone(number))
        raise Http404(_("There is no such hand."))
    record = state.record.hands[number - 1]
    dealer = state.result.hands[number - 1].dealer
    # The version the page was made from goes back with the form, also when the form is
    # shown again with its errors: fixing them does not make the page any fresher.
    version = state.hands[number - 1].version
    notice = ""
    if request.method == "POST":
        form = HandForm(request.POST, state=state, dealer=dealer, number=number)
        try:
            version = posted_number(request, "version") or version
        except Unreadable:
            notice = str(UNREADABLE)
        if not notice and form.is_valid():
            try:
                hand_edit(
                    game=game,
                    number=number,
                    record=form.record(),
                    version=version,
                    user=request.user,
                )
            except Conflict as error:
                return _edit_conflict(request, game, number, error.message)
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
        form = HandForm(
            initial=initial_for(record, state.result.sides),
            state=state,
            dealer=dealer,
            number=number,
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
        "version": version,
        "notice": notice,
    }
    template = "games/hand_edit.html#form" if request.htmx else "games/hand_edit.html"
    return render(request, template, context, status=status)


def _edit_conflict(request: HttpRequest, game: Game, number: int, message: str) -> HttpResponse:
    """The hand was changed from another phone: it is shown as it is now, beside the
    entry, which goes back with the version now, to be saved again if still right."""
    state = game_state(game=game)
    if number > len(state.hands):
        messages.error(request, message)
        if request.htmx:
            return HttpResponseClientRedirect(reverse("game", args=[game.pk]))
        return redirect("game", pk=game.pk)
    dealer = state.result.hands[number - 1].dealer
    entry = kept_entry(request.POST, state, dealer)
    form = HandForm(entry, state=state, dealer=dealer, number=number)
    form.offer_legal_bids()
    context = {
        "game": game,
        "state": state,
        "form": form,
        "number": number,
        "dealer": dealer,
        "misdeal": state.record.hands[number - 1].misdeal,
        "version": state.hands[number - 1].version,
        "notice": message,
        "current": entered_row(state.hand_data(number), state.record.rules, number=number),
    }
    template = "games/hand_edit.html#form" if request.htmx else "games/hand_edit.html"
    return render(request, template, context, status=409)


def _hand_gone(number: int) -> str:
    return _("Hand %(number)d is no longer in this game: it was deleted meanwhile.") % {
        "number": number
    }


@require_POST
def hand_remove(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    game, request.role = member_game(request, pk, "score")  # type: ignore[attr-defined]
    try:
        version = posted_number(request, "version")
        hand_delete(game=game, number=number, version=version, user=request.user)
    except Unreadable:
        return unreadable_answer(request, game)
    except Conflict as error:
        messages.error(request, error.message)
        state = game_state(game=game)
        return render_game(request, state, new_hand_form(state), status=409)
    except RuleError as error:
        messages.error(request, refusal_text(error))
    else:
        messages.success(request, _("Hand %(number)s deleted.") % {"number": number})
    return redirect("game", pk=pk)


@require_POST
def undo(request: HttpRequest, pk: int) -> HttpResponse:
    """Take back the last hand; it waits on a redo stack in the session."""
    game, state = scored_game(request, pk)
    if not state.hands:
        messages.error(request, _("There is no hand to undo."))
        return _after(request, game, status=409)
    try:
        number, version = posted_number(request, "number"), posted_number(request, "version")
    except Unreadable:
        return unreadable_answer(request, game)
    if number is not None and number != len(state.hands):
        messages.error(request, str(UNDO_STALE))
        return _after(request, game, status=409)
    last = state.record.hands[-1]
    try:
        state = hand_delete(
            game=game,
            number=len(state.hands),
            version=version,
            user=request.user,
            seen=state,
            undo=True,
        )
    except Conflict:
        messages.error(request, str(UNDO_STALE))
        return _after(request, game, status=409)
    request.session[redo_key(game)] = [*redo_stack(request, game), hand_to_data(last)]
    return _after(request, game, state)


@require_POST
def redo(request: HttpRequest, pk: int) -> HttpResponse:
    game, state = scored_game(request, pk)
    stack = redo_stack(request, game)
    if not stack:
        messages.error(request, _("There is nothing to redo."))
        return _after(request, game, status=409)
    try:
        basis = posted_basis(request)
    except Unreadable:
        return unreadable_answer(request, game)
    try:
        # The basis: a second tap (or another phone's change) does not redo one more.
        state = hand_record(
            game=game,
            record=parse_hand(stack[-1]),
            basis=basis,
            user=request.user,
            seen=state,
        )
    except RuleError as error:
        messages.error(request, refusal_text(error))
        return _after(request, game, status=409)
    request.session[redo_key(game)] = stack[:-1]
    return _after(request, game, state)


def _after(
    request: HttpRequest, game: Game, state: GameState | None = None, status: int = 200
) -> HttpResponse:
    """Back to the game screen: the fresh table for htmx, else a redirect."""
    if not request.htmx:
        return redirect("game", pk=game.pk)
    state = state or game_state(game=game)
    return render_game(request, state, new_hand_form(state), status=status)


def _render_history(request: HttpRequest, game: Game, role: str, status: int = 200) -> HttpResponse:
    changes = page_of(
        game.changes.select_related("user").order_by("-at", "-pk"),
        request.GET.get("page"),
        PAGE_SIZE,
    )
    context = {
        "game": game,
        "rows": change_rows(changes, resolve_rules(game.rules)),
        "can_score": role in ROLES_FOR["score"],
        "older": changes.next_page_number() if changes.has_next() else None,
        "newer": changes.previous_page_number() if changes.has_previous() else None,
    }
    template = "games/game_history.html#changes" if request.htmx else "games/game_history.html"
    return render(request, template, context, status=status)


@require_GET
def game_history(request: HttpRequest, pk: int) -> HttpResponse:
    """Who added, changed, deleted or restored which hand and when, newest first, with
    each hand before and after; any member reads it, a scorekeeper restores from it."""
    game, role = member_game(request, pk, "read")
    return _render_history(request, game, role)


@require_POST
def restore_change(request: HttpRequest, pk: int, change: int) -> HttpResponse:
    """Put a hand back as it was before one change: an edit undone, a deletion put back
    in at its number. A restore whose place has been taken since (later hands would move,
    another dealer would deal it, the hand was changed again) is shown first, with what
    it does, and done when confirmed; what the rules refuse now is not restored, and
    says why."""
    game, role = member_game(request, pk, "score")
    found = game.changes.filter(pk=change).first()
    if found is None:
        raise Http404
    status = 200
    try:
        # Sent with the confirmation: the game as the scorekeeper saw the plan on.
        revision = posted_number(request, "revision")
        if revision is None:
            plan = restore_plan(game=game, change=found)
            if plan.asks:
                return _render_plan(request, game, found, plan)
            revision = plan.revision
        change_restore(game=game, change=found, user=request.user, revision=revision)
    except Unreadable:
        messages.error(request, str(UNREADABLE))
        status = 400
    except Conflict as error:
        try:
            plan = restore_plan(game=game, change=found)
        except RuleError as refusal:
            messages.error(request, refusal_text(refusal))
        else:
            return _render_plan(request, game, found, plan, notice=error.message, status=409)
        status = 409
    except RuleError as error:
        messages.error(request, refusal_text(error))
        status = 409
    else:
        messages.success(request, _("Hand %(number)d restored.") % {"number": found.number})
    if not request.htmx:
        return redirect("game_history", pk=pk)
    return _render_history(request, game, role, status=status)


def _render_plan(
    request: HttpRequest,
    game: Game,
    change: HandChange,
    plan: RestorePlan,
    notice: str = "",
    status: int = 200,
) -> HttpResponse:
    """What the restore would do, and a button to do it (or go back)."""
    rules = resolve_rules(game.rules)
    context = {
        "game": game,
        "change": change,
        "plan": plan,
        "hand": entered_row(plan.hand, rules, number=plan.number),
        "replaced": entered_row(plan.replaced, rules, number=plan.number)
        if plan.replaced
        else None,
        "notice": notice,
    }
    template = "games/change_restore.html#changes" if request.htmx else "games/change_restore.html"
    return render(request, template, context, status=status)
