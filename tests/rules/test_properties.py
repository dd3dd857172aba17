"""Properties of random legal games, for every preset and some variants.

Games are built hand by hand the way a scorekeeper enters them: the auction one bid
at a time from ``legal_bids`` (given the scores, for the bids a side may only make at
some scores), the points to any side (or nobody where allowed), now and then a sweep,
a revoke or a misdeal, until the game is over or runs long.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pitchkeeper.rules import (
    PRESETS,
    Bid,
    GameRecord,
    GameResult,
    HandRecord,
    RuleError,
    Ruleset,
    Seating,
    Team,
    all_bids,
    check_auction,
    contract,
    eldest_of,
    game_to_data,
    legal_bids,
    load_json,
    parse_game,
    play_on,
    replay,
    resolve_rules,
)

# Each side's score before a hand, where a bid depends on it; None where none does.
Scores = dict[str, int]

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

# Seed 004's variants, each as its preset and some with the choices left open.
VARIANTS = {
    **{
        name: rules
        for name, rules in PRESETS.items()
        if name not in {rules.preset for rules in RULESETS.values()}
    },
    "ten-point, cutthroat with the pot": resolve_rules(
        {"preset": "ten-point", "partnership": False, "min_players": 3, "settlement": "pot"}
    ),
    "campbell-eleven, five-handed": resolve_rules(
        {
            "preset": "campbell-eleven",
            "partnership": False,
            "called_partner": True,
            "min_players": 5,
            "max_players": 5,
        }
    ),
    # Floors near zero, so that random games reach them.
    "nine-five, out at -10": resolve_rules({"preset": "nine-five", "lose_at": -10}),
    "nine-five, backdoor draw": resolve_rules(
        {"preset": "nine-five", "lose_at": None, "draw_at": -10, "settlement": "chips"}
    ),
    "auction-pitch, setters go out": resolve_rules(
        {"preset": "auction-pitch", "setter_goes_out": True, "win_by": 2}
    ),
    "contway-six, three-handed": resolve_rules(
        {"preset": "contway-six", "partnership": False, "min_players": 3, "max_players": 3}
    ),
}

EVERY_RULESET = {**RULESETS, **VARIANTS}

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
    shapes = [(2, 2), (3, 2), (2, 3)]
    fit = [(t, n) for t, n in shapes if rules.min_players <= t * n <= rules.max_players]
    teams, size = draw(st.sampled_from(fit))
    players = NAMES[: teams * size]
    # Partners sit every ``teams`` seats apart.
    return Seating(
        players,
        tuple(Team(f"Team {t + 1}", players[t::teams]) for t in range(teams)),
    )


@st.composite
def auctions(draw, rules: Ruleset, seating: Seating, dealer: str, scores: Scores | None):
    # As at a real table, nobody bids above what the hands are worth: a ceiling for
    # this deal, mostly low, now and then a moon bid where the rules have one.
    ladder = all_bids(rules)
    numbers = [place for place, bid in enumerate(ladder) if isinstance(bid, int)][:4]
    moons = [ladder.index(moon.key) for moon in rules.moon_bids]
    ceiling = draw(st.sampled_from(numbers[:2] * 2 + numbers[2:] + moons))
    auction: list[tuple[str, Bid | None]] = []
    # Once round, or round and round until all but one have passed (Bonanza).
    while len(auction) < len(seating.players) or rules.auction_until_one:
        try:
            player, bids, may_pass = legal_bids(rules, seating, dealer, auction, scores)
        except RuleError:
            break
        options: list[Bid | None] = [None] * 2 if may_pass else []
        under = [bid for bid in bids if ladder.index(bid) <= ceiling]
        options += under or ([] if may_pass else bids[:1])
        auction.append((player, draw(st.sampled_from(options))))
    return tuple(auction)


@st.composite
def hands(draw, rules: Ruleset, seating: Seating, dealer: str, scores: Scores | None):
    named_dealer = draw(st.sampled_from([None, dealer]))
    if draw(st.integers(0, 11)) == 0:
        return HandRecord(misdeal=True, dealer=named_dealer)

    auction = None
    pitcher: str | None
    bid: Bid | None
    if rules.bidding:
        auction = draw(auctions(rules, seating, dealer, scores))
        pitcher, bid = check_auction(rules, seating, dealer, auction, scores)
        if pitcher is None:
            return HandRecord(auction=auction, dealer=named_dealer)
    else:
        pitcher, bid = eldest_of(seating, dealer), None
    partner = None
    if rules.called_partner:
        partner = draw(st.sampled_from([None, *(p for p in seating.players if p != pitcher)]))

    takers = [*seating.players, *(team.name for team in seating.teams)]
    # Some hands go the pitcher's way, some not, so that bids are made and games end;
    # now and then the pitcher takes everything, as a moon bid needs.
    sweep = draw(st.integers(0, 7)) == 0
    favour = draw(st.integers(0, 2 * len(takers)))
    points: dict[str, object] = {}
    for category in rules.categories:
        if category.kind == "one":
            options = [pitcher] * favour + takers + ([] if category.required else [None])
            points[category.key] = pitcher if sweep else draw(st.sampled_from(options))
        elif sweep:
            points[category.key] = {pitcher: category.max_count or 4}
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
        all_tricks=sweep or draw(st.booleans()),
        dealer=named_dealer,
        partner=partner,
    )


def all_passed(hand: HandRecord) -> bool:
    return hand.auction is not None and all(bid is None for _, bid in hand.auction)


@st.composite
def games(draw, rules: Ruleset) -> Game:
    """A game of up to MAX_HANDS hands, ending with the hand that ends it if it ends.

    Hands are drawn a few at a time, the deal passing on as the rules say, and the
    game replayed after each few: a finished game refuses the hand after its end,
    which is where it is cut. Where a side's score limits its bids (Bonanza's moon),
    the game is replayed after every hand for the scores the auction needs.
    """
    seating = draw(seatings(rules))
    first_dealer = draw(st.sampled_from(seating.players))
    limited = any(not m.allowed_in_hole or m.allowed_under is not None for m in rules.moon_bids)
    step = 1 if limited else HANDS_AT_A_TIME
    recorded: list[HandRecord] = []
    dealer = first_dealer
    result = replay(rules, seating, first_dealer, recorded)
    while True:
        for _ in range(min(step, MAX_HANDS - len(recorded))):
            hand = draw(hands(rules, seating, dealer, result.scores if limited else None))
            recorded.append(hand)
            if not all_passed(hand) or rules.redeal_passes_deal:
                dealer = eldest_of(seating, dealer)
        try:
            result = replay(rules, seating, first_dealer, recorded)
        except RuleError as error:
            if not error.message.startswith(("the game was won on", "the game was drawn on")):
                raise
            ended_on = error.hand - 1
            kept = tuple(recorded[:ended_on])
            result = replay(rules, seating, first_dealer, kept)
            return Game(rules, seating, first_dealer, kept, result, recorded[ended_on])
        if result.finished:
            one_more = draw(hands(rules, seating, dealer, result.scores))
            return Game(rules, seating, first_dealer, tuple(recorded), result, one_more)
        if len(recorded) == MAX_HANDS:
            return Game(rules, seating, first_dealer, tuple(recorded), result, None)


def every_ruleset(test):
    return pytest.mark.parametrize("rules", RULESETS.values(), ids=RULESETS.keys())(test)


def check_scores_are_the_running_sum_of_the_deltas(game: Game) -> None:
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


def check_setbacks_count_failed_bids_and_revokes(game: Game) -> None:
    rules, result = game.rules, game.result
    for side in result.sides:
        assert result.setbacks[side] == sum(side in hand.set_back for hand in result.hands)
    for hand in result.hands:
        for side in hand.set_back:
            bid = contract(rules, hand.bid)
            assert bid is not None
            # Set back by what the bid is worth, or down to the floor.
            floored = rules.score_floor is not None and hand.scores[side] == rules.score_floor
            assert hand.delta[side] == -bid.stake or (floored and hand.delta[side] > -bid.stake)
        if not rules.bidding:
            assert hand.set_back == ()


def check_settlement_sums_to_zero_and_only_once_won(game: Game) -> None:
    rules, result = game.rules, game.result
    if result.winner is None or (rules.settlement == "none" and not rules.sweep_chips):
        assert result.settlement is None
        return
    settlement = result.settlement
    assert settlement is not None
    assert set(settlement) == set(result.sides)
    assert sum(settlement.values()) == 0
    # Side bets: each other side pays a side for every hand in which it took every point.
    swept = [
        side for hand in result.hands for side, n in hand.taken.items() if n == rules.most_points
    ]
    bets = {
        side: rules.sweep_chips * (len(result.sides) * swept.count(side) - len(swept))
        for side in result.sides
    }
    stake = {side: settlement[side] - bets[side] for side in result.sides}
    if rules.settlement == "none":
        assert set(stake.values()) == {0}
        return
    assert stake[result.winner] > 0
    assert all(net < 0 for side, net in stake.items() if side != result.winner)


def check_a_finished_game_takes_no_more_hands(game: Game) -> None:
    rules, result = game.rules, game.result
    if not result.finished:
        assert result.winner is None
        assert len(game.hands) == MAX_HANDS
        assert result.dealer in game.seating.players
        return
    last = result.hands[-1]
    assert result.dealer is None
    assert last.kind == "played"
    if result.won_by in ("count_order", "bidder_out", "highest_total", "win_by"):
        assert result.winner not in last.set_back
        assert result.scores[result.winner] >= rules.target
    if result.won_by == "bidder_out":
        assert result.winner == last.pitching_side
        assert last.made is True
    if result.won_by == "highest_total":
        assert result.scores[result.winner] == max(result.scores.values())
    if result.won_by == "count_order":
        assert result.reached[0].side == result.winner
    if result.won_by == "win_by":
        assert rules.win_by is not None
        others = [score for side, score in result.scores.items() if side != result.winner]
        assert result.scores[result.winner] - max(others) >= rules.win_by
    if result.won_by in ("smudge", "smudge_failed"):
        assert last.smudge is True
        assert last.made is (result.won_by == "smudge")
        assert (result.winner == last.pitching_side) is last.made
    if result.won_by == "floor":
        assert rules.lose_at is not None
        assert min(result.scores.values()) <= rules.lose_at
    if result.won_by == "draw":
        assert result.winner is None
        assert rules.draw_at is not None
        assert min(result.scores.values()) <= rules.draw_at

    assert game.one_more is not None
    ended = "drawn" if result.drawn else "won"
    for extra in (game.one_more, HandRecord(misdeal=True)):
        with pytest.raises(RuleError) as caught:
            replay(rules, game.seating, game.first_dealer, [*game.hands, extra])
        assert caught.value.hand == len(game.hands) + 1
        assert caught.value.message == (
            f"the game was {ended} on hand {len(game.hands)}; no hand can follow it"
        )


def check_export_then_import_round_trips(game: Game) -> None:
    record = GameRecord(game.rules, game.seating, game.first_dealer, game.hands)
    exported = game_to_data(record, game.result, game_id=7)

    [again] = load_json(json.dumps(exported))
    parsed = parse_game(again)
    replayed = parsed.replay()

    assert parsed.rules == game.rules
    assert parsed.seating == game.seating
    assert replayed == game.result
    assert game_to_data(parsed, replayed, again["id"]) == exported


@every_ruleset
@PROPERTY_SETTINGS
@given(data=st.data())
def test_scores_are_the_running_sum_of_the_deltas(rules, data):
    check_scores_are_the_running_sum_of_the_deltas(data.draw(games(rules)))


@every_ruleset
@PROPERTY_SETTINGS
@given(data=st.data())
def test_setbacks_count_failed_bids_and_revokes(rules, data):
    check_setbacks_count_failed_bids_and_revokes(data.draw(games(rules)))


@every_ruleset
@PROPERTY_SETTINGS
@given(data=st.data())
def test_settlement_sums_to_zero_and_only_once_won(rules, data):
    check_settlement_sums_to_zero_and_only_once_won(data.draw(games(rules)))


@every_ruleset
@PROPERTY_SETTINGS
@given(data=st.data())
def test_a_won_game_takes_no_more_hands(rules, data):
    check_a_finished_game_takes_no_more_hands(data.draw(games(rules)))


@every_ruleset
@PROPERTY_SETTINGS
@given(data=st.data())
def test_export_then_import_round_trips(rules, data):
    check_export_then_import_round_trips(data.draw(games(rules)))


# Seed 004's variants make long games (targets up to 101), so each game drawn for them
# is checked for every property at once, which keeps the suite quick.
@pytest.mark.parametrize("rules", VARIANTS.values(), ids=VARIANTS.keys())
@PROPERTY_SETTINGS
@given(data=st.data())
def test_every_variant_keeps_every_property(rules, data):
    game = data.draw(games(rules))

    check_scores_are_the_running_sum_of_the_deltas(game)
    check_setbacks_count_failed_bids_and_revokes(game)
    check_settlement_sums_to_zero_and_only_once_won(game)
    check_a_finished_game_takes_no_more_hands(game)
    check_export_then_import_round_trips(game)


@pytest.mark.parametrize(
    "rules", [*RULESETS.values(), *VARIANTS.values()], ids=[*RULESETS, *VARIANTS]
)
@PROPERTY_SETTINGS
@given(data=st.data())
def test_check_auction_refuses_every_bid_legal_bids_leaves_out(rules, data):
    if not rules.bidding:
        return
    seating = data.draw(seatings(rules))
    dealer = data.draw(st.sampled_from(seating.players))
    full = data.draw(auctions(rules, seating, dealer, None))
    prefix = list(full[: data.draw(st.integers(0, len(full) - 1))])
    player, bids, may_pass = legal_bids(rules, seating, dealer, prefix)

    words = ["1x2", f"{rules.highest_bid + 1}x2", "moon", "smudge", "hotshot", "6 for 12"]
    wrong = [b for b in [*range(0, rules.highest_bid + 2), *words] if b not in bids]
    if not may_pass:
        wrong.append(None)
    bad = data.draw(st.sampled_from(wrong))
    # The players after ``player`` all pass.
    rest = [(later, None) for later, _ in full[len(prefix) + 1 :]]
    with pytest.raises(RuleError) as caught:
        check_auction(rules, seating, dealer, [*prefix, (player, bad), *rest])
    assert player in caught.value.message


@pytest.mark.parametrize("rules", EVERY_RULESET.values(), ids=EVERY_RULESET.keys())
@PROPERTY_SETTINGS
@given(data=st.data())
def test_playing_on_from_a_result_is_replaying_the_whole_game(rules, data):
    game = data.draw(games(rules))
    cut = data.draw(st.integers(0, len(game.hands)))
    start = replay(rules, game.seating, game.first_dealer, game.hands[:cut])

    assert play_on(rules, game.seating, start, game.hands[cut:]) == game.result
    if game.result.finished:
        with pytest.raises(RuleError, match="no hand can follow it"):
            play_on(rules, game.seating, game.result, [HandRecord(misdeal=True)])


def test_playing_on_needs_a_result_the_engine_made():
    rules = resolve_rules("setback")
    seating = Seating(("Ann", "Bob", "Cy"))
    made_up = GameResult(seating.sides, (), dict.fromkeys(seating.sides, 0), {}, "Ann")

    with pytest.raises(ValueError, match="only from a result of replay"):
        play_on(rules, seating, made_up, [HandRecord(misdeal=True)])
