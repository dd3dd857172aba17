"""Seed 004's variants: each preset's settings, a short game played to its end under
it, and the rules the variants brought in (doubled and moon bids, called partners,
win by two, floors, draws, Maryland's scoring, Contway's settlement).

Every expected number was worked out by hand from the rules. Team games seat Ann,
Bob, Cy, Dee with Ann and Cy ("Us") against Bob and Dee ("Them").
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from pitchkeeper.rules import (
    GROUPS,
    PRESET_INFO,
    PRESETS,
    GameRecord,
    GameResult,
    HandRecord,
    Reach,
    RuleError,
    Ruleset,
    Seating,
    Team,
    all_bids,
    check_auction,
    game_to_data,
    legal_bids,
    load_json,
    parse_game,
    replay,
    resolve_rules,
    settled_per_player,
)

TEAMS = Seating(
    ("Ann", "Bob", "Cy", "Dee"), (Team("Us", ("Ann", "Cy")), Team("Them", ("Bob", "Dee")))
)
FOUR = Seating(("Ann", "Bob", "Cy", "Dee"))
THREE = Seating(("Ann", "Bob", "Cy"))
TWO = Seating(("Ann", "Bob"))


def took(rules: Ruleset, **takers: str) -> dict[str, Any]:
    """Who took each point of ``rules``, as ``Bob="high jack"``; nobody took the rest."""
    went = {key: taker for taker, keys in takers.items() for key in keys.split()}
    assert set(went) <= {c.key for c in rules.categories}
    return {c.key: went.get(c.key, None if c.kind == "one" else {}) for c in rules.categories}


def everything(rules: Ruleset, side: str) -> dict[str, Any]:
    """Every point of the hand to ``side``."""
    return {c.key: side if c.kind == "one" else {side: c.max_count} for c in rules.categories}


def auction(bids: str, points: dict | None = None, **extra: Any) -> HandRecord:
    """A hand with its whole auction, written "Ann 5, Bob pass, Cy 6x2, Dee moon"."""
    pairs = [entry.split() for entry in bids.split(", ")]
    return HandRecord(
        auction=tuple(
            (name, None if bid == "pass" else int(bid) if bid.isdigit() else bid)
            for name, bid in pairs
        ),
        points=points or {},
        **extra,
    )


def per_hand(result: GameResult, attribute: str) -> list:
    """One attribute of every hand; a dict of sides becomes a list in side order."""
    values = []
    for hand in result.hands:
        value = getattr(hand, attribute)
        if isinstance(value, dict):
            value = [value.get(side, 0) for side in result.sides]
        values.append(value)
    return values


# --- The presets as a whole --------------------------------------------------------------


def test_the_first_presets_keep_their_place_and_every_preset_its_info():
    assert list(PRESETS)[:5] == [
        "setback",
        "auction-pitch",
        "partnership",
        "pitch-with-bidding",
        "blind-all-fours",
    ]
    assert list(PRESET_INFO) == list(PRESETS)
    for name, info in PRESET_INFO.items():
        assert info.group in GROUPS, name
        assert info.label and info.description, name
        # A preset names its seed, or says plainly that no seed gives it.
        assert info.source.startswith(("seed", "house preset")), name
        assert len(info.description) <= 90, name


def test_every_group_has_presets():
    assert {info.group for info in PRESET_INFO.values()} == set(GROUPS)


# As docs/rules.md lists them: players, teams or each for himself, target, bids, plain or
# doubled too, moon bids (key=value, "!" where it wins or loses the game), all pass, winner.
SETTINGS_TABLE = """
ten-point             4-6 teams 52  1-9  doubled moon=10!           redeal        count_order
campbell-ten          4-4 teams 32  5-9  doubled moon=10            dealer_forced count_order
campbell-eleven       4-4 teams 51  1-11 doubled moon=11!           dealer_forced count_order
razzle-dazzle         4-6 each  52  1-9  doubled moon=10!           redeal        count_order
wahoo-ten             4-6 teams 52  5-9  doubled moon=10!           dealer_forced count_order
susqy-river           3-6 each  50  1-10 plain   -                  dealer_forced count_order
roadhouse             2-7 each  15  2-4  plain   moon=15            dealer_forced count_order
cell                  4-6 teams 21  3-7  plain   -                  redeal        count_order
seven-point           4-6 teams 21  1-6  doubled moon=7!            redeal        count_order
seventeen-point       4-6 teams 52  1-16 doubled moon=17!           redeal        count_order
maryland-jack         2-7 each  11  2-4  plain   -                  redeal        count_order
high-five             4-4 teams 52  6-16 plain   moon=17!           redeal        count_order
partnership-draw      4-6 teams 15  2-3  plain   moon=4!            dealer_forced count_order
nine-five             4-4 teams 101 4-18 plain   smudge=19,blind=20 redeal        bidder_out
nine-five-hotshot     4-4 teams 101 9-17 plain   hotshot=18!        redeal        bidder_out
nine-five-connecticut 4-4 teams 100 4-18 plain   -                  redeal        count_order
five-nine-connecticut 4-4 teams 101 5-18 plain   double-18=36       dealer_forced bidder_out
bonanza               4-4 teams 64  1-18 plain   moon=18!           dealer_forced count_order
contway-six           4-4 teams 11  2-6  plain   -                  dealer_forced count_order
five-point-joker      2-7 each  11  1-5  plain   -                  redeal        count_order
six-point-joker       2-7 each  11  1-6  plain   -                  redeal        count_order
smear                 2-7 each  11  2-5  plain   -                  dealer_forced highest_total
"""
SETTINGS = {line.split()[0]: line.split()[1:] for line in SETTINGS_TABLE.strip().splitlines()}


# The presets of the seeds' second look (test_presets.py) and the first five.
LATER = {
    "partnership-21",
    "plain-auction-pitch",
    "chicago-pitch",
    "three-pitch",
    "off-three-pitch",
    "all-fours",
}


def test_every_variant_preset_is_listed():
    assert set(SETTINGS) == set(PRESETS) - LATER - {
        "setback",
        "auction-pitch",
        "partnership",
        "pitch-with-bidding",
        "blind-all-fours",
    }


@pytest.mark.parametrize(("name", "row"), SETTINGS.items(), ids=SETTINGS.keys())
def test_variant_settings(name, row):
    players, teams, target, bids, doubled, moons, all_pass, winner = row
    rules = resolve_rules(name)

    assert f"{rules.min_players}-{rules.max_players}" == players
    assert rules.partnership is (teams == "teams")
    assert rules.target == int(target)
    assert f"{rules.min_bid}-{rules.max_bid}" == bids
    assert rules.doubled_bids is (doubled == "doubled")
    shown = [f"{m.key}={m.value}{'!' if m.decides_game else ''}" for m in rules.moon_bids]
    assert (",".join(shown) or "-") == moons
    assert (rules.all_pass, rules.winner) == (all_pass, winner)
    assert rules.dealer_may_steal is False
    assert rules.smudge == "none"


@pytest.mark.parametrize(
    ("name", "points"),
    [
        ("ten-point", 10),
        ("campbell-ten", 10),
        ("campbell-eleven", 11),
        ("susqy-river", 10),
        ("roadhouse", 4),
        ("cell", 7),
        ("seven-point", 7),
        ("seventeen-point", 17),
        ("maryland-jack", 4),
        ("high-five", 17),
        ("nine-five", 18),
        ("bonanza", 18),
        ("contway-six", 6),
        ("five-point-joker", 5),
        ("six-point-joker", 6),
        ("smear", 5),
    ],
)
def test_points_a_hand_can_give(name, points):
    assert PRESETS[name].most_points == points


# --- Bids: plain, doubled and moon ------------------------------------------------------


def test_doubled_bids_rank_between_a_number_and_the_next_and_moons_above_all():
    assert all_bids(PRESETS["seven-point"]) == [
        *(bid for n in range(1, 7) for bid in (n, f"{n}x2")),
        "moon",
    ]
    assert all_bids(PRESETS["nine-five"])[-3:] == [18, "smudge", "blind"]


def test_legal_bids_after_a_doubled_bid():
    rules = PRESETS["ten-point"]

    assert legal_bids(rules, TEAMS, "Dee", [("Ann", "6x2")]) == (
        "Bob",
        [7, "7x2", 8, "8x2", 9, "9x2", "moon"],
        True,
    )
    assert legal_bids(rules, TEAMS, "Dee", [("Ann", 6)])[1][:2] == ["6x2", 7]
    assert legal_bids(rules, TEAMS, "Dee", [("Ann", "moon")])[1] == []


@pytest.mark.parametrize(
    ("bids", "message"),
    [
        (
            (("Ann", 6), ("Bob", "5x2")),
            "Bob bid 5x2 but Ann already bid 6; each bid must be higher",
        ),
        (
            (("Ann", "6x2"), ("Bob", 6)),
            "Bob bid 6 but Ann already bid 6x2; each bid must be higher",
        ),
        (
            (("Ann", "moon"), ("Bob", "9x2")),
            "Bob bid 9x2 but Ann already bid moon; each bid must be higher",
        ),
        ((("Ann", "10x2"),), "Ann bid '10x2'; bids go from 1 to 9, doubled 1x2 to 9x2, or moon"),
        ((("Ann", 10),), "Ann bid 10; bids go from 1 to 9, doubled 1x2 to 9x2, or moon"),
        (
            (("Ann", "6 for 12"),),
            "Ann bid '6 for 12'; bids go from 1 to 9, doubled 1x2 to 9x2, or moon",
        ),
        (
            (("Ann", 6.5),),
            "Ann's bid must be a pass or a bid from 1 to 9, doubled 1x2 to 9x2, or moon",
        ),
    ],
)
def test_word_bids_in_an_auction_are_ranked_and_checked(bids, message):
    full = list(bids) + [(name, None) for name in ("Ann", "Bob", "Cy", "Dee")[len(bids) :]]
    with pytest.raises(RuleError) as caught:
        check_auction(PRESETS["ten-point"], TEAMS, "Dee", full)

    assert caught.value.message == message


def test_text_bids_are_refused_where_the_rules_have_none():
    with pytest.raises(RuleError) as caught:
        check_auction(
            PRESETS["setback"],
            FOUR,
            "Dee",
            [("Ann", "3x2"), *[(n, None) for n in ["Bob", "Cy", "Dee"]]],
        )

    assert caught.value.message == "Ann's bid must be a whole number or a pass"


def test_the_dealer_may_steal_a_doubled_bid_but_never_a_moon_or_the_top_bid():
    rules = resolve_rules({"preset": "ten-point", "dealer_may_steal": True})
    passes = [("Bob", None), ("Cy", None)]

    assert check_auction(rules, TEAMS, "Dee", [("Ann", "6x2"), *passes, ("Dee", "6x2")]) == (
        "Dee",
        "6x2",
    )
    for high, message in [
        ("moon", "Dee cannot take Ann's moon: a moon bid cannot be taken away"),
        ("9x2", "Dee cannot take Ann's 9x2: a bid of 9 cannot be taken away"),
    ]:
        with pytest.raises(RuleError) as caught:
            check_auction(rules, TEAMS, "Dee", [("Ann", high), *passes, ("Dee", high)])
        assert caught.value.message == message


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("campbell-ten", [5, "5x2", 6, "6x2", 7, "7x2", 8, "8x2", 9, "9x2", "moon"]),
        ("campbell-eleven", [1, "1x2"]),
        ("wahoo-ten", [5, "5x2"]),
        ("roadhouse", [2, 3, 4, "moon"]),
        ("bonanza", [1, 2]),
        ("five-nine-connecticut", [5, 6]),
        ("contway-six", [2, 3, 4, 5, 6]),
        ("smear", [2, 3, 4, 5]),
        ("partnership-draw", [2, 3, "moon"]),
    ],
)
def test_a_forced_dealer_bids_at_least_the_lowest_bid(name, expected):
    rules = PRESETS[name]
    seating = TEAMS if rules.partnership else FOUR
    player, bids, may_pass = legal_bids(
        rules, seating, "Dee", [("Ann", None), ("Bob", None), ("Cy", None)]
    )

    assert (player, may_pass) == ("Dee", False)
    assert bids[: len(expected)] == expected


def test_a_forced_dealer_may_not_go_below_the_lowest_bid():
    passes = [("Ann", None), ("Bob", None), ("Cy", None)]
    with pytest.raises(RuleError) as caught:
        check_auction(PRESETS["wahoo-ten"], TEAMS, "Dee", [*passes, ("Dee", 4)])

    assert caught.value.message == "Dee bid 4; bids go from 5 to 9, doubled 5x2 to 9x2, or moon"
    with pytest.raises(RuleError) as caught:
        check_auction(PRESETS["wahoo-ten"], TEAMS, "Dee", [*passes, ("Dee", None)])
    assert caught.value.message == "everybody else passed, so Dee, the dealer, must bid at least 5"


# --- Moon bids --------------------------------------------------------------------------

# The moon bids that win the game when made and lose it when set (seed 004, "Shoot the
# moon"): made, Us score the bid's value and win; set, Us lose it and Them win.
DECIDING = [
    ("ten-point", "moon", 10),
    ("campbell-eleven", "moon", 11),
    ("wahoo-ten", "moon", 10),
    ("seven-point", "moon", 7),
    ("seventeen-point", "moon", 17),
    ("high-five", "moon", 17),
    ("partnership-draw", "moon", 4),
    ("nine-five-hotshot", "hotshot", 18),
    ("bonanza", "moon", 18),
]


@pytest.mark.parametrize(("name", "key", "value"), DECIDING, ids=[d[0] for d in DECIDING])
def test_a_moon_bid_made_wins_the_game(name, key, value):
    rules = PRESETS[name]
    result = replay(
        rules, TEAMS, "Dee", [HandRecord(pitcher="Cy", bid=key, points=everything(rules, "Us"))]
    )

    assert result.hands[0].smudge is True
    assert result.hands[0].made is True
    assert result.scores == {"Us": value, "Them": 0}
    assert (result.winner, result.won_by, result.reached) == ("Us", "smudge", (Reach("Us", None),))
    assert result.dealer is None


@pytest.mark.parametrize(("name", "key", "value"), DECIDING, ids=[d[0] for d in DECIDING])
def test_a_moon_bid_set_loses_the_game(name, key, value):
    rules = PRESETS[name]
    points = {**everything(rules, "Us"), "high": "Bob"}
    result = replay(rules, TEAMS, "Dee", [HandRecord(pitcher="Cy", bid=key, points=points)])

    assert result.hands[0].made is False
    assert result.hands[0].set_back == ("Us",)
    assert result.scores == {"Us": -value, "Them": 1}
    assert (result.winner, result.won_by) == ("Them", "smudge_failed")
    assert result.finished and result.dealer is None


def test_a_moon_bid_that_decides_the_game_wins_from_the_hole():
    rules = PRESETS["ten-point"]
    hands = [
        HandRecord(pitcher="Ann", bid=5, points=took(rules, Ann="high", Bob="low jack")),
        HandRecord(pitcher="Cy", bid="moon", points=everything(rules, "Cy")),
    ]
    result = replay(rules, TEAMS, "Dee", hands)

    assert result.scores == {"Us": 5, "Them": 2}
    assert (result.winner, result.won_by) == ("Us", "smudge")


# The moon bids that only score (or cost) their value: the game goes on.
SCORING = [
    ("campbell-ten", "moon", 10, False),
    ("nine-five", "smudge", 19, True),
    ("nine-five", "blind", 20, True),
    ("five-nine-connecticut", "double-18", 36, True),
]


@pytest.mark.parametrize(
    ("name", "key", "value", "all_tricks"), SCORING, ids=[f"{s[0]} {s[1]}" for s in SCORING]
)
def test_a_scoring_moon_bid_scores_or_costs_its_value(name, key, value, all_tricks):
    rules = PRESETS[name]
    made = HandRecord(pitcher="Ann", bid=key, points=everything(rules, "Us"), all_tricks=True)
    short = HandRecord(
        pitcher="Ann", bid=key, points={**everything(rules, "Us"), "high": "Dee"}, all_tricks=True
    )
    no_tricks = HandRecord(pitcher="Ann", bid=key, points=everything(rules, "Us"))

    assert replay(rules, TEAMS, "Dee", [made]).scores == {"Us": value, "Them": 0}
    assert replay(rules, TEAMS, "Dee", [short]).scores == {"Us": -value, "Them": 1}
    every_point = replay(rules, TEAMS, "Dee", [no_tricks])
    assert every_point.scores["Us"] == (-value if all_tricks else value)
    assert every_point.winner is None


def test_moon_bid_only_from_scores_it_is_open_at():
    # Bonanza: no moon from the hole, nor from 46 up.
    rules = PRESETS["bonanza"]
    hands = [
        HandRecord(pitcher="Ann", bid=18, points=everything(rules, "Us")),
        HandRecord(pitcher="Cy", bid=18, points=everything(rules, "Us")),
        HandRecord(pitcher="Bob", bid=2, points=took(rules, Bob="high", Ann="low")),
    ]
    result = replay(rules, TEAMS, "Dee", hands)
    assert result.scores == {"Us": 37, "Them": -2}

    # Bob deals: Cy, Dee, Ann, Bob. Us are at 37: the moon is open to Cy.
    assert legal_bids(rules, TEAMS, "Bob", [], result.scores)[1][-1] == "moon"
    assert legal_bids(rules, TEAMS, "Bob", [("Cy", None)], result.scores)[1][-1] == 18
    with pytest.raises(RuleError) as caught:
        replay(
            rules,
            TEAMS,
            "Dee",
            [*hands, HandRecord(pitcher="Dee", bid="moon", points=everything(rules, "Them"))],
        )
    assert (caught.value.hand, caught.value.field) == (4, "bid")
    assert caught.value.message == "Dee cannot bid moon: Them is in the hole"

    more = [
        *hands,
        HandRecord(pitcher="Ann", bid=9, points=took(rules, Ann="high low", Cy="nine")),
    ]
    assert replay(rules, TEAMS, "Dee", more).scores == {"Us": 48, "Them": -2}
    moon = auction("Ann pass, Bob pass, Cy moon, Dee pass", points=everything(rules, "Us"))
    with pytest.raises(RuleError) as caught:
        replay(rules, TEAMS, "Dee", [*more, moon])
    assert caught.value.message == "Cy cannot bid moon: Us has 48, and moon is only open below 46"


# --- ten-point (Oklahoma) ----------------------------------------------------------------

TEN = PRESETS["ten-point"]
TEN_POINT_GAME = GameRecord(
    TEN,
    TEAMS,
    "Dee",
    (
        # Dee deals. Dee's "6 for 12" tops Cy's 6; Them take 7 and score 14.
        auction(
            "Ann 5, Bob 5x2, Cy 6, Dee 6x2",
            points=took(
                TEN,
                Bob="high jack",
                Dee="low off_jack three",
                Ann="big_joker game",
                Cy="little_joker",
            ),
        ),
        # Ann deals. Bob's "7 for 14" takes 5: set back 14.
        auction(
            "Bob 7x2, Cy pass, Dee pass, Ann pass",
            points=took(
                TEN,
                Bob="high low",
                Dee="jack off_jack",
                Them="game",
                Cy="three",
                Ann="big_joker little_joker",
            ),
        ),
        # Bob deals. Cy shoots the moon and Us take all ten: the game is won.
        auction("Cy moon, Dee pass, Ann pass, Bob pass", points=everything(TEN, "Us")),
    ),
)


def test_ten_point_game():
    result = TEN_POINT_GAME.replay()

    assert per_hand(result, "bid") == ["6x2", "7x2", "moon"]
    assert per_hand(result, "made") == [True, False, True]
    assert per_hand(result, "smudge") == [False, False, True]
    assert per_hand(result, "taken") == [[3, 7], [5, 5], [10, 0]]
    assert per_hand(result, "delta") == [[3, 14], [5, -14], [10, 0]]
    assert per_hand(result, "scores") == [[3, 14], [8, 0], [18, 0]]
    assert result.setbacks == {"Us": 0, "Them": 1}
    assert (result.winner, result.won_by) == ("Us", "smudge")
    assert result.settlement is None


def test_ten_point_settles_by_chips_or_pot_when_asked():
    for spec, settlement in [
        # Them end at 0 with one setback: 2 chips, 3 with a chip per setback, or an
        # ante and a setback of 2 each into the pot.
        ({"settlement": "chips"}, {"Us": 2, "Them": -2}),
        ({"settlement": "chips", "chips_per_setback": 1}, {"Us": 3, "Them": -3}),
        ({"settlement": "pot", "ante": 2}, {"Us": 4, "Them": -4}),
    ]:
        rules = resolve_rules({"preset": "ten-point", **spec})
        result = replay(rules, TEAMS, "Dee", TEN_POINT_GAME.hands)
        assert result.settlement == settlement


# --- campbell-ten ------------------------------------------------------------------------

CAMPBELL = PRESETS["campbell-ten"]
CAMPBELL_TEN_GAME = GameRecord(
    CAMPBELL,
    TEAMS,
    "Dee",
    (
        # Dee deals; all pass, so Dee must bid: 5, and Them take 6.
        auction(
            "Ann pass, Bob pass, Cy pass, Dee 5",
            points=took(
                CAMPBELL,
                Bob="high three",
                Dee="jack two",
                Ann="off_jack little_joker",
                Cy="big_joker ten",
            ),
        ),
        # Ann deals; Cy's "9 for 18" takes 9: 18.
        auction(
            "Bob pass, Cy 9x2, Dee pass, Ann pass",
            points={**everything(CAMPBELL, "Us"), "two": "Bob"},
        ),
        # Bob deals; Dee's moon takes all ten: it only scores 10 in Campbell ten-point.
        auction("Cy pass, Dee moon, Ann pass, Bob pass", points=everything(CAMPBELL, "Them")),
        # Cy deals; Dee's "6 for 12" takes 7: Them 31, Us 25.
        auction(
            "Dee 6x2, Ann pass, Bob pass, Cy pass",
            points=took(
                CAMPBELL,
                Dee="high three ten",
                Bob="jack two",
                Cy="off_jack little_joker",
                Ann="big_joker",
            ),
        ),
        # Dee deals; Ann bids 5 and Us take 7 (32), Them the Three (34): both teams are
        # over 32, and the team that won the bid wins (seed 004).
        auction(
            "Ann 5, Bob pass, Cy pass, Dee pass",
            points={**everything(CAMPBELL, "Us"), "three": "Them"},
        ),
    ),
)


def test_campbell_ten_game():
    result = CAMPBELL_TEN_GAME.replay()

    assert per_hand(result, "dealer") == ["Dee", "Ann", "Bob", "Cy", "Dee"]
    assert per_hand(result, "delta") == [[4, 6], [18, 1], [0, 10], [3, 14], [7, 3]]
    assert per_hand(result, "scores") == [[4, 6], [22, 7], [22, 17], [25, 31], [32, 34]]
    assert (result.winner, result.won_by) == ("Us", "count_order")
    assert result.reached == (Reach("Us", None), Reach("Them", "three"))


# --- campbell-eleven ---------------------------------------------------------------------

ELEVEN = PRESETS["campbell-eleven"]
CAMPBELL_ELEVEN_GAME = GameRecord(
    ELEVEN,
    TEAMS,
    "Dee",
    (
        # All pass: Dee must bid, and 1 will do; Them take the Ace (High).
        auction(
            "Ann pass, Bob pass, Cy pass, Dee 1", points={**everything(ELEVEN, "Us"), "high": "Dee"}
        ),
        # Cy shoots the moon, above the perfect 11, and wins.
        auction("Bob 11, Cy moon, Dee pass, Ann pass", points=everything(ELEVEN, "Us")),
    ),
)


def test_campbell_eleven_game():
    result = CAMPBELL_ELEVEN_GAME.replay()

    assert [c.key for c in ELEVEN.categories][:2] == ["high", "off_ace"]
    assert per_hand(result, "scores") == [[10, 1], [21, 1]]
    assert (result.winner, result.won_by) == ("Us", "smudge")


def test_campbell_eleven_five_handed_with_a_called_partner():
    rules = resolve_rules(
        {
            "preset": "campbell-eleven",
            "partnership": False,
            "called_partner": True,
            "min_players": 5,
            "max_players": 5,
        }
    )
    table = Seating(("Ann", "Bob", "Cy", "Dee", "Eve"))
    # Ann bids 6 and Dee played the called trump: 7 for both; the other three take 4.
    hand = HandRecord(
        pitcher="Ann",
        bid=6,
        partner="Dee",
        points=took(
            rules,
            Ann="high jack two",
            Dee="off_ace three",
            Bob="off_jack",
            Cy="big_joker",
            Eve="little_joker ten",
        ),
    )
    result = replay(rules, table, "Eve", [hand])

    assert result.scores == {"Ann": 7, "Bob": 4, "Cy": 4, "Dee": 7, "Eve": 4}


# --- razzle-dazzle -----------------------------------------------------------------------

RAZZLE = PRESETS["razzle-dazzle"]
RAZZLE_DAZZLE_GAME = GameRecord(
    RAZZLE,
    FOUR,
    "Dee",
    (
        # Ann bids 6 and calls Cy: together 7, scored by each; Bob and Dee 3 each.
        auction(
            "Ann 6, Bob pass, Cy pass, Dee pass",
            partner="Cy",
            points=took(
                RAZZLE,
                Ann="high low three",
                Cy="jack off_jack",
                Bob="big_joker",
                Dee="little_joker game",
            ),
        ),
        # Bob's "8 for 16" with Ann as partner takes 6: both are set back 16.
        auction(
            "Bob 8x2, Cy pass, Dee pass, Ann pass",
            partner="Ann",
            points=took(
                RAZZLE,
                Bob="high low jack",
                Ann="three",
                Cy="off_jack big_joker",
                Dee="little_joker game",
            ),
        ),
        # Cy held the card he called, so plays alone, shoots the moon and wins.
        auction("Cy moon, Dee pass, Ann pass, Bob pass", points=everything(RAZZLE, "Cy")),
    ),
)


def test_razzle_dazzle_game():
    result = RAZZLE_DAZZLE_GAME.replay()

    assert per_hand(result, "partner") == ["Cy", "Ann", None]
    assert per_hand(result, "taken") == [[5, 1, 2, 2], [3, 3, 2, 2], [0, 0, 10, 0]]
    assert per_hand(result, "delta") == [[7, 3, 7, 3], [-16, -16, 4, 4], [0, 0, 10, 0]]
    assert per_hand(result, "scores") == [[7, 3, 7, 3], [-9, -13, 11, 7], [-9, -13, 21, 7]]
    assert per_hand(result, "set_back") == [(), ("Ann", "Bob"), ()]
    assert result.setbacks == {"Ann": 1, "Bob": 1, "Cy": 0, "Dee": 0}
    assert (result.winner, result.won_by) == ("Cy", "smudge")


@pytest.mark.parametrize(
    ("rules", "partner", "message"),
    [
        (RAZZLE, "Ann", "Ann pitched; leave the partner out when Ann held the called card"),
        (RAZZLE, "Zed", "'Zed' is not a player at this table"),
        (PRESETS["setback"], "Bob", "only a game where the pitcher calls a partner names one"),
    ],
)
def test_bad_partners_are_refused(rules, partner, message):
    points = took(rules, Ann="high low")
    with pytest.raises(RuleError) as caught:
        replay(
            rules, FOUR, "Dee", [HandRecord(pitcher="Ann", bid=2, points=points, partner=partner)]
        )

    assert caught.value.message == message


# --- wahoo-ten ---------------------------------------------------------------------------

WAHOO = PRESETS["wahoo-ten"]
WAHOO_TEN_GAME = GameRecord(
    WAHOO,
    TEAMS,
    "Dee",
    (
        # Nobody bids 5, so the dealer is dumped the 5; Them take 7.
        auction(
            "Ann pass, Bob pass, Cy pass, Dee 5",
            points=took(
                WAHOO,
                Bob="high jack",
                Dee="low off_jack three",
                Ann="big_joker game",
                Cy="little_joker",
            ),
        ),
        # Cy shoots the moon but Them take Game: Us lose the game.
        auction(
            "Bob pass, Cy moon, Dee pass, Ann pass",
            points={**everything(WAHOO, "Us"), "game": "Bob"},
        ),
    ),
)


def test_wahoo_ten_game():
    result = WAHOO_TEN_GAME.replay()

    assert per_hand(result, "scores") == [[3, 7], [-7, 8]]
    assert (result.winner, result.won_by) == ("Them", "smudge_failed")


# --- susqy-river -------------------------------------------------------------------------

SUSQY = PRESETS["susqy-river"]
SUSQY_RIVER_GAME = GameRecord(
    SUSQY,
    THREE,
    "Cy",
    (
        # Both pass, so Cy must bid: 1 is enough, and Cy takes High.
        auction(
            "Ann pass, Bob pass, Cy 1",
            points=took(SUSQY, Cy="high", Ann="five last_trick", Bob="low jack game"),
        ),
        auction("Bob pass, Cy pass, Ann 10", points=everything(SUSQY, "Ann")),
        auction("Cy pass, Ann 10, Bob pass", points=everything(SUSQY, "Ann")),
        auction("Ann 10, Bob pass, Cy pass", points=everything(SUSQY, "Ann")),
        auction("Bob 6, Cy pass, Ann 10", points=everything(SUSQY, "Ann")),
        # Ann bids 4 and takes the Five, worth 5: 51, past 50.
        auction(
            "Cy pass, Ann 4, Bob pass",
            points=took(SUSQY, Ann="five", Bob="high low jack game", Cy="last_trick"),
        ),
    ),
)


def test_susqy_river_game():
    result = SUSQY_RIVER_GAME.replay()

    assert per_hand(result, "scores") == [
        [6, 3, 1],
        [16, 3, 1],
        [26, 3, 1],
        [36, 3, 1],
        [46, 3, 1],
        [51, 7, 2],
    ]
    assert (result.winner, result.won_by, result.reached) == (
        "Ann",
        "count_order",
        (Reach("Ann", None),),
    )


def test_the_last_trick_always_goes_to_somebody():
    hand = HandRecord(pitcher="Ann", bid=1, points=took(SUSQY, Ann="high low"))
    with pytest.raises(RuleError) as caught:
        replay(SUSQY, THREE, "Cy", [hand])

    assert caught.value.field == "points.last_trick"
    assert caught.value.message == "Last trick always goes to somebody in a played hand"


# --- roadhouse ---------------------------------------------------------------------------

ROADHOUSE = PRESETS["roadhouse"]


def bob_bids(bid: Any, points: dict) -> HandRecord:
    return HandRecord(pitcher="Bob", bid=bid, points=points)


ROADHOUSE_GAME = GameRecord(
    ROADHOUSE,
    TWO,
    "Bob",
    (
        bob_bids(4, everything(ROADHOUSE, "Bob")),
        bob_bids(4, everything(ROADHOUSE, "Bob")),
        bob_bids(4, everything(ROADHOUSE, "Bob")),
        # The Jack was not dealt and Game was tied: Bob 14.
        bob_bids(2, took(ROADHOUSE, Bob="high low")),
        # Ann shoots the moon, every trick and point: 15, the target, but only 1 ahead.
        HandRecord(pitcher="Ann", bid="moon", points=everything(ROADHOUSE, "Ann"), all_tricks=True),
        # Bob is set back to 11: Ann, at 15 and 4 ahead, wins without scoring.
        bob_bids(3, took(ROADHOUSE, Bob="high low")),
    ),
)


def test_roadhouse_game():
    result = ROADHOUSE_GAME.replay()

    assert per_hand(result, "scores") == [[0, 4], [0, 8], [0, 12], [0, 14], [15, 14], [15, 11]]
    assert per_hand(result, "smudge") == [False] * 4 + [True, False]
    assert (result.winner, result.won_by, result.reached) == (
        "Ann",
        "win_by",
        (Reach("Ann", None),),
    )


def test_roadhouse_moon_needs_every_trick():
    hand = HandRecord(pitcher="Ann", bid="moon", points=everything(ROADHOUSE, "Ann"))
    result = replay(ROADHOUSE, TWO, "Bob", [hand])

    assert result.hands[0].made is False
    assert result.scores == {"Ann": -15, "Bob": 0}


def test_roadhouse_a_win_by_two_reached_on_a_point_counts_that_point():
    hands = [
        *ROADHOUSE_GAME.hands[:5],
        bob_bids(2, took(ROADHOUSE, Bob="high", Ann="low jack")),
    ]
    result = replay(ROADHOUSE, TWO, "Bob", hands)

    # Bob fails his 2 (12); Ann takes Low and the Jack: 17, reached on Low.
    assert result.scores == {"Ann": 17, "Bob": 12}
    assert (result.winner, result.won_by, result.reached) == (
        "Ann",
        "win_by",
        (Reach("Ann", "low"),),
    )


# --- cell --------------------------------------------------------------------------------

CELL = PRESETS["cell"]
CELL_GAME = GameRecord(
    CELL,
    TEAMS,
    "Dee",
    (
        auction("Ann 7, Bob pass, Cy pass, Dee pass", points=everything(CELL, "Us")),
        auction(
            "Bob 3, Cy pass, Dee pass, Ann pass",
            points=took(
                CELL, Bob="high jack", Dee="low", Ann="off_jack game", Cy="big_joker little_joker"
            ),
        ),
        auction(
            "Cy 5, Dee pass, Ann pass, Bob pass",
            points={**everything(CELL, "Us"), "big_joker": "Bob", "little_joker": "Dee"},
        ),
        auction(
            "Dee 4, Ann pass, Bob pass, Cy pass",
            points={**everything(CELL, "Them"), "jack": "Ann", "off_jack": "Cy", "game": "Us"},
        ),
        auction(
            "Ann 3, Bob pass, Cy pass, Dee pass",
            points={**everything(CELL, "Them"), "high": "Ann", "low": "Cy", "jack": "Ann"},
        ),
    ),
)


def test_cell_game():
    result = CELL_GAME.replay()

    assert per_hand(result, "smudge") == [False] * 5  # a 7 takes all seven, but is no moon
    assert per_hand(result, "scores") == [[7, 0], [11, 3], [16, 5], [19, 9], [22, 13]]
    assert (result.winner, result.won_by) == ("Us", "count_order")


def test_cell_bids_start_at_three():
    with pytest.raises(RuleError) as caught:
        check_auction(CELL, TEAMS, "Dee", [("Ann", 2), ("Bob", None), ("Cy", None), ("Dee", None)])

    assert caught.value.message == "Ann bid 2; bids go from 3 to 7"


# --- seven-point -------------------------------------------------------------------------

SEVEN = PRESETS["seven-point"]
SEVEN_POINT_GAME = GameRecord(
    SEVEN,
    TEAMS,
    "Dee",
    (
        # "6 for 12" taking all seven scores 14: a doubled bid doubles what it took.
        auction("Ann 6x2, Bob pass, Cy pass, Dee pass", points=everything(SEVEN, "Us")),
        auction("Bob 3, Cy moon, Dee pass, Ann pass", points=everything(SEVEN, "Us")),
    ),
)


def test_seven_point_game():
    result = SEVEN_POINT_GAME.replay()

    assert [c.key for c in SEVEN.categories] == [
        "high",
        "low",
        "jack",
        "off_jack",
        "big_joker",
        "little_joker",
        "game",
    ]
    assert per_hand(result, "scores") == [[14, 0], [21, 0]]
    assert (result.winner, result.won_by) == ("Us", "smudge")


# --- seventeen-point ---------------------------------------------------------------------

SEVENTEEN = PRESETS["seventeen-point"]
SEVENTEEN_POINT_GAME = GameRecord(
    SEVENTEEN,
    TEAMS,
    "Dee",
    (
        # Bob's "9 for 18" takes the Five and the off-five, 10: 20.
        auction(
            "Ann pass, Bob 9x2, Cy pass, Dee pass",
            points={**everything(SEVENTEEN, "Us"), "five": "Bob", "off_five": "Dee"},
        ),
        auction(
            "Bob pass, Cy moon, Dee pass, Ann pass",
            points={**everything(SEVENTEEN, "Us"), "game": "Them"},
        ),
    ),
)


def test_seventeen_point_game():
    result = SEVENTEEN_POINT_GAME.replay()

    assert "three" not in [c.key for c in SEVENTEEN.categories]
    assert per_hand(result, "scores") == [[7, 20], [-10, 21]]
    assert (result.winner, result.won_by) == ("Them", "smudge_failed")


# --- maryland-jack -----------------------------------------------------------------------

MARYLAND = PRESETS["maryland-jack"]
MARYLAND_JACK_GAME = GameRecord(
    MARYLAND,
    THREE,
    "Cy",
    (
        # Ann bids 2 and takes 3: she scores only her 2. Bob's off-jack scores anyway.
        auction(
            "Ann 2, Bob pass, Cy pass", points=took(MARYLAND, Ann="high low jack", Bob="off_jack")
        ),
        # Bob bids 3 and takes exactly 3: one more, 4. Cy's Jack does not score.
        auction(
            "Bob 3, Cy pass, Ann pass", points=took(MARYLAND, Bob="high low off_jack", Cy="jack")
        ),
        # Cy is set: now Ann's Jack scores too.
        auction(
            "Cy 3, Ann pass, Bob pass",
            points=took(MARYLAND, Cy="high low", Ann="jack", Bob="off_jack"),
        ),
        auction("Ann pass, Bob 4, Cy pass", points=everything(MARYLAND, "Bob")),
    ),
)


def test_maryland_jack_game():
    result = MARYLAND_JACK_GAME.replay()

    assert per_hand(result, "taken") == [[3, 1, 0], [0, 3, 1], [1, 1, 2], [0, 4, 0]]
    assert per_hand(result, "delta") == [[2, 1, 0], [0, 4, 0], [1, 1, -3], [0, 5, 0]]
    assert per_hand(result, "scores") == [[2, 1, 0], [2, 5, 0], [3, 6, -3], [3, 11, -3]]
    assert (result.winner, result.won_by) == ("Bob", "count_order")


def test_maryland_jack_house_rule_game_by_tens_claimed_by_anybody():
    rules = resolve_rules(
        {
            "preset": "maryland-jack",
            "categories": [
                *(PRESETS["maryland-jack"].to_dict()["categories"]),
                {"key": "game", "label": "Game (tens)"},
            ],
            "anyone_scores": ["off_jack", "game"],
        }
    )
    hand = HandRecord(
        pitcher="Ann", bid=2, points=took(rules, Ann="high low", Bob="jack", Cy="game")
    )

    assert replay(rules, THREE, "Cy", [hand]).scores == {"Ann": 3, "Bob": 0, "Cy": 1}


# --- high-five ---------------------------------------------------------------------------

HIGH_FIVE = PRESETS["high-five"]
HIGH_FIVE_GAME = GameRecord(
    HIGH_FIVE,
    TEAMS,
    "Dee",
    (
        auction("Ann pass, Bob pass, Cy pass, Dee pass"),
        # Dee deals again.
        auction("Ann 6, Bob 16, Cy moon, Dee pass", points=everything(HIGH_FIVE, "Us")),
    ),
)


def test_high_five_game():
    result = HIGH_FIVE_GAME.replay()

    assert per_hand(result, "kind") == ["redeal", "played"]
    assert per_hand(result, "dealer") == ["Dee", "Dee"]
    assert result.scores == {"Us": 17, "Them": 0}
    assert (result.winner, result.won_by) == ("Us", "smudge")


# --- partnership-draw --------------------------------------------------------------------

DRAW_PITCH = PRESETS["partnership-draw"]
PARTNERSHIP_DRAW_GAME = GameRecord(
    DRAW_PITCH,
    TEAMS,
    "Dee",
    (
        auction(
            "Ann pass, Bob pass, Cy pass, Dee 2",
            points={"high": "Bob", "low": "Dee", "jack": "Ann", "game": "Cy"},
        ),
        # A bid of all four is shooting the moon: made, it wins.
        auction("Bob 3, Cy moon, Dee pass, Ann pass", points=everything(DRAW_PITCH, "Us")),
    ),
)


def test_partnership_draw_game():
    result = PARTNERSHIP_DRAW_GAME.replay()

    assert per_hand(result, "scores") == [[2, 2], [6, 2]]
    assert (result.winner, result.won_by) == ("Us", "smudge")
    with pytest.raises(RuleError) as caught:
        check_auction(
            DRAW_PITCH, TEAMS, "Dee", [("Ann", 4), ("Bob", None), ("Cy", None), ("Dee", None)]
        )
    assert caught.value.message == "Ann bid 4; bids go from 2 to 3, or moon"


# --- nine-five ---------------------------------------------------------------------------

NINE_FIVE = PRESETS["nine-five"]
HLJ = ("high", "low", "jack")
HLJG = (*HLJ, "game")


def smudge_hand(pitcher: str, bid: str) -> HandRecord:
    """Us bid a smudge and take all 18 points and every trick."""
    return HandRecord(pitcher=pitcher, bid=bid, points=everything(NINE_FIVE, "Us"), all_tricks=True)


NINE_FIVE_GAME = GameRecord(
    NINE_FIVE,
    TEAMS,
    "Dee",
    (
        smudge_hand("Ann", "smudge"),
        smudge_hand("Cy", "blind"),
        smudge_hand("Cy", "smudge"),
        smudge_hand("Ann", "smudge"),
        smudge_hand("Ann", "smudge"),
        # Them bid 4 and make it; Us take the Nine and the Five, past 100, but did not bid.
        HandRecord(
            pitcher="Bob",
            bid=4,
            points={**everything(NINE_FIVE, "Us"), **dict.fromkeys(HLJG, "Them")},
        ),
        # Us bid 4, make it, and go out.
        HandRecord(
            pitcher="Cy",
            bid=4,
            points={**everything(NINE_FIVE, "Them"), **dict.fromkeys(HLJG, "Us")},
        ),
    ),
)


def test_nine_five_game():
    result = NINE_FIVE_GAME.replay()

    assert per_hand(result, "scores") == [
        [19, 0],
        [39, 0],
        [58, 0],
        [77, 0],
        [96, 0],
        [110, 4],
        [114, 18],
    ]
    assert (result.winner, result.won_by) == ("Us", "bidder_out")


@pytest.mark.parametrize(
    ("bid", "all_tricks", "delta"),
    [
        # Seed 004: "Для ставки smudge игрок или команда должны набрать все возможные
        # очки, выиграть каждую взятку и захватить валета козырей"; nine-five: "Ставка
        # «smudge» стоит 19 очков".
        ("smudge", True, 19),
        ("smudge", False, -19),
        ("blind", True, 20),
        ("blind", False, -20),
    ],
)
def test_a_nine_five_smudge_needs_every_trick(bid, all_tricks, delta):
    hand = HandRecord(
        pitcher="Ann", bid=bid, points=everything(NINE_FIVE, "Us"), all_tricks=all_tricks
    )
    result = replay(NINE_FIVE, TEAMS, "Dee", [hand])

    assert result.hands[0].made is (delta > 0)
    assert result.scores == {"Us": delta, "Them": 0}


def test_every_smudge_bid_needs_every_trick():
    smudges = [
        (name, moon.key)
        for name, rules in PRESETS.items()
        for moon in rules.moon_bids
        if "smudge" in moon.label.casefold()
    ]
    assert ("nine-five", "smudge") in smudges
    for name, key in smudges:
        assert PRESETS[name].moon(key).all_tricks, (name, key)


# Them bid the blind smudge five times and take all but the Five: 20 each time.
BLIND_FAILS = HandRecord(
    pitcher="Bob", bid="blind", points={**everything(NINE_FIVE, "Them"), "five": "Us"}
)


def test_nine_five_a_team_at_minus_100_loses():
    result = replay(NINE_FIVE, TEAMS, "Dee", [BLIND_FAILS] * 5)

    assert per_hand(result, "scores") == [[5, -20], [10, -40], [15, -60], [20, -80], [25, -100]]
    assert (result.winner, result.won_by) == ("Us", "floor")
    assert result.dealer is None


def test_nine_five_backdoor_draw_at_minus_200():
    rules = resolve_rules(
        {"preset": "nine-five", "lose_at": None, "draw_at": -200, "settlement": "chips"}
    )
    result = replay(rules, TEAMS, "Dee", [BLIND_FAILS] * 10)

    assert result.scores == {"Us": 50, "Them": -200}
    assert (result.winner, result.won_by) == (None, "draw")
    assert result.finished and result.drawn
    assert (result.dealer, result.settlement, result.payments()) == (None, None, [])
    with pytest.raises(RuleError) as caught:
        replay(rules, TEAMS, "Dee", [BLIND_FAILS] * 11)
    assert str(caught.value) == "hand 11: the game was drawn on hand 10; no hand can follow it"


# --- nine-five-hotshot -------------------------------------------------------------------

HOTSHOT = PRESETS["nine-five-hotshot"]
NINE_FIVE_HOTSHOT_GAME = GameRecord(
    HOTSHOT,
    TEAMS,
    "Dee",
    (auction("Ann 9, Bob 12, Cy hotshot, Dee pass", points=everything(HOTSHOT, "Us")),),
)


def test_nine_five_hotshot_game():
    result = NINE_FIVE_HOTSHOT_GAME.replay()

    assert result.scores == {"Us": 18, "Them": 0}
    assert (result.winner, result.won_by) == ("Us", "smudge")
    with pytest.raises(RuleError) as caught:
        check_auction(
            HOTSHOT, TEAMS, "Dee", [("Ann", 8), ("Bob", None), ("Cy", None), ("Dee", None)]
        )
    assert caught.value.message == "Ann bid 8; bids go from 9 to 17, or hotshot"


# --- nine-five-connecticut ---------------------------------------------------------------

CONNECTICUT = PRESETS["nine-five-connecticut"]
SWEEP_18 = everything(CONNECTICUT, "Us")
NINE_FIVE_CONNECTICUT_GAME = GameRecord(
    CONNECTICUT,
    TEAMS,
    "Dee",
    (
        # All pass: the deal passes to Ann.
        auction("Ann pass, Bob pass, Cy pass, Dee pass"),
        auction("Bob pass, Cy 18, Dee pass, Ann pass", points=SWEEP_18),
        auction("Cy 18, Dee pass, Ann pass, Bob pass", points=SWEEP_18),
        auction("Dee pass, Ann 18, Bob pass, Cy pass", points=SWEEP_18),
        auction("Ann 18, Bob pass, Cy pass, Dee pass", points=SWEEP_18),
        auction("Bob pass, Cy 18, Dee pass, Ann pass", points=SWEEP_18),
        # Them bid 4 and make it; Us reach 100 on the Five, as defenders.
        auction(
            "Cy pass, Dee 4, Ann pass, Bob pass", points={**SWEEP_18, **dict.fromkeys(HLJG, "Them")}
        ),
    ),
)


def test_nine_five_connecticut_game():
    result = NINE_FIVE_CONNECTICUT_GAME.replay()

    assert per_hand(result, "kind") == ["redeal"] + ["played"] * 6
    assert per_hand(result, "dealer") == ["Dee", "Ann", "Bob", "Cy", "Dee", "Ann", "Bob"]
    assert per_hand(result, "scores")[-2:] == [[90, 0], [104, 4]]
    assert (result.winner, result.won_by) == ("Us", "count_order")
    assert result.reached == (Reach("Us", "five"),)


# --- five-nine-connecticut ---------------------------------------------------------------

FIVE_NINE = PRESETS["five-nine-connecticut"]
FIVE_NINE_CONNECTICUT_GAME = GameRecord(
    FIVE_NINE,
    TEAMS,
    "Dee",
    (
        # Nobody bids: Dee takes it for 5, and the Five makes it.
        auction(
            "Ann pass, Bob pass, Cy pass, Dee 5",
            points={**everything(FIVE_NINE, "Us"), "five": "Dee"},
        ),
        auction(
            "Bob pass, Cy double-18, Dee pass, Ann pass",
            points=everything(FIVE_NINE, "Us"),
            all_tricks=True,
        ),
        auction(
            "Cy double-18, Dee pass, Ann pass, Bob pass",
            points=everything(FIVE_NINE, "Us"),
            all_tricks=True,
        ),
        # Dee is set; Us take 17, past 100 without the bid: no win.
        auction(
            "Dee 5, Ann pass, Bob pass, Cy pass",
            points={**everything(FIVE_NINE, "Us"), "high": "Dee"},
        ),
        # Ann bids 5 and makes it with the Five: over 100 on a made bid.
        auction(
            "Ann 5, Bob pass, Cy pass, Dee pass",
            points={**everything(FIVE_NINE, "Them"), "five": "Cy"},
        ),
    ),
)


def test_five_nine_connecticut_game():
    result = FIVE_NINE_CONNECTICUT_GAME.replay()

    assert per_hand(result, "scores") == [[13, 5], [49, 5], [85, 5], [102, 0], [107, 13]]
    assert (result.winner, result.won_by) == ("Us", "bidder_out")


# --- bonanza -----------------------------------------------------------------------------

BONANZA = PRESETS["bonanza"]
BONANZA_GAME = GameRecord(
    BONANZA,
    TEAMS,
    "Dee",
    (
        # Nobody bids: Dee must, and 1 will do.
        auction(
            "Ann pass, Bob pass, Cy pass, Dee 1",
            points={**everything(BONANZA, "Us"), "high": "Bob"},
        ),
        auction("Bob moon, Cy pass, Dee pass, Ann pass", points=everything(BONANZA, "Them")),
    ),
)


def test_bonanza_game():
    result = BONANZA_GAME.replay()

    assert [c.key for c in BONANZA.categories] == ["high", "low", "jack", "ten", "nine", "five"]
    assert per_hand(result, "scores") == [[17, 1], [17, 19]]
    assert (result.winner, result.won_by) == ("Them", "smudge")


# --- contway-six -------------------------------------------------------------------------

CONTWAY = PRESETS["contway-six"]
CONTWAY_SIX_GAME = GameRecord(
    CONTWAY,
    TEAMS,
    "Dee",
    (
        # Us are hickeyed from 0: scores never go below zero.
        auction(
            "Ann 3, Bob pass, Cy pass, Dee pass",
            points={**everything(CONTWAY, "Them"), "high": "Ann", "low": "Cy"},
        ),
        auction(
            "Bob 4, Cy pass, Dee pass, Ann pass",
            points={**everything(CONTWAY, "Them"), "low": "Us", "off_jack": "Us"},
        ),
        # Hickeyed again, from 2 to 0; Them reach 11 on the joker.
        auction(
            "Cy 3, Dee pass, Ann pass, Bob pass",
            points={**everything(CONTWAY, "Them"), "high": "Ann", "low": "Cy"},
        ),
    ),
)


def test_contway_six_game():
    result = CONTWAY_SIX_GAME.replay()

    assert per_hand(result, "delta") == [[0, 4], [2, 4], [-2, 4]]
    assert per_hand(result, "scores") == [[0, 4], [2, 8], [0, 12]]
    assert result.setbacks == {"Us": 2, "Them": 0}
    assert (result.winner, result.won_by) == ("Them", "count_order")
    assert result.reached == (Reach("Them", "joker"),)
    # Every loser pays 1, and 1 more for each of its two hickeys.
    assert result.settlement == {"Us": -3, "Them": 3}


def test_contway_six_settles_each_player_and_partnership_each_side():
    settlement = CONTWAY_SIX_GAME.replay().settlement

    # Seed 004: "each losing player -$1", and -$1 more for each hickey.
    assert settled_per_player(CONTWAY, TEAMS, settlement) == {
        "Ann": -3,
        "Cy": -3,
        "Bob": 3,
        "Dee": 3,
    }
    shared = resolve_rules({"preset": "partnership", "settlement": "chips"})
    assert shared.settle_each == "side"
    assert settled_per_player(shared, TEAMS, settlement) is None
    assert settled_per_player(CONTWAY, TEAMS, None) is None
    # Without teams a side is one player, whatever the setting.
    alone = {"Ann": -2, "Bob": 3, "Cy": -1}
    assert settled_per_player(shared, THREE, alone) == alone
    # A stored Contway ruleset from before the setting still pays each player.
    stored = {k: v for k, v in CONTWAY.to_dict().items() if k != "settle_each"}
    assert resolve_rules(stored).settle_each == "player"
    with pytest.raises(RuleError, match="settle_each must be one of side, player"):
        resolve_rules({"preset": "contway-six", "settle_each": "team"})


def test_contway_six_both_teams_over_eleven_the_bidder_wins():
    hands = [
        HandRecord(pitcher="Ann", bid=5, points={**everything(CONTWAY, "Us"), "game": "Them"}),
        HandRecord(pitcher="Bob", bid=5, points={**everything(CONTWAY, "Them"), "low": "Us"}),
        HandRecord(
            pitcher="Cy",
            bid=4,
            points={**everything(CONTWAY, "Us"), "joker": "Them", "game": "Them"},
        ),
        # Bob bids 3: Them take 3 (11), Us 3 (13). Both are over 11: the bidders win.
        HandRecord(
            pitcher="Bob", bid=3, points={**everything(CONTWAY, "Us"), **dict.fromkeys(HLJ, "Them")}
        ),
    ]
    result = replay(CONTWAY, TEAMS, "Dee", hands)

    assert per_hand(result, "scores") == [[5, 1], [6, 6], [10, 8], [13, 11]]
    assert (result.winner, result.won_by) == ("Them", "count_order")
    assert result.reached == (Reach("Them", None), Reach("Us", "off_jack"))


def test_contway_six_three_handed_each_loser_pays_for_its_hickeys():
    rules = resolve_rules(
        {"preset": "contway-six", "partnership": False, "min_players": 3, "max_players": 3}
    )
    hands = [
        HandRecord(pitcher="Ann", bid=2, points={**everything(rules, "Bob"), "high": "Ann"}),
        HandRecord(pitcher="Bob", bid=6, points=everything(rules, "Bob")),
    ]
    result = replay(rules, THREE, "Cy", hands)

    assert result.scores == {"Ann": 0, "Bob": 11, "Cy": 0}
    assert result.settlement == {"Ann": -2, "Bob": 3, "Cy": -1}


# --- five-point-joker and six-point-joker ------------------------------------------------

FIVE_JOKER = PRESETS["five-point-joker"]
FIVE_POINT_JOKER_GAME = GameRecord(
    FIVE_JOKER,
    THREE,
    "Cy",
    (
        auction("Ann 5, Bob pass, Cy pass", points=everything(FIVE_JOKER, "Ann")),
        auction(
            "Bob 2, Cy pass, Ann pass",
            points=took(FIVE_JOKER, Bob="high joker", Ann="low jack game"),
        ),
        auction(
            "Cy pass, Ann 3, Bob pass",
            points=took(FIVE_JOKER, Ann="high low joker", Bob="jack", Cy="game"),
        ),
    ),
)


def test_five_point_joker_game():
    result = FIVE_POINT_JOKER_GAME.replay()

    assert per_hand(result, "scores") == [[5, 0, 0], [8, 2, 0], [11, 3, 1]]
    assert (result.winner, result.won_by) == ("Ann", "count_order")


SIX_JOKER = PRESETS["six-point-joker"]
SIX_POINT_JOKER_GAME = GameRecord(
    SIX_JOKER,
    THREE,
    "Cy",
    (
        auction("Ann 6, Bob pass, Cy pass", points=everything(SIX_JOKER, "Ann")),
        auction(
            "Bob 3, Cy pass, Ann pass",
            points={
                **took(SIX_JOKER, Bob="high low", Ann="jack game"),
                "jokers": {"Bob": 1, "Cy": 1},
            },
        ),
        auction(
            "Cy pass, Ann 3, Bob pass",
            points={**took(SIX_JOKER, Ann="high", Bob="low", Cy="jack"), "jokers": {"Ann": 2}},
        ),
    ),
)


def test_six_point_joker_game():
    result = SIX_POINT_JOKER_GAME.replay()

    assert per_hand(result, "taken") == [[6, 0, 0], [2, 3, 1], [3, 1, 1]]
    assert per_hand(result, "scores") == [[6, 0, 0], [8, 3, 1], [11, 4, 2]]
    assert (result.winner, result.won_by) == ("Ann", "count_order")


def test_six_point_joker_has_two_jokers():
    hand = HandRecord(
        pitcher="Ann",
        bid=2,
        points={**took(SIX_JOKER, Ann="high low"), "jokers": {"Ann": 2, "Bob": 1}},
    )
    with pytest.raises(RuleError) as caught:
        replay(SIX_JOKER, THREE, "Cy", [hand])

    assert caught.value.message == "Jokers: 3 taken, but there are only 2"


# --- smear -------------------------------------------------------------------------------

SMEAR = PRESETS["smear"]
SMEAR_GAME = GameRecord(
    SMEAR,
    THREE,
    "Cy",
    (
        auction("Ann 5, Bob pass, Cy pass", points=everything(SMEAR, "Ann")),
        auction("Bob 5, Cy pass, Ann pass", points=everything(SMEAR, "Bob")),
        auction("Cy pass, Ann 4, Bob pass", points={**everything(SMEAR, "Ann"), "game": "Cy"}),
        auction("Ann pass, Bob 4, Cy pass", points={**everything(SMEAR, "Bob"), "game": "Ann"}),
        # Bob and Ann both reach 11: the tie goes to the pitcher.
        auction("Bob 2, Cy pass, Ann pass", points=took(SMEAR, Bob="high low", Ann="jack")),
    ),
)


def test_smear_game():
    result = SMEAR_GAME.replay()

    assert per_hand(result, "scores") == [[5, 0, 0], [5, 5, 0], [9, 5, 1], [10, 9, 1], [11, 11, 1]]
    assert (result.winner, result.won_by) == ("Bob", "highest_total")


# --- Other settings ---------------------------------------------------------------------


def test_a_side_that_sets_the_bidder_may_go_out():
    rules = resolve_rules({"preset": "auction-pitch", "setter_goes_out": True})
    hands = [
        HandRecord(
            pitcher="Bob", bid=4, points={"high": "Bob", "low": "Bob", "jack": "Bob", "game": "Bob"}
        ),
        HandRecord(
            pitcher="Bob", bid=2, points={"high": "Bob", "low": "Bob", "jack": None, "game": None}
        ),
        # Bob, at 6, sets Cy and passes 7 on High: he goes out.
        HandRecord(
            pitcher="Cy", bid=4, points={"high": "Bob", "low": "Bob", "jack": "Bob", "game": "Cy"}
        ),
    ]
    result = replay(rules, FOUR, "Dee", hands)

    assert result.scores == {"Ann": 0, "Bob": 9, "Cy": -4, "Dee": 0}
    assert (result.winner, result.won_by) == ("Bob", "bidder_out")
    assert result.reached == (Reach("Bob", "high"),)
    plain = replay(PRESETS["auction-pitch"], FOUR, "Dee", hands)
    assert plain.winner is None


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ({"moon_bids": "moon"}, "moon_bids must be a list"),
        ({"moon_bids": ["moon"]}, "moon_bids[0] must be an object with key, label and value"),
        ({"moon_bids": [{"key": "moon"}]}, "moon_bids[0] (moon): give its key, label and value"),
        (
            {"moon_bids": [{"key": "moon", "value": 5, "colour": "red"}]},
            "moon_bids[0]: unknown setting colour",
        ),
        (
            {"moon_bids": [{"key": "moon", "value": "5"}]},
            "moon_bids[0] (moon): value has the wrong type",
        ),
        (
            {"moon_bids": [{"key": "6x2", "value": 5}]},
            "moon bid '6x2': its key must start with a small letter and hold only small "
            "letters, digits, - and _",
        ),
        (
            {"moon_bids": [{"key": "moon", "value": 5}, {"key": "moon", "value": 6}]},
            "moon bid keys must be unique",
        ),
        ({"moon_bids": [{"key": "moon", "value": 0}]}, "moon bid moon: value must be at least 1"),
        ({"doubled_bids": "yes"}, "doubled_bids must be true or false"),
        (
            {"preset": "ten-point", "called_partner": True},
            "called_partner is for tables without fixed teams (partnership)",
        ),
        ({"called_partner": True}, "a called partner needs at least 3 players (min_players)"),
        ({"win_by": 0}, "win_by must be at least 1, or null"),
        ({"win_by": "2"}, "win_by must be a whole number or null (no lead needed)"),
        ({"forced_min_bid": 0}, "forced_min_bid must be at least 1"),
        ({"made_scores": "all"}, "made_scores must be one of taken, bid"),
        ({"exact_bid_bonus": -1}, "exact_bid_bonus must not be negative"),
        ({"anyone_scores": "jack"}, "anyone_scores must be a list of category keys"),
        ({"anyone_scores": ["ten"]}, "anyone_scores names unknown categories: ten"),
        ({"score_floor": 1}, "score_floor must not be above 0"),
        ({"lose_at": 0}, "lose_at must be below 0"),
        ({"draw_at": -1.5}, "draw_at must be a whole number or null (no draw)"),
        ({"draw_at": 5}, "draw_at must be below 0"),
        ({"redeal_passes_deal": 1}, "redeal_passes_deal must be true or false"),
    ],
)
def test_bad_new_settings_are_refused(spec, message):
    with pytest.raises(RuleError) as caught:
        resolve_rules(spec)

    assert caught.value.message == message


def test_new_settings_default_to_what_the_engine_did_before_them():
    # A ruleset stored before these settings existed resolves as it always did.
    stored = PRESETS["setback"].to_dict()
    for name in (
        "called_partner",
        "win_by",
        "doubled_bids",
        "moon_bids",
        "forced_min_bid",
        "redeal_passes_deal",
        "made_scores",
        "exact_bid_bonus",
        "setter_goes_out",
        "non_pitchers_score_when_set",
        "anyone_scores",
        "score_floor",
        "lose_at",
        "draw_at",
        "auction_until_one",
        "forced_bid",
        "sweep_chips",
    ):
        del stored[name]

    assert resolve_rules(stored) == PRESETS["setback"]


# --- The game-record format ----------------------------------------------------------------

GAMES = {
    "ten-point": TEN_POINT_GAME,
    "campbell-ten": CAMPBELL_TEN_GAME,
    "campbell-eleven": CAMPBELL_ELEVEN_GAME,
    "razzle-dazzle": RAZZLE_DAZZLE_GAME,
    "wahoo-ten": WAHOO_TEN_GAME,
    "susqy-river": SUSQY_RIVER_GAME,
    "roadhouse": ROADHOUSE_GAME,
    "cell": CELL_GAME,
    "seven-point": SEVEN_POINT_GAME,
    "seventeen-point": SEVENTEEN_POINT_GAME,
    "maryland-jack": MARYLAND_JACK_GAME,
    "high-five": HIGH_FIVE_GAME,
    "partnership-draw": PARTNERSHIP_DRAW_GAME,
    "nine-five": NINE_FIVE_GAME,
    "nine-five-hotshot": NINE_FIVE_HOTSHOT_GAME,
    "nine-five-connecticut": NINE_FIVE_CONNECTICUT_GAME,
    "five-nine-connecticut": FIVE_NINE_CONNECTICUT_GAME,
    "bonanza": BONANZA_GAME,
    "contway-six": CONTWAY_SIX_GAME,
    "five-point-joker": FIVE_POINT_JOKER_GAME,
    "six-point-joker": SIX_POINT_JOKER_GAME,
    "smear": SMEAR_GAME,
}


def test_every_variant_has_a_game():
    assert set(GAMES) == set(SETTINGS)
    for name, game in GAMES.items():
        assert game.rules.preset == name
        assert game.replay().finished, name


@pytest.mark.parametrize("game", GAMES.values(), ids=GAMES.keys())
def test_every_variant_game_exports_and_imports(game):
    exported = game_to_data(
        GameRecord(game.rules, game.seating, game.first_dealer, game.hands), game.replay(), 3
    )
    [again] = load_json(json.dumps(exported))
    parsed = parse_game(again)

    assert parsed.rules == game.rules
    assert parsed.replay() == game.replay()
    assert game_to_data(parsed, parsed.replay(), 3) == exported
    # The preset's name alone gives the same game.
    by_name = parse_game({**again, "rules": game.rules.preset})
    assert by_name.replay() == game.replay()


def test_the_record_writes_word_bids_and_partners_as_they_are():
    game = RAZZLE_DAZZLE_GAME
    exported = game_to_data(
        GameRecord(game.rules, game.seating, game.first_dealer, game.hands), game.replay()
    )

    assert exported["hands"][1]["auction"][0] == ["Bob", "8x2"]
    assert exported["hands"][1]["partner"] == "Ann"
    assert "partner" not in exported["hands"][2]
    assert [hand["bid"] for hand in exported["result"]["hands"]] == [6, "8x2", "moon"]
    assert (exported["result"]["winner"], exported["result"]["won_by"]) == ("Cy", "smudge")


def test_a_drawn_game_exports_without_a_winner():
    rules = resolve_rules({"preset": "nine-five", "lose_at": None, "draw_at": -200})
    exported = game_to_data(
        GameRecord(rules, TEAMS, "Dee", (BLIND_FAILS,) * 10),
        replay(rules, TEAMS, "Dee", [BLIND_FAILS] * 10),
    )

    result = exported["result"]
    assert (result["winner"], result["won_by"], result["dealer"], result["settlement"]) == (
        None,
        "draw",
        None,
        None,
    )
    assert exported["hands"][0] == {
        "pitcher": "Bob",
        "bid": "blind",
        "points": dict(BLIND_FAILS.points),
    }


@pytest.mark.parametrize(
    ("rules", "hand", "message"),
    [
        ("setback", {"pitcher": "Bob", "bid": "3x2"}, 'hand 1: "bid" must be a whole number'),
        (
            "ten-point",
            {"pitcher": "Bob", "bid": 6.5},
            'hand 1: "bid" must be a whole number or a bid written as text, such as "6x2" '
            'or "moon"',
        ),
        (
            "ten-point",
            {"pitcher": "Bob", "bid": "3", "points": {}},
            "hand 1: Bob bid '3'; bids go from 1 to 9, doubled 1x2 to 9x2, or moon",
        ),
        (
            "ten-point",
            {"auction": [["Ann", "pass"], ["Bob", None], ["Cy", None], ["Dee", None]]},
            "hand 1: Ann bid 'pass'; bids go from 1 to 9, doubled 1x2 to 9x2, or moon",
        ),
        (
            "setback",
            {"auction": [["Ann", "moon"], ["Bob", None], ["Cy", None], ["Dee", None]]},
            'hand 1: "auction" must be a list of [player, bid] pairs, null for a pass',
        ),
        (
            "razzle-dazzle",
            {"pitcher": "Bob", "bid": 2, "partner": 3},
            'hand 1: "partner" must be a player\'s name',
        ),
    ],
)
def test_bad_word_bids_in_a_record(rules, hand, message):
    teams = {"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]} if PRESETS[rules].partnership else None
    data = {
        "format": "pitchkeeper.game/1",
        "rules": rules,
        "players": ["Ann", "Bob", "Cy", "Dee"],
        "first_dealer": "Dee",
        "hands": [hand],
    }
    if teams:
        data["teams"] = teams
    with pytest.raises(RuleError) as caught:
        parse_game(data)

    assert str(caught.value) == message
