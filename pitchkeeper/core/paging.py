"""Lists shown a page at a time: Django's Paginator, told whether a next page exists by
fetching one row more than a page rather than by counting the rows.

The lists paged (a club's games, its deleted games, a game's changes, a player's games)
grow without end; a COUNT of them on every page would be one query more than the pages
are documented and tested to cost, and would grow with the table (on SQLite, a game of
200,000 changes: 24 ms a COUNT, median of 30, more than a whole game screen takes). A
page beyond the last is shown empty (with its link back), as before, rather than refused."""

from __future__ import annotations

from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import QuerySet

from pitchkeeper.core.limits import page_number


class PeekPaginator(Paginator):
    """A Paginator whose ``count`` is known only as far as the page asked for: the rows
    before it, the page's own, and one more if there are more."""

    def page(self, number: Any) -> Page:
        """Page ``number`` (as ``?page=`` gives it: bounded by ``page_number``), in
        one query."""
        number = page_number(number)
        bottom = (number - 1) * self.per_page
        rows = list(self.object_list[bottom : bottom + self.per_page + 1])
        # Enough for num_pages, has_next and next_page_number: one page more when
        # the extra row came back. Set before anything asks Django's count for it.
        self.count = bottom + len(rows)
        return self._get_page(rows[: self.per_page], number, self)

    def validate_number(self, number: Any) -> int:
        # A page past the end is shown empty rather than raising EmptyPage.
        return page_number(number)


def page_of(rows: QuerySet[Any], number: str | int | None, per_page: int) -> Page:
    """Page ``number`` of ``rows`` (ordered), ``per_page`` to a page."""
    return PeekPaginator(rows, per_page).page(number)
