"""Backup and restore of a whole club: the format ``pitchkeeper.club/1``."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from pitchkeeper.clubs.models import Club, Player
from pitchkeeper.clubs.players import roster
from pitchkeeper.clubs.services import club_create, club_name_check
from pitchkeeper.core.limits import FIRST_DAY, LAST_DAY
from pitchkeeper.games.hands import game_save
from pitchkeeper.games.models import Game
from pitchkeeper.games.services import game_create, game_export
from pitchkeeper.rules import (
    RuleError,
    parse_game,
)
from pitchkeeper.rules.record import check_name

CLUB_FORMAT = "pitchkeeper.club/1"


CLUB_KEYS = {"format", "name", "players", "games"}


CLUB_PLAYER_KEYS = {"name", "retired"}


CLUB_GAME_KEYS = {"record", "created", "finished", "deleted", "chip_value", "counts"}


def club_export(*, club: Club) -> dict[str, Any]:
    """The whole club as JSON data: its name, its roster, and every game (deleted ones
    too, marked) in the game-record format with the times it was started and finished.
    ``club_import`` makes a new club of it; exporting that gives the same data again,
    apart from the games' ids."""
    games = []
    for game in Game.objects.filter(club=club).order_by("created", "pk"):
        entry: dict[str, Any] = {
            "created": game.created.isoformat(),
            "finished": game.finished_at.isoformat() if game.finished_at else None,
        }
        if game.deleted_at is not None:
            entry["deleted"] = game.deleted_at.isoformat()
        if game.chip_value is not None:
            entry["chip_value"] = str(game.chip_value)
        if not getattr(game, "counts", True):
            entry["counts"] = False
        entry["record"] = game_export(game=game)
        games.append(entry)
    return {
        "format": CLUB_FORMAT,
        "name": club.name,
        "players": [
            {"name": player.name, "retired": player.retired}
            for player in club.players.order_by("name", "pk")
        ],
        "games": games,
    }


def _club_moment(entry: Mapping[str, Any], key: str, *, required: bool) -> Any:
    """A time written by ``club_export`` (ISO 8601), or None when it may be left out."""
    from django.utils.dateparse import parse_datetime

    value = entry.get(key)
    if value is None and not required:
        return None
    message = f'"{key}" must be a date and time such as "2024-05-01T20:30:00+00:00"'
    try:
        moment = parse_datetime(value) if isinstance(value, str) and "\x00" not in value else None
    except ValueError:
        # Well formed but no such time: February 30th, an offset of 99 hours.
        raise RuleError(message) from None
    if moment is None:
        raise RuleError(message)
    if not FIRST_DAY < moment.date() < LAST_DAY:
        # Shown in any time zone, a time at the ends of Python's dates overflows.
        raise RuleError(f'"{key}" must be between {FIRST_DAY} and {LAST_DAY}')
    if timezone.is_naive(moment):
        moment = timezone.make_aware(moment)
    return moment


def _club_chip_value(entry: Mapping[str, Any]) -> Decimal | None:
    from decimal import InvalidOperation

    value = entry.get("chip_value")
    if value is None:
        return None
    message = '"chip_value" must be an amount such as "0.25" (at most 999999.99)'
    if not isinstance(value, str):
        raise RuleError(message)
    try:
        amount = Decimal(value)
    except InvalidOperation:
        raise RuleError(message) from None
    if not amount.is_finite() or amount < 0 or amount != amount.quantize(Decimal("0.01")):
        raise RuleError(message)
    if amount >= 1_000_000:
        raise RuleError(message)
    return amount


def _club_players(raw: Any, club: Club) -> None:
    if not isinstance(raw, list):
        raise RuleError('"players" must be a list of {"name": ..., "retired": ...} objects')
    seen: set[str] = set()
    for number, entry in enumerate(raw, start=1):
        if not isinstance(entry, Mapping) or set(entry) - CLUB_PLAYER_KEYS:
            raise RuleError(f'player {number} must be an object with "name" and "retired"')
        name = check_name(entry.get("name"), f"player {number}'s name")
        retired = entry.get("retired", False)
        if not isinstance(retired, bool):
            raise RuleError(f'player {number}: "retired" must be true or false')
        if name.casefold() in seen:
            raise RuleError(f"player {number}: {name} is on the list twice")
        seen.add(name.casefold())
        Player.objects.create(club=club, name=name, retired=retired)


def _club_game(entry: Any, club: Club) -> Game:
    if not isinstance(entry, Mapping):
        raise RuleError("a game must be a JSON object")
    unknown = set(entry) - CLUB_GAME_KEYS
    if unknown:
        raise RuleError(f"unknown field {', '.join(sorted(map(str, unknown)))}")
    counts = entry.get("counts", True)
    if not isinstance(counts, bool):
        raise RuleError('"counts" must be true or false')
    created = _club_moment(entry, "created", required=True)
    finished = _club_moment(entry, "finished", required=False)
    deleted = _club_moment(entry, "deleted", required=False)
    chip_value = _club_chip_value(entry)

    record = parse_game(entry.get("record"))
    players = roster(record.seating.players, club=club)
    state = game_create(
        players=[players[name] for name in record.seating.players],
        first_dealer=players[record.first_dealer],
        rules=record.rules,
        teams={t.name: [players[m] for m in t.members] for t in record.seating.teams},
        chip_value=chip_value,
    )
    # Set before the hands are saved, so that what is derived from them (the finish
    # time, the statistics) is derived from the game as it was.
    game = state.game
    game.created = created
    game.deleted_at = deleted
    game.finished_at = finished
    fields = ["created", "deleted_at"]
    if hasattr(game, "counts"):
        game.counts = counts
        fields.append("counts")
    game.save(update_fields=fields)
    game = game_save(state=state, records=record.hands, rows=[None] * len(record.hands)).game
    if (finished is None) != (game.finished_at is None):
        if finished is None:
            raise RuleError('the game is over: "finished" must say when it ended')
        raise RuleError('"finished" is given but the game is not over')
    return game


@transaction.atomic
def club_import(*, data: Any, owner: AbstractBaseUser | None) -> Club:
    """A new club from ``club_export`` data, with ``owner`` (if any) as its owner; all or
    nothing: bad data raises a RuleError (or a ValidationError for the club's name) that
    says what is wrong and where, and nothing is saved."""
    if not isinstance(data, Mapping):
        raise RuleError("a club must be a JSON object")
    if data.get("format") != CLUB_FORMAT:
        raise RuleError(f'"format" must be "{CLUB_FORMAT}"')
    unknown = set(data) - CLUB_KEYS
    if unknown:
        raise RuleError(f"unknown field {', '.join(sorted(map(str, unknown)))}")
    name = data.get("name")
    if not isinstance(name, str):
        raise RuleError('"name" must be the club\'s name')
    if owner is not None:
        club = club_create(name=name, owner=owner)
    else:
        club = Club.objects.create(name=club_name_check(name))
    _club_players(data.get("players", []), club)
    games = data.get("games", [])
    if not isinstance(games, list):
        raise RuleError('"games" must be a list')
    for number, entry in enumerate(games, start=1):
        try:
            _club_game(entry, club)
        except RuleError as error:
            raise RuleError(f"game {number}: {error}") from None
    return club
