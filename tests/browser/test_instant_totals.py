"""Instant totals: a Save shows the new totals from the phone's engine before the
server answers, and they are the server's own. A whole game of each preset group is
entered with taps; after every Save the totals the phone showed at the tap are compared
with the server's. The server's answers are held back a moment, so that "shown before
the server answered" is no race; how soon they show is measured by
bench/bench_instant.py, not here.

A refusal (another phone saved that hand first) rolls the screen back to the server's
truth, keeps the entry and says why.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from pitchkeeper.games.hands import hand_record
from pitchkeeper.games.models import Game
from pitchkeeper.games.replay import game_state
from pitchkeeper.rules import HandRecord, Seating, parse_game
from tests.browser.test_game import open_game, pick, pick_contract, shown_scores

pytestmark = pytest.mark.browser

FIXTURES = Path(__file__).resolve().parent.parent / "rules" / "fixtures"
GAMES = {game["id"]: game for game in json.loads((FIXTURES / "finished_games.json").read_text())}
# One finished game of each preset group (pitchkeeper.rules.GROUPS): misdeals, teams,
# a called partner, nine-five's smudges, counted points and an all-pass among them.
GROUP_GAMES = {
    "classic": "setback",
    "partnership": "partnership",
    "ten-point": "razzle-dazzle",
    "nine-five": "nine-five-connecticut",
    "other": "pitch-with-bidding",
}
# How long the server's answer to a Save is held back: longer than the engine ever takes
# to show totals it has already projected.
SERVER_DELAY_MS = 400
# The worker answers in order: once this answer is in, the hand the form shows has been
# projected, as it has when a thumb moves from the last point to Save (a few ms, where a
# thumb takes a few hundred).
SETTLED = """async () => {
  await PitchEngine.project(document.getElementById("game-record").textContent, []);
}"""
START_MS = 120_000

TIMES = """() => {
  const swapped = window.swappedAt;
  return { ...PitchEngine.lastInstant, swapped };
}"""
WATCH_SWAPS = """() => document.addEventListener("htmx:afterSwap", () => {
  window.swappedAt = performance.now();
})"""


def as_tapped(game: dict[str, Any]) -> dict[str, Any]:
    """The fixture game as a scorekeeper taps it in: each auction as its last bid (the
    pitcher and the bid on the grid), the first dealer in the first seat."""
    hands = []
    for raw in game["hands"]:
        hand = dict(raw)
        auction = hand.pop("auction", None)
        if auction is not None:
            bids = [(name, bid) for name, bid in auction if bid is not None]
            if not bids:
                hands.append({"auction": auction})
                continue
            hand["pitcher"], hand["bid"] = bids[-1]
        hands.append(hand)
    players = game["players"]
    first = players.index(game["first_dealer"])
    seats = players[first:] + players[:first]
    return {**game, "players": seats, "first_dealer": seats[0], "hands": hands}


def enter(page: Any, hand: dict[str, Any], seating: Seating | None = None) -> str:
    """Tap the hand in; the action its Save button is. A point a player took goes to
    their side (``seating``), as the table's form offers it."""

    def side(name: str | None) -> str | None:
        return seating.side_of(name) if seating and name in seating.players else name

    if hand.get("misdeal"):
        return "misdeal"
    if "auction" in hand:
        return "passed"
    pick_contract(page, hand["pitcher"], hand["bid"])
    if page.locator('input[name="partner"]').count():
        pick(page, "partner", hand.get("partner") or "alone")
    sides = page.locator(".scoreboard [data-side]").evaluate_all(
        "items => items.map(item => item.dataset.side)"
    )
    for key, went_to in hand["points"].items():
        if isinstance(went_to, dict):
            for taker, count in went_to.items():
                field = f"count_{key}_{sides.index(side(taker))}"
                page.locator(f'input[name="{field}"]').fill(str(count))
        else:
            pick(page, f"point_{key}", side(went_to))
    if hand.get("all_tricks"):
        page.locator('label[for="id_all_tricks"]').click()
    return "save"


def answer_late(page: Any) -> None:
    """Hold back the server's answer to every hand saved from ``page``."""

    def late(route: Any) -> None:
        if route.request.method == "POST":
            page.wait_for_timeout(SERVER_DELAY_MS)
        route.continue_()

    page.route("**/games/*/hands/", late)


def engine_ready(page: Any) -> None:
    page.wait_for_function(
        "() => window.PitchEngine && PitchEngine.startup !== null", timeout=START_MS
    )


@pytest.mark.parametrize("group", GROUP_GAMES)
def test_instant_totals_are_the_servers_on_a_whole_game(page, make_game, group):
    record = as_tapped(GAMES[GROUP_GAMES[group]])
    expected = parse_game({**record, "hands": []})
    game = make_game(record["rules"], tuple(record["players"]), record.get("teams")).game
    open_game(page, game)
    engine_ready(page)
    page.evaluate(WATCH_SWAPS)
    answer_late(page)
    for number, hand in enumerate(record["hands"], start=1):
        action = enter(page, hand, expected.seating)
        page.evaluate(SETTLED)
        page.evaluate("() => { PitchEngine.lastInstant = null; }")
        page.locator(f'button[name="action"][value="{action}"]').click()
        # The screen lists the latest hands only: the saved one is on top.
        expect(page.locator("ol.history > li strong").first).to_have_text(f"#{number}")
        server = game_state(game=Game.objects.get(pk=game.pk)).result
        assert shown_scores(page) == server.scores
        times = page.evaluate(TIMES)
        assert times["tap"] is not None and times["shown"] < times["swapped"], f"hand {number}"
        assert times["scores"] == server.scores, f"hand {number}"
    won = parse_game(record).replay()
    assert won.winner is not None and server.winner == won.winner
    assert expected.seating.players == tuple(record["players"])


def test_a_refused_save_rolls_back_to_the_servers_totals_and_keeps_the_entry(phone, make_game):
    game = make_game("setback", ("Ann", "Bob", "Cy")).game
    page = phone.new_page()
    open_game(page, game)
    engine_ready(page)
    # Meanwhile another phone records hand 1: Cy bids 2 and makes it.
    hand_record(
        game=game,
        record=HandRecord(
            pitcher="Cy", bid=2, points={"high": "Cy", "low": "Cy", "jack": None, "game": "Bob"}
        ),
    )
    enter(
        page,
        {
            "pitcher": "Bob",
            "bid": 4,
            "points": dict.fromkeys(("high", "low", "jack", "game"), "Bob"),
        },
    )
    page.evaluate(SETTLED)
    page.locator('button[name="action"][value="save"]').click()
    expect(page.locator(".messages")).to_contain_text("Hand 1 was saved from another phone")
    # The phone had shown Bob's smudge at once; the screen is the server's again.
    assert page.evaluate("() => PitchEngine.lastInstant.scores") == {"Ann": 0, "Bob": 4, "Cy": 0}
    assert shown_scores(page) == {"Ann": 0, "Bob": 1, "Cy": 2}
    expect(page.locator(".scoreboard [data-instant-pending]")).to_be_hidden()
    expect(page.locator('input[name="contract"][value="Bob:4"]')).to_be_checked()


def test_the_runtime_is_fetched_only_once_the_screen_is_shown(page, make_game):
    game = make_game("setback", ("Ann", "Bob", "Cy")).game
    open_game(page, game)
    engine_ready(page)
    timing = page.evaluate(
        """() => ({
          loaded: performance.getEntriesByType("navigation")[0].loadEventEnd,
          engine: performance.getEntriesByType("resource")
            .map((entry) => [new URL(entry.name).pathname, entry.startTime])
            .filter(([path]) => path.startsWith("/engine/") || path.endsWith("/js/engine.js"))
            .map(([_path, start]) => start),
        })"""
    )
    # engine.js, then the worker's script.
    assert len(timing["engine"]) == 2, timing
    assert min(timing["engine"]) > timing["loaded"] > 0
