"""The table a new game starts from: the last game's players in their seats, their teams
and the deal one seat on, with the last game's settings if it had the same preset."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

from pitchkeeper.clubs.models import Player
from pitchkeeper.games.models import Game
from pitchkeeper.rules import DEFAULT_PRESET, PRESETS, resolve_rules
from pitchkeeper.rules.record import MAX_NAME_LENGTH

# A partnership table of four to six has two or three teams.
TEAMS = ("1", "2", "3")
# The ruleset settings the new-game form adjusts; the rest come from the preset.
SETTINGS = (
    "target",
    "min_bid",
    "dealer_may_steal",
    "all_pass",
    "settlement",
    "chips_per_setback",
    "ante",
)


def preset_settings(preset: str, last_rules: Mapping[str, Any] | None) -> dict[str, Any]:
    """The settings to offer with ``preset``: the last game's, if it was played with the
    same preset, otherwise the preset's own."""
    if last_rules is not None and last_rules.get("preset") == preset:
        rules = resolve_rules(last_rules)
    else:
        rules = PRESETS[preset]
    return {"settings_for": preset, **{name: getattr(rules, name) for name in SETTINGS}}


def team_name(members: Sequence[str], number: str) -> str:
    """A team nobody named is called after its players, as long as that fits (a lone
    player's name would be taken for the player's own)."""
    name = " & ".join(members)
    if len(members) < 2 or len(name) > MAX_NAME_LENGTH:
        return _("Team %(number)s") % {"number": number}
    return name


def initial_from(last: Game | None, roster: Sequence[Player]) -> dict[str, Any]:
    """The last game's table and rules again, with the deal moved one seat on.

    ``last`` must have its seats and their players prefetched.
    """
    if last is None:
        return {"preset": DEFAULT_PRESET, **preset_settings(DEFAULT_PRESET, None)}
    active = {player.pk for player in roster}
    seats = [seat for seat in last.seats.all() if seat.player_id in active]
    initial: dict[str, Any] = {
        "players": [str(seat.player_id) for seat in seats],
        "preset": last.rules["preset"],
        "chip_value": last.chip_value,
        **preset_settings(last.rules["preset"], last.rules),
    }
    numbers: dict[str, str] = {}
    for position, seat in enumerate(seats, start=1):
        initial[f"seat_{seat.player_id}"] = position
        if seat.team:
            numbers.setdefault(seat.team, TEAMS[len(numbers)])
            initial[f"team_{seat.player_id}"] = numbers[seat.team]
    for name, number in numbers.items():
        members = [seat.player.name for seat in seats if seat.team == name]
        # A name that was made up from the players is made up again from the new ones.
        if name != team_name(members, number):
            initial[f"team_name_{number}"] = name
    # The deal moves clockwise from the last game's first dealer, past retired players.
    everyone = list(last.seats.all())
    start = next(i for i, seat in enumerate(everyone) if seat.player_id == last.first_dealer_id)
    following = everyone[start + 1 :] + everyone[: start + 1]
    dealer = next((seat for seat in following if seat.player_id in active), None)
    if dealer is not None:
        initial["first_dealer"] = str(dealer.player_id)
    return initial


def partners_opposite(order: Sequence[str], teams: Mapping[str, str]) -> list[str]:
    """``order`` (players' keys in seat order) rearranged so that the teams alternate
    around the table, partners opposite, each team's players keeping their order: a
    table whose seats were left blank, or filled in the order the players were picked,
    is seated as a partnership game must be. Unchanged when a player has no team or
    the teams differ in size (the rules then say what is wrong)."""
    groups: dict[str, list[str]] = {}
    for key in order:
        if not teams.get(key):
            return list(order)
        groups.setdefault(teams[key], []).append(key)
    sizes = {len(members) for members in groups.values()}
    if len(sizes) != 1:
        return list(order)
    return [members[seat] for seat in range(sizes.pop()) for members in groups.values()]
