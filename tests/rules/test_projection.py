"""The entry point the phone calls (pitchkeeper.rules.projection): the server's result
for a record with hands played on, refusals named by hand, JSON in and out."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pitchkeeper.rules import RuleError, RuleErrors, parse_game, projection, replay
from pitchkeeper.rules import record as record_module
from pitchkeeper.rules.projection import project, project_json, refusal_data
from pitchkeeper.rules.record import result_to_data
from tests.conftest import example_record

# What ``project`` adds to the engine's result_to_data: the sides in the hole, the
# settlement and the next hand's bidding order.
EXTRAS = frozenset({"in_hole", "payments", "order"})

GAMES = json.loads((Path(__file__).parent / "fixtures" / "finished_games.json").read_text())


@pytest.mark.parametrize("game", GAMES, ids=[game["id"] for game in GAMES])
def test_a_record_played_on_gives_the_result_of_the_whole(game):
    record = {key: value for key, value in game.items() if key != "result"}
    for split in range(len(record["hands"]) + 1):
        first = {**record, "hands": record["hands"][:split]}
        projected = project(first, record["hands"][split:])
        in_hole = projected.pop("in_hole")
        payments = projected.pop("payments")
        projected.pop("order")
        assert projected == game["result"]
        assert payments == [list(paid) for paid in parse_game(record).replay().payments()]
        assert in_hole == [side for side, score in game["result"]["scores"].items() if score < 0]


def test_in_hole_names_the_sides_below_zero():
    record = example_record(hands=[])
    set_back = {
        "pitcher": "Bob",
        "bid": 3,
        "points": {"high": "Cy", "low": "Cy", "jack": None, "game": "Cy"},
    }
    assert project(record, [set_back])["in_hole"] == ["Bob"]


def test_the_next_hands_bidding_order_starts_left_of_its_dealer():
    record = example_record(hands=[])
    players = record["players"]
    assert project(record, [])["order"] == [*players[1:], players[0]]
    assert project(record, [{"misdeal": True}])["order"] == [*players[2:], *players[:2]]


def test_a_refused_hand_is_named_by_its_number_after_the_records_own():
    record = example_record()
    bad = {"pitcher": "Zed", "bid": 2, "points": {}}
    with pytest.raises(RuleError) as refused:
        project(record, [{"misdeal": True}, bad])
    assert refused.value.hand == 6
    answer = json.loads(project_json(json.dumps(record), json.dumps([{"misdeal": True}, bad])))
    assert answer["error"] == str(refused.value)
    assert str(refused.value).startswith("hand 6: ")


def test_a_bad_record_is_refused_as_the_import_refuses_it():
    record = example_record(players=["Ann"])
    with pytest.raises(RuleError) as imported:
        parse_game(record)
    assert json.loads(project_json(json.dumps(record), "[]"))["error"] == str(imported.value)


def test_a_refusal_goes_to_the_phone_as_its_code_and_parameters():
    """For the phone to word it in the page's language: a refusal among the parameters
    as one too, a tuple as a list, and words without a code as they are."""
    inner = RuleError("not_a_player", {"name": "Zed"})
    error = RuleError("point_refused", {"point": "High", "error": inner})

    assert refusal_data(error) == {
        "code": "point_refused",
        "params": {"point": "High", "error": {"code": "not_a_player", "params": {"name": "Zed"}}},
    }
    assert refusal_data(RuleError("field_unknown", {"unknown": ("a", "b")}))["params"] == {
        "unknown": ["a", "b"]
    }
    assert refusal_data(RuleError("already in words")) == {"message": "already in words"}
    # Every missing part of a hand, for the phone to name them all at once.
    high, low = (RuleError("point_missing", {"point": point}) for point in ("High", "Low"))
    assert refusal_data(RuleErrors([high, low])) == {
        **refusal_data(high),
        "each": [refusal_data(high), refusal_data(low)],
    }


def test_json_in_and_out_gives_what_the_engine_gives():
    record = example_record()
    answer = json.loads(project_json(json.dumps(record), "[]"))
    assert {k: v for k, v in answer.items() if k not in EXTRAS} == result_to_data(
        parse_game(record).replay()
    )


@pytest.mark.parametrize("game", GAMES[:6], ids=[game["id"] for game in GAMES[:6]])
def test_a_record_that_grows_hand_by_hand_is_played_on_not_replayed(game, monkeypatch):
    record = {key: value for key, value in game.items() if key != "result"}
    project({**record, "hands": []}, [])
    # From here on every record begins with one replayed already.
    monkeypatch.setattr(projection, "parse_game_played", None)
    for count in range(1, len(record["hands"]) + 1):
        grown = project({**record, "hands": record["hands"][:count]}, [])
    grown.pop("in_hole")
    grown.pop("payments")
    grown.pop("order")
    assert grown == game["result"]


def test_a_record_seen_first_is_replayed_once(monkeypatch):
    """Checking the record is replaying it: the phone does not replay it again (in
    Brython a replay costs tens of ms a hand)."""
    replays = []

    def counted(*args):
        replays.append(args)
        return replay(*args)

    monkeypatch.setattr(record_module, "replay", counted)
    project(example_record(), [])
    assert len(replays) == 1


def test_a_record_that_changed_an_earlier_hand_is_replayed_whole():
    record = example_record()
    project(record, [])
    changed = json.loads(json.dumps(record))
    changed["hands"][0]["bid"] = 2
    changed["hands"].append({"misdeal": True})
    assert project(changed, []) == project(changed, [])
    expected = result_to_data(parse_game(changed).replay())
    assert {k: v for k, v in project(changed, []).items() if k not in EXTRAS} == expected


def test_a_hand_played_on_is_refused_as_the_whole_record_would_be():
    record = example_record()
    project(record, [])
    bad = {**record, "hands": [*record["hands"], {"pitcher": "Zed", "bid": 2, "points": {}}]}
    with pytest.raises(RuleError) as played_on:
        project(bad, [])
    with pytest.raises(RuleError) as whole:
        parse_game(bad)
    assert str(played_on.value) == str(whole.value)
