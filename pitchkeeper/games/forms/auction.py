"""The hand form's whole auction: one field per turn, in bidding order from the
dealer's left, round after round where the auction goes on until all but one pass
(``Ruleset.auction_until_one``). Who bids at a turn after the first round depends on
who passed before, so those fields are named as the entries so far tell."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django import forms

from pitchkeeper.rules import Bid, RuleError, legal_bids
from pitchkeeper.rules.entry import PASS, bid_value

if TYPE_CHECKING:
    from pitchkeeper.games.replay import GameState


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
