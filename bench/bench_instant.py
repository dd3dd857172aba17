"""Tap to totals: how soon after the Save tap the game screen shows the new totals from
the phone's engine, and the server's own table, with the CPU as it is and slowed four
times (Chromium's Emulation.setCPUThrottlingRate, a mid-range phone). Run it with the
test suite's fixtures (a live server, a signed-in phone in headless Chromium):

    .venv/bin/python -m pytest bench/bench_instant.py -n0 -p no:cacheprovider -s \\
        -o python_files='bench_*.py' [--rounds 10]

Each round saves one hand in each case, in a fresh random order; a figure is the median
and the 90th percentile over the rounds, and the slowdown of the throttled case is the
median of the per-round ratios. Every save is checked: the totals shown at the tap must
be the server's once it has answered, and the hand must be recorded, so what is timed is
a real save. The game never ends: each hand's leader bids 3, takes only High and is set
back.
"""

from __future__ import annotations

import random
import statistics
from typing import Any

import pytest
from playwright.sync_api import expect

from pitchkeeper.games.models import Game
from pitchkeeper.games.replay import game_state
from tests.browser.test_game import open_game, shown_scores
from tests.browser.test_instant_totals import SETTLED, TIMES, WATCH_SWAPS, engine_ready, enter

pytestmark = pytest.mark.browser

CASES = {"CPU as it is": 1, "CPU 4x slower": 4}
WARM_UP = 2


def leader_is_set_back(scores: dict[str, int]) -> dict[str, Any]:
    """The hand a scorekeeper taps: the leader bids 3 and takes only High."""
    order = sorted(scores, key=lambda side: -scores[side])
    return {
        "pitcher": order[0],
        "bid": 3,
        "points": {"high": order[0], "low": order[1], "jack": order[2], "game": None},
    }


def p90(values: list[float]) -> float:
    return statistics.quantiles(values, n=10, method="inclusive")[-1]


def test_tap_to_totals(phone, make_game, request):
    rounds = request.config.getoption("--rounds")
    game = make_game("setback", ("Ann", "Bob", "Cy", "Dee")).game
    page = phone.new_page()
    page.set_default_timeout(30_000)
    open_game(page, game)
    engine_ready(page)
    page.evaluate(WATCH_SWAPS)
    cdp = page.context.new_cdp_session(page)
    times: dict[str, dict[str, list[float]]] = {
        case: {"written": [], "drawn": [], "server": []} for case in CASES
    }
    rng = random.Random(1)
    saved = 0
    for number in range(WARM_UP + rounds):
        order = list(CASES)
        rng.shuffle(order)
        for case in order:
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": CASES[case]})
            before = game_state(game=Game.objects.get(pk=game.pk)).result
            enter(page, leader_is_set_back(before.scores))
            page.evaluate(SETTLED)
            page.locator('button[name="action"][value="save"]').click()
            saved += 1
            expect(page.locator("ol.history > li strong").first).to_have_text(f"#{saved}")
            page.wait_for_function("() => PitchEngine.lastInstant && PitchEngine.lastInstant.frame")
            measured = page.evaluate(TIMES)
            server = game_state(game=Game.objects.get(pk=game.pk)).result
            assert len(server.hands) == saved and server.winner is None
            assert measured["scores"] == server.scores == shown_scores(page), case
            if number >= WARM_UP:
                tap = measured["tap"]
                times[case]["written"].append(measured["shown"] - tap)
                times[case]["drawn"].append(measured["frame"] - tap)
                times[case]["server"].append(measured["swapped"] - tap)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})

    print(f"\nTap to totals over {rounds} rounds (median / 90th percentile, ms):")
    for case, figures in times.items():
        line = ", ".join(
            f"{what} {statistics.median(values):.1f} / {p90(values):.1f}"
            for what, values in figures.items()
        )
        print(f"  {case}: {line}")
    slow, fast = times["CPU 4x slower"]["drawn"], times["CPU as it is"]["drawn"]
    ratios = [s / f for s, f in zip(slow, fast, strict=True) if f > 0]
    print(f"  throttled / as it is, to the frame drawing them: {statistics.median(ratios):.2f}")
