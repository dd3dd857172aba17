"""A club night's rules: the table sizes, the plan of the rounds (partners rotated,
opponents spread, sit-outs in turn, the same plan from the same seed), winners moving up,
the check of a seating a person changed, and the night's standing and payout."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pitchkeeper.rules.errors import RuleError
from pitchkeeper.rules.nights import (
    Format,
    Meetings,
    NightGame,
    Round,
    Table,
    fewest_repeats,
    night_payout,
    night_plan,
    night_standing,
    progressive_round,
    seating_check,
    table_sizes,
)
from pitchkeeper.rules.presets import PRESETS

PARTNERS = Format(partnership=True, fewest=4, most=4)
CUTTHROAT = Format(partnership=False, fewest=3, most=7)


def names(count: int) -> list[str]:
    return [f"P{i}" for i in range(count)]


@pytest.mark.parametrize(
    ("preset", "expected"),
    [
        ("setback", Format(False, 3, 7)),
        ("partnership", Format(True, 4, 6)),
        ("nine-five", Format(True, 4, 4)),
        ("razzle-dazzle", Format(False, 4, 6)),
        ("susqy-river", Format(False, 3, 6)),
    ],
)
def test_a_presets_format(preset, expected):
    assert Format.of(PRESETS[preset]) == expected


@pytest.mark.parametrize(
    ("count", "form", "sizes"),
    [
        (7, CUTTHROAT, (4, 3)),
        (8, CUTTHROAT, (4, 4)),
        (9, CUTTHROAT, (5, 4)),
        (10, CUTTHROAT, (5, 5)),
        (3, CUTTHROAT, (3,)),
        (2, CUTTHROAT, ()),
        (8, PARTNERS, (4, 4)),
        (9, PARTNERS, (4, 4)),  # one sits out
        (11, PARTNERS, (4, 4)),  # three sit out
        (3, PARTNERS, ()),
        (6, Format(True, 4, 6), (6,)),  # three teams of two rather than two out
        (10, Format(True, 4, 6), (6, 4)),
        (7, Format(False, 4, 6), (6,)),  # no two tables of four or more: one sits out
    ],
)
def test_table_sizes(count, form, sizes):
    assert table_sizes(count, form) == sizes


@pytest.mark.parametrize("seed", range(12))
def test_four_players_get_all_three_partnerships_in_three_rounds(seed):
    plan = night_plan(names(4), (), PARTNERS, rounds=3, seed=seed)
    partnerships = {frozenset(team) for r in plan for t in r.tables for team in t.teams}
    assert len(partnerships) == 6  # each round's two teams, none twice


@pytest.mark.parametrize("seed", range(6))
def test_eight_players_partner_each_other_exactly_once_in_seven_rounds(seed):
    plan = night_plan(names(8), (), PARTNERS, rounds=7, seed=seed)
    partners = Meetings.of(plan).partners
    assert set(partners) == {tuple(sorted(p)) for p in combinations(names(8), 2)}
    assert set(partners.values()) == {1}


def test_a_plan_is_its_seed():
    first = night_plan(names(11), (), PARTNERS, rounds=5, seed=7)
    assert night_plan(names(11), (), PARTNERS, rounds=5, seed=7) == first
    assert night_plan(names(11), (), PARTNERS, rounds=5, seed=8) != first


def test_the_rounds_played_are_planned_around():
    """After three rounds played by four, a fifth arrives: the next rounds give nobody
    a partner they had while somebody they have not had is left."""
    played = night_plan(names(4), (), PARTNERS, rounds=3, seed=1)
    plan = night_plan(names(5), played, PARTNERS, rounds=1, seed=1)
    (table,) = plan[0].tables
    assert plan[0].sitting_out != ("P4",)  # the newcomer does not sit out first
    for team in table.teams:
        if "P4" not in team:
            assert Meetings.of(played).partners[tuple(sorted(team))] == 0 or plan[0].sitting_out


@settings(max_examples=60, deadline=None)
@given(
    count=st.integers(4, 14),
    rounds=st.integers(1, 6),
    partnership=st.booleans(),
    seed=st.integers(0, 2**63 - 1),
)
def test_every_planned_round_can_be_played_and_sit_outs_rotate(count, rounds, partnership, seed):
    form = PARTNERS if partnership else CUTTHROAT
    present = names(count)
    plan = night_plan(present, (), form, rounds=rounds, seed=seed)
    sat_out: Counter[str] = Counter()
    for r in plan:
        seating_check(r, present, form)
        assert sorted([*r.seated, *r.sitting_out]) == sorted(present)
        sat_out.update(r.sitting_out)
        # Nobody sits out twice before everyone has once.
        assert max(sat_out[name] for name in present) - min(sat_out[name] for name in present) <= 1
    partners, opponents = fewest_repeats(plan, form)
    meetings = Meetings.of(plan)
    assert meetings.repeated_partners >= partners and meetings.repeated_opponents >= opponents


def test_too_few_for_a_table_is_refused():
    with pytest.raises(RuleError) as refused:
        night_plan(names(3), (), PARTNERS, rounds=1, seed=0)
    assert refused.value.code == "night_too_few"
    assert refused.value.params == {"count": 3, "least": 4}


def cutthroat(*tables: str) -> Round:
    return Round(tuple(Table(tuple((name,) for name in t.split())) for t in tables))


def test_winners_move_up_and_losers_down():
    finished = [["A", "B", "C", "D"], ["E", "F", "G"], ["H", "I", "J"]]
    moved = progressive_round(finished, "ABCDEFGHIJ", CUTTHROAT, seed=0)
    # E and H move up a table, D and G down one; A stays on top, J at the bottom.
    assert moved == cutthroat("A B C E", "F D H", "I J G")


def test_progressive_drops_who_left_and_seats_who_came_at_the_bottom():
    finished = [["A", "B", "C", "D"], ["E", "F", "G", "H"]]
    moved = progressive_round(finished, [*"ABCEFGH", "K"], CUTTHROAT, seed=0)
    assert moved == cutthroat("A B C E", "F G H K")


def test_progressive_is_planned_afresh_when_a_table_would_be_too_small():
    finished = [["A", "B", "C", "D"], ["E", "F", "G"]]
    moved = progressive_round(finished, "ABCDE", CUTTHROAT, seed=3)
    seating_check(moved, "ABCDE", CUTTHROAT)
    assert sorted(moved.seated) == list("ABCDE")


@pytest.mark.parametrize(
    ("round_", "code", "params"),
    [
        (cutthroat("A B C", "C D E"), "night_seated_twice", {"name": "C"}),
        (Round(cutthroat("A B C").tables, ("A",)), "night_seated_twice", {"name": "A"}),
        (cutthroat("A B Z"), "night_not_here", {"name": "Z"}),
        (cutthroat("A B C D E", "F G"), "night_table_small", {"table": 2, "count": 2, "least": 3}),
    ],
)
def test_a_seating_that_cannot_be_played_is_refused(round_, code, params):
    with pytest.raises(RuleError) as refused:
        seating_check(round_, "ABCDEFG", CUTTHROAT)
    assert (refused.value.code, refused.value.params) == (code, params)


def test_partnership_tables_are_two_teams_of_two():
    big = Round((Table((("A", "B"), ("C", "D"), ("E", "F"))),))
    with pytest.raises(RuleError) as refused:
        seating_check(big, "ABCDEF", PARTNERS)
    assert (refused.value.code, refused.value.params) == (
        "night_table_large",
        {"table": 1, "count": 6, "most": 4},
    )
    lopsided = Round((Table((("A", "B", "C"), ("D",))),))
    with pytest.raises(RuleError) as refused:
        seating_check(lopsided, "ABCD", PARTNERS)
    assert refused.value.code == "night_teams"


def test_partners_sit_apart():
    assert Table((("A", "C"), ("B", "D"))).players == ("A", "B", "C", "D")


GAMES = [
    # Ann and Cy beat Bob and Dee; the chips are each player's, as Contway settles.
    NightGame({"Ann": 11, "Cy": 11, "Bob": 4, "Dee": 4}, frozenset({"Ann", "Cy"}),
              {"Ann": 2, "Cy": 2, "Bob": -2, "Dee": -2}),
    NightGame({"Ann": 3, "Bob": 12, "Cy": 12, "Dee": 3}, frozenset({"Bob", "Cy"}),
              {"Ann": -1, "Dee": -3, "Bob": 2, "Cy": 2}),
    NightGame({"Eve": 11, "Fay": 0, "Gus": 7}, frozenset({"Eve"}),
              {"Eve": 6, "Fay": -4, "Gus": -2}),
]  # fmt: skip


def test_the_standing_counts_each_person():
    by_wins = night_standing(GAMES)
    assert [(s.player, s.games, s.wins, s.points, s.chips) for s in by_wins] == [
        ("Cy", 2, 2, 23, 4),
        ("Eve", 1, 1, 11, 6),
        ("Ann", 2, 1, 14, 1),
        ("Bob", 2, 1, 16, 0),
        ("Gus", 1, 0, 7, -2),
        ("Fay", 1, 0, 0, -4),
        ("Dee", 2, 0, 7, -5),
    ]
    # By chips, Eve's one win and 6 chips come before Cy's two wins and 4.
    by_chips = [s.player for s in night_standing(GAMES, order="chips")]
    assert by_chips == ["Eve", "Cy", "Ann", "Bob", "Gus", "Fay", "Dee"]


def test_the_payout_settles_every_games_chips_in_the_fewest_payments():
    plan = night_payout(GAMES)
    owed = {"Ann": 1, "Bob": 0, "Cy": 4, "Dee": -5, "Eve": 6, "Fay": -4, "Gus": -2}
    after = Counter(owed)
    for payer, payee, chips in plan.payments:
        assert chips > 0
        after[payer] += chips
        after[payee] -= chips
    assert set(after.values()) == {0}
    # Six balances in two groups that sum to zero on their own (Ann, Cy and Dee; Eve, Fay
    # and Gus): six less two payments.
    assert plan.fewest and len(plan.payments) == 4
