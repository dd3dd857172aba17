"""The game-record format ``pitchkeeper.game/1``: one game as plain JSON data.

Parsing checks the shape of the data and resolves names; the rules themselves are
checked by ``replay``. Nothing here knows about storage.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .engine import GameResult, HandRecord, HandResult, replay
from .errors import RuleError
from .presets import resolve_rules
from .ruleset import Bid, Ruleset
from .seating import Seating, Team

FORMAT = "pitchkeeper.game/1"
MAX_NAME_LENGTH = 40
GAME_KEYS = {"format", "id", "rules", "players", "teams", "first_dealer", "hands", "result"}
HAND_KEYS = {
    "misdeal",
    "auction",
    "pitcher",
    "bid",
    "points",
    "revoked",
    "all_tricks",
    "dealer",
    "partner",
    "forced",
}


@dataclass(frozen=True)
class GameRecord:
    rules: Ruleset
    seating: Seating
    first_dealer: str
    hands: tuple[HandRecord, ...]

    def replay(self) -> GameResult:
        return replay(self.rules, self.seating, self.first_dealer, self.hands)


def load_json(text: str) -> list[Any]:
    """The games in a file that holds one game or a list of games."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise RuleError(
            f"not valid JSON: {error.msg} at line {error.lineno} column {error.colno}"
        ) from None
    return data if isinstance(data, list) else [data]


def check_name(name: object, what: str) -> str:
    if not isinstance(name, str) or not name.strip():
        raise RuleError(f"{what} must be a non-empty name")
    if len(name.strip()) > MAX_NAME_LENGTH:
        raise RuleError(f"{what} is longer than {MAX_NAME_LENGTH} characters")
    if "\x00" in name:
        # PostgreSQL cannot store it.
        raise RuleError(f"{what} must not contain a NUL character")
    return name.strip()


def parse_game(data: Any) -> GameRecord:
    """A game record from its JSON data; the hands are checked by replaying them."""
    if not isinstance(data, Mapping):
        raise RuleError("a game must be a JSON object")
    if data.get("format") != FORMAT:
        raise RuleError(f'"format" must be "{FORMAT}"')
    unknown = set(data) - GAME_KEYS
    if unknown:
        raise RuleError(f"unknown field {', '.join(sorted(map(str, unknown)))}")
    rules = resolve_rules(data.get("rules"))
    players = data.get("players")
    if not isinstance(players, list):
        raise RuleError('"players" must be a list of names in clockwise seat order')
    names = tuple(check_name(p, "each player") for p in players)
    teams = _parse_teams(data.get("teams"))
    seating = Seating(names, teams)
    seating.check(rules)
    first_dealer = seating.player(data.get("first_dealer", names[0]))
    raw_hands = data.get("hands", [])
    if not isinstance(raw_hands, list):
        raise RuleError('"hands" must be a list')
    hands = []
    for number, raw in enumerate(raw_hands, start=1):
        try:
            hands.append(parse_hand(raw, rules))
        except RuleError as error:
            raise error.at_hand(number) from None
    record = GameRecord(rules, seating, first_dealer, tuple(hands))
    record.replay()
    return record


def _parse_teams(raw: Any) -> tuple[Team, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, Mapping):
        raise RuleError('"teams" must map each team name to its players')
    teams = []
    for name, members in raw.items():
        if not isinstance(members, list):
            raise RuleError(f"team {name} must list its players")
        teams.append(
            Team(
                check_name(name, "each team"),
                tuple(check_name(m, f"each player of {name}") for m in members),
            )
        )
    return tuple(teams)


def parse_hand(raw: Any, rules: Ruleset | None = None) -> HandRecord:
    """A hand record from its JSON data. Without ``rules`` a bid may be any whole
    number or text, for the engine to check; with them, text only where the rules have
    bids written as text ("6x2", "moon")."""
    if not isinstance(raw, Mapping):
        raise RuleError("a hand must be a JSON object")
    unknown = set(raw) - HAND_KEYS
    if unknown:
        raise RuleError(f"unknown field {', '.join(sorted(map(str, unknown)))}")
    for key in ("misdeal", "all_tricks"):
        if not isinstance(raw.get(key, False), bool):
            raise RuleError(f'"{key}" must be true or false', field=key)
    for key in ("pitcher", "dealer", "partner"):
        if key in raw and raw[key] is not None and not isinstance(raw[key], str):
            raise RuleError(f'"{key}" must be a player\'s name', field=key)
    words = rules is None or rules.word_bids
    bid = raw.get("bid")
    if bid is not None and not _is_bid(bid, words):
        message = '"bid" must be a whole number'
        if words:
            message += ' or a bid written as text, such as "6x2" or "moon"'
        raise RuleError(message, field="bid")
    auction = raw.get("auction")
    if auction is not None:
        auction = _parse_auction(auction, words)
    revoked = raw.get("revoked", [])
    if not isinstance(revoked, list) or not all(isinstance(n, str) for n in revoked):
        raise RuleError('"revoked" must be a list of names', field="revoked")
    forced = raw.get("forced", [])
    if not isinstance(forced, list) or not all(isinstance(n, str) for n in forced):
        raise RuleError('"forced" must be a list of names', field="forced")
    points = raw.get("points", {})
    if not isinstance(points, Mapping):
        raise RuleError('"points" must map each category to who took it', field="points")
    return HandRecord(
        misdeal=raw.get("misdeal", False),
        auction=auction,
        pitcher=raw.get("pitcher"),
        bid=bid,
        points=dict(points),
        revoked=tuple(revoked),
        all_tricks=raw.get("all_tricks", False),
        dealer=raw.get("dealer"),
        partner=raw.get("partner"),
        forced=tuple(forced),
    )


def _is_bid(value: Any, words: bool) -> bool:
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (words and isinstance(value, str))


def _parse_auction(raw: Any, words: bool) -> tuple[tuple[str, Bid | None], ...]:
    message = '"auction" must be a list of [player, bid] pairs, null for a pass'
    if not isinstance(raw, list):
        raise RuleError(message, field="auction")
    pairs = []
    for entry in raw:
        if not isinstance(entry, Sequence) or isinstance(entry, str) or len(entry) != 2:
            raise RuleError(message, field="auction")
        name, bid = entry
        if not isinstance(name, str) or not (bid is None or _is_bid(bid, words)):
            raise RuleError(message, field="auction")
        pairs.append((name, bid))
    return tuple(pairs)


def hand_to_data(hand: HandRecord) -> dict[str, Any]:
    """A hand record as the format writes it, leaving out what is not set."""
    if hand.misdeal:
        return {"misdeal": True}
    data: dict[str, Any] = {}
    if hand.dealer is not None:
        data["dealer"] = hand.dealer
    if hand.auction is not None:
        data["auction"] = [[name, bid] for name, bid in hand.auction]
    else:
        if hand.pitcher is not None:
            data["pitcher"] = hand.pitcher
        if hand.bid is not None:
            data["bid"] = hand.bid
    if hand.partner is not None:
        data["partner"] = hand.partner
    if hand.forced:
        data["forced"] = list(hand.forced)
    if hand.points:
        data["points"] = dict(hand.points)
    if hand.revoked:
        data["revoked"] = list(hand.revoked)
    if hand.all_tricks:
        data["all_tricks"] = True
    return data


def game_to_data(record: GameRecord, result: GameResult, game_id: Any = None) -> dict[str, Any]:
    data: dict[str, Any] = {"format": FORMAT}
    if game_id is not None:
        data["id"] = game_id
    data["rules"] = record.rules.to_dict()
    data["players"] = list(record.seating.players)
    if record.seating.teams:
        data["teams"] = {team.name: list(team.members) for team in record.seating.teams}
    data["first_dealer"] = record.first_dealer
    data["hands"] = [hand_to_data(hand) for hand in record.hands]
    data["result"] = result_to_data(result)
    return data


def _hand_result_to_data(hand: HandResult, sides: Sequence[str]) -> dict[str, Any]:
    zero = dict.fromkeys(sides, 0)
    return {
        "number": hand.number,
        "dealer": hand.dealer,
        "kind": hand.kind,
        "pitcher": hand.pitcher,
        "bid": hand.bid,
        "made": hand.made,
        "taken": hand.taken or zero,
        "delta": hand.delta or zero,
        "scores": hand.scores,
    }


def result_to_data(result: GameResult) -> dict[str, Any]:
    return {
        "hands": [_hand_result_to_data(hand, result.sides) for hand in result.hands],
        "scores": result.scores,
        "dealer": result.dealer,
        "winner": result.winner,
        "won_by": result.won_by,
        "settlement": result.settlement,
    }
