"""Timing cases interleaved, as the benchmarks run them.

Each round runs every case once, in a fresh random order; a case's figure is the median
over the rounds of its time divided by the bare view's time in the same round. The
machine's load (other work on a shared machine changes it from minute to minute) then
moves a case and the bare view alike, where timing the cases one after another would
let a ratio follow the load instead.
"""

from __future__ import annotations

import gzip
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

BARE = "bare view (a constant)"


@dataclass(frozen=True)
class Case:
    """One timed call; ``before`` and ``after`` run untimed around it (setting up a
    game, taking a submitted hand back) and may check what it did."""

    name: str
    run: Callable[[], Any]
    before: Callable[[], Any] | None = None
    after: Callable[[], Any] | None = None


@dataclass(frozen=True)
class Figure:
    median_ms: float
    ratio: float  # median over rounds of (this case / the bare view in that round)
    p90_ms: float = 0.0  # the 90th percentile of the time
    ratio_p90: float = 0.0  # the 90th percentile of those per-round ratios


def timed(
    cases: list[Case],
    *,
    rounds: int,
    warm_up: int,
    seed: int = 1,
    clock: Callable[[], float] = time.perf_counter,
    repeat: int = 1,
) -> dict[str, list[float]]:
    """Every case's time (s) in each round after the warm-up, the cases of a round run
    in a fresh random order. ``clock``: wall time, or CPU time (django_setup.cpu_time,
    the database server's too), which leaves out the time spent waiting for a core that
    other work holds. ``repeat``: a case runs this many
    times in a row in its turn (``before`` and ``after`` around each), and its round's
    time is their median, so that one pause of the machine or of Python's garbage
    collector moves a round's figure less."""
    rng = random.Random(seed)
    times: dict[str, list[float]] = {case.name: [] for case in cases}
    for number in range(warm_up + rounds):
        order = list(cases)
        rng.shuffle(order)
        for case in order:
            spent = []
            for _time in range(repeat):
                if case.before is not None:
                    case.before()
                start = clock()
                case.run()
                spent.append(clock() - start)
                if case.after is not None:
                    case.after()
            if number >= warm_up:
                times[case.name].append(statistics.median(spent))
    return times


def spread(values: list[float]) -> tuple[float, float, float]:
    """The median, the 90th percentile and the maximum."""
    p90 = (
        statistics.quantiles(values, n=10, method="inclusive")[-1] if len(values) > 1 else values[0]
    )
    return statistics.median(values), p90, max(values)


def interleaved(
    cases: list[Case],
    *,
    rounds: int,
    warm_up: int,
    seed: int = 1,
    clock: Callable[[], float] = time.perf_counter,
    repeat: int = 1,
) -> dict[str, Figure]:
    """Every case's median time and per-round ratio to the case named BARE (``timed``
    says what ``clock`` and ``repeat`` do)."""
    assert any(case.name == BARE for case in cases), "the bare view is the yardstick"
    times = timed(cases, rounds=rounds, warm_up=warm_up, seed=seed, clock=clock, repeat=repeat)
    bare = times[BARE]
    figures = {}
    for name, spent in times.items():
        ratios = [t / b for t, b in zip(spent, bare, strict=True)]
        figures[name] = Figure(
            statistics.median(spent) * 1000,
            statistics.median(ratios),
            spread(spent)[1] * 1000,
            spread(ratios)[1],
        )
    return figures


def queries(request: Callable[[], Any]) -> int:
    """The SQL queries one call makes."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        request()
    return len(captured)


def uncompressed(response: Any) -> bytes:
    """The page a response carries, as drawn: gzip undone where the app compressed it
    (the benchmarks' clients take compressed pages, as a browser does)."""
    if response.get("Content-Encoding") == "gzip":
        return gzip.decompress(response.content)
    return response.content


def checked(expected: int, response: Any) -> Any:
    """The response, once it has the status the case is about (else the run stops)."""
    if response.status_code != expected:
        raise SystemExit(
            f"expected {expected}, got {response.status_code}: {response.content[:300]!r}"
        )
    return response
