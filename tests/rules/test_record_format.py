"""The game-record format ``pitchkeeper.game/1``: parse_game, game_to_data, load_json.

The example game and the exported result are copied from issue 2 word for word.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from pitchkeeper.rules import (
    FORMAT,
    PRESETS,
    RuleError,
    game_to_data,
    load_json,
    parse_game,
    resolve_rules,
)

ISSUE_EXAMPLE = """
{
  "format": "pitchkeeper.game/1",
  "rules": "setback",
  "players": ["Ann", "Bob", "Cy", "Dee"],
  "first_dealer": "Ann",
  "hands": [
    {"pitcher": "Bob", "bid": 3, "points": {"high": "Bob", "low": "Cy", "jack": null, "game": "Bob"}},
    {"auction": [["Cy", null], ["Dee", 2], ["Ann", 3], ["Bob", 3]], "points": {"high": "Bob", "low": "Cy", "jack": "Ann", "game": "Dee"}, "revoked": ["Ann"]},
    {"misdeal": true},
    {"auction": [["Ann", null], ["Bob", null], ["Cy", null], ["Dee", null]]}
  ]
}
"""  # noqa: E501

# The issue's "result" of the example after its first hand.
ISSUE_RESULT = """
{
  "hands": [{"number": 1, "dealer": "Ann", "kind": "played", "pitcher": "Bob", "bid": 3, "made": false,
             "taken": {"Ann": 0, "Bob": 2, "Cy": 1, "Dee": 0},
             "delta": {"Ann": 0, "Bob": -3, "Cy": 1, "Dee": 0},
             "scores": {"Ann": 0, "Bob": -3, "Cy": 1, "Dee": 0}}],
  "scores": {"Ann": 0, "Bob": -3, "Cy": 1, "Dee": 0},
  "dealer": "Bob",
  "winner": null,
  "won_by": null,
  "settlement": null
}
"""  # noqa: E501


def example() -> dict:
    [data] = load_json(ISSUE_EXAMPLE)
    return data


def team_game() -> dict:
    return {
        "format": FORMAT,
        "rules": "partnership",
        "players": ["Ann", "Bob", "Cy", "Dee"],
        "teams": {"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]},
        "first_dealer": "Dee",
        "hands": [
            {
                "auction": [["Ann", 2], ["Bob", None], ["Cy", None], ["Dee", None]],
                "points": {"high": "Ann", "low": "us", "jack": "Them", "game": "Dee"},
            },
            {
                "pitcher": "Dee",
                "bid": 5,
                "points": {"high": "Bob", "low": "Bob", "jack": None, "game": "Ann"},
            },
        ],
    }


def export(data: dict, game_id: object = None) -> dict:
    record = parse_game(data)
    return game_to_data(record, record.replay(), game_id)


def roundtrip(exported: dict) -> dict:
    """Export written as JSON text, read back, parsed, replayed and exported again."""
    [again] = load_json(json.dumps(exported))
    return export(again, again.get("id"))


# --- The example of the issue ------------------------------------------------------------


def test_issue_example_first_hand_gives_exactly_the_issue_result():
    data = example()
    data["hands"] = data["hands"][:1]

    assert export(data)["result"] == json.loads(ISSUE_RESULT)


def test_issue_example_whole_game():
    result = export(example())["result"]

    zero = {"Ann": 0, "Bob": 0, "Cy": 0, "Dee": 0}
    after_two = {"Ann": -3, "Bob": -2, "Cy": 2, "Dee": 1}
    assert result["hands"][1:] == [
        {
            # Bob (dealer) steals Ann's 3 and takes only High; Ann revoked, so Bob
            # keeps his point and Ann is set back by the bid.
            "number": 2,
            "dealer": "Bob",
            "kind": "played",
            "pitcher": "Bob",
            "bid": 3,
            "made": False,
            "taken": {"Ann": 1, "Bob": 1, "Cy": 1, "Dee": 1},
            "delta": {"Ann": -3, "Bob": 1, "Cy": 1, "Dee": 1},
            "scores": after_two,
        },
        {
            "number": 3,
            "dealer": "Cy",
            "kind": "misdeal",
            "pitcher": None,
            "bid": None,
            "made": None,
            "taken": zero,
            "delta": zero,
            "scores": after_two,
        },
        {
            "number": 4,
            "dealer": "Dee",
            "kind": "redeal",
            "pitcher": None,
            "bid": None,
            "made": None,
            "taken": zero,
            "delta": zero,
            "scores": after_two,
        },
    ]
    assert result["scores"] == after_two
    assert result["dealer"] == "Dee"  # Cy misdealt; Dee redeals after the all-pass
    assert (result["winner"], result["won_by"], result["settlement"]) == (None, None, None)


def test_export_writes_the_record_id_resolved_rules_and_result():
    exported = export(example(), game_id=12)

    assert list(exported) == [
        "format",
        "id",
        "rules",
        "players",
        "first_dealer",
        "hands",
        "result",
    ]
    assert exported["format"] == "pitchkeeper.game/1"
    assert exported["id"] == 12
    assert exported["rules"] == PRESETS["setback"].to_dict()
    assert exported["rules"]["target"] == 7
    assert exported["rules"]["categories"][0] == {
        "key": "high",
        "label": "High",
        "value": 1,
        "kind": "one",
        "required": True,
        "max_count": None,
    }
    assert exported["players"] == ["Ann", "Bob", "Cy", "Dee"]
    assert exported["first_dealer"] == "Ann"
    assert exported["hands"] == example()["hands"]
    assert "teams" not in exported


def test_export_without_an_id_has_no_id():
    assert "id" not in export(example())


def test_export_then_import_gives_the_same_game():
    exported = export(example(), game_id=3)

    assert roundtrip(exported) == exported


def test_a_finished_game_round_trips_with_its_settlement():
    data = example()
    # Hand 5: Dee deals again; Cy smudges and takes all four, from 2 points: wins.
    data["hands"].append(
        {
            "auction": [["Ann", None], ["Bob", None], ["Cy", 4], ["Dee", None]],
            "points": {"high": "Cy", "low": "Cy", "jack": "Cy", "game": "Cy"},
            "dealer": "Dee",
        }
    )
    exported = export(data)

    assert exported["result"]["scores"] == {"Ann": -3, "Bob": -2, "Cy": 6, "Dee": 1}
    assert exported["result"]["winner"] == "Cy"
    assert exported["result"]["won_by"] == "smudge"
    assert exported["result"]["dealer"] is None
    # Ann and Bob are below zero: 2 chips each; Dee above: 1.
    assert exported["result"]["settlement"] == {"Ann": -2, "Bob": -2, "Cy": 5, "Dee": -1}
    assert exported["hands"][4]["dealer"] == "Dee"
    assert roundtrip(exported) == exported


# --- Rules as a name or an object --------------------------------------------------------


def test_rules_by_name():
    data = example()
    data["rules"] = "auction-pitch"
    data["hands"] = data["hands"][:1]

    assert parse_game(data).rules == PRESETS["auction-pitch"]


def test_rules_missing_means_setback():
    data = example()
    del data["rules"]

    assert parse_game(data).rules == PRESETS["setback"]


def test_rules_as_an_object_with_overrides():
    data = example()
    data["rules"] = {"preset": "setback", "target": 11, "chips_per_setback": 1}
    exported = export(data)

    assert exported["rules"]["preset"] == "setback"
    assert exported["rules"]["target"] == 11
    assert exported["rules"]["chips_per_setback"] == 1
    assert exported["rules"]["chips_plus"] == 1
    assert resolve_rules(exported["rules"]) == resolve_rules(data["rules"])
    assert roundtrip(exported) == exported


def test_overrides_change_the_result():
    data = example()
    data["rules"] = {"preset": "setback", "non_pitchers_score": False}
    result = export(data)["result"]

    # Hand 1: Bob fails; only he could score. Hand 2: Ann's revoke still costs her 3,
    # and Bob, excused, scores his 1.
    assert result["scores"] == {"Ann": -3, "Bob": -2, "Cy": 0, "Dee": 0}


# --- Names -------------------------------------------------------------------------------


def test_names_are_matched_without_case_and_kept_as_seated():
    data = example()
    data["first_dealer"] = "ANN"
    data["hands"][0]["pitcher"] = "bob"
    data["hands"][0]["points"]["low"] = " cy "
    data["hands"][1]["auction"][0][0] = "CY"
    result = export(data)["result"]

    assert result["hands"][0]["pitcher"] == "Bob"
    assert result["hands"][0]["dealer"] == "Ann"
    assert result["scores"] == {"Ann": -3, "Bob": -2, "Cy": 2, "Dee": 1}


# --- Team games --------------------------------------------------------------------------


def test_team_game_is_keyed_by_team():
    exported = export(team_game())
    result = exported["result"]

    assert exported["teams"] == {"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]}
    # Hand 1: Us (Ann) bid 2 and took High and Low ("us" names the team); Them took
    # Jack and Game. Hand 2: Them (Dee) smudged and took only High and Low: set back 5.
    assert result["hands"][0]["taken"] == {"Us": 2, "Them": 2}
    assert result["hands"][1]["delta"] == {"Us": 1, "Them": -5}
    assert result["scores"] == {"Us": 3, "Them": -3}
    assert result["dealer"] == "Bob"
    assert roundtrip(exported) == exported


def test_team_game_with_three_teams_of_two():
    data = {
        "format": FORMAT,
        "rules": "partnership",
        "players": ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"],
        "teams": {"N": ["Ann", "Dee"], "E": ["Bob", "Eve"], "S": ["Cy", "Fay"]},
        "first_dealer": "Fay",
        "hands": [
            {
                "pitcher": "Eve",
                "bid": 2,
                "points": {"high": "Bob", "low": "Eve", "jack": "Fay", "game": "Ann"},
            }
        ],
    }
    result = export(data)["result"]

    assert result["scores"] == {"N": 1, "E": 2, "S": 1}
    assert result["dealer"] == "Ann"


# --- load_json ---------------------------------------------------------------------------


def test_load_json_reads_one_game_or_a_list():
    one = load_json(ISSUE_EXAMPLE)
    many = load_json(json.dumps([example(), team_game()]))

    assert one == [example()]
    assert [game["rules"] for game in many] == ["setback", "partnership"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "{",
            "not valid JSON: Expecting property name enclosed in double quotes at line 1 column 2",
        ),
        ("", "not valid JSON: Expecting value at line 1 column 1"),
        ('{"a": }', "not valid JSON: Expecting value at line 1 column 7"),
        (
            '[{"format": "pitchkeeper.game/1"},\n',
            "not valid JSON: Expecting value at line 2 column 1",
        ),
    ],
)
def test_malformed_json(text, message):
    with pytest.raises(RuleError) as caught:
        load_json(text)

    assert str(caught.value) == message


def test_a_list_entry_that_is_not_a_game():
    [entry] = load_json("[7]")

    with pytest.raises(RuleError) as caught:
        parse_game(entry)
    assert str(caught.value) == "a game must be a JSON object"


# --- Bad records -------------------------------------------------------------------------


def set_in(path: tuple, value: object):
    """A change to the example: set the value at a path of keys and indexes."""

    def change(data: dict) -> None:
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


def drop(path: tuple):
    def change(data: dict) -> None:
        target = data
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]

    return change


def add_hand(hand: object):
    return lambda data: data["hands"].append(hand)


PARTNERS = {"rules": "partnership", "teams": {"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]}}
SMUDGE_WON = [
    {
        "pitcher": "Bob",
        "bid": 4,
        "points": {"high": "Bob", "low": "Bob", "jack": "Bob", "game": "Bob"},
    },
]

BAD_RECORDS = {
    # unknown names
    "unknown pitcher": (
        set_in(("hands", 0, "pitcher"), "Zed"),
        "hand 1: 'Zed' is not a player at this table",
    ),
    "unknown point taker": (
        set_in(("hands", 0, "points", "high"), "Zed"),
        "hand 1: High: 'Zed' is not a player at this table",
    ),
    "unknown bidder": (
        set_in(("hands", 1, "auction", 1, 0), "Zed"),
        "hand 2: 'Zed' is not a player at this table",
    ),
    "unknown revoker": (
        set_in(("hands", 1, "revoked"), ["Zed"]),
        "hand 2: 'Zed' is not a player at this table",
    ),
    "unknown first dealer": (
        set_in(("first_dealer",), "Zed"),
        "'Zed' is not a player at this table",
    ),
    "unknown preset": (
        set_in(("rules",), "bridge"),
        "unknown preset 'bridge'; known presets: setback, auction-pitch, partnership, "
        "pitch-with-bidding, blind-all-fours, ten-point, campbell-ten, campbell-eleven, "
        "razzle-dazzle, wahoo-ten, susqy-river, roadhouse, cell, seven-point, seventeen-point, "
        "maryland-jack, high-five, partnership-draw, nine-five, nine-five-hotshot, "
        "nine-five-connecticut, five-nine-connecticut, bonanza, contway-six, five-point-joker, "
        "six-point-joker, smear, partnership-21, plain-auction-pitch, chicago-pitch, three-pitch, "
        "off-three-pitch, all-fours",
    ),
    "unknown rule setting": (
        set_in(("rules",), {"preset": "setback", "trumps": "hearts"}),
        "unknown rule setting trumps",
    ),
    # bids
    "bid out of range": (
        set_in(("hands", 0, "bid"), 5),
        "hand 1: Bob bid 5; bids go from 2 to 4",
    ),
    "bid below range": (
        set_in(("hands", 0, "bid"), 1),
        "hand 1: Bob bid 1; bids go from 2 to 4",
    ),
    "auction bid out of range": (
        set_in(("hands", 1, "auction", 1, 1), 7),
        "hand 2: Dee bid 7; bids go from 2 to 4",
    ),
    # illegal auctions
    "bid not higher": (
        set_in(("hands", 0), {"auction": [["Bob", 3], ["Cy", 2], ["Dee", None], ["Ann", None]]}),
        "hand 1: Cy bid 2 but Bob already bid 3; each bid must be higher",
    ),
    "bid equal by a non-dealer": (
        set_in(("hands", 1, "auction"), [["Cy", None], ["Dee", 3], ["Ann", 3], ["Bob", None]]),
        "hand 2: Ann bid 3 but Dee already bid 3; each bid must be higher",
    ),
    "steal of a 4": (
        set_in(("hands", 1, "auction"), [["Cy", None], ["Dee", 4], ["Ann", None], ["Bob", 4]]),
        "hand 2: Bob cannot take Dee's 4: a bid of 4 cannot be taken away",
    ),
    "out of turn": (
        set_in(("hands", 1, "auction"), [["Dee", 2], ["Cy", None], ["Ann", 3], ["Bob", 3]]),
        "hand 2: Cy bids before Dee: the auction goes clockwise from Cy, left of the dealer, "
        "to Bob, the dealer",
    ),
    "player missing from the auction": (
        set_in(("hands", 1, "auction"), [["Cy", None], ["Dee", 2], ["Ann", 3]]),
        "hand 2: the auction must have each of the 4 players once, from Cy (left of the dealer) "
        "round to Bob, the dealer",
    ),
    "forced dealer passes": (
        lambda data: data.update(rules="auction-pitch"),
        "hand 4: everybody else passed, so Dee, the dealer, must bid at least 2",
    ),
    "auction disagrees with the pitcher": (
        set_in(("hands", 1, "pitcher"), "Ann"),
        "hand 2: the auction was won by Bob",
    ),
    "auction disagrees with the bid": (
        set_in(("hands", 1, "bid"), 2),
        "hand 2: the auction was won with 3",
    ),
    "neither pitcher nor auction": (
        drop(("hands", 0, "pitcher")),
        "hand 1: give the pitcher and the bid, or the whole auction",
    ),
    # categories
    "missing category": (
        drop(("hands", 0, "points", "game")),
        "hand 1: say who took Game (or nobody)",
    ),
    "missing required category": (
        drop(("hands", 0, "points", "high")),
        "hand 1: say who took High",
    ),
    "missing points": (
        drop(("hands", 1, "points")),
        "hand 2: say who took High",
    ),
    "unknown category": (
        set_in(("hands", 0, "points", "tens"), "Bob"),
        "hand 1: unknown point tens; this game scores high, low, jack, game",
    ),
    "nobody took Low": (
        set_in(("hands", 0, "points", "low"), None),
        "hand 1: Low always goes to somebody in a played hand",
    ),
    "points on an all-pass hand": (
        set_in(("hands", 3, "points"), {"high": "Ann"}),
        "hand 4: everybody passed, so nothing was played: no points or revokes",
    ),
    "points on a misdeal": (
        set_in(("hands", 2, "revoked"), ["Ann"]),
        "hand 3: a misdeal has no bids, points or revokes",
    ),
    # dealing
    "wrong dealer": (
        set_in(("hands", 2, "dealer"), "Dee"),
        "hand 3: Cy deals this hand by the rotation, not Dee",
    ),
    # hand after the win
    "hand after the win": (
        lambda data: data.update(hands=[*SMUDGE_WON, {"misdeal": True}]),
        "hand 2: the game was won on hand 1; no hand can follow it",
    ),
    # seating and teams
    "too few players": (
        set_in(("players",), ["Ann"]),
        "setback is played by 2 to 7 players, not 1",
    ),
    "too many players": (
        set_in(("players",), ["A", "B", "C", "D", "E", "F", "G", "H"]),
        "setback is played by 2 to 7 players, not 8",
    ),
    "player seated twice": (
        set_in(("players",), ["Ann", "Bob", "ann", "Dee"]),
        "Ann is seated twice; names must differ",
    ),
    "name too long": (
        set_in(("players",), ["Ann", "Bob", "C" * 41, "Dee"]),
        "each player is longer than 40 characters",
    ),
    "teams in a game each for himself": (
        set_in(("teams",), PARTNERS["teams"]),
        "setback is played each for himself, so there are no teams",
    ),
    "partnership without teams": (
        set_in(("rules",), "partnership"),
        "partnership is a partnership game: give the teams",
    ),
    "partners side by side": (
        lambda data: data.update(
            rules="partnership", teams={"Us": ["Ann", "Bob"], "Them": ["Cy", "Dee"]}
        ),
        "Us's players must sit opposite each other, every 2 seats, so that the teams "
        "alternate around the table",
    ),
    "unequal teams": (
        lambda data: data.update(
            rules="partnership", teams={"Us": ["Ann", "Bob", "Cy"], "Them": ["Dee"]}
        ),
        "teams must be of equal size, two or more players each",
    ),
    "player in no team": (
        lambda data: data.update(rules="partnership", teams={"Us": ["Ann", "Cy"], "Them": ["Bob"]}),
        "every player must be in exactly one team, with at least two teams",
    ),
    "team with a stranger": (
        lambda data: data.update(
            rules="partnership", teams={"Us": ["Ann", "Cy"], "Them": ["Bob", "Zed"]}
        ),
        "'Zed' is not a player at this table",
    ),
    "team named like a player": (
        lambda data: data.update(
            rules="partnership", teams={"Ann": ["Ann", "Cy"], "Them": ["Bob", "Dee"]}
        ),
        "a team cannot have the name of a player",
    ),
    # wrong types
    "format missing": (drop(("format",)), '"format" must be "pitchkeeper.game/1"'),
    "format wrong": (
        set_in(("format",), "pitchkeeper.game/2"),
        '"format" must be "pitchkeeper.game/1"',
    ),
    "unknown game field": (set_in(("colour",), "red"), "unknown field colour"),
    "rules a number": (
        set_in(("rules",), 7),
        "rules must be a preset name or an object of settings",
    ),
    "rule setting of the wrong type": (
        set_in(("rules",), {"preset": "setback", "target": "11"}),
        "target must be a whole number",
    ),
    "preset a list": (
        set_in(("rules",), {"preset": ["setback"]}),
        "unknown preset ['setback']; known presets: setback, auction-pitch, partnership, "
        "pitch-with-bidding, blind-all-fours, ten-point, campbell-ten, campbell-eleven, "
        "razzle-dazzle, wahoo-ten, susqy-river, roadhouse, cell, seven-point, seventeen-point, "
        "maryland-jack, high-five, partnership-draw, nine-five, nine-five-hotshot, "
        "nine-five-connecticut, five-nine-connecticut, bonanza, contway-six, five-point-joker, "
        "six-point-joker, smear, partnership-21, plain-auction-pitch, chicago-pitch, three-pitch, "
        "off-three-pitch, all-fours",
    ),
    "players not a list": (
        set_in(("players",), "Ann, Bob, Cy, Dee"),
        '"players" must be a list of names in clockwise seat order',
    ),
    "player not a name": (set_in(("players", 1), 7), "each player must be a non-empty name"),
    "player an empty name": (set_in(("players", 1), " "), "each player must be a non-empty name"),
    "teams not an object": (
        lambda data: data.update(rules="partnership", teams=[["Ann", "Cy"], ["Bob", "Dee"]]),
        '"teams" must map each team name to its players',
    ),
    "team members not a list": (
        lambda data: data.update(
            rules="partnership", teams={"Us": "Ann Cy", "Them": ["Bob", "Dee"]}
        ),
        "team Us must list its players",
    ),
    "first dealer not a name": (set_in(("first_dealer",), 1), "1 is not a player at this table"),
    "hands not a list": (set_in(("hands",), {"1": {"misdeal": True}}), '"hands" must be a list'),
    "hand not an object": (add_hand("misdeal"), "hand 5: a hand must be a JSON object"),
    "unknown hand field": (set_in(("hands", 0, "trump"), "hearts"), "hand 1: unknown field trump"),
    "bid as text": (set_in(("hands", 0, "bid"), "3"), 'hand 1: "bid" must be a whole number'),
    "bid true": (set_in(("hands", 0, "bid"), True), 'hand 1: "bid" must be a whole number'),
    "bid a fraction": (set_in(("hands", 0, "bid"), 2.5), 'hand 1: "bid" must be a whole number'),
    "pitcher not a name": (
        set_in(("hands", 0, "pitcher"), 2),
        'hand 1: "pitcher" must be a player\'s name',
    ),
    "dealer not a name": (
        set_in(("hands", 0, "dealer"), ["Ann"]),
        'hand 1: "dealer" must be a player\'s name',
    ),
    "misdeal not true or false": (
        set_in(("hands", 2, "misdeal"), "yes"),
        'hand 3: "misdeal" must be true or false',
    ),
    "all_tricks not true or false": (
        set_in(("hands", 0, "all_tricks"), 1),
        'hand 1: "all_tricks" must be true or false',
    ),
    "revoked not a list": (
        set_in(("hands", 1, "revoked"), "Ann"),
        'hand 2: "revoked" must be a list of names',
    ),
    "revoked not names": (
        set_in(("hands", 1, "revoked"), [1]),
        'hand 2: "revoked" must be a list of names',
    ),
    "points not an object": (
        set_in(("hands", 0, "points"), ["Bob", "Cy"]),
        'hand 1: "points" must map each category to who took it',
    ),
    "point taker not a name": (
        set_in(("hands", 0, "points", "game"), 3),
        "hand 1: Game: 3 is not a player at this table",
    ),
    "auction not a list": (
        set_in(("hands", 1, "auction"), "Cy passes"),
        'hand 2: "auction" must be a list of [player, bid] pairs, null for a pass',
    ),
    "auction entry not a pair": (
        set_in(("hands", 1, "auction", 0), ["Cy"]),
        'hand 2: "auction" must be a list of [player, bid] pairs, null for a pass',
    ),
    "auction pass as text": (
        set_in(("hands", 1, "auction", 0), ["Cy", "pass"]),
        'hand 2: "auction" must be a list of [player, bid] pairs, null for a pass',
    ),
    "auction bidder not a name": (
        set_in(("hands", 1, "auction", 0), [3, None]),
        'hand 2: "auction" must be a list of [player, bid] pairs, null for a pass',
    ),
}


@pytest.mark.parametrize(("change", "message"), BAD_RECORDS.values(), ids=BAD_RECORDS.keys())
def test_bad_records_are_refused_with_a_clear_message(change, message):
    data = example()
    change(data)

    with pytest.raises(RuleError) as caught:
        parse_game(data)
    assert str(caught.value) == message


def test_bad_record_errors_name_the_field():
    data = example()
    data["hands"][0]["points"]["jack"] = "Zed"

    with pytest.raises(RuleError) as caught:
        parse_game(data)
    assert (caught.value.hand, caught.value.field) == (1, "points.jack")


def test_bad_records_leave_the_input_untouched():
    data = example()
    data["hands"][0]["bid"] = 9
    before = copy.deepcopy(data)

    with pytest.raises(RuleError):
        parse_game(data)
    assert data == before


# --- The finished games of every preset ---------------------------------------------------

# One finished game of every preset, each with its preset's whole ruleset and the result
# the engine must give; the same games the preset tests work out by hand. Any engine
# that reads the format can check itself against this file.
FINISHED_GAMES = Path(__file__).parent / "fixtures" / "finished_games.json"


def finished_games() -> dict[str, dict]:
    return {game["id"]: game for game in load_json(FINISHED_GAMES.read_text(encoding="utf-8"))}


def test_every_preset_has_one_finished_game():
    games = load_json(FINISHED_GAMES.read_text(encoding="utf-8"))

    assert [game["id"] for game in games] == list(PRESETS)


@pytest.mark.parametrize("name", list(PRESETS))
def test_finished_game_of_each_preset(name):
    game = finished_games()[name]
    record = parse_game(game)
    result = record.replay()

    # The stored ruleset is the preset's today: a changed preset needs its game redone.
    assert record.rules == resolve_rules(name)
    assert result.finished
    assert game_to_data(record, result, name) == game
