"""The leaderboard: every player's standing over a span, sortable by any column."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from pitchkeeper.clubs.access import club_view
from pitchkeeper.core.pages import is_partial
from pitchkeeper.games.words import point_name
from pitchkeeper.seasons.ratings import ratings_pending
from pitchkeeper.seasons.standings import (
    Leaderboard,
    Standing,
    leaderboard,
)
from pitchkeeper.seasons.views.export import EXPORTS
from pitchkeeper.seasons.views.shared import (
    NONE,
    club_of,
    decimal,
    percent,
    season_picker,
    signed,
    span_of,
    span_query,
)


@dataclass(frozen=True)
class Column:
    """A leaderboard column: what it sorts by, what it shows, and whether in team games
    its figure is the team's, counted for each member."""

    key: str
    label: str
    sort: Callable[[Standing], float | tuple[float, float] | None]
    text: Callable[[Standing], str]
    team: bool = False
    low_first: bool = False
    short: str = ""
    # What the board says it is ranked by, where that is more than the heading.
    ranking: str = ""

    @property
    def ranked_by(self) -> str:
        return self.ranking or self.label


# What a casual table expects at the top: the most wins, ties broken by chips.
DEFAULT_SORT = "wins"
# The figures a casual table looks at first, on each player's line; the rest, and the
# figure sorted by, are a tap away.
HEADLINE = ("wins", "games", "chips")


def _columns(board: Leaderboard) -> list[Column]:
    columns = [
        Column(
            "wins",
            _("Wins"),
            lambda s: (s.wins, s.chips),
            lambda s: _with_team(s.wins, s.team_wins),
            True,
            ranking=_("wins, then net chips"),
        ),
        Column("chips", _("Net chips"), lambda s: s.chips, lambda s: signed(s.chips), True),
        Column(
            "rating",
            _("Rating"),
            lambda s: s.rating,
            lambda s: NONE if s.mu is None else f"{decimal(s.mu, 1)} ± {decimal(s.sigma, 1)}",
            ranking=_("the cautious rating (rating less three times its uncertainty)"),
        ),
        Column("games", _("Games"), lambda s: s.games, lambda s: _with_team(s.games, s.team_games)),
        Column(
            "win_rate", _("Win rate"), lambda s: s.win_rate, lambda s: percent(s.win_rate), True
        ),
        Column(
            "place",
            _("Average place"),
            lambda s: s.average_place,
            lambda s: decimal(s.average_place),
            True,
            low_first=True,
        ),
        Column(
            "points",
            _("Points per hand"),
            lambda s: s.points_per_hand,
            lambda s: decimal(s.points_per_hand),
            True,
        ),
        Column("pitched", _("Hands pitched"), lambda s: s.pitched, lambda s: str(s.pitched)),
        Column(
            "bids",
            _("Bids made"),
            lambda s: s.bid_share,
            lambda s: f"{percent(s.bid_share)} ({s.made}/{s.bids})" if s.bids else NONE,
        ),
    ]
    for key in board.bids:
        columns.append(
            Column(
                f"bid:{key}",
                _("Made at %(bid)s") % {"bid": key},
                lambda s, key=key: s.bid_rate(key),
                lambda s, key=key: _share(s.by_bid.get(key)),
            )
        )
    columns += [
        Column("set_back", _("Set back"), lambda s: s.set_back, lambda s: str(s.set_back), True),
        Column("in_hole", _("In the hole"), lambda s: s.in_hole, lambda s: str(s.in_hole), True),
        Column(
            "smudges",
            _("Smudges made"),
            lambda s: s.smudges_made,
            lambda s: f"{s.smudges_made}/{s.smudges}",
        ),
        Column("revokes", _("Revokes"), lambda s: s.revokes, lambda s: str(s.revokes), True),
    ]
    for key in board.categories:
        columns.append(
            Column(
                f"cat:{key}",
                _("%(point)s per hand") % {"point": point_name(key)},
                lambda s, key=key: s.category_rate(key),
                lambda s, key=key: percent(s.category_rate(key)),
                True,
            )
        )
    return columns


def _with_team(total: int, team: int) -> str:
    return f"{total} ({team})" if team else str(total)


def _share(tally: tuple[int, int] | None) -> str:
    if not tally or not tally[1]:
        return NONE
    return f"{percent(tally[0] / tally[1])} ({tally[0]}/{tally[1]})"


def _sorted(board: Leaderboard, columns: list[Column], sort: str) -> tuple[list[Standing], str]:
    """The standings in the asked order (best first; "-key" the other way), players
    without the figure last; an unknown column sorts by the default."""
    reverse = sort.startswith("-")
    by = {column.key: column for column in columns}
    column = by.get(sort.removeprefix("-")) or by[DEFAULT_SORT]
    best_first = not column.low_first
    if reverse:
        best_first = not best_first
    known = [s for s in board.standings if column.sort(s) is not None]
    unknown = [s for s in board.standings if column.sort(s) is None]
    known.sort(key=lambda s: s.name.casefold())
    known.sort(key=lambda s: column.sort(s), reverse=best_first)  # type: ignore[arg-type, return-value]
    return known + sorted(unknown, key=lambda s: s.name.casefold()), (
        ("-" if reverse else "") + column.key
    )


@require_GET
@club_view()
def leaderboard_page(request: HttpRequest) -> HttpResponse:
    """The season's leaderboard, sorted by any column (``?sort=wins``, ``-wins``)."""
    span = span_of(request)
    board = leaderboard(club=club_of(request), span=span)
    columns = _columns(board)
    standings, sort = _sorted(board, columns, request.GET.get("sort", DEFAULT_SORT))
    by_key = {column.key: column for column in columns}
    sorted_by = sort.removeprefix("-")
    headline = [by_key[key] for key in dict.fromkeys((*HEADLINE, sorted_by))]
    context = {
        **season_picker(request, span),
        "rerating": ratings_pending(club_id=club_of(request).pk),
        "columns": columns,
        "rows": [
            {
                "standing": s,
                "headline": [(c.label, c.text(s)) for c in headline],
                "figures": [(c, c.text(s)) for c in columns],
            }
            for s in standings
        ],
        "sort": sort,
        "sorted_by": sorted_by,
        "other_way": span_query(span, sort=sorted_by if sort.startswith("-") else f"-{sort}"),
        "ranked_by": by_key[sorted_by].ranked_by,
        "reversed": sort.startswith("-"),
        "exports": [(name, span_query(span)) for name in EXPORTS],
    }
    template = (
        "seasons/leaderboard.html#board" if is_partial(request) else "seasons/leaderboard.html"
    )
    return render(request, template, context)
