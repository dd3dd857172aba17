"""A club night: several tables at once, round after round. The tables each round
proposes, the check of a seating a person changed, and the night's standing and payout.

Seed 004, Contway: "Если играется несколько игр, партнёры ротируются, чтобы выполнить
все возможности партнёрства. Партнёрство в больших группах или нескольких столах
делается случайно" (partners rotate through every partnership; in larger groups and at
several tables they are drawn), wins are counted per person, and at the end of the whole
game a winner is declared and everybody is paid.

A table is a tuple of teams, each a tuple of players: two players a team in a partnership
game, one in a cutthroat one. The rounds are planned together (``night_plan``), from the
rounds already played, so that over the night everybody partners as many different
players as the rounds allow and meets the same opponents as rarely; the plan is seeded, so
the same night, players and rounds give the same tables.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Literal

from .errors import RuleError
from .payments import Plan, settle_up
from .ruleset import Ruleset

# A repeated partner costs as much as this many repeated opponents: partners rotate first.
PARTNER_WEIGHT = 100
# Swaps tried per player and round when a night is planned. 32 players over 10 rounds
# take about a second; the figures against the best possible are in the README.
SWAPS_PER_SEAT = 60

Pair = tuple[str, str]


@dataclass(frozen=True)
class Table:
    teams: tuple[tuple[str, ...], ...]

    @property
    def players(self) -> tuple[str, ...]:
        """Clockwise from the first seat: partners sit apart, one of each team in turn."""
        widest = max(len(team) for team in self.teams)
        return tuple(team[i] for i in range(widest) for team in self.teams if i < len(team))


@dataclass(frozen=True)
class Round:
    tables: tuple[Table, ...]
    sitting_out: tuple[str, ...] = ()

    @property
    def seated(self) -> tuple[str, ...]:
        return tuple(name for table in self.tables for name in table.players)


@dataclass(frozen=True)
class Format:
    """How a night's tables are made: partners or cutthroat, and the players a table
    may have (the preset's, and at most 7 for cutthroat, at most 6 with partners)."""

    partnership: bool
    fewest: int
    most: int

    @classmethod
    def of(cls, rules: Ruleset) -> Format:
        if rules.partnership:
            return cls(True, max(4, rules.min_players), min(6, rules.max_players))
        return cls(False, max(3, rules.min_players), min(7, rules.max_players))

    @property
    def team_size(self) -> int:
        return 2 if self.partnership else 1


def table_sizes(count: int, form: Format) -> tuple[int, ...]:
    """The players at each table when ``count`` are here: as many seated as can be, in
    tables as near four players as the format allows, the larger first. Empty when
    there are too few for one table."""
    step = form.team_size
    for seated in range(count - count % step, form.fewest - 1, -step):
        tables = max(1, round(seated / 4))
        for k in sorted(range(1, seated // form.fewest + 1), key=lambda k: abs(k - tables)):
            base, extra = divmod(seated // step, k)
            sizes = [(base + (i < extra)) * step for i in range(k)]
            if form.fewest <= min(sizes) and max(sizes) <= form.most:
                return tuple(sizes)
    return ()


def sitting_out_next(
    present: Sequence[str], played: Sequence[Round], count: int, rng: random.Random
) -> tuple[str, ...]:
    """Who sits out a round where ``count`` must: those who sat out least so far, and of
    them who sat out longest ago, so nobody sits out twice before everyone has once."""
    times = Counter(name for r in played for name in r.sitting_out)
    last = {name: i for i, r in enumerate(played) for name in r.sitting_out}
    draw = {name: rng.random() for name in present}
    order = sorted(present, key=lambda n: (times[n], last.get(n, -1), draw[n]))
    return tuple(order[:count])


def _pairs(table: Table) -> Iterable[tuple[bool, Pair]]:
    """Each two players at ``table``: (True, pair) for partners, (False, pair) for
    opponents."""
    for i, team in enumerate(table.teams):
        for a, b in combinations(team, 2):
            yield True, (min(a, b), max(a, b))
        for other in table.teams[i + 1 :]:
            for a in team:
                for b in other:
                    yield False, (min(a, b), max(a, b))


@dataclass
class Meetings:
    """How often each two players were partners and opponents over some rounds."""

    partners: Counter[Pair]
    opponents: Counter[Pair]

    @classmethod
    def of(cls, rounds: Iterable[Round]) -> Meetings:
        meetings = cls(Counter(), Counter())
        for r in rounds:
            for table in r.tables:
                meetings.add(table, 1)
        return meetings

    def add(self, table: Table, sign: int) -> int:
        """Counts ``table`` in (sign 1) or out (-1); the change in ``cost``."""
        change = 0
        for partners, pair in _pairs(table):
            counter = self.partners if partners else self.opponents
            before = counter[pair]
            counter[pair] = before + sign
            # A pair's cost is its repeats, n(n-1)/2, which moves by n (or n - 1) a meeting.
            step = before if sign > 0 else before - 1
            change += sign * step * (PARTNER_WEIGHT if partners else 1)
        return change

    @property
    def cost(self) -> int:
        """What a plan minimises: every two players' repeated meetings, n(n-1)/2 for n
        meetings, a partner's weighing ``PARTNER_WEIGHT`` opponents'."""
        partners = sum(n * (n - 1) // 2 for n in self.partners.values())
        return PARTNER_WEIGHT * partners + sum(n * (n - 1) // 2 for n in self.opponents.values())

    @property
    def repeated_partners(self) -> int:
        return sum(n - 1 for n in self.partners.values() if n > 1)

    @property
    def repeated_opponents(self) -> int:
        return sum(n - 1 for n in self.opponents.values() if n > 1)


def fewest_repeats(rounds: Sequence[Round], form: Format) -> tuple[int, int]:
    """A lower bound on the repeated partners and opponents of any night that seats the
    same players in the same rounds and sizes of table: a player seated r times beside
    k others has at least r·k - (n - 1) meetings with somebody met before, per kind."""
    everyone = {name for r in rounds for name in (*r.seated, *r.sitting_out)}
    n = len(everyone)
    slots_p: Counter[str] = Counter()
    slots_o: Counter[str] = Counter()
    for r in rounds:
        for table in r.tables:
            for team in table.teams:
                for name in team:
                    slots_p[name] += len(team) - 1
                    slots_o[name] += len(table.players) - len(team)
    partners = sum(max(0, s - (n - 1)) for s in slots_p.values())
    opponents = sum(max(0, s - (n - 1)) for s in slots_o.values())
    # Each repeat is one pair's, counted once from each of its two players.
    return (partners + 1) // 2, (opponents + 1) // 2


def _first_tables(
    seated: Sequence[str], sizes: Sequence[int], form: Format, turn: int
) -> tuple[Table, ...]:
    """A starting seating: with partners, the round-robin ("circle") pairing of turn
    ``turn``, which pairs each player with a new partner for len(seated) - 1 turns; then
    the teams in order to the tables."""
    names = list(seated)
    if form.partnership:
        fixed, ring = names[0], names[1:]
        shift = turn % len(ring)
        ring = ring[shift:] + ring[:shift]
        circle = [fixed, *ring]
        half = len(circle) // 2
        teams = [(circle[i], circle[-1 - i]) for i in range(half)]
    else:
        shift = (turn * 3) % len(names)
        names = names[shift:] + names[:shift]
        teams = [(name,) for name in names]
    tables, at = [], 0
    for size in sizes:
        count = size // form.team_size
        tables.append(Table(tuple(teams[at : at + count])))
        at += count
    return tuple(tables)


def _swapped(r: Round, a: tuple[int, int, int], b: tuple[int, int, int]) -> Round:
    """``r`` with the players at (table, team, place) ``a`` and ``b`` swapped."""
    grid = {t: [list(team) for team in r.tables[t].teams] for t in (a[0], b[0])}
    (ta, ea, pa), (tb, eb, pb) = a, b
    grid[ta][ea][pa], grid[tb][eb][pb] = grid[tb][eb][pb], grid[ta][ea][pa]
    tables = list(r.tables)
    for t, teams in grid.items():
        tables[t] = Table(tuple(tuple(team) for team in teams))
    return Round(tuple(tables), r.sitting_out)


def night_plan(
    present: Sequence[str], played: Sequence[Round], form: Format, *, rounds: int, seed: int
) -> tuple[Round, ...]:
    """The next ``rounds`` rounds for the players ``present``, after the rounds
    ``played``: who sits out (in turn), then the tables, improved by swapping two
    players at a time while it repeats fewer partners, then fewer opponents (a swap that
    changes nothing is taken too, so the search wanders instead of stopping)."""
    sizes = table_sizes(len(present), form)
    if not sizes:
        raise RuleError(
            "night_too_few", {"count": len(present), "least": form.fewest}, field="players"
        )
    rng = random.Random(seed * 1_000_003 + len(played))
    order = sorted(present, key=lambda name: rng.random())
    plan: list[Round] = []
    for turn in range(rounds):
        out = sitting_out_next(order, [*played, *plan], len(order) - sum(sizes), rng)
        seated = [name for name in order if name not in out]
        plan.append(Round(_first_tables(seated, sizes, form, len(played) + turn), out))
    if len(sizes) == 1 and not form.partnership:
        return tuple(plan)  # one cutthroat table: everybody meets everybody anyway
    meetings = Meetings.of([*played, *plan])
    places = [
        (t, e, p)
        for t, size in enumerate(sizes)
        for e in range(size // form.team_size)
        for p in range(form.team_size)
    ]
    repeats = meetings.cost
    partners, opponents = fewest_repeats([*played, *plan], form)
    best = PARTNER_WEIGHT * partners + opponents
    for _ in range(SWAPS_PER_SEAT * len(places) * rounds):
        if repeats <= best:
            break  # as few repeats as any plan can have
        i = rng.randrange(rounds)
        a, b = rng.sample(places, 2)
        if a[:2] == b[:2]:
            continue  # the same team, or the same player's two places
        before, after = plan[i], _swapped(plan[i], a, b)
        changed = {a[0], b[0]}
        cost = sum(
            meetings.add(before.tables[t], -1) + meetings.add(after.tables[t], 1) for t in changed
        )
        if cost <= 0:
            plan[i] = after
            repeats += cost
            continue
        for t in changed:
            meetings.add(after.tables[t], -1)
            meetings.add(before.tables[t], 1)
    return tuple(plan)


def progressive_round(
    finished: Sequence[Sequence[str]], present: Sequence[str], form: Format, *, seed: int
) -> Round:
    """Winners move up (a cutthroat night): ``finished`` holds each table's players in
    finishing order, the top table first. Each table's winner moves up a table (the top
    table's stays) and its last moves down (the bottom table's stays); who has left is
    dropped and who has come sits at the bottom table. When that leaves a table outside
    the format, the round is planned afresh instead."""
    tables = [list(order) for order in finished]
    for upper in range(len(tables) - 1):
        winner, last = finished[upper + 1][0], finished[upper][-1]
        tables[upper].remove(last)
        tables[upper + 1].remove(winner)
        tables[upper].append(winner)
        tables[upper + 1].append(last)
    here = set(present)
    seated = {name for table in tables for name in table}
    tables[-1] += [name for name in present if name not in seated]
    kept = [[name for name in table if name in here] for table in tables]
    moved = Round(tuple(Table(tuple((name,) for name in table)) for table in kept if table))
    try:
        seating_check(moved, present, form)
    except RuleError:
        return night_plan(present, (), form, rounds=1, seed=seed)[0]
    return moved


def seating_check(r: Round, present: Sequence[str], form: Format) -> None:
    """Refuses a round a person arranged that cannot be played: somebody at two tables
    (or seated and sitting out), somebody not here, a table outside the format's size, or
    teams that are not pairs."""
    counts = Counter([*r.seated, *r.sitting_out])
    twice = sorted(name for name, n in counts.items() if n > 1)
    if twice:
        raise RuleError("night_seated_twice", {"name": twice[0]}, field="tables")
    stranger = next((name for name in counts if name not in set(present)), None)
    if stranger is not None:
        raise RuleError("night_not_here", {"name": stranger}, field="tables")
    for number, table in enumerate(r.tables, 1):
        size = len(table.players)
        if size < form.fewest:
            raise RuleError(
                "night_table_small",
                {"table": number, "count": size, "least": form.fewest},
                field="tables",
            )
        if size > form.most:
            raise RuleError(
                "night_table_large",
                {"table": number, "count": size, "most": form.most},
                field="tables",
            )
        if any(len(team) != form.team_size for team in table.teams):
            raise RuleError("night_teams", {"table": number}, field="tables")


@dataclass(frozen=True)
class NightGame:
    """One game of the night as the standing reads it: each player's final score (the
    score of their side), whether they won, and the chips the game settled on them."""

    scores: Mapping[str, int]
    winners: frozenset[str]
    chips: Mapping[str, int]


@dataclass(frozen=True)
class Standing:
    player: str
    games: int
    wins: int
    points: int
    chips: int


Order = Literal["wins", "chips"]


def night_standing(games: Iterable[NightGame], *, order: Order = "wins") -> tuple[Standing, ...]:
    """Each player's games, wins, points and chips over the night's finished games, by
    wins (then chips, then points) or by chips (then wins, then points); per person, not
    per partnership (seed 004, Contway)."""
    rows: dict[str, list[int]] = {}
    for game in games:
        for name, score in game.scores.items():
            row = rows.setdefault(name, [0, 0, 0, 0])
            row[0] += 1
            row[1] += name in game.winners
            row[2] += score
            row[3] += game.chips.get(name, 0)
    standing = [Standing(name, *row) for name, row in rows.items()]

    def key(s: Standing) -> tuple[int, int, int, str]:
        first, second = (s.wins, s.chips) if order == "wins" else (s.chips, s.wins)
        return (-first, -second, -s.points, s.player.casefold())

    return tuple(sorted(standing, key=key))


def night_payout(games: Iterable[NightGame]) -> Plan:
    """One settlement for the night: every game's chips summed per person, as the
    fewest payments."""
    total: Counter[str] = Counter()
    for game in games:
        total.update(game.chips)
    return settle_up(dict(total))
