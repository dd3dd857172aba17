"""Scoring, winning, dealing and settling: a game replayed from its hand records."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from .errors import RuleError
from .ruleset import FORCED_DEALER_MIN_BID, Category, Ruleset
from .seating import Seating

HandKind = Literal["played", "misdeal", "redeal"]
WonBy = Literal["count_order", "smudge", "bidder_out", "highest_total"]
# What a category went to: a side, nobody, or for a count category each side's count.
Taken = str | None | dict[str, int]


@dataclass(frozen=True)
class HandRecord:
    """One hand as the scorekeeper recorded it; names are players' (or teams') names.

    Give ``pitcher`` and ``bid``, or the whole ``auction`` as (player, bid or None for a
    pass) in bidding order. ``points`` maps every category key to who took it.
    """

    misdeal: bool = False
    auction: tuple[tuple[str, int | None], ...] | None = None
    pitcher: str | None = None
    bid: int | None = None
    points: Mapping[str, Any] = field(default_factory=dict)
    revoked: tuple[str, ...] = ()
    all_tricks: bool = False
    dealer: str | None = None


@dataclass(frozen=True)
class HandResult:
    number: int
    dealer: str
    kind: HandKind
    pitcher: str | None = None
    pitching_side: str | None = None
    bid: int | None = None
    made: bool | None = None
    smudge: bool = False
    points: dict[str, Taken] = field(default_factory=dict)
    revoked: tuple[str, ...] = ()
    all_tricks: bool = False
    taken: dict[str, int] = field(default_factory=dict)
    delta: dict[str, int] = field(default_factory=dict)
    scores: dict[str, int] = field(default_factory=dict)
    set_back: tuple[str, ...] = ()


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
    won_by: WonBy | None = None
    # In count order: every side that reached the target on the winning hand, in order.
    reached: tuple[Reach, ...] = ()
    settlement: dict[str, int] | None = None

    @property
    def finished(self) -> bool:
        return self.winner is not None

    def in_hole(self, side: str) -> bool:
        return self.scores[side] < 0

    def payments(self) -> list[tuple[str, str, int]]:
        """The settlement as (payer, payee, amount), every loser paying the winner."""
        if not self.settlement or self.winner is None:
            return []
        return [(side, self.winner, -net) for side, net in self.settlement.items() if net < 0]


def eldest_of(seating: Seating, dealer: str) -> str:
    """The player left of the dealer, who bids first (and pitches without bidding)."""
    seat = seating.players.index(dealer)
    return seating.players[(seat + 1) % len(seating.players)]


def bidding_order(seating: Seating, dealer: str) -> tuple[str, ...]:
    seat = seating.players.index(dealer)
    count = len(seating.players)
    return tuple(seating.players[(seat + 1 + i) % count] for i in range(count))


def legal_bids(
    rules: Ruleset, seating: Seating, dealer: str, auction: Sequence[tuple[str, int | None]]
) -> tuple[str, list[int], bool]:
    """Whose turn it is in a partly recorded auction, the bids open to them, and
    whether they may pass. The auction so far must be legal."""
    order = bidding_order(seating, dealer)
    if len(auction) >= len(order):
        raise RuleError("the auction is complete", field="auction")
    high = max((bid for _, bid in auction if bid is not None), default=None)
    player = order[len(auction)]
    forced = player == dealer and high is None and rules.all_pass == "dealer_forced"
    lowest = rules.min_bid if high is None else high + 1
    if forced:
        lowest = max(lowest, FORCED_DEALER_MIN_BID)
    if player == dealer and high is not None and _may_steal(rules, high):
        lowest = high
    return player, list(range(lowest, rules.highest_bid + 1)), not forced


def _may_steal(rules: Ruleset, high: int) -> bool:
    # Seed 000: a smudge (a bid of max_bid) cannot be taken away.
    return rules.dealer_may_steal and high != rules.max_bid


def check_auction(
    rules: Ruleset, seating: Seating, dealer: str, auction: Sequence[Sequence[Any]]
) -> tuple[str | None, int | None]:
    """The pitcher and the winning bid of a recorded auction (None, None: all passed)."""
    order = bidding_order(seating, dealer)
    if len(auction) != len(order):
        raise RuleError(
            f"the auction must have each of the {len(order)} players once, "
            f"from {order[0]} (left of the dealer) round to {dealer}, the dealer",
            field="auction",
        )
    high: int | None = None
    high_bidder: str | None = None
    for expected, entry in zip(order, auction, strict=True):
        if not isinstance(entry, Sequence) or isinstance(entry, str) or len(entry) != 2:
            raise RuleError("each auction entry is a player and a bid (null for a pass)")
        player = seating.player(entry[0])
        bid = entry[1]
        if player != expected:
            raise RuleError(
                f"{expected} bids before {player}: the auction goes clockwise "
                f"from {order[0]}, left of the dealer, to {dealer}, the dealer",
                field="auction",
            )
        forced = player == dealer and high is None and rules.all_pass == "dealer_forced"
        if bid is None:
            if forced:
                raise RuleError(
                    f"everybody else passed, so {dealer}, the dealer, must bid at least "
                    f"{max(FORCED_DEALER_MIN_BID, rules.min_bid)}",
                    field="auction",
                )
            continue
        _check_bid_value(rules, player, bid)
        if forced and bid < FORCED_DEALER_MIN_BID:
            raise RuleError(
                f"everybody else passed, so {dealer}, the dealer, must bid at least "
                f"{FORCED_DEALER_MIN_BID}",
                field="auction",
            )
        if high is not None and bid <= high:
            steal = player == dealer and rules.dealer_may_steal and bid == high
            if steal and not _may_steal(rules, high):
                raise RuleError(
                    f"{dealer} cannot take {high_bidder}'s {high}: a bid of "
                    f"{rules.max_bid} cannot be taken away",
                    field="auction",
                )
            if not steal:
                raise RuleError(
                    f"{player} bid {bid} but {high_bidder} already bid {high}; "
                    "each bid must be higher",
                    field="auction",
                )
        high, high_bidder = bid, player
    return high_bidder, high


def _check_bid_value(rules: Ruleset, player: str, bid: object) -> None:
    if not isinstance(bid, int) or isinstance(bid, bool):
        raise RuleError(f"{player}'s bid must be a whole number or a pass", field="bid")
    if not rules.min_bid <= bid <= rules.highest_bid:
        raise RuleError(
            f"{player} bid {bid}; bids go from {rules.min_bid} to {rules.highest_bid}",
            field="bid",
        )


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


def _took_everything(rules: Ruleset, side: str, by_category: dict[str, dict[str, int]]) -> bool:
    return all(
        by_category[c.key].get(side, 0) == c.most_points and c.most_points > 0
        for c in rules.categories
    )


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
    winner: str | None = None
    won_by: WonBy | None = None
    reached: tuple[Reach, ...] = ()

    def next_dealer(self) -> str:
        return eldest_of(self.seating, self.dealer)

    def play(self, record: HandRecord) -> None:
        number = len(self.hands) + 1
        if self.winner is not None:
            won_on = len(self.hands)
            raise RuleError(
                f"the game was won on hand {won_on}; no hand can follow it", hand=number
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
            return HandResult(number, dealer, "redeal", scores=unchanged)  # same dealer
        result = self._score(number, record, pitcher, bid)
        self.dealer = self.next_dealer()
        return result

    def _contract(self, record: HandRecord) -> tuple[str | None, int | None]:
        rules, seating = self.rules, self.seating
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
            pitcher, bid = check_auction(rules, seating, self.dealer, record.auction)
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
        _check_bid_value(rules, pitcher, record.bid)
        return pitcher, record.bid

    def _score(self, number: int, record: HandRecord, pitcher: str, bid: int | None) -> HandResult:
        rules, seating = self.rules, self.seating
        went_to, by_category = _taken_points(rules, seating, record.points)
        sides = seating.sides
        taken = {s: sum(by_category[c.key].get(s, 0) for c in rules.categories) for s in sides}
        revoked = tuple(dict.fromkeys(seating.side_of(name) for name in record.revoked))
        pitching = seating.side_of(pitcher)
        smudge = rules.is_smudge(bid)

        made: bool | None = None
        if bid is not None:
            if smudge:
                made = _took_everything(rules, pitching, by_category) and (
                    rules.smudge != "all_tricks" or record.all_tricks
                )
            else:
                made = taken[pitching] >= bid
            # Seed 000, renonce: a pitcher that revoked is set back, whatever it took, so
            # it neither made its bid nor can win by a smudge or go out on this hand.
            made = made and pitching not in revoked
        # Seed 000, renonce: a revoking side scores nothing and is set back by the bid;
        # when somebody else revoked, the pitcher scores what it took even short of the bid.
        excused = any(side != pitching for side in revoked)
        delta: dict[str, int] = {}
        set_back: list[str] = []
        scoring: set[str] = set()
        for side in sides:
            if side in revoked or (side == pitching and made is False and not excused):
                delta[side] = -(bid or 0)
                if bid is not None:
                    set_back.append(side)
            elif side == pitching and made and smudge and rules.smudge == "all_tricks":
                delta[side] = bid or 0  # seed 004: the fifth point only for a bid smudge
                scoring.add(side)
            elif side == pitching or rules.non_pitchers_score:
                delta[side] = taken[side]
                scoring.add(side)
            else:
                delta[side] = 0

        before = dict(self.scores)
        for side in sides:
            self.scores[side] += delta[side]
            self.tiebreak[side] += sum(by_category[key].get(side, 0) for key in rules.tiebreak)
        for side in set_back:
            self.setbacks[side] += 1

        if smudge and made and rules.smudge == "wins_game" and before[pitching] >= 0:
            # Seed 000: a smudge wins at once, unless the bidder was in the hole.
            self._won(pitching, "smudge", (Reach(pitching, None),))
        elif rules.winner == "count_order":
            reached = _count_order(
                rules,
                before,
                delta,
                by_category,
                scoring,
                pitching if bid else None,
                # Sides (teams too) in bidding order, for ties on a count category.
                tuple(dict.fromkeys(map(seating.side_of, bidding_order(seating, self.dealer)))),
            )
            if reached:
                self._won(reached[0].side, "count_order", reached)
        elif rules.winner == "bidder_out":
            if made and self.scores[pitching] >= rules.target:
                self._won(pitching, "bidder_out", (Reach(pitching, None),))
        else:
            winner = _highest_total(rules, self.scores, self.tiebreak, pitching)
            if winner is not None:
                self._won(winner, "highest_total", (Reach(winner, None),))

        return HandResult(
            number,
            self.dealer,
            "played",
            pitcher=pitcher,
            pitching_side=pitching,
            bid=bid,
            made=made,
            smudge=smudge,
            points=went_to,
            revoked=revoked,
            all_tricks=record.all_tricks,
            taken=taken,
            delta=delta,
            scores=dict(self.scores),
            set_back=tuple(set_back),
        )

    def _won(self, side: str, won_by: WonBy, reached: tuple[Reach, ...]) -> None:
        self.winner, self.won_by, self.reached = side, won_by, reached


def _refuse_entries(record: HandRecord, message: str) -> None:
    if record.points or record.revoked or record.all_tricks:
        raise RuleError(message, field="points")
    if record.misdeal and (record.auction or record.pitcher or record.bid is not None):
        raise RuleError(message, field="misdeal")


def _count_order(
    rules: Ruleset,
    before: dict[str, int],
    delta: dict[str, int],
    by_category: dict[str, dict[str, int]],
    scoring: set[str],
    pitching: str | None,
    order: tuple[str, ...],
) -> tuple[Reach, ...]:
    """Seed 000: the pitcher's points are counted first, then the others' category by
    category in the categories' order; every side reaching the target, in order.
    ``order`` is the sides in bidding order."""
    running = dict(before)
    reached: list[Reach] = []
    if pitching is not None and pitching in scoring:
        running[pitching] += delta[pitching]
        if running[pitching] >= rules.target:
            reached.append(Reach(pitching, None))
    seat_rank = {name: i for i, name in enumerate(order)}
    for category in rules.categories:
        newly: list[str] = []
        for side, points in by_category[category.key].items():
            if side not in scoring or side == pitching:
                continue
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
    rules: Ruleset, scores: dict[str, int], setbacks: dict[str, int], winner: str | None
) -> dict[str, int] | None:
    """Each side's net chips once the game is won; they sum to zero."""
    if winner is None or rules.settlement == "none":
        return None
    owed: dict[str, int] = {}
    for side, score in scores.items():
        if side == winner:
            continue
        if rules.settlement == "chips":
            # Seed 000: 1 chip from a player above zero, 2 from one at zero or below.
            base = rules.chips_plus if score > 0 else rules.chips_zero_or_minus
            owed[side] = base + rules.chips_per_setback * setbacks[side]
        else:
            # Seed 004: everybody antes, and pays the ante again for each setback.
            owed[side] = rules.ante * (1 + setbacks[side])
    net = {side: -owed.get(side, 0) for side in scores}
    net[winner] = sum(owed.values())
    return net


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
    return GameResult(
        sides=sides,
        hands=tuple(game.hands),
        scores=dict(game.scores),
        setbacks=dict(game.setbacks),
        dealer=None if game.winner else game.dealer,
        winner=game.winner,
        won_by=game.won_by,
        reached=game.reached,
        settlement=settle(rules, game.scores, game.setbacks, game.winner),
    )
