"""The new-game form: who plays, in which seat and team, who deals first, and the rules
(a preset and its common settings).

Every roster player has a row: a tick to play, a seat number and, in a partnership game,
a team. One more row takes the name of a player new to the roster; its Add button puts
the name on the roster and in the next seat at once, so that a table's names can be typed
one after another. Seat numbers only order the players clockwise; the ↑/↓ buttons
renumber them, so they work without JavaScript too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from pitchkeeper.clubs.models import Club, Player
from pitchkeeper.clubs.names import name_clean, name_unlike
from pitchkeeper.clubs.players import player_add, player_name_check
from pitchkeeper.core.limits import PlainDecimalField, PlainIntegerField, plain_int
from pitchkeeper.games.forms.seats import (
    SETTINGS,
    TEAMS,
    partners_opposite,
    preset_settings,
    team_name,
)
from pitchkeeper.games.replay import GameState
from pitchkeeper.games.services import game_create
from pitchkeeper.games.words import (
    preset_description,
    preset_groups,
    preset_label,
    preset_label_lazy,
    refusal_text,
)
from pitchkeeper.rules import DEFAULT_PRESET, PRESETS, RuleError, Ruleset, resolve_rules
from pitchkeeper.rules.record import MAX_NAME_LENGTH

# The key of the row for a player added to the roster on the spot.
NEW = "new"
MAX_SEATS = max(ruleset.max_players for ruleset in PRESETS.values())
# Where the rules engine's objections go: its "teams" are the per-player team choices,
# which sit in the players' rows.
RULE_FIELDS = {"players": "players", "teams": "players", "first_dealer": "first_dealer"}


class PresetButtons(forms.RadioSelect):
    """The presets' radio buttons; a preset played in teams says so (``data-teams``), so
    that the team fields show only for one."""

    def create_option(self, name: str, value: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
        option = super().create_option(name, value, *args, **kwargs)
        if value in PRESETS and PRESETS[value].partnership:
            option["attrs"]["data-teams"] = ""
        return option


@dataclass(frozen=True)
class PresetGroup:
    """One group of presets on the screen (classic, partnership, 10-point family ...),
    open when it holds the preset picked."""

    key: str
    label: str
    open: bool
    presets: list[tuple[forms.BoundField, str]]


@dataclass(frozen=True)
class Row:
    """One player's line: ``name`` is None on the line for a new player's name."""

    key: str
    name: str | None
    chosen: bool
    seat: forms.BoundField
    team: forms.BoundField
    first: bool = False
    last: bool = False


def _seat(value: Any) -> int | None:
    try:
        return plain_int(value)
    except (TypeError, ValueError):
        return None


class GameForm(forms.Form):
    players = forms.MultipleChoiceField(label=gettext_lazy("Players"), required=False)
    new_player = forms.CharField(
        label=gettext_lazy("New player"),
        required=False,
        widget=forms.TextInput(attrs={"maxlength": MAX_NAME_LENGTH}),
    )
    first_dealer = forms.ChoiceField(label=gettext_lazy("First dealer"), required=False)
    team_name_1 = forms.CharField(
        label=gettext_lazy("Team 1"), required=False, max_length=MAX_NAME_LENGTH
    )
    team_name_2 = forms.CharField(
        label=gettext_lazy("Team 2"), required=False, max_length=MAX_NAME_LENGTH
    )
    team_name_3 = forms.CharField(
        label=gettext_lazy("Team 3"), required=False, max_length=MAX_NAME_LENGTH
    )
    preset = forms.ChoiceField(
        label=gettext_lazy("Game"),
        choices=[(name, preset_label_lazy(name)) for name in PRESETS],
        widget=PresetButtons,
    )
    # The preset the settings below were filled in for, so that settings shown for one
    # preset are never started with another.
    settings_for = forms.CharField(required=False, widget=forms.HiddenInput)
    # Nine-five plays to 101.
    target = PlainIntegerField(label=gettext_lazy("Points to win"), min_value=1, max_value=999)
    min_bid = PlainIntegerField(label=gettext_lazy("Lowest bid"), min_value=1, max_value=99)
    dealer_may_steal = forms.BooleanField(
        label=gettext_lazy("The dealer may steal the bid"), required=False
    )
    all_pass = forms.ChoiceField(
        label=gettext_lazy("When everybody passes"),
        choices=[
            ("redeal", gettext_lazy("Redeal")),
            ("dealer_forced", gettext_lazy("Dealer bids")),
        ],
        widget=forms.RadioSelect,
    )
    settlement = forms.ChoiceField(
        label=gettext_lazy("Settling up"),
        choices=[
            ("chips", gettext_lazy("Chips")),
            ("pot", gettext_lazy("Pot")),
            ("none", gettext_lazy("None")),
        ],
        widget=forms.RadioSelect,
    )
    chips_per_setback = PlainIntegerField(
        label=gettext_lazy("Extra chips per setback"),
        help_text=gettext_lazy("Each loser pays 1 chip, 2 at zero or below, plus these."),
        min_value=0,
        max_value=99,
    )
    ante = PlainIntegerField(
        label=gettext_lazy("Pot ante, in chips"),
        help_text=gettext_lazy("Each loser pays it once, and again for each setback."),
        min_value=0,
        max_value=99,
    )
    chip_value = PlainDecimalField(
        label=gettext_lazy("Money per chip"),
        help_text=gettext_lazy("Optional: shown beside the settlement."),
        required=False,
        min_value=0,
        max_digits=8,
        decimal_places=2,
    )

    def __init__(self, *args: Any, club: Club, roster: Sequence[Player], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.club = club
        self.roster = list(roster)
        self.keys = [str(player.pk) for player in self.roster]
        names = {str(player.pk): player.name for player in self.roster}
        self.fields["players"].choices = list(names.items())
        self.fields["first_dealer"].choices = [
            ("", _("Whoever sits in seat 1")),
            *names.items(),
            (NEW, _("The new player")),
        ]
        teams = [("", _("No team")), *((n, self._team_label(n)) for n in TEAMS)]
        for key in [*self.keys, NEW]:
            name = names.get(key, _("the new player"))
            self.fields[f"seat_{key}"] = PlainIntegerField(
                label=_("Seat of %(name)s") % {"name": name},
                required=False,
                min_value=1,
                max_value=MAX_SEATS,
                widget=forms.NumberInput(attrs={"class": "seat", "inputmode": "numeric"}),
            )
            self.fields[f"team_{key}"] = forms.ChoiceField(
                label=_("Team of %(name)s") % {"name": name}, required=False, choices=teams
            )
        self.order: list[str] = []
        self.rules: Ruleset | None = None
        self.team_names: dict[str, str] = {}
        # The first dealer is offered among the players at the table only; a choice
        # sent for another is refused in clean(), by name.
        # The new player's line is always there to be typed in.
        offered = {"", NEW, *self._chosen()}
        dealer = self.fields["first_dealer"]
        dealer.widget.choices = [(k, label) for k, label in dealer.choices if k in offered]

    def _team_label(self, number: str) -> str:
        name = self[f"team_name_{number}"].value()
        return name.strip() if name and name.strip() else _("Team %(number)s") % {"number": number}

    # What the form shows, bound or not.

    def _chosen(self) -> list[str]:
        ticked = set(self["players"].value() or ())
        chosen = [key for key in self.keys if key in ticked]
        if self.name_typed:
            chosen.append(NEW)
        return chosen

    def _in_seat_order(self, keys: Sequence[str], seats: Mapping[str, int | None]) -> list[str]:
        # Unnumbered players go after the numbered ones, in roster order.
        rank = {key: index for index, key in enumerate([*self.keys, NEW])}
        return sorted(keys, key=lambda k: (seats[k] is None, seats[k] or 0, rank[k]))

    @property
    def rows(self) -> list[Row]:
        """The chosen players in seat order, then the line for a new player's name."""
        chosen = self._chosen()
        seats = {key: _seat(self[f"seat_{key}"].value()) for key in chosen}
        ordered = self._in_seat_order(chosen, seats)
        names = {str(player.pk): player.name for player in self.roster}
        rows = [
            Row(
                key,
                names.get(key),
                True,
                self[f"seat_{key}"],
                self[f"team_{key}"],
                first=index == 0,
                last=index == len(ordered) - 1,
            )
            for index, key in enumerate(ordered)
        ]
        if NEW not in chosen:
            rows.append(Row(NEW, None, False, self["seat_new"], self["team_new"]))
        return rows

    @property
    def others(self) -> list[Row]:
        """The rest of the roster."""
        chosen = self._chosen()
        return [
            Row(key, player.name, False, self[f"seat_{key}"], self[f"team_{key}"])
            for key, player in zip(self.keys, self.roster, strict=True)
            if key not in chosen
        ]

    @property
    def presets(self) -> list[tuple[forms.BoundField, str]]:
        """Each preset's radio button with its one-line description."""
        return [(radio, preset_description(radio.data["value"])) for radio in self["preset"]]

    @property
    def preset_groups(self) -> list[PresetGroup]:
        """The presets in their groups, in the groups' order (presets.GROUPS)."""
        radios = {radio.data["value"]: radio for radio in self["preset"]}
        picked = self["preset"].value()
        return [
            PresetGroup(
                key,
                label,
                picked in names,
                [(radios[name], preset_description(name)) for name in names],
            )
            for key, label, names in preset_groups()
        ]

    @property
    def settings_label(self) -> str:
        return preset_label(self["settings_for"].value() or DEFAULT_PRESET)

    @property
    def has_field_errors(self) -> bool:
        return any(name != NON_FIELD_ERRORS for name in self.errors)

    @property
    def name_typed(self) -> bool:
        """A name is in the new-player box, not yet added to the roster."""
        return bool((self["new_player"].value() or "").strip())

    @property
    def settings_stale(self) -> bool:
        """The settings were shown for another preset than the one now picked."""
        preset = self.data.get("preset")
        return preset in PRESETS and self.data.get("settings_for") != preset

    # Rearranging without starting: an unbound form with the same choices.

    def _raw(self) -> dict[str, Any]:
        return {name: self[name].value() for name in self.fields}

    def moved(self, move: str) -> GameForm:
        """The same choices with the seats numbered 1, 2, ... and one player moved a seat
        up or down: ``move`` is "<key>:up" or "<key>:down"."""
        initial = self._raw()
        chosen = self._chosen()
        order = self._in_seat_order(chosen, {k: _seat(initial[f"seat_{k}"]) for k in chosen})
        key, _colon, direction = move.partition(":")
        if key in order:
            here = order.index(key)
            there = here - 1 if direction == "up" else here + 1
            if 0 <= there < len(order):
                order[here], order[there] = order[there], order[here]
        for seat, key in enumerate(order, start=1):
            initial[f"seat_{key}"] = seat
        return GameForm(club=self.club, roster=self.roster, initial=initial)

    def picked(self) -> GameForm:
        """The same choices with a player just ticked seated after the others (and one
        just unticked out of the seats), so that seats follow the order of picking,
        whichever list the player was in; the first dealer is kept only if still at
        the table."""
        initial = self._raw()
        chosen = self._chosen()
        order = self._in_seat_order(chosen, {k: _seat(initial[f"seat_{k}"]) for k in chosen})
        for key in [*self.keys, NEW]:
            initial[f"seat_{key}"] = order.index(key) + 1 if key in order else None
        if initial.get("first_dealer") not in chosen:
            initial["first_dealer"] = ""
        return GameForm(club=self.club, roster=self.roster, initial=initial)

    def with_player(self) -> GameForm:
        """The same choices with the typed name added to the roster and seated after the
        others, and the box empty for the next name; or the same choices with the reason
        the name was refused, and nothing saved."""
        initial = self._raw()
        chosen = self._chosen()
        order = self._in_seat_order(chosen, {k: _seat(initial[f"seat_{k}"]) for k in chosen})
        try:
            player = player_add(club=self.club, name=initial["new_player"] or "")
        except ValidationError as error:
            form = GameForm(club=self.club, roster=self.roster, initial=initial)
            form.full_clean()
            form.cleaned_data = {}
            form.add_error("new_player", error)
            return form
        key = str(player.pk)
        order = [key if k == NEW else k for k in order] if NEW in order else [*order, key]
        initial |= {"players": [k for k in order if k != NEW], "new_player": ""}
        initial |= {f"seat_{k}": seat for seat, k in enumerate(order, start=1)}
        initial |= {f"team_{key}": initial["team_new"], "seat_new": None, "team_new": ""}
        if initial.get("first_dealer") == NEW:
            initial["first_dealer"] = key
        return GameForm(club=self.club, roster=[*self.roster, player], initial=initial)

    def with_preset(self, last_rules: Mapping[str, Any] | None) -> GameForm:
        """The same choices with the settings of the preset now picked."""
        preset = self.data.get("preset")
        preset = preset if preset in PRESETS else DEFAULT_PRESET
        initial = self._raw() | {"preset": preset, **preset_settings(preset, last_rules)}
        return GameForm(club=self.club, roster=self.roster, initial=initial)

    # Checking and starting.

    def clean_new_player(self) -> str:
        name = self.cleaned_data["new_player"]
        return player_name_check(name, club=self.club) if name.strip() else ""

    def clean_min_bid(self) -> int:
        min_bid = self.cleaned_data["min_bid"]
        preset = PRESETS.get(self.cleaned_data.get("preset", ""))
        if preset is not None and preset.max_bid is not None and min_bid > preset.max_bid:
            raise ValidationError(
                _("The lowest bid cannot be above %(highest)d, the highest bid in this game."),
                params={"highest": preset.max_bid},
            )
        return min_bid

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        chosen = [key for key in self.keys if key in data.get("players", ())]
        if data.get("new_player"):
            chosen.append(NEW)
        seats = {key: data.get(f"seat_{key}") for key in chosen}
        self.order = self._in_seat_order(chosen, seats)
        self._check_seats(seats)
        if len(self.order) < 2 and "players" not in self.errors:
            self.add_error("players", _("Pick at least two players."))
        if data.get("first_dealer") == NEW and NEW not in chosen:
            self.add_error(
                "first_dealer", _("Type the new player's name, or pick another first dealer.")
            )
        elif data.get("first_dealer") and data["first_dealer"] not in chosen:
            self.add_error(
                "first_dealer",
                _("%(name)s is not at this table: pick the first dealer among the players.")
                % {"name": self._name(data["first_dealer"])},
            )
        if all(name in data for name in ("preset", *SETTINGS)):
            try:
                self.rules = resolve_rules(
                    {"preset": data["preset"], **{name: data[name] for name in SETTINGS}}
                )
            except RuleError as error:
                self.add_rule_error(error)
        if self.rules is not None and self.rules.partnership:
            teams = {key: data.get(f"team_{key}") or "" for key in self.order}
            self.order = partners_opposite(self.order, teams)
            self._name_teams(data)
        return data

    def _check_seats(self, seats: Mapping[str, int | None]) -> None:
        taken: dict[int, str] = {}
        for key in self.order:
            seat = seats[key]
            if seat is None:
                continue
            if seat in taken:
                self.add_error(
                    f"seat_{key}",
                    _("%(first)s already sits in seat %(seat)d.")
                    % {"first": self._name(taken[seat]), "seat": seat},
                )
            taken[seat] = key

    def _name(self, key: str) -> str:
        if key == NEW:
            return self.cleaned_data["new_player"]
        return next(player.name for player in self.roster if str(player.pk) == key)

    def _name_teams(self, data: Mapping[str, Any]) -> None:
        members: dict[str, list[str]] = {}
        for key in self.order:
            if data.get(f"team_{key}"):
                members.setdefault(data[f"team_{key}"], []).append(self._name(key))
        players = [self._name(key) for key in self.order]
        teams: list[str] = []
        for number, names in members.items():
            typed = data.get(f"team_name_{number}") or ""
            try:
                name = name_clean(typed, limit=MAX_NAME_LENGTH, empty="")
            except ValidationError as error:
                if error.code != "required":
                    self.add_error(f"team_name_{number}", error)
                    continue
                name = team_name(names, number)
            try:
                # A team's name is read beside its players' on the scoreboard.
                name_unlike(
                    name,
                    players,
                    duplicate=_("A team cannot have a player's name."),
                    where=_("a player at this table"),
                )
                name_unlike(
                    name,
                    teams,
                    duplicate=_("Two teams cannot have the same name."),
                    where=_("the name of another team"),
                )
            except ValidationError as error:
                self.add_error(f"team_name_{number}", error)
            teams.append(name)
            self.team_names[number] = name

    def add_rule_error(self, error: RuleError) -> None:
        """The rules engine's objection, next to the field it is about."""
        field = RULE_FIELDS.get(error.field or "")
        if field is None and error.field in self.fields:
            field = error.field
        self.add_error(field, refusal_text(error, self.rules))

    def create(self) -> GameState | None:
        """The new game, or None with the reason added to the form's errors."""
        try:
            return self._create()
        except RuleError as error:
            self.add_rule_error(error)
        except ValidationError as error:
            # Somebody took the new player's name since the form was checked.
            self.add_error("new_player", error)
        return None

    @transaction.atomic
    def _create(self) -> GameState:
        # One transaction: a new player whose game is refused is not kept either.
        assert self.rules is not None
        data = self.cleaned_data
        players = {str(player.pk): player for player in self.roster}
        if data["new_player"]:
            players[NEW] = player_add(club=self.club, name=data["new_player"])
        teams: dict[str, list[Player]] = {}
        if self.rules.partnership:
            for key in self.order:
                if data[f"team_{key}"]:
                    teams.setdefault(self.team_names[data[f"team_{key}"]], []).append(players[key])
        seated = [players[key] for key in self.order]
        return game_create(
            players=seated,
            first_dealer=players[data["first_dealer"]] if data["first_dealer"] else seated[0],
            rules=self.rules,
            teams=teams,
            chip_value=data["chip_value"],
        )
