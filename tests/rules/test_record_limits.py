"""What the game-record loader refuses before and while parsing: files too large, nested
too deep, numbers too long, NaN, keys given twice; names with invisible characters or in
another Unicode form of the same letters; games longer than any real one."""

from __future__ import annotations

import json

import pytest

from pitchkeeper.rules import RuleError, load_json, parse_game
from pitchkeeper.rules import record as record_module
from pitchkeeper.rules.record import (
    MAX_HANDS,
    MAX_JSON_DEPTH,
    check_name,
    hidden_character,
    load_document,
    normal_name,
)
from tests.conftest import example_record


def refused(text: str) -> str:
    with pytest.raises(RuleError) as caught:
        load_json(text)
    return str(caught.value)


@pytest.mark.parametrize("bracket", ["[", '{"a":'])
def test_json_nested_100000_deep_is_refused_before_parsing(bracket):
    assert "nested more than 32 levels deep" in refused(bracket * 100_000)


def test_json_nested_to_the_limit_is_read():
    text = "[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH
    assert load_document(text) is not None
    assert "nested" in refused("[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1))


def test_brackets_inside_strings_are_not_nesting():
    text = json.dumps({"name": "[" * 1000 + '\\"{' * 100})
    assert load_document(text) == json.loads(text)


@pytest.mark.parametrize("number", ["9" * 5000, "-" + "9" * 19, str(2**63)])
def test_a_number_with_too_many_digits_is_refused(number):
    assert "more than 18 digits" in refused(f'{{"bid": {number}}}')


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_refused(constant):
    assert "is not a number JSON allows" in refused(f"[{constant}]")


def test_a_file_too_large_is_refused_without_parsing(monkeypatch):
    monkeypatch.setattr(record_module, "MAX_JSON_CHARS", 10)
    assert "larger than 10 characters" in refused("[" + " " * 10 + "]")


def test_a_key_given_twice_in_a_hand_names_the_game_hand_and_key():
    hands = json.dumps(example_record()["hands"][:1])[1:-1]
    twice = hands.replace('"high": "Bob"', '"high": "Bob", "high": "Cy"')
    text = json.dumps([example_record(), example_record(hands=[])])
    text = text[: text.rindex('"hands": []')] + '"hands": [{}, ' + twice + "]}]"

    assert refused(text) == 'game 2, hand 2, points: "high" is given twice'


def test_a_key_given_twice_at_the_top_or_in_a_club_backup():
    assert refused('{"rules": "setback", "rules": "auction"}') == '"rules" is given twice'
    club = '{"games": [{"record": {"hands": [{"bid": 2, "bid": 3}]}}]}'
    assert refused(club) == 'game 1, hand 1: "bid" is given twice'


def test_a_game_longer_than_the_limit_is_refused():
    long = example_record(hands=[{"misdeal": True}] * (MAX_HANDS + 1))
    with pytest.raises(RuleError, match=f"at most {MAX_HANDS} hands"):
        parse_game(long)
    assert len(parse_game(example_record(hands=[{"misdeal": True}] * MAX_HANDS)).hands) == MAX_HANDS


@pytest.mark.parametrize(
    "name",
    ["\u200b", "A\u200bnn", "Ann\u202e", "a\x00b", "\u3164", "\ufeffAnn", "An\tn", "\u2800"],
)
def test_names_with_invisible_or_control_characters_are_refused(name):
    assert hidden_character(name) is not None
    with pytest.raises(RuleError, match="invisible or control character"):
        check_name(name, "each player")


@pytest.mark.parametrize(
    ("typed", "stored"),
    [("Ａｎｎ", "Ann"), ("  Ann   Lee ", "Ann Lee"), ("ﬁona", "fiona"), ("Zoë", "Zoë")],
)
def test_names_are_normalised(typed, stored):
    assert normal_name(typed) == check_name(typed, "x") == stored
    assert hidden_character(stored) is None


def test_a_record_in_full_width_letters_is_the_game_in_plain_ones():
    record = example_record(players=["Ａｎｎ", "Bob", "Cy", "Dee"], first_dealer="Ａｎｎ")
    record["hands"][1]["points"]["jack"] = "Ａｎｎ"

    parsed = parse_game(record)

    assert parsed.seating.players[0] == "Ann" and parsed.first_dealer == "Ann"
    assert parsed.hands[1].points["jack"] == "Ann"
