"""Bids: what each legal bid commits the pitcher's side to, and how bids rank.

A bid is JSON-friendly (``Bid``): a whole number is a plain bid, as it always was;
"6x2" is six doubled ("6 for 12", where ``doubled_bids`` allows it), ranked just above
6 and below 7; a moon bid is written as its key ("moon", "hotshot") and ranks above
every numbered bid, the moon bids in the order the ruleset lists them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import RuleError
from .ruleset import Bid, Ruleset

DOUBLED = re.compile(r"([1-9][0-9]*)x2")


@dataclass(frozen=True)
class Contract:
    """What a bid commits the pitcher's side to.

    ``need``: the points it must take; None when it must take every point of the hand
    (a smudge or a moon bid), and every trick too with ``all_tricks``. Made, it scores
    ``fixed_score`` where that is set, otherwise what it took times ``multiplier``;
    set back, it loses ``stake``. ``wins_game``: made, it wins the game at once, from
    the hole too only with ``wins_from_hole``; ``loses_game``: set, it loses the game.
    ``rank`` orders bids in an auction.
    """

    need: int | None
    stake: int
    rank: tuple[int, int, int]
    multiplier: int = 1
    all_tricks: bool = False
    fixed_score: int | None = None
    wins_game: bool = False
    wins_from_hole: bool = True
    loses_game: bool = False

    @property
    def level(self) -> int | None:
        """The number of a numbered bid, doubled or not; None for a moon bid."""
        return self.rank[1] if self.rank[0] == 0 else None

    def below(self, level: int) -> bool:
        """Whether this bid ranks under a plain bid of ``level``."""
        return self.rank < (0, level, 0)


def contract(rules: Ruleset, bid: object) -> Contract | None:
    """The contract of ``bid``, or None when the rules have no such bid."""
    if isinstance(bid, bool):
        return None
    if isinstance(bid, int):
        return _numbered(rules, bid, 1)
    if not isinstance(bid, str):
        return None
    doubled = DOUBLED.fullmatch(bid)
    if doubled and rules.doubled_bids:
        return _numbered(rules, int(doubled[1]), 2)
    for place, moon in enumerate(rules.moon_bids):
        if moon.key == bid:
            return Contract(
                need=None,
                stake=moon.value,
                rank=(1, place, 0),
                all_tricks=moon.all_tricks,
                fixed_score=moon.value,
                wins_game=moon.decides_game,
                loses_game=moon.decides_game,
            )
    return None


def _numbered(rules: Ruleset, number: int, multiplier: int) -> Contract | None:
    if not rules.min_bid <= number <= rules.highest_bid:
        return None
    stake = number * multiplier
    rank = (0, number, multiplier - 1)
    if rules.smudge == "none" or number != rules.max_bid:
        return Contract(number, stake, rank, multiplier)
    if rules.smudge == "all_tricks":
        # Seed 004's partnership smudge: the fifth point only for a bid smudge.
        return Contract(None, stake, rank, all_tricks=True, fixed_score=stake)
    # Seed 000's smudge wins at once, unless the bidder was in the hole.
    return Contract(None, stake, rank, multiplier, wins_game=True, wins_from_hole=False)


def all_bids(rules: Ruleset) -> list[Bid]:
    """Every bid of the rules, lowest first."""
    bids: list[Bid] = []
    for number in range(rules.min_bid, rules.highest_bid + 1):
        bids.append(number)
        if rules.doubled_bids:
            bids.append(f"{number}x2")
    bids.extend(moon.key for moon in rules.moon_bids)
    return bids


def bid_words(rules: Ruleset) -> RuleError:
    """The legal bids, as the part of a refusal that names them."""
    code = "bids_range" + "_doubled" * rules.doubled_bids + "_moons" * bool(rules.moon_bids)
    moons = tuple(moon.key for moon in rules.moon_bids)
    return RuleError(code, {"low": rules.min_bid, "high": rules.highest_bid, "moons": moons})


def describe_bids(rules: Ruleset) -> str:
    """The legal bids in words: "from 2 to 4", "from 1 to 9, doubled 1x2 to 9x2, or moon"."""
    return bid_words(rules).message


__all__ = ["Contract", "all_bids", "bid_words", "contract", "describe_bids"]
