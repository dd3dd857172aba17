"""Writes the engine's conformance vectors: ``pytest tests/rules --write-vectors``.

Every game the engine tests replay (``replay`` and ``GameRecord.replay``) is kept: the
game only, not what the engine gave, so that the file is a corpus of games and never a
snapshot of answers. At the end of the run they are written, deduplicated and in a fixed
order, to ``fixtures/engine_vectors.json``; the browser tests run each through the
phone's engine and the server's at the same time and fail on any difference
(``tests/browser/test_engine.py``), and ``test_vectors.py`` checks the corpus itself.

Only games that read back from the format unchanged are kept (a test may hand the
engine a hand the format's parser refuses first, in other words), and none from
Hypothesis: its games change with every run, and the properties are tested there.
Run it over all of tests/rules, after a change of the engine that the vectors' test
reports, and read the diff of the file before committing it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

import pitchkeeper.rules
import pitchkeeper.rules.engine
import pitchkeeper.rules.record
from pitchkeeper.rules import PRESETS, RuleError, parse_game, replay, resolve_rules
from pitchkeeper.rules.engine import GameResult, HandRecord
from pitchkeeper.rules.record import GameRecord, game_to_data, parse_hands
from pitchkeeper.rules.ruleset import Ruleset
from pitchkeeper.rules.seating import Seating

VECTORS = Path(__file__).parent / "fixtures" / "engine_vectors.json"
# The test modules whose games are written, in the file's order.
SOURCES = (
    "test_engine",
    "test_variants",
    "test_seed_readings",
    "test_presets",
    "test_record_format",
)
# Where the tests find ``replay``: each name is swapped for the recording one.
REPLAY_HOMES = (pitchkeeper.rules, pitchkeeper.rules.engine, pitchkeeper.rules.record)

_found: dict[str, list[dict[str, Any]]] = {source: [] for source in SOURCES}


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--write-vectors",
        action="store_true",
        help=f"write the games the engine tests replay to {VECTORS.name}",
    )


def rules_data(rules: Ruleset) -> str | dict[str, Any]:
    """The ruleset as its preset's name, or the preset and the settings that differ:
    the full ruleset of every vector would make the file ten times larger."""
    base = PRESETS.get(rules.preset)
    if base is None:
        return rules.to_dict()
    full, preset = rules.to_dict(), base.to_dict()
    changed = {key: value for key, value in full.items() if value != preset[key]}
    short: str | dict[str, Any] = {"preset": rules.preset, **changed} if changed else rules.preset
    return short if resolve_rules(short) == rules else full


def vector(
    rules: Ruleset, seating: Seating, first_dealer: str, hands: Sequence[HandRecord]
) -> dict[str, Any] | None:
    """The game as the format writes it; None when the format does not read it back as
    it is."""
    record = GameRecord(rules, seating, first_dealer, tuple(hands))
    data = game_to_data(record)
    data["rules"] = rules_data(rules)
    # parse_game would replay the hands too, and a refusal is a vector: the hands are
    # read apart from the rest.
    try:
        header = parse_game({**data, "hands": []})
        if (header.rules, header.seating, header.first_dealer) != (
            rules,
            seating,
            first_dealer,
        ) or parse_hands(data["hands"], rules) != record.hands:
            return None
    except RuleError:
        return None
    return data


@pytest.fixture(autouse=True)
def _record_replays(request: pytest.FixtureRequest) -> Iterator[None]:
    source = request.module.__name__.rpartition(".")[2]
    hypothesis = getattr(request.function, "is_hypothesis_test", False)
    if not request.config.getoption("--write-vectors") or source not in SOURCES or hypothesis:
        yield
        return

    def recording(
        rules: Ruleset, seating: Seating, first_dealer: str, hands: Sequence[HandRecord]
    ) -> GameResult:
        # parse_game replays too: the game the vector checks is not one more vector.
        patch.undo()
        found = vector(rules, seating, first_dealer, hands)
        if found is not None:
            _found[source].append(found)
        swap()
        return replay(rules, seating, first_dealer, hands)

    patch = pytest.MonkeyPatch()
    homes = [
        home for home in (*REPLAY_HOMES, request.module) if getattr(home, "replay", None) is replay
    ]

    def swap() -> None:
        for home in homes:
            patch.setattr(home, "replay", recording)

    swap()
    yield
    patch.undo()


def pytest_sessionfinish(session: pytest.Session) -> None:
    if not session.config.getoption("--write-vectors") or session.exitstatus != 0:
        return
    if not all(_found.values()):
        return  # a run of some of the tests only: the file keeps every module's
    seen: set[str] = set()
    vectors: list[dict[str, Any]] = []
    for source in SOURCES:
        count = 0
        for data in _found[source]:
            key = json.dumps(data, sort_keys=True)
            if key in seen:
                continue
            seen.add(key)
            count += 1
            vectors.append({"id": f"{source}-{count}", **data})
    # One vector a line: a change of the engine shows as the lines of the games it changes.
    lines = ",\n".join(json.dumps(data, ensure_ascii=False) for data in vectors)
    VECTORS.write_text(f"[\n{lines}\n]\n", encoding="utf-8")
