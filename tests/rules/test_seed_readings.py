"""The seeds' second look: the readings the seeds settle, the choices where they
differ, and the variants of seed 004 that could not be scored before (plain auction
pitch, Chicago pitch, the three and off-three, the pub game all fours with its side
bets, Bonanza's auction that goes round, nine-five's forced bid of 9).

Every expected number was worked out by hand from the seed passages quoted in
docs/rules.md. Team games seat Ann, Bob, Cy, Dee with Ann and Cy ("Us") against Bob
and Dee ("Them").
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

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
    check_auction,
    legal_bids,
    replay,
    resolve_rules,
    settle,
)
from pitchkeeper.rules.record import hand_to_data, parse_hand

TEAMS = Seating(
    ("Ann", "Bob", "Cy", "Dee"), (Team("Us", ("Ann", "Cy")), Team("Them", ("Bob", "Dee")))
)
FOUR = Seating(("Ann", "Bob", "Cy", "Dee"))
THREE = Seating(("Ann", "Bob", "Cy"))


def bids(text: str) -> tuple[tuple[str, Any], ...]:
    """An auction written "Ann 5, Bob pass, Cy moon"."""
    pairs = [entry.split() for entry in text.split(", ")]
    return tuple(
        (name, None if bid == "pass" else int(bid) if bid.isdigit() else bid) for name, bid in pairs
    )


def took(rules: Ruleset, **takers: str) -> dict[str, Any]:
    """Who took each point of ``rules``, as ``Bob="high jack"``; nobody took the rest."""
    went = {key: taker for taker, keys in takers.items() for key in keys.split()}
    assert set(went) <= {c.key for c in rules.categories}
    return {c.key: went.get(c.key) for c in rules.categories}


def everything(rules: Ruleset, side: str) -> dict[str, Any]:
    return {c.key: side for c in rules.categories}


def scores(result: GameResult) -> list[list[int]]:
    return [[hand.scores[side] for side in result.sides] for hand in result.hands]


# --- Choices where the seeds differ --------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "min_bid", "target"),
    [
        # Seed 000's cutthroat minimum of 2 and seed 004's pub target of 11 (chosen).
        ("partnership", 2, 11),
        # Seed 001 "bestått, 1, 2, 3 eller 4", seed 004 "минимальная ставка — 1" and
        # partnership pitch "обычно ведётся до … например 21".
        ("partnership-21", 1, 21),
    ],
)
def test_the_two_readings_of_the_partnership_game(name, min_bid, target):
    rules = PRESETS[name]

    assert (rules.min_bid, rules.max_bid, rules.target) == (min_bid, 5, target)
    assert (rules.partnership, rules.smudge, rules.all_pass) == (
        True,
        "all_tricks",
        "dealer_forced",
    )
    # Everything else is the same game.
    assert replace(rules, preset="x", min_bid=1, target=21) == replace(
        PRESETS["partnership-21"], preset="x"
    )


def test_partnership_21_game():
    rules = PRESETS["partnership-21"]
    smudge = HandRecord(pitcher="Cy", bid=5, points=everything(rules, "Us"), all_tricks=True)
    hands = [
        # Dee deals; Ann bids 1, which the partnership preset refuses, and makes it.
        HandRecord(
            auction=bids("Ann 1, Bob pass, Cy pass, Dee pass"),
            points=took(rules, Us="high low", Them="jack game"),
        ),
        smudge,
        smudge,
        smudge,
        smudge,
    ]
    result = replay(rules, TEAMS, "Dee", hands)

    assert scores(result) == [[2, 2], [7, 2], [12, 2], [17, 2], [22, 2]]
    assert (result.winner, result.won_by) == ("Us", "count_order")
    with pytest.raises(RuleError) as caught:
        replay(PRESETS["partnership"], TEAMS, "Dee", hands[:1])
    assert caught.value.message == "Ann bid 1; bids go from 2 to 5"


def test_seed_001_a_pitcher_set_back_does_not_go_out():
    # Seed 001: "nå minst 7 poeng på slutten av en hånd hvor han var kassen". Read with
    # its scoring, the hand must be the pitcher's own: Bob, past 7 as a defender, is
    # still at 7 after a hand he pitched and lost, and does not win; he wins on the
    # next bid he makes.
    rules = PRESETS["auction-pitch"]
    all_four = {"high": "Bob", "low": "Bob", "jack": "Bob", "game": "Bob"}
    set_back = {"high": "Ann", "low": "Ann", "jack": "Ann", "game": "Ann"}
    hands = [
        HandRecord(pitcher="Ann", bid=4, points=all_four),
        HandRecord(pitcher="Ann", bid=4, points=all_four),
        HandRecord(pitcher="Bob", bid=1, points=set_back),
        HandRecord(pitcher="Bob", bid=1, points={**set_back, "high": "Bob"}),
    ]

    before = replay(rules, THREE, "Cy", hands[:3])
    assert scores(before) == [[-4, 4, 0], [-8, 8, 0], [-4, 7, 0]]
    assert before.hands[-1].made is False
    assert before.winner is None

    result = replay(rules, THREE, "Cy", hands)
    assert result.scores == {"Ann": -1, "Bob": 8, "Cy": 0}
    assert (result.winner, result.won_by) == ("Bob", "bidder_out")


# --- Plain auction pitch (seed 004) --------------------------------------------------------


def test_plain_auction_pitch_settings():
    rules = PRESETS["plain-auction-pitch"]

    assert (rules.min_bid, rules.max_bid, rules.target) == (1, 4, 11)
    assert (rules.dealer_may_steal, rules.all_pass) == (False, "redeal")
    assert (rules.smudge, rules.winner) == ("wins_game", "count_order")


def test_plain_auction_pitch_game():
    rules = PRESETS["plain-auction-pitch"]
    all_four = everything(rules, "Ann")
    hands = [
        # Dee deals; Ann bids 2, takes only High, and is set back into the hole.
        HandRecord(
            auction=bids("Ann 2, Bob pass, Cy pass, Dee pass"),
            points=took(rules, Ann="high", Bob="low jack game"),
        ),
        # Ann deals and smudges from the hole: she just scores 4.
        HandRecord(auction=bids("Bob pass, Cy pass, Dee pass, Ann 4"), points=all_four),
        # Bob deals; everybody passes and Bob deals again.
        HandRecord(auction=bids("Cy pass, Dee pass, Ann pass, Bob pass")),
        # Ann smudges from 2, out of the hole: she wins at once, short of 11.
        HandRecord(auction=bids("Cy pass, Dee pass, Ann 4, Bob pass"), points=all_four),
    ]
    result = replay(rules, FOUR, "Dee", hands)

    assert [hand.dealer for hand in result.hands] == ["Dee", "Ann", "Bob", "Bob"]
    assert scores(result) == [[-2, 3, 0, 0], [2, 3, 0, 0], [2, 3, 0, 0], [6, 3, 0, 0]]
    assert (result.winner, result.won_by) == ("Ann", "smudge")


# --- Unusual trumps (seed 004) -------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "points", "worth"),
    [
        ("chicago-pitch", ["high", "low", "jack", "five", "game"], 9),
        ("three-pitch", ["high", "low", "jack", "three", "game"], 7),
        ("off-three-pitch", ["high", "low", "jack", "off_three", "game"], 7),
    ],
)
def test_unusual_trump_presets(name, points, worth):
    rules = PRESETS[name]

    assert [c.key for c in rules.categories] == points
    assert rules.most_points == worth
    # Plain auction pitch otherwise, the smudge being a bid of every point.
    plain = PRESETS["plain-auction-pitch"]
    assert replace(rules, preset="x", categories=plain.categories, max_bid=4) == replace(
        plain, preset="x"
    )


def test_chicago_pitch_game():
    rules = PRESETS["chicago-pitch"]
    hands = [
        # Cy deals; Ann bids 5 and makes it with High and the Five.
        HandRecord(
            auction=bids("Ann 5, Bob pass, Cy pass"),
            points=took(rules, Ann="high five", Bob="low jack", Cy="game"),
        ),
        # Ann deals; Bob bids 1 and makes it with Low. Ann, a defender, gets there on
        # the Five: 6, High 7, Five 12.
        HandRecord(
            auction=bids("Bob 1, Cy pass, Ann pass"),
            points=took(rules, Ann="high five", Bob="low", Cy="jack game"),
        ),
    ]
    result = replay(rules, THREE, "Cy", hands)

    assert scores(result) == [[6, 2, 1], [12, 3, 3]]
    assert (result.winner, result.won_by) == ("Ann", "count_order")
    assert result.reached == (Reach("Ann", "five"),)


def test_three_pitch_game():
    rules = PRESETS["three-pitch"]
    hands = [
        HandRecord(
            auction=bids("Ann 4, Bob pass, Cy pass"),
            points=took(rules, Ann="high three", Bob="low jack", Cy="game"),
        ),
        # Ann smudges with 7, every point, and wins at once.
        HandRecord(auction=bids("Bob pass, Cy pass, Ann 7"), points=everything(rules, "Ann")),
    ]
    result = replay(rules, THREE, "Cy", hands)

    assert scores(result) == [[4, 2, 1], [11, 2, 1]]
    assert (result.winner, result.won_by) == ("Ann", "smudge")


def test_off_three_pitch_game():
    rules = PRESETS["off-three-pitch"]
    hands = [
        # The off-three alone makes Ann's 3.
        HandRecord(
            auction=bids("Ann 3, Bob pass, Cy pass"),
            points=took(rules, Ann="off_three", Bob="high low", Cy="jack game"),
        ),
        HandRecord(
            auction=bids("Bob 3, Cy pass, Ann pass"),
            points=took(rules, Bob="off_three high", Ann="low jack", Cy="game"),
        ),
        # Ann, pitching, is counted first and reaches 11.
        HandRecord(
            auction=bids("Cy pass, Ann 4, Bob pass"),
            points=took(rules, Ann="off_three high low jack", Bob="game"),
        ),
    ]
    result = replay(rules, THREE, "Cy", hands)

    assert scores(result) == [[3, 2, 2], [5, 6, 3], [11, 7, 3]]
    assert (result.winner, result.won_by) == ("Ann", "count_order")
    assert result.reached == (Reach("Ann", None),)


# --- All fours, the pub game (seed 004) ----------------------------------------------------


def test_all_fours_game_with_its_side_bets():
    rules = PRESETS["all-fours"]
    hands = [
        # No bidding: the eldest hand pitches. Us take all four: a side bet won.
        HandRecord(points=everything(rules, "Us")),
        HandRecord(points=everything(rules, "Them")),
        HandRecord(points=everything(rules, "Us")),
        # Counted strictly in order: Us reach 11 on the Jack.
        HandRecord(points=took(rules, Us="high low jack", Them="game")),
    ]
    result = replay(rules, TEAMS, "Dee", hands)

    assert [hand.pitcher for hand in result.hands] == ["Ann", "Bob", "Cy", "Dee"]
    assert scores(result) == [[4, 0], [4, 4], [8, 4], [11, 5]]
    assert (result.winner, result.won_by) == ("Us", "count_order")
    assert result.reached == (Reach("Us", "jack"),)
    # Us won two side bets and Them one, a chip each: Us are one chip up.
    assert result.sweeps == {"Us": 2, "Them": 1}
    assert result.settlement == {"Us": 1, "Them": -1}
    assert result.payments() == [("Them", "Us", 1)]


@pytest.mark.parametrize(
    ("overrides", "sweeps", "settlement", "payments"),
    [
        # Side bets alone: the loser of the game may be up.
        ({}, {"A": 0, "B": 3, "C": 0}, {"A": -3, "B": 6, "C": -3}, [("A", "B", 3), ("C", "B", 3)]),
        (
            {"sweep_chips": 2},
            {"A": 1, "B": 0, "C": 0},
            {"A": 4, "B": -2, "C": -2},
            [("B", "A", 2), ("C", "A", 2)],
        ),
        # With the pot: B and C ante 1 to A, the winner; B's two sweeps are 2 chips
        # from each of the others.
        (
            {"settlement": "pot"},
            {"A": 0, "B": 2, "C": 0},
            {"A": 0, "B": 3, "C": -3},
            [("C", "B", 3)],
        ),
        (
            {"settlement": "pot"},
            {"A": 0, "B": 1, "C": 0},
            {"A": 1, "B": 1, "C": -2},
            [("C", "A", 1), ("C", "B", 1)],
        ),
        ({"sweep_chips": 0}, {"A": 0, "B": 3, "C": 0}, None, []),
    ],
)
def test_side_bets_are_settled_with_the_game(overrides, sweeps, settlement, payments):
    rules = replace(PRESETS["all-fours"], **overrides)
    final = {"A": 11, "B": 9, "C": 2}
    net = settle(rules, final, dict.fromkeys(final, 0), "A", sweeps)

    assert net == settlement
    result = GameResult(tuple(final), (), final, {}, None, "A", "count_order", (), net, sweeps)
    assert sorted(result.payments()) == sorted(payments)


def test_side_bets_of_a_game_not_won_are_not_settled():
    rules = PRESETS["all-fours"]
    result = replay(rules, TEAMS, "Dee", [HandRecord(points=everything(rules, "Us"))])

    assert result.sweeps == {"Us": 1, "Them": 0}
    assert result.settlement is None


# --- Bonanza's auction goes round until all but one pass (seed 004) ------------------------

BONANZA = PRESETS["bonanza"]


def test_bonanza_auction_goes_round():
    auction = bids("Ann 3, Bob 5, Cy pass, Dee pass, Ann 6, Bob 9, Ann pass")

    assert check_auction(BONANZA, TEAMS, "Dee", auction) == ("Bob", 9)
    assert legal_bids(BONANZA, TEAMS, "Dee", auction[:4]) == ("Ann", [*range(6, 19), "moon"], True)
    assert legal_bids(BONANZA, TEAMS, "Dee", auction[:6]) == ("Ann", [*range(10, 19), "moon"], True)
    with pytest.raises(RuleError) as caught:
        legal_bids(BONANZA, TEAMS, "Dee", auction)
    assert caught.value.message == "the auction is complete"


@pytest.mark.parametrize(
    ("auction", "message"),
    [
        # Recorded as one round, two bidders left: Ann has still to bid or pass.
        (
            "Ann 3, Bob 5, Cy pass, Dee pass",
            "the auction goes round until all but one have passed: Ann must still bid or pass",
        ),
        (
            "Ann 3, Bob 5, Cy pass",
            "the auction goes round until all but one have passed: Dee must still bid or pass",
        ),
        # A player who passed is out of the auction.
        (
            "Ann 3, Bob 5, Cy pass, Dee pass, Cy 6",
            "Ann bids before Cy: the auction goes clockwise from Ann, left of the dealer, "
            "to Dee, the dealer",
        ),
        (
            "Ann 3, Bob pass, Cy pass, Dee pass, Ann 4",
            "the auction was over, everybody but Ann having passed, before Ann's 4",
        ),
        (
            "Ann 3, Bob 5, Cy pass, Dee pass, Ann 5",
            "Ann bid 5 but Bob already bid 5; each bid must be higher",
        ),
    ],
)
def test_bonanza_auctions_refused(auction, message):
    with pytest.raises(RuleError) as caught:
        check_auction(BONANZA, TEAMS, "Dee", bids(auction))

    assert caught.value.message == message


def test_bonanza_game_with_whole_auctions():
    hands = [
        # Dee deals; Ann and Bob bid against each other until Bob passes: Ann's 6.
        HandRecord(
            auction=bids("Ann 3, Bob 5, Cy pass, Dee pass, Ann 6, Bob pass"),
            points={**everything(BONANZA, "Us"), "high": "Them"},
        ),
        # Ann deals; nobody else bids, so Ann, the dealer, is forced to bid 1.
        HandRecord(
            auction=bids("Bob pass, Cy pass, Dee pass, Ann 1"),
            points={**everything(BONANZA, "Them"), "low": "Us"},
        ),
        # Bob deals; Cy shoots the moon and takes all 18: Us win the game.
        HandRecord(
            auction=bids("Cy moon, Dee pass, Ann pass, Bob pass"), points=everything(BONANZA, "Us")
        ),
    ]
    result = replay(BONANZA, TEAMS, "Dee", hands)

    assert [(hand.pitcher, hand.bid) for hand in result.hands] == [
        ("Ann", 6),
        ("Ann", 1),
        ("Cy", "moon"),
    ]
    assert scores(result) == [[17, 1], [18, 18], [36, 18]]
    assert (result.winner, result.won_by) == ("Us", "smudge")


# --- Nine-five's forced bid of 9 (seed 004) ------------------------------------------------

NINE_FIVE = PRESETS["nine-five"]


@pytest.mark.parametrize(
    "name", ["nine-five", "nine-five-hotshot", "nine-five-connecticut", "five-nine-connecticut"]
)
def test_every_nine_five_forces_a_9(name):
    assert PRESETS[name].forced_bid == 9


@pytest.mark.parametrize(
    ("auction", "forced", "won"),
    [
        ("Ann 9, Bob pass, Cy pass, Dee pass", ("Ann",), ("Ann", 9)),
        ("Ann 4, Bob pass, Cy 12, Dee pass", ("Cy",), ("Cy", 12)),
        # The bidding is past 9 when Cy's turn comes: Cy may pass.
        ("Ann pass, Bob 10, Cy pass, Dee pass", ("Cy",), ("Bob", 10)),
        ("Ann pass, Bob 9, Cy pass, Dee pass", ("Cy",), ("Bob", 9)),
        ("Ann 9, Bob smudge, Cy pass, Dee pass", ("Ann", "Dee"), ("Bob", "smudge")),
    ],
)
def test_a_forced_player_bids_at_least_9(auction, forced, won):
    assert check_auction(NINE_FIVE, TEAMS, "Dee", bids(auction), forced=forced) == won


@pytest.mark.parametrize(
    ("auction", "forced", "message"),
    [
        (
            "Ann pass, Bob pass, Cy pass, Dee pass",
            ("Ann",),
            "Ann's hand forces a bid, so Ann must bid at least 9",
        ),
        (
            "Ann 4, Bob pass, Cy pass, Dee pass",
            ("Ann",),
            "Ann's hand forces a bid, so Ann must bid at least 9",
        ),
        (
            "Ann 4, Bob 8, Cy pass, Dee pass",
            ("Cy",),
            "Cy's hand forces a bid, so Cy must bid at least 9",
        ),
    ],
)
def test_a_forced_player_may_not_pass_or_bid_below_9(auction, forced, message):
    with pytest.raises(RuleError) as caught:
        check_auction(NINE_FIVE, TEAMS, "Dee", bids(auction), forced=forced)

    assert caught.value.message == message


def test_legal_bids_of_a_forced_player():
    assert legal_bids(NINE_FIVE, TEAMS, "Dee", [], forced={"Ann"}) == (
        "Ann",
        [*range(9, 19), "smudge", "blind"],
        False,
    )
    assert legal_bids(NINE_FIVE, TEAMS, "Dee", [("Ann", 11)], forced={"Bob"})[2] is True


@pytest.mark.parametrize(
    ("rules", "hand", "message"),
    [
        (
            NINE_FIVE,
            HandRecord(pitcher="Bob", bid=5, forced=("Ann",)),
            "Ann's hand forced a bid of at least 9, so the auction cannot have been won with 5",
        ),
        (
            NINE_FIVE,
            HandRecord(auction=bids("Ann pass, Bob pass, Cy pass, Dee pass"), forced=("Cy",)),
            "Cy's hand forces a bid, so Cy must bid at least 9",
        ),
        (
            NINE_FIVE,
            HandRecord(misdeal=True, forced=("Ann",)),
            "a misdeal has no bids, points or revokes",
        ),
        (
            PRESETS["bonanza"],
            HandRecord(pitcher="Bob", bid=9, forced=("Ann",)),
            "in this game no hand forces a bid",
        ),
        (
            NINE_FIVE,
            HandRecord(pitcher="Bob", bid=9, forced=("Zed",)),
            "'Zed' is not a player at this table",
        ),
    ],
)
def test_forced_hands_refused(rules, hand, message):
    with pytest.raises(RuleError) as caught:
        replay(rules, TEAMS, "Dee", [hand])

    assert caught.value.message == message


def test_nine_five_game_with_a_forced_9():
    sweep = everything(NINE_FIVE, "Us")
    smudge = HandRecord(pitcher="Ann", bid="smudge", points=sweep, all_tricks=True)
    hands = [
        smudge,
        smudge,
        smudge,
        smudge,
        smudge,
        # Ann deals; Cy holds the 9 with another of its suit and must bid 9.
        HandRecord(
            auction=bids("Bob pass, Cy 9, Dee pass, Ann pass"), points=sweep, forced=("Cy",)
        ),
    ]
    result = replay(NINE_FIVE, TEAMS, "Dee", hands)

    assert [hand.scores["Us"] for hand in result.hands] == [19, 38, 57, 76, 95, 113]
    assert (result.winner, result.won_by) == ("Us", "bidder_out")


def test_the_record_writes_and_reads_forced_players():
    hand = HandRecord(pitcher="Cy", bid=9, forced=("Cy", "Bob"))

    assert hand_to_data(hand)["forced"] == ["Cy", "Bob"]
    assert parse_hand(hand_to_data(hand)) == hand
    assert "forced" not in hand_to_data(HandRecord(pitcher="Cy", bid=9))
    with pytest.raises(RuleError) as caught:
        parse_hand({"pitcher": "Cy", "bid": 9, "forced": "Cy"})
    assert caught.value.message == '"forced" must be a list of names'


# --- The settings these brought in -------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (
            {"preset": "bonanza", "dealer_may_steal": True},
            "an auction that goes round until one is left has no steal",
        ),
        ({"auction_until_one": "yes"}, "auction_until_one must be true or false"),
        ({"forced_bid": 9}, "forced_bid must be one of the numbered bids, or null"),
        ({"forced_bid": "9"}, "forced_bid must be a whole number or null (no hand forces a bid)"),
        ({"sweep_chips": -1}, "sweep_chips must not be negative"),
    ],
)
def test_bad_settings_refused(spec, message):
    with pytest.raises(RuleError) as caught:
        resolve_rules(spec)

    assert caught.value.message == message
