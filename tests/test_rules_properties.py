"""Properties of random legal games, for every preset and some variants.

Games are built hand by hand the way a scorekeeper enters them: the auction one bid
at a time from ``legal_bids``, the points to any side (or nobody where allowed),
now and then a revoke or a misdeal, until the game is won or runs long.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pitchkeeper.rules import (
    GameRecord,
    GameResult,
    HandRecord,
    RuleError,
    Ruleset,
    Seating,
    Team,
    check_auction,
    eldest_of,
    game_to_data,
    legal_bids,
    load_json,
    parse_game,
    replay,
    resolve_rules,
)

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus")
MAX_HANDS = 30
HANDS_AT_A_TIME = 4

RULESETS = {
    "setback": resolve_rules("setback"),
    "setback, a chip per setback": resolve_rules({"preset": "setback", "chips_per_setback": 1}),
    "setback, pot": resolve_rules({"preset": "setback", "settlement": "pot", "ante": 2}),
    "auction-pitch": resolve_rules("auction-pitch"),
    "auction-pitch, no junk points": resolve_rules(
        {"preset": "auction-pitch", "non_pitchers_score": False, "settlement": "chips"}
    ),
    "partnership": resolve_rules("partnership"),
    "partnership, chips": resolve_rules({"preset": "partnership", "settlement": "chips"}),
    "pitch-with-bidding": resolve_rules("pitch-with-bidding"),
    "pitch-with-bidding, to 52": resolve_rules({"preset": "pitch-with-bidding", "target": 52}),
    "pitch-with-bidding, count order": resolve_rules(
        {"preset": "pitch-with-bidding", "winner": "count_order", "settlement": "pot"}
    ),
    "blind-all-fours": resolve_rules("blind-all-fours"),
    "blind-all-fours, to 7 with chips": resolve_rules(
        {"preset": "blind-all-fours", "target": 7, "settlement": "chips"}
    ),
}

PROPERTY_SETTINGS = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@dataclass(frozen=True)
class Game:
    rules: Ruleset
    seating: Seating
    first_dealer: str
    hands: tuple[HandRecord, ...]
    result: GameResult
    # Once won: a hand that would be legal for the next deal, had the game gone on.
    one_more: HandRecord | None


@st.composite
def seatings(draw, rules: Ruleset) -> Seating:
    if not rules.partnership:
        count = draw(st.integers(rules.min_players, rules.max_players))
        return Seating(NAMES[:count])
    teams, size = draw(st.sampled_from([(2, 2), (3, 2), (2, 3)]))
    players = NAMES[: teams * size]
    # Partners sit every ``teams`` seats apart.
    return Seating(
        players,
        tuple(Team(f"Team {t + 1}", players[t::teams]) for t in range(teams)),
    )


@st.composite
def auctions(draw, rules: Ruleset, seating: Seating, dealer: str):
    # As at a real table, nobody bids above what the hands are worth: a ceiling for
    # this deal, mostly low, now and then the highest bid (a smudge where there is one).
    first = list(range(rules.min_bid, rules.highest_bid + 1))[:4]
    ceiling = draw(st.sampled_from(first[:2] * 2 + first[2:]))
    auction: list[tuple[str, int | None]] = []
    for _ in seating.players:
        player, bids, may_pass = legal_bids(rules, seating, dealer, auction)
        options: list[int | None] = [None] * 2 if may_pass else []
        options += [bid for bid in bids if bid <= ceiling] or ([] if may_pass else bids[:1])
        auction.append((player, draw(st.sampled_from(options))))
    return tuple(auction)


@st.composite
def hands(draw, rules: Ruleset, seating: Seating, dealer: str) -> HandRecord:
    named_dealer = draw(st.sampled_from([None, dealer]))
    if draw(st.integers(0, 11)) == 0:
        return HandRecord(misdeal=True, dealer=named_dealer)

    auction = None
    pitcher: str | None
    bid: int | None
    if rules.bidding:
        auction = draw(auctions(rules, seating, dealer))
        pitcher, bid = check_auction(rules, seating, dealer, auction)
        if pitcher is None:
            return HandRecord(auction=auction, dealer=named_dealer)
    else:
        pitcher, bid = eldest_of(seating, dealer), None

    takers = [*seating.players, *(team.name for team in seating.teams)]
    # Some hands go the pitcher's way, some not, so that bids are made and games end.
    favour = draw(st.integers(0, 2 * len(takers)))
    points: dict[str, object] = {}
    for category in rules.categories:
        if category.kind == "one":
            options = [pitcher] * favour + takers + ([] if category.required else [None])
            points[category.key] = draw(st.sampled_from(options))
        else:
            left = draw(st.integers(0, category.max_count or 4))
            counts = {}
            for player in draw(st.permutations(seating.players)):
                taken = draw(st.integers(0, left))
                if taken:
                    counts[player] = taken
                    left -= taken
            points[category.key] = counts
    revoked: tuple[str, ...] = ()
    if draw(st.integers(0, 9)) == 0:
        revoked = tuple(draw(st.lists(st.sampled_from(seating.players), min_size=1, max_size=2)))

    if auction is not None and draw(st.booleans()):
        # The other form of the same hand: pitcher and bid instead of the auction.
        auction = None
    elif auction is None and rules.bidding is False and draw(st.booleans()):
        pitcher = None  # without bidding the pitcher may be left out
    return HandRecord(
        auction=auction,
        pitcher=pitcher if auction is None else None,
        bid=bid if auction is None else None,
        points=points,
        revoked=revoked,
        all_tricks=draw(st.booleans()),
        dealer=named_dealer,
    )


def all_passed(hand: HandRecord) -> bool:
    return hand.auction is not None and all(bid is None for _, bid in hand.auction)


@st.composite
def games(draw, rules: Ruleset) -> Game:
    """A game of up to MAX_HANDS hands, ending with the winning hand if it is won.

    Hands are drawn a few at a time, the deal passing on as the rules say, and the
    game replayed after each few: a won game refuses the hand after the win, which
    is where it is cut.
    """
    seating = draw(seatings(rules))
    first_dealer = draw(st.sampled_from(seating.players))
    recorded: list[HandRecord] = []
    dealer = first_dealer
    while True:
        for _ in range(min(HANDS_AT_A_TIME, MAX_HANDS - len(recorded))):
            hand = draw(hands(rules, seating, dealer))
            recorded.append(hand)
            if not all_passed(hand):
                dealer = eldest_of(seating, dealer)
        try:
            result = replay(rules, seating, first_dealer, recorded)
        except RuleError as error:
            if not error.message.startswith("the game was won on hand"):
                raise
            won_on = error.hand - 1
            kept = tuple(recorded[:won_on])
            result = replay(rules, seating, first_dealer, kept)
            return Game(rules, seating, first_dealer, kept, result, recorded[won_on])
        if result.winner is not None:
            one_more = draw(hands(rules, seating, dealer))
            return Game(rules, seating, first_dealer, tuple(recorded), result, one_more)
        if len(recorded) == MAX_HANDS:
            return Game(rules, seating, first_dealer, tuple(recorded), result, None)


def every_ruleset(test):
    return pytest.mark.parametrize("rules", RULESETS.values(), ids=RULESETS.keys())(test)


@every_ruleset
@PROPERTY_SETTINGS
@given(data=st.data())
def test_scores_are_the_running_sum_of_the_deltas(rules, data):
    game = data.draw(games(rules))
    result = game.result

    running = dict.fromkeys(result.sides, 0)
    for number, hand in enumerate(result.hands, start=1):
        assert hand.number == number
        if hand.kind == "played":
            assert set(hand.delta) == set(result.sides)
            running = {side: running[side] + hand.delta[side] for side in result.sides}
        else:
            assert hand.delta == {}
        assert hand.scores == running
    assert result.scores == running
    assert result.scores == {
        side: sum(hand.delta.get(side, 0) for hand in result.hands) for side in result.sides
    }


@every_ruleset
@PROPERTY_SETTINGS
@given(data=st.data())
def test_setbacks_count_failed_bids_and_revokes(rules, data):
    game = data.draw(games(rules))
    result = game.result

    for side in result.sides:
        assert result.setbacks[side] == sum(side in hand.set_back for hand in result.hands)
    for hand in result.hands:
        for side in hand.set_back:
            assert hand.bid is not None
            assert hand.delta[side] == -hand.bid
        if not rules.bidding:
            assert hand.set_back == ()


@every_ruleset
@PROPERTY_SETTINGS
@given(data=st.data())
def test_settlement_sums_to_zero_and_only_once_won(rules, data):
    game = data.draw(games(rules))
    result = game.result

    if result.winner is None or rules.settlement == "none":
        assert result.settlement is None
        return
    settlement = result.settlement
    assert settlement is not None
    assert set(settlement) == set(result.sides)
    assert sum(settlement.values()) == 0
    assert settlement[result.winner] > 0
    assert all(net < 0 for side, net in settlement.items() if side != result.winner)


@every_ruleset
@PROPERTY_SETTINGS
@given(data=st.data())
def test_a_won_game_takes_no_more_hands(rules, data):
    game = data.draw(games(rules))
    result = game.result

    if result.winner is None:
        assert len(game.hands) == MAX_HANDS
        assert result.dealer in game.seating.players
        return
    last = result.hands[-1]
    assert result.dealer is None
    assert last.kind == "played"
    assert result.winner not in last.set_back
    if result.won_by != "smudge":
        assert result.scores[result.winner] >= rules.target
    if result.won_by == "bidder_out":
        assert result.winner == last.pitching_side
        assert last.made is True
    if result.won_by == "highest_total":
        assert result.scores[result.winner] == max(result.scores.values())
    if result.won_by == "count_order":
        assert result.reached[0].side == result.winner

    assert game.one_more is not None
    for extra in (game.one_more, HandRecord(misdeal=True)):
        with pytest.raises(RuleError) as caught:
            replay(rules, game.seating, game.first_dealer, [*game.hands, extra])
        assert caught.value.hand == len(game.hands) + 1
        assert caught.value.message == (
            f"the game was won on hand {len(game.hands)}; no hand can follow it"
        )


@every_ruleset
@PROPERTY_SETTINGS
@given(data=st.data())
def test_export_then_import_round_trips(rules, data):
    game = data.draw(games(rules))
    record = GameRecord(rules, game.seating, game.first_dealer, game.hands)
    exported = game_to_data(record, game.result, game_id=7)

    [again] = load_json(json.dumps(exported))
    parsed = parse_game(again)
    replayed = parsed.replay()

    assert parsed.rules == rules
    assert parsed.seating == game.seating
    assert replayed == game.result
    assert game_to_data(parsed, replayed, again["id"]) == exported


@every_ruleset
@PROPERTY_SETTINGS
@given(data=st.data())
def test_check_auction_refuses_every_bid_legal_bids_leaves_out(rules, data):
    if not rules.bidding:
        return
    seating = data.draw(seatings(rules))
    dealer = data.draw(st.sampled_from(seating.players))
    full = data.draw(auctions(rules, seating, dealer))
    prefix = list(full[: data.draw(st.integers(0, len(full) - 1))])
    player, bids, may_pass = legal_bids(rules, seating, dealer, prefix)

    wrong = [b for b in range(0, rules.highest_bid + 2) if b not in bids]
    if not may_pass:
        wrong.append(None)
    bad = data.draw(st.sampled_from(wrong))
    # The players after ``player`` all pass.
    rest = [(later, None) for later, _ in full[len(prefix) + 1 :]]
    with pytest.raises(RuleError) as caught:
        check_auction(rules, seating, dealer, [*prefix, (player, bad), *rest])
    assert player in caught.value.message
