"""A game's result for its record with some hands more, and the hand an entry form
describes after them: the entry points the phone calls when it runs this package in the
browser (see docs/offline.md), so the hands it reads and the totals it shows are this
engine's, worked out exactly as the server works them out.

Text in, text out: the browser passes JSON and gets JSON back, so nothing of the
runtime's object conversions can change a number on the way.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .auction import bidding_order
from .engine import play_on
from .entry import auction_offer, auction_size, hand_from_fields
from .errors import RuleError
from .record import (
    MAX_HANDS,
    GameRecord,
    hand_to_data,
    parse_game_played,
    parse_hands,
    result_to_data,
)
from .results import GameResult, HandRecord

# The records replayed lately, by their text. In the browser a replay costs about 15 ms
# a hand, so a Save plays one hand on from the record the page holds, and the record
# the server sends back after it (the same hands and one more) plays on from that.
KEEP_REPLAYED = 4


@dataclass(frozen=True)
class _Replayed:
    header: dict[str, Any]  # the document but its hands
    hands: list[Any]  # its hands, as given
    record: GameRecord
    result: GameResult


_REPLAYED: OrderedDict[str, _Replayed] = OrderedDict()


def project(document: Mapping[str, Any], extra: Sequence[Any]) -> dict[str, Any]:
    """``result_to_data`` of the game ``document`` (``pitchkeeper.game/1``) with the
    hands ``extra`` played after its own, and ``in_hole``: the sides below zero.
    Raises RuleError, naming the hand, for a hand the rules refuse."""
    return _projected(json.dumps(document), extra)


def project_json(record_text: str, extra_text: str) -> str:
    """``project`` from and to JSON text; a refusal is ``{"error": message, "refusal":
    refusal_data}``, the message naming the hand ("hand 6: ...")."""
    try:
        return json.dumps(_projected(record_text, json.loads(extra_text)))
    except RuleError as error:
        return json.dumps(_refused(error))


def project_form(
    document: Mapping[str, Any],
    extra: Sequence[Any],
    fields: Mapping[str, Sequence[str]],
    action: str = "save",
) -> dict[str, Any]:
    """The hand the entry form's posted ``fields`` ({name: [values]}) and its button
    ``action`` describe (``entry.hand_from_fields``), as the hand after those of the
    game ``document`` and ``extra``: ``hand``, in the record format, and with it either
    ``result``, what ``project`` gives with that hand played too, or ``refused``, the
    engine's words for why it cannot be played (and ``refusal``, its ``refusal_data``).
    Raises RuleError for an entry the form refuses, or for any hand once the game is
    over."""
    return _project_form(json.dumps(document), extra, fields, action)


def project_form_json(record_text: str, extra_text: str, fields_text: str, action: str) -> str:
    """``project_form`` from and to JSON text; an entry refused is ``{"error": message,
    "refusal": refusal_data}``."""
    try:
        fields = json.loads(fields_text)
        extra = json.loads(extra_text)
        return json.dumps(_project_form(record_text, extra, fields, action))
    except RuleError as error:
        return json.dumps(_refused(error))


def offer_json(record_text: str, extra_text: str, fields_text: str) -> str:
    """The whole auction's fields as the next hand after the game's record and the
    hands ``extra`` offers them, read from the form's posted ``fields`` ({name:
    [values]}; its ``auction_<i>`` and ``forced``), as ``entry.auction_offer`` gives it
    to the server's form: ``{"turns": [[index, player, [entries allowed]]], "over",
    "shown"}``; no turns once the game is over. The phone redraws its form with it
    while hands wait on it to be sent, so the names and bids it offers are the server's."""
    try:
        record, result = _played(record_text, json.loads(extra_text))
    except RuleError as error:
        return json.dumps(_refused(error))
    if result.dealer is None:
        return json.dumps({"turns": [], "over": True, "shown": 0})
    fields = json.loads(fields_text)
    # As many fields as the server's form has for the same post.
    size = auction_size(record.rules, len(record.seating.players), fields)
    entries = [(fields.get(f"auction_{index}") or [None])[-1] for index in range(size)]
    offer = auction_offer(
        record.rules,
        record.seating,
        result.dealer,
        entries,
        result.scores,
        fields.get("forced", ()),
    )
    turns = [[turn.index, turn.player, sorted(turn.allowed)] for turn in offer.turns]
    return json.dumps({"turns": turns, "over": offer.over, "shown": offer.shown})


def refusal_data(error: RuleError) -> dict[str, Any]:
    """A refusal as the phone puts it into the page's language (static/js/offline.js,
    as games.words.refusal_text does on the server): its code and parameters, a refusal
    among them as such data and a tuple as a list; its words alone where it has no code.
    Several at once (every missing part of a hand) are ``each``, beside the first's."""
    if error.code is None:
        data: dict[str, Any] = {"message": error.message}
    else:
        data = {
            "code": error.code,
            "params": {name: _param_data(value) for name, value in error.params.items()},
        }
    if len(error.each) > 1:
        data["each"] = [refusal_data(part) for part in error.each]
    return data


def _param_data(value: object) -> object:
    if isinstance(value, RuleError):
        return refusal_data(value)
    if isinstance(value, tuple):
        return [_param_data(item) for item in value]
    return value


def _refused(error: RuleError) -> dict[str, Any]:
    return {"error": str(error), "refusal": refusal_data(error)}


def _project_form(
    record_text: str, extra: Sequence[Any], fields: Mapping[str, Sequence[str]], action: str
) -> dict[str, Any]:
    record, result = _played(record_text, extra)
    if result.dealer is None:
        # Nobody deals after the winning hand: the engine refuses any hand, in its words.
        play_on(record.rules, record.seating, result, (HandRecord(misdeal=True),))
    hand = hand_to_data(
        hand_from_fields(
            fields, rules=record.rules, seating=record.seating, dealer=result.dealer, action=action
        )
    )
    # Played as the record format reads it, as a hand kept offline is played later.
    try:
        return {"hand": hand, "result": _projected(record_text, [*extra, hand])}
    except RuleError as error:
        refused = _refused(error)
        return {"hand": hand, "refused": refused["error"], "refusal": refused["refusal"]}


def _played(record_text: str, extra: Sequence[Any]) -> tuple[GameRecord, GameResult]:
    replayed = _replayed(record_text)
    record, result = replayed.record, replayed.result
    hands = parse_hands(extra, record.rules, first=len(record.hands) + 1)
    if hands:
        result = play_on(record.rules, record.seating, result, hands)
    return record, result


def _projected(record_text: str, extra: Sequence[Any]) -> dict[str, Any]:
    record, result = _played(record_text, extra)
    data = result_to_data(result)
    # The next hand's bidding order, from the dealer's left: the phone puts the form's
    # badges and auction names in it (none once the game is over).
    data["order"] = list(bidding_order(record.seating, result.dealer)) if result.dealer else []
    data["in_hole"] = [side for side in result.sides if result.in_hole(side)]
    # The settlement as the game-over screen says it: who pays whom, how many chips.
    data["payments"] = [list(payment) for payment in result.payments()]
    return data


def _replayed(text: str) -> _Replayed:
    if text in _REPLAYED:
        _REPLAYED.move_to_end(text)
        return _REPLAYED[text]
    data = json.loads(text)
    replayed = _played_on(data)
    if replayed is None:
        record, result = parse_game_played(data)
        header = {key: value for key, value in data.items() if key != "hands"}
        replayed = _Replayed(header, data.get("hands", []), record, result)
    _REPLAYED[text] = replayed
    if len(_REPLAYED) > KEEP_REPLAYED:
        _REPLAYED.popitem(last=False)
    return replayed


def _played_on(data: Any) -> _Replayed | None:
    """The game played on from one replayed lately whose hands begin its own (same
    rules, seats and first dealer): only the hands after those are played. None when
    there is none such, and parse_game is to check the whole document."""
    if not isinstance(data, dict) or not isinstance(data.get("hands"), list):
        return None
    hands = data["hands"]
    if len(hands) > MAX_HANDS:
        return None
    header = {key: value for key, value in data.items() if key != "hands"}
    for earlier in reversed(_REPLAYED.values()):
        count = len(earlier.hands)
        if earlier.header != header or hands[:count] != earlier.hands:
            continue
        record = earlier.record
        new = parse_hands(hands[count:], record.rules, first=count + 1)
        result = play_on(record.rules, record.seating, earlier.result, new)
        record = GameRecord(record.rules, record.seating, record.first_dealer, record.hands + new)
        return _Replayed(header, hands, record, result)
    return None
