"""The game screen: scoreboard, hand entry, history and chart; editing and undo; the
history of changes and restoring from it; deleting and restoring a game.

Every form that changes hands sends back what its page showed (the hand number it is
for, a hand's version, a one-time token), so that the services refuse an entry made
on a stale page (409, the game as it is now, the entry kept) and record a double tap
once."""

from __future__ import annotations

import re
import secrets
from typing import Any

from django.contrib import messages
from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from pitchkeeper import display
from pitchkeeper.access import ROLES_FOR, Need, club_view, member_game
from pitchkeeper.changes import change_rows, hand_words
from pitchkeeper.forms.hand import HandForm, initial_for
from pitchkeeper.models import Game, Seat
from pitchkeeper.rules import HandRecord, RuleError, bidding_order, resolve_rules
from pitchkeeper.rules.record import hand_to_data, parse_hand
from pitchkeeper.services import (
    Conflict,
    GameState,
    change_restore,
    game_delete,
    game_rematch,
    game_restore,
    game_state,
    hand_delete,
    hand_edit,
    hand_record,
    share_link_renew,
)

REDO_KEY = "redo"
# Changes and deleted games listed per page, and the last page asked for.
PAGE_SIZE = 30
LAST_PAGE = 100_000
TOKEN = re.compile(r"[A-Za-z0-9_-]{1,43}")
UNREADABLE = gettext_lazy("This page is out of date or damaged; reload it and try again.")
UNDO_STALE = gettext_lazy(
    "The hands were changed from another phone meanwhile, so nothing was undone; check the scores."
)


class Unreadable(Exception):
    """A hidden field of a form came back garbled: not as this app's page sent it."""


def _posted_number(request: HttpRequest, name: str) -> int | None:
    """A number the page sent back (the hand a form was for, a hand's version); None
    when it sent none (a page from before these fields, a test)."""
    value = request.POST.get(name, "").strip()
    if not value:
        return None
    if not value.isdecimal() or len(value) > 9:
        raise Unreadable
    return int(value)


def _posted_token(request: HttpRequest) -> str | None:
    value = request.POST.get("token", "").strip()
    if not value:
        return None
    # The column holds 43 characters: a longer one would fail on PostgreSQL.
    if not TOKEN.fullmatch(value):
        raise Unreadable
    return value


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
        # A new token on every showing of the form: sent twice, one hand is recorded.
        "entry_token": secrets.token_urlsafe(32),
        "next_number": len(state.hands) + 1,
        "last_version": state.hands[-1].version if state.hands else None,
    }
    template = "game.html#table" if request.htmx else "game.html"
    return render(request, template, context, status=status)


@require_GET
def game_detail(request: HttpRequest, pk: int) -> HttpResponse:
    _game_row, state = _game(request, pk, "read")
    return _render_game(request, state, _new_hand_form(state))


def _save_hand(
    request: HttpRequest, game: Game, record: HandRecord, token: str | None, expected: int | None
) -> GameState:
    state = hand_record(game=game, record=record, token=token, expected=expected, user=request.user)
    request.session.pop(_redo_key(game), None)
    return state


def _kept_entry(data: QueryDict, state: GameState, new: str | None) -> QueryDict:
    """The entry as its user made it, for the dealer now (``new``). The auction fields
    go by place in the bidding order, which starts elsewhere when the deal has moved:
    each bid moves with its bidder. Everything else is keyed by name and stays."""
    old = data.get("entry_dealer")
    seating = state.record.seating
    if not old or new is None or old == new or old not in seating.players:
        return data
    before, after = bidding_order(seating, old), bidding_order(seating, new)
    kept = data.copy()
    for seat in range(len(before)):
        kept.pop(f"auction_{seat}", None)
    for seat, name in enumerate(before):
        if f"auction_{seat}" in data:
            kept.setlist(f"auction_{after.index(name)}", data.getlist(f"auction_{seat}"))
    return kept


def _entry_conflict(request: HttpRequest, game: Game, message: str) -> HttpResponse:
    """Another phone saved first: the game as it is now, and the entry kept in the form
    for its user to check and save again."""
    messages.error(request, message)
    state = game_state(game=game)
    return _render_game(
        request,
        state,
        _new_hand_form(state, _kept_entry(request.POST, state, state.result.dealer)),
        409,
    )


def _unreadable(request: HttpRequest, game: Game) -> HttpResponse:
    messages.error(request, str(UNREADABLE))
    state = game_state(game=game)
    return _render_game(request, state, _new_hand_form(state), status=400)


def _saved(request: HttpRequest, state: GameState) -> HttpResponse:
    if not request.htmx:
        return redirect("game", pk=state.game.pk)
    return _render_game(request, state, _new_hand_form(state))


@require_POST
def hand_add(request: HttpRequest, pk: int) -> HttpResponse:
    """Save a hand: the entered one, or a misdeal or an all-pass with one tap."""
    game, state = _game(request, pk)
    try:
        token, expected = _posted_token(request), _posted_number(request, "expected")
    except Unreadable:
        return _unreadable(request, game)
    if token is not None and any(hand.token == token for hand in state.hands):
        # Recorded already (a double tap, a form sent again): answer as the first time,
        # even when that hand ended the game.
        return _saved(request, state)
    if expected is not None and expected != len(state.hands) + 1:
        # The service would refuse it too; told here before "the game is over", which
        # may be the other phone's doing.
        return _entry_conflict(request, game, _conflict_message(expected, len(state.hands)))
    form = _new_hand_form(state, request.POST)
    if form is None:
        messages.error(request, _("The game is over; no hand can follow the winning one."))
        return _render_game(request, state, None, status=409)
    action = request.POST.get("action", "save")
    try:
        if action == "misdeal":
            state = _save_hand(request, game, HandRecord(misdeal=True), token, expected)
        elif action == "passed":
            passes = tuple((name, None) for name in form.order)
            state = _save_hand(request, game, HandRecord(auction=passes), token, expected)
        elif form.is_valid():
            state = _save_hand(request, game, form.record(), token, expected)
        else:
            return _render_game(request, state, form, status=400)
    except Conflict as error:
        return _entry_conflict(request, game, error.message)
    except RuleError as error:
        if action == "save":
            form.add_rule_error(error)
        else:
            messages.error(request, error.message)
        return _render_game(request, state, form, status=400)
    return _saved(request, state)


def _conflict_message(expected: int, count: int) -> str:
    if expected <= count:
        return _(
            "Hand %(number)d was saved from another phone meanwhile; check the scores and "
            "save yours again if it is still right."
        ) % {"number": expected}
    return _(
        "The hands were changed from another phone meanwhile; check the scores and save "
        "yours again if it is still right."
    )


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
            version = _posted_number(request, "version") or version
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
        order = bidding_order(state.record.seating, dealer)
        form = HandForm(
            initial=initial_for(record, order, state.result.sides),
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
    template = "hand_edit.html#form" if request.htmx else "hand_edit.html"
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
    entry = _kept_entry(request.POST, state, dealer)
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
        "current": hand_words(_stored_hand(state, number), state.record.rules),
    }
    template = "hand_edit.html#form" if request.htmx else "hand_edit.html"
    return render(request, template, context, status=409)


def _hand_gone(number: int) -> str:
    return _("Hand %(number)d is no longer in this game: it was deleted meanwhile.") % {
        "number": number
    }


def _stored_hand(state: GameState, number: int) -> dict[str, Any]:
    data = hand_to_data(state.record.hands[number - 1])
    return {**data, "dealer": state.result.hands[number - 1].dealer}


@require_POST
def hand_remove(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    game, request.role = member_game(request, pk, "score")  # type: ignore[attr-defined]
    try:
        version = _posted_number(request, "version")
        hand_delete(game=game, number=number, version=version, user=request.user)
    except Unreadable:
        return _unreadable(request, game)
    except Conflict as error:
        messages.error(request, error.message)
        state = game_state(game=game)
        return _render_game(request, state, _new_hand_form(state), status=409)
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
    try:
        number, version = _posted_number(request, "number"), _posted_number(request, "version")
    except Unreadable:
        return _unreadable(request, game)
    if number is not None and number != len(state.hands):
        messages.error(request, str(UNDO_STALE))
        return _after(request, game, status=409)
    last = state.record.hands[-1]
    try:
        state = hand_delete(game=game, number=len(state.hands), version=version, user=request.user)
    except Conflict:
        messages.error(request, str(UNDO_STALE))
        return _after(request, game, status=409)
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
        expected = _posted_number(request, "expected")
    except Unreadable:
        return _unreadable(request, game)
    try:
        # ``expected``: a second tap (or another phone's hand) does not redo one more.
        state = hand_record(
            game=game, record=parse_hand(stack[-1]), expected=expected, user=request.user
        )
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


def _page(request: HttpRequest) -> int:
    try:
        # Capped: a huge number would overflow the database's OFFSET (a 500, not a 404).
        return min(max(1, int(request.GET.get("page") or 1)), LAST_PAGE)
    except ValueError:
        return 1


def _render_history(request: HttpRequest, game: Game, role: str, status: int = 200) -> HttpResponse:
    page = _page(request)
    start = (page - 1) * PAGE_SIZE
    # One more than a page, to know whether there are older ones without counting.
    changes = list(
        game.changes.select_related("user").order_by("-at", "-pk")[start : start + PAGE_SIZE + 1]
    )
    context = {
        "game": game,
        "rows": change_rows(changes[:PAGE_SIZE], resolve_rules(game.rules)),
        "can_score": role in ROLES_FOR["score"],
        "older": page + 1 if len(changes) > PAGE_SIZE else None,
        "newer": page - 1 if page > 1 else None,
    }
    template = "game_history.html#changes" if request.htmx else "game_history.html"
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
    in at its number. What the rules refuse now is not restored, and says why."""
    game, role = member_game(request, pk, "score")
    found = game.changes.filter(pk=change).first()
    if found is None:
        raise Http404
    status = 200
    try:
        change_restore(game=game, change=found, user=request.user)
    except RuleError as error:
        messages.error(request, error.message)
        status = 409
    else:
        messages.success(request, _("Hand %(number)d restored.") % {"number": found.number})
    if not request.htmx:
        return redirect("game_history", pk=pk)
    return _render_history(request, game, role, status=status)


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
    context = {"game": game, "board": display.board(state), "hands": len(state.hands)}
    return render(request, "game_delete.html", context)


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
    page = _page(request)
    start = (page - 1) * PAGE_SIZE
    seats = Prefetch("seats", queryset=Seat.objects.select_related("player"))
    games = list(
        membership.club.games.deleted()
        .order_by("-deleted_at", "-pk")
        .prefetch_related(seats)[start : start + PAGE_SIZE + 1]
    )
    context = {
        "games": [
            (game, display.preset_label(game.rules.get("preset", ""))) for game in games[:PAGE_SIZE]
        ],
        "can_score": membership.can_score,
        "older": page + 1 if len(games) > PAGE_SIZE else None,
        "newer": page - 1 if page > 1 else None,
    }
    template = "games_deleted.html#games" if request.htmx else "games_deleted.html"
    return render(request, template, context)
