"""The hand-entry form, built from the game's ruleset: one row of choices per point."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _

from pitchkeeper.display import NOBODY_WORDS, category_label
from pitchkeeper.rules import HandRecord, RuleError, bidding_order, legal_bids
from pitchkeeper.services import GameState

PASS = "pass"
NOBODY = "nobody"
# Beyond this many bids, a number field beats a row of buttons.
MOST_BID_BUTTONS = 9


class ChoiceButtons(forms.RadioSelect):
    """Radio buttons some of which the rules do not allow at this point."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.disabled_values: set[str] = set()

    def create_option(self, name: str, value: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
        option = super().create_option(name, value, *args, **kwargs)
        if str(value) in self.disabled_values:
            option["attrs"]["disabled"] = True
        return option


class HandForm(forms.Form):
    """Pitcher and bid (or the whole auction), who took each point, revokes.

    ``dealer`` is who deals the hand being entered; the auction is asked for in
    bidding order from the player on the dealer's left.
    """

    def __init__(self, *args: Any, state: GameState, dealer: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.state = state
        rules = state.record.rules
        seating = state.record.seating
        self.order = bidding_order(seating, dealer)
        self.dealer = dealer
        sides = [(side, side) for side in state.result.sides]
        if rules.bidding:
            players = [(name, name) for name in self.order]
            self.fields["pitcher"] = forms.ChoiceField(
                label=_("Pitcher"), choices=players, required=False, widget=forms.RadioSelect
            )
            self.fields["bid"] = self._bid_field(_("Bid"), required=False)
            for seat, name in enumerate(self.order):
                field = self._bid_field(name, required=False, can_pass=True)
                self.fields[f"auction_{seat}"] = field
        for category in rules.categories:
            if category.kind == "one":
                choices = list(sides)
                if not category.required:
                    choices.append((NOBODY, NOBODY_WORDS.get(category.key, _("nobody"))))
                self.fields[f"point_{category.key}"] = forms.ChoiceField(
                    label=category_label(category),
                    choices=choices,
                    required=False,
                    widget=forms.RadioSelect,
                )
            else:
                for index, (side, _label) in enumerate(sides):
                    self.fields[f"count_{category.key}_{index}"] = forms.IntegerField(
                        label=f"{category_label(category)}: {side}",
                        min_value=0,
                        max_value=category.max_count,
                        required=False,
                    )
        self.fields["revoked"] = forms.MultipleChoiceField(
            label=_("Revoked (renonce)"),
            choices=[(name, name) for name in self.order],
            required=False,
            widget=forms.CheckboxSelectMultiple,
        )
        if rules.smudge == "all_tricks":
            self.fields["all_tricks"] = forms.BooleanField(
                label=_("The pitcher's side took every trick"), required=False
            )

    def _bid_field(self, label: str, *, required: bool, can_pass: bool = False) -> forms.Field:
        rules = self.state.record.rules
        bids = range(rules.min_bid, rules.highest_bid + 1)
        if len(bids) > MOST_BID_BUTTONS:
            return forms.IntegerField(
                label=label,
                min_value=rules.min_bid,
                max_value=rules.highest_bid,
                required=required,
                help_text=_("a pass: leave empty") if can_pass else "",
            )
        choices = [(str(bid), self._bid_label(bid)) for bid in bids]
        if can_pass:
            choices.insert(0, (PASS, _("pass")))
        return forms.ChoiceField(
            label=label, choices=choices, required=required, widget=ChoiceButtons
        )

    def _bid_label(self, bid: int) -> str:
        if self.state.record.rules.is_smudge(bid):
            return _("%(bid)s smudge") % {"bid": bid}
        return str(bid)

    @property
    def auction_fields(self) -> list[forms.BoundField]:
        return [self[f"auction_{seat}"] for seat in range(len(self.order)) if self._bidding]

    def offer_legal_bids(self) -> None:
        """Disable the bids the rules do not allow, as far as the auction is filled in.

        Only a help: the engine checks the auction again when it is saved.
        """
        if not self._bidding or not isinstance(self.fields["auction_0"].widget, ChoiceButtons):
            return
        rules, seating = self.state.record.rules, self.state.record.seating
        so_far: list[tuple[str, int | None]] = []
        for seat, name in enumerate(self.order):
            field = self.fields[f"auction_{seat}"]
            _player, bids, may_pass = legal_bids(rules, seating, self.dealer, so_far)
            allowed = {str(bid) for bid in bids} | ({PASS} if may_pass else set())
            field.widget.disabled_values = {v for v, _l in field.choices if v not in allowed}
            entry = self.data.get(self.add_prefix(f"auction_{seat}")) if self.is_bound else None
            if entry not in allowed:
                return
            so_far.append((name, None if entry == PASS else int(entry)))

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

    def _auction(self) -> tuple[tuple[str, int | None], ...] | None:
        if not self._bidding:
            return None
        entries = [self.cleaned_data.get(f"auction_{seat}") for seat in range(len(self.order))]
        if all(entry in (None, "") for entry in entries):
            return None
        if any(entry in (None, "") for entry in entries) and not isinstance(
            self.fields["auction_0"], forms.IntegerField
        ):
            missing = next(
                name for name, entry in zip(self.order, entries, strict=True) if not entry
            )
            raise RuleError(
                _("%(name)s has no bid or pass yet") % {"name": missing}, field="auction"
            )
        return tuple(
            (name, None if entry in (None, "", PASS) else int(entry))
            for name, entry in zip(self.order, entries, strict=True)
        )

    def _points(self) -> dict[str, Any]:
        rules = self.state.record.rules
        sides = self.state.result.sides
        points: dict[str, Any] = {}
        for category in rules.categories:
            if category.kind == "one":
                value = self.cleaned_data.get(f"point_{category.key}")
                if not value:
                    raise RuleError(
                        _("Say who took %(point)s.") % {"point": category_label(category)},
                        field=f"points.{category.key}",
                    )
                points[category.key] = None if value == NOBODY else value
            else:
                points[category.key] = {
                    side: self.cleaned_data.get(f"count_{category.key}_{index}") or 0
                    for index, side in enumerate(sides)
                }
        return points

    def record(self) -> HandRecord:
        """The hand as entered; raises RuleError for what the form alone can tell."""
        auction = self._auction()
        pitcher = self.cleaned_data.get("pitcher") or None
        bid = self.cleaned_data.get("bid")
        if auction is None and self._bidding and not (pitcher and bid):
            raise RuleError(
                _("Choose the pitcher and the bid, or record the whole auction."),
                field="pitcher" if not pitcher else "bid",
            )
        return HandRecord(
            auction=auction,
            pitcher=None if auction else pitcher,
            bid=None if auction or bid in (None, "") else int(bid),
            points=self._points(),
            revoked=tuple(self.cleaned_data.get("revoked") or ()),
            all_tricks=bool(self.cleaned_data.get("all_tricks")),
        )

    def add_rule_error(self, error: RuleError) -> None:
        """Show the engine's message next to the field it is about."""
        self.add_error(self._field_for(error.field), error.message)

    def _field_for(self, rule_field: str | None) -> str | None:
        if rule_field is None:
            return None
        if rule_field.startswith("points."):
            key = rule_field.removeprefix("points.")
            if f"point_{key}" in self.fields:
                return f"point_{key}"
            return next((name for name in self.fields if name.startswith(f"count_{key}_")), None)
        if rule_field == "auction" and self._bidding:
            return "auction_0"
        return rule_field if rule_field in self.fields else None


def initial_for(record: HandRecord, form_order: tuple[str, ...], sides: tuple[str, ...]) -> dict:
    """The form's initial data for an existing hand record (for editing it)."""
    initial: dict[str, Any] = {
        "pitcher": record.pitcher,
        "bid": str(record.bid) if record.bid is not None else None,
        "revoked": list(record.revoked),
        "all_tricks": record.all_tricks,
    }
    if record.auction:
        by_name = {name.casefold(): bid for name, bid in record.auction}
        for seat, name in enumerate(form_order):
            bid = by_name.get(name.casefold())
            initial[f"auction_{seat}"] = PASS if bid is None else str(bid)
    for key, went_to in record.points.items():
        if isinstance(went_to, dict):
            for index, side in enumerate(sides):
                initial[f"count_{key}_{index}"] = went_to.get(side, 0)
        else:
            initial[f"point_{key}"] = NOBODY if went_to is None else went_to
    return initial
