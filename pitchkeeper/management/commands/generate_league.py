"""A realistic synthetic league for the statistics' scale tests and benchmark.

    manage.py generate_league --games 50000 --seed 1

One club of about thirty players playing nightly for ten years: setback, auction pitch
and partnership (for chips) at tables of three to six. Every hand is dealt through the
rules engine: the auction bid by bid from ``legal_bids``, the points given out at random
(a player's hidden skill and the pitcher's bid tilting them), and the hand played by the
engine, which refuses anything illegal. A forked process simulates the next batches
of games while this one writes the last (one process still draws every random number
in order, so the same seed gives the same league); rows are written in one
``executemany`` per table, the derived statistics from the same ``seasons.derive.derive``
that every saved game goes through, then the rollups and the ratings in one pass each.
"""

from __future__ import annotations

import functools
import multiprocessing
import random
import time as clock
from collections.abc import Callable, Iterator
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from typing import Any, TypeVar

from django.core.management.base import BaseCommand, CommandParser
from django.db import DEFAULT_DB_ALIAS, connection, connections, models, transaction
from django.db.models import F
from django.utils import timezone

from pitchkeeper.clubs.models import Club, Membership, Player, Role

# The exact columns games.hands.game_save writes for a hand, so generated hands are stored as
# recorded ones are.
from pitchkeeper.games.hands import hand_fields
from pitchkeeper.games.models import Game, Hand, Seat
from pitchkeeper.games.replay import standing_of
from pitchkeeper.rules import (
    GameRecord,
    GameResult,
    HandRecord,
    RuleError,
    Ruleset,
    Seating,
    Team,
    legal_bids,
    resolve_rules,
)

# The engine's running game, played one hand at a time: replay() would replay the whole
# game again for every hand dealt.
from pitchkeeper.rules.engine import RunningGame
from pitchkeeper.seasons.derive import derive, rollups_rebuild
from pitchkeeper.seasons.models import Season
from pitchkeeper.seasons.ratings import ratings_recompute

NAMES = (
    "Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kit", "Lou",
    "Max", "Ned", "Olga", "Pat", "Quinn", "Rae", "Sam", "Tess", "Uma", "Vic", "Walt",
    "Xena", "Yuri", "Zoe", "Ingrid", "Sven", "Nadia", "Oleg", "Mia", "Lars",
)  # fmt: skip
# (rules, share of games, table sizes): the longer games many pubs play.
KINDS: tuple[tuple[Any, float, tuple[int, ...]], ...] = (
    ({"preset": "setback", "target": 11}, 0.55, (3, 4, 4, 5, 6)),
    ({"preset": "auction-pitch", "target": 15}, 0.25, (3, 4, 5)),
    ({"preset": "partnership", "target": 21, "settlement": "chips"}, 0.20, (4, 4, 6)),
)
BATCH = 500
# Work ahead of the writer by at most this many batches.
AHEAD = 4
T = TypeVar("T")
MAX_HANDS = 150
CHIP_VALUE = Decimal("0.25")


# A simulated game: its rules, seating, hands, the engine's result and its finish.
Played = tuple[Ruleset, Seating, list[HandRecord], GameResult, datetime]


class Command(BaseCommand):
    help = "Make a synthetic league (a club, players, ten years of games) for scale tests."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=50_000)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--players", type=int, default=30)
        parser.add_argument("--years", type=int, default=10)
        parser.add_argument("--club", default="Synthetic league", help="The new club's name.")
        parser.add_argument("--owner", help="Username made owner of the club, to look at it.")

    def handle(self, *args: Any, **options: Any) -> None:
        started = clock.perf_counter()
        league = League(options["seed"], options["players"], options["years"], options["games"])
        if connection.vendor == "sqlite":
            # Index pages of a million rows stay in memory (256 MB) rather than the
            # default 2 MB, which the inserts outgrow within the first thousand games.
            with connection.cursor() as cursor:
                cursor.execute("PRAGMA cache_size = -262144")
        with transaction.atomic():
            club = league.create(options["club"], options["owner"])
            hands = 0
            for done, batch_hands in league.play(club):
                hands += batch_hands
                self.stdout.write(
                    f"{done}/{options['games']} games, {hands} hands, "
                    f"{clock.perf_counter() - started:.0f} s"
                )
            rollups_rebuild(club_id=club.pk)
            self.stdout.write(f"rollups, {clock.perf_counter() - started:.0f} s")
            rated = ratings_recompute(club_id=club.pk)
            self.stdout.write(f"{rated} games rated, {clock.perf_counter() - started:.0f} s")
            # auto_now_add stamped every game with today; a game starts before it ends.
            club.games.exclude(finished_at=None).update(
                created=F("finished_at") - timedelta(minutes=40)
            )
        self.stdout.write(
            self.style.SUCCESS(
                f"Club {club.pk} ({club.name}): {options['games']} games, {hands} hands "
                f"in {clock.perf_counter() - started:.0f} s"
            )
        )


class League:
    def __init__(self, seed: int, players: int, years: int, games: int) -> None:
        self.random = random.Random(seed)
        self.size = min(players, len(NAMES))
        self.games = games
        self.last_day = timezone.localdate() - timedelta(days=1)
        self.first_day = self.last_day.replace(year=self.last_day.year - years) + timedelta(days=1)
        self.rules = {
            str(kind): (resolve_rules(kind), share, sizes) for kind, share, sizes in KINDS
        }

    def create(self, name: str, owner: str | None) -> Club:
        club = Club.objects.create(name=name)
        if owner:
            from django.contrib.auth import get_user_model

            user = get_user_model().objects.get(username=owner)
            Membership.objects.create(club=club, user=user, role=Role.OWNER)
        self.players = Player.objects.bulk_create(
            Player(club=club, name=name) for name in NAMES[: self.size]
        )
        # Hidden skill: how much more often a player takes the points, and how boldly bids.
        self.skill = {p.name: self.random.gauss(0, 0.6) for p in self.players}
        self.boldness = {p.name: self.random.uniform(0.3, 0.8) for p in self.players}
        Season.objects.bulk_create(
            Season(club=club, name=str(year), start=date(year, 1, 1), end=date(year, 12, 31))
            for year in range(self.first_day.year, self.last_day.year + 1)
        )
        return club

    def finish_time(self, index: int) -> datetime:
        """Game ``index``'s finish: the nights in order, the evening's games 15 minutes
        apart from half past six."""
        days = (self.last_day - self.first_day).days + 1
        day = index * days // self.games
        first_of_day = -(-day * self.games // days)
        moment = datetime.combine(self.first_day + timedelta(days=day), time(18, 30))
        moment += timedelta(minutes=15 * (index - first_of_day) + self.random.randint(0, 14))
        return timezone.make_aware(moment)

    def simulated(self) -> Iterator[list[Played]]:
        """The games simulated in order, a batch at a time."""
        for start in range(0, self.games, BATCH):
            yield [self.simulate(index) for index in range(start, min(start + BATCH, self.games))]

    def play(self, club: Club) -> Any:
        """Simulate and write the games a batch at a time, yielding progress."""
        ids = {p.name: p.pk for p in self.players}
        done = 0
        for played in _ahead(self.simulated):
            games = Game.objects.bulk_create(
                Game(
                    club=club,
                    rules=rules.to_dict(),
                    first_dealer_id=ids[seating.players[0]],
                    chip_value=CHIP_VALUE,
                    # The version its hands are written with (Hand's default).
                    revision=1,
                    finished_at=finished_at if result.finished else None,
                    winner_id=ids.get(result.winner or ""),
                    winner_team=result.winner if seating.teams and result.winner else "",
                    won_by=result.won_by or "",
                    standing=standing_of(result, seating, ids),
                )
                for rules, seating, _records, result, finished_at in played
            )
            seats, hands, lines, counts = [], [], [], []
            for game, (rules, seating, records, result, _at) in zip(games, played, strict=True):
                team_of = {m: t.name for t in seating.teams for m in t.members}
                seats += [
                    Seat(game=game, player_id=ids[name], position=i, team=team_of.get(name, ""))
                    for i, name in enumerate(seating.players)
                ]
                pairs = zip(records, result.hands, strict=True)
                hands += [
                    Hand(game=game, number=n, **hand_fields(record, hand, ids, seating))
                    for n, (record, hand) in enumerate(pairs, start=1)
                ]
                record = GameRecord(rules, seating, seating.players[0], tuple(records))
                new_lines, new_counts = derive(game=game, record=record, result=result, ids=ids)
                lines += new_lines
                counts += new_counts
            for rows in (seats, hands, lines, counts):
                _insert(rows)
            done += len(played)
            yield done, len(hands)

    def pick_kind(self) -> tuple[Ruleset, tuple[int, ...]]:
        roll = self.random.random()
        for rules, share, sizes in self.rules.values():
            if roll < share:
                return rules, sizes
            roll -= share
        return rules, sizes

    def simulate(self, index: int) -> Played:
        rules, sizes = self.pick_kind()
        names = self.random.sample([p.name for p in self.players], self.random.choice(sizes))
        teams: tuple[Team, ...] = ()
        if rules.partnership:
            teams = (Team("North", tuple(names[0::2])), Team("South", tuple(names[1::2])))
        seating = Seating(tuple(names), teams)
        game = RunningGame(
            rules,
            seating,
            dealer=names[0],
            scores=dict.fromkeys(seating.sides, 0),
            setbacks=dict.fromkeys(seating.sides, 0),
            tiebreak=dict.fromkeys(seating.sides, 0),
        )
        records: list[HandRecord] = []
        while game.won_by is None and len(records) < MAX_HANDS:
            record = self.hand(game)
            try:
                game.play(record)
            except RuleError:
                record = HandRecord(misdeal=True)
                game.play(record)
            records.append(record)
        result = game.result()
        return rules, seating, records, result, self.finish_time(index)

    def hand(self, game: RunningGame) -> HandRecord:
        """One legal hand at this point of the game."""
        rules, seating, rng = game.rules, game.seating, self.random
        if rng.random() < 0.01:
            return HandRecord(misdeal=True)
        # Each player's hand strength this deal: the stronger, the higher they will go.
        strength = {
            name: min(1.0, max(0.0, rng.random() + 0.08 * self.skill[name]))
            for name in seating.players
        }
        auction: list[tuple[str, Any]] = []
        for _seat in seating.players:
            player, open_to, may_pass = legal_bids(
                rules, seating, game.dealer, auction, game.scores
            )
            reach = int(strength[player] ** (1.5 - self.boldness[player]) * 4.0) - 1
            if open_to and (not may_pass or reach >= _level(rules, open_to[0])):
                auction.append((player, open_to[0]))
            else:
                auction.append((player, None))
        bids = [(name, bid) for name, bid in auction if bid is not None]
        if not bids:
            return HandRecord(auction=tuple(auction))
        pitcher, bid = bids[-1]
        side = seating.side_of(pitcher)
        sides = seating.sides
        # The pitcher bid on a good hand: their side takes each point more often than
        # not, the others share the rest, the more skilful more often.
        others = [s for s in sides if s != side]
        weights = [max(1.0 + self._side_skill(seating, s), 0.1) for s in others]
        keep = 0.42 + 0.3 * strength[pitcher] + 0.05 * self._side_skill(seating, side)

        def taker() -> str:
            return side if rng.random() < keep else rng.choices(others, weights)[0]

        sweep = rules.is_smudge(bid) and rng.random() < 0.1
        points: dict[str, Any] = {}
        for category in rules.categories:
            if sweep:
                points[category.key] = (
                    side if category.kind == "one" else {side: category.max_count or 0}
                )
            elif category.kind == "count":
                counts: dict[str, int] = {}
                for _card in range(category.max_count or 0):
                    if rng.random() < 0.8:
                        who = taker()
                        counts[who] = counts.get(who, 0) + 1
                points[category.key] = counts
            elif not category.required and rng.random() < (0.25 if category.key == "jack" else 0.1):
                points[category.key] = None
            else:
                points[category.key] = taker()
        revoked = (rng.choice(seating.players),) if rng.random() < 0.005 else ()
        every_trick = sweep and rules.smudge == "all_tricks"
        return HandRecord(
            auction=tuple(auction), points=points, revoked=revoked, all_tricks=every_trick
        )

    def _side_skill(self, seating: Seating, side: str) -> float:
        team = next((t for t in seating.teams if t.name == side), None)
        members = team.members if team else (side,)
        return sum(self.skill[m] for m in members) / len(members)


def _ahead(produce: Callable[[], Iterator[T]]) -> Iterator[T]:
    """The items of ``produce()``, made in a second process while this one writes the
    ones before: simulating the games and writing them take about as long as each other,
    so on two cores the league is made in about half the time, and the very same league,
    as one process still draws every random number in order. The child is forked and
    never touches the database."""
    context = multiprocessing.get_context("fork")
    queue = context.Queue(maxsize=AHEAD)

    def run() -> None:
        try:
            for item in produce():
                queue.put((True, item))
            queue.put((False, None))
        except BaseException as error:
            queue.put((False, error))
            raise

    worker = context.Process(target=run, daemon=True)
    worker.start()
    try:
        while True:
            more, item = queue.get()
            if not more:
                if item is not None:
                    raise item
                return
            yield item
    finally:
        worker.terminate()
        worker.join()


def _insert(rows: list[Any]) -> None:
    """Write model instances of one kind in one ``executemany``: bulk_create compiles
    every value of every row through the ORM, which took half the time of a league.
    Only the columns whose stored form differs from the Python value go through the
    field's own conversion (the dates, repeated on every row of a game, once each)."""
    if not rows:
        return
    meta = rows[0]._meta
    fields = [f for f in meta.concrete_fields if not f.primary_key]
    # The connection itself, not the per-thread proxy looked up on every use.
    database = connections[DEFAULT_DB_ALIAS]

    def converter(field: models.Field[Any, Any]) -> Callable[[Any], Any] | None:
        plain = (models.IntegerField, models.CharField, models.BooleanField, models.ForeignKey)
        if isinstance(field, plain):
            return None
        convert = functools.partial(field.get_db_prep_save, connection=database)
        if isinstance(field, models.DateField):
            return functools.lru_cache(maxsize=1024)(convert)
        return convert

    pairs = [(f.attname, converter(f)) for f in fields]
    quote = database.ops.quote_name
    sql = (
        f"INSERT INTO {quote(meta.db_table)} ({', '.join(quote(f.column) for f in fields)}) "
        f"VALUES ({', '.join(['%s'] * len(fields))})"
    )
    values = [
        [getattr(row, name) if how is None else how(getattr(row, name)) for name, how in pairs]
        for row in rows
    ]
    with database.cursor() as cursor:
        cursor.executemany(sql, values)


def _level(rules: Ruleset, bid: Any) -> int:
    """How far a bid is above the lowest: 0 for the lowest numbered bid; word bids
    ("6x2", "moon") a step above their number, moon bids at the top."""
    if isinstance(bid, int):
        return bid - rules.min_bid
    number = bid.split("x")[0]
    return int(number) - rules.min_bid + 1 if number.isdigit() else 9
