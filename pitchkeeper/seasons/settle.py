"""The fewest payments that settle a ledger: pure Python, no Django.

n players with a balance never need more than n - 1 payments, and need one fewer for
every group of them whose balances sum to zero on their own: the fewest payments are n
minus the most zero-sum groups the players can be split into. Finding that split is
NP-hard, so the search here is exact within a fixed amount of work and says when it is
not (the plan is then a short one, not proven the fewest).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

# Beyond this many balances left after cancelling equal and opposite ones, the subset
# sums of each half (2^(n/2)) get too many to list, and the plan is the greedy one.
EXACT_SETTLEMENT_LIMIT = 24
# Steps of the search before it settles for the best split found so far: about 0.1 s
# on a slow machine; random ledgers of 24 balances almost always finish well within it.
SEARCH_BUDGET = 60_000
# With more zero-sum subsets than this (small balances, many alike), groups are found by
# walking the balances instead of listing them all.
LISTED_LIMIT = 40_000


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
    rest = []
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


def _smallest_groups(amounts: Sequence[int]) -> list[int]:
    """For each player, the fewest members a zero-sum group holding them can have, as
    far as it is quickly known: 3 or 4 when such a group exists, else at least 5. Where
    the groups are too many to list, this is what keeps the bound on the number of
    groups tight enough that the search rarely has to prove it by trying every split."""
    n = len(amounts)
    where: dict[int, list[int]] = defaultdict(list)
    for i, amount in enumerate(amounts):
        where[amount].append(i)

    def found(need: int, avoid: set[int]) -> bool:
        return any(k not in avoid for k in where.get(need, ()))

    smallest = []
    for i in range(n):
        others = [j for j in range(n) if j != i]
        pairs = [(j, k) for a, j in enumerate(others) for k in others[a + 1 :]]
        if any(found(-amounts[i] - amounts[j], {i, j}) for j in others):
            smallest.append(3)
        elif any(found(-amounts[i] - amounts[j] - amounts[k], {i, j, k}) for j, k in pairs):
            smallest.append(4)
        else:
            smallest.append(5)
    return smallest


class _OutOfBudget(Exception):
    pass


class _Search:
    """The most zero-sum groups ``amounts`` (no two equal and opposite) split into.

    Iterative deepening: can the players be split into 2 groups, 3, ...? The group of
    the first player left is tried first among the zero-sum subsets (smallest first),
    then the rest recursively; a split known impossible is remembered, and none is
    tried where an upper bound says it cannot be: each group has at least three
    members (no two cancel), one of each sign, and a player whose smallest zero-sum
    group has s members takes up 1/s of a group at least.
    """

    def __init__(self, amounts: Sequence[int], budget: int) -> None:
        self.amounts = amounts
        self.n = len(amounts)
        self.full = (1 << self.n) - 1
        self.budget = budget
        self.impossible: set[tuple[int, int]] = set()
        half = self.n // 2
        left = _subset_sums(range(half), amounts)
        right = _subset_sums(range(half, self.n), amounts)
        self.listed = (
            sum(len(masks) * len(right.get(-total, ())) for total, masks in left.items())
            <= LISTED_LIMIT
        )
        # Players with equal amounts are alike: a group takes the first of them.
        self.alike_before = [
            sum(1 << j for j in range(i) if amounts[j] == amounts[i]) for i in range(self.n)
        ]
        self.smallest = [3] * self.n
        self.by_first: dict[int, list[int]] = defaultdict(list)
        if not self.listed:
            self.smallest = _smallest_groups(amounts)
        if self.listed:
            zero = [
                a | b
                for total, masks in left.items()
                for a in masks
                for b in right.get(-total, ())
                if a | b not in (0, self.full)
            ]
            zero.sort(key=int.bit_count)
            by_first = self.by_first
            for mask in zero:
                by_first[(mask & -mask).bit_length() - 1].append(mask)
            unset = self.full
            for mask in zero:
                if not unset:
                    break
                for i in _bits(mask & unset):
                    self.smallest[i] = mask.bit_count()
                unset &= ~mask

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

    def _bound(self, mask: int) -> tuple[int, int]:
        """An upper bound on the groups ``mask`` splits into, and its size."""
        size = positive = 0
        share = 0.0
        for i in _bits(mask):
            size += 1
            positive += self.amounts[i] > 0
            share += 1 / self.smallest[i]
        return min(size // 3, positive, size - positive, int(share + 1e-9)), size

    def _can(self, mask: int, k: int, groups: list[int]) -> bool:
        """Whether the zero-sum ``mask`` splits into k zero-sum groups (into
        ``groups``)."""
        if k == 1:
            groups.append(mask)
            return True
        if (mask, k) in self.impossible:
            return False
        most, size = self._bound(mask)
        if most >= k:
            first = (mask & -mask).bit_length() - 1
            # The others need three members each.
            for group in self._groups_of(first, mask, size - 3 * (k - 1)):
                self.budget -= 1
                if self.budget < 0:
                    raise _OutOfBudget
                if self._can(mask & ~group, k - 1, groups):
                    groups.append(group)
                    return True
        self.impossible.add((mask, k))
        return False

    def _groups_of(self, first: int, mask: int, largest: int) -> Iterator[int]:
        """The zero-sum subsets of ``mask`` holding ``first`` with at most ``largest``
        members (of alike players, always the first ones), from the list or, when there
        are too many to list, by walking the players."""
        if self.listed:
            listed = self.by_first[first]
            # Looking through the list is cheap next to a step of the search.
            self.budget -= len(listed) // 8
            for group in listed:
                if (
                    not group & ~mask
                    and group.bit_count() <= largest
                    and not any(self.alike_before[i] & mask & ~group for i in _bits(group))
                ):
                    yield group
            return
        amounts = self.amounts
        items = [i for i in _bits(mask) if i != first]
        # The most the players from j on can add and take away: a total outside that
        # range cannot come back to zero.
        most = [0] * (len(items) + 1)
        least = [0] * (len(items) + 1)
        for j in range(len(items) - 1, -1, -1):
            amount = amounts[items[j]]
            most[j] = most[j + 1] + max(amount, 0)
            least[j] = least[j + 1] + min(amount, 0)

        def walk(
            j: int, total: int, group: int, count: int, size: int, skipped: int | None
        ) -> Iterator[int]:
            self.budget -= 1
            if self.budget < 0:
                raise _OutOfBudget
            if count == size:
                if total == 0:
                    yield group
                return
            if len(items) - j < size - count or not least[j] <= -total <= most[j]:
                return
            i = items[j]
            if skipped is None or amounts[skipped] != amounts[i]:
                yield from walk(j + 1, total + amounts[i], group | 1 << i, count + 1, size, skipped)
            yield from walk(j + 1, total, group, count, size, i)

        # Smallest groups first, as in the list: they leave the most for the others.
        for size in range(3, largest + 1):
            yield from walk(0, amounts[first], 1 << first, 1, size, None)
