"""The game-record format ``pitchkeeper.game/1``: one game as plain JSON data.

Parsing checks the shape of the data and resolves names; the rules themselves are
checked by ``replay``. Nothing here knows about storage.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .engine import replay
from .errors import RuleError
from .resolve import resolve_rules
from .results import GameResult, HandRecord, HandResult
from .ruleset import Bid, Ruleset
from .seating import Seating, Team

FORMAT = "pitchkeeper.game/1"
MAX_NAME_LENGTH = 40
# A real game is over within a few dozen hands, misdeals and all. A game of 200 hands
# shows in about a quarter of a second; 500 took 1.4 s, and 100,000 took 28 s and 36 MB.
MAX_HANDS = 200
# Bounds on a file to import, far beyond any real one: a club's backup of ten busy years
# is a few tens of megabytes and nests 8 levels deep; numbers in it have a few digits.
# Checked before parsing, because Python's parser answers deeper nesting with a
# RecursionError, longer numbers with a ValueError, and a huge file with all the memory.
MAX_JSON_CHARS = 200_000_000
MAX_JSON_DEPTH = 32
MAX_JSON_DIGITS = 18
# Python holds a JSON object or list in 56 to 200 bytes, 20 to 40 times the two to ten
# characters it takes in a file: a file of nothing but "[]" or {"a":0} took 5.6 GB to
# read at 190 MB. Every object and list of a game record or a backup holds more than
# this many characters on average (the densest, an auction's ["A",null], 11), so a file
# with more of them than its size allows (beyond the first MAX_JSON_FREE_CONTAINERS) is
# refused before it is read, and reading one takes at most about 20 times its size.
JSON_CHARS_PER_CONTAINER = 10
MAX_JSON_FREE_CONTAINERS = 10_000
# Invisible or control characters in a name: control (Cc), format (Cf: zero-width,
# direction overrides), private use, surrogates, unassigned, line and paragraph
# separators; and the letters and signs drawn as nothing (the Hangul fillers, the blank
# Braille pattern, the combining grapheme joiner, the Khmer inherent vowels, the Khitan
# filler, the musical null notehead).
HIDDEN_CATEGORIES = {"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"}
HIDDEN_CHARACTERS = set("\u034f\u115f\u1160\u17b4\u17b5\u2800\u3164\uffa0\U00016fe4\U0001d159")
# "night" says which club night, round and table a game was played at; like "id" and
# "result" it describes the game and is not read back.
GAME_KEYS = {
    *("format", "id", "rules", "players", "teams", "first_dealer", "hands", "result"),
    "night",
}
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
    data = load_document(text)
    return data if isinstance(data, list) else [data]


# A string (escapes and all), a bracket, or a quote whose string is never closed: what
# the depth check looks at. The last is refused at once: the scan would otherwise try
# every later quote as the start of a string and read on to the end from each (a file
# of "\"\"\"... took 51 s at 64 KB). Possessive (*+): a string that fails to close is
# not backtracked through, which kept a step for each escape (60 times the file's size).
_STRING_OR_BRACKET = re.compile(r'"[^"\\]*+(?:\\.[^"\\]*+)*+"|[\[\]{}]|"')


class _Twice(dict):  # type: ignore[type-arg]
    """An object that named ``key`` more than once."""

    key: str


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) == len(pairs):
        return found
    twice = _Twice(found)
    counts = Counter(key for key, _value in pairs)
    twice.key = next(key for key, _value in pairs if counts[key] > 1)
    return twice


def _whole(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_JSON_DIGITS:
        raise RuleError("number_digits", {"most": MAX_JSON_DIGITS, "digits": digits[:20]})
    return int(digits)


def _constant(name: str) -> Any:
    raise RuleError("number_constant", {"name": name})


def load_document(text: str) -> Any:
    """JSON data from ``text``, refused (RuleError) past the bounds above, with an object
    that names a key twice (the last one would silently win), or with NaN or Infinity."""
    if len(text) > MAX_JSON_CHARS:
        raise RuleError("file_too_large", {"most": f"{MAX_JSON_CHARS:,}"})
    depth = containers = 0
    most = MAX_JSON_FREE_CONTAINERS + len(text) // JSON_CHARS_PER_CONTAINER
    for match in _STRING_OR_BRACKET.finditer(text):
        bracket = match.group()
        if bracket == '"':
            where = match.start()
            line = text.count("\n", 0, where) + 1
            column = where - text.rfind("\n", 0, where)
            raise RuleError("text_never_closed", {"line": line, "column": column})
        if bracket in "[{":
            depth += 1
            containers += 1
            if depth > MAX_JSON_DEPTH:
                raise RuleError("nested_too_deep", {"most": MAX_JSON_DEPTH})
            if containers > most:
                raise RuleError("too_dense", {"each": JSON_CHARS_PER_CONTAINER})
        elif bracket in "]}":
            depth -= 1
    try:
        data = json.loads(
            text, object_pairs_hook=_pairs, parse_int=_whole, parse_constant=_constant
        )
    except json.JSONDecodeError as error:
        where = {"problem": error.msg, "line": error.lineno, "column": error.colno}
        raise RuleError("json_invalid", where) from None
    _refuse_twice(data, ())
    return data


def _refuse_twice(data: Any, path: tuple[str | int, ...]) -> None:
    """Refuse the first object with a key given twice, saying where it is."""
    if isinstance(data, _Twice):
        where = _place(path)
        code = "key_twice_at" if where else "key_twice"
        raise RuleError(code, {"where": where, "key": data.key})
    if isinstance(data, dict):
        for key, value in data.items():
            _refuse_twice(value, (*path, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            _refuse_twice(value, (*path, index))


# What an item of a list is called, by the key of the list (None: the file's own list).
_ITEM: dict[str | int | None, str] = {
    None: "game",
    "games": "game",
    "hands": "hand",
    "players": "player",
}


def _place(path: tuple[str | int, ...]) -> str:
    """Where in a game file or a club's backup ``path`` is, in words: "game 2, hand 5,
    points"."""
    words = []
    parent: str | int | None = None
    for key in path:
        if isinstance(key, int):
            words.append(f"{_ITEM.get(parent, 'entry')} {key + 1}")
        elif key not in ("record", *_ITEM):
            words.append(key)
        parent = key
    return ", ".join(words)


def normal_name(name: str) -> str:
    """A name as it is stored and compared: Unicode NFKC (full-width letters, ligatures
    and the like become the plain ones they look like), runs of white space one space,
    stripped."""
    return " ".join(unicodedata.normalize("NFKC", name).split())


def hidden_character(name: str) -> str | None:
    """The first character of ``name`` that cannot be seen, or that changes how the
    characters around it look, as "U+XXXX ITS NAME", if any: control, format (zero
    width, direction) and unassigned characters, blank letters (U+3164), variation
    selectors, and a combining mark with no letter to sit on. Looked for in the name as
    given, then in its normal form (``normal_name``): NFKC makes a space and a combining
    mark of a spacing accent ("¯"), and the space may then be stripped."""
    return _first_hidden(name) or _first_hidden(normal_name(name))


def _first_hidden(name: str) -> str | None:
    before = " "
    for character in name:
        category = unicodedata.category(character)
        lone_mark = category[0] == "M" and unicodedata.category(before)[0] not in "LMN"
        if (
            character in HIDDEN_CHARACTERS
            or category in HIDDEN_CATEGORIES
            or lone_mark
            or _is_variation_selector(character)
        ):
            words = unicodedata.name(character, "")
            return f"U+{ord(character):04X} {words}".rstrip()
        before = character
    return None


def _is_variation_selector(character: str) -> bool:
    # They pick another picture of the character before them (an emoji, a CJK glyph),
    # so "Ann" and "Ann\uFE0F" look alike; the Mongolian ones do the same.
    code = ord(character)
    return 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF or 0x180B <= code <= 0x180F


def check_name(name: object, what: RuleError) -> str:
    """``name`` normalised (``normal_name``), or a RuleError saying what is wrong;
    ``what`` says whose name it is ("each player"), as a code's words, so that the
    refusal is put into the user's language whole."""
    if not isinstance(name, str) or not name.strip():
        raise RuleError("name_empty", {"what": what})
    hidden = hidden_character(name.strip())
    if hidden is not None:
        # Invisible characters make names that look alike but differ; NUL cannot even
        # be stored by PostgreSQL.
        raise RuleError("name_hidden", {"what": what, "hidden": hidden})
    name = normal_name(name)
    if not name:
        raise RuleError("name_empty", {"what": what})
    if len(name) > MAX_NAME_LENGTH:
        raise RuleError("name_too_long", {"what": what, "most": MAX_NAME_LENGTH})
    return name


def parse_game(data: Any) -> GameRecord:
    """A game record from its JSON data; the hands are checked by replaying them."""
    return parse_game_played(data)[0]


def parse_game_played(data: Any) -> tuple[GameRecord, GameResult]:
    """``parse_game``, with the result of the replay that checked the hands (for a
    caller that needs it: a second replay would double the cost, which counts on the
    phone)."""
    if not isinstance(data, Mapping):
        raise RuleError("game_not_object", {})
    if data.get("format") != FORMAT:
        raise RuleError("format_wrong", {"format": FORMAT})
    unknown = set(data) - GAME_KEYS
    if unknown:
        raise RuleError("field_unknown", {"unknown": tuple(sorted(map(str, unknown)))})
    rules = resolve_rules(data.get("rules"))
    players = data.get("players")
    if not isinstance(players, list):
        raise RuleError("players_not_list", {})
    names = tuple(check_name(p, RuleError("each_player", {})) for p in players)
    teams = _parse_teams(data.get("teams"))
    seating = Seating(names, teams)
    seating.check(rules)
    first_dealer = seating.player(_normal_names(data.get("first_dealer", names[0])))
    raw_hands = data.get("hands", [])
    if not isinstance(raw_hands, list):
        raise RuleError("hands_not_list", {})
    if len(raw_hands) > MAX_HANDS:
        raise RuleError("too_many_hands", {"most": MAX_HANDS, "count": len(raw_hands)})
    record = GameRecord(rules, seating, first_dealer, parse_hands(raw_hands, rules))
    return record, record.replay()


def parse_hands(raw: Sequence[Any], rules: Ruleset, first: int = 1) -> tuple[HandRecord, ...]:
    """Hands of a game under ``rules``, their names normalised as the players' are; an
    error names the hand, counting from ``first``."""
    hands = []
    for number, hand in enumerate(raw, start=first):
        try:
            hands.append(parse_hand(_normal_names(hand), rules))
        except RuleError as error:
            raise error.at_hand(number) from None
    return tuple(hands)


def _normal_names(raw: Any) -> Any:
    """The hand (or name) with every text in it normalised as ``check_name`` does the
    players', so that "Ａｎｎ" in a hand is the "Ann" at the table."""
    if isinstance(raw, str):
        return normal_name(raw)
    if isinstance(raw, Mapping):
        return {key: _normal_names(value) for key, value in raw.items()}
    if isinstance(raw, list):
        return [_normal_names(value) for value in raw]
    return raw


def _parse_teams(raw: Any) -> tuple[Team, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, Mapping):
        raise RuleError("teams_not_map", {})
    teams = []
    for name, members in raw.items():
        if not isinstance(members, list):
            raise RuleError("team_not_list", {"team": name})
        teams.append(
            Team(
                check_name(name, RuleError("each_team", {})),
                tuple(check_name(m, RuleError("each_player_of", {"team": name})) for m in members),
            )
        )
    return tuple(teams)


def parse_hand(raw: Any, rules: Ruleset | None = None) -> HandRecord:
    """A hand record from its JSON data. Without ``rules`` a bid may be any whole
    number or text, for the engine to check; with them, text only where the rules have
    bids written as text ("6x2", "moon")."""
    if not isinstance(raw, Mapping):
        raise RuleError("hand_not_object", {})
    unknown = set(raw) - HAND_KEYS
    if unknown:
        raise RuleError("field_unknown", {"unknown": tuple(sorted(map(str, unknown)))})
    for key in ("misdeal", "all_tricks"):
        if not isinstance(raw.get(key, False), bool):
            raise RuleError("field_not_bool", {"key": key}, field=key)
    for key in ("pitcher", "dealer", "partner"):
        if key in raw and raw[key] is not None and not isinstance(raw[key], str):
            raise RuleError("field_not_name", {"key": key}, field=key)
    words = rules is None or rules.word_bids
    bid = raw.get("bid")
    if bid is not None and not _is_bid(bid, words):
        raise RuleError("bid_not_written" if words else "bid_not_whole", {}, field="bid")
    auction = raw.get("auction")
    if auction is not None:
        auction = _parse_auction(auction, words)
    revoked = raw.get("revoked", [])
    if not isinstance(revoked, list) or not all(isinstance(n, str) for n in revoked):
        raise RuleError("revoked_not_list", {}, field="revoked")
    forced = raw.get("forced", [])
    if not isinstance(forced, list) or not all(isinstance(n, str) for n in forced):
        raise RuleError("forced_not_list", {}, field="forced")
    points = raw.get("points", {})
    if not isinstance(points, Mapping):
        raise RuleError("points_not_object", {}, field="points")
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
    refusal = RuleError("auction_not_pairs", {}, field="auction")
    if not isinstance(raw, list):
        raise refusal
    pairs = []
    for entry in raw:
        if not isinstance(entry, Sequence) or isinstance(entry, str) or len(entry) != 2:
            raise refusal
        name, bid = entry
        if not isinstance(name, str) or not (bid is None or _is_bid(bid, words)):
            raise refusal
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


def game_to_data(
    record: GameRecord, result: GameResult | None = None, game_id: Any = None
) -> dict[str, Any]:
    """The game as a ``pitchkeeper.game/1`` document, with its result when given (the
    phone's engine derives the result itself)."""
    data: dict[str, Any] = {"format": FORMAT}
    if game_id is not None:
        data["id"] = game_id
    data["rules"] = record.rules.to_dict()
    data["players"] = list(record.seating.players)
    if record.seating.teams:
        data["teams"] = {team.name: list(team.members) for team in record.seating.teams}
    data["first_dealer"] = record.first_dealer
    data["hands"] = [hand_to_data(hand) for hand in record.hands]
    if result is not None:
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
