"""A club's backup past the bounds: times at the ends of the calendar or that are no
time at all, names that hide characters or copy another's in other letters; refused with
the game named, nothing saved, and the home page of what is restored always answers."""

from __future__ import annotations

import pytest
from django.test import override_settings

from pitchkeeper.backups.services import club_export, club_import
from pitchkeeper.games.services import games_import
from tests.backups.test_backup import SMUDGE, import_refusal
from tests.conftest import sign_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def full_club(club, game_data):
    """A club of two games: one in progress, one over."""
    over = game_data(players=["Ann", "Bob", "Cy"])
    over["hands"] = [{"pitcher": "Bob", "bid": 4, "points": SMUDGE}]
    games_import(club=club, games=[game_data(), over])
    return club


BEYOND = {
    "finished on the first day of the calendar": (
        lambda d: d["games"][1].update(finished_at="0001-01-01T00:00:00+00:00"),
        'game 2: "finished_at" must be between 1900-01-01 and 2999-12-31',
    ),
    "created on the last day of the calendar": (
        lambda d: d["games"][0].update(created="9999-12-31T23:59:59-12:00"),
        'game 1: "created" must be between',
    ),
    "deleted on February 30th": (
        lambda d: d["games"][0].update(deleted_at="2024-02-30T10:00:00+00:00"),
        'game 1: "deleted_at": “2024-02-30T10:00:00+00:00” value has the correct format',
    ),
    "an offset of 99 hours": (
        lambda d: d["games"][0].update(created="2024-01-01T10:00:00+99:00"),
        'game 1: "created": “2024-01-01T10:00:00+99:00” value has the correct format',
    ),
    "a player with a zero-width space": (
        lambda d: d["players"].append({"name": "Ann\u200b"}),
        "invisible or control character (U+200B ZERO WIDTH SPACE)",
    ),
    "a player in full-width letters beside the plain one": (
        lambda d: d["players"].append({"name": "ＡＮＮ"}),
        "There is already a player of that name",
    ),
}


@pytest.mark.parametrize("case", BEYOND)
def test_a_backup_past_the_bounds_is_refused(full_club, user, case):
    change, message = BEYOND[case]
    assert message in import_refusal(full_club, user, change)


@override_settings(TIME_ZONE="America/Los_Angeles")
def test_the_earliest_and_latest_times_allowed_show_in_a_western_time_zone(full_club, user, client):
    data = club_export(club=full_club)
    data["games"][1]["finished_at"] = "1900-01-02T00:00:00+00:00"
    data["games"][1]["created"] = "1900-01-02T00:00:00+00:00"
    data["games"][0]["created"] = "2999-12-30T23:59:59+00:00"

    restored = club_import(data=data, owner=user)

    sign_in(client, user, restored.club)
    assert client.get("/").status_code == 200
    assert client.get("/", {"page": "2"}, HTTP_HX_REQUEST="true").status_code == 200
