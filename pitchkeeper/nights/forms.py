"""The forms of a night: starting one (who is here, the preset, how it runs), swapping
two players of a proposed round, and a player who comes or goes."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from pitchkeeper.clubs.models import Club, Player
from pitchkeeper.games.words import preset_label, refusal_text
from pitchkeeper.nights.models import Night
from pitchkeeper.nights.services import MOST_ROUNDS
from pitchkeeper.rules import PRESETS, RuleError
from pitchkeeper.rules.record import MAX_NAME_LENGTH, check_name


class NightForm(forms.Form):
    players = forms.ModelMultipleChoiceField(
        label=_("Who is here"),
        queryset=Player.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )
    new_players = forms.CharField(
        label=_("New players"),
        help_text=_("One name a line: each joins the club's roster."),
        widget=forms.Textarea(attrs={"rows": 2}),
        required=False,
        max_length=20 * (MAX_NAME_LENGTH + 1),
    )
    preset = forms.ChoiceField(label=_("Rules at every table"))
    rounds = forms.IntegerField(
        label=_("Rounds"),
        help_text=_("Leave it empty to play until you stop."),
        min_value=1,
        max_value=MOST_ROUNDS,
        required=False,
    )
    progressive = forms.BooleanField(
        label=_("Winners move up a table (cutthroat only)"), required=False
    )
    order = forms.ChoiceField(
        label=_("The night is won by"), choices=Night.Order.choices, initial=Night.Order.WINS
    )

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["players"].queryset = club.players.filter(retired=False).order_by("name")
        self.fields["preset"].choices = [(key, preset_label(key)) for key in PRESETS]

    def clean_new_players(self) -> list[str]:
        names = []
        for line in self.cleaned_data["new_players"].splitlines():
            if line.strip():
                try:
                    names.append(check_name(line, RuleError("player_name", {})))
                except RuleError as error:
                    raise forms.ValidationError(refusal_text(error)) from None
        return names

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        typed = data.get("new_players") or "new_players" in self.errors
        if not data.get("players") and not typed:
            self.add_error("players", _("Tick who is here, or type their names."))
        return data


class SwapForm(forms.Form):
    first = forms.TypedChoiceField(label=_("Swap"), coerce=int)
    second = forms.TypedChoiceField(label=_("with"), coerce=int)

    def __init__(self, *args: Any, players: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["first"].choices = players
        self.fields["second"].choices = players


class PlayerForm(forms.Form):
    """A player who goes (from those here), or who comes: from the roster, or a new
    player typed (``typed``), as on the new-night screen."""

    player = forms.TypedChoiceField(label=_("Player"), coerce=int, required=False)
    name = forms.CharField(
        label=_("or a new player"), max_length=MAX_NAME_LENGTH * 4, required=False
    )

    def __init__(
        self, *args: Any, players: list[tuple[int, str]], typed: bool = False, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = [("", "—"), *players] if typed else players
        if not typed:
            del self.fields["name"]

    def clean_name(self) -> str:
        name = self.cleaned_data["name"]
        if not name.strip():
            return ""
        try:
            return check_name(name, RuleError("player_name", {}))
        except RuleError as error:
            raise forms.ValidationError(refusal_text(error)) from None

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not data.get("player") and not data.get("name") and not self.errors:
            raise forms.ValidationError(_("Choose a player."))
        return data
