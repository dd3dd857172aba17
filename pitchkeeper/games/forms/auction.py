"""The hand form's whole auction: one field per turn, in bidding order from the
dealer's left, round after round where the auction goes on until all but one pass
(``Ruleset.auction_until_one``). Who bids at a turn after the first round depends on
who passed before, so those fields are named as the entries so far tell."""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Any

from django import forms

from pitchkeeper.rules.entry import AuctionOffer, auction_offer

if TYPE_CHECKING:
    from pitchkeeper.games.replay import GameState


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

    def forced_entered(self) -> list[str]:
        """The players ticked as forced to bid (auction_offer keeps those seated)."""
        if "forced" not in self.fields:
            return []
        return list(self["forced"].value() or ())

    def _entry(self, index: int) -> str | None:
        """A turn's entry as posted, or as the edited hand had it. Read without a
        BoundField, which would keep the field's label from before its bidder is known."""
        name = f"auction_{index}"
        if self.is_bound:
            value = self.data.get(self.add_prefix(name))
        else:
            value = self.get_initial_for_field(self.fields[name], name)
        return str(value) if value else None

    @cached_property
    def offer(self) -> AuctionOffer:
        """The auction's turns as the rules read its entries (rules.entry.auction_offer)."""
        return auction_offer(
            self.state.record.rules,
            self.state.record.seating,
            self.dealer,
            [self._entry(index) for index in range(self.auction_count)],
            self.scores_before,  # type: ignore[attr-defined]
            self.forced_entered(),
        )

    @property
    def auction_fields(self) -> list[tuple[forms.BoundField, bool]]:
        """Every auction field, each with whether it is shown: the first round's, then
        each turn after it as far as the entries so far leave the auction open, and
        anything else entered. The rest are drawn hidden, for the phone to show as the
        auction goes on while hands wait on it to be sent."""
        if not self.state.record.rules.bidding:
            return []
        shown = self.offer.shown
        return [(self[f"auction_{i}"], i < shown) for i in range(self.auction_count)]

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
        for turn in self.offer.turns:
            field = self.fields[f"auction_{turn.index}"]
            # The bound field too: a form already checked keeps its bound fields.
            field.label = self[f"auction_{turn.index}"].label = turn.player
            field.widget.disabled_values = {v for v, _l in field.choices if v not in turn.allowed}

    def auction_error_field(self) -> str:
        """Where the engine's word on the auction goes: beside the first entry the
        rules do not allow, or the turn still to be entered."""
        turns = self.offer.turns
        return f"auction_{turns[-1].index if turns else 0}"
