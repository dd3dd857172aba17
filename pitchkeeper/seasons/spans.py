"""Which stretch of time a statistics page reads: a season, a month range or all time,
and which whole months and part-months that takes."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from django.db.models import Q
from django.utils import timezone

from pitchkeeper.clubs.models import Club
from pitchkeeper.seasons.models import (
    Season,
)


@dataclass(frozen=True)
class Span:
    """The days a page covers: a season, or all time (``season`` None)."""

    season: Season | None
    start: date | None = None
    end: date | None = None

    @property
    def key(self) -> str:
        return str(self.season.pk) if self.season else "all"

    @property
    def all_time(self) -> bool:
        return self.start is None and self.end is None

    def bounds(self) -> tuple[datetime | None, datetime | None]:
        """The first moment in it and the first one after it, in TIME_ZONE."""
        zone = timezone.get_current_timezone()
        low = datetime.combine(self.start, time.min, zone) if self.start else None
        high = datetime.combine(self.end + timedelta(days=1), time.min, zone) if self.end else None
        return low, high

    def moments(self) -> Q:
        low, high = self.bounds()
        q = Q()
        if low:
            q &= Q(finished_at__gte=low)
        if high:
            q &= Q(finished_at__lt=high)
        return q

    def parts(self) -> tuple[Q, Q]:
        """The rollup months wholly inside, and the per-game rows of the part-months at
        the edges: together, every day of the span exactly once."""
        first = None if self.start is None else _month_on_or_after(self.start)
        after_end = None if self.end is None else self.end + timedelta(days=1)
        last = None if after_end is None else after_end.replace(day=1)
        if first is not None and last is not None and first >= last:
            return Q(pk__in=[]), self.moments()
        months = Q()
        if first is not None:
            months &= Q(month__gte=first)
        if last is not None:
            months &= Q(month__lt=last)
        edges = Q(pk__in=[])
        if self.start is not None and first != self.start:
            edges |= Span(None, self.start, first - timedelta(days=1)).moments()
        if after_end is not None and last != after_end:
            edges |= Span(None, last, self.end).moments()
        return months, edges


def _month_on_or_after(day: date) -> date:
    return day if day.day == 1 else _next_month(day)


def _next_month(day: date) -> date:
    return (day.replace(day=28) + timedelta(days=4)).replace(day=1)


def whole_months(first: date, last: date) -> Span:
    """The months from ``first``'s to ``last``'s, whole."""
    return Span(None, first.replace(day=1), _next_month(last) - timedelta(days=1))


def span_for(*, club: Club, key: str | None, today: date | None = None) -> Span:
    """The span a page asks for: ``key`` a season's id or "all"; none, the current
    season (the latest begun one that has not ended), else all time. A season of
    another club is not found (Season.DoesNotExist)."""
    if key == "all":
        return Span(None)
    if key:
        season = Season.objects.get(club=club, pk=int(key))
    else:
        today = today or timezone.localdate()
        season = (
            Season.objects.filter(club=club, start__lte=today)
            .filter(Q(end__isnull=True) | Q(end__gte=today))
            .order_by("-start", "-pk")
            .first()
        )
        if season is None:
            return Span(None)
    return Span(season, season.start, season.end)
