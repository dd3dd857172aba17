"""Re-rating from a game on reads only the games from it on: the filter is a range on
the finish time that the (club, finished_at, ...) indexes serve."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from unittest import mock

import pytest
from django.db import connection

from pitchkeeper.games.hands import hand_record
from pitchkeeper.rules import HandRecord
from pitchkeeper.seasons.models import GameLine, RatingPoint
from pitchkeeper.seasons.ratings import _after, _before

pytestmark = pytest.mark.django_db

NOON = datetime(2025, 6, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
def games(make_game) -> list[tuple[datetime, int]]:
    """(finish time, game id) of five won games: one before noon, three at noon, one after."""
    found = []
    for moment in (NOON - timedelta(hours=1), NOON, NOON, NOON, NOON + timedelta(hours=1)):
        game = make_game("setback", ("Ann", "Bob", "Cy")).game
        smudge = dict.fromkeys(("high", "low", "jack", "game"), "Bob")
        with mock.patch("django.utils.timezone.now", return_value=moment):
            hand_record(game=game, record=HandRecord(pitcher="Bob", bid=4, points=smudge))
        found.append((moment, game.pk))
    return found


def test_after_and_before_split_the_games_at_a_game(games):
    for since in games:
        after = {*GameLine.objects.filter(_after(since)).values_list("finished_at", "game_id")}
        before = {*GameLine.objects.filter(_before(since)).values_list("finished_at", "game_id")}
        assert after == {game for game in games if game >= since}
        assert before == {game for game in games if game < since}


@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's query plan")
@pytest.mark.parametrize("model", [GameLine, RatingPoint])
def test_the_games_from_one_on_are_found_by_a_range_on_the_index(games, model):
    query = model.objects.filter(_after(games[2]), club_id=1).query
    sql, params = query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN QUERY PLAN " + sql, params)
        plan = " ".join(row[-1] for row in cursor.fetchall())

    assert "(club_id=? AND finished_at>?)" in plan, plan
