"""A span's statistics as files: the leaderboard and the hands as CSV, the games in the
game-record format, streamed so a long season never sits in memory whole."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.views.decorators.http import require_GET

from pitchkeeper.clubs.access import club_view
from pitchkeeper.clubs.models import Club, Player
from pitchkeeper.games.models import Game, Hand
from pitchkeeper.games.replay import games_replayed
from pitchkeeper.games.services import game_record_data
from pitchkeeper.seasons.ledger import season_games
from pitchkeeper.seasons.spans import Span
from pitchkeeper.seasons.standings import (
    leaderboard,
)
from pitchkeeper.seasons.views.shared import club_of, span_of

EXPORTS = ("leaderboard.csv", "hands.csv", "games.json")


EXPORT_CHUNK = 200


@require_GET
@club_view()
def season_export(request: HttpRequest, name: str) -> HttpResponse:
    """The season as a file: the leaderboard or every hand as CSV (UTF-8 with a BOM and a
    header row, so a spreadsheet opens it cleanly), or its games as game records."""
    span = span_of(request)
    club = club_of(request)
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
            "forced",
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
                "forced",
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
                    forced,
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
                    " ".join(who(player) for player in forced),
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
    """The season's games as a JSON list of game records (games.services.game_export's
    format), replayed a chunk at a time so that a long season streams."""
    yield "["
    first = True
    pks = season_games(club=club, span=span).values_list("pk", flat=True)
    for chunk in _chunks(pks.iterator(chunk_size=EXPORT_CHUNK), EXPORT_CHUNK):
        games = (
            Game.objects.filter(pk__in=chunk)
            .select_related("night_table__night_round__night")
            .order_by("finished_at", "pk")
        )
        for state in games_replayed(games=games):
            data = game_record_data(state)
            yield ("" if first else ",\n") + json.dumps(data, ensure_ascii=False)
            first = False
    yield "]\n"
