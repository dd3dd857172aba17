"""A replayed game as the table sees it: the scoreboard with its settlement and the win
reason (its hands in words are hand_words').

The numbers come from the rules engine (through replay.GameState); this module only
puts them in words and arranges them."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from pitchkeeper.games.chips import chips_said
from pitchkeeper.games.models import Game
from pitchkeeper.games.replay import GameState
from pitchkeeper.games.words import bid_label, category_label
from pitchkeeper.rules import (
    HandResult,
    eldest_of,
)


@dataclass(frozen=True)
class SideRow:
    name: str
    members: tuple[str, ...]
    score: int
    in_hole: bool
    winner: bool
    # The side of the player who deals the next hand, and of the one who bids first.
    deals: bool = False
    bids_first: bool = False

    @property
    def magnitude(self) -> int:
        """The score without its sign: plural forms ("1 очко", "-2 очка") go by it."""
        return abs(self.score)


@dataclass(frozen=True)
class Payment:
    payer: str
    payee: str
    chips: int
    money: Decimal | None

    def __str__(self) -> str:
        text = chips_said(self.chips, "pays", payer=self.payer, payee=self.payee)
        if self.money is not None:
            # In the reader's number format: 1.50 in English, 1,50 in Russian and Norwegian.
            text += f" ({number_format(self.money, 2)})"
        return text


@dataclass(frozen=True)
class Board:
    sides: tuple[SideRow, ...]
    target: int
    dealer: str | None
    bids_first: str | None
    winner: str | None
    # Over: won, or drawn (no winner).
    finished: bool
    reason: str
    payments: tuple[Payment, ...]


@dataclass(frozen=True)
class Standing:
    """A game in progress as the home screen lists it, from what its last save stored."""

    sides: tuple[SideRow, ...]
    target: int
    dealer: str | None


def standing(game: Game) -> Standing:
    """The scores stored with ``game`` (its seats with their players prefetched): the
    home screen lists games in progress without replaying any."""
    names = {seat.player_id: seat.player.name for seat in game.seats.all()}
    stored = game.standing or {"scores": [], "dealer": None}
    return Standing(
        sides=tuple(
            SideRow(
                name=names[side] if isinstance(side, int) else side,
                members=(),
                score=score,
                in_hole=score < 0,
                winner=False,
            )
            for side, score in stored["scores"]
        ),
        target=game.rules["target"],
        dealer=names.get(stored["dealer"]),
    )


def board(state: GameState) -> Board:
    result = state.result
    seating = state.record.seating
    members = {team.name: team.members for team in seating.teams}
    chip_value = state.game.chip_value
    eldest = eldest_of(seating, result.dealer) if result.dealer else None
    return Board(
        sides=tuple(
            SideRow(
                name=side,
                members=members.get(side, ()),
                score=result.scores[side],
                in_hole=result.in_hole(side),
                winner=side == result.winner,
                deals=result.dealer is not None and seating.side_of(result.dealer) == side,
                bids_first=eldest is not None and seating.side_of(eldest) == side,
            )
            for side in result.sides
        ),
        target=state.record.rules.target,
        dealer=result.dealer,
        bids_first=eldest,
        winner=result.winner,
        finished=result.finished,
        reason=win_reason(state),
        payments=tuple(
            Payment(payer, payee, chips, chips * chip_value if chip_value is not None else None)
            for payer, payee, chips in result.payments()
        ),
    )


def result_text(result: Board, url: str) -> str:
    """A finished game in a few lines to send to others: why it ended (who won), the
    final scores, the settlement and the live scoreboard's link."""
    scores = ", ".join(f"{side.name} {side.score}" for side in result.sides)
    lines = [result.reason, _("Final scores: %(scores)s") % {"scores": scores}]
    if result.payments:
        payments = "; ".join(str(payment) for payment in result.payments)
        lines.append(_("Settlement: %(payments)s") % {"payments": payments})
    return "\n".join([*lines, url])


def win_reason(state: GameState) -> str:
    """Why the game ended, in words: "Bob wins: the pitcher's points are counted first",
    "Drawn: Them reached -200"; empty while it goes on."""
    result = state.result
    rules = state.record.rules
    if not result.finished:
        return ""
    values: dict[str, object] = {"winner": result.winner, "target": rules.target}
    last = result.hands[-1] if result.hands else None
    if result.won_by == "draw":
        values |= {"side": _fallen(state, rules.draw_at), "floor": rules.draw_at}
        return _("Drawn: %(side)s reached %(floor)s") % values
    if result.won_by == "floor":
        values |= {"loser": _fallen(state, rules.lose_at), "floor": rules.lose_at}
        return _("%(winner)s wins: %(loser)s reached %(floor)s") % values
    if result.won_by == "smudge_failed" and last is not None and last.bid is not None:
        values |= {"loser": _pitchers(state, last), "bid": bid_label(rules, last.bid)}
        return _("%(winner)s wins: %(loser)s bid %(bid)s and failed") % values
    if result.won_by == "smudge":
        assert last is not None and last.bid is not None  # only a bid made wins so
        values["bid"] = bid_label(rules, last.bid)
        if isinstance(last.bid, str):
            return _("%(winner)s wins: bid %(bid)s and made it") % values
        # Said in full: the players on 5 and 6 want to know why theirs did not count.
        return (
            _(
                "%(winner)s wins with a smudge: bid %(bid)s, took every point, and was not "
                "in the hole"
            )
            % values
        )
    if result.won_by == "win_by":
        lead = result.scores[result.winner] - max(
            score for side, score in result.scores.items() if side != result.winner
        )
        values["lead"] = lead
        return (
            ngettext(
                "%(winner)s wins: reached %(target)s with a lead of %(lead)d",
                "%(winner)s wins: reached %(target)s with a lead of %(lead)d",
                lead,
            )
            % values
        )
    if result.won_by == "bidder_out":
        return _("%(winner)s wins: made the bid and reached %(target)s") % values
    if result.won_by == "highest_total":
        return _("%(winner)s wins with the highest score") % values
    return _count_order_reason(state, values)


def _count_order_reason(state: GameState, values: dict[str, object]) -> str:
    first, *others = state.result.reached
    if first.category is None:
        if others:
            return _("%(winner)s wins: the pitcher's points are counted first") % values
        return _("%(winner)s wins: made the bid and reached %(target)s") % values
    labels = {c.key: category_label(c) for c in state.record.rules.categories}
    values["category"] = labels[first.category]
    if others:
        runner_up = others[0]
        values["other"] = runner_up.side
        values["other_category"] = (
            labels[runner_up.category] if runner_up.category else _("the pitcher's points")
        )
        return (
            _(
                "%(winner)s reached %(target)s on %(category)s before %(other)s on "
                "%(other_category)s"
            )
            % values
        )
    return _("%(winner)s wins: reached %(target)s on %(category)s") % values


def _fallen(state: GameState, floor: int | None) -> str:
    """The sides at or below ``floor``, in seat order."""
    scores = state.result.scores
    return ", ".join(
        side for side in state.result.sides if floor is not None and scores[side] <= floor
    )


def _pitchers(state: GameState, hand: HandResult) -> str:
    """The pitching side of ``hand``, with the called partner where there is one."""
    sides = [hand.pitching_side or ""]
    if hand.partner is not None:
        sides.append(state.record.seating.side_of(hand.partner))
    return " & ".join(dict.fromkeys(sides))
