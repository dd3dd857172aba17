"""A number of chips in words, the one way every screen says it: the plural form goes
by the number without its sign, so that -1 is "-1 chip" ("-1 фишка", "-1 sjetong"),
as +1 and 1 are."""

from __future__ import annotations

from django.utils.formats import number_format
from django.utils.functional import Promise
from django.utils.translation import ngettext_lazy

# Each phrase that says chips, its plural form chosen by "count" (the number without
# its sign); "chips" is the number as shown.
CHIP_PHRASES: dict[str, Promise] = {
    "chips": ngettext_lazy("%(chips)s chip", "%(chips)s chips", "count"),
    "pays": ngettext_lazy(
        "%(payer)s pays %(payee)s %(chips)s chip",
        "%(payer)s pays %(payee)s %(chips)s chips",
        "count",
    ),
    "paid": ngettext_lazy(
        "%(date)s: %(payer)s paid %(payee)s %(chips)s chip",
        "%(date)s: %(payer)s paid %(payee)s %(chips)s chips",
        "count",
    ),
    "taken back": ngettext_lazy(
        "Taken back: %(payer)s paid %(payee)s %(chips)s chip.",
        "Taken back: %(payer)s paid %(payee)s %(chips)s chips.",
        "count",
    ),
}


def chips_said(chips: int, phrase: str = "chips", *, sign: bool = False, **words: str) -> str:
    """``chips`` in the words of ``phrase`` (a key of CHIP_PHRASES, its other
    placeholders from ``words``), in the reader's number format; with ``sign``, a gain
    is written with its plus (+3, 0, -2)."""
    shown = number_format(chips)
    if sign and chips > 0:
        shown = "+" + shown
    return CHIP_PHRASES[phrase] % {"count": abs(chips), "chips": shown, **words}
