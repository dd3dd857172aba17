"""Rule settings and the presets built from them.

A ruleset is a preset plus overrides. A game stores the fully resolved ruleset
(``Ruleset.to_dict()``), so a later change of a preset never rewrites an old game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Literal

from .errors import RuleError

Kind = Literal["one", "count"]
AllPass = Literal["redeal", "dealer_forced"]
LowTo = Literal["holder", "capturer"]
Smudge = Literal["none", "wins_game", "all_tricks"]
Winner = Literal["count_order", "bidder_out", "highest_total"]
Settlement = Literal["chips", "pot", "none"]

CHOICES: dict[str, tuple[str, ...]] = {
    "all_pass": ("redeal", "dealer_forced"),
    "low_to": ("holder", "capturer"),
    "smudge": ("none", "wins_game", "all_tricks"),
    "winner": ("count_order", "bidder_out", "highest_total"),
    "settlement": ("chips", "pot", "none"),
}

# A dealer forced to bid after everybody passed must bid at least this (seeds 001, 004).
FORCED_DEALER_MIN_BID = 2


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


HIGH = Category("high", "High", required=True)
LOW = Category("low", "Low", required=True)
JACK = Category("jack", "Jack")
GAME = Category("game", "Game")
HIGH_LOW_JACK_GAME = (HIGH, LOW, JACK, GAME)


@dataclass(frozen=True)
class Ruleset:
    preset: str = "setback"
    min_players: int = 2
    max_players: int = 7
    partnership: bool = False
    target: int = 7
    bidding: bool = True
    min_bid: int = 2
    max_bid: int | None = 4
    dealer_may_steal: bool = True
    all_pass: AllPass = "redeal"
    categories: tuple[Category, ...] = HIGH_LOW_JACK_GAME
    low_to: LowTo = "holder"
    smudge: Smudge = "none"
    winner: Winner = "count_order"
    # The categories whose points, taken over the whole game, break a highest_total tie.
    tiebreak: tuple[str, ...] = ("high", "low", "jack")
    non_pitchers_score: bool = True
    settlement: Settlement = "none"
    chips_plus: int = 1
    chips_zero_or_minus: int = 2
    chips_per_setback: int = 0
    ante: int = 1

    def __post_init__(self) -> None:
        for name, allowed in CHOICES.items():
            if getattr(self, name) not in allowed:
                raise RuleError(f"{name} must be one of {', '.join(allowed)}")
        if not 2 <= self.min_players <= self.max_players <= 7:
            raise RuleError("players must be between 2 and 7, min_players <= max_players")
        if self.target < 1:
            raise RuleError("target must be at least 1")
        if self.min_bid < 1:
            raise RuleError("min_bid must be at least 1")
        if self.max_bid is not None and self.max_bid < self.min_bid:
            raise RuleError("max_bid must not be below min_bid")
        if not self.categories:
            raise RuleError("categories must not be empty")
        keys = [c.key for c in self.categories]
        if len(set(keys)) != len(keys):
            raise RuleError("category keys must be unique")
        for category in self.categories:
            if category.kind not in ("one", "count"):
                raise RuleError(f"category {category.key}: kind must be one or count")
            if category.value < 1:
                raise RuleError(f"category {category.key}: value must be at least 1")
        unknown = set(self.tiebreak) - set(keys)
        if unknown:
            raise RuleError(f"tiebreak names unknown categories: {', '.join(sorted(unknown))}")
        if self.smudge != "none" and self.max_bid is None:
            raise RuleError("a smudge is a bid of max_bid, so max_bid must be set")
        for name in ("chips_plus", "chips_zero_or_minus", "chips_per_setback", "ante"):
            if getattr(self, name) < 0:
                raise RuleError(f"{name} must not be negative")

    def category(self, key: str) -> Category | None:
        return next((c for c in self.categories if c.key == key), None)

    @property
    def most_points(self) -> int:
        """Every point one hand can give, the cap of an open-ended bid."""
        return sum(c.most_points for c in self.categories)

    @property
    def highest_bid(self) -> int:
        return self.max_bid if self.max_bid is not None else self.most_points

    def is_smudge(self, bid: int | None) -> bool:
        return self.smudge != "none" and bid is not None and bid == self.max_bid

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["categories"] = [asdict(c) for c in self.categories]
        data["tiebreak"] = list(self.tiebreak)
        return data


SETTING_NAMES = tuple(f.name for f in fields(Ruleset))

PRESETS: dict[str, Ruleset] = {
    "setback": Ruleset(
        preset="setback",
        smudge="wins_game",
        settlement="chips",
    ),
    "auction-pitch": Ruleset(
        preset="auction-pitch",
        min_players=2,
        min_bid=1,
        all_pass="dealer_forced",
        low_to="capturer",
        winner="bidder_out",
    ),
    "partnership": Ruleset(
        preset="partnership",
        min_players=4,
        max_players=6,
        partnership=True,
        target=11,
        max_bid=5,
        all_pass="dealer_forced",
        low_to="capturer",
        smudge="all_tricks",
    ),
    "pitch-with-bidding": Ruleset(
        preset="pitch-with-bidding",
        min_bid=1,
        max_bid=None,
        dealer_may_steal=False,
        categories=(
            HIGH,
            LOW,
            JACK,
            Category("queens", "Queens", value=2, kind="count", max_count=4),
            Category("kings", "Kings", value=3, kind="count", max_count=4),
            Category("aces", "Aces", value=4, kind="count", max_count=4),
        ),
        low_to="capturer",
        winner="highest_total",
    ),
    "blind-all-fours": Ruleset(
        preset="blind-all-fours",
        target=11,
        bidding=False,
        min_bid=1,
        max_bid=None,
        dealer_may_steal=False,
    ),
}

DEFAULT_PRESET = "setback"


def _category_from(data: Any, index: int) -> Category:
    where = f"categories[{index}]"
    if not isinstance(data, Mapping):
        raise RuleError(f"{where} must be an object with key, label, value and kind")
    names = {f.name for f in fields(Category)}
    unknown = set(data) - names
    if unknown:
        raise RuleError(f"{where}: unknown setting {', '.join(sorted(unknown))}")
    key = data.get("key")
    if not isinstance(key, str) or not key:
        raise RuleError(f"{where}: key must be a non-empty text")
    values = {"key": key, "label": data.get("label", key)}
    for name, kind in (("value", int), ("kind", str), ("required", bool), ("max_count", int)):
        if name in data:
            if not _is(data[name], kind, allow_none=name == "max_count"):
                raise RuleError(f"{where} ({key}): {name} has the wrong type")
            values[name] = data[name]
    return Category(**values)


def _is(value: Any, kind: type, *, allow_none: bool = False) -> bool:
    if value is None:
        return allow_none
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, kind)


def resolve_rules(spec: str | Mapping[str, Any] | None) -> Ruleset:
    """A preset name, or ``{"preset": name, setting: value, ...}``, as a full ruleset.

    A resolved ruleset (``to_dict()`` output) resolves to itself.
    """
    if spec is None:
        spec = DEFAULT_PRESET
    if isinstance(spec, str):
        spec = {"preset": spec}
    if not isinstance(spec, Mapping):
        raise RuleError("rules must be a preset name or an object of settings")
    name = spec.get("preset", DEFAULT_PRESET)
    # Checked as text first: a list or an object here is unhashable.
    if not isinstance(name, str) or name not in PRESETS:
        raise RuleError(f"unknown preset {name!r}; known presets: {', '.join(PRESETS)}")
    base = PRESETS[name]
    unknown = set(spec) - set(SETTING_NAMES)
    if unknown:
        raise RuleError(f"unknown rule setting {', '.join(sorted(unknown))}")
    overrides: dict[str, Any] = {}
    for f in fields(Ruleset):
        if f.name not in spec or f.name == "preset":
            continue
        value = spec[f.name]
        default = getattr(base, f.name)
        if f.name == "categories":
            if not isinstance(value, list | tuple):
                raise RuleError("categories must be a list")
            value = tuple(_category_from(item, i) for i, item in enumerate(value))
        elif f.name == "tiebreak":
            if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
                raise RuleError("tiebreak must be a list of category keys")
            value = tuple(value)
        elif f.name == "max_bid":
            if not _is(value, int, allow_none=True):
                raise RuleError("max_bid must be a whole number or null (open-ended)")
        elif not _is(value, type(default)):
            raise RuleError(f"{f.name} must be {_type_words(default)}")
        overrides[f.name] = value
    return replace(base, **overrides)


def _type_words(default: Any) -> str:
    if isinstance(default, bool):
        return "true or false"
    if isinstance(default, int):
        return "a whole number"
    return "a text"


__all__ = [
    "Category",
    "DEFAULT_PRESET",
    "FORCED_DEALER_MIN_BID",
    "PRESETS",
    "Ruleset",
    "resolve_rules",
]
