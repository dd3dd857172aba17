"""The phone's engine start-up, cold (the first visit: everything fetched and compiled)
and warm (a later visit: the modules the first compiled, kept in IndexedDB under the
bundle's hash), from the worker's creation to its "ready". Run it under pytest with the
test suite's fixtures:

    .venv/bin/python -m pytest bench/bench_engine_start.py -n0 -p no:cacheprovider -s \\
        -o python_files='bench_*.py' [--rounds 5]

For a CPU four times slower, run the same command in a cgroup whose CPU quota is a
quarter of one core (as root, cgroup v1; with v2 write "25000 100000" to cpu.max):

    mkdir /sys/fs/cgroup/cpu/slow && echo 25000 > /sys/fs/cgroup/cpu/slow/cpu.cfs_quota_us
    sh -c 'echo $$ > /sys/fs/cgroup/cpu/slow/cgroup.procs && exec .venv/bin/python -m pytest ...'

Chromium's own CPU throttling slows a dedicated worker only about 1.5 times
(docs/offline.md), so it is not used here. Each round is a new browser context (a
phone that never opened the app): one visit cold, then three warm; the figure is the
median over the rounds.
"""

from __future__ import annotations

import os
import statistics

import pytest

from tests.browser.test_engine import LOAD_ENGINE, START_MS

pytestmark = pytest.mark.browser

WARM_VISITS = 3


def test_engine_start(browser, live_server, request):
    rounds = request.config.getoption("--rounds")
    cold: list[float] = []
    warm: list[float] = []
    for _round in range(rounds):
        context = browser.new_context(base_url=live_server.url)
        for visit in range(1 + WARM_VISITS):
            page = context.new_page()
            page.set_default_timeout(START_MS)
            page.goto("/accounts/login/")
            startup = page.evaluate(LOAD_ENGINE, "/engine/worker.js")
            assert page.evaluate("PitchEngine.warm") is (visit > 0)
            (warm if visit else cold).append(startup)
            if not visit:
                page.wait_for_function("() => PitchEngine.kept")
            page.close()
        context.close()
    load = os.getloadavg()[0]
    print(f"\nEngine start-up over {rounds} rounds, load average {load:.1f} (median, ms):")
    print(f"  cold {statistics.median(cold):,.0f} (of {', '.join(f'{t:.0f}' for t in cold)})")
    print(f"  warm {statistics.median(warm):,.0f} (of {', '.join(f'{t:.0f}' for t in warm)})")
