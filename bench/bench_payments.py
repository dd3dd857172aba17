"""Benchmark: the plan that settles a ledger, on random ledgers of 15 to 32 balances.

Not a test (timings depend on the machine): run it by hand, from the repository root,

    .venv/bin/python bench/bench_payments.py [--ledgers 60]

For each number of balances and each kind of amounts (uniform in -w..w; normal with a
spread of 30; lopsided, a few players up to +200 against many down to -30; the last
balance making the sum zero), it times ``settle_up`` without the cache, and prints the
median, the 99th percentile and the slowest, how many plans were proven the fewest, and
how many payments they saved against the greedy settlement.
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

from pitchkeeper.rules.payments import _greedy, settle_up  # noqa: E402

KINDS: dict[str, Callable[[random.Random], int]] = {
    **{f"±{w}": lambda rng, w=w: rng.randint(-w, w) for w in (6, 20, 100, 1000)},
    "normal 30": lambda rng: round(rng.gauss(0, 30)),
    "lopsided": lambda rng: rng.randint(1, 200) if rng.random() < 0.25 else -rng.randint(1, 30),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ledgers", type=int, default=60, help="ledgers per row")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print("| balances | amounts   | median ms | p99 ms | slowest ms | fewest proven | saved |")
    print("| -------: | :-------- | --------: | -----: | ---------: | ------------: | ----: |")
    for size in (15, 20, 24, 28, 32):
        for kind, amount in KINDS.items():
            times, proven, saved = [], 0, 0
            for _ in range(args.ledgers):
                amounts = [amount(rng) or 1 for _ in range(size - 1)]
                balances = {i: a for i, a in enumerate([*amounts, -sum(amounts)])}
                started = time.perf_counter()
                plan = settle_up(balances)
                times.append((time.perf_counter() - started) * 1000)
                proven += plan.fewest
                saved += len(_greedy(balances, list(balances))) - len(plan.payments)
            times.sort()
            print(
                f"| {size:8} | {kind:<9} | {statistics.median(times):9.1f} "
                f"| {times[int(len(times) * 0.99)]:6.1f} | {times[-1]:10.1f} "
                f"| {proven:6}/{args.ledgers:<6} | {saved:5} |"
            )


if __name__ == "__main__":
    main()
