"""The chip ledger: each player's balance over a span, the payments recorded, and the
fewest payments that settle the rest."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count, Max, Min, Q, QuerySet, Sum
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from pitchkeeper.clubs.models import Club, Player
from pitchkeeper.core.limits import MOST_CHIPS
from pitchkeeper.games.models import Game
from pitchkeeper.seasons.models import (
    GameLine,
    MonthLine,
    Payment,
)
from pitchkeeper.seasons.spans import Span

# Above this many players with a balance, the exact fewest-payments search (2^n subsets)
# gives way to the greedy one (at most n - 1 payments).
EXACT_SETTLEMENT_LIMIT = 15


def fewest_payments(balances: Mapping[Any, int]) -> list[tuple[Any, Any, int]]:
    """Payments (payer, payee, chips) that bring every balance to zero, as few as can
    be: ``balances`` sum to zero, a negative one owes.

    n players with a balance never need more than n - 1 payments, and need one fewer for
    every group of them whose balances sum to zero on their own: the fewest payments
    are n minus the most such groups the players can be split into. Finding that split
    is NP-hard in general; up to EXACT_SETTLEMENT_LIMIT players it is found exactly over
    the 2^n subsets, beyond that the greedy settlement (the biggest debtor pays the
    biggest creditor) is used, which gives at most n - 1.
    """
    if sum(balances.values()):
        raise ValueError("balances must sum to zero")
    owed = {who: amount for who, amount in balances.items() if amount}
    people = sorted(owed, key=lambda who: (owed[who], str(who)))
    if len(people) > EXACT_SETTLEMENT_LIMIT:
        return _greedy(owed, people)
    payments: list[tuple[Any, Any, int]] = []
    for group in _zero_groups([owed[who] for who in people]):
        members = [people[i] for i in group]
        payments += _greedy(owed, members)
    return payments


def _greedy(owed: Mapping[Any, int], people: Sequence[Any]) -> list[tuple[Any, Any, int]]:
    """The biggest debtor pays the biggest creditor until all are square: a group of k
    with a zero sum settles in at most k - 1 payments."""
    left = {who: owed[who] for who in people}
    payments = []
    while True:
        debtor = min(left, key=lambda who: (left[who], str(who)), default=None)
        creditor = max(left, key=lambda who: (left[who], str(who)), default=None)
        if debtor is None or left[debtor] >= 0:
            return payments
        amount = min(-left[debtor], left[creditor])
        payments.append((debtor, creditor, amount))
        left[debtor] += amount
        left[creditor] -= amount
        for who in (debtor, creditor):
            if not left[who]:
                del left[who]


def _zero_groups(amounts: Sequence[int]) -> list[list[int]]:
    """The indexes of ``amounts`` (summing to zero) split into the most groups that
    each sum to zero: dynamic programming over the subsets, best[mask] being the most
    zero-sum groups the first ones taken out of ``mask`` can make."""
    n = len(amounts)
    if not n:
        return []
    full = (1 << n) - 1
    total = [0] * (full + 1)
    best = [0] * (full + 1)
    for mask in range(1, full + 1):
        low = mask & -mask
        total[mask] = total[mask ^ low] + amounts[low.bit_length() - 1]
        most = 0
        rest = mask
        while rest:
            bit = rest & -rest
            if best[mask ^ bit] > most:
                most = best[mask ^ bit]
            rest ^= bit
        best[mask] = most + (1 if total[mask] == 0 else 0)
    # Walk back: take out one element at a time keeping the count; every time the part
    # taken out so far sums to zero, it is one group.
    groups: list[list[int]] = []
    group: list[int] = []
    mask = full
    while mask:
        gain = 1 if total[mask] == 0 else 0
        rest = mask
        while rest:
            bit = rest & -rest
            if best[mask ^ bit] + gain == best[mask]:
                break
            rest ^= bit
        group.append(bit.bit_length() - 1)
        mask ^= bit
        if total[mask] == 0:
            groups.append(group)
            group = []
    return groups


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
    chip_value: Decimal | None
    recorded: list[Payment]


def _payments_in(club: Club, span: Span) -> QuerySet[Payment]:
    payments = Payment.objects.filter(club=club)
    return payments.filter(season=span.season) if span.season else payments


def ledger(*, club: Club, span: Span) -> Ledger:
    """Every player's net chips over the span from the games' settlements, less the
    payments recorded on it, and the fewest payments that settle the rest: six queries."""
    months, edges = span.parts()
    chips: dict[int, int] = defaultdict(int)
    rollup = MonthLine.objects.filter(months, club=club).values("player_id")
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
    balances = {
        pk: Balance(pk, names[pk], chips[pk], paid[pk], received[pk])
        for pk in {*chips, *paid, *received}
        if chips[pk] or paid[pk] or received[pk]
    }
    plan = fewest_payments({pk: b.balance for pk, b in balances.items()})
    return Ledger(
        span,
        sorted(balances.values(), key=lambda b: (-b.balance, b.name.casefold())),
        [(balances[payer], balances[payee], amount) for payer, payee, amount in plan],
        _chip_value(club, span),
        recorded,
    )


def _chip_value(club: Club, span: Span) -> Decimal | None:
    """The season's chip value; else the games' own, when every counted game of the
    span has the same one."""
    if span.season is not None and span.season.chip_value is not None:
        return span.season.chip_value
    games = Game.objects.filter(
        span.moments(), club=club, counts=True, deleted_at=None, finished_at__isnull=False
    )
    found = games.aggregate(
        low=Min("chip_value"), high=Max("chip_value"), unset=Count("pk", filter=Q(chip_value=None))
    )
    if found["low"] is not None and found["low"] == found["high"] and not found["unset"]:
        return found["low"]
    return None


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


def season_games(*, club: Club, span: Span) -> QuerySet[Game]:
    """The span's counted finished games, in the order they finished."""
    return Game.objects.filter(
        span.moments(), club=club, counts=True, deleted_at=None, finished_at__isnull=False
    ).order_by("finished_at", "pk")
