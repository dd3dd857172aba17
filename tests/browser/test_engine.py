"""The rules engine on the phone (static/js/engine.js, Brython in a Web Worker) gives
exactly the server's results: every finished game of the fixtures, whole and played on
from its middle, every game of the conformance vectors (tests/rules/fixtures/
engine_vectors.json: the games the engine's tests replay, each scored by the server's
engine as the test runs), and the engine's refusals word for word.

The runtime starts once for the module (a few seconds); each game is then one message,
and the vectors go to the page in one call.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pitchkeeper.core import brython
from pitchkeeper.rules import RuleError
from pitchkeeper.rules.projection import project
from tests.conftest import CSP_WATCH, PHONE
from tests.rules.test_projection import EXTRAS
from tests.rules.test_vectors import VECTORS_DATA, expected_of, game_of

pytestmark = pytest.mark.browser

FIXTURES = Path(__file__).resolve().parent.parent / "rules" / "fixtures"
GAMES = json.loads((FIXTURES / "finished_games.json").read_text())
# Brython compiles the engine's modules on start; a slow shared machine takes seconds.
START_MS = 120_000

LOAD_ENGINE = """async (worker) => {
  const script = document.createElement("script");
  script.src = "/static/js/engine.js";
  script.dataset.worker = worker;
  const loaded = new Promise((resolve, reject) => {
    script.onload = resolve;
    script.onerror = reject;
  });
  document.head.append(script);
  await loaded;
  await PitchEngine.ready();
  return PitchEngine.startup;
}"""

PROJECT = """async ([record, extra]) => {
  try {
    return await PitchEngine.project(record, extra);
  } catch (error) {
    return { refused: error.message };
  }
}"""

# Each game on its own, in order, as the page asks: a refusal is the engine's message.
PROJECT_EACH = """async (games) => {
  const answers = [];
  for (const game of games) {
    try {
      answers.push(await PitchEngine.project(game, []));
    } catch (error) {
      answers.push({ refused: error.message });
    }
  }
  return answers;
}"""


@pytest.fixture(scope="module")
def engine(browser, live_server):
    """A page with the engine started, watched for any console error."""
    context = browser.new_context(viewport=PHONE, base_url=live_server.url)
    page = context.new_page()
    page.set_default_timeout(START_MS)
    problems: list[str] = []
    page.add_init_script(CSP_WATCH)
    page.on("pageerror", lambda error: problems.append(f"JavaScript error: {error}"))
    page.on(
        "console",
        lambda message: problems.append(message.text) if message.type == "error" else None,
    )
    page.goto("/accounts/login/")
    page.evaluate(LOAD_ENGINE, "/engine/worker.js")
    yield page
    context.close()
    assert not problems, "\n".join(problems)


def in_browser(page: Any, record: dict[str, Any], extra: list[Any]) -> dict[str, Any]:
    return page.evaluate(PROJECT, [record, extra])


def on_server(record: dict[str, Any], extra: list[Any]) -> dict[str, Any]:
    try:
        return project(record, extra)
    except RuleError as error:
        return {"refused": str(error)}


def without_result(game: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in game.items() if key != "result"}


@pytest.mark.parametrize("game", GAMES, ids=[game["id"] for game in GAMES])
def test_every_finished_game_as_the_server_scores_it(engine, game):
    record = without_result(game)
    phone = in_browser(engine, record, [])
    assert phone == on_server(record, [])
    assert {key: value for key, value in phone.items() if key not in EXTRAS} == game["result"]
    # Played on from the middle, as a Save and the offline queue do.
    middle = len(record["hands"]) // 2
    first = {**record, "hands": record["hands"][:middle]}
    assert in_browser(engine, first, record["hands"][middle:]) == phone


def test_a_hand_the_rules_refuse_is_refused_in_the_same_words(engine):
    game = GAMES[0]
    record = {**without_result(game), "hands": []}
    bad = [{"pitcher": "Nobody", "bid": 2, "points": {}}, {"misdeal": "yes"}]
    for hand in bad:
        phone = in_browser(engine, record, [hand])
        assert "refused" in phone
        assert phone == on_server(record, [hand])
    # A hand after the game is won.
    extra = [{"misdeal": True}]
    assert in_browser(engine, without_result(game), extra) == on_server(without_result(game), extra)


def test_every_engine_vector_as_the_server_scores_it(engine):
    answers = engine.evaluate(PROJECT_EACH, [game_of(vector) for vector in VECTORS_DATA])
    server = [expected_of(vector) for vector in VECTORS_DATA]

    assert len(answers) == len(VECTORS_DATA)
    differ = [
        f"{vector['id']}: phone {answer!r}, server {expected!r}"
        for vector, answer, expected in zip(VECTORS_DATA, answers, server, strict=True)
        # expected_of keeps the next hand's order: the phone's must be the same.
        if {key: value for key, value in answer.items() if key not in {"in_hole", "payments"}}
        != expected
    ]
    assert not differ, "\n".join(differ)
    # Both kinds are in the run: games scored and games refused.
    assert {"refused" in answer for answer in answers} == {True, False}


def started(context: Any) -> Any:
    """A new page of ``context`` with the engine started (a visit)."""
    page = context.new_page()
    page.set_default_timeout(START_MS)
    page.goto("/accounts/login/")
    page.evaluate(LOAD_ENGINE, "/engine/worker.js")
    return page


def test_the_engine_is_compiled_once_and_afresh_when_the_rules_change(
    browser, live_server, monkeypatch
):
    # With the service worker, as a phone has it: what it keeps must not bring back the
    # old rules either (it once kept the worker, which names them, from its cache first).
    context = browser.new_context(viewport=PHONE, base_url=live_server.url)
    record = without_result(GAMES[0])
    try:
        first = started(context)
        assert first.evaluate("PitchEngine.warm") is False
        first.wait_for_function("() => PitchEngine.kept")
        answer = in_browser(first, record, [])
        assert answer == on_server(record, [])
        # Each visit leaves before the next, as a phone's tab goes from page to page: a
        # page left open keeps its engine running beside the next one's.
        first.close()
        # A second visit runs the modules the first compiled: the same answer.
        again = started(context)
        assert again.evaluate("PitchEngine.warm") is True
        assert in_browser(again, record, []) == answer
        again.close()

        # A rules module changes (as a new version of the app brings): the phone runs
        # the new code, compiled afresh, not what it kept of the old.
        real = brython.code_only
        changed = "data['changed'] = 'afresh'\n    data['in_hole'] ="
        monkeypatch.setattr(
            brython, "code_only", lambda source: real(source).replace("data['in_hole'] =", changed)
        )
        brython.bundle.cache_clear()
        brython.bundle_brotli.cache_clear()
        assert "changed" in brython.bundle()[0]
        after = started(context)
        assert after.evaluate("PitchEngine.warm") is False
        after.wait_for_function("() => PitchEngine.kept")
        assert in_browser(after, record, []) == {**answer, "changed": "afresh"}
        after.close()
        assert started(context).evaluate("PitchEngine.warm") is True
    finally:
        monkeypatch.undo()
        brython.bundle.cache_clear()
        brython.bundle_brotli.cache_clear()
        context.close()
