"""A club's nights in its backup (the "nights" key): each night's own fields, who came
("attendance"), and its rounds ("night_rounds", beside the planned number "rounds") with
their tables. Players are written by name, a table's game by its
place in the file's "games", and the payments of a night's payout by their places in
"payments", all numbered from 1; a restore reads them back after the games and the
payments, and refuses anything that does not point at one."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from pitchkeeper.backups.fields import (
    Readers,
    Writers,
    carried_fields,
    row_check,
    row_dump,
    row_stamp,
    row_values,
)
from pitchkeeper.clubs.models import Club
from pitchkeeper.games.words import refusal_text
from pitchkeeper.nights.models import Attendance, Night, NightRound, NightTable
from pitchkeeper.rules import RuleError

# Written by the keys of their own below, or implied by where a row is in the file.
# The plan ahead is the rules' from the seed (in player ids): a restored night plans its
# next round again.
NIGHT_FIELDS = carried_fields(Night, skip={"club", "plan", "plan_from"})
ATTENDANCE_FIELDS = carried_fields(Attendance, skip={"night"})
ROUND_FIELDS = carried_fields(NightRound, skip={"night", "sitting_out"})
TABLE_FIELDS = carried_fields(NightTable, skip={"night_round", "teams", "game"})


def nights_export(
    *, club: Club, writers: Writers, games: Mapping[int, int], payments: Mapping[int, int]
) -> list[dict[str, Any]]:
    """The club's nights, oldest first; ``games`` and ``payments`` number each game and
    payment by its place in the file."""
    names = dict(club.players.values_list("pk", "name"))
    found = club.nights.order_by("started_at", "pk").prefetch_related(
        "attendance", "night_rounds__tables", "payments"
    )
    return [
        {
            **row_dump(night, NIGHT_FIELDS, writers),
            "attendance": [
                row_dump(row, ATTENDANCE_FIELDS, writers)
                for row in sorted(night.attendance.all(), key=lambda a: a.pk)
            ],
            "night_rounds": [
                {
                    **row_dump(night_round, ROUND_FIELDS, writers),
                    "sitting_out": [names[pk] for pk in night_round.sitting_out],
                    "tables": [
                        {
                            **row_dump(table, TABLE_FIELDS, writers),
                            "teams": [[names[pk] for pk in team] for team in table.teams],
                            "game": games.get(table.game_id) if table.game_id else None,
                        }
                        for table in night_round.tables.all()
                    ],
                }
                for night_round in night.night_rounds.all()
            ],
            "payments": sorted(payments[payment.pk] for payment in night.payments.all()),
        }
        for night in found
    ]


def _numbered(entries: Any, key: str) -> list[Any]:
    if entries is None:
        return []
    if not isinstance(entries, list):
        raise RuleError(_('"%(key)s" must be a list') % {"key": key})
    return entries


def _place(number: Any, rows: Sequence[int], words: str) -> int:
    """The id of the row at ``number`` (from 1) of ``rows``."""
    if type(number) is not int or not 1 <= number <= len(rows):
        raise RuleError(words % {"number": number})
    return rows[number - 1]


def _split(entry: Any, keys: set[str]) -> tuple[dict[str, Any], dict[str, Any]]:
    """An entry's own fields, and the keys written apart from them."""
    if not isinstance(entry, Mapping):
        raise RuleError(_("must be a JSON object"))
    own = {k: v for k, v in entry.items() if k not in keys}
    return own, {k: entry.get(k) for k in keys}


def _saved(row: Any, fields: Any, values: Mapping[str, Any], fresh: Callable[[Any], None]) -> Any:
    fresh(row)
    row_check(row)
    row.save()
    row_stamp(row, fields, values)
    return row


@dataclass(frozen=True)
class Found:
    """How a night's entries find the rows restored before it: the readers of its
    fields, a player by name, and the ids of the file's games and payments in order."""

    readers: Readers
    player: Callable[[Any], int]
    games: Sequence[int]
    payments: Sequence[int]
    fresh: Callable[[Any], None]


def nights_import(entries: Any, *, club: Club, found: Found) -> None:
    """The nights of a backup restored into ``club``, whose games and payments are
    restored already; a RuleError names the first fault."""
    for number, entry in enumerate(_numbered(entries, "nights"), start=1):
        try:
            _night(entry, club, found)
        except RuleError as error:
            words = refusal_text(error, numbered=True)
            raise RuleError(
                _("night %(number)d: %(error)s") % {"number": number, "error": words}
            ) from None


def _night(entry: Any, club: Club, found: Found) -> None:
    own, apart = _split(entry, {"attendance", "night_rounds", "payments"})
    values = row_values(own, NIGHT_FIELDS, found.readers)
    night = _saved(Night(club=club, **values), NIGHT_FIELDS, values, found.fresh)
    for row in _numbered(apart["attendance"], "attendance"):
        values = row_values(row, ATTENDANCE_FIELDS, found.readers)
        _saved(Attendance(night=night, **values), ATTENDANCE_FIELDS, values, found.fresh)
    for entry_round in _numbered(apart["night_rounds"], "night_rounds"):
        own, round_apart = _split(entry_round, {"sitting_out", "tables"})
        values = row_values(own, ROUND_FIELDS, found.readers)
        out = [found.player(name) for name in _numbered(round_apart["sitting_out"], "sitting_out")]
        night_round = NightRound(night=night, sitting_out=out, **values)
        _saved(night_round, ROUND_FIELDS, values, found.fresh)
        for entry_table in _numbered(round_apart["tables"], "tables"):
            _table(entry_table, night_round, found)
    night.payments.set(
        _place(n, found.payments, _("there is no payment %(number)s"))
        for n in _numbered(apart["payments"], "payments")
    )


def _table(entry: Any, night_round: NightRound, found: Found) -> None:
    own, apart = _split(entry, {"teams", "game"})
    values = row_values(own, TABLE_FIELDS, found.readers)
    teams = [
        [found.player(name) for name in _numbered(team, "teams")]
        for team in _numbered(apart["teams"], "teams")
    ]
    if not teams or not all(teams):
        raise RuleError(_('"teams" must list the table\'s teams, each of its players'))
    game_id = None
    if apart["game"] is not None:
        game_id = _place(apart["game"], found.games, _("there is no game %(number)s"))
    table = NightTable(night_round=night_round, teams=teams, game_id=game_id, **values)
    _saved(table, TABLE_FIELDS, values, found.fresh)
