"""Benchmark: the game screen and a hand submit for a game of 30 hands, against a bare
Django view that returns a constant; and the bytes each screen transfers.

Not a test (timings depend on the machine): run it by hand, from the repository root,

    .venv/bin/python bench/bench_game.py [--runs 200]

Django runs in-process with DEBUG off on a fresh SQLite database in a temporary folder;
requests go through the whole middleware stack with Django's test client. Each figure is
the median of --runs timed requests after a warm-up; ratios are against the bare view.
A submitted hand is deleted again (untimed) so that every submit meets 30 hands.
"""

from __future__ import annotations

import argparse
import gzip
import os
import platform
import re
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path, PurePosixPath
from typing import Any

import django_setup

HANDS = 30
WARM_UP = 20
ALREADY_COMPRESSED = {".png", ".jpg", ".jpeg", ".webp", ".gif", ".woff", ".woff2"}
ASSET = re.compile(r"""<(?:link|script)\b[^>]*?\b(?:href|src)="(/static/[^"]+)\"""")


def configure(database: Path) -> None:
    """Django on a throwaway database, migrated."""
    django_setup.configure(database)
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def next_hand(scores: dict[str, int]) -> Any:
    """A hand that keeps the game going: the leader pitches 3, takes only High and is
    set back; the next two take Low and Jack; Game is tied."""
    from pitchkeeper.rules import HandRecord

    sides = sorted(scores, key=lambda side: -scores[side])
    return HandRecord(
        pitcher=sides[0],
        bid=3,
        points={"high": sides[0], "low": sides[1], "jack": sides[2], "game": None},
    )


def build_games(club: Any) -> tuple[Any, Any]:
    """A setback game of 30 hands still in progress, and a finished one."""
    from pitchkeeper.clubs.players import player_add, roster
    from pitchkeeper.games.hands import hand_record
    from pitchkeeper.games.services import game_create
    from pitchkeeper.rules import HandRecord, resolve_rules

    players = roster(["Ann", "Bob", "Cy", "Dee"], club=club)
    for name in ("Eve", "Fay"):
        player_add(club=club, name=name)
    table = [players[name] for name in ("Ann", "Bob", "Cy", "Dee")]
    state = game_create(players=table, first_dealer=table[0], rules=resolve_rules("setback"))
    for _hand in range(HANDS):
        state = hand_record(game=state.game, record=next_hand(state.result.scores))
    assert state.result.winner is None and len(state.hands) == HANDS

    over = game_create(players=table[:3], first_dealer=table[0], rules=resolve_rules("setback"))
    smudge = {"high": "Bob", "low": "Bob", "jack": "Bob", "game": "Bob"}
    over = hand_record(game=over.game, record=HandRecord(pitcher="Bob", bid=4, points=smudge))
    assert over.result.winner == "Bob"
    return state, over


def hand_post(record: Any) -> dict[str, str]:
    data = {"pitcher": record.pitcher, "bid": str(record.bid), "action": "save"}
    for key, side in record.points.items():
        data[f"point_{key}"] = side or "nobody"
    return data


def median_ms(run: Callable[[], Any], runs: int, after: Callable[[], Any] | None = None) -> float:
    """The median time of ``run`` in milliseconds; ``after`` (untimed) undoes it."""
    times = []
    for attempt in range(WARM_UP + runs):
        start = time.perf_counter()
        run()
        elapsed = time.perf_counter() - start
        if after is not None:
            after()
        if attempt >= WARM_UP:
            times.append(elapsed)
    return statistics.median(times) * 1000


def checked(expected: int, response: Any) -> Any:
    assert response.status_code == expected, (response.status_code, response.content[:300])
    return response


def queries(request: Callable[[], Any]) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        request()
    return len(captured)


def compressed(data: bytes, name: str) -> int:
    if PurePosixPath(name).suffix.lower() in ALREADY_COMPRESSED:
        return len(data)
    return len(gzip.compress(data, compresslevel=9, mtime=0))


def page_bytes(html: bytes) -> tuple[int, int, int, int]:
    """HTML raw and gzip, then with every static file it loads, raw and compressed."""
    from django.conf import settings
    from django.contrib.staticfiles import finders

    raw, packed = len(html), compressed(html, "page.html")
    total_raw, total_packed = raw, packed
    for url in dict.fromkeys(ASSET.findall(html.decode())):
        name = url.removeprefix("/" + settings.STATIC_URL.lstrip("/"))
        data = Path(finders.find(name)).read_bytes()
        total_raw += len(data)
        total_packed += compressed(data, name)
    return raw, packed, total_raw, total_packed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=200, help="timed requests per figure")
    runs = parser.parse_args().runs

    with tempfile.TemporaryDirectory(prefix="pitchkeeper-bench-") as folder:
        configure(Path(folder) / "bench.sqlite3")
        report(runs)


def report(runs: int) -> None:
    import django
    from django.contrib.auth import get_user_model
    from django.test import Client
    from django.urls import reverse

    from pitchkeeper.clubs.services import club_create
    from pitchkeeper.games.hands import hand_delete

    user = get_user_model().objects.create_user("keeper")
    club = club_create(name="Bench table", owner=user)
    state, over = build_games(club)
    game = state.game
    # As in production behind a TLS proxy (with DEBUG off, plain HTTP is redirected),
    # signed in as the club's owner.
    client = Client(HTTP_X_FORWARDED_PROTO="https")
    client.force_login(user)
    htmx = {"HTTP_HX_REQUEST": "true"}
    game_url = reverse("game", args=[game.pk])
    live_url = reverse("live", args=[game.share_token])
    add_url = reverse("hand_add", args=[game.pk])
    data = hand_post(next_hand(state.result.scores))

    def take_back() -> None:
        hand_delete(game=game, number=HANDS + 1)

    etag = checked(200, client.get(live_url, **htmx))["ETag"]
    cases: list[tuple[str, Callable[[], Any], Callable[[], Any] | None]] = [
        ("bare view (a constant)", lambda: checked(200, client.get("/bench/bare/")), None),
        ("game screen, full page", lambda: checked(200, client.get(game_url)), None),
        ("game screen, htmx fragment", lambda: checked(200, client.get(game_url, **htmx)), None),
        (
            "live poll, unchanged (304)",
            lambda: checked(304, client.get(live_url, HTTP_IF_NONE_MATCH=etag, **htmx)),
            None,
        ),
        (
            "hand submit, htmx (fresh table)",
            lambda: checked(200, client.post(add_url, data, **htmx)),
            take_back,
        ),
        (
            "hand submit, no JS (redirect)",
            lambda: checked(302, client.post(add_url, data)),
            take_back,
        ),
    ]

    print(
        f"Pitchkeeper benchmark: a setback game of {HANDS} hands, {runs} runs per figure "
        f"(after {WARM_UP} warm-up), medians.\nPython {platform.python_version()}, "
        f"Django {django.get_version()}, SQLite {sqlite3.sqlite_version}, DEBUG off, "
        f"{os.cpu_count()} CPUs, {platform.machine()}.\n"
    )
    print(f"{'request':34} {'median':>9} {'x bare':>8} {'queries':>8}")
    bare = None
    for name, run, after in cases:
        count = queries(run)
        if after is not None:
            after()
        median = median_ms(run, runs, after)
        bare = bare or median
        print(f"{name:34} {median:7.2f} ms {median / bare:7.1f}x {count:8}")

    screens = {
        "home": reverse("home"),
        "players": reverse("players"),
        "new game": reverse("game_new"),
        f"game ({HANDS} hands)": game_url,
        "game over": reverse("game", args=[over.game.pk]),
        "hand edit": reverse("hand_edit", args=[game.pk, HANDS]),
        "live scoreboard": live_url,
    }
    print(f"\n{'bytes per page':20} {'HTML':>8} {'HTML gz':>8} {'+static':>9} {'+static gz':>11}")
    for name, url in screens.items():
        raw, packed, total_raw, total_packed = page_bytes(checked(200, client.get(url)).content)
        print(f"{name:20} {raw:8} {packed:8} {total_raw:9} {total_packed:11}")
    print(
        "\n+static: with the CSS, JS, icons and manifest the page loads from static/ "
        "(gz: gzip -9 for text, PNGs as they are)."
    )


if __name__ == "__main__":
    main()
