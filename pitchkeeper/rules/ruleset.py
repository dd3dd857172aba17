"""Rule settings: the scoring points, the bids above the plain numbers, and the ruleset.

A ruleset is a preset (``presets.py``) plus overrides. A game stores the fully resolved
ruleset (``Ruleset.to_dict()``), so a later change of a preset never rewrites an old game.
Every setting added after the first presets defaults to what the engine did before it,
so a stored ruleset that lacks it still means what it meant.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, replace
from typing import Any, Literal

from .errors import RuleError

Kind = Literal["one", "count"]
AllPass = Literal["redeal", "dealer_forced"]
Smudge = Literal["none", "wins_game", "all_tricks"]
Group = Literal["classic", "partnership", "ten-point", "nine-five", "other"]
MadeScores = Literal["taken", "bid"]
Winner = Literal["count_order", "bidder_out", "highest_total"]
Settlement = Literal["chips", "pot", "none"]
SettleEach = Literal["side", "player"]

CHOICES: dict[str, tuple[str, ...]] = {
    "all_pass": ("redeal", "dealer_forced"),
    "smudge": ("none", "wins_game", "all_tricks"),
    "made_scores": ("taken", "bid"),
    "winner": ("count_order", "bidder_out", "highest_total"),
    "settlement": ("chips", "pot", "none"),
    "settle_each": ("side", "player"),
}

# A dealer forced to bid after everybody passed must bid at least this (seeds 001, 004).
FORCED_DEALER_MIN_BID = 2

# A moon bid is written as its key, so the key must not read as a number or as a
# doubled bid ("6x2"); starting with a letter is enough.
MOON_KEY = re.compile(r"[a-z][a-z0-9_-]*")

# A bid as a record writes it: a whole number, "6x2" for six doubled, or a moon bid's key.
Bid = int | str


@dataclass(frozen=True)
class Category:
    """One scoring point, such as High, or a counted kind of card, such as Queens.

    ``required``: somebody always takes it in a played hand (there is always a highest
    and a lowest trump), so "nobody" is refused. ``max_count`` bounds a count category
    (four Queens in the pack).
    """

    key: str
    label: str
    value: int = 1
    kind: Kind = "one"
    required: bool = False
    max_count: int | None = None

    @property
    def most_points(self) -> int:
        if self.kind == "one":
            return self.value
        return self.value * (self.max_count or 0)


# The points of the whole family (seed 004). Who took Game is the scorekeeper's call,
# however the table counts it (pips, jokers as half a pip, tens only), so one Game
# category serves them all.
HIGH = Category("high", "High", required=True)
LOW = Category("low", "Low", required=True)
JACK = Category("jack", "Jack")
GAME = Category("game", "Game")
HIGH_LOW_JACK_GAME = (HIGH, LOW, JACK, GAME)
# The jick: the other jack of the trump colour, played as a trump.
OFF_JACK = Category("off_jack", "Off-jack")
JOKER = Category("joker", "Joker")
BIG_JOKER = Category("big_joker", "Big joker")
LITTLE_JOKER = Category("little_joker", "Little joker")
# Two jokers that nothing tells apart: each side takes a number of them.
JOKERS = Category("jokers", "Jokers", kind="count", max_count=2)
# Campbell: the two of trumps is kept by whoever played it.
TWO = Category("two", "Two")
THREE = Category("three", "Three", value=3)
OFF_THREE = Category("off_three", "Off-three", value=3)
FIVE = Category("five", "Five", value=5)
OFF_FIVE = Category("off_five", "Off-five", value=5)
NINE = Category("nine", "Nine", value=9)
TEN = Category("ten", "Ten")
OFF_ACE = Category("off_ace", "Off-ace")
LAST_TRICK = Category("last_trick", "Last trick", required=True)


@dataclass(frozen=True)
class MoonBid:
    """A bid of every point of the hand, ranked above every numbered bid ("shoot the
    moon", nine-five's smudge and blind smudge, hotshot, double-18). A record writes
    it as its ``key``.

    ``value`` is what it scores when made and costs when set. ``all_tricks``: it also
    needs every trick. ``decides_game``: made, it wins the game at once; set, it loses
    it. ``allowed_in_hole`` and ``allowed_under`` say who may bid it (Bonanza: not a
    side in the hole, nor one at 46 or more).
    """

    key: str
    label: str
    value: int
    all_tricks: bool = False
    decides_game: bool = False
    allowed_in_hole: bool = True
    allowed_under: int | None = None


@dataclass(frozen=True)
class Ruleset:
    preset: str = "setback"
    min_players: int = 2
    max_players: int = 7
    partnership: bool = False
    # Each hand the pitcher calls a card and its holder is the pitcher's partner for
    # that hand, everybody else the other partnership; scores stay each player's own.
    called_partner: bool = False
    target: int = 7
    # The lead over every other side a winner needs at the end of the hand.
    win_by: int | None = None
    bidding: bool = True
    min_bid: int = 2
    max_bid: int | None = 4
    # Every numbered bid may also be bid doubled ("6x2", six for twelve), ranked just
    # above it: made it scores twice, set it costs twice.
    doubled_bids: bool = False
    moon_bids: tuple[MoonBid, ...] = ()
    dealer_may_steal: bool = True
    # The highest bid the dealer may steal; null: any bid below max_bid. Seed 001 allows
    # the steal only over 1, 2 or 3, and seed 000 says a four cannot be taken away.
    steal_up_to: int | None = None
    all_pass: AllPass = "redeal"
    # With all_pass redeal: the next player deals instead of the same dealer.
    redeal_passes_deal: bool = False
    # The least a forced dealer bids, when it is above min_bid.
    forced_min_bid: int = FORCED_DEALER_MIN_BID
    # The auction goes round, passed players dropping out, until all but one have
    # passed (seed 004, Bonanza); otherwise each player bids once.
    auction_until_one: bool = False
    # A player whose hand forces a bid (the hand record's ``forced``) must bid at least
    # this while the bidding is below it (seed 004, nine-five: a 9 held with another
    # card of its suit forces a 9).
    forced_bid: int | None = None
    categories: tuple[Category, ...] = HIGH_LOW_JACK_GAME
    smudge: Smudge = "none"
    # What a made bid scores: everything taken, or no more than the bid.
    made_scores: MadeScores = "taken"
    # Added to a made bid that took exactly the bid (Maryland jack: 1).
    exact_bid_bonus: int = 0
    winner: Winner = "count_order"
    # With bidder_out: a side reaching the target on a hand that set the pitcher back
    # goes out too.
    setter_goes_out: bool = False
    # The categories whose points, taken over the whole game, break a highest_total tie.
    tiebreak: tuple[str, ...] = ("high", "low", "jack")
    non_pitchers_score: bool = True
    # With non_pitchers_score false: the other sides still score on a hand that set
    # the pitcher back.
    non_pitchers_score_when_set: bool = False
    # The categories a side other than the pitcher's scores even where the two
    # settings above keep it from scoring (Maryland jack's off-jack).
    anyone_scores: tuple[str, ...] = ()
    # Scores never go below this (Contway: 0).
    score_floor: int | None = None
    # A side whose score falls to this loses (nine-five: -100), or the game is drawn.
    lose_at: int | None = None
    draw_at: int | None = None
    settlement: Settlement = "none"
    chips_plus: int = 1
    chips_zero_or_minus: int = 2
    chips_per_setback: int = 0
    ante: int = 1
    # Side bets (seed 004, the pub game all fours): each other side pays a side this
    # many chips for every hand in which it took every point, however the game goes.
    sweep_chips: int = 0
    # In a team game, whether a side's settlement is what the side wins or pays as a
    # whole, shared among its members ("side"), or what each of its players wins or
    # pays (Contway: "each winning player +$1, each losing player -$1").
    settle_each: SettleEach = "side"

    def __post_init__(self) -> None:
        for name, allowed in CHOICES.items():
            if getattr(self, name) not in allowed:
                raise RuleError("setting_choice", {"setting": name, "allowed": tuple(allowed)})
        if not 2 <= self.min_players <= self.max_players <= 7:
            raise RuleError("players_range", {})
        for name in ("target", "min_bid", "forced_min_bid"):
            if getattr(self, name) < 1:
                raise RuleError("setting_at_least_1", {"setting": name})
        if self.max_bid is not None and self.max_bid < self.min_bid:
            raise RuleError("max_below_min", {})
        if not self.categories:
            raise RuleError("no_categories", {})
        keys = [c.key for c in self.categories]
        if len(set(keys)) != len(keys):
            raise RuleError("category_keys_twice", {})
        for category in self.categories:
            if category.kind not in ("one", "count"):
                raise RuleError("category_kind", {"key": category.key})
            if category.value < 1:
                raise RuleError("category_value", {"key": category.key})
        for name in ("tiebreak", "anyone_scores"):
            unknown = set(getattr(self, name)) - set(keys)
            if unknown:
                params = {"setting": name, "unknown": tuple(sorted(unknown))}
                raise RuleError("unknown_categories", params)
        if self.smudge != "none" and self.max_bid is None:
            raise RuleError("smudge_needs_max", {})
        for name in (
            "chips_plus",
            "chips_zero_or_minus",
            "chips_per_setback",
            "ante",
            "sweep_chips",
            "exact_bid_bonus",
        ):
            if getattr(self, name) < 0:
                raise RuleError("setting_negative", {"setting": name})
        self._check_later_settings()

    def _check_later_settings(self) -> None:
        moon_keys = [moon.key for moon in self.moon_bids]
        if len(set(moon_keys)) != len(moon_keys):
            raise RuleError("moon_keys_twice", {})
        for moon in self.moon_bids:
            if not MOON_KEY.fullmatch(moon.key):
                raise RuleError("moon_key_form", {"key": moon.key})
            if moon.value < 1:
                raise RuleError("moon_value", {"key": moon.key})
        if self.called_partner and self.partnership:
            raise RuleError("partner_with_teams", {})
        if self.called_partner and self.min_players < 3:
            raise RuleError("partner_players", {})
        if self.win_by is not None and self.win_by < 1:
            raise RuleError("win_by_low", {})
        if self.steal_up_to is not None and self.steal_up_to < self.min_bid:
            raise RuleError("setting_numbered_bid", {"setting": "steal_up_to"})
        if self.auction_until_one and self.dealer_may_steal:
            raise RuleError("steal_until_one", {})
        if self.forced_bid is not None and not self.min_bid <= self.forced_bid <= self.highest_bid:
            raise RuleError("setting_numbered_bid", {"setting": "forced_bid"})
        # Every score starts at 0, so a floor above it, or a loss or draw at or above
        # it, would be there before the first hand.
        if self.score_floor is not None and self.score_floor > 0:
            raise RuleError("floor_above_zero", {})
        for name in ("lose_at", "draw_at"):
            if getattr(self, name) is not None and getattr(self, name) >= 0:
                raise RuleError("setting_below_zero", {"setting": name})

    def category(self, key: str) -> Category | None:
        return next((c for c in self.categories if c.key == key), None)

    def moon(self, key: object) -> MoonBid | None:
        return next((m for m in self.moon_bids if m.key == key), None)

    @property
    def most_points(self) -> int:
        """Every point one hand can give, the cap of an open-ended bid."""
        return sum(c.most_points for c in self.categories)

    @property
    def highest_bid(self) -> int:
        """The highest numbered bid; moon bids rank above it."""
        return self.max_bid if self.max_bid is not None else self.most_points

    @property
    def word_bids(self) -> bool:
        """Whether some bids are written as text ("6x2", "moon")."""
        return self.doubled_bids or bool(self.moon_bids)

    def is_smudge(self, bid: Bid | None) -> bool:
        """Whether a bid needs every point: a moon bid, or the smudge bid of max_bid."""
        if isinstance(bid, str):
            return self.moon(bid) is not None
        return self.smudge != "none" and bid is not None and bid == self.max_bid

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["categories"] = [asdict(c) for c in self.categories]
        data["moon_bids"] = [asdict(m) for m in self.moon_bids]
        data["tiebreak"] = list(self.tiebreak)
        data["anyone_scores"] = list(self.anyone_scores)
        return data


@dataclass(frozen=True)
class Preset:
    """A preset, written once: its key (which its rules take as ``preset``), its name,
    its group on the new-game screen, a line on how it plays, the seed (and section of
    seed 004) it comes from, and its rules."""

    key: str
    label: str
    group: Group
    description: str
    source: str
    rules: Ruleset

    def __post_init__(self) -> None:
        object.__setattr__(self, "rules", replace(self.rules, preset=self.key))


__all__ = [
    "BIG_JOKER",
    "Bid",
    "Category",
    "FIVE",
    "FORCED_DEALER_MIN_BID",
    "GAME",
    "HIGH",
    "HIGH_LOW_JACK_GAME",
    "JACK",
    "JOKER",
    "JOKERS",
    "LAST_TRICK",
    "LITTLE_JOKER",
    "LOW",
    "MoonBid",
    "NINE",
    "OFF_ACE",
    "OFF_FIVE",
    "OFF_JACK",
    "OFF_THREE",
    "Preset",
    "Ruleset",
    "TEN",
    "THREE",
    "TWO",
]
