"""Benchmark: how long an edit of an old game holds the database's locks, and how long
a hand saved at another table meanwhile waits, with the re-rating of the later games
queued (as the app runs) and done all at once in the edit's transaction (as before).

Not a test (timings depend on the machine): run it by hand, from the repository root,

    .venv/bin/python bench/bench_edit.py [--games 200] [--rounds 7]
    .venv/bin/python bench/bench_edit.py --database /tmp/league.sqlite3   # keep/reuse it
    .venv/bin/python bench/bench_edit.py --database postgres://pitchkeeper:PASSWORD@127.0.0.1:5432/league60k

(bench/bench_league.py's docstring says how to start a local PostgreSQL for it.)

The league is made by ``manage.py generate_league --seed 1`` (in a temporary folder, or
in --database, reused when it already holds a league). An old game (among the first of
the league) is edited so that its places change: a hand's points swapped between two
players, found by replaying candidates through the engine; the next edit puts it back,
so every round edits the same game and every edit changes places (checked each time
on the game's rows). Meanwhile two other processes, the other tables, each record a hand
in a game of their own and take it back, over and over, and time every save. Their
games are deleted at the end, and the edited hand is put back: the league is left as it
was found.

Each round runs both cases in a fresh random order:

- **queued**: the app as it is. The edit re-rates RERATE_INLINE_GAMES games in its
  own transaction and queues the rest; then the database backend's worker (the code
  of ``manage.py db_worker``, run here in-process with ``--batch``) takes the task and
  re-rates RERATE_STEP_GAMES games per transaction.
- **all at once**: RERATE_INLINE_GAMES past the league's size, so that the edit's own
  transaction re-rates every later game, as every edit did before the queue.

On SQLite a write transaction's hold of the lock is timed from its BEGIN IMMEDIATE
(which takes the one write lock) to the end of its COMMIT, for every transaction of the
edit and the worker, and the other tables' wait is how long each of their writes (the
hand and its removal) waited in BEGIN IMMEDIATE for the lock while the edit and the
re-rating ran. PostgreSQL locks rows as a transaction goes, so there a hold is timed
from a transaction's first statement to the end of its COMMIT, and an other table's
wait is bounded by the same span of its own write: whatever it waited for is inside. Reported:
the medians of each round's figures, and the 90th percentile and maximum of every hold
and every wait over all rounds. At the end the stored ratings are checked against a
full re-rating from the first game.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import django_setup

CASES = ("queued", "all at once")
# Seconds the other table saves alone before and after each edit, and between saves.
QUIET = 0.3
PAUSE = 0.05


# ---- Timing every write transaction's hold of the lock ----


@dataclass
class Holds:
    """The holds of the locks by this thread's connection: each write transaction's
    start and span, in seconds, and (on SQLite) how long each BEGIN IMMEDIATE waited
    for the write lock."""

    begun: float | None = None
    spans: list[tuple[float, float]] = field(default_factory=list)
    waits: list[tuple[float, float]] = field(default_factory=list)

    def install(self) -> None:
        from django.db import connection

        connection.ensure_connection()
        connection.execute_wrappers.append(self._execute)
        for name in ("commit", "rollback"):
            setattr(connection, name, self._ending(getattr(connection, name)))

    def _execute(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        connection = context["connection"]
        start = time.monotonic()
        if self.begun is None and connection.vendor != "sqlite" and connection.in_atomic_block:
            self.begun = start  # PostgreSQL: the transaction's first statement
        try:
            return execute(sql, params, many, context)
        finally:
            if sql.startswith("BEGIN"):  # SQLite's BEGIN IMMEDIATE: the lock is taken
                self.begun = time.monotonic()
                self.waits.append((start, self.begun - start))

    def _ending(self, end: Any) -> Any:
        def ended(*args: Any, **kwargs: Any) -> Any:
            try:
                return end(*args, **kwargs)
            finally:
                if self.begun is not None:
                    self.spans.append((self.begun, time.monotonic() - self.begun))
                    self.begun = None

        return ended

    def take(self) -> list[float]:
        spans, self.spans = self.spans, []
        return [span for _start, span in spans]

    def writes(self) -> list[tuple[float, float]]:
        """Each write's start and its wait: on SQLite in BEGIN IMMEDIATE, on PostgreSQL
        at most its whole transaction."""
        from django.db import connection

        return self.waits if connection.vendor == "sqlite" else self.spans


# ---- The other table: a separate process saving hands ----


def other_table(game_id: int) -> None:
    """Save a hand in ``game_id`` and take it back, over and over, between a "go" and
    a "stop" line on stdin; after each stop print, as JSON, each write's start and how
    long it waited for the lock (Holds.writes)."""
    from django.db import OperationalError

    from pitchkeeper.games.hands import hand_delete, hand_record
    from pitchkeeper.games.models import Game
    from pitchkeeper.games.replay import game_state
    from pitchkeeper.rules import HandRecord

    game = Game.objects.get(pk=game_id)
    pitcher = game_state(game=game).record.seating.players[0]
    points = {"high": pitcher, "low": pitcher, "jack": None, "game": pitcher}
    hand = HandRecord(pitcher=pitcher, bid=2, points=points)
    running = threading.Event()
    holds = Holds()
    failed: list[float] = []

    def loop() -> None:
        holds.install()  # on this thread's own connection
        while True:
            running.wait()
            try:
                state = hand_record(game=game, record=hand)
                hand_delete(game=game, number=len(state.hands))
            except OperationalError:
                # "database is locked": the busy timeout (20 s) ran out; the wait
                # is recorded, the hand was not saved.
                failed.append(holds.writes()[-1][0])
            # A pause, as between two hands (if far shorter): saved back to back,
            # the table would take the lock again before the busy wait of the
            # other writer polls for it.
            time.sleep(PAUSE)

    def guarded() -> None:
        try:
            loop()
        except BaseException:  # a table that stopped saving would leave no figures
            traceback.print_exc()
            os._exit(1)

    threading.Thread(target=guarded, daemon=True).start()
    for line in sys.stdin:
        if line.strip() == "go":
            holds.waits.clear()
            holds.spans.clear()
            failed.clear()
            running.set()
        elif line.strip() == "stop":
            running.clear()
            time.sleep(QUIET)  # a save under way ends
            print(json.dumps({"waits": holds.writes(), "failed": failed}), flush=True)


class Table:
    """The other table's process, driven over its stdin and stdout."""

    def __init__(self, database: str, game_id: int) -> None:
        self.game_id = game_id
        self.process = subprocess.Popen(
            [sys.executable, __file__, "--database", database, "--other-table", str(game_id)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def go(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write("go\n")
        self.process.stdin.flush()

    def stop(self) -> tuple[list[tuple[float, float]], int]:
        """Each write's start and wait for the lock, and how many failed."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write("stop\n")
        self.process.stdin.flush()
        found = json.loads(self.process.stdout.readline())
        return [tuple(save) for save in found["waits"]], len(found["failed"])

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=30)


# ---- The league, the edit and the other table's game ----


@dataclass(frozen=True)
class Edit:
    game_id: int
    number: int
    records: tuple[Any, Any]  # the hand as stored, and as edited


def places_of(result: Any) -> dict[str, int]:
    from pitchkeeper.seasons.derive import places

    return places(result) if result.finished else {}


def find_edit(club: Any) -> Edit:
    """An early game, one of whose hands, with its points swapped between two players,
    gives the game other places (still finished)."""
    from pitchkeeper.games.replay import games_replayed
    from pitchkeeper.rules import RuleError

    early = club.games.exclude(finished_at=None).order_by("finished_at", "pk")[:50]
    pks = list(early.values_list("pk", flat=True))
    for state in games_replayed(games=club.games.filter(pk__in=pks).order_by("finished_at")):
        record, names = state.record, state.record.seating.players
        for index, hand in enumerate(record.hands):
            taken = {v for v in (hand.points or {}).values() if isinstance(v, str)}
            for one in taken & set(names):
                for other in set(names) - {one}:
                    swap = {one: other, other: one}
                    points = {k: swap.get(v, v) for k, v in hand.points.items()}
                    hands = list(record.hands)
                    hands[index] = replace(hand, points=points)
                    try:
                        result = replace(record, hands=tuple(hands)).replay()
                    except RuleError:  # a swap the rules refuse is no candidate
                        continue
                    if result.finished and places_of(result) != places_of(state.result):
                        return Edit(state.game.pk, index + 1, (hand, hands[index]))
    raise SystemExit("no early game found whose places an edit changes")


def table_game(club: Any) -> int:
    """A new game of three of the league's players, with one hand, for the other table."""
    from pitchkeeper.games.hands import hand_record
    from pitchkeeper.games.services import game_create
    from pitchkeeper.rules import HandRecord, resolve_rules

    players = list(club.players.order_by("pk")[:3])
    state = game_create(players=players, first_dealer=players[0], rules=resolve_rules("setback"))
    first = players[1].name
    points = {"high": first, "low": first, "jack": None, "game": first}
    hand_record(game=state.game, record=HandRecord(pitcher=first, bid=2, points=points))
    return state.game.pk


# ---- The rounds ----


@dataclass
class Round:
    case: str
    edit_hold: float
    longest_hold: float
    transactions: int
    total: float
    saves: int
    longest_wait: float
    failed: int
    holds: list[float]
    waits: list[float]


def run_case(
    case: str, edit: Edit, flip: int, club: Any, holds: Holds, tables: list[Table]
) -> Round:
    from django.conf import settings

    from pitchkeeper.games.hands import hand_edit
    from pitchkeeper.games.models import Game
    from pitchkeeper.seasons.models import GameLine, RatingsDue

    settings.RERATE_INLINE_GAMES = 10**9 if case == "all at once" else INLINE
    game = Game.objects.get(pk=edit.game_id)
    before = sorted(GameLine.objects.filter(game=game).values_list("player_id", "place"))
    for table in tables:
        table.go()
    time.sleep(QUIET)
    holds.take()
    start = time.monotonic()
    hand_edit(game=game, number=edit.number, record=edit.records[1 - flip])
    edit_spans = holds.take()
    if case == "queued":
        django_setup.task_worker_turn()
    spans = edit_spans + holds.take()
    end = time.monotonic()
    time.sleep(QUIET)
    saves: list[tuple[float, float]] = []
    failed = 0
    for table in tables:
        their_saves, their_failed = table.stop()
        saves += their_saves
        failed += their_failed
    after = sorted(GameLine.objects.filter(game=game).values_list("player_id", "place"))
    if after == before:
        raise SystemExit(f"the edit did not change the places of game {game.pk}")
    if RatingsDue.objects.filter(club=club).exists():
        raise SystemExit("the ratings were left due")
    during = [seconds for at, seconds in saves if at < end and at + seconds > start]
    if not during:
        raise SystemExit("the other tables wrote nothing meanwhile")
    return Round(
        case,
        max(edit_spans),
        max(spans),
        len(spans),
        end - start,
        len(during),
        max(during),
        failed,
        spans,
        during,
    )


def quiet_waits(table: Table) -> float:
    """The other table's longest wait for the lock with nothing else writing."""
    table.go()
    time.sleep(2)
    return max(seconds for _at, seconds in table.stop()[0])


def ratings_match(club: Any) -> None:
    """The stored ratings equal a full re-rating from the first game (not written)."""
    from pitchkeeper.seasons.models import RatingPoint
    from pitchkeeper.seasons.ratings import _ratings_from

    fresh = {
        (game, player): (round(mu, 9), round(sigma, 9))
        for _key, points in _ratings_from(club_id=club.pk, since=None)
        for _club, game, player, _at, mu, sigma in points
    }
    stored = {
        (game, player): (round(mu, 9), round(sigma, 9))
        for game, player, mu, sigma in RatingPoint.objects.filter(club=club).values_list(
            "game_id", "player_id", "mu", "sigma"
        )
    }
    if fresh != stored:
        raise SystemExit("the stored ratings differ from a full re-rating")


INLINE = 0


def report(options: argparse.Namespace, database: str) -> None:
    global INLINE
    import django
    from django.conf import settings
    from django.core.management import call_command

    from pitchkeeper.seasons.models import GameLine

    club = django_setup.league_club(options.games, options.seed)
    # Whatever an interrupted run left due, so that every round starts up to date.
    call_command("rerate", "--now", stdout=sys.stderr)
    INLINE = settings.RERATE_INLINE_GAMES
    games = club.games.exclude(finished_at=None).count()
    edit = find_edit(club)
    game = club.games.get(pk=edit.game_id)
    later = (
        GameLine.objects.filter(club=club, counted=True, finished_at__gt=game.finished_at)
        .values("game")
        .distinct()
        .count()
    )
    tables = [Table(database, table_game(club)) for _ in range(2)]
    holds = Holds()
    holds.install()
    try:
        quiet = quiet_waits(tables[0])
        rng = random.Random(options.seed)
        rounds: list[Round] = []
        flip = 0
        for number in range(options.warm_up + options.rounds):
            order = list(CASES)
            rng.shuffle(order)
            for case in order:
                found = run_case(case, edit, flip, club, holds, tables)
                flip = 1 - flip
                if number >= options.warm_up:
                    rounds.append(found)
                    print(
                        f"round {number - options.warm_up + 1} {case:>11}: edit holds "
                        f"{found.edit_hold * 1000:8.1f} ms, longest hold "
                        f"{found.longest_hold * 1000:8.1f} ms in {found.transactions:3} "
                        f"transactions, all done in {found.total * 1000:8.1f} ms; other "
                        f"table: {found.saves:3} writes, longest wait "
                        f"{found.longest_wait * 1000:8.1f} ms, {found.failed} failed",
                        flush=True,
                    )
        ratings_match(club)
    finally:
        for table in tables:
            table.close()
            club.games.filter(pk=table.game_id).delete()

    print()
    print(
        f"Python {platform.python_version()}, Django {django.get_version()}, "
        f"{django_setup.database_version()}, {os.cpu_count()} CPUs, load average "
        f"{os.getloadavg()[0]:.1f}; {games} finished games, the edited game (id {game.pk}, "
        f"hand {edit.number}) followed by {later} counted games; RERATE_INLINE_GAMES "
        f"{INLINE}, RERATE_STEP_GAMES {settings.RERATE_STEP_GAMES}, RERATE_PAUSE_MS "
        f"{settings.RERATE_PAUSE_MS}; the other table "
        f"alone waited at most {quiet * 1000:.1f} ms for the lock"
    )
    print()
    print(
        "| case | edit's hold ms | longest hold ms | holds p90 / max ms | transactions "
        "| until re-rated ms | other tables' writes | their longest wait ms "
        "| waits p90 / max ms | failed (locked) |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for case in CASES:
        mine = [r for r in rounds if r.case == case]

        def median(name: str, mine: list[Round] = mine) -> float:
            return statistics.median(getattr(r, name) for r in mine) * 1000

        every_hold = [hold for r in mine for hold in r.holds]
        every_wait = [wait for r in mine for wait in r.waits]
        print(
            f"| {case} | {median('edit_hold'):.1f} | {median('longest_hold'):.1f} | "
            f"{tail(every_hold)} | "
            f"{statistics.median(r.transactions for r in mine):.0f} | {median('total'):.0f} | "
            f"{statistics.median(r.saves for r in mine):.0f} | {median('longest_wait'):.1f} | "
            f"{tail(every_wait)} | {sum(r.failed for r in mine)} |"
        )
    print(
        f"\nMedians of {options.rounds} rounds' figures; p90 / max of every hold and every "
        "wait of all rounds; the stored ratings equal a full re-rating."
    )


def tail(seconds: list[float]) -> str:
    """The 90th percentile and the maximum, in ms."""
    p90 = (
        statistics.quantiles(seconds, n=10, method="inclusive")[-1]
        if len(seconds) > 1
        else seconds[0]
    )
    return f"{p90 * 1000:.1f} / {max(seconds) * 1000:.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--warm-up", type=int, default=1)
    parser.add_argument(
        "--database", help="a SQLite file or a database URL: keep (or reuse) the league there"
    )
    parser.add_argument("--other-table", type=int, metavar="GAME", help=argparse.SUPPRESS)
    options = parser.parse_args()
    # The worker's line per task, not the figures, would fill the screen.
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    if options.other_table:
        django_setup.configure(options.database)
        other_table(options.other_table)
        return
    if options.database:
        database = django_setup.database_url(
            options.database if "://" in options.database else Path(options.database).resolve()
        )
        django_setup.configure(database)
        report(options, database)
        return
    with tempfile.TemporaryDirectory(prefix="pitchkeeper-bench-") as folder:
        database = django_setup.database_url(Path(folder) / "league.sqlite3")
        django_setup.configure(database)
        report(options, database)


if __name__ == "__main__":
    main()
