"""Benchmark: a club night's tables against the best possible, for 4 to 32 players over 3
to 10 rounds, with partners and cutthroat.

Not a test (the times depend on the machine): run it by hand, from the repository root,

    .venv/bin/python bench/bench_schedules.py [--nights 5]

Each case (a format, a number of players, a number of rounds) is planned ``--nights``
times with different seeds, all cases in a new random order each time. For each case it
prints the repeated partners and the repeated opponents of the plans (median and worst:
a pair that meets n times counts n - 1), beside the lower bound any plan with the same
tables and sit-outs must reach (``fewest_repeats``), and the time to plan the night
(median and 90th percentile). Every planned round is checked as it would be before a
round starts (``seating_check``): nobody seated twice, every table within the format, the
sit-outs in turn.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pitchkeeper.rules.nights import (  # noqa: E402
    Format,
    Meetings,
    fewest_repeats,
    night_plan,
    seating_check,
)

FORMATS = {"partners": Format(True, 4, 4), "cutthroat": Format(False, 3, 7)}
PLAYERS = (4, 5, 6, 7, 8, 9, 10, 12, 13, 16, 20, 24, 32)
ROUNDS = (3, 5, 7, 10)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def checked(plan: tuple, names: list[str], form: Format) -> None:
    """Fails loudly unless the plan is one a night can play."""
    sat_out: Counter[str] = Counter()
    for r in plan:
        seating_check(r, names, form)
        assert sorted([*r.seated, *r.sitting_out]) == sorted(names)
        sat_out.update(r.sitting_out)
        assert max(sat_out[n] for n in names) - min(sat_out[n] for n in names) <= 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--nights", type=int, default=5, help="seeds per case")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    cases = [(kind, n, r) for kind in FORMATS for n in PLAYERS for r in ROUNDS]
    found: dict[tuple, list[tuple[int, int, int, int, float]]] = {c: [] for c in cases}
    for night in range(args.nights):
        rng.shuffle(cases)
        for kind, n, rounds in cases:
            form, names = FORMATS[kind], [f"P{i}" for i in range(n)]
            start = time.perf_counter()
            plan = night_plan(names, (), form, rounds=rounds, seed=args.seed * 1000 + night)
            took = time.perf_counter() - start
            checked(plan, names, form)
            meetings = Meetings.of(plan)
            least_p, least_o = fewest_repeats(plan, form)
            assert meetings.repeated_partners >= least_p
            assert meetings.repeated_opponents >= least_o
            found[(kind, n, rounds)].append(
                (meetings.repeated_partners, least_p, meetings.repeated_opponents, least_o, took)
            )
    print("format     players rounds | partners: median worst bound | opponents: median worst"
          " bound | ms median p90")  # fmt: skip
    for kind, n, rounds in sorted(found, key=lambda c: (c[0] != "partners", c[1], c[2])):
        rows = found[(kind, n, rounds)]
        partners = [row[0] for row in rows]
        opponents = [row[2] for row in rows]
        times = [row[4] * 1000 for row in rows]
        print(
            f"{kind:<10} {n:>7} {rounds:>6} | {statistics.median(partners):>15g} "
            f"{max(partners):>5} {min(r[1] for r in rows):>5} | "
            f"{statistics.median(opponents):>16g} {max(opponents):>5} {min(r[3] for r in rows):>5}"
            f" | {statistics.median(times):>9.0f} {percentile(times, 0.9):>4.0f}"
        )


if __name__ == "__main__":
    main()
