"""The hand-entry form's posted fields read into a hand record (pitchkeeper.rules.entry),
every kind of entry and every malformed one, and through the phone's entry point
(projection.project_form), JSON in and out."""

from __future__ import annotations

import json
from typing import Any

import pytest

from pitchkeeper.rules import PRESETS, HandRecord, RuleError, Seating, Team
from pitchkeeper.rules.entry import auction_size, hand_from_fields
from pitchkeeper.rules.projection import project, project_form, project_form_json
from tests.conftest import example_record

FOUR = Seating(("Ann", "Bob", "Cy", "Dee"))
PAIRS = Seating(
    ("Ann", "Bob", "Cy", "Dee"), (Team("Us", ("Ann", "Cy")), Team("Them", ("Bob", "Dee")))
)
SETBACK_POINTS = {
    "point_high": ["Bob"],
    "point_low": ["Cy"],
    "point_jack": ["nobody"],
    "point_game": ["Bob"],
}
TAKEN = {"high": "Bob", "low": "Cy", "jack": None, "game": "Bob"}
PAIR_POINTS = {"point_high": ["Us"], "point_low": ["Them"], "point_jack": ["Us"]}
NINE_FIVE = {**PAIR_POINTS, "point_game": ["Them"], "point_nine": ["nobody"]}
RAZZLE_KEYS = [category.key for category in PRESETS["razzle-dazzle"].categories]
NINE_FIVE_TAKEN = {"high": "Us", "low": "Them", "jack": "Us", "game": "Them", "nine": None}


def read(preset: str, fields: dict[str, list[str]], **kwargs: Any) -> HandRecord:
    seating = kwargs.pop("seating", FOUR)
    return hand_from_fields(
        fields, rules=PRESETS[preset], seating=seating, dealer=kwargs.pop("dealer", "Ann"), **kwargs
    )


@pytest.mark.parametrize(
    ("preset", "seating", "fields", "expected"),
    [
        pytest.param(
            "setback",
            FOUR,
            {"contract": ["Bob:3"], **SETBACK_POINTS, "token": ["abc"]},
            HandRecord(pitcher="Bob", bid=3, points=TAKEN),
            id="grid tap, the page's own fields left alone",
        ),
        pytest.param(
            "setback",
            FOUR,
            {"pitcher": ["Bob"], "bid": ["3"], **SETBACK_POINTS},
            HandRecord(pitcher="Bob", bid=3, points=TAKEN),
            id="pitcher and bid",
        ),
        pytest.param(
            "setback",
            FOUR,
            {"contract": ["Cy:2"], "pitcher": ["Bob"], "bid": ["3"], **SETBACK_POINTS},
            HandRecord(pitcher="Cy", bid=2, points=TAKEN),
            id="the grid over pitcher and bid",
        ),
        pytest.param(
            "setback",
            FOUR,
            {"auction_0": ["pass"], "auction_1": ["2"], "auction_2": ["pass"]}
            | {"auction_3": ["3"], "contract": ["Cy:2"], **SETBACK_POINTS},
            HandRecord(auction=(("Bob", None), ("Cy", 2), ("Dee", None), ("Ann", 3)), points=TAKEN),
            id="whole auction, from the dealer's left, over the grid",
        ),
        pytest.param(
            "bonanza",
            PAIRS,
            {f"auction_{i}": [bid] for i, bid in enumerate(["7", "pass", "8", "pass", "pass"])}
            | {**NINE_FIVE, "point_ten": ["Us"], "point_five": ["Them"]},
            HandRecord(
                auction=(("Bob", 7), ("Cy", None), ("Dee", 8), ("Ann", None), ("Bob", None)),
                points={"high": "Us", "low": "Them", "jack": "Us", "ten": "Us"}
                | {"nine": None, "five": "Them"},
            ),
            id="auction round until one, a point the rules do not score left alone",
        ),
        pytest.param(
            "pitch-with-bidding",
            Seating(("Ann", "Bob", "Cy")),
            {"pitcher": ["Bob"], "bid": ["5"], "point_high": ["Bob"], "point_low": ["Ann"]}
            | {"count_jacks_0": ["1"], "count_jacks_1": [" 3 "], "count_queens_2": ["-0"]}
            | {"count_kings_0": [""], "count_aces_1": ["04"]},
            HandRecord(
                pitcher="Bob",
                bid=5,
                points={
                    "high": "Bob",
                    "low": "Ann",
                    "jacks": {"Ann": 1, "Bob": 3, "Cy": 0},
                    "queens": {"Ann": 0, "Bob": 0, "Cy": 0},
                    "kings": {"Ann": 0, "Bob": 0, "Cy": 0},
                    "aces": {"Ann": 0, "Bob": 4, "Cy": 0},
                },
            ),
            id="counted points",
        ),
        pytest.param(
            "razzle-dazzle",
            FOUR,
            {"pitcher": ["Bob"], "bid": ["7"], "partner": ["Dee"]}
            | {f"point_{key}": ["Bob"] for key in RAZZLE_KEYS},
            HandRecord(
                pitcher="Bob",
                bid=7,
                partner="Dee",
                points=dict.fromkeys(RAZZLE_KEYS, "Bob"),
            ),
            id="called partner",
        ),
        pytest.param(
            "razzle-dazzle",
            FOUR,
            {"pitcher": ["Bob"], "bid": ["7"], "partner": ["alone"]}
            | {f"point_{key}": ["Bob"] for key in RAZZLE_KEYS},
            HandRecord(
                pitcher="Bob",
                bid=7,
                points=dict.fromkeys(RAZZLE_KEYS, "Bob"),
            ),
            id="alone",
        ),
        pytest.param(
            "setback",
            FOUR,
            {"contract": ["Bob:3"], **SETBACK_POINTS, "revoked": ["Dee", "Ann"]},
            HandRecord(pitcher="Bob", bid=3, points=TAKEN, revoked=("Dee", "Ann")),
            id="revoked",
        ),
        pytest.param(
            "nine-five",
            PAIRS,
            {"pitcher": ["Bob"], "bid": ["9"], "forced": ["Bob"], **NINE_FIVE}
            | {"point_five": ["Us"]},
            HandRecord(
                pitcher="Bob",
                bid=9,
                forced=("Bob",),
                points={**NINE_FIVE_TAKEN, "five": "Us"},
            ),
            id="forced",
        ),
        pytest.param(
            "setback",
            FOUR,
            {"contract": ["Bob:3"], **SETBACK_POINTS, "forced": ["Bob"], "all_tricks": ["on"]},
            HandRecord(pitcher="Bob", bid=3, points=TAKEN),
            id="forced and all tricks where the rules have neither",
        ),
        pytest.param(
            "partnership",
            PAIRS,
            {"contract": ["Bob:4"], **PAIR_POINTS, "point_game": ["Them"], "all_tricks": ["on"]},
            HandRecord(
                pitcher="Bob",
                bid=4,
                all_tricks=True,
                points={"high": "Us", "low": "Them", "jack": "Us", "game": "Them"},
            ),
            id="all tricks",
        ),
        pytest.param(
            "partnership",
            PAIRS,
            {"contract": ["Bob:4"], **PAIR_POINTS, "point_game": ["Them"], "all_tricks": ["0"]},
            HandRecord(
                pitcher="Bob",
                bid=4,
                points={"high": "Us", "low": "Them", "jack": "Us", "game": "Them"},
            ),
            id="all tricks posted as not ticked",
        ),
        pytest.param(
            "all-fours",
            PAIRS,
            {**PAIR_POINTS, "point_game": ["Them"], "pitcher": ["Dee"], "bid": ["2"]},
            HandRecord(points={"high": "Us", "low": "Them", "jack": "Us", "game": "Them"}),
            id="no bidding",
        ),
        pytest.param(
            "setback",
            FOUR,
            {"contract": ["Bob:3"], **SETBACK_POINTS, "point_high": ["Cy", "Bob"]},
            HandRecord(pitcher="Bob", bid=3, points=TAKEN),
            id="a field posted twice counts by its last value",
        ),
    ],
)
def test_every_kind_of_entry_reads_as_the_hand_entered(preset, seating, fields, expected):
    assert read(preset, fields, seating=seating) == expected


def test_a_misdeal_and_an_all_pass_read_no_field():
    junk = {"contract": ["Zed:99"], "point_high": ["Zed"]}

    assert read("setback", junk, action="misdeal") == HandRecord(misdeal=True)
    assert read("setback", junk, action="passed", dealer="Bob") == HandRecord(
        auction=(("Cy", None), ("Dee", None), ("Ann", None), ("Bob", None))
    )


SETBACK = {"contract": ["Bob:3"], **SETBACK_POINTS}
RAZZLE = {"pitcher": ["Bob"], "bid": ["7"], **{f"point_{key}": ["Bob"] for key in RAZZLE_KEYS}}
NINE_FIVE_ENTRY = {"pitcher": ["Bob"], "bid": ["9"], **NINE_FIVE, "point_five": ["Us"]}
COUNTED = {"pitcher": ["Bob"], "bid": ["5"], "point_high": ["Bob"], "point_low": ["Bob"]}
NOT_OFFERED = "entry_not_offered"
LONG = "1" * 5000  # more digits than int() reads
PASSES = {f"auction_{i}": ["pass"] for i in (1, 2, 3, 5)}


@pytest.mark.parametrize(
    ("preset", "fields", "code", "field"),
    [
        ("setback", SETBACK_POINTS, "entry_contract", "pitcher"),
        ("setback", {"pitcher": ["Bob"], **SETBACK_POINTS}, "entry_contract", "bid"),
        ("setback", {"contract": ["Bob:3"]}, "entry_point", "points.high"),
        ("setback", {**SETBACK, "point_high": ["nobody"]}, "entry_not_offered", "point_high"),
        ("setback", {**SETBACK, "contract": ["Zed:3"]}, "entry_not_offered", "contract"),
        ("setback", {**SETBACK, "contract": ["Bob:9"]}, "entry_not_offered", "contract"),
        ("setback", {**SETBACK, "contract": ["Bob3"]}, "entry_not_offered", "contract"),
        ("setback", {"pitcher": ["Zed"], "bid": ["3"]}, "entry_not_offered", "pitcher"),
        ("setback", {"pitcher": ["Bob"], "bid": ["3x"]}, "entry_not_offered", "bid"),
        ("setback", {**SETBACK, "point_game": ["Zed"]}, "entry_not_offered", "point_game"),
        ("setback", {**SETBACK, "revoked": ["Zed"]}, "entry_not_offered", "revoked"),
        ("setback", {"auction_0": ["7"]}, "entry_not_offered", "auction_0"),
        ("setback", {"auction_1": ["2"]}, "entry_no_bid", "auction_0"),
        ("bonanza", {"auction_0": ["7"], **PASSES}, "entry_auction_over", "auction_5"),
        ("razzle-dazzle", {**RAZZLE, "partner": ["Zed"]}, "entry_not_offered", "partner"),
        ("razzle-dazzle", RAZZLE, "entry_partner", "partner"),
        ("nine-five", {**NINE_FIVE_ENTRY, "forced": ["Zed"]}, "entry_not_offered", "forced"),
        ("pitch-with-bidding", {**COUNTED, "count_jacks_0": ["5"]}, NOT_OFFERED, "count_jacks_0"),
        ("pitch-with-bidding", {**COUNTED, "count_jacks_1": ["-1"]}, NOT_OFFERED, "count_jacks_1"),
        ("pitch-with-bidding", {**COUNTED, "count_aces_2": ["٣"]}, NOT_OFFERED, "count_aces_2"),
        ("pitch-with-bidding", {**COUNTED, "count_aces_2": [LONG]}, NOT_OFFERED, "count_aces_2"),
        ("setback", {}, "entry_not_offered", "action"),
    ],
)  # fmt: skip
def test_a_malformed_entry_is_refused_with_its_field(preset, fields, code, field):
    seating = PAIRS if PRESETS[preset].partnership else FOUR
    action = "redeal" if field == "action" else "save"

    with pytest.raises(RuleError) as refused:
        read(preset, fields, seating=seating, action=action)

    assert (refused.value.code, refused.value.field) == (code, field)


def test_every_missing_entry_is_named_at_once():
    """Fails when the reading stops at the first thing missing: a player fixed one a save."""
    with pytest.raises(RuleError) as setback:
        read("setback", {"point_low": ["Bob"]})
    with pytest.raises(RuleError) as razzle:
        read("razzle-dazzle", {"pitcher": ["Bob"], "bid": ["7"]})

    missing = [(each.code, each.field) for each in setback.value.each]
    assert missing == [
        ("entry_contract", "pitcher"),
        ("entry_point", "points.high"),
        ("entry_point", "points.jack"),
        ("entry_point", "points.game"),
    ]
    assert (setback.value.code, setback.value.field) == ("entry_contract", "pitcher")
    fields = [each.field for each in razzle.value.each]
    assert fields == [*(f"points.{key}" for key in RAZZLE_KEYS), "partner"]


def test_the_auction_fields_read_are_the_forms():
    rounds = PRESETS["bonanza"]

    assert auction_size(PRESETS["setback"], 4, ["auction_9"]) == 4
    assert auction_size(rounds, 4, []) == 16
    assert auction_size(rounds, 4, ["auction_20", "auction_1234", "auction_x"]) == 21
    assert auction_size(rounds, 4, ["auction_999"]) == 200


def test_the_phones_entry_point_reads_the_hand_after_the_queued_ones_and_plays_it():
    record = example_record(hands=[])
    queued = [{"misdeal": True}]  # Ann dealt it; Bob deals next, Cy bids first

    answer = project_form(record, queued, {"auction_0": ["2"], "auction_1": ["pass"]} | {
        "auction_2": ["pass"], "auction_3": ["pass"], **SETBACK_POINTS
    })  # fmt: skip

    hand = {"auction": [["Cy", 2], ["Dee", None], ["Ann", None], ["Bob", None]], "points": TAKEN}
    assert answer == {"hand": hand, "result": project(record, [*queued, hand])}
    assert answer["result"]["scores"] == {"Ann": 0, "Bob": 2, "Cy": -2, "Dee": 0}
    passed = project_form(record, queued, {}, "passed")["hand"]
    assert passed["auction"][0] == ["Cy", None]


def test_the_phones_entry_point_answers_json_and_refuses_in_words():
    text = json.dumps(example_record(hands=[]))
    fields = {"contract": ["Bob:3"], **SETBACK_POINTS}
    # Cy's 2 after Bob's: each bid must be higher, which the rules say when it is played.
    unplayable = {**SETBACK_POINTS} | {
        f"auction_{i}": [bid] for i, bid in enumerate(["2", "2", "pass", "pass"])
    }

    answer = json.loads(project_form_json(text, "[]", json.dumps(fields), "save"))
    refused = json.loads(project_form_json(text, "[]", json.dumps({"contract": ["Bob:3"]}), "save"))
    unplayed = json.loads(project_form_json(text, "[]", json.dumps(unplayable), "save"))

    assert answer["hand"] == {"pitcher": "Bob", "bid": 3, "points": TAKEN}
    assert answer["result"]["scores"] == {"Ann": 0, "Bob": -3, "Cy": 1, "Dee": 0}
    # With its code and parameters, for the phone to word in the page's language.
    # Every missing point, each with its own code (the first's beside them).
    assert refused == {
        "error": "Say who took High.",
        "refusal": {
            "code": "entry_point",
            "params": {"point": "High"},
            "each": [
                {"code": "entry_point", "params": {"point": point}}
                for point in ("High", "Low", "Jack", "Game")
            ],
        },
    }
    assert unplayed["hand"]["auction"][:2] == [["Bob", 2], ["Cy", 2]]
    assert unplayed["refused"].startswith("hand 1: ") and "result" not in unplayed
    assert unplayed["refusal"] == {
        "code": "bid_not_higher",
        "params": {"player": "Cy", "bid": 2, "high_bidder": "Bob", "high_bid": 2},
    }


def test_after_the_winning_hand_the_phone_reads_no_hand():
    record = example_record(rules={"preset": "setback", "target": 1}, hands=[])
    won = {"pitcher": "Bob", "bid": 2, "points": TAKEN}

    answer = json.loads(project_form_json(json.dumps(record), json.dumps([won]), "{}", "misdeal"))

    assert answer["error"] == "hand 2: the game was won on hand 1; no hand can follow it"
    assert answer["refusal"] == {"code": "game_won_before", "params": {"number": 1}}
