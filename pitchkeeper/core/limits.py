"""Bounds on what may be entered or asked for, far beyond real play and inside what every
part of the stack can hold: dates that stay dates in any time zone, chips that fit the
database's integer column, page numbers whose OFFSET fits the database's integers."""

from __future__ import annotations

from datetime import date

from django.core.validators import MaxValueValidator, MinValueValidator

# A day a season or a game may fall on. Python's dates end at 9999-12-31, and a day or a
# time zone beyond them overflows (a season ending 9999-12-31 broke every statistics page).
FIRST_DAY = date(1900, 1, 1)
LAST_DAY = date(2999, 12, 31)
DAY_VALIDATORS = [MinValueValidator(FIRST_DAY), MaxValueValidator(LAST_DAY)]

# The most chips one payment may carry: PostgreSQL's integer, the smaller of the two
# databases' integer columns.
MOST_CHIPS = 2**31 - 1

# Far beyond any club's games, and small enough that a page's OFFSET fits the database's
# integers (a larger one was a 500).
LAST_PAGE = 10**9


def page_number(value: str | None) -> int:
    """The page a ``?page=`` asks for, from 1 to LAST_PAGE: anything else is page 1, or
    the last one for a number beyond it."""
    try:
        number = int(value or 1)
    except ValueError:
        return 1
    return min(max(1, number), LAST_PAGE)
