"""Benchmark: what drawing the game screen's HTML by templates costs, against the Python
that draws some of it.

The hand form's choice inputs are drawn in Python (games/forms/render.py); the pills
they sit in (templates/_field.html) and the hands (games/game_hands.html#hands) come from
templates. This times the game screen (htmx, the part a hand's save redraws) as it is,
then with the inputs drawn by Django's own widget templates (radio_option.html and the
two it includes), and the hand list partial alone, for its share of the screen. Run it
by hand, from the repository root,

    .venv/bin/python bench/bench_render.py [--runs 40] [--hands 10] [--preset setback]

on a fresh SQLite database in a temporary folder, DEBUG off, interleaved rounds
(bench/rounds.py): medians of the time and of the per-round ratio to the bare view.
"""

from __future__ import annotations

import argparse
import platform
import re
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench_game import build_game, configure, table
from rounds import BARE, Case, checked, interleaved

WARM_UP = 5
SCREEN = "game screen (inputs in Python)"


def swapped(owner: Any, name: str, value: Any) -> tuple[Callable[[], None], Callable[[], None]]:
    """``before`` and ``after`` hooks that put ``value`` in ``owner.name`` and back."""
    kept = getattr(owner, name)
    return (lambda: setattr(owner, name, value)), (lambda: setattr(owner, name, kept))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=40, help="timed rounds")
    parser.add_argument("--hands", type=int, default=10)
    options = parser.parse_args()
    options.database = None
    with tempfile.TemporaryDirectory(prefix="pitchkeeper-bench-") as folder:
        configure(Path(folder) / "bench.sqlite3")
        report(options)


def report(options: argparse.Namespace) -> None:
    import django
    from django.forms.renderers import DjangoTemplates
    from django.template.loader import render_to_string
    from django.test import Client
    from django.urls import reverse

    from pitchkeeper.games import board
    from pitchkeeper.games.forms.hand import HandForm
    from pitchkeeper.games.replay import game_state
    from pitchkeeper.games.views.table import TABLE_HANDS

    user, club, players, _where = table(options)
    state = build_game(players, options.hands)
    client = Client(HTTP_X_FORWARDED_PROTO="https")
    client.force_login(user)
    session = client.session
    session["club"] = club.pk
    session.save()
    url = reverse("game", args=[state.game.pk])
    htmx = {"HTTP_HX_REQUEST": "true"}

    def screen() -> Any:
        return checked(200, client.get(url, **htmx))

    widgets_before, widgets_after = swapped(HandForm, "default_renderer", DjangoTemplates())
    kept = game_state(game=state.game)
    rows = board.history(kept, first=max(len(kept.hands) - TABLE_HANDS, 0) + 1)

    def hand_list() -> str:
        return render_to_string(
            "games/game_hands.html#hands", {"rows": rows, "game": state.game, "can_score": True}
        )

    cases = [
        Case(BARE, lambda: checked(200, client.get("/bench/bare/"))),
        Case(SCREEN, screen),
        Case("  inputs by Django's widget templates", screen, widgets_before, widgets_after),
        Case(f"  hand list partial alone ({len(rows)} hands)", hand_list),
    ]
    # The swaps draw the same page.
    pages = set()
    for case in cases[1:4]:
        if case.before:
            case.before()
        # Less the tokens, new on every showing.
        pages.add(re.sub(rb'value="[A-Za-z0-9_-]{32,}"', b"", screen().content))
        if case.after:
            case.after()
    assert len(pages) == 1, "a swap drew another page"
    figures = interleaved(cases, rounds=options.runs, warm_up=WARM_UP, clock=time.perf_counter)
    print(
        f"Pitchkeeper render benchmark: a setback game of {options.hands} hands, the game "
        f"screen (htmx) with its hand form; {options.runs} rounds after {WARM_UP} warm-up.\n"
        f"Python {platform.python_version()}, Django {django.get_version()}, DEBUG off.\n"
    )
    screen_ms = figures[SCREEN].median_ms
    print(f"{'case':48} {'median':>9} {'p90':>9} {'x bare':>8} {'vs screen':>10}")
    for name, figure in figures.items():
        share = figure.median_ms / screen_ms
        print(
            f"{name:48} {figure.median_ms:6.2f} ms {figure.p90_ms:6.2f} ms "
            f"{figure.ratio:7.1f}x {share:9.0%}"
        )


if __name__ == "__main__":
    main()
