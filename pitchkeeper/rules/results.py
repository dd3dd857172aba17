"""What the engine reads and gives: a hand as the scorekeeper recorded it, and what
the engine made of a hand and of a game."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from .ruleset import Bid

HandKind = Literal["played", "misdeal", "redeal"]
WonBy = Literal[
    "count_order",
    "smudge",
    "bidder_out",
    "highest_total",
    "win_by",
    "smudge_failed",
    "floor",
    "draw",
]
# What a category went to: a side, nobody, or for a count category each side's count.
Taken = str | None | dict[str, int]
# Each side's score before a hand, for the bids a side may only make at some scores.
Scores = Mapping[str, int]


@dataclass(frozen=True)
class HandRecord:
    """One hand as the scorekeeper recorded it; names are players' (or teams') names.

    Give ``pitcher`` and ``bid``, or the whole ``auction`` as (player, bid or None for a
    pass) in bidding order. ``points`` maps every category key to who took it.
    ``partner``, where the pitcher calls one, is who held the called card; None when
    the pitcher held it and played alone. ``forced`` names the players whose hands
    forced a bid (``Ruleset.forced_bid``).
    """

    misdeal: bool = False
    auction: tuple[tuple[str, Bid | None], ...] | None = None
    pitcher: str | None = None
    bid: Bid | None = None
    points: Mapping[str, Any] = field(default_factory=dict)
    revoked: tuple[str, ...] = ()
    all_tricks: bool = False
    dealer: str | None = None
    partner: str | None = None
    forced: tuple[str, ...] = ()


@dataclass(frozen=True)
class HandResult:
    number: int
    dealer: str
    kind: HandKind
    pitcher: str | None = None
    pitching_side: str | None = None
    bid: Bid | None = None
    made: bool | None = None
    smudge: bool = False
    points: dict[str, Taken] = field(default_factory=dict)
    revoked: tuple[str, ...] = ()
    all_tricks: bool = False
    taken: dict[str, int] = field(default_factory=dict)
    delta: dict[str, int] = field(default_factory=dict)
    scores: dict[str, int] = field(default_factory=dict)
    set_back: tuple[str, ...] = ()
    partner: str | None = None


@dataclass(frozen=True)
class Reach:
    """A side reaching the target while a hand's points are counted in order.

    ``category`` is the category on which it got there, None for the pitcher's points
    counted first (and for a smudge or a win decided on the hand's totals).
    """

    side: str
    category: str | None


@dataclass(frozen=True)
class GameResult:
    sides: tuple[str, ...]
    hands: tuple[HandResult, ...]
    scores: dict[str, int]
    setbacks: dict[str, int]
    dealer: str | None
    winner: str | None = None
    # Why the game ended; "draw" ends it with no winner.
    won_by: WonBy | None = None
    # Every side that reached the target on the winning hand, in order.
    reached: tuple[Reach, ...] = ()
    settlement: dict[str, int] | None = None
    # The hands in which each side took every point (all fours' side bets).
    sweeps: dict[str, int] = field(default_factory=dict)
    # Each side's tiebreak points over the game, so that play_on can carry on from here.
    tiebreak: dict[str, int] = field(default_factory=dict)

    @property
    def finished(self) -> bool:
        return self.won_by is not None

    @property
    def drawn(self) -> bool:
        return self.won_by == "draw"

    def in_hole(self, side: str) -> bool:
        return self.scores[side] < 0

    def payments(self) -> list[tuple[str, str, int]]:
        """The settlement as (payer, payee, amount): every side that is down pays the
        sides that are up, the winner first, so a game stake alone is every loser
        paying the winner."""
        if not self.settlement or self.winner is None:
            return []
        due = {side: net for side, net in self.settlement.items() if net > 0}
        payees = sorted(due, key=lambda side: side != self.winner)
        paid: list[tuple[str, str, int]] = []
        for payer, net in self.settlement.items():
            owed = -net
            for payee in payees:
                amount = min(owed, due[payee])
                if amount > 0:
                    paid.append((payer, payee, amount))
                    owed -= amount
                    due[payee] -= amount
        return paid
