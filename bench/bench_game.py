"""Benchmark: the game screen and a hand submit for games of 10, 30 and 60 hands,
against a bare Django view that returns a constant; and the bytes each screen sends.

Not a test (timings depend on the machine): run it by hand, from the repository root,

    .venv/bin/python bench/bench_game.py [--runs 40] [--hands 10 30 60]
    .venv/bin/python bench/bench_game.py --database /tmp/league.sqlite3   # in a league

Django runs in-process with DEBUG off on a fresh SQLite database in a temporary folder
(or, with --database, in the club of a league made by bench_stats.py, whose games it
leaves as they were); requests go through the whole middleware stack with Django's test
client. The cases run interleaved (bench/rounds.py): each round runs each once in random
order, and a figure is the median time and the median of the per-round ratios to the
bare view. A submitted hand is checked to be saved and deleted again (untimed), so that
every submit meets the same game. Each request's hands played by the engine are counted
too: a replay of the game plays every hand from the first. The game screen is timed
with the game's replay kept in the cache, as a table's next request finds it, and with
the cache emptied before it (untimed), as a game opened again after a day is read.
"""

from __future__ import annotations

import argparse
import os
import platform
import sqlite3
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import django_setup
from rounds import BARE, Case, checked, interleaved, queries, uncompressed

WARM_UP = 5

TABLE = ("Ann", "Bob", "Cy", "Dee")


def configure(database: Path) -> None:
    """Django on ``database``, migrated."""
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


def build_game(players: list[Any], hands: int) -> Any:
    """A setback game of ``hands`` hands still in progress."""
    from pitchkeeper.games.hands import hand_record
    from pitchkeeper.games.services import game_create
    from pitchkeeper.rules import resolve_rules

    state = game_create(players=players, first_dealer=players[0], rules=resolve_rules("setback"))
    for _hand in range(hands):
        state = hand_record(game=state.game, record=next_hand(state.result.scores))
    assert state.result.winner is None and len(state.hands) == hands
    return state


def won_game(players: list[Any]) -> Any:
    """A game won by a smudge on its first hand."""
    from pitchkeeper.games.hands import hand_record
    from pitchkeeper.games.services import game_create
    from pitchkeeper.rules import HandRecord, resolve_rules

    name = players[1].name
    over = game_create(players=players[:3], first_dealer=players[0], rules=resolve_rules("setback"))
    smudge = dict.fromkeys(("high", "low", "jack", "game"), name)
    over = hand_record(game=over.game, record=HandRecord(pitcher=name, bid=4, points=smudge))
    assert over.result.winner == name
    return over


def forgotten(game: Any) -> Callable[[], None]:
    """Drops what the cache and the database keep of ``game`` as it is stored, as a game
    last saved before its replay was kept in the database, or by another engine (the
    other games' entries stay)."""
    from django.core.cache import cache

    from pitchkeeper.games.models import GameReplay
    from pitchkeeper.games.replay import _key

    def forget() -> None:
        game.refresh_from_db()
        key = _key(game)
        if key is None or cache.get(key) is None:
            raise SystemExit(f"nothing was kept of game {game.pk} to drop")
        cache.delete(key)
        GameReplay.objects.filter(game=game).delete()

    return forget


def hand_post(record: Any) -> dict[str, str]:
    data = {"pitcher": record.pitcher, "bid": str(record.bid), "action": "save"}
    for key, side in record.points.items():
        data[f"point_{key}"] = side or "nobody"
    return data


def hand_submit(
    client: Any, state: Any, status: int, **headers: str
) -> tuple[Callable[[], Any], Callable[[], None], Callable[[], None]]:
    """A case's run, before and after for saving a played hand with points (next_hand)
    to the game of ``state`` through ``client``, expecting ``status``; the hand is taken
    back after each run, untimed."""
    from django.urls import reverse

    from pitchkeeper.games.hands import hand_delete
    from pitchkeeper.games.models import Game, Hand

    game, hands = state.game, len(state.hands)
    url = reverse("hand_add", args=[game.pk])
    data = hand_post(next_hand(state.result.scores))

    def basis() -> None:
        # The revision the game screen would send now (every take-back advances it),
        # read before the timed part.
        data["revision"] = str(Game.objects.get(pk=game.pk).revision)

    def take_back() -> None:
        if Hand.objects.filter(game=game).count() != hands + 1:
            raise SystemExit(f"the submit to the game of {hands} hands saved no hand")
        hand_delete(game=game, number=hands + 1)

    return (lambda: checked(status, client.post(url, data, **headers))), basis, take_back


def hands_played(request: Callable[[], Any]) -> int:
    """How many hands the engine plays for one request (a replay plays them all)."""
    from pitchkeeper.rules.engine import RunningGame

    played = []
    play = RunningGame.play

    def counted(self: RunningGame, record: Any) -> None:
        played.append(1)
        play(self, record)

    RunningGame.play = counted  # type: ignore[method-assign]
    try:
        request()
    finally:
        RunningGame.play = play  # type: ignore[method-assign]
    return len(played)


def page_bytes(response: Any) -> tuple[int, int, int, int]:
    """The HTML as it is and as it was sent, then with every static file it loads, as
    they are and as they are sent."""
    from django.contrib.staticfiles import finders

    from tests.test_page_weight import page_weight

    sent = len(response.content)
    html = uncompressed(response)
    weights = page_weight(html, sent)
    statics = [name for name in weights if name != "(html)"]
    raw = len(html) + sum(Path(finders.find(name)).stat().st_size for name in statics)
    return len(html), sent, raw, sum(weights.values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=40, help="timed rounds")
    parser.add_argument("--hands", type=int, nargs="+", default=[10, 30, 60])
    parser.add_argument("--database", type=Path, help="play in the league kept here")
    parser.add_argument(
        "--clock", choices=django_setup.CLOCKS, default="wall", help=django_setup.CLOCK_HELP
    )
    options = parser.parse_args()
    if options.database:
        configure(options.database.resolve())
        report(options)
        return
    with tempfile.TemporaryDirectory(prefix="pitchkeeper-bench-") as folder:
        configure(Path(folder) / "bench.sqlite3")
        report(options)


def table(options: argparse.Namespace) -> tuple[Any, Any, list[Any], str]:
    """The account, its club and four of the club's players: the league's, or new ones."""
    from django.contrib.auth import get_user_model

    from pitchkeeper.clubs.models import Club, Membership, Player, Role
    from pitchkeeper.clubs.players import player_add, roster
    from pitchkeeper.clubs.services import club_create
    from pitchkeeper.games.models import Game

    if options.database:
        club = Club.objects.get(name=django_setup.LEAGUE)
        user, _ = get_user_model().objects.get_or_create(username="bench-owner")
        Membership.objects.get_or_create(club=club, user=user, defaults={"role": Role.OWNER})
        games = Game.objects.filter(club=club).count()
        return user, club, list(Player.objects.filter(club=club)[:4]), f"a league of {games} games"
    user = get_user_model().objects.create_user("keeper")
    club = club_create(name="Bench table", owner=user)
    players = roster(list(TABLE), club=club)
    for name in ("Eve", "Fay"):
        player_add(club=club, name=name)
    return user, club, [players[name] for name in TABLE], "a new club"


def report(options: argparse.Namespace) -> None:
    import django
    from django.test import Client
    from django.urls import reverse

    user, club, players, where = table(options)
    states = {hands: build_game(players, hands) for hands in options.hands}
    over = won_game(players)
    # As in production behind a TLS proxy (with DEBUG off, plain HTTP is redirected),
    # signed in as the club's owner, from a browser that takes compressed pages.
    client = Client(HTTP_X_FORWARDED_PROTO="https", HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    client.force_login(user)
    session = client.session
    session["club"] = club.pk
    session.save()
    htmx = {"HTTP_HX_REQUEST": "true"}

    def get(url: str, status: int = 200, **headers: str) -> Callable[[], Any]:
        return lambda: checked(status, client.get(url, **headers))

    cases = [Case(BARE, get("/bench/bare/"))]
    for hands, state in states.items():
        game_url = reverse("game", args=[state.game.pk])
        cases.append(Case(f"game screen, full page, {hands} hands", get(game_url)))
        cases.append(Case(f"game screen, htmx, {hands} hands", get(game_url, **htmx)))
        cold = f"game screen, htmx, nothing kept, {hands} hands"
        cases.append(Case(cold, get(game_url, **htmx), before=forgotten(state.game)))
        name = f"hand submit, htmx, {hands} hands"
        cases.append(Case(name, *hand_submit(client, state, 200, **htmx)))
        cases.append(Case(f"hand submit, no JS, {hands} hands", *hand_submit(client, state, 302)))
    middle = states[options.hands[len(options.hands) // 2]].game
    # The finished game's board, which the submits do not change.
    live_url = reverse("live", args=[over.game.share_token])
    etag = checked(200, client.get(live_url, **htmx))["ETag"]
    live = get(live_url, 304, HTTP_IF_NONE_MATCH=etag, **htmx)
    cases.append(Case("live poll, unchanged (304)", live))

    counted = {}
    for case in cases:
        measured = []
        for measure in (queries, hands_played):
            if case.before is not None:
                case.before()
            measured.append(measure(case.run))
            if case.after is not None:
                case.after()
        counted[case.name] = measured
    figures = interleaved(
        cases, rounds=options.runs, warm_up=WARM_UP, clock=django_setup.clock(options.clock)
    )

    print(
        f"Pitchkeeper game benchmark: setback games of {options.hands} hands in {where}, "
        f"{options.runs} rounds after {WARM_UP} warm-up, each case once a round in random "
        f"order; medians of the time ({options.clock} clock) and of the per-round ratio to "
        "the bare view.\n"
        f"Python {platform.python_version()}, Django {django.get_version()}, "
        f"SQLite {sqlite3.sqlite_version}, DEBUG off, {os.cpu_count()} CPUs, "
        f"{platform.machine()}.\n"
    )
    print(f"{'request':48} {'median':>9} {'x bare':>8} {'queries':>8} {'hands played':>13}")
    for name, figure in figures.items():
        count, played = counted[name]
        print(f"{name:48} {figure.median_ms:6.2f} ms {figure.ratio:7.1f}x {count:8} {played:13}")
    short, long = min(options.hands), max(options.hands)
    print()
    for what in (
        "game screen, full page",
        "game screen, htmx",
        "game screen, htmx, nothing kept",
        "hand submit, htmx",
        "hand submit, no JS",
    ):
        ratio = figures[f"{what}, {long} hands"].ratio / figures[f"{what}, {short} hands"].ratio
        print(f"{what}: {long} hands cost {ratio:.2f}x {short} hands")

    screens = {
        "home": reverse("home"),
        "players": reverse("players"),
        "new game": reverse("game_new"),
        **{f"game ({n} hands)": reverse("game", args=[s.game.pk]) for n, s in states.items()},
        f"hands screen ({long} hands)": reverse("game_hands", args=[states[long].game.pk]),
        "game over": reverse("game", args=[over.game.pk]),
        "hand edit": reverse("hand_edit", args=[middle.pk, 1]),
        "live scoreboard": live_url,
        "leaderboard": reverse("leaderboard"),
        "ledger": reverse("ledger"),
    }
    print(
        f"\n{'bytes per page':24} {'HTML':>8} {'HTML sent':>10} {'+static':>9} {'+static sent':>13}"
    )
    for name, url in screens.items():
        raw, sent, total_raw, total_sent = page_bytes(checked(200, client.get(url)))
        print(f"{name:24} {raw:8} {sent:10} {total_raw:9} {total_sent:13}")
    print(
        "\nHTML sent: gzip, as the app sends it to a browser that takes it; +static: with "
        "the CSS, JS, icons and manifest the page loads from static/, text as brotli "
        "(which WhiteNoise serves), images as they are; counted as tests/test_page_weight.py "
        "counts them."
    )
    if options.database:
        for state in (*states.values(), over):
            state.game.delete()


if __name__ == "__main__":
    main()
