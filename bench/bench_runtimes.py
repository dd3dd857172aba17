"""Brython against Pyodide for running pitchkeeper/rules on the phone (docs/offline.md).

Both run the same unmodified package in a dedicated Web Worker in headless Chromium
(/usr/bin/chromium), served from a loopback server with the worker's own CSP:

- Brython: the brython package from PyPI (the app's dependency) and the app's own
  bundle of the rules package (pitchkeeper.core.brython.bundle);
- Pyodide: the npm package ``pyodide``, fetched here with ``npm pack`` for this
  measurement only (the app never uses npm), the rules files written to its file system.

Measured: the bytes a phone downloads (brotli, as WhiteNoise sends static files), the
start-up time (new Worker to the engine imported) with the CPU as it is and slowed 4x
(Chromium's Emulation.setCPUThrottlingRate, a mid-range phone), the time to score a game
of 20 and of 200 hands (parse and replay, uncached), and whether each starts under a CSP
without its eval keyword. Each round starts both runtimes in a fresh random order; a
figure is the median over rounds, with the median of the per-round ratios Brython ÷
Pyodide. Every result is checked against the server's engine before it is timed.

    .venv/bin/python bench/bench_runtimes.py [--rounds 3] [--pyodide 0.27.8]
"""

from __future__ import annotations

import argparse
import http.server
import json
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import brotli

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pitchkeeper.core.brython import RUNTIME, bundle  # noqa: E402
from pitchkeeper.rules import HandRecord, Seating, replay, resolve_rules  # noqa: E402
from pitchkeeper.rules.record import hand_to_data, result_to_data  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
# As the phone scores a record it sees first: parsed, and checked by the one replay.
SCORE = """
import json
from pitchkeeper.rules.record import parse_game_played, result_to_data

def score(text):
    return json.dumps(result_to_data(parse_game_played(json.loads(text))[1]))
"""
BRYTHON_WORKER = """
importScripts("/brython.js", "/rules-bundle.js");
__BRYTHON__.brython_path = "/";
__BRYTHON__.runPythonSource(%s + "\\nfrom browser import self as worker\\nworker.score = score\\n",
  { id: "bench" });
postMessage({ ready: true });
onmessage = (event) => {
  const started = performance.now();
  const out = self.score(event.data);
  postMessage({ out, ms: performance.now() - started });
};
"""
PYODIDE_WORKER = """
importScripts("/pyodide/pyodide.js", "/rules-files.js");
loadPyodide({ indexURL: "/pyodide/" }).then((py) => {
  py.FS.mkdirTree("/home/pyodide/pitchkeeper/rules");
  py.FS.writeFile("/home/pyodide/pitchkeeper/__init__.py", "");
  for (const [name, text] of Object.entries(self.RULES_FILES)) {
    py.FS.writeFile("/home/pyodide/pitchkeeper/rules/" + name, text);
  }
  py.runPython("import sys\\nsys.path.insert(0, '/home/pyodide')\\n" + %s);
  const score = py.globals.get("score");
  postMessage({ ready: true });
  onmessage = (event) => {
    const started = performance.now();
    const out = score(event.data);
    postMessage({ out, ms: performance.now() - started });
  };
}, (error) => postMessage({ failed: String(error) }));
"""
# Starts a worker and times it to its first message; then scores each game ``times``.
START = """async ([script, games, times, patience]) => {
  const started = performance.now();
  const worker = new Worker(script);
  // A runtime refused by the CSP may swallow the error and never answer.
  const next = () => new Promise((resolve) => {
    const silent = setTimeout(() => resolve({ failed: "no answer" }), patience);
    worker.onmessage = (event) => { clearTimeout(silent); resolve(event.data); };
    worker.onerror = (event) => {
      event.preventDefault();
      clearTimeout(silent);
      resolve({ failed: event.message });
    };
  });
  const first = await next();
  const startup = performance.now() - started;
  if (!first.ready) { worker.terminate(); return { failed: first.failed || "no start" }; }
  const scored = [];
  for (const game of games) {
    const runs = [];
    let out = null;
    for (let i = 0; i < times; i++) {
      worker.postMessage(game);
      const answer = await next();
      runs.push(answer.ms);
      out = answer.out;
    }
    scored.push({ runs, out });
  }
  worker.terminate();
  return { startup, scored };
}"""
# A fixed loop of JavaScript in a worker: how much the throttling slows a worker, which
# Chromium throttles less than the page's own thread.
BUSY_WORKER = """onmessage = () => {
  const started = performance.now();
  let x = 0;
  for (let i = 0; i < 3e7; i++) {
    x += i % 7;
  }
  postMessage(performance.now() - started + x * 0);
};
"""
BUSY = """() => new Promise((resolve) => {
  const worker = new Worker("/busy-worker.js");
  worker.onmessage = (event) => { worker.terminate(); resolve(event.data); };
  worker.postMessage(0);
})"""
RUNTIMES = {"brython": "/brython-worker.js", "pyodide": "/pyodide-worker.js"}
NEEDS = {"brython": "'unsafe-eval'", "pyodide": "'wasm-unsafe-eval'"}


def long_game(hands: int) -> dict[str, Any]:
    """A setback game of ``hands`` hands nobody wins: the leader pitches 3, takes only
    High and is set back."""
    rules = resolve_rules("setback")
    seating = Seating(("Ann", "Bob", "Cy", "Dee"))
    records: list[HandRecord] = []
    for _hand in range(hands):
        scores = replay(rules, seating, "Ann", records).scores
        sides = sorted(scores, key=lambda side: -scores[side])
        points = {"high": sides[0], "low": sides[1], "jack": sides[2], "game": None}
        records.append(HandRecord(pitcher=sides[0], bid=3, points=points))
    return {
        "format": "pitchkeeper.game/1",
        "rules": "setback",
        "players": list(seating.players),
        "first_dealer": "Ann",
        "hands": [hand_to_data(record) for record in records],
    }


def site(folder: Path, pyodide: str) -> None:
    """The files both workers load, in ``folder``."""
    text, _digest = bundle()
    (folder / "rules-bundle.js").write_text(text)
    # The bundle carries its own unicodedata: Brython's unicode.txt is not needed.
    (folder / "brython.js").write_bytes((RUNTIME / "brython.js").read_bytes())
    subprocess.run(
        ["npm", "pack", f"pyodide@{pyodide}", "--silent"],
        cwd=folder,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    with tarfile.open(next(folder.glob("pyodide-*.tgz"))) as archive:
        archive.extractall(folder, filter="data")
    (folder / "package").rename(folder / "pyodide")
    rules = ROOT / "pitchkeeper" / "rules"
    files = {path.name: path.read_text() for path in sorted(rules.glob("*.py"))}
    (folder / "rules-files.js").write_text(f"self.RULES_FILES = {json.dumps(files)};\n")
    (folder / "brython-worker.js").write_text(BRYTHON_WORKER % json.dumps(SCORE))
    (folder / "pyodide-worker.js").write_text(PYODIDE_WORKER % json.dumps(SCORE))
    (folder / "busy-worker.js").write_text(BUSY_WORKER)
    (folder / "index.html").write_text("<!doctype html><title>bench</title>\n")


@contextmanager
def served(folder: Path) -> Iterator[tuple[str, set[str]]]:
    """A loopback server of ``folder``; each worker gets the CSP it needs (or, with
    ?strict, the page's own, without it); the set collects the paths requested."""
    requested: set[str] = set()

    class Handler(http.server.SimpleHTTPRequestHandler):
        extensions_map = {
            **http.server.SimpleHTTPRequestHandler.extensions_map,
            ".wasm": "application/wasm",
            ".js": "text/javascript",
            ".mjs": "text/javascript",
        }

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, directory=str(folder), **kwargs)

        def end_headers(self) -> None:
            path, _, query = self.path.partition("?")
            requested.add(path)
            policy = "default-src 'self'; script-src 'self'"
            for runtime, script in RUNTIMES.items():
                if path == script and query != "strict":
                    policy += f" {NEEDS[runtime]}"
            self.send_header("Content-Security-Policy", policy)
            self.send_header("Cache-Control", "max-age=3600")
            super().end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", requested
    finally:
        server.shutdown()


def compressed(folder: Path, paths: set[str], runtime: str) -> dict[str, int]:
    """Brotli bytes of each file the runtime's worker loaded."""
    mine = "/pyodide/" if runtime == "pyodide" else "/"
    other = "/pyodide/" if runtime == "brython" else None
    sizes = {}
    for path in sorted(paths):
        if not path.startswith(mine) or (other and path.startswith(other)):
            continue
        if path in ("/", "/index.html") or path.endswith("-worker.js"):
            continue
        if runtime == "pyodide" and path == "/rules-bundle.js":
            continue
        if runtime == "brython" and path == "/rules-files.js":
            continue
        file = folder / path.lstrip("/")
        if file.is_file():
            sizes[path] = len(brotli.compress(file.read_bytes()))
    return sizes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--pyodide", default="0.27.8", help="the npm package's version")
    parser.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args()
    from playwright.sync_api import sync_playwright

    sizes = {"20 hands": long_game(20), "200 hands": long_game(200)}
    texts = [json.dumps(game) for game in sizes.values()]
    expected = [
        result_to_data(
            replay(
                resolve_rules("setback"),
                Seating(tuple(g["players"])),
                "Ann",
                [HandRecord(**_hand(h)) for h in g["hands"]],
            )
        )
        for g in sizes.values()
    ]
    rng = random.Random(arguments.seed)
    with tempfile.TemporaryDirectory() as temp, sync_playwright() as playwright:
        folder = Path(temp)
        site(folder, arguments.pyodide)
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"], headless=True
        )
        with served(folder) as (base, requested):
            page = browser.new_page()
            page.set_default_timeout(600_000)
            page.goto(f"{base}/index.html")
            cdp = page.context.new_cdp_session(page)
            print("each runtime under a CSP without its eval keyword", file=sys.stderr, flush=True)
            strict = {
                runtime: page.evaluate(START, [f"{script}?strict", [], 0, 60_000]).get("failed")
                for runtime, script in RUNTIMES.items()
            }
            results: dict[tuple[str, int], list[dict[str, Any]]] = {}
            calibration: list[list[float]] = []
            for number in range(arguments.rounds + 1):
                cases = [(runtime, rate) for runtime in RUNTIMES for rate in (1, 4)]
                rng.shuffle(cases)
                calibration.append(
                    [
                        cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
                        or page.evaluate(BUSY)
                        for rate in (1, 4)
                    ]
                )
                cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
                for runtime, rate in cases:
                    print(f"round {number}: {runtime}, CPU {rate}x", file=sys.stderr, flush=True)
                    cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
                    run = page.evaluate(START, [RUNTIMES[runtime], texts, 5, 300_000])
                    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
                    if "failed" in run:
                        raise SystemExit(f"{runtime} failed: {run['failed']}")
                    for scored, want in zip(run["scored"], expected, strict=True):
                        if json.loads(scored["out"]) != want:
                            raise SystemExit(f"{runtime} scored a game differently")
                    # The first round fills the HTTP and code caches, as a phone's first visit.
                    if number:
                        results.setdefault((runtime, rate), []).append(run)
        weights = {runtime: compressed(folder, requested, runtime) for runtime in RUNTIMES}
        browser.close()
    report(results, weights, strict, list(sizes))
    slowed = statistics.median(slow / fast for fast, slow in calibration)
    print(
        f"the 4x setting slowed a worker's JavaScript {slowed:.1f}x (median of {len(calibration)})"
    )


def _hand(data: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in data.items() if key in ("pitcher", "bid", "points")}


def report(
    results: dict[tuple[str, int], list[dict[str, Any]]],
    weights: dict[str, dict[str, int]],
    strict: dict[str, str | None],
    games: list[str],
) -> None:
    def startup(runtime: str, rate: int) -> list[float]:
        return [run["startup"] for run in results[(runtime, rate)]]

    def scoring(runtime: str, rate: int, game: int) -> list[float]:
        return [statistics.median(run["scored"][game]["runs"]) for run in results[(runtime, rate)]]

    rows = [
        ("start-up, CPU as is", lambda r: startup(r, 1)),
        ("start-up, CPU 4x slower", lambda r: startup(r, 4)),
    ]
    for index, game in enumerate(games):
        rows.append((f"score {game}, CPU as is", lambda r, i=index: scoring(r, 1, i)))
        rows.append((f"score {game}, CPU 4x slower", lambda r, i=index: scoring(r, 4, i)))
    print("| measure | Brython ms | Pyodide ms | Brython ÷ Pyodide (median of rounds) |")
    print("| --- | ---: | ---: | ---: |")
    for name, values in rows:
        brython, pyodide = values("brython"), values("pyodide")
        ratio = statistics.median(b / p for b, p in zip(brython, pyodide, strict=True))
        print(
            f"| {name} | {statistics.median(brython):,.1f} | {statistics.median(pyodide):,.1f} "
            f"| {ratio:.2f} |"
        )
    for runtime, files in weights.items():
        total = sum(files.values())
        listed = ", ".join(f"{path.lstrip('/')} {size:,}" for path, size in files.items())
        print(f"{runtime}: {total:,} bytes brotli ({listed})")
    for runtime, failed in strict.items():
        verdict = f"refused ({failed})" if failed else "starts"
        print(f"{runtime} under a CSP without {NEEDS[runtime]}: {verdict}")


if __name__ == "__main__":
    main()
