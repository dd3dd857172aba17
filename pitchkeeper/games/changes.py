"""A game's history of changes in words: who added, changed, deleted, undid or restored which
hand and when, and what the hand was before and after.

The hands are kept as the game-record format has them (HandChange.before/after), so
they are worded from that, without replaying the game they were once part of.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils.translation import gettext as _

from pitchkeeper.games.models import HandChange
from pitchkeeper.games.words import bid_label, points_taken
from pitchkeeper.rules import Ruleset


@dataclass(frozen=True)
class HandWords:
    """One hand as recorded, in words: who dealt, the bid or auction, the points."""

    dealer: str | None
    summary: str
    points: tuple[str, ...]
    notes: tuple[str, ...]


def hand_words(data: Mapping[str, Any], rules: Ruleset) -> HandWords:
    """A hand in the game-record format, in the reader's language."""
    dealer = data.get("dealer")
    if data.get("misdeal"):
        return HandWords(dealer, _("Misdeal"), (), ())
    auction = data.get("auction")
    if auction is not None and all(bid is None for _name, bid in auction):
        return HandWords(dealer, _("All passed"), (), ())
    if auction is not None:
        passed = _("pass")
        bids = ", ".join(
            f"{name} {passed if bid is None else bid_label(rules, bid)}" for name, bid in auction
        )
        summary = _("Auction: %(bids)s") % {"bids": bids}
    elif data.get("bid") is not None:
        summary = _("%(pitcher)s bid %(bid)s") % {
            "pitcher": data.get("pitcher") or "?",
            "bid": bid_label(rules, data["bid"]),
        }
    else:
        summary = _("%(pitcher)s pitched") % {"pitcher": data.get("pitcher") or "?"}
    return HandWords(dealer, summary, _points(data.get("points") or {}, rules), _notes(data))


def _points(points: Mapping[str, Any], rules: Ruleset) -> tuple[str, ...]:
    return tuple(f"{point}: {who}" for point, who in points_taken(points, rules))


def _notes(data: Mapping[str, Any]) -> tuple[str, ...]:
    notes = []
    if data.get("partner"):
        notes.append(_("partner: %(name)s") % {"name": data["partner"]})
    if data.get("revoked"):
        notes.append(_("revoked: %(names)s") % {"names": ", ".join(data["revoked"])})
    if data.get("forced"):
        notes.append(_("forced to bid: %(names)s") % {"names": ", ".join(data["forced"])})
    if data.get("all_tricks"):
        notes.append(_("took every trick"))
    return tuple(notes)


@dataclass(frozen=True)
class ChangeRow:
    pk: int
    number: int
    at: datetime
    text: str
    before: HandWords | None
    after: HandWords | None
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


def change_rows(changes: Iterable[HandChange], rules: Ruleset) -> list[ChangeRow]:
    """The changes as the history screen lists them (give them newest first, with
    their users)."""
    return [
        ChangeRow(
            pk=change.pk,
            number=change.number,
            at=change.at,
            text=_text(change),
            before=hand_words(change.before, rules) if change.before is not None else None,
            after=hand_words(change.after, rules) if change.after is not None else None,
            restorable=change.before is not None,
        )
        for change in changes
    ]
