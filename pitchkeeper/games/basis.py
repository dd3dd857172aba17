"""What a page that records a hand was made from (its ``Basis``), and the ``Conflict``
raised when the game moved since: the check that keeps a hand from being recorded for
another deal than the one it was entered for, and the words that say what moved."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from pitchkeeper.games.models import HandChange
from pitchkeeper.games.replay import GameState
from pitchkeeper.rules import RuleError


class Conflict(RuleError):
    """The game changed after the page the entry was made on was shown: another phone
    saved first. Nothing was saved; the entry is shown again beside the game as it is
    now, for its user to check and save again."""


@dataclass(frozen=True)
class Basis:
    """What a page that records a hand says it was made from: the game's revision, and
    the number and the dealer of the hand it was for (either may be left unsaid; when
    said, it must hold too, and it tells what moved). ``revision`` None: the page said
    nothing (a page from before the field, a crafted post): its entry cannot be checked,
    so it is not recorded."""

    revision: int | None
    number: int | None = None
    dealer: str | None = None


def basis_check(*, state: GameState, basis: Basis) -> None:
    """Raise Conflict unless ``state`` is the game ``basis`` was made from: every change
    of its hands advances the revision, so any of them (the dealer or the bidding order
    moved by an edit, a hand deleted, undone or restored, the game won) refuses the entry
    rather than record it as another hand. The message says what moved."""
    if basis.revision is None:
        raise Conflict(
            _(
                "This entry does not say which state of the game it was made for, so it "
                "was not saved; check the scores and save it again if it is still right."
            )
        )
    moved = (
        basis.revision != state.game.revision
        or (basis.number is not None and basis.number != len(state.hands) + 1)
        or (basis.dealer is not None and basis.dealer != state.result.dealer)
    )
    if moved:
        # The number and the dealer follow from the revision on any page this app made;
        # checked too, so that a post they do not agree with is never taken either.
        raise Conflict(_moved(state, basis))


def _moved(state: GameState, basis: Basis) -> str:
    """What changed since ``basis``, for its user: what it means for their entry first
    (another dealer, another number, the game over), then which change did it."""
    number = len(state.hands) + 1
    dealer = state.result.dealer
    advice = _("Check the scores and save yours again if it is still right.")
    if state.result.finished or dealer is None:
        lead = _("The game is over now: no hand can follow the winning one.")
        advice = ""
    elif basis.number is not None and basis.number != number:
        lead = _("Your entry was for hand %(entered)d; the next hand is hand %(number)d now.") % {
            "entered": basis.number,
            "number": number,
        }
    elif basis.dealer and basis.dealer != dealer:
        lead = _("%(dealer)s deals hand %(number)d now, not %(entered)s.") % {
            "dealer": dealer,
            "number": number,
            "entered": basis.dealer,
        }
    else:
        lead = ""
    return " ".join(part for part in (lead, _changed_since(state, basis), advice) if part)


def _changed_since(state: GameState, basis: Basis) -> str:
    # Each change of the hands is one HandChange row and one step of the revision, so the
    # latest row is the latest of the changes since the basis.
    game = state.game
    since = game.revision - (basis.revision or 0)
    latest = game.changes.order_by("-pk").first() if since > 0 else None
    if latest is None:
        return _("The hands were changed from another phone meanwhile.")
    phrases = {
        HandChange.Action.ADD: _("Hand %(number)d was saved from another phone meanwhile."),
        HandChange.Action.EDIT: _("Hand %(number)d was changed from another phone meanwhile."),
        HandChange.Action.DELETE: _("Hand %(number)d was deleted from another phone meanwhile."),
        HandChange.Action.UNDO: _("Hand %(number)d was undone from another phone meanwhile."),
        HandChange.Action.RESTORE: _("Hand %(number)d was restored from another phone meanwhile."),
    }
    said = phrases[HandChange.Action(latest.action)] % {"number": latest.number}
    if since > 1:
        said += " " + ngettext(
            "There was %(count)d other change before it.",
            "There were %(count)d other changes before it.",
            since - 1,
        ) % {"count": since - 1}
    return said
