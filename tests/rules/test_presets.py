"""Every preset: its settings as issue 2 lists them, and a short game played to its end.

The games use recorded auctions, as a scorekeeper would enter them, and every number
in them was worked out by hand from the rules.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from pitchkeeper.rules import (
    DEFAULT_PRESET,
    PRESETS,
    GameResult,
    HandRecord,
    Reach,
    RuleError,
    Seating,
    Team,
    replay,
    resolve_rules,
)


def auction(*bids: tuple[str, int | None]) -> tuple[tuple[str, int | None], ...]:
    return tuple(bids)


def hljg(high, low, jack, game) -> dict:
    return {"high": high, "low": low, "jack": jack, "game": game}


def per_hand(result: GameResult, attribute: str) -> list:
    """One attribute of every hand; a dict of sides becomes a list in side order."""
    values = []
    for hand in result.hands:
        value = getattr(hand, attribute)
        if isinstance(value, dict) and attribute in ("delta", "scores", "taken"):
            value = [value.get(side, 0) for side in result.sides]
        values.append(value)
    return values


# --- The settings of each preset ---------------------------------------------------------


def test_setback_is_the_default_preset():
    assert DEFAULT_PRESET == "setback"
    assert resolve_rules(None) == PRESETS["setback"]
    assert resolve_rules({}) == PRESETS["setback"]


def test_setback_settings():
    rules = resolve_rules("setback")

    assert (rules.min_players, rules.max_players, rules.partnership) == (2, 7, False)
    assert rules.target == 7
    assert (rules.bidding, rules.min_bid, rules.max_bid) == (True, 2, 4)
    assert rules.dealer_may_steal is True
    assert rules.all_pass == "redeal"
    assert [(c.key, c.value, c.kind) for c in rules.categories] == [
        ("high", 1, "one"),
        ("low", 1, "one"),
        ("jack", 1, "one"),
        ("game", 1, "one"),
    ]
    assert rules.winner == "count_order"
    assert rules.smudge == "wins_game"
    assert rules.non_pitchers_score is True
    assert rules.settlement == "chips"
    assert (rules.chips_plus, rules.chips_zero_or_minus, rules.chips_per_setback) == (1, 2, 0)


def test_auction_pitch_settings():
    rules = resolve_rules("auction-pitch")

    assert (rules.min_players, rules.max_players, rules.partnership) == (2, 7, False)
    assert rules.target == 7
    assert (rules.bidding, rules.min_bid, rules.max_bid) == (True, 1, 4)
    assert rules.dealer_may_steal is True
    assert rules.all_pass == "dealer_forced"
    assert [c.key for c in rules.categories] == ["high", "low", "jack", "game"]
    assert rules.winner == "bidder_out"
    assert rules.smudge == "none"
    assert rules.settlement == "none"


def test_partnership_settings():
    rules = resolve_rules("partnership")

    assert (rules.min_players, rules.max_players, rules.partnership) == (4, 6, True)
    assert rules.target == 11
    assert (rules.bidding, rules.min_bid, rules.max_bid) == (True, 2, 5)
    assert rules.smudge == "all_tricks"
    assert rules.dealer_may_steal is True
    assert rules.all_pass == "dealer_forced"
    assert [c.key for c in rules.categories] == ["high", "low", "jack", "game"]
    assert rules.winner == "count_order"


def test_pitch_with_bidding_settings():
    rules = resolve_rules("pitch-with-bidding")

    assert (rules.min_players, rules.max_players, rules.partnership) == (2, 7, False)
    assert rules.target == 7
    assert (rules.bidding, rules.min_bid, rules.max_bid) == (True, 1, None)
    assert rules.highest_bid == 2 + 4 * 1 + 4 * 2 + 4 * 3 + 4 * 4
    assert rules.dealer_may_steal is False
    assert rules.all_pass == "redeal"
    assert [(c.key, c.value, c.kind) for c in rules.categories] == [
        ("high", 1, "one"),
        ("low", 1, "one"),
        ("jacks", 1, "count"),
        ("queens", 2, "count"),
        ("kings", 3, "count"),
        ("aces", 4, "count"),
    ]
    assert rules.winner == "highest_total"
    assert rules.tiebreak == ("high", "low", "jacks")
    assert rules.smudge == "none"


def test_blind_all_fours_settings():
    rules = resolve_rules("blind-all-fours")

    assert rules.bidding is False
    assert rules.target == 11
    assert [c.key for c in rules.categories] == ["high", "low", "jack", "game"]
    assert rules.winner == "count_order"
    assert rules.non_pitchers_score is True
    assert rules.smudge == "none"
    assert rules.settlement == "none"


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_resolves_to_itself_through_its_stored_form(name):
    rules = resolve_rules(name)

    assert rules.preset == name
    assert resolve_rules(rules.to_dict()) == rules


def test_overrides_change_only_what_they_name():
    rules = resolve_rules({"preset": "setback", "target": 11, "chips_per_setback": 1})

    assert rules == replace(PRESETS["setback"], target=11, chips_per_setback=1)


def test_a_stored_ruleset_survives_a_later_change_of_its_preset(monkeypatch):
    stored = resolve_rules({"preset": "setback", "target": 11}).to_dict()
    monkeypatch.setitem(PRESETS, "setback", replace(PRESETS["setback"], target=21, min_bid=1))

    again = resolve_rules(stored)
    assert (again.target, again.min_bid) == (11, 2)


def test_max_bid_may_be_open_ended():
    rules = resolve_rules({"preset": "auction-pitch", "max_bid": None})

    assert rules.max_bid is None
    assert rules.highest_bid == 4


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (7, "rules must be a preset name or an object of settings"),
        (["setback"], "rules must be a preset name or an object of settings"),
        (
            "nope",
            "unknown preset 'nope'; known presets: setback, auction-pitch, partnership, "
            "pitch-with-bidding, blind-all-fours, ten-point, campbell-ten, campbell-eleven, "
            "razzle-dazzle, wahoo-ten, susqy-river, roadhouse, cell, seven-point, seventeen-point, "
            "maryland-jack, high-five, partnership-draw, nine-five, nine-five-hotshot, "
            "nine-five-connecticut, five-nine-connecticut, bonanza, contway-six, five-point-joker, "
            "six-point-joker, smear, partnership-21, plain-auction-pitch, chicago-pitch, "
            "three-pitch, off-three-pitch, all-fours",
        ),
        (
            {"preset": ["setback"]},
            "unknown preset ['setback']; known presets: setback, auction-pitch, partnership, "
            "pitch-with-bidding, blind-all-fours, ten-point, campbell-ten, campbell-eleven, "
            "razzle-dazzle, wahoo-ten, susqy-river, roadhouse, cell, seven-point, seventeen-point, "
            "maryland-jack, high-five, partnership-draw, nine-five, nine-five-hotshot, "
            "nine-five-connecticut, five-nine-connecticut, bonanza, contway-six, five-point-joker, "
            "six-point-joker, smear, partnership-21, plain-auction-pitch, chicago-pitch, "
            "three-pitch, off-three-pitch, all-fours",
        ),
        ({"colour": 1}, "unknown rule setting colour"),
        ({"winner": "first"}, "winner must be one of count_order, bidder_out, highest_total"),
        ({"all_pass": "shuffle"}, "all_pass must be one of redeal, dealer_forced"),
        ({"smudge": "moon"}, "smudge must be one of none, wins_game, all_tricks"),
        ({"settlement": "cash"}, "settlement must be one of chips, pot, none"),
        ({"min_players": 1}, "players must be between 2 and 7, min_players <= max_players"),
        ({"max_players": 8}, "players must be between 2 and 7, min_players <= max_players"),
        ({"target": 0}, "target must be at least 1"),
        ({"target": "7"}, "target must be a whole number"),
        ({"ante": True}, "ante must be a whole number"),
        ({"bidding": "no"}, "bidding must be true or false"),
        ({"dealer_may_steal": 1}, "dealer_may_steal must be true or false"),
        ({"min_bid": 0}, "min_bid must be at least 1"),
        ({"max_bid": 1}, "max_bid must not be below min_bid"),
        ({"max_bid": "4"}, "max_bid must be a whole number or null (open-ended)"),
        (
            {"preset": "pitch-with-bidding", "smudge": "wins_game"},
            "a smudge is a bid of max_bid, so max_bid must be set",
        ),
        ({"chips_plus": -1}, "chips_plus must not be negative"),
        ({"categories": "high"}, "categories must be a list"),
        ({"categories": []}, "categories must not be empty"),
        (
            {"categories": ["high"]},
            "categories[0] must be an object with key, label, value and kind",
        ),
        ({"categories": [{"label": "x"}]}, "categories[0]: key must be a non-empty text"),
        ({"categories": [{"key": "x", "colour": "red"}]}, "categories[0]: unknown setting colour"),
        (
            {"categories": [{"key": "high", "value": "1"}]},
            "categories[0] (high): value has the wrong type",
        ),
        ({"categories": [{"key": "x", "kind": "many"}]}, "category x: kind must be one or count"),
        ({"categories": [{"key": "x", "value": 0}]}, "category x: value must be at least 1"),
        ({"categories": [{"key": "high"}, {"key": "high"}]}, "category keys must be unique"),
        ({"tiebreak": "high"}, "tiebreak must be a list of category keys"),
        ({"tiebreak": ["ten"]}, "tiebreak names unknown categories: ten"),
    ],
)
def test_bad_rules_are_refused(spec, message):
    with pytest.raises(RuleError) as caught:
        resolve_rules(spec)

    assert caught.value.message == message


# --- setback (seed 000) ------------------------------------------------------------------

SETBACK_TABLE = Seating(("Ann", "Bob", "Cy", "Dee"))
SETBACK_GAME = [
    # Ann deals. Dee bids 3 and takes High, Jack and Game; Bob takes Low.
    HandRecord(
        auction=auction(("Bob", 2), ("Cy", None), ("Dee", 3), ("Ann", None)),
        points=hljg("Dee", "Bob", "Dee", "Dee"),
    ),
    # Bob deals and steals Cy's 2, but takes only Low: set back 2.
    HandRecord(
        auction=auction(("Cy", 2), ("Dee", None), ("Ann", None), ("Bob", 2)),
        points=hljg("Cy", "Bob", None, "Cy"),
    ),
    HandRecord(misdeal=True),  # Cy misdeals: Dee deals next
    HandRecord(auction=auction(("Ann", None), ("Bob", None), ("Cy", None), ("Dee", None))),
    # Dee deals again. Bob bids 3 and takes all four (a 3, so no smudge).
    HandRecord(
        auction=auction(("Ann", 2), ("Bob", 3), ("Cy", None), ("Dee", None)),
        points=hljg("Bob", "Bob", "Bob", "Bob"),
    ),
    # Ann deals. Dee bids 2 and takes 3; Cy takes Low.
    HandRecord(
        auction=auction(("Bob", None), ("Cy", None), ("Dee", 2), ("Ann", None)),
        points=hljg("Dee", "Cy", "Dee", "Dee"),
    ),
    # Bob deals. Dee bids 2 and takes only High: set back.
    HandRecord(
        auction=auction(("Cy", None), ("Dee", 2), ("Ann", None), ("Bob", None)),
        points=hljg("Dee", "Cy", "Cy", "Bob"),
    ),
    # Cy deals, steals Bob's 3 and takes all four: 5 + 4 = 9.
    HandRecord(
        auction=auction(("Dee", None), ("Ann", None), ("Bob", 3), ("Cy", 3)),
        points=hljg("Cy", "Cy", "Cy", "Cy"),
    ),
]


def test_setback_game():
    result = replay(PRESETS["setback"], SETBACK_TABLE, "Ann", SETBACK_GAME)

    assert per_hand(result, "dealer") == ["Ann", "Bob", "Cy", "Dee", "Dee", "Ann", "Bob", "Cy"]
    assert per_hand(result, "kind") == ["played", "played", "misdeal", "redeal"] + ["played"] * 4
    assert per_hand(result, "pitcher") == ["Dee", "Bob", None, None, "Bob", "Dee", "Dee", "Cy"]
    assert per_hand(result, "bid") == [3, 2, None, None, 3, 2, 2, 3]
    assert per_hand(result, "made") == [True, False, None, None, True, True, False, True]
    assert per_hand(result, "delta") == [
        [0, 1, 0, 3],
        [0, -2, 2, 0],
        [0, 0, 0, 0],
        [0, 0, 0, 0],
        [0, 4, 0, 0],
        [0, 0, 1, 3],
        [0, 1, 2, -2],
        [0, 0, 4, 0],
    ]
    assert per_hand(result, "scores") == [
        [0, 1, 0, 3],
        [0, -1, 2, 3],
        [0, -1, 2, 3],
        [0, -1, 2, 3],
        [0, 3, 2, 3],
        [0, 3, 3, 6],
        [0, 4, 5, 4],
        [0, 4, 9, 4],
    ]
    assert result.scores == {"Ann": 0, "Bob": 4, "Cy": 9, "Dee": 4}
    assert result.setbacks == {"Ann": 0, "Bob": 1, "Cy": 0, "Dee": 1}
    assert (result.winner, result.won_by) == ("Cy", "count_order")
    assert result.reached == (Reach("Cy", None),)
    assert result.dealer is None
    # Ann is at 0: two chips; Bob and Dee are above zero: one each.
    assert result.settlement == {"Ann": -2, "Bob": -1, "Cy": 4, "Dee": -1}


@pytest.mark.parametrize(
    ("overrides", "settlement"),
    [
        # Seed 000's variant: one more chip for each setback (Bob's and Dee's).
        ({"chips_per_setback": 1}, {"Ann": -2, "Bob": -2, "Cy": 6, "Dee": -2}),
        ({"chips_plus": 2, "chips_zero_or_minus": 3}, {"Ann": -3, "Bob": -2, "Cy": 7, "Dee": -2}),
        # Seed 004's pot: everybody antes 1 and pays 1 more for each setback.
        ({"settlement": "pot"}, {"Ann": -1, "Bob": -2, "Cy": 5, "Dee": -2}),
        ({"settlement": "pot", "ante": 5}, {"Ann": -5, "Bob": -10, "Cy": 25, "Dee": -10}),
        ({"settlement": "none"}, None),
    ],
)
def test_setback_game_settled_other_ways(overrides, settlement):
    rules = resolve_rules({"preset": "setback", **overrides})
    result = replay(rules, SETBACK_TABLE, "Ann", SETBACK_GAME)

    assert result.winner == "Cy"
    assert result.settlement == settlement


def test_setback_game_ends_at_once_on_a_smudge():
    hands = [
        # Ann deals; Bob bids 2, takes High and Low.
        HandRecord(
            auction=auction(("Bob", 2), ("Cy", None), ("Dee", None), ("Ann", None)),
            points=hljg("Bob", "Bob", "Dee", None),
        ),
        # Bob deals; Dee smudges and takes all four.
        HandRecord(
            auction=auction(("Cy", 2), ("Dee", 4), ("Ann", None), ("Bob", None)),
            points=hljg("Dee", "Dee", "Dee", "Dee"),
        ),
    ]
    result = replay(PRESETS["setback"], SETBACK_TABLE, "Ann", hands)

    assert result.scores == {"Ann": 0, "Bob": 2, "Cy": 0, "Dee": 5}
    assert (result.winner, result.won_by) == ("Dee", "smudge")
    assert result.settlement == {"Ann": -2, "Bob": -1, "Cy": -2, "Dee": 5}


# --- auction-pitch (seed 001) ------------------------------------------------------------


def test_auction_pitch_game():
    table = Seating(("Ann", "Bob", "Cy"))
    hands = [
        # Cy deals; both pass, so Cy must bid: 2, and makes it.
        HandRecord(
            auction=auction(("Ann", None), ("Bob", None), ("Cy", 2)),
            points=hljg("Cy", "Cy", "Ann", "Bob"),
        ),
        # Ann deals; Cy bids 4 and takes all four: an ordinary 4, no smudge.
        HandRecord(
            auction=auction(("Bob", 1), ("Cy", 4), ("Ann", None)),
            points=hljg("Cy", "Cy", "Cy", "Cy"),
        ),
        # Bob deals and steals Ann's 1, then takes nothing.
        HandRecord(
            auction=auction(("Cy", None), ("Ann", 1), ("Bob", 1)),
            points=hljg("Ann", "Ann", "Ann", "Ann"),
        ),
        # Cy deals; Ann bids 2 and fails; Cy passes the target as a defender: no win.
        HandRecord(
            auction=auction(("Ann", 2), ("Bob", None), ("Cy", None)),
            points=hljg("Ann", "Cy", "Cy", None),
        ),
        # Ann deals; Cy bids 1, makes it, and goes out.
        HandRecord(
            auction=auction(("Bob", None), ("Cy", 1), ("Ann", None)),
            points=hljg("Cy", "Bob", None, "Bob"),
        ),
    ]
    rules = PRESETS["auction-pitch"]

    after_four = replay(rules, table, "Cy", hands[:4])
    assert after_four.scores == {"Ann": 3, "Bob": 0, "Cy": 8}
    assert after_four.winner is None
    assert after_four.dealer == "Ann"

    result = replay(rules, table, "Cy", hands)
    assert per_hand(result, "dealer") == ["Cy", "Ann", "Bob", "Cy", "Ann"]
    assert per_hand(result, "pitcher") == ["Cy", "Cy", "Bob", "Ann", "Cy"]
    assert per_hand(result, "bid") == [2, 4, 1, 2, 1]
    assert per_hand(result, "smudge") == [False] * 5
    assert per_hand(result, "scores") == [[1, 1, 2], [1, 1, 6], [5, 0, 6], [3, 0, 8], [3, 2, 9]]
    assert (result.winner, result.won_by) == ("Cy", "bidder_out")
    assert result.settlement is None


# --- partnership (seeds 001, 004) --------------------------------------------------------


def test_partnership_game():
    table = Seating(
        ("Ann", "Bob", "Cy", "Dee"), (Team("Us", ("Ann", "Cy")), Team("Them", ("Bob", "Dee")))
    )
    hands = [
        # Dee deals; Bob bids 3 for Them, who take High, Low and Game.
        HandRecord(
            auction=auction(("Ann", 2), ("Bob", 3), ("Cy", None), ("Dee", None)),
            points=hljg("Bob", "Dee", "Cy", "Dee"),
        ),
        # Ann deals; Cy smudges (5) and Us take all four points and every trick.
        HandRecord(
            auction=auction(("Bob", None), ("Cy", 5), ("Dee", None), ("Ann", None)),
            points=hljg("Us", "Ann", "Cy", "Ann"),
            all_tricks=True,
        ),
        # Bob deals; everybody else passes, so Bob must bid: 2, and Them take only Low.
        HandRecord(
            auction=auction(("Cy", None), ("Dee", None), ("Ann", None), ("Bob", 2)),
            points=hljg("Ann", "Bob", None, "Ann"),
        ),
        # Cy deals; Ann bids 3 and Us take three: 8 + 3 = 11.
        HandRecord(
            auction=auction(("Dee", 2), ("Ann", 3), ("Bob", None), ("Cy", None)),
            points=hljg("Ann", "Bob", "Cy", "Ann"),
        ),
    ]
    result = replay(PRESETS["partnership"], table, "Dee", hands)

    assert result.sides == ("Us", "Them")
    assert per_hand(result, "pitching_side") == ["Them", "Us", "Them", "Us"]
    assert per_hand(result, "smudge") == [False, True, False, False]
    assert per_hand(result, "delta") == [[1, 3], [5, 0], [2, -2], [3, 1]]
    assert per_hand(result, "scores") == [[1, 3], [6, 3], [8, 1], [11, 2]]
    assert result.setbacks == {"Us": 0, "Them": 1}
    assert (result.winner, result.won_by) == ("Us", "count_order")
    assert result.settlement is None


# --- pitch-with-bidding (seed 003) -------------------------------------------------------


def test_pitch_with_bidding_game():
    table = Seating(("Ann", "Bob", "Cy"))
    nothing = {"jacks": {}, "queens": {}, "kings": {}, "aces": {}}
    hands = [
        # Cy deals and bids 4 over Bob's 3 (no steal here), but takes 3: set back.
        HandRecord(
            auction=auction(("Ann", None), ("Bob", 3), ("Cy", 4)),
            points={
                **nothing,
                "high": "Cy",
                "low": "Ann",
                "jacks": {"Bob": 1},
                "queens": {"Cy": 1},
                "kings": {"Bob": 1},
            },
        ),
        # Ann deals; everybody passes: the same dealer deals again.
        HandRecord(auction=auction(("Bob", None), ("Cy", None), ("Ann", None))),
        # Ann bids 3 and takes High, Low and a Queen (4); Bob takes a Queen and an Ace (6);
        # Cy takes two Jacks (2).
        HandRecord(
            auction=auction(("Bob", 1), ("Cy", 2), ("Ann", 3)),
            points={
                **nothing,
                "high": "Ann",
                "low": "Ann",
                "jacks": {"Cy": 2},
                "queens": {"Ann": 1, "Bob": 1},
                "aces": {"Bob": 1},
            },
        ),
    ]
    result = replay(PRESETS["pitch-with-bidding"], table, "Cy", hands)

    assert per_hand(result, "dealer") == ["Cy", "Ann", "Ann"]
    assert per_hand(result, "kind") == ["played", "redeal", "played"]
    assert per_hand(result, "taken") == [[1, 4, 3], [0, 0, 0], [4, 6, 2]]
    assert per_hand(result, "scores") == [[1, 4, -4], [1, 4, -4], [5, 10, -2]]
    # Bob, a defender, has the highest score once the target is reached.
    assert (result.winner, result.won_by) == ("Bob", "highest_total")
    assert result.settlement is None


@pytest.mark.parametrize(
    ("jacks", "taken"),
    [
        # Seed 003: "1 очко — … Валет", every Jack, as every Queen is 2.
        ({}, 0),
        ({"Ann": 1}, 1),
        ({"Ann": 2}, 2),
        ({"Ann": 4}, 4),
        ({"Ann": 2, "Bob": 2}, 2),
    ],
)
def test_pitch_with_bidding_counts_every_jack(jacks, taken):
    table = Seating(("Ann", "Bob", "Cy"))
    hand = HandRecord(
        pitcher="Ann",
        bid=1,
        points={
            "high": "Bob",
            "low": "Bob",
            "jacks": jacks,
            "queens": {},
            "kings": {},
            "aces": {},
        },
    )
    result = replay(PRESETS["pitch-with-bidding"], table, "Cy", [hand])

    assert result.hands[0].taken["Ann"] == taken
    assert result.hands[0].made is (taken >= 1)


def test_pitch_with_bidding_jacks_break_a_tie_card_by_card():
    # Ann (High, a Queen, an Ace) and Bob (two Jacks, a King, a Queen), defenders, both
    # reach 7. The tie goes to the points "за старшего или младшего козыря или Валетов":
    # Bob's two Jacks (2) outweigh Ann's High (1).
    table = Seating(("Ann", "Bob", "Cy"))
    hand = HandRecord(
        pitcher="Cy",
        bid=1,
        points={
            "high": "Ann",
            "low": "Cy",
            "jacks": {"Bob": 2},
            "queens": {"Ann": 1, "Bob": 1},
            "kings": {"Bob": 1},
            "aces": {"Ann": 1},
        },
    )
    result = replay(PRESETS["pitch-with-bidding"], table, "Cy", [hand])

    assert result.scores == {"Ann": 7, "Bob": 7, "Cy": 1}
    assert (result.winner, result.won_by) == ("Bob", "highest_total")


# --- blind-all-fours (seed 004) ----------------------------------------------------------


def test_blind_all_fours_game():
    table = Seating(("Ann", "Bob", "Cy", "Dee"))
    hands = [
        HandRecord(points=hljg("Ann", "Bob", "Ann", "Cy")),  # Dee deals, Ann pitches
        HandRecord(points=hljg("Bob", "Bob", "Bob", "Bob")),  # Bob pitches
        HandRecord(misdeal=True),  # Bob misdeals
        # Dee pitches and revokes: nothing for Dee, but no setback without a bid.
        HandRecord(points=hljg("Dee", "Ann", None, "Bob"), revoked=("Dee",)),
        HandRecord(pitcher="Ann", points=hljg("Bob", "Bob", "Ann", "Ann")),
        # Bob pitches and reaches 11 on the Game, the last point counted.
        HandRecord(points=hljg("Cy", "Bob", "Bob", "Bob")),
    ]
    result = replay(PRESETS["blind-all-fours"], table, "Dee", hands)

    assert per_hand(result, "dealer") == ["Dee", "Ann", "Bob", "Cy", "Dee", "Ann"]
    assert per_hand(result, "pitcher") == ["Ann", "Bob", None, "Dee", "Ann", "Bob"]
    assert per_hand(result, "bid") == [None] * 6
    assert per_hand(result, "scores") == [
        [2, 1, 1, 0],
        [2, 5, 1, 0],
        [2, 5, 1, 0],
        [3, 6, 1, 0],
        [5, 8, 1, 0],
        [5, 11, 2, 0],
    ]
    assert result.setbacks == {"Ann": 0, "Bob": 0, "Cy": 0, "Dee": 0}
    assert (result.winner, result.won_by) == ("Bob", "count_order")
    assert result.reached == (Reach("Bob", "game"),)
    assert result.settlement is None


@pytest.mark.parametrize("low_to", ["holder", "capturer"])
def test_a_stored_ruleset_with_the_dropped_low_to_still_loads(low_to):
    # Who takes Low is what the scorekeeper records; the setting that named it is gone.
    stored = {**PRESETS["auction-pitch"].to_dict(), "low_to": low_to}

    rules = resolve_rules(stored)

    assert rules == PRESETS["auction-pitch"]
    assert "low_to" not in rules.to_dict()
