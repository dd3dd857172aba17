"""A hand in words, made once for every screen that shows one: the game screen's list
and its line on the hand just saved, the live board, the history of changes, and the
edit and restore screens. ``games/game_hands.html#hand`` puts a HandRow on the page.

A hand of the game is worded from its replay: how it went (made, set back, a smudge,
a steal) and the totals it moved. A hand kept by the history of changes
(HandChange.before/after, in the game-record format) is worded as it was entered,
without replaying the game it was once part of: an entry that no longer replays (the
hands around it changed since) can still be read, and it says what was entered (the
auction's bids) rather than how it went."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from pitchkeeper.games.replay import GameState
from pitchkeeper.games.words import bid_label, points_taken
from pitchkeeper.rules import HandResult, Ruleset


@dataclass(frozen=True)
class PointTaken:
    label: str
    went_to: str


@dataclass(frozen=True)
class HandRow:
    number: int
    # Missing only from an entry recorded without one.
    dealer: str | None
    # "played", "misdeal" or "redeal" (all passed).
    kind: str
    pitcher: str | None
    # The bid in words: "3", "6 for 12", "Shoot the moon".
    bid: str | None
    points: tuple[PointTaken, ...]
    revoked: tuple[str, ...]
    # The players whose hands forced a bid (nine-five).
    forced: tuple[str, ...]
    # Where the pitcher calls a partner: who it was, or that the pitcher played alone.
    partner_note: str = ""
    # From the replay only.
    # A numbered bid that needed every point (a moon bid says so in its name).
    smudge: bool = False
    # "made", "set" (set back) or "excused" (short of the bid, but another side revoked).
    outcome: str = ""
    # Whose bid the dealer took by equalling it.
    stolen_from: str | None = None
    # The points the pitching side took, by name.
    pitcher_took: tuple[str, ...] = ()
    # Each side's change of total.
    changes: tuple[tuple[str, int], ...] = ()
    # From an entry only.
    # The auction's bids in words, in place of who bid what.
    auction: str = ""
    # The pitcher was entered as taking every trick.
    all_tricks: bool = False


def history(state: GameState, *, first: int = 1, last: int | None = None) -> list[HandRow]:
    """Hands ``first`` to ``last`` (by default all of them), latest first, as the
    history lists them. Only those hands are put in words, so that a screen showing
    the latest few costs the same however long the game is."""
    rules = state.record.rules
    start, stop = max(first, 1) - 1, len(state.result.hands) if last is None else last
    rows = []
    for hand, record in zip(
        state.result.hands[start:stop], state.record.hands[start:stop], strict=True
    ):
        points = _points(hand.points, rules)
        rows.append(
            HandRow(
                number=hand.number,
                dealer=hand.dealer,
                kind=hand.kind,
                pitcher=hand.pitcher,
                bid=None if hand.bid is None else bid_label(rules, hand.bid),
                points=points,
                revoked=hand.revoked,
                forced=record.forced,
                partner_note=_partner_note(rules, hand.kind, hand.partner),
                smudge=hand.smudge and not isinstance(hand.bid, str),
                outcome=_outcome(hand),
                stolen_from=_stolen_from(record.auction, hand),
                pitcher_took=tuple(p.label for p in points if p.went_to == hand.pitching_side),
                changes=tuple((side, hand.delta[side]) for side in state.result.sides)
                if hand.delta
                else (),
            )
        )
    return rows[::-1]


def entered_row(data: Mapping[str, Any], rules: Ruleset, *, number: int) -> HandRow:
    """Hand ``number`` as entered, in the game-record format (a history record)."""
    auction = data.get("auction")
    if data.get("misdeal"):
        kind = "misdeal"
    elif auction is not None and all(bid is None for _name, bid in auction):
        kind = "redeal"
    else:
        kind = "played"
    bids = ""
    if kind == "played" and auction is not None:
        passed = _("pass")
        bids = ", ".join(
            f"{name} {passed if bid is None else bid_label(rules, bid)}" for name, bid in auction
        )
    bid = data.get("bid")
    return HandRow(
        number=number,
        dealer=data.get("dealer"),
        kind=kind,
        pitcher=data.get("pitcher") or "?",
        bid=None if bid is None else bid_label(rules, bid),
        points=_points(data.get("points") or {}, rules),
        revoked=tuple(data.get("revoked") or ()),
        forced=tuple(data.get("forced") or ()),
        partner_note=_partner_note(rules, kind, data.get("partner")),
        auction=bids,
        all_tricks=bool(data.get("all_tricks")),
    )


def _points(points: Mapping[str, Any], rules: Ruleset) -> tuple[PointTaken, ...]:
    return tuple(PointTaken(*taken) for taken in points_taken(points, rules))


def _outcome(hand: HandResult) -> str:
    if hand.bid is None:
        return ""
    if hand.made:
        return "made"
    return "set" if hand.pitching_side in hand.set_back else "excused"


def _stolen_from(auction: tuple[tuple[str, object], ...] | None, hand: HandResult) -> str | None:
    """Who bid first what the dealer then bid too and took: a steal."""
    if not auction or hand.pitcher != hand.dealer:
        return None
    bids = [(name, bid) for name, bid in auction if bid is not None]
    return next((name for name, bid in bids[:-1] if bid == hand.bid), None)


def _partner_note(rules: Ruleset, kind: str, partner: str | None) -> str:
    if not rules.called_partner or kind != "played":
        return ""
    if partner is None:
        return _("played alone")
    return _("partner: %(name)s") % {"name": partner}
