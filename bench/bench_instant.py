"""Tap to totals: how soon after the Save tap the game screen shows the new totals from
the phone's engine, online and with no network, with the CPU as it is and slowed four
times (Chromium's Emulation.setCPUThrottlingRate, a mid-range phone), and, online, the
server's own table. Run it with the test suite's fixtures (a live server, a signed-in
phone in headless Chromium):

    .venv/bin/python -m pytest bench/bench_instant.py -n0 -p no:cacheprovider -s \\
        -o python_files='bench_*.py' [--rounds 10]

Each round saves one hand in each case, in a fresh random order; a figure is the median
and the 90th percentile over the rounds, and the slowdown of the throttled cases is the
median of the per-round ratios. Every save is checked: the totals shown at the tap must
be the server's once it has the hand (offline: once the phone has sent it, the network
back), and the hand must be recorded, so what is timed is a real save. The game never
ends: each hand's leader bids 3, takes only High and is set back.
"""

from __future__ import annotations

import random
import statistics
from typing import Any

import pytest
from playwright.sync_api import expect

from pitchkeeper.games.models import Game
from pitchkeeper.games.replay import game_state
from tests.browser.test_game import shown_scores
from tests.browser.test_instant_totals import SETTLED, TIMES, WATCH_SWAPS, engine_ready, enter
from tests.browser.test_offline import open_kept, waiting, waiting_text

pytestmark = pytest.mark.browser

# Each case: the network there or not, and the CPU slowdown.
CASES = {
    "online, CPU as it is": (True, 1),
    "online, CPU 4x slower": (True, 4),
    "offline, CPU as it is": (False, 1),
    "offline, CPU 4x slower": (False, 4),
}
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
    # Kept by the service worker, as a phone has it after a first visit with the network.
    open_kept(page, game)
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
            online, rate = CASES[case]
            page.context.set_offline(not online)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
            before = game_state(game=Game.objects.get(pk=game.pk)).result
            enter(page, leader_is_set_back(before.scores))
            page.evaluate(SETTLED)
            page.evaluate("() => { PitchEngine.lastInstant = null; window.swappedAt = null; }")
            page.locator('button[name="action"][value="save"]').click()
            saved += 1
            page.wait_for_function("() => PitchEngine.lastInstant && PitchEngine.lastInstant.frame")
            if online:
                page.wait_for_function("() => window.swappedAt")
            measured = page.evaluate(TIMES)
            if not online:
                expect(waiting(page)).to_have_text(waiting_text(1))
                page.context.set_offline(False)
                expect(page.locator("#queue")).to_be_hidden()
            expect(page.locator("ol.history > li strong").first).to_have_text(f"#{saved}")
            server = game_state(game=Game.objects.get(pk=game.pk)).result
            assert len(server.hands) == saved and server.winner is None
            assert measured["scores"] == server.scores == shown_scores(page), case
            if number >= WARM_UP:
                tap = measured["tap"]
                times[case]["written"].append(measured["shown"] - tap)
                times[case]["drawn"].append(measured["frame"] - tap)
                if online:
                    times[case]["server"].append(measured["swapped"] - tap)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})

    print(f"\nTap to totals over {rounds} rounds (median / 90th percentile, ms):")
    for case, figures in times.items():
        line = ", ".join(
            f"{what} {statistics.median(values):.1f} / {p90(values):.1f}"
            for what, values in figures.items()
            if values
        )
        print(f"  {case}: {line}")
    for network in ("online", "offline"):
        slow = times[f"{network}, CPU 4x slower"]["drawn"]
        fast = times[f"{network}, CPU as it is"]["drawn"]
        ratios = [s / f for s, f in zip(slow, fast, strict=True) if f > 0]
        print(f"  {network}, throttled / as it is, to the frame: {statistics.median(ratios):.2f}")
