"""The statistics remember the time zone they were built in: a change of TIME_ZONE is
refused by ``manage.py check`` until ``stats_rebuild`` has built them again in it."""

from __future__ import annotations

from datetime import UTC, date, datetime
from unittest import mock

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import SystemCheckError
from django.test import override_settings

from pitchkeeper.clubs.services import club_create
from pitchkeeper.games.hands import hand_record
from pitchkeeper.rules import HandRecord
from pitchkeeper.seasons.models import GameLine, MonthLine, Season, StatsZone
from pitchkeeper.seasons.spans import span_for
from pitchkeeper.seasons.standings import leaderboard
from pitchkeeper.seasons.zone import stats_time_zone_check

pytestmark = pytest.mark.django_db

# The last evening of January in UTC is already the first morning of February in Tokyo.
EVENING = datetime(2024, 1, 31, 20, 0, tzinfo=UTC)
TOKYO = "Asia/Tokyo"


@pytest.fixture
def won(make_game, club):
    """A game Bob won by a smudge on EVENING, with its statistics built in UTC."""
    assert settings.TIME_ZONE == "UTC"
    game = make_game("setback", ("Ann", "Bob", "Cy")).game
    smudge = dict.fromkeys(("high", "low", "jack", "game"), "Bob")
    with mock.patch("django.utils.timezone.now", return_value=EVENING):
        hand_record(game=game, record=HandRecord(pitcher="Bob", bid=4, points=smudge))
    assert set(GameLine.objects.filter(game=game).values_list("month", flat=True)) == {
        date(2024, 1, 1)
    }
    return game


def february_games(club) -> int:
    february = Season.objects.create(
        club=club, name="February", start=date(2024, 2, 1), end=date(2024, 2, 29)
    )
    found = leaderboard(club=club, span=span_for(club=club, key=str(february.pk)))
    return sum(standing.games for standing in found.standings)


def test_a_new_club_records_the_zone_its_statistics_will_be_built_in(club):
    assert StatsZone.objects.get(club=club).time_zone == settings.TIME_ZONE


def test_the_same_zone_passes_the_check(won):
    assert stats_time_zone_check() == []
    call_command("check")


def test_a_changed_zone_is_refused_with_the_command_to_run(won, club):
    with override_settings(TIME_ZONE=TOKYO):
        [error] = stats_time_zone_check()
        with pytest.raises(SystemCheckError, match="manage.py stats_rebuild"):
            call_command("check")

    assert error.id == "pitchkeeper.E001"
    assert f"{club.name} (id {club.pk})" in error.msg
    assert "built in the time zone UTC, but TIME_ZONE is now Asia/Tokyo" in error.msg
    assert "`manage.py stats_rebuild`" in error.hint


def test_stats_rebuild_builds_them_in_the_new_zone_and_records_it(won, club):
    with override_settings(TIME_ZONE=TOKYO):
        # Before the rebuild, February in Tokyo would miss the game (it was counted in
        # January): the figures the check keeps from being shown.
        assert february_games(club) == 0

        call_command("stats_rebuild", stdout=mock.Mock())

        assert stats_time_zone_check() == []
        assert StatsZone.objects.get(club=club).time_zone == TOKYO
        months = {*GameLine.objects.values_list("month", flat=True)}
        months |= {*MonthLine.objects.values_list("month", flat=True)}
        assert months == {date(2024, 2, 1)}
        assert february_games(club) == 3
    # Back in UTC, the statistics are in Tokyo's months: refused again.
    assert len(stats_time_zone_check()) == 1


def test_a_club_without_statistics_does_not_block_a_change(club):
    other = club_create(name="Empty", owner=club.memberships.get().user)
    StatsZone.objects.filter(club=other).update(time_zone="Europe/Oslo")

    with override_settings(TIME_ZONE=TOKYO):
        assert stats_time_zone_check() == []


def test_statistics_with_no_recorded_zone_are_refused(won, club):
    StatsZone.objects.filter(club=club).delete()

    [error] = stats_time_zone_check()

    assert "(not recorded)" in error.msg
