"""The conformance vectors (fixtures/engine_vectors.json, written by
``pytest tests/rules --write-vectors``, see conftest.py) are a corpus of games: every game
the engine's own tests replay, without what the engine answers. What each game must give
is asked of the server's engine when the check runs (``expected_of``), and the browser
tests compare the phone's engine with it game by game (tests/browser/test_engine.py): the
file cannot go stale against the engine, because it holds no answer to go stale.

The tests here keep the corpus worth running: every game one the format reads back as
written, games from every engine test module, and both kinds of answer among them.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from pitchkeeper.rules import RuleError, parse_game
from pitchkeeper.rules.projection import project
from pitchkeeper.rules.record import parse_hands
from tests.rules.conftest import SOURCES, VECTORS

VECTORS_DATA: list[dict[str, Any]] = json.loads(VECTORS.read_text(encoding="utf-8"))


def game_of(vector: dict[str, Any]) -> dict[str, Any]:
    """The vector's game record, without its id."""
    return {key: value for key, value in vector.items() if key != "id"}


def expected_of(vector: dict[str, Any]) -> dict[str, Any]:
    """What the server's engine answers for the vector's game: the projection the phone
    gives (without ``in_hole``, which the phone adds for its screen), or ``refused`` with
    the engine's message."""
    try:
        data = project(game_of(vector), [])
    except RuleError as error:
        return {"refused": str(error)}
    del data["in_hole"], data["payments"]
    return data


@pytest.mark.parametrize("vector", VECTORS_DATA, ids=[vector["id"] for vector in VECTORS_DATA])
def test_every_vector_is_a_game_the_format_reads_back_as_written(vector):
    """A refusal must come from the rules of play, not from a record the format cannot
    read: the header and every hand parse (the hands are replayed only by ``project``)."""
    game = game_of(vector)
    header = parse_game({**game, "hands": []})
    hands = parse_hands(game["hands"], header.rules)
    assert len(hands) == len(game["hands"])


def test_the_vectors_hold_games_of_every_engine_test_module_once_each():
    ids = [vector["id"] for vector in VECTORS_DATA]
    sources = {name.rpartition("-")[0] for name in ids}
    games = {json.dumps(game_of(vector), sort_keys=True) for vector in VECTORS_DATA}

    assert sources == set(SOURCES)
    assert len(set(ids)) == len(ids)
    assert len(games) == len(VECTORS_DATA)


def test_the_vectors_hold_games_scored_won_and_refused():
    """The phone must refuse in the server's words and win as the server does: the corpus
    holds refusals, games won and games in progress, each in numbers."""
    answers = [expected_of(vector) for vector in VECTORS_DATA]
    refused = [answer for answer in answers if "refused" in answer]
    won = [answer for answer in answers if answer.get("winner")]
    assert len(refused) >= 20
    assert len(won) >= 20
    assert len(answers) - len(refused) - len(won) >= 20
