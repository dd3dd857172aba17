"""The conformance vectors (fixtures/engine_vectors.json, written by
``pytest tests/rules --write-vectors``, see conftest.py) are what the engine gives
today, and hold games from every engine test module they are written from.

The browser tests run the same file through the phone's engine; a vector that no longer
matches here is a change of the engine to read and, if meant, write again.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from pitchkeeper.rules import RuleError
from pitchkeeper.rules.projection import project
from tests.rules.conftest import SOURCES, VECTORS

ANSWER_KEYS = ("id", "result", "refused")
VECTORS_DATA: list[dict[str, Any]] = json.loads(VECTORS.read_text(encoding="utf-8"))


def game_of(vector: dict[str, Any]) -> dict[str, Any]:
    """The vector's game record, without what the engine is to answer."""
    return {key: value for key, value in vector.items() if key not in ANSWER_KEYS}


def expected_of(vector: dict[str, Any]) -> dict[str, Any]:
    """What the engine is to answer, as ``on_server`` below puts it."""
    if "refused" in vector:
        return {"refused": vector["refused"]}
    return vector["result"]


def on_server(game: dict[str, Any]) -> dict[str, Any]:
    try:
        data = project(game, [])
    except RuleError as error:
        return {"refused": str(error)}
    del data["in_hole"], data["payments"]
    return data


@pytest.mark.parametrize("vector", VECTORS_DATA, ids=[vector["id"] for vector in VECTORS_DATA])
def test_every_vector_is_what_the_engine_gives(vector):
    assert ("result" in vector) != ("refused" in vector)
    assert on_server(game_of(vector)) == expected_of(vector)


def test_the_vectors_hold_games_of_every_engine_test_module_once_each():
    ids = [vector["id"] for vector in VECTORS_DATA]
    sources = {name.rpartition("-")[0] for name in ids}
    games = {json.dumps(game_of(vector), sort_keys=True) for vector in VECTORS_DATA}

    assert sources == set(SOURCES)
    assert len(set(ids)) == len(ids)
    assert len(games) == len(VECTORS_DATA)
    # Refusals are vectors too: the phone must refuse in the server's words.
    assert any("refused" in vector for vector in VECTORS_DATA)
    assert any(vector["result"]["winner"] for vector in VECTORS_DATA if "result" in vector)
