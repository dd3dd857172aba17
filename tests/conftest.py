"""Shared pytest fixtures for Pitchkeeper."""

from __future__ import annotations

from typing import Any

import pytest

from pitchkeeper.rules import FORMAT, resolve_rules
from pitchkeeper.services import GameState, game_create, roster


def example_record(**overrides: Any) -> dict[str, Any]:
    """A four-player setback record (the one in the format's documentation)."""
    data: dict[str, Any] = {
        "format": FORMAT,
        "rules": "setback",
        "players": ["Ann", "Bob", "Cy", "Dee"],
        "first_dealer": "Ann",
        "hands": [
            {
                "pitcher": "Bob",
                "bid": 3,
                "points": {"high": "Bob", "low": "Cy", "jack": None, "game": "Bob"},
            },
            {
                "auction": [["Cy", None], ["Dee", 2], ["Ann", 3], ["Bob", 3]],
                "points": {"high": "Bob", "low": "Cy", "jack": "Ann", "game": "Dee"},
                "revoked": ["Ann"],
            },
            {"misdeal": True},
            {"auction": [["Ann", None], ["Bob", None], ["Cy", None], ["Dee", None]]},
        ],
    }
    data.update(overrides)
    return data


@pytest.fixture
def game_data():
    """``game_data(hands=[...])``: the example record with some fields replaced."""
    return example_record


@pytest.fixture
def make_game(db):
    """A new game in the database: ``make_game("setback", ["Ann", "Bob", "Cy"])``."""

    def make(
        preset: str | dict[str, Any] = "setback",
        names: tuple[str, ...] = ("Ann", "Bob", "Cy", "Dee"),
        teams: dict[str, list[str]] | None = None,
    ) -> GameState:
        players = roster(list(names))
        return game_create(
            players=[players[name] for name in names],
            first_dealer=players[names[0]],
            rules=resolve_rules(preset),
            teams={team: [players[n] for n in members] for team, members in (teams or {}).items()},
        )

    return make
