"""A player's page: their figures over a span, rating history, bids and opponents."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from pitchkeeper.clubs.access import club_player, club_view
from pitchkeeper.core.limits import page_number
from pitchkeeper.core.pages import is_partial
from pitchkeeper.games.words import point_name, preset_label
from pitchkeeper.seasons.ratings import ratings_pending
from pitchkeeper.seasons.standings import AtTable, bid_order, player_stats
from pitchkeeper.seasons.views.shared import (
    decimal,
    percent,
    season_picker,
    signed,
    span_of,
    span_query,
)

CHART_WIDTH, CHART_HEIGHT, CHART_PAD = 320, 160, 14


BAR_HEIGHT, BAR_GAP, BAR_LABEL, BAR_TEXT = 22, 8, 56, 96


@dataclass(frozen=True)
class RatingChart:
    width: int
    height: int
    line: str
    band: str
    top: str
    bottom: str
    top_y: float
    bottom_y: float
    first: datetime
    last: datetime


def rating_chart(points: list[tuple[datetime, float, float]]) -> RatingChart | None:
    """The rating after each game as a line, its uncertainty (±σ) as a band (a long
    history comes thinned from standings.player_stats)."""
    if len(points) < 2:
        return None
    high = max(mu + sigma for _at, mu, sigma in points)
    low = min(mu - sigma for _at, mu, sigma in points)
    span = (high - low) or 1
    right = CHART_WIDTH - CHART_PAD

    def x(index: int) -> float:
        return round(CHART_PAD + index * (right - CHART_PAD) / (len(points) - 1), 1)

    def y(value: float) -> float:
        return round(CHART_PAD + (high - value) * (CHART_HEIGHT - 2 * CHART_PAD) / span, 1)

    upper = [f"{x(i)},{y(mu + sigma)}" for i, (_at, mu, sigma) in enumerate(points)]
    lower = [f"{x(i)},{y(mu - sigma)}" for i, (_at, mu, sigma) in enumerate(points)]
    return RatingChart(
        CHART_WIDTH,
        CHART_HEIGHT,
        " ".join(f"{x(i)},{y(mu)}" for i, (_at, mu, _s) in enumerate(points)),
        " ".join(upper + lower[::-1]),
        decimal(high, 1),
        decimal(low, 1),
        y(high),
        y(low),
        points[0][0],
        points[-1][0],
    )


@dataclass(frozen=True)
class Bar:
    bid: str
    made: int
    of: int
    share: str
    y: float
    width: float


@dataclass(frozen=True)
class BarChart:
    width: int
    height: int
    bars: list[Bar]
    label_x: int
    text_x: int


def bid_chart(bids: dict[str, tuple[int, int]]) -> BarChart | None:
    """Bids made as a share of bids, a bar per bid size."""
    if not bids:
        return None
    room = CHART_WIDTH - BAR_LABEL - BAR_TEXT
    bars = []
    for row, key in enumerate(sorted(bids, key=bid_order)):
        made, of = bids[key]
        bars.append(
            Bar(
                key,
                made,
                of,
                percent(made / of),
                row * (BAR_HEIGHT + BAR_GAP) + BAR_GAP,
                round(room * made / of, 1),
            )
        )
    height = len(bars) * (BAR_HEIGHT + BAR_GAP) + BAR_GAP
    return BarChart(CHART_WIDTH, height, bars, BAR_LABEL, CHART_WIDTH - BAR_TEXT + 6)


@require_GET
@club_view()
def player_page(request: HttpRequest, pk: int) -> HttpResponse:
    """One player over the season: games, form, bids by size, points by kind, partners
    and opponents, streaks. ``?page=N`` shows older games (htmx appends just those)."""
    player = club_player(request, pk)
    span = span_of(request)
    page = page_number(request.GET.get("page"))
    found = player_stats(player=player, span=span, page=page)
    standing = found.standing
    context = {
        **season_picker(request, span),
        "rerating": ratings_pending(club_id=player.club_id),
        "player": player,
        "stats": found,
        "standing": standing,
        "chips": signed(standing.chips) if standing else None,
        # Plural forms ("1 очко", "-2 очка") go by the number without its sign.
        "games": [
            (
                line,
                preset_label(line.preset or ""),
                abs(line.score),
                *_at_table(found.tables[line.game_id]),
            )
            for line in found.games
        ],
        "older": span_query(span, page=page + 1) if found.more else None,
        "rating_chart": rating_chart(found.history),
        "bid_chart": bid_chart(standing.by_bid) if standing else None,
        "points": [
            (point_name(key), count, of, percent(count / of))
            for key, (count, of) in sorted(standing.by_category.items(), key=_point_order)
        ]
        if standing
        else [],
    }
    if is_partial(request) and page > 1:
        return render(request, "seasons/player.html#games", context)
    template = "seasons/player.html#stats" if is_partial(request) else "seasons/player.html"
    return render(request, template, context)


def _at_table(lines: list[AtTable]) -> tuple[str, str]:
    """Who won a game (a team by its name; empty for a draw) and who played it."""
    winners = dict.fromkeys(line.side if line.team else line.name for line in lines if line.won)
    return ", ".join(winners), ", ".join(line.name for line in lines)


def _point_order(item: tuple[str, tuple[int, int]]) -> tuple[int, str]:
    order = ("high", "low", "jack", "game")
    return (order.index(item[0]), "") if item[0] in order else (9, item[0])
