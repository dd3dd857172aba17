"""Benchmark: what a user meets in a small and a large league, on SQLite or PostgreSQL,
warm and cold, measured in the same rounds.

Not a test (timings depend on the machine): run it by hand, from the repository root,

    .venv/bin/python bench/bench_league.py --small /tmp/l200.sqlite3 --large /tmp/l60k.sqlite3
    .venv/bin/python bench/bench_league.py \\
        --small postgres://pitchkeeper:PASSWORD@127.0.0.1:5432/league200 \\
        --large postgres://pitchkeeper:PASSWORD@127.0.0.1:5432/league60k

A local PostgreSQL for it, as .ci/run starts one (Debian's; the version may differ):

    apt-get install postgresql && pg_ctlcluster 15 main start
    su postgres -c "psql -c \"CREATE ROLE pitchkeeper LOGIN CREATEDB PASSWORD 'PASSWORD'\""
    createdb -h 127.0.0.1 -U pitchkeeper league200 && createdb -h 127.0.0.1 -U pitchkeeper league60k

Both leagues are open in one process, as two database aliases; every round runs every
case of both, in one random order, each request through the whole middleware stack with
Django's test client, DEBUG off, signed in as the club's owner, from a browser that
takes compressed pages (Accept-Encoding). A league missing from its database is made by
``manage.py generate_league --seed 1`` (--small-games, --large-games). A case's figure is
its time's median, and the median, 90th percentile and maximum of its per-round ratio to
the bare view of the same league; "large ÷ small" is the same three of the per-round
ratio of those ratios, so that both sizes are compared under the same load.

A case runs --repeat times in a row in its turn (each with its own set-up), and its
round's time is their median: one pause of the machine or of the garbage collector then
moves a round's figure less, and a ratio of four such figures stays a measure of the
pages rather than of the pauses.

Cold cases are measured as a user meets them:
- "another worker": the request runs with a new, empty local cache (as a second
  gunicorn worker, or a server just restarted, has it), with what the database keeps
  (a game's replay as its last save kept it, a ledger's plan of payments);
- "after a change": for the ledger, its plan of payments known nowhere yet; then, untimed,
  the task worker's turn (``db_worker --batch``), as a worker would search on for a plan
  the page could not prove the fewest.
The large league gets --abandoned games left unfinished a year ago (the home screen
lists the newest ten), the small one --small-abandoned (ten): the small league is made
with every game finished, and a home screen listing no game in progress beside one
listing ten would measure the ten rows, not the league's size. The submits post a
played hand with points (the leader bids 3 and is set back) to a game of the league,
which is taken back afterwards (untimed); the winning hand is a smudge in a new game,
deleted afterwards. The games a run makes are deleted at the end, also when it fails
or is stopped (SIGTERM): the leagues are left as they were found.
"""

from __future__ import annotations

import argparse
import itertools
import os
import platform
import signal
import sys
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import django_setup
from bench_game import build_game, hand_post, hands_played, next_hand
from rounds import BARE, Case, checked, queries, spread, timed, uncompressed

LEAGUES = ("small", "large")
WARM_UP = 2
OWNER = "bench-owner"
SMUDGE = ("high", "low", "jack", "game")
HTMX = {"HTTP_HX_REQUEST": "true"}
_fresh = itertools.count()


def use(league: str) -> None:
    """The league's database as Django's default one, for whatever runs next."""
    from django.db import connections

    connections["default"] = WRAPPERS[league]


WRAPPERS: dict[str, Any] = {}


def another_worker() -> Callable[[], None]:
    """Put a new, empty local cache in place; the returned call puts the old one back."""
    from django.core.cache import caches
    from django.core.cache.backends.locmem import LocMemCache

    saved = caches["default"]
    caches["default"] = LocMemCache(f"bench-worker-{next(_fresh)}", {})

    def back() -> None:
        caches["default"] = saved

    return back


class League:
    """One league's club, its owner's client and the cases measured in it."""

    def __init__(self, name: str, games: int, seed: int, hands: list[int], abandoned: int) -> None:
        from django.contrib.auth import get_user_model
        from django.db.models import Count
        from django.test import Client
        from django.utils import timezone

        from pitchkeeper.clubs.models import Membership, Player, Role
        from pitchkeeper.games.models import Game, Hand
        from pitchkeeper.games.services import game_create
        from pitchkeeper.rules import resolve_rules
        from pitchkeeper.seasons.models import GameLine
        from pitchkeeper.seasons.spans import span_for

        self.name = name
        use(name)
        self.club = django_setup.league_club(games, seed)
        owner, _ = get_user_model().objects.get_or_create(username=OWNER)
        Membership.objects.get_or_create(club=self.club, user=owner, defaults={"role": Role.OWNER})
        self.client = Client(
            HTTP_X_FORWARDED_PROTO="https", HTTP_ACCEPT_ENCODING="gzip, deflate, br"
        )
        self.client.force_login(owner)
        session = self.client.session
        session["club"] = self.club.pk
        session.save()
        busiest = (
            GameLine.objects.filter(club=self.club)
            .values("player_id")
            .order_by()
            .annotate(n=Count("id"))
        )
        self.player = Player.objects.get(pk=max(busiest, key=lambda row: row["n"])["player_id"])
        self.season = span_for(club=self.club, key=None).season
        self.table = list(Player.objects.filter(club=self.club).order_by("pk")[:4])
        # Every game of the club made from now on is this run's (see clean_up).
        self.started = timezone.now()
        try:
            # Games left unfinished long ago, which the home screen lists (newest first).
            abandoned_games = [
                game_create(
                    players=self.table, first_dealer=self.table[0], rules=resolve_rules("setback")
                ).game.pk
                for _ in range(abandoned)
            ]
            Game.objects.filter(pk__in=abandoned_games).update(
                updated=timezone.now() - timedelta(days=365)
            )
            games_of = Game.objects.filter(club=self.club)
            self.summary = (
                f"{games_of.count()} games ({games_of.filter(finished_at=None).count()} "
                f"unfinished), {Hand.objects.filter(game__club=self.club).count()} hands"
            )
            self.states = {count: build_game(self.table, count) for count in hands}
        except BaseException:
            self.clean_up()
            raise
        self.made: dict[str, Any] = {}

    def run(self, call: Callable[[], Any]) -> Callable[[], Any]:
        def in_league() -> Any:
            use(self.name)
            return call()

        return in_league

    def get(self, url: str, **headers: str) -> Callable[[], Any]:
        return self.run(lambda: checked(200, self.client.get(url, **headers)))

    def cases(self) -> list[Case]:
        from django.urls import reverse

        from pitchkeeper.seasons.models import LedgerPlan

        season = f"?season={self.season.pk}" if self.season else "?season=all"
        pages = {
            "leaderboard": reverse("leaderboard"),
            "player page": reverse("player_stats", args=[self.player.pk]),
            "ledger": reverse("ledger"),
        }
        cases = [Case(BARE, self.get("/bench/bare/")), Case("home", self.get(reverse("home")))]
        for query in (season, "?season=all"):
            self.player_page_checked(pages["player page"] + query)
        for page, url in pages.items():
            cases.append(Case(f"{page}, season", self.get(url + season)))
            cases.append(Case(f"{page}, all time", self.get(url + "?season=all")))
        ledger = self.get(reverse("ledger") + "?season=all")
        cases.append(self.cold("ledger, all time, another worker", ledger))

        def plans_forgotten() -> None:
            use(self.name)
            # The all-time plan only: the season's ledger is measured warm beside it.
            LedgerPlan.objects.filter(club=self.club, span="all").delete()

        def searched_on() -> None:
            """What a task worker does next: the search of a plan a page could not
            prove the fewest (seasons.ledger.plan_search), run to its end."""
            use(self.name)
            django_setup.task_worker_turn()

        cases.append(
            self.cold("ledger, all time, after a change", ledger, plans_forgotten, searched_on)
        )
        for count, state in self.states.items():
            screen = self.get(reverse("game", args=[state.game.pk]), **HTMX)
            cases.append(Case(f"game screen, htmx, {count} hands", screen))
            cases.append(self.cold(f"game screen, htmx, {count} hands, another worker", screen))
            submit, before, after = self.submit(state, count)
            cases.append(Case(f"hand submit, htmx, {count} hands", submit, before, after))
            cases.append(
                self.cold(
                    f"hand submit, htmx, {count} hands, another worker", submit, before, after
                )
            )
        win, before, after = self.winning()
        cases.append(Case("the hand that wins a game, htmx", win, before, after))
        cases.append(
            self.cold("the hand that wins a game, htmx, another worker", win, before, after)
        )
        return cases

    def cold(
        self,
        name: str,
        run: Callable[[], Any],
        before: Callable[[], Any] | None = None,
        after: Callable[[], Any] | None = None,
    ) -> Case:
        """``run`` in another worker: with a new, empty local cache."""
        backs: list[Callable[[], None]] = []

        def set_up() -> None:
            if before is not None:
                before()
            backs.append(another_worker())

        def tear_down() -> None:
            if after is not None:
                after()
            backs.pop()()

        return Case(name, run, set_up, tear_down)

    def player_page_checked(self, url: str) -> None:
        """Stop unless the player page lists a page of the player's games (all of them,
        when fewer), each under its rules' name: a page that drew less would measure less."""
        from pitchkeeper.seasons.models import GameLine
        from pitchkeeper.seasons.spans import span_for

        use(self.name)
        response = checked(200, self.client.get(url))
        page = uncompressed(response).decode()
        span = span_for(club=self.club, key=url.partition("?season=")[2])
        games = GameLine.objects.filter(span.moments(), player=self.player, counted=True)
        shown, titled = page.count('class="game"'), page.count('<strong class="title"></strong>')
        if shown != min(games.count(), 20) or titled:
            raise SystemExit(f"{url}: {shown} games listed of {games.count()}, {titled} untitled")

    def submit(self, state: Any, count: int) -> tuple[Callable, Callable, Callable]:
        from django.urls import reverse

        from pitchkeeper.games.hands import hand_delete
        from pitchkeeper.games.models import Game, Hand

        game = state.game
        url = reverse("hand_add", args=[game.pk])
        data = hand_post(next_hand(state.result.scores))

        def basis() -> None:
            use(self.name)
            data["revision"] = str(Game.objects.get(pk=game.pk).revision)

        def take_back() -> None:
            use(self.name)
            if Hand.objects.filter(game=game).count() != count + 1:
                raise SystemExit(f"the submit to the game of {count} hands saved no hand")
            hand_delete(game=game, number=count + 1)

        post = self.run(lambda: checked(200, self.client.post(url, data, **HTMX)))
        return post, basis, take_back

    def winning(self) -> tuple[Callable, Callable, Callable]:
        from django.urls import reverse

        from pitchkeeper.games.models import Game
        from pitchkeeper.games.services import game_create
        from pitchkeeper.rules import HandRecord, resolve_rules
        from pitchkeeper.seasons.models import GameLine

        players = self.table[:3]
        winner = players[1].name
        data = hand_post(HandRecord(pitcher=winner, bid=4, points=dict.fromkeys(SMUDGE, winner)))

        def new_game() -> None:
            use(self.name)
            game = game_create(
                players=players, first_dealer=players[0], rules=resolve_rules("setback")
            ).game
            self.made["game"] = game
            data["revision"] = str(game.revision)

        def won() -> None:
            use(self.name)
            game = Game.objects.get(pk=self.made["game"].pk)
            lines = GameLine.objects.filter(game=game).count()
            if game.winner_id != players[1].pk or game.won_by != "smudge" or lines != 3:
                raise SystemExit(
                    f"the winning hand did not win: {game.winner_id}, {game.won_by!r}, {lines}"
                )
            game.delete()

        def post() -> Any:
            url = reverse("hand_add", args=[self.made["game"].pk])
            return checked(200, self.client.post(url, data, **HTMX))

        return self.run(post), new_game, won

    def clean_up(self) -> None:
        """The games this run made deleted, whether it ended, failed or was stopped
        (SIGTERM): the league as it was found."""
        from pitchkeeper.games.models import Game

        use(self.name)
        Game.objects.filter(club=self.club, created__gte=self.started).delete()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--small", required=True, help="a SQLite file or a database URL")
    parser.add_argument("--large", required=True, help="of the same kind as --small")
    parser.add_argument("--small-games", type=int, default=200)
    parser.add_argument("--large-games", type=int, default=60_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=20, help="timed rounds")
    parser.add_argument("--hands", type=int, nargs="+", default=[10, 30, 60])
    parser.add_argument(
        "--repeat", type=int, default=5, help="runs of a case in its turn (their median)"
    )
    parser.add_argument(
        "--clock", choices=django_setup.CLOCKS, default="wall", help=django_setup.CLOCK_HELP
    )
    parser.add_argument(
        "--abandoned", type=int, default=300, help="games left unfinished, made in the large"
    )
    parser.add_argument(
        "--small-abandoned",
        type=int,
        default=10,
        help="games left unfinished, made in the small (as many as home lists)",
    )
    options = parser.parse_args()
    # The task worker's line per task, not the figures, would fill the screen.
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    django_setup.configure(
        options.small, others={"large": django_setup.database_url(options.large)}
    )
    from django.db import connections

    WRAPPERS.update(small=connections["default"], large=connections["large"])
    # Stopped (kill, a CI timeout), the run still deletes the games it made.
    signal.signal(signal.SIGTERM, lambda number, _frame: sys.exit(128 + number))
    report(options)


def report(options: argparse.Namespace) -> None:
    leagues: dict[str, League] = {}
    try:
        leagues["small"] = League(
            "small", options.small_games, options.seed, options.hands, options.small_abandoned
        )
        leagues["large"] = League(
            "large", options.large_games, options.seed, options.hands, options.abandoned
        )
        measured(options, leagues)
    finally:
        for league in leagues.values():
            league.clean_up()


def measured(options: argparse.Namespace, leagues: dict[str, League]) -> None:
    """Every case of both leagues timed in the same rounds, and the report printed."""
    import django

    cases = {name: league.cases() for name, league in leagues.items()}
    every = [
        Case(f"{name}|{case.name}", case.run, case.before, case.after)
        for name, league_cases in cases.items()
        for case in league_cases
    ]
    clock = django_setup.clock(options.clock)
    times = timed(every, rounds=options.runs, warm_up=WARM_UP, clock=clock, repeat=options.repeat)
    # Counted after the rounds, each case in the state its rounds met.
    counted: dict[tuple[str, str], tuple[int, int]] = {}
    for name, league_cases in cases.items():
        for case in league_cases:
            measured = []
            for measure in (queries, hands_played):
                if case.before is not None:
                    case.before()
                use(name)
                measured.append(measure(case.run))
                if case.after is not None:
                    case.after()
            counted[name, case.name] = (measured[0], measured[1])
    use("small")
    print(
        f"Pitchkeeper league benchmark on {django_setup.database_version()}: "
        f"small league {leagues['small'].summary}; large league {leagues['large'].summary}.\n"
        f"Python {platform.python_version()}, Django {django.get_version()}, DEBUG off, "
        f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at the end. "
        f"{options.runs} rounds after {WARM_UP} warm-up, every case of both leagues once a "
        f"round ({options.repeat} runs in a row, their median) in one random order "
        f"({options.clock} clock).\n"
    )
    print(
        f"{'request':48} {'small ms':>8} {'x bare (med/p90/max)':>21} {'large ms':>8} "
        f"{'x bare (med/p90/max)':>21} {'large ÷ small':>19} {'queries':>7} {'played':>7}"
    )
    for case in cases["small"]:
        ratios = {}
        row = f"{case.name:48}"
        for name in LEAGUES:
            spent = times[f"{name}|{case.name}"]
            bare = times[f"{name}|{BARE}"]
            ratios[name] = [t / b for t, b in zip(spent, bare, strict=True)]
            median, p90, most = spread(ratios[name])
            row += f" {spread(spent)[0] * 1000:8.1f} {median:6.1f} {p90:6.1f} {most:7.1f}"
        growth = spread([b / a for a, b in zip(ratios["small"], ratios["large"], strict=True)])
        row += " {:5.2f} {:5.2f} {:6.2f}".format(*growth)
        small_q, small_p = counted["small", case.name]
        large_q, large_p = counted["large", case.name]
        row += f" {small_q:>3}/{large_q:<3} {small_p:>3}/{large_p:<3}"
        print(row)
    for length in ("", ", another worker"):
        short, long = min(options.hands), max(options.hands)
        for name in LEAGUES:
            a = times[f"{name}|game screen, htmx, {short} hands{length}"]
            b = times[f"{name}|game screen, htmx, {long} hands{length}"]
            median, p90, most = spread([y / x for x, y in zip(a, b, strict=True)])
            print(
                f"game screen{length or ', warm'}, {name} league: {long} ÷ {short} hands "
                f"{median:.2f} (p90 {p90:.2f}, max {most:.2f})"
            )


if __name__ == "__main__":
    main()
