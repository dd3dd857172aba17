"""Fixtures of the season tests."""

from __future__ import annotations

import pytest

from pitchkeeper.clubs.models import Player
from tests.seasons.test_stats import smudge_game, team_game


@pytest.fixture
def season_games(make_game, club):
    """A setback game Bob wins and a team game Ann and Cy win."""
    smudge_game(make_game)
    team_game(make_game)
    return Player.objects.get(name="Bob")
