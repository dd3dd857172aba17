"""The phone's engine start-up, cold (the first visit: everything fetched and compiled)
and warm (a later visit: the modules the first compiled, kept in IndexedDB under the
bundle's hash), from the worker's creation to its "ready"; and, beside it, the share
of Brython's own runtime: a worker that only evaluates ``brython.js``, which every
start does before the first line of Python. Run it under pytest with the test suite's
fixtures:

    .venv/bin/python -m pytest bench/bench_engine_start.py -n0 -p no:cacheprovider -s \\
        -o python_files='bench_*.py' [--rounds 5] [--renderer-prefix SCRIPT]

A CPU four times slower is the phone's renderer (the page and its engine's worker)
held to a quarter of one core, and nothing else: the test server and Chromium's other
processes run as they are. ``--renderer-prefix`` starts a Chromium of the bench's own
whose renderers are launched through SCRIPT (Chromium's ``--renderer-cmd-prefix``),
which moves itself into cgroups and runs the renderer (as root, cgroup v1):

    mkdir -p /sys/fs/cgroup/cpuset/one /sys/fs/cgroup/cpu/quarter /sys/fs/cgroup/cpu/whole
    cat /sys/fs/cgroup/cpuset/cpuset.mems > /sys/fs/cgroup/cpuset/one/cpuset.mems
    echo 1 > /sys/fs/cgroup/cpuset/one/cpuset.cpus
    echo 25000 > /sys/fs/cgroup/cpu/quarter/cpu.cfs_quota_us
    printf '#!/bin/sh\\necho $$ > /sys/fs/cgroup/cpuset/one/cgroup.procs\\n%s\\nexec "$@"\\n' \\
        'echo $$ > /sys/fs/cgroup/cpu/$CPU/cgroup.procs' > /tmp/renderer.sh
    chmod +x /tmp/renderer.sh
    CPU=whole .venv/bin/python -m pytest ... --renderer-prefix /tmp/renderer.sh    # 1x
    CPU=quarter .venv/bin/python -m pytest ... --renderer-prefix /tmp/renderer.sh  # 4x

Both runs pin the renderer to one core, so that "1x" is one core's worth and "4x" a
quarter of it. (Chromium's own CPU throttling slows a dedicated worker only about 1.5
times, docs/offline.md; a quota on all of Chromium and the server slows the start-up
about 9 times, not 4.) Each round is a new browser context (a phone that never opened
the app): one visit cold, then three warm, then the runtime alone; the figures are
medians over the rounds.
"""

from __future__ import annotations

import os
import statistics
from collections.abc import Iterator
from typing import Any

import pytest
from django.templatetags.static import static

from tests.browser.test_engine import LOAD_ENGINE, START_MS
from tests.conftest import CHROMIUM, CHROMIUM_ARGS

pytestmark = pytest.mark.browser

WARM_VISITS = 3

# The runtime alone: a worker (served by the bench, see ``RUNTIME_WORKER``) that
# evaluates brython.js and says how long it took.
RUNTIME_WORKER = "/bench-runtime-only.js"
RUNTIME_ONLY = """async (worker) => {
  const runtime = new Worker(worker);
  const took = await new Promise((resolve) => { runtime.onmessage = (e) => resolve(e.data); });
  runtime.terminate();
  return took;
}"""


@pytest.fixture
def started_browser(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """The suite's Chromium, or with ``--renderer-prefix`` another of its browser type
    (as a phone's restart is launched, tests/conftest.py) whose renderers run through
    that script."""
    prefix = request.config.getoption("--renderer-prefix")
    if not prefix:
        yield browser
        return
    chromium = browser.browser_type.launch(
        executable_path=str(CHROMIUM),
        args=[*CHROMIUM_ARGS, f"--renderer-cmd-prefix={prefix}"],
        headless=True,
    )
    yield chromium
    chromium.close()


def _runtime_only(route: Any) -> None:
    route.fulfill(
        content_type="text/javascript",
        body="const started = performance.now();"
        f'importScripts("{static("engine/brython.js")}");'
        "postMessage(performance.now() - started);",
    )


def _median(label: str, times: list[float]) -> str:
    each = ", ".join(f"{t:.0f}" for t in times)
    return f"  {label} {statistics.median(times):,.0f} (of {each})"


def test_engine_start(started_browser, live_server, request):
    rounds = request.config.getoption("--rounds")
    cold: list[float] = []
    warm: list[float] = []
    runtime: list[float] = []
    for _round in range(rounds):
        context = started_browser.new_context(base_url=live_server.url)
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
        page = context.new_page()
        page.route(f"**{RUNTIME_WORKER}", _runtime_only)
        page.goto("/accounts/login/")
        runtime.append(page.evaluate(RUNTIME_ONLY, RUNTIME_WORKER))
        context.close()
    load = os.getloadavg()[0]
    print(f"\nEngine start-up over {rounds} rounds, load average {load:.1f} (median, ms):")
    print(_median("cold", cold))
    print(_median("warm", warm))
    print(_median("brython.js alone", runtime))
