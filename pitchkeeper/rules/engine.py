"""Scoring, winning, dealing and settling: a game replayed from its hand records."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from .bids import Contract, all_bids, contract, describe_bids
from .errors import RuleError
from .ruleset import Bid, Category, Ruleset
from .seating import Seating

HandKind = Literal["played", "misdeal", "redeal"]
WonBy = Literal[
    "count_order",
    "smudge",
    "bidder_out",
    "highest_total",
    "win_by",
    "smudge_failed",
    "floor",
    "draw",
]
# What a category went to: a side, nobody, or for a count category each side's count.
Taken = str | None | dict[str, int]
# Each side's score before a hand, for the bids a side may only make at some scores.
Scores = Mapping[str, int]


@dataclass(frozen=True)
class HandRecord:
    """One hand as the scorekeeper recorded it; names are players' (or teams') names.

    Give ``pitcher`` and ``bid``, or the whole ``auction`` as (player, bid or None for a
    pass) in bidding order. ``points`` maps every category key to who took it.
    ``partner``, where the pitcher calls one, is who held the called card; None when
    the pitcher held it and played alone. ``forced`` names the players whose hands
    forced a bid (``Ruleset.forced_bid``).
    """

    misdeal: bool = False
    auction: tuple[tuple[str, Bid | None], ...] | None = None
    pitcher: str | None = None
    bid: Bid | None = None
    points: Mapping[str, Any] = field(default_factory=dict)
    revoked: tuple[str, ...] = ()
    all_tricks: bool = False
    dealer: str | None = None
    partner: str | None = None
    forced: tuple[str, ...] = ()


@dataclass(frozen=True)
class HandResult:
    number: int
    dealer: str
    kind: HandKind
    pitcher: str | None = None
    pitching_side: str | None = None
    bid: Bid | None = None
    made: bool | None = None
    smudge: bool = False
    points: dict[str, Taken] = field(default_factory=dict)
    revoked: tuple[str, ...] = ()
    all_tricks: bool = False
    taken: dict[str, int] = field(default_factory=dict)
    delta: dict[str, int] = field(default_factory=dict)
    scores: dict[str, int] = field(default_factory=dict)
    set_back: tuple[str, ...] = ()
    partner: str | None = None


@dataclass(frozen=True)
class Reach:
    """A side reaching the target while a hand's points are counted in order.

    ``category`` is the category on which it got there, None for the pitcher's points
    counted first (and for a smudge or a win decided on the hand's totals).
    """

    side: str
    category: str | None


@dataclass(frozen=True)
class GameResult:
    sides: tuple[str, ...]
    hands: tuple[HandResult, ...]
    scores: dict[str, int]
    setbacks: dict[str, int]
    dealer: str | None
    winner: str | None = None
    # Why the game ended; "draw" ends it with no winner.
    won_by: WonBy | None = None
    # Every side that reached the target on the winning hand, in order.
    reached: tuple[Reach, ...] = ()
    settlement: dict[str, int] | None = None
    # The hands in which each side took every point (all fours' side bets).
    sweeps: dict[str, int] = field(default_factory=dict)
    # Each side's tiebreak points over the game, so that play_on can carry on from here.
    tiebreak: dict[str, int] = field(default_factory=dict)

    @property
    def finished(self) -> bool:
        return self.won_by is not None

    @property
    def drawn(self) -> bool:
        return self.won_by == "draw"

    def in_hole(self, side: str) -> bool:
        return self.scores[side] < 0

    def payments(self) -> list[tuple[str, str, int]]:
        """The settlement as (payer, payee, amount): every side that is down pays the
        sides that are up, the winner first, so a game stake alone is every loser
        paying the winner."""
        if not self.settlement or self.winner is None:
            return []
        due = {side: net for side, net in self.settlement.items() if net > 0}
        payees = sorted(due, key=lambda side: side != self.winner)
        paid: list[tuple[str, str, int]] = []
        for payer, net in self.settlement.items():
            owed = -net
            for payee in payees:
                amount = min(owed, due[payee])
                if amount > 0:
                    paid.append((payer, payee, amount))
                    owed -= amount
                    due[payee] -= amount
        return paid


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
        raise RuleError("the auction is complete", field="auction")
    placed = [
        _check_bid(rules, seating, name, bid, None) for name, bid in auction if bid is not None
    ]
    high = max(placed, key=lambda earlier: earlier.rank, default=None)
    least = _least_bid(rules, player, dealer, high, forced)
    open_to = []
    for bid in all_bids(rules):
        offer = contract(rules, bid)
        assert offer is not None  # every bid all_bids gives is a bid of the rules
        if not _outbids(rules, offer, high, player == dealer):
            continue
        if least is not None and offer.rank < (0, least, 0):
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
    if bid is not None and player in forced and (high is None or high.rank < (0, bid, 0)):
        least.append(max(rules.min_bid, bid))
    return max(least, default=None)


def _least_words(rules: Ruleset, player: str, dealer: str, high: Contract | None) -> str:
    if player == dealer and high is None and rules.all_pass == "dealer_forced":
        return f"everybody else passed, so {dealer}, the dealer,"
    return f"{player}'s hand forces a bid, so {player}"


def _outbids(rules: Ruleset, bid: Contract, high: Contract | None, by_dealer: bool) -> bool:
    if high is None:
        return True
    if bid.rank == high.rank:
        return by_dealer and _may_steal(rules, high)
    return bid.rank > high.rank


def _may_steal(rules: Ruleset, high: Contract) -> bool:
    # Seed 000: a smudge (a bid of max_bid) cannot be taken away, nor can a moon bid;
    # seed 001: in partnership, nothing above a 3 (steal_up_to).
    bid = high.rank[1]
    return (
        rules.dealer_may_steal
        and high.rank[0] == 0
        and bid != rules.max_bid
        and (rules.steal_up_to is None or bid <= rules.steal_up_to)
    )


def _moon_refusal(
    rules: Ruleset, seating: Seating, player: str, bid: Bid, scores: Scores | None
) -> str | None:
    """Why ``player``'s side may not make this moon bid at its score (Bonanza), if so."""
    moon = rules.moon(bid)
    if moon is None or scores is None:
        return None
    side = seating.side_of(player)
    score = scores[side]
    if score < 0 and not moon.allowed_in_hole:
        return f"{player} cannot bid {bid}: {side} is in the hole"
    if moon.allowed_under is not None and score >= moon.allowed_under:
        return (
            f"{player} cannot bid {bid}: {side} has {score}, and {bid} is only open "
            f"below {moon.allowed_under}"
        )
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
        raise RuleError(
            f"the auction must have each of the {len(order)} players once, "
            f"from {order[0]} (left of the dealer) round to {dealer}, the dealer",
            field="auction",
        )
    high: Contract | None = None
    high_bid: Bid | None = None
    high_bidder: str | None = None
    bids: list[tuple[str, Bid | None]] = []
    for entry in auction:
        if not isinstance(entry, Sequence) or isinstance(entry, str) or len(entry) != 2:
            raise RuleError("each auction entry is a player and a bid (null for a pass)")
        player = seating.player(entry[0])
        bid = entry[1]
        expected = _next_bidder(rules, order, bids)
        if expected is None:
            raise RuleError(
                f"the auction was over, everybody but {high_bidder} having passed, "
                f"before {player}'s {'pass' if bid is None else bid}",
                field="auction",
            )
        if player != expected:
            raise RuleError(
                f"{expected} bids before {player}: the auction goes clockwise "
                f"from {order[0]}, left of the dealer, to {dealer}, the dealer",
                field="auction",
            )
        bids.append((player, bid))
        least = _least_bid(rules, player, dealer, high, forced)
        if bid is None:
            if least is not None:
                raise RuleError(
                    f"{_least_words(rules, player, dealer, high)} must bid at least {least}",
                    field="auction",
                )
            continue
        offer = _check_bid(rules, seating, player, bid, scores)
        if least is not None and offer.rank < (0, least, 0):
            raise RuleError(
                f"{_least_words(rules, player, dealer, high)} must bid at least {least}",
                field="auction",
            )
        if high is not None and not _outbids(rules, offer, high, player == dealer):
            if offer.rank == high.rank and player == dealer and rules.dealer_may_steal:
                what = f"a bid of {high.rank[1]}" if high.rank[0] == 0 else "a moon bid"
                raise RuleError(
                    f"{dealer} cannot take {high_bidder}'s {high_bid}: {what} cannot be taken away",
                    field="auction",
                )
            raise RuleError(
                f"{player} bid {bid} but {high_bidder} already bid {high_bid}; "
                "each bid must be higher",
                field="auction",
            )
        high, high_bid, high_bidder = offer, bid, player
    waiting = _next_bidder(rules, order, bids)
    if waiting is not None:
        raise RuleError(
            f"the auction goes round until all but one have passed: {waiting} "
            "must still bid or pass",
            field="auction",
        )
    return high_bidder, high_bid


def _check_bid(
    rules: Ruleset, seating: Seating, player: str, bid: object, scores: Scores | None
) -> Contract:
    """The contract of ``player``'s bid, refusing a bid the rules do not have."""
    text = isinstance(bid, str)
    if isinstance(bid, bool) or not isinstance(bid, int | str) or (text and not rules.word_bids):
        kinds = "a whole number or a pass"
        if rules.word_bids:
            kinds = f"a pass or a bid {describe_bids(rules)}"
        raise RuleError(f"{player}'s bid must be {kinds}", field="bid")
    found = contract(rules, bid)
    if found is None:
        # A text bid is quoted, so that "3" is not taken for the number 3.
        shown = repr(bid) if text else bid
        raise RuleError(f"{player} bid {shown}; bids go {describe_bids(rules)}", field="bid")
    refusal = _moon_refusal(rules, seating, player, bid, scores)
    if refusal is not None:
        raise RuleError(refusal, field="bid")
    return found


def _taken_points(
    rules: Ruleset, seating: Seating, points: Mapping[str, Any]
) -> tuple[dict[str, Taken], dict[str, dict[str, int]]]:
    """Who took each category, and each side's points per category."""
    if not isinstance(points, Mapping):
        raise RuleError("points must map each category to who took it", field="points")
    unknown = set(points) - {c.key for c in rules.categories}
    if unknown:
        known = ", ".join(c.key for c in rules.categories)
        raise RuleError(
            f"unknown point {', '.join(sorted(map(str, unknown)))}; this game scores {known}",
            field="points",
        )
    went_to: dict[str, Taken] = {}
    by_category: dict[str, dict[str, int]] = {}
    for category in rules.categories:
        if category.key not in points:
            raise RuleError(
                f"say who took {category.label}" + ("" if category.required else " (or nobody)"),
                field=f"points.{category.key}",
            )
        went_to[category.key], by_category[category.key] = _one_category(
            category, seating, points[category.key]
        )
    return went_to, by_category


def _one_category(category: Category, seating: Seating, entry: Any) -> tuple[Taken, dict[str, int]]:
    where = f"points.{category.key}"
    if category.kind == "one":
        if entry is None:
            if category.required:
                raise RuleError(
                    f"{category.label} always goes to somebody in a played hand", field=where
                )
            return None, {}
        try:
            side = seating.side_of(entry)
        except RuleError as error:
            raise RuleError(f"{category.label}: {error.message}", field=where) from None
        return side, {side: category.value}
    if not isinstance(entry, Mapping):
        raise RuleError(f"{category.label} is counted: give how many each side took", field=where)
    counts: dict[str, int] = {}
    for name, count in entry.items():
        try:
            side = seating.side_of(name)
        except RuleError as error:
            raise RuleError(f"{category.label}: {error.message}", field=where) from None
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise RuleError(
                f"{category.label}: {name} took {count!r}; give a whole number from 0",
                field=where,
            )
        counts[side] = counts.get(side, 0) + count
    if category.max_count is not None and sum(counts.values()) > category.max_count:
        raise RuleError(
            f"{category.label}: {sum(counts.values())} taken, but there are only "
            f"{category.max_count}",
            field=where,
        )
    counts = {side: n for side, n in counts.items() if n}
    return counts, {side: n * category.value for side, n in counts.items()}


def _took_everything(rules: Ruleset, points: Mapping[str, int]) -> bool:
    return all(points[c.key] == c.most_points and c.most_points > 0 for c in rules.categories)


def _hand_teams(
    rules: Ruleset, sides: tuple[str, ...], pitching: str, partner: str | None
) -> tuple[tuple[str, ...], ...]:
    """Who scores together this hand, the pitcher first in its team: each side alone,
    or, with a called partner, the pitcher and partner against everybody else."""
    if not rules.called_partner:
        return tuple((side,) for side in sides)
    ours = (pitching,) if partner is None else (pitching, partner)
    return ours, tuple(side for side in sides if side not in ours)


@dataclass(frozen=True)
class _Outcome:
    """A played hand scored, before any floor: whether the bid was made, each side's
    change, and what counting the points in order needs."""

    made: bool | None
    ours: tuple[str, ...]
    delta: dict[str, int]
    set_back: tuple[str, ...]
    # The pitcher's team, counted first when it scores on a bid (seed 000).
    first: tuple[str, ...]
    # Per category, what it counts for each scoring side outside ``first``.
    credited: dict[str, dict[str, int]]


def _outcome(
    rules: Ruleset,
    teams: tuple[tuple[str, ...], ...],
    ours: tuple[str, ...],
    by_category: dict[str, dict[str, int]],
    bid: Contract | None,
    revoked: tuple[str, ...],
    all_tricks: bool,
) -> _Outcome:
    points = {
        team: {c.key: sum(by_category[c.key].get(s, 0) for s in team) for c in rules.categories}
        for team in teams
    }
    revoking = {team for team in teams if any(side in revoked for side in team)}
    made: bool | None = None
    if bid is not None:
        if bid.need is None:
            made = _took_everything(rules, points[ours]) and (all_tricks or not bid.all_tricks)
        else:
            made = sum(points[ours].values()) >= bid.need
        # Seed 000, renonce: a pitcher that revoked is set back, whatever it took, so
        # it neither made its bid nor can win by a smudge or go out on this hand.
        made = made and ours not in revoking
    # Seed 000, renonce: a revoking side scores nothing and is set back by the bid;
    # when somebody else revoked, the pitcher scores what it took even short of the bid.
    pitcher_set = made is False and revoking <= {ours}
    others_score = rules.non_pitchers_score or (rules.non_pitchers_score_when_set and pitcher_set)
    delta: dict[str, int] = {}
    credited: dict[str, dict[str, int]] = {c.key: {} for c in rules.categories}
    set_back: list[str] = []
    first: tuple[str, ...] = ()
    for team in teams:
        counted: tuple[Category, ...] = ()
        if team in revoking or (team == ours and pitcher_set):
            change = -(bid.stake if bid else 0)
            if bid is not None:
                set_back.extend(team)
        elif team == ours:
            change = _pitcher_score(rules, bid, made, sum(points[ours].values()))
            if bid is not None:
                first = ours
            else:
                counted = rules.categories
        else:
            counted = tuple(
                c for c in rules.categories if others_score or c.key in rules.anyone_scores
            )
            change = sum(points[team][c.key] for c in counted)
        for category in counted:
            if points[team][category.key]:
                for side in team:
                    credited[category.key][side] = points[team][category.key]
        for side in team:
            delta[side] = change
    return _Outcome(made, ours, delta, tuple(set_back), first, credited)


def _pitcher_score(rules: Ruleset, bid: Contract | None, made: bool | None, taken: int) -> int:
    """What the pitcher's team scores when it is not set back."""
    if bid is None or not made:
        # Without bidding, or excused by another side's revoke though short of the bid.
        return taken
    if bid.fixed_score is not None:
        return bid.fixed_score
    score = taken
    if bid.need is not None:
        if rules.made_scores == "bid":
            score = min(score, bid.need)
        if taken == bid.need:
            score += rules.exact_bid_bonus
    return score * bid.multiplier


@dataclass
class _Game:
    """The running state of a replay."""

    rules: Ruleset
    seating: Seating
    dealer: str
    scores: dict[str, int]
    setbacks: dict[str, int]
    tiebreak: dict[str, int]
    hands: list[HandResult] = field(default_factory=list)
    # The hands in which each side took every point, for side bets.
    sweeps: dict[str, int] = field(default_factory=dict)
    winner: str | None = None
    won_by: WonBy | None = None
    reached: tuple[Reach, ...] = ()

    def next_dealer(self) -> str:
        return eldest_of(self.seating, self.dealer)

    def play(self, record: HandRecord) -> None:
        number = len(self.hands) + 1
        if self.won_by is not None:
            ended = "drawn" if self.won_by == "draw" else "won"
            raise RuleError(
                f"the game was {ended} on hand {len(self.hands)}; no hand can follow it",
                hand=number,
            )
        try:
            result = self._hand(number, record)
        except RuleError as error:
            raise error.at_hand(number) from None
        self.hands.append(result)

    def _hand(self, number: int, record: HandRecord) -> HandResult:
        seating = self.seating
        if record.dealer is not None and seating.player(record.dealer) != self.dealer:
            raise RuleError(
                f"{self.dealer} deals this hand by the rotation, not {record.dealer}",
                field="dealer",
            )
        dealer = self.dealer
        unchanged = dict(self.scores)
        if record.misdeal:
            _refuse_entries(record, "a misdeal has no bids, points or revokes")
            self.dealer = self.next_dealer()  # seed 000: the misdealer loses the deal
            return HandResult(number, dealer, "misdeal", scores=unchanged)
        pitcher, bid = self._contract(record)
        if pitcher is None:
            _refuse_entries(record, "everybody passed, so nothing was played: no points or revokes")
            if self.rules.redeal_passes_deal:
                self.dealer = self.next_dealer()  # seed 004, Connecticut: the deal moves on
            return HandResult(number, dealer, "redeal", scores=unchanged)
        result = self._score(number, record, pitcher, bid)
        self.dealer = self.next_dealer()
        return result

    def _contract(self, record: HandRecord) -> tuple[str | None, Bid | None]:
        rules, seating = self.rules, self.seating
        forced = self._forced(record)
        if not rules.bidding:
            if record.auction is not None or record.bid is not None:
                raise RuleError("this game has no bidding: the eldest hand pitches", field="bid")
            eldest = eldest_of(seating, self.dealer)
            if record.pitcher is not None and seating.player(record.pitcher) != eldest:
                raise RuleError(
                    f"without bidding {eldest}, left of the dealer, pitches", field="pitcher"
                )
            return eldest, None
        if record.auction is not None:
            pitcher, bid = check_auction(
                rules, seating, self.dealer, record.auction, self.scores, forced
            )
            if record.pitcher is not None and pitcher is None:
                raise RuleError("everybody passed, so nobody pitched", field="pitcher")
            if record.pitcher is not None and seating.player(record.pitcher) != pitcher:
                raise RuleError(f"the auction was won by {pitcher}", field="pitcher")
            if record.bid is not None and record.bid != bid:
                raise RuleError(f"the auction was won with {bid}", field="bid")
            return pitcher, bid
        if record.pitcher is None or record.bid is None:
            raise RuleError("give the pitcher and the bid, or the whole auction", field="pitcher")
        pitcher = seating.player(record.pitcher)
        offer = _check_bid(rules, seating, pitcher, record.bid, self.scores)
        if forced and rules.forced_bid is not None and offer.rank < (0, rules.forced_bid, 0):
            raise RuleError(
                f"{forced[0]}'s hand forced a bid of at least {rules.forced_bid}, "
                f"so the auction cannot have been won with {record.bid}",
                field="bid",
            )
        return pitcher, record.bid

    def _forced(self, record: HandRecord) -> tuple[str, ...]:
        if record.forced and self.rules.forced_bid is None:
            raise RuleError("in this game no hand forces a bid", field="forced")
        return tuple(dict.fromkeys(self.seating.player(name) for name in record.forced))

    def _partner(self, record: HandRecord, pitcher: str) -> str | None:
        if record.partner is None:
            return None
        if not self.rules.called_partner:
            raise RuleError(
                "only a game where the pitcher calls a partner names one", field="partner"
            )
        partner = self.seating.player(record.partner)
        if partner == pitcher:
            raise RuleError(
                f"{pitcher} pitched; leave the partner out when {pitcher} held the called card",
                field="partner",
            )
        return partner

    def _score(self, number: int, record: HandRecord, pitcher: str, bid: Bid | None) -> HandResult:
        rules, seating = self.rules, self.seating
        went_to, by_category = _taken_points(rules, seating, record.points)
        sides = seating.sides
        taken = {s: sum(by_category[c.key].get(s, 0) for c in rules.categories) for s in sides}
        revoked = tuple(dict.fromkeys(seating.side_of(name) for name in record.revoked))
        pitching = seating.side_of(pitcher)
        partner = self._partner(record, pitcher)
        teams = _hand_teams(rules, sides, pitching, partner)
        ours = next(team for team in teams if pitching in team)
        offer = None if bid is None else contract(rules, bid)
        outcome = _outcome(rules, teams, ours, by_category, offer, revoked, record.all_tricks)

        before = dict(self.scores)
        delta: dict[str, int] = {}
        for side in sides:
            change = outcome.delta[side]
            if rules.score_floor is not None:
                # Contway: scores never go below the floor.
                change = max(change, rules.score_floor - before[side])
            delta[side] = change
            self.scores[side] += change
            self.tiebreak[side] += sum(by_category[key].get(side, 0) for key in rules.tiebreak)
        set_back = tuple(side for side in sides if side in outcome.set_back)
        for side in set_back:
            self.setbacks[side] += 1
        for side in sides:
            mine = {key: taken_by.get(side, 0) for key, taken_by in by_category.items()}
            if _took_everything(rules, mine):
                self.sweeps[side] = self.sweeps.get(side, 0) + 1
        # Sides (teams too) in bidding order, for ties.
        order = tuple(dict.fromkeys(map(seating.side_of, bidding_order(seating, self.dealer))))
        self._decide(before, delta, outcome, pitching, offer, order)

        return HandResult(
            number,
            self.dealer,
            "played",
            pitcher=pitcher,
            pitching_side=pitching,
            bid=bid,
            made=outcome.made,
            smudge=rules.is_smudge(bid),
            points=went_to,
            revoked=revoked,
            all_tricks=record.all_tricks,
            taken=taken,
            delta=delta,
            scores=dict(self.scores),
            set_back=set_back,
            partner=partner,
        )

    def _decide(
        self,
        before: dict[str, int],
        delta: dict[str, int],
        outcome: _Outcome,
        pitching: str,
        bid: Contract | None,
        order: tuple[str, ...],
    ) -> None:
        """Whether the hand just scored ends the game, and how."""
        rules, scores = self.rules, self.scores
        # Seed 000: a smudge wins at once, unless the bidder was in the hole.
        from_hole = bid is not None and not bid.wins_from_hole and before[pitching] < 0
        if bid is not None and outcome.made and bid.wins_game and not from_hole:
            self._end(pitching, "smudge", (Reach(pitching, None),))
            return
        if bid is not None and bid.loses_game and pitching in outcome.set_back:
            # Seed 004, shoot the moon: set back, it loses the game.
            winner = _best(scores, [side for side in order if side not in outcome.ours])
            self._end(winner, "smudge_failed", (Reach(winner, None),))
            return
        reaches = _target_reaches(
            rules, scores, before, delta, outcome, pitching, order, self.tiebreak
        )
        if reaches:
            self._end(
                reaches[0].side, "win_by" if rules.win_by is not None else rules.winner, reaches
            )
            return
        floor = rules.lose_at
        fallen = [side for side in order if floor is not None and scores[side] <= floor]
        if fallen:
            # Seed 004, nine-five: a side at the floor loses and the best of the others wins.
            winner = _best(scores, [side for side in order if side not in fallen] or list(order))
            self._end(winner, "floor", (Reach(winner, None),))
        elif rules.draw_at is not None and min(scores.values()) <= rules.draw_at:
            self._end(None, "draw", ())

    def _end(self, winner: str | None, won_by: WonBy, reached: tuple[Reach, ...]) -> None:
        self.winner, self.won_by, self.reached = winner, won_by, reached

    def result(self) -> GameResult:
        """Everything derived from the hands played so far."""
        return GameResult(
            sides=self.seating.sides,
            hands=tuple(self.hands),
            scores=dict(self.scores),
            setbacks=dict(self.setbacks),
            dealer=None if self.won_by else self.dealer,
            winner=self.winner,
            won_by=self.won_by,
            reached=self.reached,
            settlement=settle(self.rules, self.scores, self.setbacks, self.winner, self.sweeps),
            sweeps={side: self.sweeps.get(side, 0) for side in self.seating.sides},
            tiebreak=dict(self.tiebreak),
        )


def _best(scores: Mapping[str, int], sides: Sequence[str]) -> str:
    """The highest score among ``sides``; between equals, the first of them."""
    return max(sides, key=lambda side: scores[side])


def _refuse_entries(record: HandRecord, message: str) -> None:
    if record.points or record.revoked or record.all_tricks or record.partner:
        raise RuleError(message, field="points")
    if record.misdeal and (
        record.auction or record.pitcher or record.bid is not None or record.forced
    ):
        raise RuleError(message, field="misdeal")


def _target_reaches(
    rules: Ruleset,
    scores: dict[str, int],
    before: dict[str, int],
    delta: dict[str, int],
    outcome: _Outcome,
    pitching: str,
    order: tuple[str, ...],
    tiebreak: dict[str, int],
) -> tuple[Reach, ...]:
    """The sides that win by the target at the end of this hand, the winner first."""
    if rules.winner == "highest_total":
        winner = _highest_total(rules, scores, tiebreak, pitching)
        reaches: tuple[Reach, ...] = () if winner is None else (Reach(winner, None),)
    elif rules.winner == "bidder_out" and outcome.made:
        reaches = tuple(Reach(side, None) for side in outcome.ours if scores[side] >= rules.target)
    elif rules.winner == "bidder_out":
        reaches = ()
        if rules.setter_goes_out and pitching in outcome.set_back:
            reaches = _count_order(rules, before, delta, (), outcome.credited, order)
    else:
        reaches = _count_order(rules, before, delta, outcome.first, outcome.credited, order)
    if rules.win_by is None:
        return reaches
    if rules.winner == "count_order":
        # A side already at the target may win on a hand it did not score, once another
        # side falls back far enough.
        counted = {reach.side for reach in reaches}
        reaches += tuple(
            Reach(side, None)
            for side in order
            if side not in counted and side not in outcome.set_back and scores[side] >= rules.target
        )
    return tuple(reach for reach in reaches if _leads_by(scores, reach.side, rules.win_by))


def _leads_by(scores: Mapping[str, int], side: str, margin: int) -> bool:
    return all(scores[side] - score >= margin for other, score in scores.items() if other != side)


def _count_order(
    rules: Ruleset,
    before: dict[str, int],
    delta: dict[str, int],
    first: tuple[str, ...],
    credited: dict[str, dict[str, int]],
    order: tuple[str, ...],
) -> tuple[Reach, ...]:
    """Seed 000: the pitcher's points are counted first, then the others' category by
    category in the categories' order; every side reaching the target, in order.
    ``order`` is the sides in bidding order."""
    running = dict(before)
    reached: list[Reach] = []
    for side in first:
        running[side] += delta[side]
        if running[side] >= rules.target:
            reached.append(Reach(side, None))
    seat_rank = {name: i for i, name in enumerate(order)}
    for category in rules.categories:
        newly: list[str] = []
        for side, points in credited[category.key].items():
            running[side] += points
            if running[side] >= rules.target and all(r.side != side for r in reached):
                newly.append(side)
        # Sides reaching the target on one count category: the higher total first.
        newly.sort(key=lambda s: (-running[s], seat_rank.get(s, 0)))
        reached.extend(Reach(side, category.key) for side in newly)
    return tuple(reached)


def _highest_total(
    rules: Ruleset, scores: dict[str, int], tiebreak: dict[str, int], pitching: str
) -> str | None:
    """Seed 003: once a side has reached the target, the highest score wins; a tie goes
    to the pitcher, then to the most tiebreak points over the game; else play on."""
    top = max(scores.values())
    if top < rules.target:
        return None
    leaders = [side for side, score in scores.items() if score == top]
    if len(leaders) == 1:
        return leaders[0]
    if pitching in leaders:
        return pitching
    best = max(tiebreak[side] for side in leaders)
    ahead = [side for side in leaders if tiebreak[side] == best]
    return ahead[0] if len(ahead) == 1 else None


def settle(
    rules: Ruleset,
    scores: dict[str, int],
    setbacks: dict[str, int],
    winner: str | None,
    sweeps: Mapping[str, int] | None = None,
) -> dict[str, int] | None:
    """Each side's net chips once the game is won, the game's stake and the side bets
    on ``sweeps`` (hands in which a side took every point); they sum to zero. A drawn
    game (no winner) is not settled."""
    if winner is None or (rules.settlement == "none" and not rules.sweep_chips):
        return None
    net = dict.fromkeys(scores, 0)
    for side, score in scores.items():
        if side == winner or rules.settlement == "none":
            continue
        if rules.settlement == "chips":
            # Seed 000: 1 chip from a player above zero, 2 from one at zero or below.
            base = rules.chips_plus if score > 0 else rules.chips_zero_or_minus
            owed = base + rules.chips_per_setback * setbacks[side]
        else:
            # Seed 004: everybody antes, and pays the ante again for each setback.
            owed = rules.ante * (1 + setbacks[side])
        net[side] -= owed
        net[winner] += owed
    for side, count in (sweeps or {}).items():
        for other in scores:
            if other != side:
                net[other] -= rules.sweep_chips * count
                net[side] += rules.sweep_chips * count
    return net


def settled_per_player(
    rules: Ruleset, seating: Seating, settlement: Mapping[str, int] | None
) -> dict[str, int] | None:
    """Each player's chips when the ruleset settles per player (``settle_each``
    "player", or a table without teams, where a side is one player): every member wins
    or pays the side's amount, so that with teams of equal size the players' chips
    still sum to zero. None when a team's amount is the team's to share, or there is no
    settlement."""
    if settlement is None or (seating.teams and rules.settle_each == "side"):
        return None
    return {name: settlement[seating.side_of(name)] for name in seating.players}


def replay(
    rules: Ruleset, seating: Seating, first_dealer: str, hands: Sequence[HandRecord]
) -> GameResult:
    """Everything derived from a game's hand records; the first illegal hand raises
    a RuleError naming it."""
    seating.check(rules)
    sides = seating.sides
    game = _Game(
        rules,
        seating,
        dealer=seating.player(first_dealer),
        scores=dict.fromkeys(sides, 0),
        setbacks=dict.fromkeys(sides, 0),
        tiebreak=dict.fromkeys(sides, 0),
    )
    for record in hands:
        game.play(record)
    return game.result()


def play_on(
    rules: Ruleset, seating: Seating, result: GameResult, hands: Sequence[HandRecord]
) -> GameResult:
    """What ``replay`` gives for the game's hands and then ``hands``, from ``result``
    (what it gave for the game's hands, under the same rules and seating): only the new
    hands are played, so a hand added to a long game costs one hand, not the game."""
    if set(result.tiebreak) != set(result.sides):
        raise ValueError("play on only from a result of replay or play_on")
    last = result.hands[-1].dealer if result.hands else None
    game = _Game(
        rules,
        seating,
        dealer=result.dealer or last or seating.players[0],
        scores=dict(result.scores),
        setbacks=dict(result.setbacks),
        tiebreak=dict(result.tiebreak),
        hands=list(result.hands),
        winner=result.winner,
        won_by=result.won_by,
        reached=result.reached,
        sweeps={side: n for side, n in result.sweeps.items() if n},
    )
    for record in hands:
        game.play(record)
    return game.result()
