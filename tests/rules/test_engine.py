"""The rules engine: scoring, revokes, winning, dealing, auctions, settlement, errors.

Every expected number below is worked out by hand from the rules (issue 2 and the
seeds), never by asking the engine a second time. Unless a test says otherwise the
table is Ann, Bob, Cy, Dee clockwise, Dee deals first (so Ann is eldest and bids
first), and the rules are the ``setback`` preset: target 7, bids 2-4.
"""

from __future__ import annotations

import pytest

from pitchkeeper.rules import (
    PRESETS,
    GameResult,
    HandRecord,
    Reach,
    RuleError,
    Ruleset,
    Seating,
    Team,
    bidding_order,
    check_auction,
    eldest_of,
    legal_bids,
    replay,
    resolve_rules,
    settle,
)

SETBACK = PRESETS["setback"]
AUCTION_PITCH = PRESETS["auction-pitch"]
PARTNERSHIP = PRESETS["partnership"]
WITH_BIDDING = PRESETS["pitch-with-bidding"]
BLIND = PRESETS["blind-all-fours"]

FOUR = Seating(("Ann", "Bob", "Cy", "Dee"))
THREE = Seating(("Ann", "Bob", "Cy"))
# Partners sit opposite: Ann and Cy against Bob and Dee.
TEAMS = Seating(
    ("Ann", "Bob", "Cy", "Dee"), (Team("Us", ("Ann", "Cy")), Team("Them", ("Bob", "Dee")))
)

ALL_PASS = (("Ann", None), ("Bob", None), ("Cy", None), ("Dee", None))


def played(pitcher: str | None, bid: int | None, *, high, low, jack, game, **extra) -> HandRecord:
    """A played High-Low-Jack-Game hand given as pitcher + bid (no auction)."""
    points = {"high": high, "low": low, "jack": jack, "game": game}
    return HandRecord(pitcher=pitcher, bid=bid, points=points, **extra)


def sweep(pitcher: str, bid: int, **extra) -> HandRecord:
    """The pitcher takes all four points."""
    return played(pitcher, bid, high=pitcher, low=pitcher, jack=pitcher, game=pitcher, **extra)


def up(name: str, points: int) -> HandRecord:
    """``name`` bids 2 and takes 2, 3 or 4 points (High, Low, then Jack, then Game)."""
    assert 2 <= points <= 4
    jack = name if points >= 3 else None
    game = name if points == 4 else None
    return played(name, 2, high=name, low=name, jack=jack, game=game)


def run(
    hands: list[HandRecord],
    rules: Ruleset = SETBACK,
    seating: Seating = FOUR,
    first_dealer: str = "Dee",
) -> GameResult:
    return replay(rules, seating, first_dealer, hands)


def rule_error(hands: list[HandRecord], **kwargs) -> RuleError:
    with pytest.raises(RuleError) as caught:
        run(hands, **kwargs)
    return caught.value


# --- Scoring a played hand ---------------------------------------------------------------


def test_made_bid_scores_everything_taken_even_above_the_bid():
    result = run([played("Bob", 2, high="Bob", low="Bob", jack="Cy", game="Bob")])

    hand = result.hands[0]
    assert hand.made is True
    assert hand.taken == {"Ann": 0, "Bob": 3, "Cy": 1, "Dee": 0}
    assert hand.delta == {"Ann": 0, "Bob": 3, "Cy": 1, "Dee": 0}
    assert result.scores == {"Ann": 0, "Bob": 3, "Cy": 1, "Dee": 0}
    assert hand.set_back == ()


def test_bid_made_exactly():
    result = run([played("Bob", 3, high="Bob", low="Ann", jack="Bob", game="Bob")])

    assert result.hands[0].made is True
    assert result.scores == {"Ann": 1, "Bob": 3, "Cy": 0, "Dee": 0}


def test_failed_bid_is_set_back_by_the_bid_and_the_others_score():
    result = run([played("Bob", 3, high="Bob", low="Cy", jack=None, game="Bob")])

    hand = result.hands[0]
    assert hand.made is False
    assert hand.taken == {"Ann": 0, "Bob": 2, "Cy": 1, "Dee": 0}
    assert hand.delta == {"Ann": 0, "Bob": -3, "Cy": 1, "Dee": 0}
    assert hand.set_back == ("Bob",)
    assert result.setbacks == {"Ann": 0, "Bob": 1, "Cy": 0, "Dee": 0}


def test_negative_scores_are_kept_and_zero_is_not_in_the_hole():
    result = run(
        [
            played("Bob", 4, high="Ann", low="Ann", jack="Ann", game="Cy"),  # Bob -4
            played("Ann", 2, high="Ann", low="Ann", jack="Bob", game="Ann"),  # Ann 3+3, Bob -3
            played("Cy", 3, high="Cy", low="Bob", jack="Cy", game="Cy"),  # Bob -2, Cy 1+3
        ]
    )

    assert result.scores == {"Ann": 6, "Bob": -2, "Cy": 4, "Dee": 0}
    assert result.in_hole("Bob")
    assert not result.in_hole("Dee")
    assert result.winner is None


@pytest.mark.parametrize(
    ("bid", "jack", "taken"),
    [
        (2, None, 2),  # the lone trump is both High and Low (seed 001)
        (3, "Bob", 3),  # ... and when it is the Jack it scores 3
    ],
)
def test_lone_trump_is_worth_two_or_three(bid, jack, taken):
    result = run([played("Bob", bid, high="Bob", low="Bob", jack=jack, game="Cy")])

    assert result.hands[0].made is True
    assert result.hands[0].taken["Bob"] == taken
    assert result.scores == {"Ann": 0, "Bob": taken, "Cy": 1, "Dee": 0}


def test_game_tied_goes_to_nobody():
    result = run([played("Bob", 3, high="Bob", low="Bob", jack="Bob", game=None)])

    hand = result.hands[0]
    assert hand.points["game"] is None
    assert hand.made is True
    assert result.scores == {"Ann": 0, "Bob": 3, "Cy": 0, "Dee": 0}


def test_game_tied_can_leave_the_pitcher_short():
    result = run([played("Bob", 4, high="Bob", low="Bob", jack="Bob", game=None)])

    assert result.hands[0].made is False
    assert result.scores == {"Ann": 0, "Bob": -4, "Cy": 0, "Dee": 0}


def test_jack_not_dealt_goes_to_nobody():
    result = run([played("Bob", 2, high="Bob", low="Cy", jack=None, game="Bob")])

    assert result.hands[0].points == {"high": "Bob", "low": "Cy", "jack": None, "game": "Bob"}
    assert result.scores == {"Ann": 0, "Bob": 2, "Cy": 1, "Dee": 0}


def test_no_junk_points_only_the_pitcher_scores():
    rules = resolve_rules({"preset": "setback", "non_pitchers_score": False})

    made = run([played("Bob", 2, high="Bob", low="Cy", jack="Ann", game="Bob")], rules=rules)
    failed = run([played("Bob", 3, high="Bob", low="Cy", jack="Ann", game="Bob")], rules=rules)

    assert made.scores == {"Ann": 0, "Bob": 2, "Cy": 0, "Dee": 0}
    assert made.hands[0].taken == {"Ann": 1, "Bob": 2, "Cy": 1, "Dee": 0}
    assert failed.scores == {"Ann": 0, "Bob": -3, "Cy": 0, "Dee": 0}


def test_count_categories_score_value_times_count():
    # Queens 2, Kings 3, Aces 4 each (seed 003).
    hand = HandRecord(
        pitcher="Ann",
        bid=5,
        points={
            "high": "Ann",
            "low": "Bob",
            "jacks": {"Bob": 2},
            "queens": {"Ann": 2, "Cy": 1},
            "kings": {"Bob": 1},
            "aces": {"Cy": 1, "Ann": 0},
        },
    )
    result = run([hand], rules=WITH_BIDDING, seating=THREE, first_dealer="Cy")

    assert result.hands[0].taken == {"Ann": 1 + 4, "Bob": 1 + 2 + 3, "Cy": 2 + 4}
    assert result.hands[0].made is True
    assert result.scores == {"Ann": 5, "Bob": 6, "Cy": 6}
    assert result.hands[0].points["aces"] == {"Cy": 1}


# --- Revokes -----------------------------------------------------------------------------


def test_pitcher_revoked_is_set_back_and_the_others_score():
    # Bob took 3, enough for his 2, but revoked: nothing for him and set back 2.
    result = run([played("Bob", 2, high="Bob", low="Bob", jack="Cy", game="Bob", revoked=("Bob",))])

    hand = result.hands[0]
    assert hand.delta == {"Ann": 0, "Bob": -2, "Cy": 1, "Dee": 0}
    assert hand.set_back == ("Bob",)
    assert hand.revoked == ("Bob",)
    assert hand.made is False
    assert result.setbacks["Bob"] == 1


def test_defender_revoked_is_set_back_by_the_bid_and_the_pitcher_scores_even_short():
    # Bob bid 3 and took only High; Cy revoked, so Bob keeps his 1 point.
    result = run([played("Bob", 3, high="Bob", low="Cy", jack="Ann", game="Dee", revoked=("Cy",))])

    hand = result.hands[0]
    assert hand.made is False
    assert hand.delta == {"Ann": 1, "Bob": 1, "Cy": -3, "Dee": 1}
    assert hand.set_back == ("Cy",)
    assert result.setbacks == {"Ann": 0, "Bob": 0, "Cy": 1, "Dee": 0}


def test_pitcher_and_a_defender_both_revoked_are_both_set_back():
    result = run(
        [played("Bob", 2, high="Bob", low="Cy", jack="Ann", game="Bob", revoked=("Cy", "Bob"))]
    )

    assert result.hands[0].delta == {"Ann": 1, "Bob": -2, "Cy": -2, "Dee": 0}
    assert set(result.hands[0].set_back) == {"Bob", "Cy"}


def test_revoke_without_bidding_scores_nothing_but_is_not_set_back():
    # Blind all fours: Ann, left of the dealer, pitches; there is no bid to lose.
    hand = played(None, None, high="Ann", low="Bob", jack="Bob", game="Cy", revoked=("Bob",))
    result = run([hand], rules=BLIND)

    assert result.hands[0].delta == {"Ann": 1, "Bob": 0, "Cy": 1, "Dee": 0}
    assert result.hands[0].set_back == ()
    assert result.setbacks == {"Ann": 0, "Bob": 0, "Cy": 0, "Dee": 0}


def test_revoke_names_are_matched_without_case_and_counted_once():
    result = run(
        [played("Bob", 2, high="Bob", low="Bob", jack=None, game=None, revoked=("cy", "CY"))]
    )

    assert result.hands[0].revoked == ("Cy",)
    assert result.scores == {"Ann": 0, "Bob": 2, "Cy": -2, "Dee": 0}


# --- Winning: count_order (seed 000) -----------------------------------------------------


def test_pitcher_is_counted_first_even_when_a_defender_ends_higher():
    hands = [up("Ann", 3), up("Ann", 3), up("Bob", 3), up("Bob", 2)]  # Ann 6, Bob 5
    # Ann reaches 7 on High, before Bob's Jack, and ends on 8; Bob made his bid.
    hands.append(played("Bob", 2, high="Ann", low="Ann", jack="Bob", game="Bob"))
    result = run(hands)

    assert result.scores == {"Ann": 8, "Bob": 7, "Cy": 0, "Dee": 0}
    assert result.winner == "Bob"
    assert result.won_by == "count_order"
    assert result.reached == (Reach("Bob", None), Reach("Ann", "high"))
    assert result.dealer is None


@pytest.mark.parametrize(
    ("points", "winner", "reached"),
    [
        ({"high": "Ann", "low": "Cy", "jack": "Bob", "game": "Bob"}, "Ann", ("Ann", "Cy")),
        ({"high": "Cy", "low": "Ann", "jack": "Bob", "game": "Bob"}, "Cy", ("Cy", "Ann")),
        ({"high": "Bob", "low": "Bob", "jack": "Cy", "game": "Ann"}, "Cy", ("Cy", "Ann")),
        ({"high": "Bob", "low": "Bob", "jack": "Ann", "game": "Cy"}, "Ann", ("Ann", "Cy")),
    ],
)
def test_category_order_decides_between_two_defenders(points, winner, reached):
    hands = [up("Ann", 3), up("Ann", 3), up("Cy", 3), up("Cy", 3)]  # Ann 6, Cy 6
    hands.append(HandRecord(pitcher="Bob", bid=2, points=points))  # Bob makes 2
    result = run(hands)

    assert result.scores == {"Ann": 7, "Bob": 2, "Cy": 7, "Dee": 0}
    assert result.winner == winner
    assert [r.side for r in result.reached] == list(reached)


def test_set_back_pitcher_cannot_win_and_a_defender_can():
    hands = [up("Bob", 3), up("Bob", 3), up("Ann", 3), up("Ann", 3)]  # Bob 6, Ann 6
    # Bob's High and Low would take him to 8, but he bid 3: set back to 3.
    hands.append(played("Bob", 3, high="Bob", low="Bob", jack="Ann", game=None))
    result = run(hands)

    assert result.scores == {"Ann": 7, "Bob": 3, "Cy": 0, "Dee": 0}
    assert result.winner == "Ann"
    assert result.reached == (Reach("Ann", "jack"),)


def test_set_back_pitcher_over_the_target_wins_nothing():
    hands = [up("Bob", 3), up("Bob", 3)]  # Bob 6
    hands.append(played("Bob", 3, high="Bob", low="Bob", jack=None, game="Cy"))
    result = run(hands)

    assert result.scores == {"Ann": 0, "Bob": 3, "Cy": 1, "Dee": 0}
    assert result.winner is None
    assert result.dealer == "Cy"


def test_revoking_defender_cannot_win_on_that_hand():
    hands = [up("Cy", 3), up("Cy", 3)]  # Cy 6
    hands.append(played("Bob", 2, high="Cy", low="Ann", jack="Bob", game="Bob", revoked=("Cy",)))
    result = run(hands)

    assert result.scores == {"Ann": 1, "Bob": 2, "Cy": 4, "Dee": 0}
    assert result.winner is None


def test_pitcher_excused_by_a_defenders_revoke_is_still_counted_first():
    hands = [up("Bob", 3), up("Bob", 3), up("Ann", 3), up("Ann", 3)]  # Bob 6, Ann 6
    # Bob bid 3 and took only Low, but Cy revoked: Bob scores his 1 and is counted
    # before Ann's High.
    hands.append(played("Bob", 3, high="Ann", low="Bob", jack="Cy", game="Dee", revoked=("Cy",)))
    result = run(hands)

    assert result.scores == {"Ann": 7, "Bob": 7, "Cy": -3, "Dee": 1}
    assert result.winner == "Bob"
    assert result.reached == (Reach("Bob", None), Reach("Ann", "high"))


def test_all_points_of_the_winning_hand_still_count():
    hands = [up("Ann", 3), up("Ann", 3)]  # Ann 6
    hands.append(played("Ann", 2, high="Ann", low="Ann", jack="Cy", game="Dee"))
    result = run(hands)

    assert result.winner == "Ann"
    assert result.scores == {"Ann": 8, "Bob": 0, "Cy": 1, "Dee": 1}


def test_without_bidding_nobody_is_counted_first():
    # Blind all fours to 3: Bob pitches the second hand and reaches 3 on the Jack,
    # but Ann gets there first on High (seed 004: strictly in the order of the table).
    rules = resolve_rules({"preset": "blind-all-fours", "target": 3})
    hands = [
        played(None, None, high="Bob", low="Ann", jack="Ann", game=None),  # Ann pitches
        played(None, None, high="Ann", low="Bob", jack="Bob", game=None),  # Bob pitches
    ]
    result = replay(rules, Seating(("Ann", "Bob")), "Bob", hands)

    assert result.hands[1].pitcher == "Bob"
    assert result.scores == {"Ann": 3, "Bob": 3}
    assert result.winner == "Ann"
    assert result.reached == (Reach("Ann", "high"), Reach("Bob", "jack"))


def test_two_sides_reaching_on_one_count_category_the_higher_total_wins():
    rules = resolve_rules({"preset": "pitch-with-bidding", "winner": "count_order"})
    no_counts = {"jacks": {}, "queens": {}, "kings": {}, "aces": {}}
    hands = [
        # Cy pitches 1 and takes High and Low; Ann 2 Queens (4), Bob 1 Queen + 1 King (5).
        HandRecord(
            pitcher="Cy",
            bid=1,
            points={
                **no_counts,
                "high": "Cy",
                "low": "Cy",
                "queens": {"Ann": 2, "Bob": 1},
                "kings": {"Bob": 1},
            },
        ),
        # Both defenders take a King: Ann 7, Bob 8, both on Kings. Cy 2 + 1 = 3.
        HandRecord(
            pitcher="Cy",
            bid=1,
            points={
                **no_counts,
                "high": "Cy",
                "low": "Dee",
                "kings": {"Ann": 1, "Bob": 1},
            },
        ),
    ]
    result = run(hands, rules=rules)

    assert result.scores == {"Ann": 7, "Bob": 8, "Cy": 3, "Dee": 1}
    assert result.winner == "Bob"
    assert result.reached == (Reach("Bob", "kings"), Reach("Ann", "kings"))


def test_two_sides_reaching_equal_on_one_count_category_earlier_bidder_wins():
    rules = resolve_rules({"preset": "pitch-with-bidding", "winner": "count_order"})
    no_counts = {"jacks": {}, "queens": {}, "kings": {}, "aces": {}}
    hands = [
        # Dee deals; Cy pitches 1 with High and Low; Ann and Bob each 2 Queens (4).
        HandRecord(
            pitcher="Cy",
            bid=1,
            points={
                **no_counts,
                "high": "Cy",
                "low": "Cy",
                "queens": {"Ann": 2, "Bob": 2},
            },
        ),
        # Ann deals, so Bob bids before Ann: both reach 7 on Kings and Bob wins.
        HandRecord(
            pitcher="Cy",
            bid=1,
            points={
                **no_counts,
                "high": "Cy",
                "low": "Dee",
                "kings": {"Ann": 1, "Bob": 1},
            },
        ),
    ]
    result = run(hands, rules=rules)

    assert result.hands[1].dealer == "Ann"
    assert result.scores == {"Ann": 7, "Bob": 7, "Cy": 3, "Dee": 1}
    assert result.winner == "Bob"
    assert result.reached == (Reach("Bob", "kings"), Reach("Ann", "kings"))


def test_two_teams_reaching_equal_on_one_count_category_earlier_bidding_team_wins():
    # Three teams of two; a count category "tens"; target 3.
    rules = resolve_rules(
        {
            "preset": "partnership",
            "target": 3,
            "min_bid": 1,
            "categories": [
                {"key": "high", "label": "High", "required": True},
                {"key": "low", "label": "Low", "required": True},
                {"key": "jack", "label": "Jack"},
                {"key": "tens", "label": "Tens", "kind": "count", "max_count": 4},
            ],
        }
    )
    seating = Seating(
        ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay"),
        (Team("N", ("Ann", "Dee")), Team("E", ("Bob", "Eve")), Team("S", ("Cy", "Fay"))),
    )
    # Bob deals, so the bidding order is Cy (S), Dee (N), Eve (E), ...: S before E.
    hand = HandRecord(
        pitcher="Ann",
        bid=1,
        points={"high": "Ann", "low": "Bob", "jack": "Cy", "tens": {"Eve": 2, "Fay": 2}},
    )
    result = replay(rules, seating, "Bob", [hand])

    assert result.scores == {"N": 1, "E": 3, "S": 3}
    assert result.winner == "S"
    assert result.reached == (Reach("S", "tens"), Reach("E", "tens"))


# --- Smudges -----------------------------------------------------------------------------


def test_setback_smudge_made_wins_at_once():
    # Bob is at 0, which is not in the hole.
    result = run([sweep("Bob", 4)])

    assert result.hands[0].smudge is True
    assert result.hands[0].made is True
    assert result.scores == {"Ann": 0, "Bob": 4, "Cy": 0, "Dee": 0}
    assert result.winner == "Bob"
    assert result.won_by == "smudge"
    assert result.dealer is None


def test_setback_smudge_from_the_hole_just_scores_four():
    hands = [played("Bob", 2, high="Ann", low="Ann", jack=None, game=None), sweep("Bob", 4)]
    result = run(hands)

    assert result.hands[1].delta == {"Ann": 0, "Bob": 4, "Cy": 0, "Dee": 0}
    assert result.scores == {"Ann": 2, "Bob": 2, "Cy": 0, "Dee": 0}
    assert result.winner is None
    assert result.dealer == "Bob"


def test_setback_smudge_from_the_hole_can_still_win_by_count():
    rules = resolve_rules({"preset": "setback", "target": 2})
    hands = [played("Bob", 2, high="Ann", low="Cy", jack=None, game=None), sweep("Bob", 4)]
    result = run(hands, rules=rules)

    # -2 + 4 = 2 reaches the target of 2: a win on the count, not by the smudge.
    assert result.scores == {"Ann": 1, "Bob": 2, "Cy": 1, "Dee": 0}
    assert result.winner == "Bob"
    assert result.won_by == "count_order"


def test_setback_smudge_impossible_without_the_jack():
    result = run([played("Bob", 4, high="Bob", low="Bob", jack=None, game="Bob")])

    assert result.hands[0].made is False
    assert result.scores == {"Ann": 0, "Bob": -4, "Cy": 0, "Dee": 0}
    assert result.winner is None


def test_setback_smudge_by_a_revoking_pitcher_does_not_win():
    result = run([sweep("Bob", 4, revoked=("Bob",))])

    assert result.scores == {"Ann": 0, "Bob": -4, "Cy": 0, "Dee": 0}
    assert result.hands[0].set_back == ("Bob",)
    assert result.winner is None


def test_auction_pitch_has_no_smudge_a_four_is_ordinary():
    result = run([sweep("Bob", 4)], rules=AUCTION_PITCH)

    assert result.hands[0].smudge is False
    assert result.scores == {"Ann": 0, "Bob": 4, "Cy": 0, "Dee": 0}
    assert result.winner is None


@pytest.mark.parametrize(
    ("points", "all_tricks", "made", "us"),
    [
        ({"high": "Ann", "low": "Cy", "jack": "Us", "game": "Ann"}, True, True, 5),
        # all four points but not every trick
        ({"high": "Ann", "low": "Cy", "jack": "Us", "game": "Ann"}, False, False, -5),
        # the Jack was not dealt: cannot be made even with every trick
        ({"high": "Ann", "low": "Cy", "jack": None, "game": "Ann"}, True, False, -5),
        # every trick claimed but Them took Low
        ({"high": "Ann", "low": "Bob", "jack": "Us", "game": "Ann"}, True, False, -5),
    ],
)
def test_partnership_smudge_is_a_bid_of_five(points, all_tricks, made, us):
    hand = HandRecord(pitcher="Ann", bid=5, points=points, all_tricks=all_tricks)
    result = run([hand], rules=PARTNERSHIP, seating=TEAMS)

    them = 1 if points["low"] == "Bob" else 0
    assert result.hands[0].smudge is True
    assert result.hands[0].made is made
    assert result.scores == {"Us": us, "Them": them}
    assert result.winner is None


def test_partnership_four_is_an_ordinary_bid():
    hand = HandRecord(
        pitcher="Ann", bid=4, points={"high": "Ann", "low": "Cy", "jack": "Us", "game": "Ann"}
    )
    result = run([hand], rules=PARTNERSHIP, seating=TEAMS)

    assert result.hands[0].smudge is False
    assert result.scores == {"Us": 4, "Them": 0}


# --- Winning: bidder_out (seed 001) ------------------------------------------------------


def test_bidder_out_defender_passes_the_target_without_winning_and_a_pitcher_goes_out():
    hands = [
        sweep("Cy", 4),  # Cy 4 (a 4 is an ordinary bid here)
        played("Bob", 1, high="Ann", low="Ann", jack="Ann", game="Ann"),  # Ann 4, Bob -1
        played("Bob", 1, high="Ann", low="Ann", jack="Ann", game="Ann"),  # Ann 8: no win
    ]
    before = run(hands, rules=AUCTION_PITCH)
    assert before.scores == {"Ann": 8, "Bob": -2, "Cy": 4, "Dee": 0}
    assert before.winner is None

    # Cy bids 3 and makes it: 7, fewer than Ann's 8, and Cy goes out.
    hands.append(played("Cy", 3, high="Cy", low="Cy", jack="Cy", game="Dee"))
    result = run(hands, rules=AUCTION_PITCH)

    assert result.scores == {"Ann": 8, "Bob": -2, "Cy": 7, "Dee": 1}
    assert result.winner == "Cy"
    assert result.won_by == "bidder_out"


def test_bidder_out_defender_over_the_target_wins_by_pitching():
    hands = [played("Bob", 1, high="Ann", low="Ann", jack="Ann", game="Ann")] * 2  # Ann 8
    hands.append(played("Ann", 1, high="Ann", low="Bob", jack=None, game=None))
    result = run(hands, rules=AUCTION_PITCH)

    assert result.scores == {"Ann": 9, "Bob": -1, "Cy": 0, "Dee": 0}
    assert result.winner == "Ann"
    assert result.won_by == "bidder_out"


def test_bidder_out_failed_pitcher_does_not_go_out():
    hands = [played("Bob", 1, high="Ann", low="Ann", jack="Ann", game="Ann")] * 2  # Ann 8
    hands.append(played("Ann", 3, high="Ann", low="Bob", jack=None, game=None))
    result = run(hands, rules=AUCTION_PITCH)

    assert result.scores == {"Ann": 5, "Bob": -1, "Cy": 0, "Dee": 0}
    assert result.winner is None


def test_bidder_out_revoking_pitcher_does_not_go_out():
    hands = [played("Bob", 1, high="Ann", low="Ann", jack="Ann", game="Ann")] * 2  # Ann 8
    # Ann takes 2 for her 1 but revoked: set back to 7, which must not win.
    hands.append(played("Ann", 1, high="Ann", low="Ann", jack=None, game=None, revoked=("Ann",)))
    result = run(hands, rules=AUCTION_PITCH)

    assert result.scores == {"Ann": 7, "Bob": -2, "Cy": 0, "Dee": 0}
    assert result.winner is None


def test_bidder_out_excused_pitcher_short_of_the_bid_does_not_go_out():
    hands = [played("Bob", 1, high="Ann", low="Ann", jack="Ann", game="Ann")] * 2  # Ann 8
    # Ann bid 3, took 1; Cy revoked, so Ann keeps 1 point, but she did not make 3.
    hands.append(played("Ann", 3, high="Ann", low="Bob", jack="Cy", game=None, revoked=("Cy",)))
    result = run(hands, rules=AUCTION_PITCH)

    assert result.scores == {"Ann": 9, "Bob": -1, "Cy": -3, "Dee": 0}
    assert result.winner is None


# --- Winning: highest_total (seed 003) ---------------------------------------------------


def wb(pitcher: str, bid: int, **points) -> HandRecord:
    """A pitch-with-bidding hand; unnamed count categories were taken by nobody."""
    full = {"jacks": {}, "queens": {}, "kings": {}, "aces": {}, **points}
    return HandRecord(pitcher=pitcher, bid=bid, points=full)


def test_highest_total_highest_score_wins_pitcher_or_not():
    # Cy deals, Ann pitches 1 and makes 2; Bob takes two Aces: 8.
    hand = wb("Ann", 1, high="Ann", low="Ann", aces={"Bob": 2})
    result = run([hand], rules=WITH_BIDDING, seating=THREE, first_dealer="Cy")

    assert result.scores == {"Ann": 2, "Bob": 8, "Cy": 0}
    assert result.winner == "Bob"
    assert result.won_by == "highest_total"


def test_highest_total_tie_with_the_pitcher_goes_to_the_pitcher():
    # Ann bids 7 and takes an Ace and a King (7); Bob takes High, Low, a Jack and
    # two Queens (7) and has more High/Low/Jack points, but the pitcher wins the tie.
    hand = wb(
        "Ann",
        7,
        high="Bob",
        low="Bob",
        jacks={"Bob": 1},
        queens={"Bob": 2},
        kings={"Ann": 1},
        aces={"Ann": 1},
    )
    result = run([hand], rules=WITH_BIDDING, seating=THREE, first_dealer="Cy")

    assert result.scores == {"Ann": 7, "Bob": 7, "Cy": 0}
    assert result.winner == "Ann"


def test_highest_total_tie_between_defenders_goes_to_most_high_low_jack_over_the_game():
    hands = [
        # Cy pitches 1 with a King (3); Bob takes High, Low and Jack (3).
        wb("Cy", 1, high="Bob", low="Bob", jacks={"Bob": 1}, kings={"Cy": 1}),
        # Cy pitches 1 with High; Ann: Low, a Jack, a Queen, a King (7); Bob: an Ace (3 + 4).
        wb(
            "Cy",
            1,
            high="Cy",
            low="Ann",
            jacks={"Ann": 1},
            queens={"Ann": 1},
            kings={"Ann": 1},
            aces={"Bob": 1},
        ),
    ]
    result = run(hands, rules=WITH_BIDDING, seating=THREE, first_dealer="Cy")

    # On the last hand alone Ann has 2 High/Low/Jack points to Bob's 0; over the game
    # Bob has 3 to Ann's 2.
    assert result.scores == {"Ann": 7, "Bob": 7, "Cy": 4}
    assert result.winner == "Bob"


def still_tied_hand() -> HandRecord:
    # Cy pitches 1 with High; Ann: Low, a Queen, an Ace (7); Bob: a Jack and two Kings (7).
    return wb(
        "Cy",
        1,
        high="Cy",
        low="Ann",
        jacks={"Bob": 1},
        queens={"Ann": 1},
        kings={"Bob": 2},
        aces={"Ann": 1},
    )


def test_highest_total_still_tied_plays_on():
    first = run([still_tied_hand()], rules=WITH_BIDDING, seating=THREE, first_dealer="Cy")

    assert first.scores == {"Ann": 7, "Bob": 7, "Cy": 1}
    assert first.winner is None
    assert first.dealer == "Ann"

    result = run(
        [still_tied_hand(), wb("Cy", 1, high="Cy", low="Ann")],
        rules=WITH_BIDDING,
        seating=THREE,
        first_dealer="Cy",
    )
    assert result.scores == {"Ann": 8, "Bob": 7, "Cy": 2}
    assert result.winner == "Ann"


def test_highest_total_tiebreak_setting_chooses_the_categories():
    rules = resolve_rules({"preset": "pitch-with-bidding", "tiebreak": ["aces"]})
    result = run([still_tied_hand()], rules=rules, seating=THREE, first_dealer="Cy")

    assert result.scores == {"Ann": 7, "Bob": 7, "Cy": 1}
    assert result.winner == "Ann"  # one Ace (4) to none


def test_highest_total_below_the_target_nobody_wins():
    hand = wb("Ann", 1, high="Ann", low="Ann", aces={"Bob": 1})
    result = run([hand], rules=WITH_BIDDING, seating=THREE, first_dealer="Cy")

    assert result.scores == {"Ann": 2, "Bob": 4, "Cy": 0}
    assert result.winner is None


# --- Once won ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "extra",
    [
        HandRecord(misdeal=True),
        HandRecord(auction=ALL_PASS),
        played("Ann", 2, high="Ann", low="Ann", jack=None, game=None),
    ],
    ids=["misdeal", "all-pass", "played"],
)
def test_no_hand_can_follow_the_winning_one(extra):
    error = rule_error([sweep("Bob", 4), extra])

    assert error.hand == 2
    assert str(error) == "hand 2: the game was won on hand 1; no hand can follow it"


# --- Dealing and rotation ----------------------------------------------------------------


def test_deal_passes_left_after_each_played_hand_and_wraps_round():
    hands = [played("Ann", 2, high="Ann", low="Bob", jack=None, game=None)] * 5
    result = run(hands)

    assert [h.dealer for h in result.hands] == ["Dee", "Ann", "Bob", "Cy", "Dee"]
    assert result.dealer == "Ann"


def test_misdeal_passes_the_deal_and_changes_nothing():
    result = run([HandRecord(misdeal=True), HandRecord(misdeal=True)])

    assert [(h.kind, h.dealer) for h in result.hands] == [("misdeal", "Dee"), ("misdeal", "Ann")]
    assert result.hands[0].scores == {"Ann": 0, "Bob": 0, "Cy": 0, "Dee": 0}
    assert result.hands[0].delta == {}
    assert result.dealer == "Bob"


def test_all_pass_redeal_keeps_the_dealer_and_changes_nothing():
    hands = [
        up("Ann", 2),
        HandRecord(auction=(("Bob", None), ("Cy", None), ("Dee", None), ("Ann", None))),
        HandRecord(auction=(("Bob", None), ("Cy", None), ("Dee", None), ("Ann", None))),
    ]
    result = run(hands)

    assert [(h.kind, h.dealer) for h in result.hands] == [
        ("played", "Dee"),
        ("redeal", "Ann"),
        ("redeal", "Ann"),
    ]
    assert result.hands[2].scores == {"Ann": 2, "Bob": 0, "Cy": 0, "Dee": 0}
    assert result.dealer == "Ann"


def test_dealer_forced_all_pass_is_refused():
    error = rule_error([HandRecord(auction=ALL_PASS)], rules=AUCTION_PITCH)

    assert error.field == "auction"
    assert str(error) == "hand 1: everybody else passed, so Dee, the dealer, must bid at least 2"


def test_eldest_and_bidding_order():
    assert eldest_of(FOUR, "Dee") == "Ann"
    assert eldest_of(FOUR, "Bob") == "Cy"
    assert bidding_order(FOUR, "Bob") == ("Cy", "Dee", "Ann", "Bob")


def test_dealer_given_in_a_hand_is_checked_against_the_rotation():
    good = run([HandRecord(misdeal=True, dealer="dee"), HandRecord(misdeal=True, dealer="Ann")])
    assert good.dealer == "Bob"

    error = rule_error([HandRecord(misdeal=True), HandRecord(misdeal=True, dealer="Bob")])
    assert error.field == "dealer"
    assert str(error) == "hand 2: Ann deals this hand by the rotation, not Bob"


def test_without_bidding_the_eldest_pitches():
    hands = [played(None, None, high="Ann", low="Bob", jack=None, game="Bob")] * 3
    result = run(hands, rules=BLIND)

    assert [h.pitcher for h in result.hands] == ["Ann", "Bob", "Cy"]
    assert all(h.bid is None and h.made is None for h in result.hands)


@pytest.mark.parametrize(
    ("hand", "field", "message"),
    [
        (
            played("Bob", None, high="Ann", low="Ann", jack=None, game=None),
            "pitcher",
            "without bidding Ann, left of the dealer, pitches",
        ),
        (
            played("Ann", 2, high="Ann", low="Ann", jack=None, game=None),
            "bid",
            "this game has no bidding: the eldest hand pitches",
        ),
        (
            HandRecord(auction=ALL_PASS),
            "bid",
            "this game has no bidding: the eldest hand pitches",
        ),
    ],
)
def test_without_bidding_no_bids_and_no_other_pitcher(hand, field, message):
    error = rule_error([hand], rules=BLIND)

    assert error.field == field
    assert error.message == message


# --- Auctions ----------------------------------------------------------------------------


def test_auction_highest_bidder_pitches():
    hand = HandRecord(
        auction=(("Ann", 2), ("Bob", None), ("Cy", 3), ("Dee", None)),
        points={"high": "Cy", "low": "Cy", "jack": "Cy", "game": "Ann"},
    )
    result = run([hand])

    assert (result.hands[0].pitcher, result.hands[0].bid) == ("Cy", 3)
    assert result.scores == {"Ann": 1, "Bob": 0, "Cy": 3, "Dee": 0}


def test_dealer_may_steal_by_equalling_the_highest_bid():
    assert check_auction(
        SETBACK, FOUR, "Dee", (("Ann", None), ("Bob", 3), ("Cy", None), ("Dee", 3))
    ) == ("Dee", 3)


@pytest.mark.parametrize("rules", [SETBACK, AUCTION_PITCH], ids=["setback", "auction-pitch"])
def test_dealer_may_not_steal_a_four(rules):
    with pytest.raises(RuleError) as caught:
        check_auction(rules, FOUR, "Dee", (("Ann", None), ("Bob", 4), ("Cy", None), ("Dee", 4)))

    assert caught.value.field == "auction"
    assert caught.value.message == "Dee cannot take Bob's 4: a bid of 4 cannot be taken away"


@pytest.mark.parametrize(
    ("preset", "bid"),
    [("partnership", 2), ("partnership", 3), *(("partnership-21", bid) for bid in (1, 2, 3))],
)
def test_partnership_dealer_may_steal_a_one_two_or_three(preset, bid):
    """Seed 001: "Hvis andre spillere har bud 1, 2 eller 3 ... kan forhandleren «stjele
    budet»" (partnership's least bid is 2)."""
    assert check_auction(
        resolve_rules(preset),
        TEAMS,
        "Dee",
        (("Ann", bid), ("Bob", None), ("Cy", None), ("Dee", bid)),
    ) == ("Dee", bid)


@pytest.mark.parametrize("preset", ["partnership", "partnership-21"])
@pytest.mark.parametrize("bid", [4, 5])
def test_partnership_dealer_may_not_steal_a_four_nor_the_smudge(preset, bid):
    """Seed 000: "заявку невозможно отобрать у игрока, заказавшего четыре очка"; seed
    001: the steal is over 1, 2 or 3 only. The smudge of 5 cannot be taken either."""
    with pytest.raises(RuleError) as caught:
        check_auction(
            resolve_rules(preset),
            TEAMS,
            "Dee",
            (("Ann", bid), ("Bob", None), ("Cy", None), ("Dee", bid)),
        )
    assert caught.value.message == (
        f"Dee cannot take Ann's {bid}: a bid of {bid} cannot be taken away"
    )


def test_without_steal_the_dealer_must_bid_higher():
    with pytest.raises(RuleError) as caught:
        check_auction(
            WITH_BIDDING, FOUR, "Dee", (("Ann", None), ("Bob", 3), ("Cy", None), ("Dee", 3))
        )
    assert caught.value.message == "Dee bid 3 but Bob already bid 3; each bid must be higher"


@pytest.mark.parametrize(
    ("auction", "message"),
    [
        (
            (("Ann", None), ("Bob", 3), ("Cy", 2), ("Dee", None)),
            "Cy bid 2 but Bob already bid 3; each bid must be higher",
        ),
        (
            (("Ann", 2), ("Bob", 2), ("Cy", None), ("Dee", None)),
            "Bob bid 2 but Ann already bid 2; each bid must be higher",
        ),
        (
            (("Ann", 3), ("Bob", None), ("Cy", None), ("Dee", 2)),
            "Dee bid 2 but Ann already bid 3; each bid must be higher",
        ),
        (
            (("Bob", None), ("Ann", None), ("Cy", None), ("Dee", None)),
            "Ann bids before Bob: the auction goes clockwise from Ann, left of the dealer, "
            "to Dee, the dealer",
        ),
        (
            (("Ann", None), ("Bob", None), ("Cy", None)),
            "the auction must have each of the 4 players once, from Ann (left of the dealer) "
            "round to Dee, the dealer",
        ),
        (
            (("Ann", None), ("Bob", None), ("Cy", None), ("Dee", None), ("Ann", 2)),
            "the auction must have each of the 4 players once, from Ann (left of the dealer) "
            "round to Dee, the dealer",
        ),
        (
            (("Ann", 1), ("Bob", None), ("Cy", None), ("Dee", None)),
            "Ann bid 1; bids go from 2 to 4",
        ),
        (
            (("Ann", None), ("Bob", 5), ("Cy", None), ("Dee", None)),
            "Bob bid 5; bids go from 2 to 4",
        ),
        (
            (("Ann", None), ("Bob", True), ("Cy", None), ("Dee", None)),
            "Bob's bid must be a whole number or a pass",
        ),
        (
            (("Ann", None), ("Zed", None), ("Cy", None), ("Dee", None)),
            "'Zed' is not a player at this table",
        ),
    ],
)
def test_illegal_auctions_name_the_offending_bid(auction, message):
    with pytest.raises(RuleError) as caught:
        check_auction(SETBACK, FOUR, "Dee", auction)

    assert caught.value.message == message


def test_illegal_auction_in_a_game_names_the_hand():
    hands = [HandRecord(misdeal=True)] * 4  # round to Dee again
    hands.append(HandRecord(auction=(("Ann", None), ("Bob", 3), ("Cy", 2), ("Dee", None))))
    error = rule_error(hands)

    assert error.hand == 5
    assert str(error) == "hand 5: Cy bid 2 but Bob already bid 3; each bid must be higher"


def test_dealer_forced_must_bid_at_least_two():
    assert check_auction(AUCTION_PITCH, FOUR, "Dee", (*ALL_PASS[:3], ("Dee", 2))) == ("Dee", 2)
    with pytest.raises(RuleError) as caught:
        check_auction(AUCTION_PITCH, FOUR, "Dee", (*ALL_PASS[:3], ("Dee", 1)))
    assert caught.value.message == "everybody else passed, so Dee, the dealer, must bid at least 2"


def test_dealer_forced_only_when_everybody_else_passed():
    # Somebody bid, so the dealer may pass, and may steal the 1.
    assert check_auction(
        AUCTION_PITCH, FOUR, "Dee", (("Ann", 1), ("Bob", None), ("Cy", None), ("Dee", None))
    ) == ("Ann", 1)
    assert check_auction(
        AUCTION_PITCH, FOUR, "Dee", (("Ann", 1), ("Bob", None), ("Cy", None), ("Dee", 1))
    ) == ("Dee", 1)


def test_all_pass_auction_has_no_pitcher():
    assert check_auction(SETBACK, FOUR, "Dee", ALL_PASS) == (None, None)


def test_pitch_with_bidding_bids_are_open_ended():
    # High, Low + 4 Jacks (4) + 4 Queens (8) + 4 Kings (12) + 4 Aces (16) = 42 points.
    assert check_auction(WITH_BIDDING, THREE, "Cy", (("Ann", 1), ("Bob", 12), ("Cy", 42))) == (
        "Cy",
        42,
    )
    with pytest.raises(RuleError) as caught:
        check_auction(WITH_BIDDING, THREE, "Cy", (("Ann", 43), ("Bob", None), ("Cy", None)))
    assert caught.value.message == "Ann bid 43; bids go from 1 to 42"


@pytest.mark.parametrize(
    ("rules", "auction", "expected"),
    [
        (SETBACK, (), ("Ann", [2, 3, 4], True)),
        (SETBACK, (("Ann", 2),), ("Bob", [3, 4], True)),
        (SETBACK, (("Ann", 4),), ("Bob", [], True)),
        (SETBACK, (("Ann", None), ("Bob", None), ("Cy", 3)), ("Dee", [3, 4], True)),
        (SETBACK, (("Ann", 4), ("Bob", None), ("Cy", None)), ("Dee", [], True)),
        (SETBACK, ALL_PASS[:3], ("Dee", [2, 3, 4], True)),
        (AUCTION_PITCH, (), ("Ann", [1, 2, 3, 4], True)),
        (AUCTION_PITCH, ALL_PASS[:3], ("Dee", [2, 3, 4], False)),
        (AUCTION_PITCH, (("Ann", 1), ("Bob", None), ("Cy", None)), ("Dee", [1, 2, 3, 4], True)),
        # Seed 001: a 4 cannot be stolen, so the dealer must go over it.
        (PARTNERSHIP, (("Ann", 4), ("Bob", None), ("Cy", None)), ("Dee", [5], True)),
        (PARTNERSHIP, (("Ann", 3), ("Bob", None), ("Cy", None)), ("Dee", [3, 4, 5], True)),
        (PARTNERSHIP, ALL_PASS[:3], ("Dee", [2, 3, 4, 5], False)),
        (WITH_BIDDING, (("Ann", 30), ("Bob", None), ("Cy", 40)), ("Dee", [41, 42], True)),
    ],
)
def test_legal_bids(rules, auction, expected):
    seating = TEAMS if rules.partnership else FOUR
    assert legal_bids(rules, seating, "Dee", auction) == expected


def test_legal_bids_of_a_complete_auction_is_an_error():
    with pytest.raises(RuleError, match="the auction is complete"):
        legal_bids(SETBACK, FOUR, "Dee", ALL_PASS)


def test_pitcher_and_bid_given_with_the_auction_must_agree():
    auction = (("Ann", 2), ("Bob", None), ("Cy", 3), ("Dee", None))
    points = {"high": "Cy", "low": "Cy", "jack": "Cy", "game": None}

    assert run([HandRecord(auction=auction, pitcher="cy", bid=3, points=points)]).scores["Cy"] == 3
    wrong_pitcher = rule_error([HandRecord(auction=auction, pitcher="Ann", points=points)])
    assert (wrong_pitcher.field, wrong_pitcher.message) == ("pitcher", "the auction was won by Cy")
    wrong_bid = rule_error([HandRecord(auction=auction, bid=2, points=points)])
    assert (wrong_bid.field, wrong_bid.message) == ("bid", "the auction was won with 3")


def test_pitcher_given_with_an_all_pass_auction_is_an_error():
    error = rule_error([HandRecord(auction=ALL_PASS, pitcher="Ann")])

    assert error.field == "pitcher"
    assert error.message == "everybody passed, so nobody pitched"


# --- Errors in a hand --------------------------------------------------------------------


def hljg(**points) -> dict:
    return {"high": "Bob", "low": "Bob", "jack": None, "game": None, **points}


@pytest.mark.parametrize(
    ("hand", "field", "message"),
    [
        (
            HandRecord(pitcher="Bob", points=hljg()),
            "pitcher",
            "give the pitcher and the bid, or the whole auction",
        ),
        (
            HandRecord(bid=2, points=hljg()),
            "pitcher",
            "give the pitcher and the bid, or the whole auction",
        ),
        (
            HandRecord(pitcher="Zed", bid=2, points=hljg()),
            None,
            "'Zed' is not a player at this table",
        ),
        (HandRecord(pitcher="Bob", bid=1, points=hljg()), "bid", "Bob bid 1; bids go from 2 to 4"),
        (HandRecord(pitcher="Bob", bid=5, points=hljg()), "bid", "Bob bid 5; bids go from 2 to 4"),
        (
            HandRecord(pitcher="Bob", bid=2, points={"high": "Bob", "low": "Bob", "jack": None}),
            "points.game",
            "say who took Game (or nobody)",
        ),
        (
            HandRecord(pitcher="Bob", bid=2, points={"low": "Bob", "jack": None, "game": None}),
            "points.high",
            "say who took High",
        ),
        (
            HandRecord(pitcher="Bob", bid=2, points=hljg(ten="Bob")),
            "points",
            "unknown point ten; this game scores high, low, jack, game",
        ),
        (
            HandRecord(pitcher="Bob", bid=2, points=hljg(low=None)),
            "points.low",
            "Low always goes to somebody in a played hand",
        ),
        (
            HandRecord(pitcher="Bob", bid=2, points=hljg(jack="Zed")),
            "points.jack",
            "Jack: 'Zed' is not a player at this table",
        ),
        (
            HandRecord(pitcher="Bob", bid=2, points=hljg(game={"Bob": 1})),
            "points.game",
            "Game: {'Bob': 1} is not a player at this table",
        ),
        (
            HandRecord(pitcher="Bob", bid=2, points=hljg(), revoked=("Zed",)),
            None,
            "'Zed' is not a player at this table",
        ),
        (
            HandRecord(misdeal=True, points=hljg()),
            "points",
            "a misdeal has no bids, points or revokes",
        ),
        (
            HandRecord(misdeal=True, pitcher="Bob", bid=2),
            "misdeal",
            "a misdeal has no bids, points or revokes",
        ),
        (
            HandRecord(
                auction=(("Bob", None), ("Cy", None), ("Dee", None), ("Ann", None)), points=hljg()
            ),
            "points",
            "everybody passed, so nothing was played: no points or revokes",
        ),
    ],
)
def test_bad_hands_are_refused_with_a_clear_message(hand, field, message):
    error = rule_error([up("Ann", 2), hand])

    assert error.hand == 2
    assert error.field == field
    assert error.message == message
    assert str(error) == f"hand 2: {message}"


@pytest.mark.parametrize(
    ("points", "message"),
    [
        ({"queens": [1]}, "Queens is counted: give how many each side took"),
        ({"queens": {"Ann": -1}}, "Queens: Ann took -1; give a whole number from 0"),
        ({"queens": {"Ann": 1.5}}, "Queens: Ann took 1.5; give a whole number from 0"),
        ({"queens": {"Ann": 3, "Bob": 2}}, "Queens: 5 taken, but there are only 4"),
        ({"queens": {"Zed": 1}}, "Queens: 'Zed' is not a player at this table"),
    ],
)
def test_bad_count_categories_are_refused(points, message):
    hand = wb("Ann", 1, high="Ann", low="Ann", **points)
    with pytest.raises(RuleError) as caught:
        run([hand], rules=WITH_BIDDING, seating=THREE, first_dealer="Cy")

    assert caught.value.field == "points.queens"
    assert caught.value.message == message


# --- Seating -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "seating", "message"),
    [
        (SETBACK, Seating(("Ann",)), "setback is played by 2 to 7 players, not 1"),
        (SETBACK, Seating(tuple("ABCDEFGH")), "setback is played by 2 to 7 players, not 8"),
        (
            PARTNERSHIP,
            Seating(("Ann", "Bob", "Cy")),
            "partnership is played by 4 to 6 players, not 3",
        ),
        (PARTNERSHIP, FOUR, "partnership is a partnership game: give the teams"),
        (SETBACK, TEAMS, "setback is played each for himself, so there are no teams"),
        (
            PARTNERSHIP,
            Seating(FOUR.players, (Team("Us", ("Ann", "Bob")), Team("Them", ("Cy", "Dee")))),
            "Us's players must sit opposite each other, every 2 seats, so that the teams "
            "alternate around the table",
        ),
        (
            PARTNERSHIP,
            Seating(FOUR.players, (Team("Us", ("Ann", "Cy", "Bob")), Team("Them", ("Dee",)))),
            "teams must be of equal size, two or more players each",
        ),
        (
            PARTNERSHIP,
            Seating(FOUR.players, (Team("Us", ("Ann", "Cy")), Team("Them", ("Bob",)))),
            "every player must be in exactly one team, with at least two teams",
        ),
        (
            PARTNERSHIP,
            Seating(FOUR.players, (Team("Us", ("Ann", "Cy")), Team("Them", ("Bob", "Zed")))),
            "'Zed' is not a player at this table",
        ),
        (
            PARTNERSHIP,
            Seating(FOUR.players, (Team("All", ("Ann", "Bob", "Cy", "Dee")),)),
            "every player must be in exactly one team, with at least two teams",
        ),
    ],
)
def test_tables_the_rules_cannot_be_played_at(rules, seating, message):
    with pytest.raises(RuleError) as caught:
        replay(rules, seating, seating.players[0], [])

    assert caught.value.message == message


@pytest.mark.parametrize(
    ("players", "teams", "message"),
    [
        (("Ann", "ann"), (), "Ann is seated twice; names must differ"),
        (("Ann", " "), (), "every player and team needs a name"),
        (("Ann", "Bob"), (Team("X", ("Ann",)), Team("x", ("Bob",))), "team names must differ"),
        (
            ("Ann", "Bob"),
            (Team("ann", ("Ann",)), Team("B", ("Bob",))),
            "a team cannot have the name of a player",
        ),
    ],
)
def test_bad_seatings(players, teams, message):
    with pytest.raises(RuleError) as caught:
        Seating(players, teams)

    assert caught.value.message == message


@pytest.mark.parametrize(
    ("teams", "first", "second"),
    [
        (
            (Team("N", ("Ann", "Dee")), Team("E", ("Bob", "Eve")), Team("S", ("Cy", "Fay"))),
            # Ann makes 2 (High, her partner Dee's Low); Bob's Jack and Eve's side's
            # Game give E 2.
            {"N": 2, "E": 2, "S": 0},
            # Eve bids 3 and E takes only High: set back 3. S takes Low, Jack and Game.
            {"N": 2, "E": -1, "S": 3},
        ),
        (
            (Team("Odd", ("Ann", "Cy", "Eve")), Team("Even", ("Bob", "Dee", "Fay"))),
            # Ann makes 2 (High, and Game through Eve); Even takes Low and Jack.
            {"Odd": 2, "Even": 2},
            # Eve makes 3 (High, Cy's Low, the Game); Even takes Jack.
            {"Odd": 5, "Even": 3},
        ),
    ],
    ids=["three teams of two", "two teams of three"],
)
def test_six_players_in_partnerships(teams, first, second):
    seating = Seating(("Ann", "Bob", "Cy", "Dee", "Eve", "Fay"), teams)
    team_of = {player: team.name for team in teams for player in team.members}
    hands = [
        HandRecord(
            pitcher="Ann",
            bid=2,
            points={"high": "Ann", "low": "Dee", "jack": "Bob", "game": team_of["Eve"]},
        ),
        HandRecord(
            pitcher="Eve",
            bid=3,
            points={"high": "Eve", "low": "Cy", "jack": "Fay", "game": team_of["Cy"]},
        ),
    ]

    assert replay(PARTNERSHIP, seating, "Fay", hands[:1]).scores == first
    result = replay(PARTNERSHIP, seating, "Fay", hands)
    assert result.sides == tuple(t.name for t in teams)
    assert [hand.dealer for hand in result.hands] == ["Fay", "Ann"]
    assert [hand.pitching_side for hand in result.hands] == [team_of["Ann"], team_of["Eve"]]
    assert result.scores == second


# --- Team games --------------------------------------------------------------------------


def test_team_scores_add_the_partners_points():
    # Ann pitches 2; Cy (her partner) takes Low; the Game is named by the team.
    hand = HandRecord(
        pitcher="Ann", bid=2, points={"high": "Ann", "low": "Cy", "jack": "Bob", "game": "them"}
    )
    result = run([hand], rules=PARTNERSHIP, seating=TEAMS)

    assert result.sides == ("Us", "Them")
    assert result.hands[0].pitching_side == "Us"
    assert result.hands[0].taken == {"Us": 2, "Them": 2}
    assert result.scores == {"Us": 2, "Them": 2}


def test_team_revoke_by_the_pitchers_partner_sets_the_team_back():
    hand = HandRecord(
        pitcher="Ann",
        bid=2,
        points={"high": "Ann", "low": "Ann", "jack": "Bob", "game": "Dee"},
        revoked=("Cy",),
    )
    result = run([hand], rules=PARTNERSHIP, seating=TEAMS)

    assert result.scores == {"Us": -2, "Them": 2}
    assert result.setbacks == {"Us": 1, "Them": 0}


def test_team_revoke_by_a_defender_excuses_the_pitching_team():
    hand = HandRecord(
        pitcher="Ann",
        bid=3,
        points={"high": "Ann", "low": "Cy", "jack": "Bob", "game": "Dee"},
        revoked=("Dee",),
    )
    result = run([hand], rules=PARTNERSHIP, seating=TEAMS)

    assert result.scores == {"Us": 2, "Them": -3}
    assert result.setbacks == {"Us": 0, "Them": 1}


def test_team_game_is_won_and_settled_per_team():
    rules = resolve_rules({"preset": "partnership", "target": 4, "settlement": "chips"})
    hands = [
        HandRecord(
            pitcher="Bob", bid=3, points={"high": "Ann", "low": "Bob", "jack": None, "game": "Cy"}
        ),
        HandRecord(
            pitcher="Cy", bid=2, points={"high": "Cy", "low": "Ann", "jack": None, "game": "Bob"}
        ),
    ]
    result = run(hands, rules=rules, seating=TEAMS)

    # Hand 1: Them fails 3 (-3), Us 2. Hand 2: Us makes 2 (4) and wins; Them 1 -> -2.
    assert result.scores == {"Us": 4, "Them": -2}
    assert result.winner == "Us"
    assert result.settlement == {"Us": 2, "Them": -2}


# --- Settlement --------------------------------------------------------------------------


def test_chips_one_from_players_above_zero_two_from_zero_or_below():
    scores = {"Ann": 7, "Bob": 3, "Cy": 0, "Dee": -2}
    setbacks = {"Ann": 0, "Bob": 2, "Cy": 1, "Dee": 3}

    assert settle(SETBACK, scores, setbacks, "Ann") == {"Ann": 5, "Bob": -1, "Cy": -2, "Dee": -2}


def test_chips_per_setback_adds_a_chip_for_each_setback():
    rules = resolve_rules({"preset": "setback", "chips_per_setback": 1})
    scores = {"Ann": 7, "Bob": 3, "Cy": 0, "Dee": -2}
    setbacks = {"Ann": 1, "Bob": 2, "Cy": 1, "Dee": 3}

    # Bob 1 + 2, Cy 2 + 1, Dee 2 + 3; Ann's own setback costs her nothing.
    assert settle(rules, scores, setbacks, "Ann") == {"Ann": 11, "Bob": -3, "Cy": -3, "Dee": -5}


def test_pot_everybody_antes_and_pays_again_for_each_setback():
    rules = resolve_rules({"preset": "setback", "settlement": "pot", "ante": 2})
    scores = {"Ann": 7, "Bob": 3, "Cy": 0, "Dee": -2}
    setbacks = {"Ann": 1, "Bob": 2, "Cy": 0, "Dee": 1}

    # Pot: 4 antes of 2 + 4 setbacks of 2 = 16; Ann put in 4 of it.
    assert settle(rules, scores, setbacks, "Ann") == {"Ann": 12, "Bob": -6, "Cy": -2, "Dee": -4}


def test_no_settlement_without_a_winner_or_under_settlement_none():
    scores = {"Ann": 7, "Bob": 3}
    setbacks = {"Ann": 0, "Bob": 0}

    assert settle(SETBACK, scores, setbacks, None) is None
    assert settle(AUCTION_PITCH, scores, setbacks, "Ann") is None


def test_game_settlement_counts_failed_bids_and_revokes():
    rules = resolve_rules({"preset": "setback", "chips_per_setback": 1})
    hands = [
        played("Bob", 3, high="Bob", low="Ann", jack=None, game=None),  # Bob fails: -3
        played("Cy", 2, high="Cy", low="Cy", jack="Ann", game="Dee", revoked=("Dee",)),  # Dee -2
        sweep("Ann", 4),  # Ann 2 + 4 = 6, not in the hole: smudge wins
    ]
    result = run(hands, rules=rules)

    assert result.scores == {"Ann": 6, "Bob": -3, "Cy": 2, "Dee": -2}
    assert result.setbacks == {"Ann": 0, "Bob": 1, "Cy": 0, "Dee": 1}
    assert result.winner == "Ann"
    assert result.won_by == "smudge"
    # Bob 2 + 1 setback, Cy 1, Dee 2 + 1 setback.
    assert result.settlement == {"Ann": 7, "Bob": -3, "Cy": -1, "Dee": -3}
    assert result.payments() == [("Bob", "Ann", 3), ("Cy", "Ann", 1), ("Dee", "Ann", 3)]


def test_payments_empty_until_won():
    result = run([up("Ann", 2)])

    assert result.settlement is None
    assert result.payments() == []
    assert not result.finished
