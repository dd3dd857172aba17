"""The fewest payments that settle a ledger: pure Python, no Django.

n players with a balance never need more than n - 1 payments, and need one fewer for
every group of them whose balances sum to zero on their own: the fewest payments are n
minus the most zero-sum groups the players can be split into. Finding that split is
NP-hard, so the search here is exact within a fixed amount of work and says when it is
not (the plan is then a short one, not proven the fewest).
"""

from __future__ import annotations

from bisect import bisect_right
from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

# Beyond this many balances left after cancelling equal and opposite ones, the plan is
# the greedy one, with no search.
EXACT_SETTLEMENT_LIMIT = 32
# Up to this many, the zero-sum groups may be listed from the subset sums of each half
# (2^(n/2) of them); beyond it, they are always found by walking the players.
LISTED_PLAYERS = 24
# Steps of the search before it settles for the best split found so far. A step takes
# one to one and a half microseconds here, so a page waits 50 ms at most; of some 11,000
# random ledgers of 24 balances, all but a few were proven well within it.
SEARCH_BUDGET = 35_000
# With more zero-sum subsets than this (small balances, many alike), groups are found by
# walking the balances instead of listing them all.
LISTED_LIMIT = 40_000
# The listed groups are looked through this many at a time.
LISTED_SLICE = 256
# Above this sum of the positive balances, ``_loners`` (one bit for every sum a side can
# make) says nothing.
LONER_SUMS_LIMIT = 1 << 15


@dataclass(frozen=True)
class Plan:
    """Payments (payer, payee, chips) that bring every balance to zero; ``fewest`` when
    no plan can have fewer."""

    payments: list[tuple[Any, Any, int]]
    fewest: bool


def settle_up(balances: Mapping[Any, int], *, budget: int = SEARCH_BUDGET) -> Plan:
    """A plan that settles ``balances`` (summing to zero, a negative one owes)."""
    if sum(balances.values()):
        raise ValueError("balances must sum to zero")
    owed = {who: amount for who, amount in balances.items() if amount}
    people = sorted(owed, key=lambda who: (-abs(owed[who]), owed[who], str(who)))
    payments: list[tuple[Any, Any, int]] = []
    # A player owed x and one owing x pay each other once: some fewest plan always does
    # (any plan joins their two groups' other members into one zero-sum group instead).
    waiting: dict[int, list[Any]] = defaultdict(list)
    rest: list[Any] = []
    for who in people:
        partners = waiting[-owed[who]]
        if partners:
            other = partners.pop()
            rest.remove(other)
            debtor, creditor = (who, other) if owed[who] < 0 else (other, who)
            payments.append((debtor, creditor, abs(owed[who])))
        else:
            waiting[owed[who]].append(who)
            rest.append(who)
    if len(rest) > EXACT_SETTLEMENT_LIMIT:
        return Plan(payments + _greedy(owed, rest), fewest=False)
    search = _Search([owed[who] for who in rest], budget)
    groups, fewest = search.most_groups()
    for group in groups:
        payments += _greedy(owed, [rest[i] for i in _bits(group)])
    return Plan(payments, fewest)


def _greedy(owed: Mapping[Any, int], people: Sequence[Any]) -> list[tuple[Any, Any, int]]:
    """The biggest debtor pays the biggest creditor until all are square: a group of k
    with a zero sum settles in at most k - 1 payments."""
    left = {who: owed[who] for who in people}
    payments: list[tuple[Any, Any, int]] = []
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


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _subset_sums(items: Sequence[int], amounts: Sequence[int]) -> dict[int, list[int]]:
    """Every subset of ``items`` (indexes into ``amounts``) as a bit mask, by its sum."""
    found = [(0, 0)]
    for i in items:
        found += [(total + amounts[i], mask | 1 << i) for total, mask in found]
    by_sum: dict[int, list[int]] = defaultdict(list)
    for total, mask in found:
        by_sum[total].append(mask)
    return by_sum


def _triples_and_quads(amounts: Sequence[int]) -> tuple[list[int], list[int]]:
    """Every zero-sum group of three and of four players, as bit masks. No two players
    cancel, so these are the smallest groups there can be."""
    where: dict[int, list[int]] = defaultdict(list)
    for i, amount in enumerate(amounts):
        where[amount].append(i)
    pairs: dict[int, list[int]] = defaultdict(list)
    triples: set[int] = set()
    for i in range(len(amounts)):
        for j in range(i + 1, len(amounts)):
            pair = 1 << i | 1 << j
            pairs[amounts[i] + amounts[j]].append(pair)
            triples.update(
                pair | 1 << k for k in where[-amounts[i] - amounts[j]] if k not in (i, j)
            )
    # A group of four splits into two pairs of opposite sums, neither of them zero.
    quads = {
        one | other
        for total, ones in pairs.items()
        if total > 0
        for one in ones
        for other in pairs.get(-total, ())
        if not one & other
    }
    return list(triples), list(quads)


def _loners(amounts: Sequence[int]) -> list[bool]:
    """For each of ``amounts``, whether some subset of the other sign balances it alone:
    if not, its zero-sum group holds another player of its own sign. Everyone counts as
    a loner when the sums are too big to track."""
    positives = [amount for amount in amounts if amount > 0]
    if sum(positives) > LONER_SUMS_LIMIT:
        return [True] * len(amounts)
    reachable: dict[int, int] = {}
    for sign in (1, -1):
        sums = 1  # bit s is set when some subset of this sign's amounts sums to s
        for amount in amounts:
            if amount * sign > 0:
                sums |= sums << abs(amount)
        reachable[sign] = sums
    return [bool(reachable[-1 if amount > 0 else 1] >> abs(amount) & 1) for amount in amounts]


def _share(group: int, three: int, four: int) -> float:
    """The part of a zero-sum group the players of ``group`` take up at least: 1/3 a
    player in a zero-sum three (``three``), 1/4 in a four but no three (``four``), else
    1/5, as each player's group has at least that many."""
    threes = (group & three).bit_count()
    fours = (group & four).bit_count()
    return threes / 3 + fours / 4 + (group.bit_count() - threes - fours) / 5


class _OutOfBudget(Exception):
    pass


@dataclass(frozen=True)
class _Limits:
    """What the group of a split's first player may hold so that the rest of ``mask``
    can still make the other groups, as far as the bounds in ``_Search._limits`` tell."""

    mask: int
    others: int
    largest: int
    positives: int
    negatives: int
    share: float
    # The players in a zero-sum three, and those in a zero-sum four but no three.
    three: int
    four: int
    loners: int

    def share_of(self, group: int) -> float:
        return _share(group, self.three, self.four)

    def room(self, players: int) -> int:
        """How many groups ``players`` (all of one sign) can be spread over: one each,
        but those who are not loners go two to a group."""
        loners = (players & self.loners).bit_count()
        return loners + (players.bit_count() - loners) // 2


class _Search:
    """The most zero-sum groups ``amounts`` (no two equal and opposite) split into.

    Iterative deepening: can the players be split into 2 groups, 3, ...? The group of the
    first player left is tried among the zero-sum subsets (smallest first), then the rest
    recursively; a remainder known not to split into k groups is remembered. Upper bounds
    (``_limits``) stop a split that cannot be made before any group is tried, and keep
    out of the tries every group whose rest could not make the other groups.
    """

    def __init__(self, amounts: Sequence[int], budget: int) -> None:
        self.amounts = amounts
        self.n = len(amounts)
        self.full = (1 << self.n) - 1
        self.budget = budget
        # The fewest groups each remainder is known not to split into.
        self.impossible: dict[int, int] = {}
        self.positive = sum(1 << i for i, amount in enumerate(amounts) if amount > 0)
        self.triples, self.quads = _triples_and_quads(amounts)
        # Players with equal amounts are alike: a group takes the first of them.
        self.alike_before = [
            sum(1 << j for j in range(i) if amounts[j] == amounts[i]) for i in range(self.n)
        ]
        self.by_first: dict[int, list[int]] = defaultdict(list)
        self.listed = False
        if self.n <= LISTED_PLAYERS:
            half = self.n // 2
            left = _subset_sums(range(half), amounts)
            right = _subset_sums(range(half, self.n), amounts)
            self.listed = (
                sum(len(masks) * len(right.get(-total, ())) for total, masks in left.items())
                <= LISTED_LIMIT
            )
        if self.listed:
            zero = [
                a | b for total, masks in left.items() for b in right.get(-total, ()) for a in masks
            ]
            zero.sort(key=int.bit_count)
            # The first is the empty group and the last all of them.
            for mask in zero[1:-1]:
                self.by_first[(mask & -mask).bit_length() - 1].append(mask)

    def most_groups(self) -> tuple[list[int], bool]:
        """The groups as bit masks, and whether they are proven the most."""
        best = [self.full] if self.n else []
        k = 2
        try:
            while True:
                groups: list[int] = []
                if not self._can(self.full, k, groups):
                    return best, True
                best, k = groups, k + 1
        except _OutOfBudget:
            return best, False

    def _can(self, mask: int, k: int, groups: list[int]) -> bool:
        """Whether the zero-sum ``mask`` splits into k zero-sum groups (into
        ``groups``)."""
        if k == 1:
            groups.append(mask)
            return True
        if k >= self.impossible.get(mask, k + 1):
            return False
        # Bounding a split costs a few dozen steps, most of it looking at the threes
        # and fours.
        self.budget -= 16 + (len(self.triples) + len(self.quads)) // 8
        limits = self._limits(mask, k)
        if limits:
            first = (mask & -mask).bit_length() - 1
            for group in self._groups_of(first, mask, limits):
                self.budget -= 1
                if self.budget < 0:
                    raise _OutOfBudget
                if self._can(mask & ~group, k - 1, groups):
                    groups.append(group)
                    return True
        self.impossible[mask] = k
        return False

    def _limits(self, mask: int, k: int) -> _Limits | None:
        """None when ``mask`` cannot make k groups by the upper bounds: every group has
        three members or more, and of each sign one loner or two others (``_loners``);
        a player takes up 1/3 of a group when in a zero-sum three of ``mask``, 1/4 in a
        four, else 1/5 at most. Otherwise what the first group may hold so that the rest
        can make k - 1."""
        size = mask.bit_count()
        positive = mask & self.positive
        positives = positive.bit_count()
        if min(size // 3, positives, size - positives) < k:
            return None
        three = four = 0
        for triple in self.triples:
            if not triple & ~mask:
                three |= triple
        for quad in self.quads:
            if not quad & ~mask:
                four |= quad
        four &= ~three
        others = k - 1
        # What the rest leaves the first group: it takes a whole share at least.
        share = _share(mask, three, four) - others + 1e-9
        if share < 1:
            return None
        players = list(_bits(mask))
        alone = _loners([self.amounts[i] for i in players])
        limits = _Limits(
            mask=mask,
            others=others,
            largest=size - 3 * others,
            positives=positives - others,
            negatives=size - positives - others,
            share=share,
            three=three,
            four=four,
            loners=sum(1 << i for i, loner in zip(players, alone, strict=True) if loner),
        )
        if min(limits.room(positive), limits.room(mask & ~positive)) < k:
            return None
        return limits

    def _groups_of(self, first: int, mask: int, limits: _Limits) -> Iterator[int]:
        """The zero-sum subsets of ``mask`` holding ``first`` within ``limits`` (of
        alike players, always the first ones), smallest first, from the list or, when
        there are too many to list, by walking the players."""
        if self.listed:
            rows = self.by_first[first]
            end = bisect_right(rows, limits.largest, key=int.bit_count)
            outside = ~mask
            alike_before = self.alike_before
            # A slice at a time: the first groups often do, and the rest are not looked at.
            for start in range(0, end, LISTED_SLICE):
                # Looking through the list costs a small part of a step of the search.
                self.budget -= LISTED_SLICE // 32
                inside = [
                    g for g in rows[start : min(end, start + LISTED_SLICE)] if not g & outside
                ]
                # Checking a group costs about a step.
                self.budget -= len(inside)
                for group in inside:
                    if self._within(group, limits) and not any(
                        alike_before[i] & mask & ~group for i in _bits(group)
                    ):
                        yield group
            return
        yield from self._walk(first, mask, limits)

    def _within(self, group: int, limits: _Limits) -> bool:
        """Whether the rest of the split can still make its groups beside ``group``."""
        rest = limits.mask & ~group
        return (
            limits.share_of(group) <= limits.share
            and limits.room(rest & self.positive) >= limits.others
            and limits.room(rest & ~self.positive) >= limits.others
        )

    def _walk(self, first: int, mask: int, limits: _Limits) -> Iterator[int]:
        """The groups of ``_groups_of`` found by choosing each of the other players in
        or out, one group size at a time."""
        others = limits.others
        weight = {i: limits.share_of(1 << i) for i in _bits(mask)}
        # The sign with fewer players is walked first, so that the other's exact sum is
        # left to the tight ranges below. The walk takes the early sign to be negative:
        # when it is the positive one, every amount is turned around (a group sums to
        # zero all the same).
        positive, negative = mask & self.positive, mask & ~self.positive
        turned = positive.bit_count() < negative.bit_count()
        early, late = (positive, negative) if turned else (negative, positive)
        early_cap, late_cap = (
            (limits.positives, limits.negatives) if turned else (limits.negatives, limits.positives)
        )
        amounts = [-amount for amount in self.amounts] if turned else self.amounts
        # The most negative amounts first up to the last negative, then the largest
        # positive down to the smallest: alike players sit side by side, and the
        # extremes of each sign are where the ranges below look for them.
        items = sorted(
            (i for i in _bits(mask) if i != first), key=lambda i: (amounts[i] > 0, -abs(amounts[i]))
        )
        values = [amounts[i] for i in items]
        end = len(items)
        split = sum(value < 0 for value in values)
        prefix = [0]
        for value in values:
            prefix.append(prefix[-1] + value)
        found: list[int] = []

        def walk(
            j: int,
            total: int,
            group: int,
            left: int,
            skipped: int | None,
            earlies: int,
            lates: int,
            share: float,
        ) -> None:
            """Choose ``left`` more from items[j:]; the group holds ``earlies`` players
            of the early sign and ``lates`` of the late one so far."""
            self.budget -= 1
            if self.budget < 0:
                raise _OutOfBudget
            if not left:
                if not total:
                    found.append(group)
                return
            # The least the next ``left`` can add is as many negatives as allowed, the
            # most negative ones, and the smallest positives for the rest; the most is
            # the fewest negatives needed, those nearest zero, and the largest positives.
            start = max(j, split)
            fewest = max(0, left - min(end - start, late_cap - lates))
            most = min(left, max(split - j, 0), early_cap - earlies)
            if fewest > most:
                return
            low = prefix[j + most] - prefix[j] + prefix[end] - prefix[end - left + most]
            high = (
                prefix[split]
                - prefix[split - fewest]
                + prefix[start + left - fewest]
                - prefix[start]
            )
            if not low <= -total <= high:
                return
            i = items[j]
            # Of alike players, a group takes the first: none after one left out.
            if skipped is None or values[skipped] != values[j]:
                taken = share + weight[i]
                grown = group | 1 << i
                is_late = j >= split
                if (
                    taken + (left - 1) / 5 <= limits.share
                    and limits.room((late if is_late else early) & ~grown) >= others
                ):
                    walk(
                        j + 1,
                        total + values[j],
                        grown,
                        left - 1,
                        skipped,
                        earlies + (not is_late),
                        lates + is_late,
                        taken,
                    )
            walk(j + 1, total, group, left, j, earlies, lates, share)

        is_late = bool(late >> first & 1)
        smallest = 3 if limits.three >> first & 1 else 4 if limits.four >> first & 1 else 5
        for size in range(smallest, limits.largest + 1):
            found.clear()
            walk(0, amounts[first], 1 << first, size - 1, None, not is_late, is_late, weight[first])
            yield from found
