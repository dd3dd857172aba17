"""Seasons: the leaderboard, a player's page, the chip ledger, exports, and the seasons
themselves. Every figure is read from the derived rows pitchkeeper.stats keeps; these
views only choose, word and arrange them."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from pitchkeeper.access import ROLES_FOR, club_player, club_view, member_game
from pitchkeeper.display import CATEGORY_LABELS, preset_label
from pitchkeeper.models import Club, Game, Hand, Player, Season
from pitchkeeper.rules import PRESETS
from pitchkeeper.services import games_replayed
from pitchkeeper.stats import (
    Leaderboard,
    Span,
    Standing,
    bid_order,
    leaderboard,
    ledger,
    payment_record,
    player_stats,
    season_games,
    span_for,
    stats_game_counts,
)

# The engine's own names for the points no translation covers yet.
ENGINE_LABELS = {c.key: c.label for rules in PRESETS.values() for c in rules.categories}
EXPORTS = ("leaderboard.csv", "hands.csv", "games.json")
EXPORT_CHUNK = 200
NONE = "—"


def category_name(key: str) -> str:
    return str(CATEGORY_LABELS.get(key, ENGINE_LABELS.get(key, key)))


def _span(request: HttpRequest) -> Span:
    """The span the page asks for with ``?season=``: 404 for another club's season."""
    try:
        return span_for(club=_club(request), key=request.GET.get("season"))
    except (Season.DoesNotExist, ValueError):
        raise Http404 from None


def _club(request: HttpRequest) -> Club:
    return request.membership.club  # type: ignore[attr-defined]


def _query(span: Span, **more: Any) -> str:
    return "?" + urlencode({"season": span.key, **more})


def _partial(request: HttpRequest) -> bool:
    """Whether to answer with the page's part only: htmx asked, and not to restore a
    page from its history (which needs all of it)."""
    return bool(request.htmx) and not request.htmx.history_restore_request  # type: ignore[attr-defined]


def _picker(request: HttpRequest, span: Span) -> dict[str, Any]:
    """What every season page shows above its figures: which span, and the others."""
    return {
        "span": span,
        "seasons": list(Season.objects.filter(club=_club(request))),
        "query": _query(span),
        "can_score": request.membership.role in ROLES_FOR["score"],  # type: ignore[attr-defined]
        "is_owner": request.membership.role in ROLES_FOR["own"],  # type: ignore[attr-defined]
    }


# ---- Numbers in the reader's language ----


def percent(value: float | None) -> str:
    return NONE if value is None else f"{number_format(round(value * 100))}%"


def decimal(value: float | None, places: int = 2) -> str:
    return NONE if value is None else number_format(value, places)


def money(chips: int, value: Decimal | None) -> str | None:
    return None if value is None else number_format(chips * value, 2)


# ---- The leaderboard ----


@dataclass(frozen=True)
class Column:
    """A leaderboard column: what it sorts by, what it shows, and whether in team games
    its figure is the team's, counted for each member."""

    key: str
    label: str
    sort: Callable[[Standing], float | None]
    text: Callable[[Standing], str]
    team: bool = False
    low_first: bool = False
    short: str = ""


def _columns(board: Leaderboard) -> list[Column]:
    columns = [
        Column(
            "rating",
            _("Rating"),
            lambda s: s.rating,
            lambda s: NONE if s.mu is None else f"{decimal(s.mu, 1)} ± {decimal(s.sigma, 1)}",
        ),
        Column("games", _("Games"), lambda s: s.games, lambda s: _with_team(s.games, s.team_games)),
        Column(
            "wins", _("Wins"), lambda s: s.wins, lambda s: _with_team(s.wins, s.team_wins), True
        ),
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
                _("%(point)s per hand") % {"point": category_name(key)},
                lambda s, key=key: s.category_rate(key),
                lambda s, key=key: percent(s.category_rate(key)),
                True,
            )
        )
    columns.append(
        Column("chips", _("Net chips"), lambda s: s.chips, lambda s: _signed(s.chips), True)
    )
    return columns


def _with_team(total: int, team: int) -> str:
    return f"{total} ({team})" if team else str(total)


def _share(tally: tuple[int, int] | None) -> str:
    if not tally or not tally[1]:
        return NONE
    return f"{percent(tally[0] / tally[1])} ({tally[0]}/{tally[1]})"


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


def _sorted(board: Leaderboard, columns: list[Column], sort: str) -> tuple[list[Standing], str]:
    """The standings in the asked order (best first; "-key" the other way), players
    without the figure last; an unknown column sorts by rating."""
    reverse = sort.startswith("-")
    by = {column.key: column for column in columns}
    column = by.get(sort.removeprefix("-")) or by["rating"]
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
    span = _span(request)
    board = leaderboard(club=_club(request), span=span)
    columns = _columns(board)
    standings, sort = _sorted(board, columns, request.GET.get("sort", "rating"))
    headers = [
        {
            "column": column,
            "sorted": sort.removeprefix("-") == column.key,
            "descending": (sort.startswith("-") == column.low_first),
            "link": _query(span, sort=column.key if sort != column.key else f"-{column.key}"),
        }
        for column in columns
    ]
    context = {
        **_picker(request, span),
        "headers": headers,
        "rows": [(s, [c.text(s) for c in columns]) for s in standings],
        "sort": sort,
        "exports": [(name, _query(span)) for name in EXPORTS],
    }
    template = "leaderboard.html#board" if _partial(request) else "leaderboard.html"
    return render(request, template, context)


# ---- A player's page ----

CHART_WIDTH, CHART_HEIGHT, CHART_PAD = 320, 160, 14
CHART_POINTS = 120
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


def rating_chart(history: list[tuple[datetime, float, float]]) -> RatingChart | None:
    """The rating after each game as a line, its uncertainty (±σ) as a band; a long
    history is thinned to CHART_POINTS evenly spaced games, the last one kept."""
    if len(history) < 2:
        return None
    step = max(1, -(-len(history) // CHART_POINTS))
    points = history[::step]
    if points[-1] is not history[-1]:
        points.append(history[-1])
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
    span = _span(request)
    page = _page(request.GET.get("page"))
    found = player_stats(player=player, span=span, page=page)
    standing = found.standing
    context = {
        **_picker(request, span),
        "player": player,
        "stats": found,
        "standing": standing,
        # Plural forms ("1 очко", "-2 очка") go by the number without its sign.
        "games": [
            (
                line,
                preset_label(line.game.rules.get("preset", "")),
                abs(line.score),
                abs(line.chips),
            )
            for line in found.games
        ],
        "older": _query(span, page=page + 1) if found.more else None,
        "rating_chart": rating_chart(found.history),
        "bid_chart": bid_chart(standing.by_bid) if standing else None,
        "points": [
            (category_name(key), count, of, percent(count / of))
            for key, (count, of) in sorted(standing.by_category.items(), key=_point_order)
        ]
        if standing
        else [],
    }
    if _partial(request) and page > 1:
        return render(request, "player.html#games", context)
    template = "player.html#stats" if _partial(request) else "player.html"
    return render(request, template, context)


def _point_order(item: tuple[str, tuple[int, int]]) -> tuple[int, str]:
    order = ("high", "low", "jack", "game")
    return (order.index(item[0]), "") if item[0] in order else (9, item[0])


def _page(value: str | None) -> int:
    try:
        return max(1, int(value or 1))
    except ValueError:
        return 1


# ---- The chip ledger ----


def _ledger_context(request: HttpRequest, span: Span) -> dict[str, Any]:
    found = ledger(club=_club(request), span=span)
    value = found.chip_value
    return {
        **_picker(request, span),
        "ledger": found,
        "balances": [(b, _signed(b.balance), money(b.balance, value)) for b in found.balances],
        "plan": [
            (payer, payee, chips, money(chips, value)) for payer, payee, chips in found.payments
        ],
        "players": Player.objects.filter(club=_club(request)),
    }


@require_http_methods(["GET", "POST"])
@club_view()
def ledger_page(request: HttpRequest) -> HttpResponse:
    """Who owes whom over the season, the fewest payments that settle it, and the
    payments recorded; a POST records one (``payer``, ``payee``, ``chips``)."""
    span = _span(request)
    status = 200
    if request.method == "POST":
        try:
            payer = _player(request, request.POST.get("payer"))
            payee = _player(request, request.POST.get("payee"))
            chips = int(request.POST.get("chips", ""))
            payment_record(
                club=_club(request),
                span=span,
                payer=payer,
                payee=payee,
                chips=chips,
                by=request.user,
            )
        except ValueError:
            messages.error(request, _("Choose two different players and at least one chip."))
            status = 400
        else:
            notice = _("Recorded: %(payer)s paid %(payee)s %(chips)d.") % {
                "payer": payer.name,
                "payee": payee.name,
                "chips": chips,
            }
            messages.success(request, notice)
            if not request.htmx:
                return redirect(reverse("ledger") + _query(span))
    template = "ledger.html#ledger" if _partial(request) else "ledger.html"
    return render(request, template, _ledger_context(request, span), status=status)


def _player(request: HttpRequest, value: str | None) -> Player:
    try:
        return club_player(request, int(value or ""))
    except ValueError:
        raise ValueError("no player") from None


# ---- Seasons ----


class SeasonForm(forms.ModelForm):
    class Meta:
        model = Season
        fields = ["name", "start", "end", "chip_value"]
        widgets = {
            "start": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "end": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        }
        help_texts = {
            "end": gettext_lazy("Leave empty for a season that runs on."),
            "chip_value": gettext_lazy(
                "Money per chip on the ledger; empty uses the games' own chip value."
            ),
        }

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        start, end = data.get("start"), data.get("end")
        if start and end and end < start:
            raise ValidationError({"end": _("The last day cannot be before the first.")})
        return data


@require_http_methods(["GET", "POST"])
@club_view(write="own")
def season_list(request: HttpRequest) -> HttpResponse:
    """The club's seasons; the owner adds one with a POST."""
    club = _club(request)
    form = SeasonForm(request.POST or None, prefix="new")
    status = 200
    if request.method == "POST":
        if form.is_valid():
            form.instance.club = club
            season = form.save()
            messages.success(request, _("%(name)s is ready.") % {"name": season.name})
            return redirect("seasons")
        status = 400
    return _seasons(request, form, status=status)


def _seasons(
    request: HttpRequest, form: SeasonForm, status: int = 200, **more: Any
) -> HttpResponse:
    club = _club(request)
    seasons = list(Season.objects.filter(club=club))
    edits = more.pop("edits", {})
    context = {
        "form": form,
        "rows": [
            (s, edits.get(s.pk) or SeasonForm(instance=s, prefix=f"s{s.pk}")) for s in seasons
        ],
        "is_owner": request.membership.role in ROLES_FOR["own"],  # type: ignore[attr-defined]
        **more,
    }
    template = "seasons.html#list" if _partial(request) else "seasons.html"
    return render(request, template, context, status=status)


@require_POST
@club_view(write="own")
def season_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """Change or delete a season (``action`` "save" or "delete"); its games stay."""
    season = Season.objects.filter(club=_club(request), pk=pk).first()
    if season is None:
        raise Http404
    if request.POST.get("action") == "delete":
        season.delete()
        messages.success(request, _("%(name)s is deleted.") % {"name": season.name})
        return redirect("seasons")
    form = SeasonForm(request.POST, instance=season, prefix=f"s{season.pk}")
    if form.is_valid():
        form.save()
        messages.success(request, _("%(name)s is saved.") % {"name": season.name})
        return redirect("seasons")
    return _seasons(
        request, SeasonForm(prefix="new"), status=400, edits={season.pk: form}, editing=season.pk
    )


# ---- A game that counts, or a practice game ----


@require_POST
def game_counts(request: HttpRequest, pk: int) -> HttpResponse:
    """Mark a game as counting (``counts=1``) or as practice (``counts=0``)."""
    game, role = member_game(request, pk, "score")
    stats_game_counts(game=game, counts=request.POST.get("counts") == "1")
    if request.htmx:
        return render(request, "_game_counts.html", {"game": game, "can_score": True})
    if game.counts:
        messages.success(request, _("This game counts in the seasons again."))
    else:
        messages.success(request, _("This game is practice: it is left out of the seasons."))
    return redirect("game", pk=pk)


# ---- Exports ----


@require_GET
@club_view()
def season_export(request: HttpRequest, name: str) -> HttpResponse:
    """The season as a file: the leaderboard or every hand as CSV (UTF-8 with a BOM and a
    header row, so a spreadsheet opens it cleanly), or its games as game records."""
    span = _span(request)
    club = _club(request)
    label = span.season.name if span.season else "all-time"
    stem = "".join(ch if ch.isalnum() else "-" for ch in label).strip("-").lower() or "season"
    if name == "leaderboard.csv":
        content: Iterator[str] = _leaderboard_csv(club, span)
        kind = "text/csv; charset=utf-8"
    elif name == "hands.csv":
        content = _hands_csv(club, span)
        kind = "text/csv; charset=utf-8"
    elif name == "games.json":
        content = _games_json(club, span)
        kind = "application/json"
    else:
        raise Http404
    response = StreamingHttpResponse(content, content_type=kind)
    response["Content-Disposition"] = f'attachment; filename="{stem}-{name}"'
    return response


# A spreadsheet runs a cell that starts with one of these as a formula.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: Any) -> Any:
    """Text that a spreadsheet would take for a formula (a player called "=1+1") is
    quoted with an apostrophe, which shows as the text itself."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def _csv_lines(rows: Iterator[list[Any]]) -> Iterator[str]:
    """Rows as CSV text, the byte-order mark first (spreadsheets then read UTF-8)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    yield "\ufeff"
    for row in rows:
        writer.writerow([_cell(value) for value in row])
        yield buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()


def _ratio(value: float | None) -> float | str:
    return "" if value is None else round(value, 4)


def _leaderboard_csv(club: Club, span: Span) -> Iterator[str]:
    board = leaderboard(club=club, span=span)

    def rows() -> Iterator[list[Any]]:
        header = [
            "player",
            "rating_mu",
            "rating_sigma",
            "games",
            "team_games",
            "wins",
            "team_wins",
            "win_rate",
            "average_place",
            "hands",
            "points_taken",
            "points_per_hand",
            "hands_pitched",
            "bids",
            "bids_made",
            "bid_share",
        ]
        header += [f"{what}_{key}" for key in board.bids for what in ("bids", "made")]
        header += ["set_back", "in_hole", "smudges", "smudges_made", "revokes"]
        header += [f"{what}_{key}" for key in board.categories for what in ("took", "hands")]
        header += ["net_chips"]
        yield header
        for s in sorted(board.standings, key=lambda s: s.name.casefold()):
            row: list[Any] = [
                s.name,
                _ratio(s.mu),
                _ratio(s.sigma),
                s.games,
                s.team_games,
                s.wins,
                s.team_wins,
                _ratio(s.win_rate),
                _ratio(s.average_place),
                s.hands,
                s.taken,
                _ratio(s.points_per_hand),
                s.pitched,
                s.bids,
                s.made,
                _ratio(s.bid_share),
            ]
            for key in board.bids:
                made, of = s.by_bid.get(key, (0, 0))
                row += [of, made]
            row += [s.set_back, s.in_hole, s.smudges, s.smudges_made, s.revokes]
            for key in board.categories:
                row += list(s.by_category.get(key, (0, 0)))
            row.append(s.chips)
            yield row

    return _csv_lines(rows())


HAND_POINTS = ("high", "low", "jack", "game")


def _hands_csv(club: Club, span: Span) -> Iterator[str]:
    """Every hand of the season's games as stored, in the order played: players by
    name, a team by its name."""
    names = {
        str(pk): name for pk, name in Player.objects.filter(club=club).values_list("pk", "name")
    }

    def who(side: Any) -> str:
        if side is None:
            return ""
        return names.get(str(side), str(side))

    def went(value: Any) -> str:
        if isinstance(value, dict):
            return " ".join(f"{who(side)}={n}" for side, n in value.items())
        return who(value)

    def rows() -> Iterator[list[Any]]:
        yield [
            "game",
            "finished",
            "rules",
            "hand",
            "dealer",
            "kind",
            "pitcher",
            "bid",
            "made",
            "partner",
            *HAND_POINTS,
            "other_points",
            "revoked",
            "all_tricks",
        ]
        games = season_games(club=club, span=span).values_list("pk", "finished_at", "rules")
        for chunk in _chunks(games.iterator(chunk_size=EXPORT_CHUNK), EXPORT_CHUNK):
            about = {pk: (at, rules.get("preset", "")) for pk, at, rules in chunk}
            hands = Hand.objects.filter(game_id__in=about).order_by("game_id", "number")
            for hand in hands.values_list(
                "game_id",
                "number",
                "dealer_id",
                "kind",
                "pitcher_id",
                "bid",
                "made",
                "partner_id",
                "points",
                "revoked",
                "all_tricks",
            ):
                (
                    game_id,
                    number,
                    dealer,
                    kind,
                    pitcher,
                    bid,
                    made,
                    partner,
                    points,
                    revoked,
                    every,
                ) = hand
                finished, preset = about[game_id]
                others = "; ".join(
                    f"{key}: {went(value)}"
                    for key, value in points.items()
                    if key not in HAND_POINTS
                )
                yield [
                    game_id,
                    finished.isoformat(),
                    preset,
                    number,
                    who(dealer),
                    kind,
                    who(pitcher),
                    "" if bid is None else bid,
                    "" if made is None else int(made),
                    who(partner),
                    *(went(points.get(key)) for key in HAND_POINTS),
                    others,
                    " ".join(who(side) for side in revoked),
                    int(every),
                ]

    return _csv_lines(rows())


def _chunks(items: Iterator[Any], size: int) -> Iterator[list[Any]]:
    chunk: list[Any] = []
    for item in items:
        chunk.append(item)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _games_json(club: Club, span: Span) -> Iterator[str]:
    """The season's games as a JSON list of game records (services.game_export's
    format), replayed a chunk at a time so that a long season streams."""
    from pitchkeeper.rules import game_to_data

    yield "["
    first = True
    pks = season_games(club=club, span=span).values_list("pk", flat=True)
    for chunk in _chunks(pks.iterator(chunk_size=EXPORT_CHUNK), EXPORT_CHUNK):
        games = Game.objects.filter(pk__in=chunk).order_by("finished_at", "pk")
        for state in games_replayed(games=games):
            data = game_to_data(state.record, state.result, state.game.pk)
            yield ("" if first else ",\n") + json.dumps(data, ensure_ascii=False)
            first = False
    yield "]\n"
