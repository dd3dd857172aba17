"""What putting a hand back as it was before a change would do, worked out before it is
done: which hands move, who deals them and the next hand, the totals after. A restore
whose place has since been taken is shown to the scorekeeper first and done only when
confirmed (games.hands.change_restore, with the revision the plan was made from)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.utils.translation import gettext as _

from pitchkeeper.games.models import Game, HandChange
from pitchkeeper.games.replay import GameState, game_state
from pitchkeeper.games.words import refusal_text
from pitchkeeper.rules import HandRecord, HandResult, RuleError, Ruleset, replay
from pitchkeeper.rules.record import hand_to_data, parse_hand


def restore_token(change: HandChange) -> str:
    """The one-time token of a deleted hand put back: a second tap on the same Restore
    button puts nothing in twice."""
    return f"restore:{change.pk}"


def restored_record(change: HandChange, rules: Ruleset) -> HandRecord:
    """The hand as it was before ``change``, its dealer left to the rotation (which
    may have moved since)."""
    if change.before is None:
        raise RuleError(_("There is nothing to restore from this change."))
    return replace(parse_hand(change.before, rules), dealer=None)


def cannot_restore(number: int, error: RuleError, rules: Ruleset) -> RuleError:
    """The engine's refusal of a restore, said of the hand restored."""
    return RuleError(
        _("Hand %(number)d cannot be restored: %(error)s")
        % {"number": number, "error": refusal_text(error, rules, numbered=True)},
        field=error.field,
    )


def number_check(*, count: int, number: int) -> None:
    """Hand ``number`` of a game of ``count`` hands is there, or RuleError."""
    if not 1 <= number <= count:
        raise RuleError(
            _("there is no hand %(number)d in this game") % {"number": number}, field="number"
        )


def place_check(*, count: int, number: int) -> None:
    """A hand put in at ``number`` of a game of ``count`` hands: from 1 to one past the
    last, or RuleError."""
    if not 1 <= number <= count + 1:
        raise RuleError(
            _("the game has %(count)d hands, so there is no place for hand %(number)d")
            % {"count": count, "number": number},
            field="number",
        )


@dataclass(frozen=True)
class Move:
    """A later hand pushed down one by a deleted hand put back before it."""

    number: int
    dealer: str
    dealer_now: str

    @property
    def becomes(self) -> int:
        return self.number + 1


@dataclass(frozen=True)
class Total:
    side: str
    now: int
    after: int


@dataclass(frozen=True)
class RestorePlan:
    """A restore worked out on the game as it is at ``revision``."""

    number: int
    revision: int
    # A deleted (or undone) hand goes back in; otherwise an edit is taken back.
    inserted: bool
    # The hand as it will be, in the game-record format, with the dealer it will have.
    hand: dict[str, Any]
    # Who dealt it when it was last in the game.
    dealt_before: str | None
    # The hand now in its place, when it is not what the change left there: another
    # change was made to it since (or it is another hand, moved up by a deletion).
    replaced: dict[str, Any] | None
    moved: tuple[Move, ...]
    next_dealer_now: str | None
    next_dealer: str | None
    totals: tuple[Total, ...]
    winner: str | None
    finished: bool
    # Done already (a second tap): nothing would change.
    done: bool

    @property
    def dealer(self) -> str:
        return str(self.hand.get("dealer") or "")

    @property
    def asks(self) -> bool:
        """Whether the restore could surprise: its place has been taken since."""
        if self.done:
            return False
        dealer_moved = self.dealt_before is not None and self.dealt_before != self.dealer
        return bool(self.moved) or self.replaced is not None or dealer_moved


def restore_plan(*, game: Game, change: HandChange) -> RestorePlan:
    """What restoring ``change`` would do to ``game`` as it is now; RuleError when the
    rules refuse it, with the reason."""
    # Read again if it changed since (game_state): the confirmation carries the
    # revision of the hands read now.
    state = game_state(game=game)
    rules = state.record.rules
    if change.game_id != game.pk:
        raise RuleError(_("There is nothing to restore from this change."))
    record = restored_record(change, rules)
    number = change.number
    inserted = change.after is None
    records = list(state.record.hands)
    done = False
    try:
        if inserted:
            done = any(hand.token == restore_token(change) for hand in state.hands)
            if not done:
                place_check(count=len(records), number=number)
                records.insert(number - 1, record)
        else:
            number_check(count=len(records), number=number)
            done = records[number - 1] == record
            records[number - 1] = record
        result = replay(rules, state.record.seating, state.record.first_dealer, records)
    except RuleError as error:
        raise cannot_restore(number, error, rules) from None
    return RestorePlan(
        number=number,
        revision=state.game.revision,
        inserted=inserted,
        hand=hand_to_data(replace(record, dealer=result.hands[number - 1].dealer)),
        dealt_before=change.before.get("dealer") if change.before else None,
        replaced=_replaced(state, change) if not done else None,
        moved=_moved(state, result.hands, number) if inserted and not done else (),
        next_dealer_now=state.result.dealer,
        next_dealer=result.dealer,
        totals=tuple(
            Total(side, state.result.scores[side], result.scores[side]) for side in result.sides
        ),
        winner=result.winner,
        finished=result.finished,
        done=done,
    )


def _replaced(state: GameState, change: HandChange) -> dict[str, Any] | None:
    if change.after is None:
        return None
    now = state.hand_data(change.number)
    left = {key: value for key, value in change.after.items() if key != "dealer"}
    return None if {k: v for k, v in now.items() if k != "dealer"} == left else now


def _moved(state: GameState, hands: Sequence[HandResult], number: int) -> tuple[Move, ...]:
    """The hands from ``number`` on, each one further down, with its dealer now and
    the dealer it will have there (``hands``: the replay with the hand put back)."""
    return tuple(
        Move(hand.number, hands[hand.number].dealer, hand.dealer)
        for hand in state.result.hands[number - 1 :]
    )
