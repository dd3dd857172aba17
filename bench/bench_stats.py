"""Benchmark: the leaderboard, a player page and the ledger of a synthetic ten-year
league, against a bare Django view, and against a straightforward implementation that
replays every game of the season through the rules engine and adds up in Python.

Not a test (timings depend on the machine): run it by hand, from the repository root,

    .venv/bin/python bench/bench_stats.py [--games 50000] [--runs 20] [--naive-runs 3]
    .venv/bin/python bench/bench_stats.py --database /tmp/league.sqlite3   # keep/reuse it

Django runs in-process with DEBUG off on a SQLite database; requests go through the
whole middleware stack with Django's test client, signed in as the club's owner. The
league is made by ``manage.py generate_league --seed 1`` (in a temporary folder, or in
--database, which is reused when it already holds a league). The cases run interleaved
(bench/rounds.py): each round runs each once in random order, and a figure is the median
time and the median of the per-round ratios to the bare view. The hand that should win
a game is checked to win it, and every page to answer 200, or the run stops.

The straightforward pages ("replay") read the same season's games with
games.replay.games_replayed (three queries per chunk of games), replay them through the
engine, add the figures up in Python and render the same templates. Their ratings are
re-rated over the season's games only, so what they cost is a lower bound.
"""

from __future__ import annotations

import argparse
import os
import platform
import sqlite3
import tempfile
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import django_setup
from rounds import BARE, Case, checked, interleaved, queries

WARM_UP = 2
OWNER = "bench-owner"
SMUDGE = ("high", "low", "jack", "game")


def configure(database: Path) -> None:
    """Django on ``database``, with the straightforward views beside the bare one."""

    def replayed_urls() -> list[Any]:
        from django.urls import path

        return [
            path("bench/replay/leaderboard/", replayed_leaderboard),
            path("bench/replay/player/<int:pk>/", replayed_player),
            path("bench/replay/ledger/", replayed_ledger),
        ]

    django_setup.configure(database, replayed_urls)


# ---- The straightforward implementation: replay the season, add up in Python ----


def _replayed_season(request: Any) -> tuple[Any, list[Any]]:
    """The span, and every game of it replayed through the engine, as derived rows."""
    from pitchkeeper.games.models import Game
    from pitchkeeper.games.replay import games_replayed
    from pitchkeeper.seasons.derive import derive
    from pitchkeeper.seasons.ledger import season_games
    from pitchkeeper.seasons.spans import span_for

    club = request.membership.club
    span = span_for(club=club, key=request.GET.get("season"))
    games = season_games(club=club, span=span)
    pks = list(games.values_list("pk", flat=True))
    derived = []
    for start in range(0, len(pks), 500):
        chunk = Game.objects.filter(pk__in=pks[start : start + 500]).order_by("finished_at", "pk")
        for state in games_replayed(games=chunk):
            ids = {name: pk for pk, name in state.names.items()}
            derived.append(
                derive(game=state.game, record=state.record, result=state.result, ids=ids)
            )
    return span, derived


def _standings(derived: list[Any]) -> dict[int, Any]:
    from pitchkeeper.seasons.derive import CATEGORY, _month_values
    from pitchkeeper.seasons.standings import Standing

    found: dict[int, Standing] = {}
    for lines, counts in derived:
        for line in lines:
            standing = found.setdefault(line.player_id, Standing(line.player_id, ""))
            for name, value in _month_values(line).items():
                standing.sums[name] += value
        for count in counts:
            standing = found[count.player_id]
            kind = standing.by_category if count.kind == CATEGORY else standing.by_bid
            made, of = kind.get(count.key, (0, 0))
            kind[count.key] = (made + count.count, of + count.out_of)
    return found


def _rate(derived: list[Any]) -> dict[int, list[tuple[Any, float, float]]]:
    """Every player's rating history over these games, rated in order."""
    from pitchkeeper.seasons.ratings import RATING_MODEL

    current: dict[int, Any] = {}
    history: dict[int, list[tuple[Any, float, float]]] = defaultdict(list)
    for lines, _counts in derived:
        sides: dict[str, list[int]] = {}
        ranks: dict[str, int] = {}
        for line in lines:
            sides.setdefault(line.side, []).append(line.player_id)
            ranks[line.side] = line.place
        teams = [[current.get(p) or RATING_MODEL.rating() for p in ps] for ps in sides.values()]
        new = RATING_MODEL.rate(teams, ranks=list(ranks.values()))
        for members, ratings in zip(sides.values(), new, strict=True):
            for player_id, rating in zip(members, ratings, strict=True):
                current[player_id] = rating
                history[player_id].append((lines[0].finished_at, rating.mu, rating.sigma))
    return history


def replayed_leaderboard(request: Any) -> Any:
    from django.shortcuts import render

    from pitchkeeper.clubs.access import current_membership
    from pitchkeeper.clubs.models import Player
    from pitchkeeper.seasons.standings import Leaderboard, bid_order
    from pitchkeeper.seasons.views import leaderboard, shared

    request.membership = current_membership(request)
    span, derived = _replayed_season(request)
    standings = _standings(derived)
    history = _rate(derived)
    for pk, name in Player.objects.filter(pk__in=standings).values_list("pk", "name"):
        standings[pk].name = name
        if history.get(pk):
            _at, standings[pk].mu, standings[pk].sigma = history[pk][-1]
    board = Leaderboard(
        span,
        list(standings.values()),
        sorted({k for s in standings.values() for k in s.by_category}),
        sorted({k for s in standings.values() for k in s.by_bid}, key=bid_order),
    )
    columns = leaderboard._columns(board)
    ordered, sort = leaderboard._sorted(board, columns, "rating")
    context = {
        **shared._picker(request, span),
        "headers": [{"column": c, "sorted": False, "link": ""} for c in columns],
        "rows": [(s, [c.text(s) for c in columns]) for s in ordered],
        "sort": sort,
    }
    return render(request, "seasons/leaderboard.html", context)


def replayed_player(request: Any, pk: int) -> Any:
    from django.shortcuts import render

    from pitchkeeper.clubs.access import current_membership
    from pitchkeeper.clubs.models import Player
    from pitchkeeper.seasons.standings import Opponent, PlayerStats, Streaks
    from pitchkeeper.seasons.views import player as player_views
    from pitchkeeper.seasons.views import shared

    request.membership = current_membership(request)
    player = Player.objects.get(pk=pk, club=request.membership.club)
    span, derived = _replayed_season(request)
    history = _rate(derived)
    mine = [(lines, counts) for lines, counts in derived if any(ln.player_id == pk for ln in lines)]
    standing = _standings(mine).get(pk)
    names = dict(Player.objects.filter(club=player.club).values_list("pk", "name"))
    meetings: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0])
    results = []
    for lines, _counts in mine:
        me = next(ln for ln in lines if ln.player_id == pk)
        results.append(me.won)
        for other in lines:
            if other.player_id == pk:
                continue
            tally = meetings[other.player_id]
            tally[0] += 1
            tally[1] += other.side == me.side
            tally[2] += me.won and other.side != me.side
            tally[3] += other.won and other.side != me.side
            tally[4] += other.place > me.place
    runs: dict[bool, int] = {True: 0, False: 0}
    length = 0
    for index, won in enumerate(results):
        length = length + 1 if index and results[index - 1] == won else 1
        runs[won] = max(runs[won], length)
    if standing is not None:
        standing.name = player.name
        if history.get(pk):
            _at, standing.mu, standing.sigma = history[pk][-1]
    found = PlayerStats(
        span,
        standing,
        [Opponent(o, names[o], *t) for o, t in sorted(meetings.items(), key=lambda i: -i[1][0])],
        Streaks(runs[True], runs[False], length, results[-1] if results else None),
        history.get(pk, []),
        [],
        False,
    )
    context = {
        **shared._picker(request, span),
        "player": player,
        "stats": found,
        "standing": standing,
        "games": [],
        "rating_chart": player_views.rating_chart(found.history),
        "bid_chart": player_views.bid_chart(standing.by_bid) if standing else None,
        "points": [],
    }
    return render(request, "seasons/player.html", context)


def replayed_ledger(request: Any) -> Any:
    from django.shortcuts import render

    from pitchkeeper.clubs.access import current_membership
    from pitchkeeper.clubs.models import Player
    from pitchkeeper.rules.payments import settle_up
    from pitchkeeper.seasons.ledger import Balance, Ledger
    from pitchkeeper.seasons.views import leaderboard, shared

    request.membership = current_membership(request)
    span, derived = _replayed_season(request)
    chips: dict[int, int] = defaultdict(int)
    for lines, _counts in derived:
        for line in lines:
            chips[line.player_id] += line.chips
    names = dict(Player.objects.filter(club=request.membership.club).values_list("pk", "name"))
    balances = {pk: Balance(pk, names[pk], won, 0, 0) for pk, won in chips.items() if won}
    plan = settle_up({pk: b.balance for pk, b in balances.items()})
    found = Ledger(
        span,
        sorted(balances.values(), key=lambda b: -b.balance),
        [(balances[a], balances[b], n) for a, b, n in plan.payments],
        plan.fewest,
        None,
        [],
    )
    context = {
        **shared._picker(request, span),
        "ledger": found,
        "balances": [(b, leaderboard._signed(b.balance), None) for b in found.balances],
        "plan": [(a, b, n, None) for a, b, n in found.payments],
        "players": Player.objects.filter(club=request.membership.club),
    }
    return render(request, "seasons/ledger.html", context)


# ---- Running it ----


def league(games: int, seed: int) -> Any:
    """The league's club, generated unless the database already holds it."""
    from django.contrib.auth import get_user_model

    from pitchkeeper.clubs.models import Membership, Role

    club = django_setup.league_club(games, seed)
    owner, _ = get_user_model().objects.get_or_create(username=OWNER)
    Membership.objects.get_or_create(club=club, user=owner, defaults={"role": Role.OWNER})
    return club, owner


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=20, help="timed requests per page")
    parser.add_argument("--naive-runs", type=int, default=3, help="timed replays per page")
    parser.add_argument("--database", type=Path, help="keep (or reuse) the league here")
    parser.add_argument(
        "--naive-all-time", action="store_true", help="also replay all ten years, once"
    )
    options = parser.parse_args()
    if options.database:
        configure(options.database.resolve())
        report(options)
        return
    with tempfile.TemporaryDirectory(prefix="pitchkeeper-bench-") as folder:
        configure(Path(folder) / "league.sqlite3")
        report(options)


def report(options: argparse.Namespace) -> None:
    import django
    from django.db.models import Count
    from django.test import Client
    from django.urls import reverse

    from pitchkeeper.clubs.models import Player
    from pitchkeeper.games.models import Game, Hand
    from pitchkeeper.seasons.models import GameLine, Season
    from pitchkeeper.seasons.spans import span_for

    club, owner = league(options.games, options.seed)
    client = Client(HTTP_X_FORWARDED_PROTO="https")
    client.force_login(owner)
    session = client.session
    session["club"] = club.pk
    session.save()

    current = span_for(club=club, key=None)
    season = current.season or Season.objects.filter(club=club).first()
    busiest = (
        GameLine.objects.filter(club=club).values("player_id").order_by().annotate(n=Count("id"))
    )
    player = Player.objects.get(pk=max(busiest, key=lambda row: row["n"])["player_id"])
    games = Game.objects.filter(club=club).count()
    hands = Hand.objects.filter(game__club=club).count()
    in_season = GameLine.objects.filter(current.moments(), club=club).values("game").distinct()
    print(
        f"Pitchkeeper statistics benchmark: {games} games, {hands} hands, "
        f"{Player.objects.filter(club=club).count()} players; the current season "
        f"({season.name}) holds {in_season.count()} games.\n"
        f"Python {platform.python_version()}, Django {django.get_version()}, "
        f"SQLite {sqlite3.sqlite_version}, DEBUG off, {os.cpu_count()} CPUs, "
        f"{platform.machine()}. {options.runs} rounds after {WARM_UP} warm-up "
        f"({options.naive_runs} for the replays), each case once a round in random order; "
        "medians of the time and of the per-round ratio to the bare view.\n"
    )

    def get(url: str) -> Callable[[], Any]:
        return lambda: checked(200, client.get(url))

    pages = {
        "leaderboard": (reverse("leaderboard"), "/bench/replay/leaderboard/"),
        "player page": (
            reverse("player_stats", args=[player.pk]),
            f"/bench/replay/player/{player.pk}/",
        ),
        "ledger": (reverse("ledger"), "/bench/replay/ledger/"),
    }
    spans = ((season.name, f"?season={season.pk}"), ("all time", "?season=all"))
    cases = [Case(BARE, get("/bench/bare/"))]
    naive = [Case(BARE, get("/bench/bare/"))]
    counts = {BARE: queries(get("/bench/bare/"))}
    for name, (url, replayed) in pages.items():
        for label, query in spans:
            cases.append(Case(f"{name}, {label}", get(url + query)))
            counts[f"{name}, {label}"] = queries(get(url + query))
            if label != "all time" or options.naive_all_time:
                naive.append(Case(f"{name}, {label}, replayed", get(replayed + query)))
    cases += recording_cases(club)

    figures = interleaved(cases, rounds=options.runs, warm_up=WARM_UP)
    print(f"{'request':44} {'median':>10} {'x bare':>9} {'queries':>8}")
    for name, figure in figures.items():
        count = counts.get(name, "")
        print(f"{name:44} {figure.median_ms:7.2f} ms {figure.ratio:8.1f}x {count:>8}")
    if options.naive_runs:
        print()
        slow = interleaved(naive, rounds=options.naive_runs, warm_up=0)
        for name, figure in slow.items():
            if name != BARE:
                derived = figures[name.removesuffix(", replayed")].median_ms
                print(
                    f"{name:44} {figure.median_ms:7.0f} ms {figure.ratio:8.0f}x "
                    f"{'':>8}   ({figure.median_ms / derived:.0f}x the derived page)"
                )


def recording_cases(club: Any) -> list[Case]:
    """Recording a hand in a new game of the league: one that does not end the game, and
    one that wins it (its rows, the rollups, and the rating from that game on). Each is
    checked to do what its name says, or the run stops."""
    from pitchkeeper.clubs.models import Player
    from pitchkeeper.games.hands import hand_record
    from pitchkeeper.games.services import game_create
    from pitchkeeper.rules import HandRecord, resolve_rules
    from pitchkeeper.seasons.models import GameLine

    table = list(Player.objects.filter(club=club)[:3])
    winner = table[1].name
    # The pitcher bids a smudge and takes all four points: in setback that wins at once.
    smudge = HandRecord(pitcher=winner, bid=4, points=dict.fromkeys(SMUDGE, winner))
    made: dict[str, Any] = {}

    def new_game() -> None:
        made["game"] = game_create(
            players=table, first_dealer=table[0], rules=resolve_rules("setback")
        ).game

    def record(hand: HandRecord) -> Callable[[], None]:
        def run() -> None:
            made["state"] = hand_record(game=made["game"], record=hand)

        return run

    def went_on() -> None:
        if made["state"].result.finished:
            raise SystemExit("the hand that should not end the game ended it")
        made["game"].delete()

    def won() -> None:
        result = made["state"].result
        lines = GameLine.objects.filter(game=made["game"]).count()
        if result.winner != winner or result.won_by != "smudge" or lines != len(table):
            raise SystemExit(
                f"the winning hand did not win: winner {result.winner!r}, "
                f"won by {result.won_by!r}, {lines} statistics rows"
            )
        made["game"].delete()

    return [
        Case(
            "recording a hand (the game goes on)",
            record(HandRecord(misdeal=True)),
            new_game,
            went_on,
        ),
        Case("recording the hand that wins the game", record(smudge), new_game, won),
    ]


if __name__ == "__main__":
    main()
