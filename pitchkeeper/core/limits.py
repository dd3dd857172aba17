"""Bounds on what may be entered or asked for, far beyond real play and inside what every
part of the stack can hold: dates that stay dates in any time zone, chips that fit the
database's integer column, page numbers whose OFFSET fits the database's integers."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from django import forms
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


# A number as a person types it: ASCII digits, a minus sign, and for money a point.
# Python's int() and Decimal() also take "1_000", "٣" (other scripts' digits) and
# " 5\n", which nobody types into a score sheet and which must not pass for numbers.
PLAIN_INTEGER = re.compile(r"-?[0-9]+")
PLAIN_DECIMAL = re.compile(r"-?[0-9]+(\.[0-9]+)?")


def plain_int(value: Any) -> int:
    """``value`` as a whole number written in plain digits; ValueError otherwise."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if not isinstance(value, str) or not PLAIN_INTEGER.fullmatch(value.strip(" ")):
        raise ValueError(f"not a whole number in plain digits: {value!r}")
    return int(value)


class PlainDigits:
    """A form field mixin: the typed text must be plain digits (``pattern``) before the
    field reads it as a number."""

    pattern: re.Pattern[str]
    empty_values: list[Any]
    error_messages: dict[str, Any]

    def to_python(self, value: Any) -> Any:
        typed = isinstance(value, str) and value not in self.empty_values
        if typed and not self.pattern.fullmatch(value.strip(" ")):
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return super().to_python(value)  # type: ignore[misc]


class PlainIntegerField(PlainDigits, forms.IntegerField):
    pattern = PLAIN_INTEGER


class PlainDecimalField(PlainDigits, forms.DecimalField):
    pattern = PLAIN_DECIMAL


def page_number(value: str | None) -> int:
    """The page a ``?page=`` asks for, from 1 to LAST_PAGE: anything else is page 1, or
    the last one for a number beyond it."""
    try:
        number = plain_int(value or 1)
    except ValueError:
        return 1
    return min(max(1, number), LAST_PAGE)
