"""The game screen and entering a hand: the scoreboard, the hand form and its auction
helper. A save is exactly once and for the deal it was entered for: a one-time token and
the game's revision (with the hand's number and dealer) go with every entry, and a
conflict keeps what was typed."""

from __future__ import annotations

import re
import secrets
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from pitchkeeper.clubs.access import ROLES_FOR, Need
from pitchkeeper.games.access import member_game
from pitchkeeper.games.board import board
from pitchkeeper.games.chart import chart
from pitchkeeper.games.forms.hand import HandForm
from pitchkeeper.games.hand_words import history
from pitchkeeper.games.hands import Basis, Conflict, basis_check, hand_record, token_recorded
from pitchkeeper.games.models import Game
from pitchkeeper.games.replay import GameState, game_state
from pitchkeeper.games.signals import game_over_links
from pitchkeeper.games.words import refusal_text
from pitchkeeper.rules import (
    PRESETS,
    HandRecord,
    RuleError,
    bidding_order,
    game_to_data,
    resolve_rules,
)

REDO_KEY = "redo"
# The hands the game screen lists, the latest: a screen that grew with every hand took
# longer to answer each time; the earlier ones are a tap away (game_hands).
TABLE_HANDS = 5


TOKEN = re.compile(r"[A-Za-z0-9_-]{1,43}")


UNREADABLE = gettext_lazy("This page is out of date or damaged; reload it and try again.")


class Unreadable(Exception):
    """A hidden field of a form came back garbled: not as this app's page sent it."""


def posted_number(request: HttpRequest, name: str) -> int | None:
    """A number the page sent back (the hand a form was for, a hand's version); None
    when it sent none (a page from before these fields, a test)."""
    value = request.POST.get(name, "").strip()
    if not value:
        return None
    if not (value.isascii() and value.isdecimal()) or len(value) > 9:
        raise Unreadable
    return int(value)


def posted_basis(request: HttpRequest) -> Basis:
    """What the page the save was made on says it was made from; a page that says
    nothing gives a Basis with no revision, which the save refuses."""
    dealer = request.POST.get("entry_dealer", "").strip()
    return Basis(
        revision=posted_number(request, "revision"),
        number=posted_number(request, "expected"),
        dealer=dealer or None,
    )


def _posted_token(request: HttpRequest) -> str | None:
    value = request.POST.get("token", "").strip()
    if not value:
        return None
    # The column holds 43 characters: a longer one would fail on PostgreSQL.
    if not TOKEN.fullmatch(value):
        raise Unreadable
    return value


def scored_game(request: HttpRequest, pk: int, need: Need = "score") -> tuple[Game, GameState]:
    game, request.role = member_game(request, pk, need)  # type: ignore[attr-defined]
    return game, game_state(game=game)


def new_hand_form(state: GameState, data: Any = None) -> HandForm | None:
    if state.result.dealer is None:
        return None
    form = HandForm(data, state=state, dealer=state.result.dealer)
    form.offer_legal_bids()
    return form


def render_game(
    request: HttpRequest, state: GameState, form: HandForm | None, status: int = 200
) -> HttpResponse:
    can_score = request.role in ROLES_FOR["score"]  # type: ignore[attr-defined]
    earlier = max(len(state.hands) - TABLE_HANDS, 0)
    context = {
        "game": state.game,
        "state": state,
        "board": board(state),
        "history": history(state, first=earlier + 1),
        "earlier": earlier,
        "chart": chart(state),
        "form": form if can_score else None,
        "redo": redo_stack(request, state.game),
        "can_score": can_score,
        "is_owner": request.role in ROLES_FOR["own"],  # type: ignore[attr-defined]
        # A new token on every showing of the form: sent twice, one hand is recorded.
        "entry_token": secrets.token_urlsafe(32),
        "next_number": len(state.hands) + 1,
        "last_version": state.hands[-1].version if state.hands else None,
        "record": _record_document(state),
        "over_links": _over_links(state.game) if state.result.finished else [],
    }
    template = "games/game.html#table" if request.htmx else "games/game.html"
    return render(request, template, context, status=status)


def _over_links(game: Game) -> list[tuple[str, str]]:
    """Where to go from a finished game besides a new one: the night it was played at."""
    answers = game_over_links.send(sender=Game, game=game)
    return [link for _receiver, links in answers for link in links]


def _record_document(state: GameState) -> dict[str, Any]:
    """The game as the phone's engine reads it (static/js/engine.js): its record in the
    ``pitchkeeper.game/1`` format, without the result, which the engine derives. Rules
    that are a preset's, unchanged, go by the preset's name: the page stays lighter."""
    data = game_to_data(state.record)
    preset = data["rules"].get("preset")
    if preset in PRESETS and resolve_rules(preset) == state.record.rules:
        data["rules"] = preset
    return data


@require_GET
def game_detail(request: HttpRequest, pk: int) -> HttpResponse:
    _game_row, state = scored_game(request, pk, "read")
    return render_game(request, state, new_hand_form(state))


@require_GET
def game_hands(request: HttpRequest, pk: int) -> HttpResponse:
    """Every hand of the game, latest first; for htmx only those before the game
    screen's latest ones, which take the place of its "earlier hands" link."""
    _game_row, state = scored_game(request, pk, "read")
    last = max(len(state.hands) - TABLE_HANDS, 0) if request.htmx else None
    can_score = request.role in ROLES_FOR["score"]  # type: ignore[attr-defined]
    rows = history(state, last=last)
    context = {"game": state.game, "rows": rows, "can_score": can_score}
    template = "games/game_hands.html#earlier" if request.htmx else "games/game_hands.html"
    return render(request, template, context)


def _save_hand(
    request: HttpRequest, seen: GameState, record: HandRecord, token: str | None, basis: Basis
) -> GameState:
    state = hand_record(
        game=seen.game, record=record, token=token, basis=basis, user=request.user, seen=seen
    )
    request.session.pop(redo_key(seen.game), None)
    return state


def kept_entry(data: QueryDict, state: GameState, new: str | None) -> QueryDict:
    """The entry as its user made it, for the dealer now (``new``). The auction fields
    go by place in the bidding order, which starts elsewhere when the deal has moved:
    each bid of the first round moves with its bidder; later rounds, whose turns follow
    from who passed before, are dropped. Everything else is keyed by name and stays."""
    old = data.get("entry_dealer")
    seating = state.record.seating
    if not old or new is None or old == new or old not in seating.players:
        return data
    before, after = bidding_order(seating, old), bidding_order(seating, new)
    kept = data.copy()
    for key in [key for key in data if key.startswith("auction_")]:
        kept.pop(key, None)
    for seat, name in enumerate(before):
        if f"auction_{seat}" in data:
            kept.setlist(f"auction_{after.index(name)}", data.getlist(f"auction_{seat}"))
    return kept


def _entry_conflict(
    request: HttpRequest, game: Game, message: str, state: GameState | None = None
) -> HttpResponse:
    """Another phone saved first: the game as it is now (``state``, when it was read
    after that), and the entry kept in the form for its user to check and save again."""
    messages.error(request, message)
    state = state or game_state(game=game)
    return render_game(
        request,
        state,
        new_hand_form(state, kept_entry(request.POST, state, state.result.dealer)),
        409,
    )


def unreadable_answer(request: HttpRequest, game: Game) -> HttpResponse:
    messages.error(request, str(UNREADABLE))
    state = game_state(game=game)
    return render_game(request, state, new_hand_form(state), status=400)


def _saved(request: HttpRequest, state: GameState) -> HttpResponse:
    if not request.htmx:
        return redirect("game", pk=state.game.pk)
    return render_game(request, state, new_hand_form(state))


@require_POST
def hand_add(request: HttpRequest, pk: int) -> HttpResponse:
    """Save a hand: the entered one, or a misdeal or an all-pass with one tap."""
    game, state = scored_game(request, pk)
    try:
        token, basis = _posted_token(request), posted_basis(request)
    except Unreadable:
        return unreadable_answer(request, game)
    if token_recorded(state=state, token=token):
        # Recorded already (a double tap, a form sent again): answer as the first time,
        # even when that hand ended the game.
        return _saved(request, state)
    try:
        # The service's own check (it runs again under the lock), made here first: the
        # form is read against this game's dealer and bidding order, which are not the
        # page's when the game moved, and "the game is over" may be another phone's doing.
        basis_check(state=state, basis=basis)
    except Conflict as error:
        return _entry_conflict(request, game, error.message, state)
    form = new_hand_form(state, request.POST)
    if form is None:
        messages.error(request, _("The game is over; no hand can follow the winning one."))
        return render_game(request, state, None, status=409)
    action = request.POST.get("action", "save")
    try:
        # A misdeal or an all-pass is one tap: whatever else the form holds is not read.
        if action == "save" and not form.is_valid():
            return render_game(request, state, form, status=400)
        state = _save_hand(request, state, form.record(action), token, basis)
    except Conflict as error:
        return _entry_conflict(request, game, error.message)
    except RuleError as error:
        if action == "save":
            form.add_rule_error(error)
        else:
            messages.error(request, refusal_text(error, state.record.rules))
        return render_game(request, state, form, status=400)
    return _saved(request, state)


@require_POST
def auction(request: HttpRequest, pk: int, number: int | None = None) -> HttpResponse:
    """The auction part of the hand form with only the legal bids enabled: of the next
    hand, or of hand ``number`` on its edit screen, whose dealer and scores before it
    decide who bids when and what (a finished game has no next hand, but its hands can
    be edited)."""
    _game_row, state = scored_game(request, pk)
    if number is None:
        form = new_hand_form(state, request.POST)
    elif 1 <= number <= len(state.hands):
        dealer = state.result.hands[number - 1].dealer
        form = HandForm(request.POST, state=state, dealer=dealer, number=number)
        form.offer_legal_bids()
    else:
        raise Http404(_("There is no such hand."))
    if form is None:
        # The game ended meanwhile (another phone): nothing to swap, the Save says so.
        return HttpResponse(status=204)
    return render(request, "games/_hand_fields.html#auction", {"game": state.game, "form": form})


def redo_key(game: Game) -> str:
    return f"{REDO_KEY}:{game.pk}"


def redo_stack(request: HttpRequest, game: Game) -> list[dict[str, Any]]:
    return request.session.get(redo_key(game), [])
