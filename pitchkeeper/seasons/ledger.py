"""The chip ledger: each player's balance over a span, the payments recorded, and the
fewest payments that settle the rest."""

from __future__ import annotations

import hashlib
from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal
from functools import partial
from typing import Any

from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max, Min, QuerySet, Sum
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django_tasks import task

from pitchkeeper.clubs.models import Club, Player
from pitchkeeper.core.limits import MOST_CHIPS
from pitchkeeper.games.models import Game
from pitchkeeper.rules.payments import Plan, settle_up
from pitchkeeper.seasons.models import (
    GameLine,
    LedgerPlan,
    MonthChipValue,
    MonthLine,
    Payment,
)
from pitchkeeper.seasons.rollups import CHIP_VALUES, counted_games
from pitchkeeper.seasons.spans import Span

# Steps of the search for the fewest payments a page spends (a few ms: most ledgers are
# proven within them), and that a task spends on one the page could not prove (a
# second or two: bench/bench_payments.py gives about 1.4 microseconds a step).
PAGE_STEPS = 5_000
BACKGROUND_STEPS = 1_000_000
# A plan's key in the cache, before the digest of the balances it settles.
PLAN_KEY = "ledger-plan:"


@dataclass(frozen=True)
class Balance:
    player_id: int
    name: str
    won: int
    paid: int
    received: int

    @property
    def balance(self) -> int:
        """What the player is still owed (negative: still owes)."""
        return self.won + self.paid - self.received


@dataclass(frozen=True)
class Ledger:
    span: Span
    balances: list[Balance]
    payments: list[tuple[Balance, Balance, int]]
    # Whether ``payments`` are proven the fewest, or only a short plan.
    fewest: bool
    # Whether a task is still searching for a shorter plan.
    searching: bool
    chip_value: Decimal | None
    recorded: list[Payment]


def _payments_in(club: Club, span: Span) -> QuerySet[Payment]:
    payments = Payment.objects.filter(club=club)
    return payments.filter(season=span.season) if span.season else payments


def ledger(*, club: Club, span: Span) -> Ledger:
    """Every player's net chips over the span from the games' settlements, less the
    payments recorded on it (a player who is square too), and the fewest payments that
    settle the rest: six queries."""
    months, edges = span.parts()
    chips: dict[int, int] = defaultdict(int)
    rollup = MonthLine.objects.filter(months, club=club, games__gt=0).values("player_id")
    per_game = GameLine.objects.filter(edges, club=club, counted=True).values("player_id")
    for rows in (rollup, per_game):
        for row in rows.annotate(total=Sum("chips")):
            chips[row["player_id"]] += row["total"] or 0
    recorded = list(_payments_in(club, span).select_related("payer", "payee"))
    paid: dict[int, int] = defaultdict(int)
    received: dict[int, int] = defaultdict(int)
    for payment in recorded:
        paid[payment.payer_id] += payment.chips
        received[payment.payee_id] += payment.chips
    names = dict(Player.objects.filter(club=club).values_list("pk", "name"))
    # Everyone who played a counted game or paid in the span, square or not.
    balances = {
        pk: Balance(pk, names[pk], chips[pk], paid[pk], received[pk])
        for pk in {*chips, *paid, *received}
    }
    owed = {pk: b.balance for pk, b in balances.items() if b.balance}
    plan, searching = _plan(club, span, owed)
    return Ledger(
        span,
        sorted(balances.values(), key=lambda b: (-b.balance, b.name.casefold())),
        [(balances[payer], balances[payee], amount) for payer, payee, amount in plan.payments],
        plan.fewest,
        searching,
        _chip_value(club, span),
        recorded,
    )


def _plan(club: Club, span: Span, balances: dict[int, int]) -> tuple[Plan, bool]:
    """The plan for these balances, and whether a task is still searching for a shorter
    one. A plan is searched once for a state of the books and kept until they change:
    in this process's cache, and in the database, where every other worker, or this
    one after a restart, finds it (LedgerPlan). The page searches PAGE_STEPS; a plan
    not proven the fewest by then is shown as a short one while ``plan_search`` looks
    on with BACKGROUND_STEPS, so that the first view after a change stays quick."""
    digest = _digest(balances)
    key = PLAN_KEY + digest
    plan = cache.get(key)
    if plan is not None:
        return plan, False
    stored = LedgerPlan.objects.filter(club=club, span=span.key, state=digest).first()
    if stored is not None:
        plan = Plan(
            [(payer, payee, chips) for payer, payee, chips in stored.payments], stored.fewest
        )
        searching = not stored.complete
    else:
        plan = settle_up(balances, budget=PAGE_STEPS)
        searching = not plan.fewest
        kept = {
            "state": digest,
            "payments": plan.payments,
            "fewest": plan.fewest,
            "complete": not searching,
        }
        if not LedgerPlan.objects.filter(club=club, span=span.key).update(**kept):
            # The span's first plan; another worker storing its own meanwhile is as right.
            LedgerPlan.objects.bulk_create(
                [LedgerPlan(club=club, span=span.key, **kept)], ignore_conflicts=True
            )
        if searching:
            arguments = (club.pk, span.key, sorted(balances.items()))
            # Robust: a queue that cannot be reached leaves the short plan, no error.
            transaction.on_commit(partial(plan_search.enqueue, *arguments), robust=True)
    if not searching:
        cache.set(key, plan, timeout=None)
    return plan, searching


@task()
def plan_search(club_id: int, span_key: str, balances: list[tuple[int, int]]) -> bool:
    """Search on, with BACKGROUND_STEPS, for a shorter plan than the page's, and keep
    it for every worker, unless the books changed meanwhile. Returns whether it is
    proven the fewest."""
    owed = dict(balances)
    digest = _digest(owed)
    plan = settle_up(owed, budget=BACKGROUND_STEPS)
    if LedgerPlan.objects.filter(club_id=club_id, span=span_key, state=digest).update(
        payments=plan.payments, fewest=plan.fewest, complete=True
    ):
        cache.set(PLAN_KEY + digest, plan, timeout=None)
    return plan.fewest


def _digest(balances: dict[int, int]) -> str:
    """The state of the books a plan settles: a digest of the balances."""
    state = ",".join(f"{pk}:{amount}" for pk, amount in sorted(balances.items()))
    return hashlib.sha256(state.encode()).hexdigest()


def _chip_value(club: Club, span: Span) -> Decimal | None:
    """The season's chip value; else the games' own, when every counted game of the
    span has the same one: none without one. The whole months are read from their
    MonthChipValue rows, a dozen in a season however many games it has; the part-months
    at the edges from their games."""
    if span.season is not None and span.season.chip_value is not None:
        return span.season.chip_value
    months, edges = span.parts()
    parts = [
        MonthChipValue.objects.filter(months, club=club).aggregate(
            games=Sum("games"),
            lowest=Min("lowest"),
            highest=Max("highest"),
            no_value=Sum("no_value"),
        ),
        counted_games(club.pk).filter(edges).aggregate(**CHIP_VALUES),
    ]
    found = [part for part in parts if part["games"]]
    values = {part[end] for part in found for end in ("lowest", "highest")}
    if any(part["no_value"] for part in found) or len(values) != 1:
        return None
    # SQLite answers an aggregate of decimals unscaled (0.5 for 0.50).
    places = Game._meta.get_field("chip_value").decimal_places
    return values.pop().quantize(Decimal(1).scaleb(-places))


@transaction.atomic
def payment_record(
    *, club: Club, span: Span, payer: Player, payee: Player, chips: int, by: Any
) -> Payment:
    """Record that ``payer`` paid ``payee`` ``chips`` on the span's ledger, or raise a
    ValidationError that says what is wrong with it."""
    if payer.club_id != club.pk or payee.club_id != club.pk:
        raise ValueError("both players must be of the club")
    if payer.pk == payee.pk:
        raise ValidationError(_("Choose two different players."), code="same_player")
    if not 1 <= chips <= MOST_CHIPS:
        raise ValidationError(
            _("A payment is from 1 to %(most)s chips."),
            code="chips",
            params={"most": number_format(MOST_CHIPS, force_grouping=True)},
        )
    return Payment.objects.create(
        club=club, season=span.season, payer=payer, payee=payee, chips=chips, by=by
    )


@transaction.atomic
def payment_take_back(*, club: Club, payment_id: int) -> Payment:
    """Take back a payment recorded on the club's ledger (marked by mistake, or twice):
    it counts on no ledger any more, so the balances are again what the games made
    them less the other payments. Raises Payment.DoesNotExist for a payment the club
    has not (another club's, or one already taken back)."""
    payment = (
        Payment.objects.select_for_update(of=("self",))
        .select_related("payer", "payee")
        .get(club=club, pk=payment_id)
    )
    payment.delete()
    return payment


def season_games(*, club: Club, span: Span) -> QuerySet[Game]:
    """The span's counted finished games, in the order they finished."""
    return counted_games(club.pk).filter(span.moments()).order_by("finished_at", "pk")
