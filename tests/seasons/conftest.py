"""Fixtures of the season tests."""

from __future__ import annotations

from functools import partial

import pytest

from pitchkeeper.clubs.models import Player
from tests.seasons.test_stats import smudge_game, team_game


@pytest.fixture
def season_games(make_game, club):
    """A setback game Bob wins and a team game Ann and Cy win."""
    smudge_game(make_game)
    team_game(make_game)
    return Player.objects.get(name="Bob")


@pytest.fixture
def queued(settings, django_capture_on_commit_callbacks):
    """Every change leaves its re-rating to the task queue (no game re-rated at once,
    one game a step, the shortest pause between steps), and ``with queued(): change()``
    runs what the change queued as the block ends: a test's transaction never commits,
    so the tasks a commit would queue are run then, through the test settings'
    immediate backend."""
    settings.RERATE_INLINE_GAMES = 0
    settings.RERATE_STEP_GAMES = 1
    settings.RERATE_PAUSE_MS = 0
    return partial(django_capture_on_commit_callbacks, execute=True)
