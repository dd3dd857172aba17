"""A game's result for its record with some hands more: the one entry point the phone
calls when it runs this package in the browser (see docs/offline.md), so the totals it
shows are this engine's, computed exactly as the server computes them.

Text in, text out: the browser passes JSON and gets JSON back, so nothing of the
runtime's object conversions can change a number on the way.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any

from .engine import GameResult, play_on
from .errors import RuleError
from .record import GameRecord, parse_game, parse_hand, result_to_data

# The records replayed lately, by their text: a Save projects one hand more on the
# record the page holds, so the page's record is replayed once, not on every tap.
_REPLAYED: OrderedDict[str, tuple[GameRecord, GameResult]] = OrderedDict()
KEEP_REPLAYED = 4


def _replayed(text: str) -> tuple[GameRecord, GameResult]:
    if text in _REPLAYED:
        _REPLAYED.move_to_end(text)
        return _REPLAYED[text]
    record = parse_game(json.loads(text))
    replayed = (record, record.replay())
    _REPLAYED[text] = replayed
    if len(_REPLAYED) > KEEP_REPLAYED:
        _REPLAYED.popitem(last=False)
    return replayed


def project(document: Mapping[str, Any], extra: Sequence[Any]) -> dict[str, Any]:
    """``result_to_data`` of the game ``document`` (``pitchkeeper.game/1``) with the
    hands ``extra`` played after its own, and ``in_hole``: the sides below zero.
    Raises RuleError, naming the hand, for a hand the rules refuse."""
    return _projected(json.dumps(document), extra)


def project_json(record_text: str, extra_text: str) -> str:
    """``project`` from and to JSON text; a refusal is ``{"error": message}``, the
    message naming the hand ("hand 6: ...")."""
    try:
        return json.dumps(_projected(record_text, json.loads(extra_text)))
    except RuleError as error:
        return json.dumps({"error": str(error)})


def _projected(record_text: str, extra: Sequence[Any]) -> dict[str, Any]:
    record, result = _replayed(record_text)
    hands = []
    for number, raw in enumerate(extra, start=len(record.hands) + 1):
        try:
            hands.append(parse_hand(raw, record.rules))
        except RuleError as error:
            raise error.at_hand(number) from None
    if hands:
        result = play_on(record.rules, record.seating, result, hands)
    data = result_to_data(result)
    data["in_hole"] = [side for side in result.sides if result.in_hole(side)]
    return data
