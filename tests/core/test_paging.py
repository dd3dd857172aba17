"""Paging: Django's Paginator told of a next page by one row more, in one query."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from pitchkeeper.clubs.models import Player
from pitchkeeper.core.limits import LAST_PAGE
from pitchkeeper.core.paging import page_of


@pytest.fixture
def players(club):
    Player.objects.bulk_create(Player(club=club, name=f"P{index:02}") for index in range(7))
    return Player.objects.filter(club=club).order_by("name")


@pytest.mark.parametrize(
    ("number", "names", "older", "newer"),
    [
        (None, ["P00", "P01", "P02"], 2, None),
        ("2", ["P03", "P04", "P05"], 3, 1),
        ("3", ["P06"], None, 2),
        # Past the end: empty, with the way back; nonsense is page 1.
        ("9", [], None, 8),
        (str(LAST_PAGE + 5), [], None, LAST_PAGE - 1),
        ("x", ["P00", "P01", "P02"], 2, None),
    ],
)
def test_page_of(players, number, names, older, newer):
    with CaptureQueriesContext(connection) as queries:
        page = page_of(players, number, 3)
        assert [player.name for player in page] == names
        assert (page.next_page_number() if page.has_next() else None) == older
        assert (page.previous_page_number() if page.has_previous() else None) == newer
    # No COUNT: the rows and one more, in one query.
    assert len(queries) == 1
