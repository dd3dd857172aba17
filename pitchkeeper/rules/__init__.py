"""The rules of Auction Pitch and its family, in pure Python.

Everything the app shows is derived here from a ruleset, the seating and the hand
records; the rest of the app stores facts and calls in.
"""

from __future__ import annotations

from .auction import bidding_order, check_auction, eldest_of, legal_bids
from .bids import Contract, all_bids, contract, describe_bids
from .engine import play_on, replay, settle, settled_per_player
from .errors import RuleError, RuleErrors
from .presets import DEFAULT_PRESET, GROUPS, PRESET_INFO, PRESETS
from .record import FORMAT, GameRecord, game_to_data, load_json, parse_game
from .resolve import resolve_rules
from .results import GameResult, HandRecord, HandResult, Reach
from .ruleset import Bid, Category, MoonBid, Preset, Ruleset
from .seating import Seating, Team

__all__ = [
    "DEFAULT_PRESET",
    "FORMAT",
    "GROUPS",
    "PRESETS",
    "PRESET_INFO",
    "Bid",
    "Category",
    "Contract",
    "GameRecord",
    "GameResult",
    "HandRecord",
    "HandResult",
    "MoonBid",
    "Preset",
    "Reach",
    "RuleError",
    "RuleErrors",
    "Ruleset",
    "Seating",
    "Team",
    "all_bids",
    "bidding_order",
    "check_auction",
    "contract",
    "describe_bids",
    "eldest_of",
    "game_to_data",
    "legal_bids",
    "load_json",
    "parse_game",
    "play_on",
    "replay",
    "resolve_rules",
    "settle",
    "settled_per_player",
]
