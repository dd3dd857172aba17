"""The chip ledger: balances, the payments that settle them, and recording a payment."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from pitchkeeper.clubs.access import club_player, club_view
from pitchkeeper.clubs.models import Player
from pitchkeeper.core.limits import plain_int
from pitchkeeper.core.pages import is_partial
from pitchkeeper.games.chips import chips_said
from pitchkeeper.seasons.ledger import ledger, payment_record, payment_take_back
from pitchkeeper.seasons.models import Payment
from pitchkeeper.seasons.spans import Span
from pitchkeeper.seasons.views.shared import (
    club_of,
    money,
    season_picker,
    signed,
    span_of,
    span_query,
)


def _ledger_context(request: HttpRequest, span: Span) -> dict[str, Any]:
    found = ledger(club=club_of(request), span=span)
    value = found.chip_value
    return {
        **season_picker(request, span),
        "ledger": found,
        "balances": [(b, signed(b.balance), money(b.balance, value)) for b in found.balances],
        "plan": [
            (payer, payee, chips, money(chips, value)) for payer, payee, chips in found.payments
        ],
        "players": Player.objects.filter(club=club_of(request)),
    }


@require_http_methods(["GET", "POST"])
@club_view()
def ledger_page(request: HttpRequest) -> HttpResponse:
    """Who owes whom over the season, the fewest payments that settle it, and the
    payments recorded; a POST records one (``payer``, ``payee``, ``chips``)."""
    span = span_of(request)
    status = 200
    if request.method == "POST":
        try:
            payer = _player(request, request.POST.get("payer"))
            payee = _player(request, request.POST.get("payee"))
            chips = _chips(request.POST.get("chips", ""))
            payment_record(
                club=club_of(request),
                span=span,
                payer=payer,
                payee=payee,
                chips=chips,
                by=request.user,
            )
        except ValueError:
            messages.error(request, _("Choose two different players and at least one chip."))
            status = 400
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
            status = 400
        else:
            notice = _("Recorded: %(payer)s paid %(payee)s %(chips)d.") % {
                "payer": payer.name,
                "payee": payee.name,
                "chips": chips,
            }
            messages.success(request, notice)
            if not request.htmx:
                return redirect(reverse("ledger") + span_query(span))
    return _ledger_page(request, span, status)


@require_POST
@club_view()
def payment_take_back_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Take back a recorded payment (a "Mark as paid" tapped by mistake)."""
    span = span_of(request)
    try:
        payment = payment_take_back(club=club_of(request), payment_id=pk)
    except Payment.DoesNotExist:
        messages.error(request, _("That payment is not on the ledger: it was taken back already."))
        return _ledger_page(request, span, 409)
    notice = chips_said(
        payment.chips, "taken back", payer=payment.payer.name, payee=payment.payee.name
    )
    messages.success(request, notice)
    if not request.htmx:
        return redirect(reverse("ledger") + span_query(span))
    return _ledger_page(request, span)


def _ledger_page(request: HttpRequest, span: Span, status: int = 200) -> HttpResponse:
    template = "seasons/ledger.html#ledger" if is_partial(request) else "seasons/ledger.html"
    return render(request, template, _ledger_context(request, span), status=status)


def _chips(value: str) -> int:
    """The chips typed, or 0 when they are no plain whole number that Python reads (a
    letter, or thousands of digits): payment_record then refuses 0 with the payment's
    bounds, which say what is wanted, rather than a message about the players."""
    try:
        return plain_int(value)
    except ValueError:
        return 0


def _player(request: HttpRequest, value: str | None) -> Player:
    try:
        return club_player(request, plain_int(value or ""))
    except ValueError:
        raise ValueError("no player") from None
