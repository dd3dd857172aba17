"""What every statistics page shares: the span read from the query, the season picker,
and the way figures are written."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.http import Http404, HttpRequest
from django.utils.formats import number_format
from django.utils.http import urlencode

from pitchkeeper.clubs.access import ROLES_FOR
from pitchkeeper.clubs.models import Club
from pitchkeeper.seasons.models import Season
from pitchkeeper.seasons.spans import Span, span_for

NONE = "—"


def span_of(request: HttpRequest) -> Span:
    """The span the page asks for with ``?season=``: 404 for another club's season."""
    try:
        return span_for(club=club_of(request), key=request.GET.get("season"))
    except (Season.DoesNotExist, ValueError):
        raise Http404 from None


def club_of(request: HttpRequest) -> Club:
    """The club the request is made in (the member's, checked by the access rules)."""
    return request.membership.club  # type: ignore[attr-defined]


def span_query(span: Span, **more: Any) -> str:
    """The query string that keeps ``span`` (and ``more``) on a link."""
    return "?" + urlencode({"season": span.key, **more})


def season_picker(request: HttpRequest, span: Span) -> dict[str, Any]:
    """What every season page shows above its figures: which span, and the others."""
    return {
        "span": span,
        "seasons": list(Season.objects.filter(club=club_of(request))),
        "query": span_query(span),
        "can_score": request.membership.role in ROLES_FOR["score"],  # type: ignore[attr-defined]
        "is_owner": request.membership.role in ROLES_FOR["own"],  # type: ignore[attr-defined]
    }


def percent(value: float | None) -> str:
    return NONE if value is None else f"{decimal(value * 100, 0)}%"


def decimal(value: float | None, places: int = 2) -> str:
    """``value`` to ``places`` decimals, rounded half up as the floatformat filter does
    (number_format alone cuts 0.909 to 0.90), in the reader's number format."""
    if value is None:
        return NONE
    rounded = Decimal(repr(value)).quantize(Decimal(1).scaleb(-places), ROUND_HALF_UP)
    return number_format(rounded, places)


def signed(value: int) -> str:
    """A number of chips with its sign: +3, 0, -2."""
    return f"+{value}" if value > 0 else str(value)


def money(chips: int, value: Decimal | None) -> str | None:
    return None if value is None else number_format(chips * value, 2)
