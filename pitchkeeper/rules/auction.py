"""The auction: who bids when, which bids are open to whom, and a recorded auction
checked bid by bid (the steal, forced bids, moon bids a side may not make)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from .bids import Contract, all_bids, bid_words, contract
from .errors import RuleError
from .results import Scores
from .ruleset import Bid, Ruleset
from .seating import Seating


def eldest_of(seating: Seating, dealer: str) -> str:
    """The player left of the dealer, who bids first (and pitches without bidding)."""
    seat = seating.players.index(dealer)
    return seating.players[(seat + 1) % len(seating.players)]


def bidding_order(seating: Seating, dealer: str) -> tuple[str, ...]:
    seat = seating.players.index(dealer)
    count = len(seating.players)
    return tuple(seating.players[(seat + 1 + i) % count] for i in range(count))


def legal_bids(
    rules: Ruleset,
    seating: Seating,
    dealer: str,
    auction: Sequence[tuple[str, Bid | None]],
    scores: Scores | None = None,
    forced: Collection[str] = (),
) -> tuple[str, list[Bid], bool]:
    """Whose turn it is in a partly recorded auction, the bids open to them (lowest
    first), and whether they may pass. The auction so far must be legal.

    ``scores``, each side's score before the hand, leaves out the moon bids the
    bidder's side may not make at its score; without it they are all offered.
    ``forced`` names the players whose hands force a bid.
    """
    order = bidding_order(seating, dealer)
    auction = [(seating.player(name), bid) for name, bid in auction]
    player = _next_bidder(rules, order, auction)
    if player is None:
        raise RuleError("auction_complete", {}, field="auction")
    placed = [
        bid_contract(rules, seating, name, bid, None) for name, bid in auction if bid is not None
    ]
    high = max(placed, key=lambda earlier: earlier.rank, default=None)
    least = _least_bid(rules, player, dealer, high, forced)
    open_to = []
    for bid in all_bids(rules):
        offer = contract(rules, bid)
        assert offer is not None  # every bid all_bids gives is a bid of the rules
        if not _outbids(rules, offer, high, player == dealer):
            continue
        if least is not None and offer.below(least):
            continue
        if _moon_refusal(rules, seating, player, bid, scores) is None:
            open_to.append(bid)
    return player, open_to, least is None


def _next_bidder(
    rules: Ruleset, order: tuple[str, ...], auction: Sequence[tuple[str, Bid | None]]
) -> str | None:
    """Whose turn it is after ``auction`` (players as seated), None once it is over:
    after one round, or with ``auction_until_one`` once all but one have passed."""
    if len(auction) < len(order):
        return order[len(auction)]
    passed = {name for name, bid in auction if bid is None}
    if not rules.auction_until_one or len(order) - len(passed) <= 1:
        return None
    last = order.index(auction[-1][0])
    return next(
        order[(last + step) % len(order)]
        for step in range(1, len(order))
        if order[(last + step) % len(order)] not in passed
    )


def _least_bid(
    rules: Ruleset, player: str, dealer: str, high: Contract | None, forced: Collection[str]
) -> int | None:
    """The least numbered bid ``player`` must make now, or None when a pass will do:
    a dealer everybody passed to, or a player whose hand forces a bid that the
    bidding has not yet reached."""
    least: list[int] = []
    if player == dealer and high is None and rules.all_pass == "dealer_forced":
        least.append(max(rules.min_bid, rules.forced_min_bid))
    bid = rules.forced_bid
    if bid is not None and player in forced and (high is None or high.below(bid)):
        least.append(max(rules.min_bid, bid))
    return max(least, default=None)


def _least_refusal(
    rules: Ruleset, player: str, dealer: str, high: Contract | None, least: int
) -> RuleError:
    if player == dealer and high is None and rules.all_pass == "dealer_forced":
        return RuleError("dealer_must_bid", {"dealer": dealer, "least": least}, field="auction")
    return RuleError("forced_must_bid", {"player": player, "least": least}, field="auction")


def _outbids(rules: Ruleset, bid: Contract, high: Contract | None, by_dealer: bool) -> bool:
    if high is None:
        return True
    if bid.rank == high.rank:
        return by_dealer and _may_steal(rules, high)
    return bid.rank > high.rank


def _may_steal(rules: Ruleset, high: Contract) -> bool:
    # Seed 000: a smudge (a bid of max_bid) cannot be taken away, nor can a moon bid;
    # seed 001: in partnership, nothing above a 3 (steal_up_to).
    level = high.level
    return (
        rules.dealer_may_steal
        and level is not None
        and level != rules.max_bid
        and (rules.steal_up_to is None or level <= rules.steal_up_to)
    )


def _moon_refusal(
    rules: Ruleset, seating: Seating, player: str, bid: Bid, scores: Scores | None
) -> RuleError | None:
    """Why ``player``'s side may not make this moon bid at its score (Bonanza), if so."""
    moon = rules.moon(bid)
    if moon is None or scores is None:
        return None
    side = seating.side_of(player)
    score = scores[side]
    if score < 0 and not moon.allowed_in_hole:
        return RuleError("moon_in_hole", {"player": player, "bid": bid, "side": side}, field="bid")
    if moon.allowed_under is not None and score >= moon.allowed_under:
        under = moon.allowed_under
        params = {"player": player, "bid": bid, "side": side, "score": score, "under": under}
        return RuleError("moon_score", params, field="bid")
    return None


def check_auction(
    rules: Ruleset,
    seating: Seating,
    dealer: str,
    auction: Sequence[Sequence[Any]],
    scores: Scores | None = None,
    forced: Collection[str] = (),
) -> tuple[str | None, Bid | None]:
    """The pitcher and the winning bid of a recorded auction (None, None: all passed).

    ``scores``, each side's score before the hand, refuses the moon bids a side may
    not make at its score; ``forced`` names the players whose hands force a bid.
    """
    order = bidding_order(seating, dealer)
    if not rules.auction_until_one and len(auction) != len(order):
        params = {"count": len(order), "first": order[0], "dealer": dealer}
        raise RuleError("auction_length", params, field="auction")
    high: Contract | None = None
    high_bid: Bid | None = None
    high_bidder: str | None = None
    bids: list[tuple[str, Bid | None]] = []
    for entry in auction:
        if not isinstance(entry, Sequence) or isinstance(entry, str) or len(entry) != 2:
            raise RuleError("auction_entry", {})
        player = seating.player(entry[0])
        bid = entry[1]
        expected = _next_bidder(rules, order, bids)
        if expected is None:
            code = "auction_over_pass" if bid is None else "auction_over_bid"
            params = {"high_bidder": high_bidder, "player": player, "bid": bid}
            raise RuleError(code, params, field="auction")
        if player != expected:
            params = {"expected": expected, "player": player, "first": order[0], "dealer": dealer}
            raise RuleError("auction_order", params, field="auction")
        bids.append((player, bid))
        least = _least_bid(rules, player, dealer, high, forced)
        if bid is None:
            if least is not None:
                raise _least_refusal(rules, player, dealer, high, least)
            continue
        offer = bid_contract(rules, seating, player, bid, scores)
        if least is not None and offer.below(least):
            raise _least_refusal(rules, player, dealer, high, least)
        if high is not None and not _outbids(rules, offer, high, player == dealer):
            if offer.rank == high.rank and player == dealer and rules.dealer_may_steal:
                code = "no_steal_moon" if high.level is None else "no_steal"
                params = {"dealer": dealer, "high_bidder": high_bidder, "high_bid": high_bid}
                raise RuleError(code, {**params, "level": high.level}, field="auction")
            params = {
                "player": player,
                "bid": bid,
                "high_bidder": high_bidder,
                "high_bid": high_bid,
            }
            raise RuleError("bid_not_higher", params, field="auction")
        high, high_bid, high_bidder = offer, bid, player
    waiting = _next_bidder(rules, order, bids)
    if waiting is not None:
        raise RuleError("auction_not_over", {"waiting": waiting}, field="auction")
    return high_bidder, high_bid


def bid_contract(
    rules: Ruleset, seating: Seating, player: str, bid: object, scores: Scores | None
) -> Contract:
    """The contract of ``player``'s bid, refusing a bid the rules do not have."""
    text = isinstance(bid, str)
    if isinstance(bid, bool) or not isinstance(bid, int | str) or (text and not rules.word_bids):
        if rules.word_bids:
            raise RuleError(
                "bid_not_listed", {"player": player, "bids": bid_words(rules)}, field="bid"
            )
        raise RuleError("bid_not_number", {"player": player}, field="bid")
    found = contract(rules, bid)
    if found is None:
        # A text bid is quoted, so that "3" is not taken for the number 3.
        shown = repr(bid) if text else bid
        params = {"player": player, "typed": shown, "bids": bid_words(rules)}
        raise RuleError("bid_unknown", params, field="bid")
    refusal = _moon_refusal(rules, seating, player, bid, scores)
    if refusal is not None:
        raise refusal
    return found
