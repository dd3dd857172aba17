"""The hand-entry form, built from the game's ruleset: one row of choices per point."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import forms
from django.utils.translation import gettext as _

from pitchkeeper.core.limits import PlainIntegerField
from pitchkeeper.games.forms.auction import AuctionEntry
from pitchkeeper.games.forms.render import ChoicesInPython
from pitchkeeper.games.replay import GameState
from pitchkeeper.games.words import NOBODY_WORDS, bid_label, category_label, refusal_text
from pitchkeeper.rules import (
    Bid,
    Category,
    HandRecord,
    RuleError,
    all_bids,
    bidding_order,
)
from pitchkeeper.rules.entry import ALONE, NOBODY, PASS, auction_size, hand_from_fields

# Beyond this many bids the buttons are drawn compact, so that a long range (nine-five's
# 4-18 and two smudges, ten-point's doubled bids) stays a few rows of one tap each.
MOST_BID_BUTTONS = 9
# Up to this many bids, one grid of a button per player and bid picks the pitcher and
# the bid with one tap; a longer range keeps a row of players and a row of bids.
MOST_GRID_BIDS = 5
# Up to this many points, each taken with one name, the points are a grid too: a row
# per side, a button per point; more (ten-point's) keep a row of sides per point.
MOST_GRID_POINTS = 5


def _point_label(category: Category) -> str:
    """A point's name, with its worth where it is more than one: "Nine (9)"."""
    label = category_label(category)
    return f"{label} ({category.value})" if category.value > 1 else label


class ChoiceButtons(forms.RadioSelect):
    """Radio buttons some of which the rules do not allow at this point."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.disabled_values: set[str] = set()
        # Many choices: drawn as tighter buttons, each still a thumb's width.
        self.compact = False

    def create_option(self, name: str, value: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
        option = super().create_option(name, value, *args, **kwargs)
        if str(value) in self.disabled_values:
            option["attrs"]["disabled"] = True
        return option


class HandForm(AuctionEntry, forms.Form):
    """Pitcher and bid (or the whole auction), who took each point, revokes.

    ``dealer`` is who deals the hand being entered; the auction is asked for in
    bidding order from the player on the dealer's left. Every other choice of a player
    or side is offered in seat order, the scoreboard's, so that a name is in the same
    place wherever it is on the screen.
    """

    default_renderer = ChoicesInPython()

    def __init__(
        self, *args: Any, state: GameState, dealer: str, number: int | None = None, **kwargs: Any
    ) -> None:
        """``number``: the hand being edited; None for a new hand after the last one."""
        super().__init__(*args, **kwargs)
        self.state = state
        rules = state.record.rules
        seating = state.record.seating
        self.order = bidding_order(seating, dealer)
        self.seats = seating.players
        self.dealer = dealer
        self.number = number
        sides = [(side, side) for side in state.result.sides]
        players = [(name, name) for name in self.seats]
        # The grid's buttons: each value's pitcher and bid.
        self.contracts: dict[str, tuple[str, str]] = {}
        if rules.bidding:
            self.fields["pitcher"] = forms.ChoiceField(
                label=_("Pitcher"), choices=players, required=False, widget=forms.RadioSelect
            )
            self.fields["bid"] = self._bid_field(_("Bid"), required=False)
            bids = all_bids(rules)
            if len(bids) <= MOST_GRID_BIDS:
                # Bid by bid, a button for every player in seat order.
                self.contracts = {
                    f"{name}:{bid}": (name, str(bid)) for bid in bids for name in self.seats
                }
                self.fields["contract"] = forms.ChoiceField(
                    label=_("Pitcher and bid"),
                    choices=[(value, value) for value in self.contracts],
                    required=False,
                    widget=forms.RadioSelect,
                )
            given = self.data if self.is_bound else self.initial
            size = auction_size(rules, len(self.order), given)
            for index in range(size):
                # Named for the first round; later turns are named once it is known
                # who is still in (offer_legal_bids).
                name = self.order[index % len(self.order)]
                self.fields[f"auction_{index}"] = self._bid_field(
                    name, required=False, can_pass=True
                )
        if rules.called_partner:
            self.fields["partner"] = forms.ChoiceField(
                label=_("Called partner"),
                help_text=_("Who held the called card; alone when the pitcher held it."),
                choices=[*players, (ALONE, _("alone"))],
                required=False,
                widget=forms.RadioSelect,
            )
        for category in rules.categories:
            if category.kind == "one":
                choices = list(sides)
                if not category.required:
                    choices.append((NOBODY, NOBODY_WORDS.get(category.key, _("nobody"))))
                self.fields[f"point_{category.key}"] = forms.ChoiceField(
                    label=_point_label(category),
                    choices=choices,
                    required=False,
                    widget=forms.RadioSelect,
                )
            else:
                for index, (side, _label) in enumerate(sides):
                    self.fields[f"count_{category.key}_{index}"] = PlainIntegerField(
                        label=f"{category_label(category)}: {side}",
                        min_value=0,
                        max_value=category.max_count,
                        required=False,
                    )
        self._contract_from_pitcher_and_bid()
        self.fields["revoked"] = forms.MultipleChoiceField(
            label=_("Revoked (renonce)"),
            choices=[(name, name) for name in self.seats],
            required=False,
            widget=forms.CheckboxSelectMultiple,
        )
        if rules.forced_bid is not None:
            self.fields["forced"] = forms.MultipleChoiceField(
                label=_("Forced to bid %(bid)d (held the 9 with another trump)")
                % {"bid": rules.forced_bid},
                choices=[(name, name) for name in self.seats],
                required=False,
                widget=forms.CheckboxSelectMultiple,
            )
        if rules.smudge == "all_tricks" or any(moon.all_tricks for moon in rules.moon_bids):
            self.fields["all_tricks"] = forms.BooleanField(
                label=_("The pitcher's side took every trick"), required=False
            )

    def clean(self) -> dict[str, Any]:
        """A pitcher or bid refused (sent the old way) is told on the grid, where the
        page shows them."""
        cleaned = super().clean()
        if "contract" in self.fields:
            for name in ("pitcher", "bid"):
                for error in self._errors.pop(name, []):
                    self.add_error("contract", error)
        return cleaned

    def _contract_from_pitcher_and_bid(self) -> None:
        """An entry sent as a pitcher and a bid (a page from before the grid, a refused
        entry kept) is shown on the grid, so that nothing entered looks lost."""
        if not self.is_bound or "contract" not in self.fields or self.data.get("contract"):
            return
        value = f"{self.data.get('pitcher')}:{self.data.get('bid')}"
        if value in self.contracts:
            self.data = self.data.copy()
            self.data["contract"] = value

    def _bid_field(self, label: str, *, required: bool, can_pass: bool = False) -> forms.Field:
        """One button per bid, every bid one tap, however many the rules have."""
        bids = all_bids(self.state.record.rules)
        choices = [(str(bid), self._bid_label(bid)) for bid in bids]
        if can_pass:
            choices.insert(0, (PASS, _("pass")))
        widget = ChoiceButtons()
        widget.compact = len(bids) > MOST_BID_BUTTONS
        return forms.ChoiceField(label=label, choices=choices, required=required, widget=widget)

    def _bid_label(self, bid: Bid) -> str:
        rules = self.state.record.rules
        if isinstance(bid, int) and rules.is_smudge(bid):
            return _("%(bid)s smudge") % {"bid": bid}
        return bid_label(rules, bid)

    @property
    def contract_cells(self) -> list[tuple[forms.BoundField, str, str]]:
        """The grid's buttons, bid by bid, with, for each, the player (in seat order,
        which the label carries for screen readers) and the bid in words."""
        width = len(self.seats)
        labels = [self._bid_label(bid) for bid in all_bids(self.state.record.rules)]
        return [
            (button, self.seats[index % width], labels[index // width])
            for index, button in enumerate(self["contract"])
        ]

    @property
    def seat_roles(self) -> list[tuple[str, str]]:
        """Each player in seat order with what the hand has them do first: "deals",
        "first" (bids first, left of the dealer) or ""."""
        first = self.order[0]
        return [
            (name, "deals" if name == self.dealer else "first" if name == first else "")
            for name in self.seats
        ]

    @property
    def point_grid(self) -> PointGrid | None:
        """The points as a grid, when each goes to one side and they are few enough."""
        categories = self.state.record.rules.categories
        if len(categories) > MOST_GRID_POINTS or any(c.kind != "one" for c in categories):
            return None
        sides = self.state.result.sides
        columns = []
        for category in categories:
            field = self[f"point_{category.key}"]
            label = _point_label(category)
            buttons = list(field)
            cells: list[PointCell | None] = [
                PointCell(button, label, side) for button, side in zip(buttons, sides, strict=False)
            ]
            nobody = buttons[len(sides)] if len(buttons) > len(sides) else None
            cells.append(None if nobody is None else PointCell(nobody, nobody.choice_label, label))
            columns.append((field, cells))
        nobody = any(cells[-1] is not None for _field, cells in columns)
        if not nobody:
            columns = [(field, cells[:-1]) for field, cells in columns]
        return PointGrid(sides=sides, columns=columns, nobody=nobody)

    @property
    def scores_before(self) -> dict[str, int]:
        """Each side's score before the hand entered: some bids are only open at some
        scores (Bonanza's moon: not in the hole, nor at 46 or more)."""
        result = self.state.result
        if self.number is None:
            return result.scores
        if self.number > 1:
            return result.hands[self.number - 2].scores
        return dict.fromkeys(result.sides, 0)

    @property
    def point_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name.startswith("point_")]

    @property
    def count_groups(self) -> list[tuple[str, list[forms.BoundField]]]:
        """Each counted point's name, in the reader's language, with its fields."""
        rules = self.state.record.rules
        return [
            (
                category_label(c),
                [self[name] for name in self.fields if name.startswith(f"count_{c.key}_")],
            )
            for c in rules.categories
            if c.kind == "count"
        ]

    @property
    def _bidding(self) -> bool:
        return self.state.record.rules.bidding

    def record(self, action: str = "save") -> HandRecord:
        """The hand as entered (``action``: the button pressed), read by the rules from
        the posted values of this form's fields, which ``is_valid`` has checked one by
        one for a save; raises RuleError for what the form alone can tell."""
        fields = {name: _posted(self.data, name) for name in self.fields}
        return hand_from_fields(
            fields,
            rules=self.state.record.rules,
            seating=self.state.record.seating,
            dealer=self.dealer,
            action=action,
        )

    def add_rule_error(self, error: RuleError) -> None:
        """Show the engine's message next to the field it is about; each of them, when
        the engine names several things missing at once."""
        for each in error.each:
            self.add_error(self._field_for(each.field), refusal_text(each, self.state.record.rules))

    def _field_for(self, rule_field: str | None) -> str | None:
        if rule_field is None:
            return None
        if rule_field.startswith("points."):
            key = rule_field.removeprefix("points.")
            if f"point_{key}" in self.fields:
                return f"point_{key}"
            return next((name for name in self.fields if name.startswith(f"count_{key}_")), None)
        if rule_field == "auction" and self._bidding:
            return self.auction_error_field()
        if rule_field in ("pitcher", "bid") and "contract" in self.fields:
            return "contract"
        return rule_field if rule_field in self.fields else None


@dataclass(frozen=True)
class PointCell:
    """One button of the points grid: what it shows, and what only a screen reader
    says before it (the side on a side's row; the point on the "nobody" row)."""

    button: forms.BoundField
    shown: str
    said: str


@dataclass(frozen=True)
class PointGrid:
    """The points as the hand form lays them out: a row per side in seat order, and a
    last row for the points that may go to nobody (``nobody``: there is one); each
    column a point's field with its cells, None where a point cannot go to nobody."""

    sides: tuple[str, ...]
    columns: list[tuple[forms.BoundField, list[PointCell | None]]]
    nobody: bool

    @property
    def rows(self) -> int:
        return len(self.sides) + int(self.nobody)

    @property
    def errors(self) -> list[forms.BoundField]:
        """The points' fields refused, in the grid's order."""
        return [field for field, _cells in self.columns if field.errors]


def _posted(data: Any, name: str) -> list[str]:
    """A field's posted values: a QueryDict's list, or a plain dict's value or list."""
    if hasattr(data, "getlist"):
        return [str(value) for value in data.getlist(name)]
    value = data.get(name)
    if value is None:
        return []
    return [str(item) for item in value] if isinstance(value, list | tuple) else [str(value)]


def initial_for(record: HandRecord, sides: tuple[str, ...]) -> dict:
    """The form's initial data for an existing hand record (for editing it)."""
    initial: dict[str, Any] = {
        "pitcher": record.pitcher,
        "bid": str(record.bid) if record.bid is not None else None,
        "contract": f"{record.pitcher}:{record.bid}" if record.pitcher else None,
        "revoked": list(record.revoked),
        "forced": list(record.forced),
        "all_tricks": record.all_tricks,
    }
    if record.points:
        # A played hand; "partner" is only asked where the pitcher calls one.
        initial["partner"] = record.partner or ALONE
    if record.auction:
        # The engine keeps an auction in bidding order from the dealer's left, turn by
        # turn, as the form's fields are.
        for index, (_name, bid) in enumerate(record.auction):
            initial[f"auction_{index}"] = PASS if bid is None else str(bid)
    for key, went_to in record.points.items():
        if isinstance(went_to, dict):
            for index, side in enumerate(sides):
                initial[f"count_{key}_{index}"] = went_to.get(side, 0)
        else:
            initial[f"point_{key}"] = NOBODY if went_to is None else went_to
    return initial
