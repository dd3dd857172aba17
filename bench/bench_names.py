"""Benchmark: a name typed, checked against a roster of 200 (duplicates and look-alikes).

Not a test (timings depend on the machine): run it by hand, from the repository root,

    .venv/bin/python bench/bench_names.py [--rounds 200]

Each round runs every case once, in a fresh random order, and the median and the 90th
percentile of each are printed: the first check of a process (the table of look-alikes
built from confusable-homoglyphs' list), a check with the roster's looks not yet cached
(a cleared cache), and a check as a busy roster page makes it (the roster's looks cached).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pitchkeeper.clubs import names  # noqa: E402

LETTERS = "abcdefghijklmnopqrstuvwxyzåäöéëïüßаеиоуяжщλ"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    roster = [
        " ".join(
            "".join(rng.choice(LETTERS) for _ in range(rng.randint(2, 9))).title()
            for _ in range(rng.randint(1, 3))
        )
        for _ in range(200)
    ]

    def check() -> None:
        names.name_unlike("Zebedee Quist", roster, duplicate="duplicate", where="roster")

    def first() -> None:
        names._prototypes.cache_clear()
        names.name_looks.cache_clear()
        check()

    def cold() -> None:
        names.name_looks.cache_clear()
        check()

    cases: dict[str, Callable[[], None]] = {
        "first check of a process": first,
        "roster not cached": cold,
        "roster cached": check,
    }
    times: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(args.rounds):
        order = list(cases)
        rng.shuffle(order)
        for name in order:
            if name == "roster cached":
                check()  # as the request before it left the cache
            started = time.perf_counter()
            cases[name]()
            times[name].append((time.perf_counter() - started) * 1000)
    print("| case                     | median ms | p90 ms |")
    print("| :----------------------- | --------: | -----: |")
    for name, spent in times.items():
        spent.sort()
        print(
            f"| {name:<24} | {statistics.median(spent):9.2f} "
            f"| {spent[int(len(spent) * 0.9)]:6.2f} |"
        )


if __name__ == "__main__":
    main()
