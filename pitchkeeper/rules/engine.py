"""A game replayed from its hand records: each hand dealt, bid and scored in turn,
the game won (the pitcher's points counted first, then each category in order) and
settled in chips."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from .auction import bid_contract, bidding_order, check_auction, eldest_of
from .bids import Contract, contract
from .errors import RuleError
from .points import Outcome, hand_outcome, hand_teams, points_taken, took_everything
from .results import GameResult, HandRecord, HandResult, Reach, WonBy
from .ruleset import Bid, Ruleset
from .seating import Seating


@dataclass
class RunningGame:
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
    side_orders: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def next_dealer(self) -> str:
        return eldest_of(self.seating, self.dealer)

    def _side_order(self) -> tuple[str, ...]:
        """The sides (teams too) in bidding order, for ties; worked out once a dealer."""
        order = self.side_orders.get(self.dealer)
        if order is None:
            bidders = bidding_order(self.seating, self.dealer)
            order = tuple(dict.fromkeys(map(self.seating.side_of, bidders)))
            self.side_orders[self.dealer] = order
        return order

    def play(self, record: HandRecord) -> None:
        number = len(self.hands) + 1
        if self.won_by is not None:
            code = "game_drawn_before" if self.won_by == "draw" else "game_won_before"
            raise RuleError(code, {"number": len(self.hands)}, hand=number)
        try:
            result = self._hand(number, record)
        except RuleError as error:
            raise error.at_hand(number) from None
        self.hands.append(result)

    def _hand(self, number: int, record: HandRecord) -> HandResult:
        seating = self.seating
        if record.dealer is not None and seating.player(record.dealer) != self.dealer:
            params = {"dealer": self.dealer, "given": record.dealer}
            raise RuleError("dealer_rotation", params, field="dealer")
        dealer = self.dealer
        unchanged = dict(self.scores)
        if record.misdeal:
            _refuse_entries(record, "misdeal_entries")
            self.dealer = self.next_dealer()  # seed 000: the misdealer loses the deal
            return HandResult(number, dealer, "misdeal", scores=unchanged)
        pitcher, bid = self._contract(record)
        if pitcher is None:
            _refuse_entries(record, "passed_entries")
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
                raise RuleError("no_bidding", {}, field="bid")
            eldest = eldest_of(seating, self.dealer)
            if record.pitcher is not None and seating.player(record.pitcher) != eldest:
                raise RuleError("eldest_pitches", {"eldest": eldest}, field="pitcher")
            return eldest, None
        if record.auction is not None:
            pitcher, bid = check_auction(
                rules, seating, self.dealer, record.auction, self.scores, forced
            )
            if record.pitcher is not None and pitcher is None:
                raise RuleError("nobody_pitched", {}, field="pitcher")
            if record.pitcher is not None and seating.player(record.pitcher) != pitcher:
                raise RuleError("auction_won_by", {"pitcher": pitcher}, field="pitcher")
            if record.bid is not None and record.bid != bid:
                raise RuleError("auction_won_with", {"bid": bid}, field="bid")
            return pitcher, bid
        if record.pitcher is None or record.bid is None:
            raise RuleError("contract_missing", {}, field="pitcher")
        pitcher = seating.player(record.pitcher)
        offer = bid_contract(rules, seating, pitcher, record.bid, self.scores)
        if forced and rules.forced_bid is not None and offer.below(rules.forced_bid):
            params = {"player": forced[0], "least": rules.forced_bid, "bid": record.bid}
            raise RuleError("forced_bid_low", params, field="bid")
        return pitcher, record.bid

    def _forced(self, record: HandRecord) -> tuple[str, ...]:
        if record.forced and self.rules.forced_bid is None:
            raise RuleError("no_forced", {}, field="forced")
        return tuple(dict.fromkeys(self.seating.player(name) for name in record.forced))

    def _partner(self, record: HandRecord, pitcher: str) -> str | None:
        if record.partner is None:
            return None
        if not self.rules.called_partner:
            raise RuleError("no_partner", {}, field="partner")
        partner = self.seating.player(record.partner)
        if partner == pitcher:
            raise RuleError("partner_is_pitcher", {"pitcher": pitcher}, field="partner")
        return partner

    def _score(self, number: int, record: HandRecord, pitcher: str, bid: Bid | None) -> HandResult:
        rules, seating = self.rules, self.seating
        went_to, by_category = points_taken(rules, seating, record.points)
        sides = seating.sides
        taken = _summed(sides, by_category, by_category)
        revoked = tuple(dict.fromkeys(seating.side_of(name) for name in record.revoked))
        pitching = seating.side_of(pitcher)
        partner = self._partner(record, pitcher)
        teams = hand_teams(rules, sides, pitching, partner)
        ours = next(team for team in teams if pitching in team)
        offer = None if bid is None else contract(rules, bid)
        outcome = hand_outcome(rules, teams, ours, by_category, offer, revoked, record.all_tricks)

        before = dict(self.scores)
        tiebreak = _summed(sides, by_category, rules.tiebreak)
        delta: dict[str, int] = {}
        for side in sides:
            change = outcome.delta[side]
            if rules.score_floor is not None:
                # Contway: scores never go below the floor.
                change = max(change, rules.score_floor - before[side])
            delta[side] = change
            self.scores[side] += change
            self.tiebreak[side] += tiebreak[side]
        set_back = tuple(side for side in sides if side in outcome.set_back)
        for side in set_back:
            self.setbacks[side] += 1
        for side in sides:
            # Only a side that took something can have taken everything.
            if taken[side] and took_everything(
                rules, {key: taken_by.get(side, 0) for key, taken_by in by_category.items()}
            ):
                self.sweeps[side] = self.sweeps.get(side, 0) + 1
        self._decide(before, delta, outcome, pitching, offer, self._side_order())

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
        outcome: Outcome,
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


def _summed(
    sides: Sequence[str], by_category: Mapping[str, Mapping[str, int]], keys: Iterable[str]
) -> dict[str, int]:
    """Each side's points over the categories ``keys``."""
    total = dict.fromkeys(sides, 0)
    for key in keys:
        for side, points in by_category[key].items():
            total[side] += points
    return total


def _best(scores: Mapping[str, int], sides: Sequence[str]) -> str:
    """The highest score among ``sides``; between equals, the first of them."""
    return max(sides, key=lambda side: scores[side])


def _refuse_entries(record: HandRecord, code: str) -> None:
    if record.points or record.revoked or record.all_tricks or record.partner:
        raise RuleError(code, {}, field="points")
    if record.misdeal and (
        record.auction or record.pitcher or record.bid is not None or record.forced
    ):
        raise RuleError(code, {}, field="misdeal")


def _target_reaches(
    rules: Ruleset,
    scores: dict[str, int],
    before: dict[str, int],
    delta: dict[str, int],
    outcome: Outcome,
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
    game = RunningGame(
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
    game = RunningGame(
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
