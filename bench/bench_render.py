"""Benchmark: what drawing the game screen's HTML by templates costs, against the Python
that draws some of it, and what the screen and a hand's save cost with nothing drawn.

The hand form's choice inputs are drawn in Python (games/forms/render.py); the pills
they sit in (templates/_field.html) and the hands (games/game_hands.html#hands) come from
templates. This times the game screen (htmx, the part a hand's save redraws) as it is,
then with the inputs drawn by Django's own widget templates (radio_option.html and the
two it includes), and the hand list partial alone, for its share of the screen.

It also times the screen and the htmx save of a hand (a played hand with points, taken
back afterwards, untimed) with their template not drawn: the view's ``render`` answers
with the bytes it drew the first time for the same request, so that everything else
(the game read, the hand form, the save, the context, the middleware and the
compression of the same page) is timed as it is. That is the floor under the request
however fast its HTML is drawn. Run it by hand, from the repository root,

    .venv/bin/python bench/bench_render.py [--runs 40] [--hands 30] [--clock cpu]
    .venv/bin/python bench/bench_render.py --database postgres://pitchkeeper:PASSWORD@127.0.0.1:5432/pitchkeeper

on a fresh SQLite database in a temporary folder, or in a database of its own that it
makes on the PostgreSQL server given (``pitchkeeper_bench_render``, dropped at the end),
DEBUG off, from a browser that takes compressed pages, interleaved rounds
(bench/rounds.py): medians of the time and the median and 90th percentile of the
per-round ratio to the bare view.
"""

from __future__ import annotations

import argparse
import json
import platform
import re
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import django_setup
from bench_game import build_game, configure, hand_submit, table
from rounds import BARE, Case, checked, interleaved, uncompressed

WARM_UP = 5
SCREEN = "game screen (inputs in Python)"
SUBMIT = "hand submit (htmx)"
# What is new on every showing of a page: the one-time token, the CSRF token, and the
# game's revision and its last hand's version (each take-back of a saved hand moves them).
TOKENS = re.compile(rb'value="[A-Za-z0-9_-]{32,}"|name="(?:revision|version)" value="[0-9]+"')
# The game's record for the phone's engine: a hand's points in the order they were
# entered, or in the database's (PostgreSQL's jsonb sorts an object's keys) once read.
RECORD = re.compile(rb'(<script id="game-record" type="application/json">)(.*?)(</script>)')


def swapped(owner: Any, name: str, value: Any) -> tuple[Callable[[], None], Callable[[], None]]:
    """``before`` and ``after`` hooks that put ``value`` in ``owner.name`` and back."""
    kept = getattr(owner, name)
    return (lambda: setattr(owner, name, value)), (lambda: setattr(owner, name, kept))


def chained(*hooks: Callable[[], Any] | None) -> Callable[[], None]:
    def run() -> None:
        for hook in hooks:
            if hook is not None:
                hook()

    return run


def drawn_once(render: Callable[..., Any]) -> Callable[..., Any]:
    """``render`` (django.shortcuts') drawing each request's page once: a request made
    again (the same method and path) is answered with the bytes drawn the first time."""
    from django.http import HttpResponse

    pages: dict[tuple[str, str], bytes] = {}

    def answer(request: Any, template_name: str, context: Any = None, status: int = 200) -> Any:
        key = (request.method, request.path)
        if key not in pages:
            pages[key] = render(request, template_name, context).content
        return HttpResponse(pages[key], status=status)

    return answer


def page(response: Any) -> bytes:
    """The page a response carries, uncompressed, less its tokens, its record's keys in
    one order."""
    body = uncompressed(response)
    record = RECORD.search(body)
    if record:
        ordered = json.dumps(json.loads(record[2]), sort_keys=True).encode()
        body = body[: record.start(2)] + ordered + body[record.end(2) :]
    return TOKENS.sub(b"", body)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=40, help="timed rounds")
    parser.add_argument("--hands", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=1, help="runs of a case in its turn")
    parser.add_argument(
        "--clock", choices=django_setup.CLOCKS, default="wall", help=django_setup.CLOCK_HELP
    )
    parser.add_argument(
        "--database", help="a PostgreSQL server's URL, to run there instead of on SQLite"
    )
    options = parser.parse_args()
    if options.database:
        django_setup.configure(options.database)
        from django.db import connection

        connection.settings_dict["TEST"]["NAME"] = "pitchkeeper_bench_render"
        made = connection.creation.create_test_db(verbosity=0, autoclobber=True)
        try:
            report(options)
        finally:
            connection.creation.destroy_test_db(made, verbosity=0)
        return
    with tempfile.TemporaryDirectory(prefix="pitchkeeper-bench-") as folder:
        configure(Path(folder) / "bench.sqlite3")
        report(options)


def report(options: argparse.Namespace) -> None:
    import django
    from django.forms.renderers import DjangoTemplates
    from django.template.loader import render_to_string
    from django.test import Client
    from django.urls import reverse

    from pitchkeeper.games.forms.hand import HandForm
    from pitchkeeper.games.hand_words import history
    from pitchkeeper.games.replay import game_state
    from pitchkeeper.games.views import table as table_views
    from pitchkeeper.games.views.table import TABLE_HANDS

    user, club, players, _where = table(argparse.Namespace(database=None))
    state = build_game(players, options.hands)
    game = state.game
    client = Client(HTTP_X_FORWARDED_PROTO="https", HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    client.force_login(user)
    session = client.session
    session["club"] = club.pk
    session.save()
    url = reverse("game", args=[game.pk])
    htmx = {"HTTP_HX_REQUEST": "true"}

    def screen() -> Any:
        return checked(200, client.get(url, **htmx))

    submit, basis, take_back = hand_submit(client, state, 200, **htmx)
    widgets_before, widgets_after = swapped(HandForm, "default_renderer", DjangoTemplates())
    undrawn_before, undrawn_after = swapped(table_views, "render", drawn_once(table_views.render))
    kept = game_state(game=game)
    rows = history(kept, first=max(len(kept.hands) - TABLE_HANDS, 0) + 1)

    def hand_list() -> str:
        return render_to_string(
            "games/game_hands.html#hands", {"rows": rows, "game": game, "can_score": True}
        )

    cases = [
        Case(BARE, lambda: checked(200, client.get("/bench/bare/"))),
        Case(SCREEN, screen),
        Case("  inputs by Django's widget templates", screen, widgets_before, widgets_after),
        Case(f"  hand list partial alone ({len(rows)} hands)", hand_list),
        Case("  the screen, its template not drawn", screen, undrawn_before, undrawn_after),
        Case(SUBMIT, submit, basis, take_back),
        Case(
            "  the save, its template not drawn",
            submit,
            chained(basis, undrawn_before),
            chained(undrawn_after, take_back),
        ),
    ]
    # Every variant of a request answers the same page, the second time too (when the
    # page not drawn comes from what was drawn the first).
    for request, variants in ((screen, cases[1:3] + cases[4:5]), (submit, cases[5:7])):
        pages = set()
        for case in variants * 2:
            chained(case.before)()
            pages.add(page(request()))
            chained(case.after)()
        assert len(pages) == 1, f"a swap answered another page: {variants}"
    figures = interleaved(
        cases,
        rounds=options.runs,
        warm_up=WARM_UP,
        clock=django_setup.clock(options.clock),
        repeat=options.repeat,
    )
    print(
        f"Pitchkeeper render benchmark: a setback game of {options.hands} hands, the game "
        f"screen (htmx) with its hand form, and a hand's save; {options.runs} rounds after "
        f"{WARM_UP} warm-up, each case {options.repeat} time(s) a turn ({options.clock} "
        f"clock).\nPython {platform.python_version()}, Django {django.get_version()}, "
        f"{django_setup.database_version()}, DEBUG off.\n"
    )
    screen_ms = figures[SCREEN].median_ms
    print(f"{'case':48} {'median':>9} {'p90':>9} {'x bare':>8} {'p90':>6} {'vs screen':>10}")
    for name, figure in figures.items():
        share = figure.median_ms / screen_ms
        print(
            f"{name:48} {figure.median_ms:6.2f} ms {figure.p90_ms:6.2f} ms "
            f"{figure.ratio:7.1f}x {figure.ratio_p90:5.1f}x {share:9.0%}"
        )


if __name__ == "__main__":
    main()
