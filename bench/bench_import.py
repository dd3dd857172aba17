"""Benchmark: the import's pre-scan and parse of a file (``rules.record.load_document``,
which import_games and import_club read every file with), at 1, 10 and 100 MB, in time
and in memory, to show both grow in proportion to the file.

Not a test (timings depend on the machine): run it by hand, from the repository root,

    .venv/bin/python bench/bench_import.py [--sizes 1 10 100] [--rounds 3]

The files (made in memory, not written):

- **backup**: a club's backup as export_club writes it (indented), of games of 32
  hands with their history;
- **compact**: the same without a space, the densest a real file is;
- **escaped quotes**: a quote and then \\" over and over, never closed (the pre-scan
  once read from every quote to the end: 51 s at 64 KB); refused as broken JSON;
- **small objects**: nothing but {"a":0}, denser in objects than any record (5.6 GB
  of memory at 190 MB before); refused before it is parsed.

Each round runs every file once, in a fresh random order, each in a process of its own
(so that its peak memory is its own): the time of ``load_document``, and its peak
memory above what the process held with the text made, as a multiple of the file's
size. The median and the 90th percentile over the rounds are printed, with the time
per MB, which stays about the same from 1 to 100 MB when the time is linear.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FILES = ("backup", "compact", "escaped quotes", "small objects")


def hand(number: int) -> dict:
    if number % 4 == 3:
        return {"misdeal": True}
    if number % 2:
        return {
            "auction": [["Cy", None], ["Dee", 2], ["Ann", 3], ["Bob", 3]],
            "points": {"high": "Bob", "low": "Cy", "jack": "Ann", "game": "Dee"},
            "revoked": ["Ann"],
        }
    return {"pitcher": "Bob", "bid": 3, "points": {"high": "Bob", "low": "Cy", "game": "Bob"}}


def game() -> dict:
    hands = [hand(number) for number in range(32)]
    record = {"format": "pitchkeeper.game/1", "rules": "setback", "first_dealer": "Ann"}
    record |= {"players": ["Ann", "Bob", "Cy", "Dee"], "hands": hands}
    at = "2024-05-01T20:30:00+00:00"
    change = {"number": 1, "action": "edit", "before": hands[0], "after": hands[1]}
    return {
        "created": at,
        "chip_value": "0.25",
        "finished_at": None,
        "deleted_at": None,
        "counts": True,
        "share_token": "x" * 43,
        "record": record,
        "changes": [change | {"user": "sam", "at": at}] * 3,
    }


def text_of(kind: str, size: int) -> str:
    """A file of ``kind`` of about ``size`` characters."""
    if kind == "escaped quotes":
        return '"' + '\\"' * (size // 2)
    if kind == "small objects":
        item = '{"a":0}'
    else:
        spaces = {"indent": 2} if kind == "backup" else {"separators": (",", ":")}
        item = json.dumps(game(), **spaces)
    items = ",".join([item] * (size // (len(item) + 1)))
    return '{"format": "pitchkeeper.club/2", "name": "Club", "games": [' + items + "]}"


def child(kind: str, size: int) -> None:
    """One run, in this process: print the seconds and the peak bytes above the text."""
    sys.path.insert(0, str(ROOT))
    from pitchkeeper.rules import RuleError
    from pitchkeeper.rules.record import load_document

    text = text_of(kind, size)
    held = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.perf_counter()
    with contextlib.suppress(RuleError):
        load_document(text)
    spent = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"seconds": spent, "bytes": (peak - held) * 1024, "size": len(text)}))


def p90(values: list[float]) -> float:
    return max(values) if len(values) < 2 else statistics.quantiles(values, n=10)[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=float, nargs="+", default=[1, 10, 100], help="MB")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], int(args.child[1]))
        return
    rng = random.Random(args.seed)
    cases = [(kind, int(mb * 1_000_000)) for kind in FILES for mb in args.sizes]
    runs: dict[tuple[str, int], list[dict]] = {case: [] for case in cases}
    for _round in range(args.rounds):
        order = list(cases)
        rng.shuffle(order)
        for kind, size in order:
            command = [sys.executable, __file__, "--child", kind, str(size)]
            found = subprocess.run(command, check=True, capture_output=True, text=True)
            runs[kind, size].append(json.loads(found.stdout))
    print(f"{'file':<15} {'MB':>5} {'median s':>9} {'p90 s':>7} {'s/MB':>6}", end=" ")
    print(f"{'memory ×':>9} {'p90 ×':>6}")
    for (kind, _size), found in runs.items():
        seconds = [run["seconds"] for run in found]
        times = [run["bytes"] / run["size"] for run in found]
        mb = found[0]["size"] / 1e6
        print(
            f"{kind:<15} {mb:5.0f} {statistics.median(seconds):9.3f} {p90(seconds):7.3f} "
            f"{statistics.median(seconds) / mb:6.3f} {statistics.median(times):9.1f} "
            f"{p90(times):6.1f}"
        )


if __name__ == "__main__":
    main()
