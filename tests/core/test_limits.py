"""The shared bounds: page numbers from any text, and the days a season may have."""

from __future__ import annotations

from datetime import timedelta

import pytest

from pitchkeeper.core.limits import FIRST_DAY, LAST_DAY, LAST_PAGE, page_number


@pytest.mark.parametrize(
    ("value", "page"),
    [
        (None, 1),
        ("", 1),
        ("3", 3),
        (" 7 ", 7),
        # Plain digits only: not other scripts' digits, nor Python's "1_000".
        ("１２", 1),
        ("٣", 1),
        ("1_000", 1),
        ("+3", 1),
        ("0", 1),
        ("-5", 1),
        ("x", 1),
        ("1.5", 1),
        ("1e9", 1),
        ("\x00", 1),
        (str(LAST_PAGE), LAST_PAGE),
        (str(LAST_PAGE + 1), LAST_PAGE),
        ("9" * 23, LAST_PAGE),
        (str(2**63), LAST_PAGE),
        ("9" * 5000, 1),
    ],
)
def test_page_number(value, page):
    assert page_number(value) == page


def test_a_day_past_either_bound_is_still_a_date():
    # A season's span reaches one day past its end, and a time zone shifts a day either way.
    assert (LAST_DAY + timedelta(days=2)).year == LAST_DAY.year + 1
    assert (FIRST_DAY - timedelta(days=2)).year == FIRST_DAY.year - 1
