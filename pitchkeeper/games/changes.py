"""A game's history of changes in words: who added, changed, deleted, undid or restored which
hand and when, and what the hand was before and after.

The hands are worded as entered (hand_words.entered_row), without replaying the game
they were once part of.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils.translation import gettext as _

from pitchkeeper.games.hand_words import HandRow, entered_row
from pitchkeeper.games.models import HandChange
from pitchkeeper.rules import Ruleset


@dataclass(frozen=True)
class ChangeRow:
    pk: int
    number: int
    at: datetime
    text: str
    before: HandRow | None
    after: HandRow | None
    # Only a change that replaced or removed a hand has one to put back.
    restorable: bool


def _text(change: HandChange) -> str:
    values = {
        "who": change.user.get_username() if change.user else _("Someone"),
        "number": change.number,
    }
    if change.action == HandChange.Action.ADD:
        return _("%(who)s added hand %(number)d") % values
    if change.action == HandChange.Action.EDIT:
        return _("%(who)s changed hand %(number)d") % values
    if change.action == HandChange.Action.DELETE:
        return _("%(who)s deleted hand %(number)d") % values
    if change.action == HandChange.Action.UNDO:
        return _("%(who)s undid hand %(number)d") % values
    return _("%(who)s restored hand %(number)d") % values


def _entered(data: Mapping[str, Any] | None, rules: Ruleset, number: int) -> HandRow | None:
    return None if data is None else entered_row(data, rules, number=number)


def change_rows(changes: Iterable[HandChange], rules: Ruleset) -> list[ChangeRow]:
    """The changes as the history screen lists them (give them newest first, with
    their users)."""
    return [
        ChangeRow(
            pk=change.pk,
            number=change.number,
            at=change.at,
            text=_text(change),
            before=_entered(change.before, rules, change.number),
            after=_entered(change.after, rules, change.number),
            restorable=change.before is not None,
        )
        for change in changes
    ]
