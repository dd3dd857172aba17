"""The hand form's whole auction: one field per turn, in bidding order from the
dealer's left, round after round where the auction goes on until all but one pass
(``Ruleset.auction_until_one``). Who bids at a turn after the first round depends on
who passed before, so those fields are named as the entries so far tell."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.translation import gettext as _

from pitchkeeper.rules import Bid, RuleError, legal_bids

if TYPE_CHECKING:
    from pitchkeeper.games.replay import GameState

PASS = "pass"
# Rounds of fields offered where the auction goes round until all but one pass; an
# edited hand whose recorded auction is longer gets as many fields as it needs.
AUCTION_ROUNDS = 4
# However long an auction a page sends back, no more fields than this are made.
MOST_AUCTION_FIELDS = 200


def bid_value(text: str) -> Bid:
    """A bid as the form sends it ("6", "6x2", "moon") as the engine takes it: a moon
    bid's key starts with a letter and a doubled bid has its "x", so only a plain number
    is all digits."""
    return int(text) if text.isascii() and text.isdigit() else text


def auction_size(rules_round: bool, players: int, given: Any) -> int:
    """How many auction fields the form has: one round, or AUCTION_ROUNDS where the
    auction goes round; more when ``given`` (posted data or an edited hand's initial
    values) holds a longer auction, so that nothing entered is dropped."""
    size = players * (AUCTION_ROUNDS if rules_round else 1)
    if not rules_round or not given:
        return size
    for key in given:
        number = key.removeprefix("auction_") if isinstance(key, str) else ""
        if key != number and number.isdecimal() and len(number) <= 3:
            size = max(size, int(number) + 1)
    return min(size, MOST_AUCTION_FIELDS)


@dataclass(frozen=True)
class Turn:
    """One turn of the auction as far as it is entered: its field, who bids, and what
    the rules allow them."""

    index: int
    player: str
    allowed: frozenset[str]


class AuctionEntry:
    """The auction part of HandForm (mixed into it)."""

    fields: dict[str, forms.Field]
    order: tuple[str, ...]
    dealer: str
    state: GameState
    is_bound: bool
    data: Any
    cleaned_data: dict[str, Any]

    if TYPE_CHECKING:

        def __getitem__(self, name: str) -> forms.BoundField: ...

        def add_prefix(self, field_name: str) -> str: ...

        def get_initial_for_field(self, field: forms.Field, field_name: str) -> Any: ...

    @property
    def auction_count(self) -> int:
        return sum(1 for name in self.fields if name.startswith("auction_"))

    def forced_entered(self) -> tuple[str, ...]:
        """The players ticked as forced to bid, as far as they are players here."""
        if "forced" not in self.fields:
            return ()
        value = self["forced"].value() or ()
        return tuple(name for name in self.order if name in value)

    def _entry(self, index: int) -> str | None:
        """A turn's entry as posted, or as the edited hand had it. Read without a
        BoundField, which would keep the field's label from before its bidder is known."""
        name = f"auction_{index}"
        if self.is_bound:
            value = self.data.get(self.add_prefix(name))
        else:
            value = self.get_initial_for_field(self.fields[name], name)
        return str(value) if value else None

    def auction_turns(self) -> tuple[list[Turn], bool]:
        """The turns as far as each entry is one the rules allow: the last turn is the
        first entry missing or refused. The flag says the auction is over after them."""
        rules, seating = self.state.record.rules, self.state.record.seating
        forced = self.forced_entered()
        scores = self.scores_before  # type: ignore[attr-defined]
        so_far: list[tuple[str, Bid | None]] = []
        turns: list[Turn] = []
        for index in range(self.auction_count):
            try:
                player, bids, may_pass = legal_bids(
                    rules, seating, self.dealer, so_far, scores, forced
                )
            except RuleError:  # everybody but one has passed
                return turns, True
            allowed = frozenset({str(bid) for bid in bids} | ({PASS} if may_pass else set()))
            turns.append(Turn(index, player, allowed))
            entry = self._entry(index)
            if entry not in allowed:
                return turns, False
            so_far.append((player, None if entry == PASS else bid_value(entry)))
        return turns, False

    @property
    def auction_fields(self) -> list[forms.BoundField]:
        """The first round's fields, then each turn after it as far as the entries so
        far leave the auction open, and anything else entered."""
        if not self.state.record.rules.bidding:
            return []
        turns, _over = self.auction_turns()
        shown = max(len(self.order), len(turns))
        entered = [i for i in range(self.auction_count) if self._entry(i)]
        shown = max(shown, entered[-1] + 1 if entered else 0)
        return [self[f"auction_{index}"] for index in range(shown)]

    @property
    def auction_errors(self) -> bool:
        """Whether an auction entry was refused: its fold-out is opened to show it."""
        return any(self[f"auction_{i}"].errors for i in range(self.auction_count))

    def offer_legal_bids(self) -> None:
        """Name each turn's bidder and disable the bids the rules do not allow, as far
        as the auction is filled in.

        Only a help: the engine checks the auction again when it is saved.
        """
        if not self.state.record.rules.bidding:
            return
        for turn in self.auction_turns()[0]:
            field = self.fields[f"auction_{turn.index}"]
            # The bound field too: a form already checked keeps its bound fields.
            field.label = self[f"auction_{turn.index}"].label = turn.player
            field.widget.disabled_values = {v for v, _l in field.choices if v not in turn.allowed}

    def auction_error_field(self) -> str:
        """Where the engine's word on the auction goes: beside the first entry the
        rules do not allow, or the turn still to be entered."""
        turns, _over = self.auction_turns()
        return f"auction_{turns[-1].index if turns else 0}"

    def entered_auction(self) -> tuple[tuple[str, Bid | None], ...] | None:
        """The auction as entered, each entry with the player whose turn it was."""
        if not self.state.record.rules.bidding:
            return None
        entries = [self.cleaned_data.get(f"auction_{i}") or None for i in range(self.auction_count)]
        filled = [index for index, entry in enumerate(entries) if entry]
        if not filled:
            return None
        bidders = self._bidders(entries)
        auction: list[tuple[str, Bid | None]] = []
        for index in range(max(filled[-1] + 1, len(self.order))):
            entry, player = entries[index], bidders[index]
            if player is None:
                raise RuleError(
                    _("The auction was over before this entry: all but one had passed."),
                    field=f"auction_{next(i for i in filled if i >= index)}",
                )
            if not entry:
                raise RuleError(
                    _("%(name)s has no bid or pass yet") % {"name": player},
                    field=f"auction_{index}",
                )
            auction.append((player, None if entry == PASS else bid_value(entry)))
        return tuple(auction)

    def _bidders(self, entries: list[str | None]) -> list[str | None]:
        """Whose turn each entry is, after the entries before it (only who passed
        matters for that); None from where the auction is over."""
        rules, seating = self.state.record.rules, self.state.record.seating
        so_far: list[tuple[str, Bid | None]] = []
        bidders: list[str | None] = []
        for entry in entries:
            try:
                player = legal_bids(rules, seating, self.dealer, so_far)[0]
            except RuleError:  # everybody but one has passed
                break
            bidders.append(player)
            so_far.append((player, None if entry in (None, PASS) else bid_value(str(entry))))
        return bidders + [None] * (len(entries) - len(bidders))
