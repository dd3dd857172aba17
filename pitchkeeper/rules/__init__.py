"""The rules of Auction Pitch and its family, in pure Python.

Everything the app shows is derived here from a ruleset, the seating and the hand
records; the rest of the app stores facts and calls in.
"""

from __future__ import annotations

from .engine import (
    GameResult,
    HandRecord,
    HandResult,
    Reach,
    bidding_order,
    check_auction,
    eldest_of,
    legal_bids,
    replay,
    settle,
)
from .errors import RuleError
from .record import FORMAT, GameRecord, game_to_data, load_json, parse_game
from .ruleset import DEFAULT_PRESET, PRESETS, Category, Ruleset, resolve_rules
from .seating import Seating, Team

__all__ = [
    "DEFAULT_PRESET",
    "FORMAT",
    "PRESETS",
    "Category",
    "GameRecord",
    "GameResult",
    "HandRecord",
    "HandResult",
    "Reach",
    "RuleError",
    "Ruleset",
    "Seating",
    "Team",
    "bidding_order",
    "check_auction",
    "eldest_of",
    "game_to_data",
    "legal_bids",
    "load_json",
    "parse_game",
    "replay",
    "resolve_rules",
    "settle",
]
