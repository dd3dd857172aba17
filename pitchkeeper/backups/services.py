"""Backup and restore of a whole club: the format ``pitchkeeper.club/2`` (and reading
``pitchkeeper.club/1``).

A backup carries every fact a club owns (``CARRIED``): the club, its roster, members
and their roles, invitations, seasons, recorded payments, every game with its
record, live link and change history, and the club nights (``backups.nights``). What is
derived from the hands (``DERIVED``: the statistics, rollups and ratings) is not
written; a restore rebuilds it by saving each game's hands through the engine."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import models, transaction
from django.utils.translation import gettext as _

from pitchkeeper.backups.fields import (
    Readers,
    Writers,
    carried_fields,
    row_check,
    row_dump,
    row_stamp,
    row_values,
    text_check,
)
from pitchkeeper.backups.nights import Found, nights_export, nights_import
from pitchkeeper.clubs.models import Club, Invitation, Membership, Player, Role, new_token
from pitchkeeper.clubs.players import roster
from pitchkeeper.clubs.services import club_name_check
from pitchkeeper.core.models import Heartbeat, WorkerBeat
from pitchkeeper.games.hands import game_save
from pitchkeeper.games.models import Game, GameReplay, Hand, HandChange, Seat
from pitchkeeper.games.services import game_create, game_export
from pitchkeeper.games.words import refusal_text
from pitchkeeper.nights.models import Attendance, Night, NightRound, NightTable
from pitchkeeper.rules import RuleError, parse_game
from pitchkeeper.rules.record import check_name
from pitchkeeper.seasons.models import (
    GameCount,
    GameLine,
    LedgerPlan,
    MonthChipValue,
    MonthCount,
    MonthLine,
    MonthPair,
    MonthRun,
    Payment,
    RatingPoint,
    RatingsDue,
    Season,
    StatsZone,
    TotalCount,
)

CLUB_FORMAT = "pitchkeeper.club/2"
CLUB_FORMAT_1 = "pitchkeeper.club/1"

# What a game record (the format of rules.record) holds of a game, its seats and its
# hands; the game's other fields are carried one by one.
IN_RECORD: dict[type[models.Model], set[str]] = {
    Game: {"club", "rules", "first_dealer"},
    Seat: {"game", "player", "position", "team"},
    Hand: {
        *("game", "number", "misdeal", "pitcher", "bid", "partner"),
        *("auction", "points", "revoked", "forced", "all_tricks"),
    },
}

# What the engine works out again when a game's hands are saved; a hand's entry form
# token, spent once its hand was recorded; and the revision that saving them starts
# (and the standing the home page reads, written by the same save).
REPLAYED: dict[type[models.Model], set[str]] = {
    Game: {"winner", "winner_team", "won_by", "revision", "standing"},
    Hand: {"kind", "dealer", "made", "version", "token"},
}

# Every model of the app that a club owns, and where its rows are in the file.
CARRIED: dict[type[models.Model], str] = {
    Club: "the top level",
    Player: '"players"',
    Membership: '"members", matched to accounts by username',
    Invitation: '"invitations"',
    Season: '"seasons"',
    Payment: '"payments"',
    Game: '"games"',
    Seat: "each game's record",
    Hand: "each game's record",
    HandChange: 'each game\'s "changes"',
    Night: '"nights"',
    Attendance: 'each night\'s "attendance"',
    NightRound: 'each night\'s "rounds"',
    NightTable: 'each round\'s "tables"',
}

# Every model that is derived, and how a restore rebuilds it.
DERIVED: dict[type[models.Model], str] = {
    GameLine: "written from the engine's result as each restored game's hands are saved",
    GameCount: "written from the engine's result as each restored game's hands are saved",
    MonthLine: "the sums of the GameLines, kept as each game is saved",
    MonthCount: "the sums of the GameCounts, kept as each game is saved",
    TotalCount: "the MonthCounts summed over all time, kept as each game is saved",
    MonthPair: "the head-to-head sums of the GameLines, kept as each game is saved",
    MonthRun: "the runs of results of each month's GameLines, kept as each game is saved",
    MonthChipValue: "the chip values of each month's counted games, kept as each is saved",
    RatingPoint: "re-rated from each restored game on, in the order the games finished",
    RatingsDue: "marked and cleared as the restored games are re-rated",
    LedgerPlan: "searched again when the restored club's ledger is first viewed",
    GameReplay: "kept as each restored game's hands are saved",
    StatsZone: "recorded as the restored club is made: its statistics are rebuilt in TIME_ZONE",
}
# Models that belong to the site, not to a club: a club's backup has nothing of them.
SITE_WIDE: dict[type[models.Model], str] = {
    Heartbeat: "the health check's one row, rewritten on every check",
    WorkerBeat: "each task worker's sign of life, written while it runs",
}

# A row's club is the club restored; a change's game is the game it is listed under.
OWNER_FIELDS = {"club", "game"}


def _fields(model: type[models.Model]) -> list[Any]:
    skip = OWNER_FIELDS | IN_RECORD.get(model, set()) | REPLAYED.get(model, set())
    return carried_fields(model, skip=skip)


SECTIONS: dict[str, type[models.Model]] = {
    "players": Player,
    "members": Membership,
    "invitations": Invitation,
    "seasons": Season,
    "payments": Payment,
}

# Version 1 wrote the roster and the games only, two of the times by other names.
CLUB_1_KEYS = {"format", "name", "players", "games"}
CLUB_1_GAME_KEYS = {"record", "created", "finished", "deleted", "chip_value", "counts"}
CLUB_1_RENAMED = {"finished": "finished_at", "deleted": "deleted_at"}


def _username(user: Any) -> str:
    return getattr(user, user.USERNAME_FIELD)


def club_export(*, club: Club) -> dict[str, Any]:
    """The whole club as JSON data. ``club_import`` makes a new club of it; exporting
    that gives the same data again, apart from the games' ids."""
    User = get_user_model()
    usernames: dict[int, str] = {}

    def username(pk: int) -> str:
        if pk not in usernames:
            usernames[pk] = _username(User.objects.get(pk=pk))
        return usernames[pk]

    players = dict(club.players.values_list("pk", "name"))
    seasons = list(club.seasons.order_by("start", "pk"))
    numbers = {season.pk: number for number, season in enumerate(seasons, start=1)}
    writers: Writers = {User: username, Player: players.__getitem__, Season: numbers.__getitem__}

    def rows(model: type[models.Model], found: Any) -> list[dict[str, Any]]:
        return [row_dump(row, _fields(model), writers) for row in found]

    games = []
    found = club.games.order_by("created", "pk").prefetch_related("changes")
    for game in found.select_related("night_table__night_round__night"):
        changes = sorted(game.changes.all(), key=lambda change: (change.at, change.pk))
        games.append(
            {
                **row_dump(game, _fields(Game), writers),
                "record": game_export(game=game),
                "changes": rows(HandChange, changes),
            }
        )
    payments = list(club.payments.order_by("at", "pk"))
    places = {game["record"]["id"]: number for number, game in enumerate(games, start=1)}
    return {
        "format": CLUB_FORMAT,
        **row_dump(club, _fields(Club), writers),
        "players": rows(Player, club.players.order_by("name", "pk")),
        "members": rows(Membership, club.memberships.order_by("user__username", "pk")),
        "invitations": rows(Invitation, club.invitations.order_by("created", "pk")),
        "seasons": rows(Season, seasons),
        "payments": rows(Payment, payments),
        "games": games,
        "nights": nights_export(
            club=club,
            writers=writers,
            games=places,
            payments={payment.pk: number for number, payment in enumerate(payments, start=1)},
        ),
    }


@dataclass
class Restored:
    """A restored club, and what the restore could not carry over as it was."""

    club: Club
    # Members of the file without an account of that name here: each was given an
    # invitation with their role instead, (username, role, invitation token).
    invited: list[tuple[str, str, str]] = field(default_factory=list)
    # Other accounts the file names (a player's account, who made a change or recorded
    # a payment, who made an invitation) that are not here: those links are left empty.
    unknown_accounts: set[str] = field(default_factory=set)
    # Live links and invitations whose token is taken here (the club backed up is in
    # this database too) were given a new one.
    new_tokens: int = 0


def _as_played(record: Any) -> Any:
    """A game record whose whole ruleset was written before ``steal_up_to`` existed was
    played with the steal of any bid below max_bid: it is restored under that rule, as
    migration 0017 keeps the games stored before it."""
    rules = record.get("rules") if isinstance(record, Mapping) else None
    if isinstance(rules, Mapping) and "dealer_may_steal" in rules and "steal_up_to" not in rules:
        return {**record, "rules": {**rules, "steal_up_to": None}}
    return record


def _list(data: Mapping[str, Any], key: str) -> list[Any]:
    value = data.get(key, [])
    if not isinstance(value, list):
        raise RuleError(_('"%(key)s" must be a list') % {"key": key})
    return value


def _from_version_1(data: Mapping[str, Any]) -> dict[str, Any]:
    """A ``pitchkeeper.club/1`` file in the shape of version 2."""
    unknown = set(data) - CLUB_1_KEYS
    if unknown:
        raise RuleError("field_unknown", {"unknown": tuple(sorted(map(str, unknown)))})
    games = []
    for number, entry in enumerate(_list(data, "games"), start=1):
        if isinstance(entry, Mapping):
            unknown = set(entry) - CLUB_1_GAME_KEYS
            problem = None
            if unknown:
                problem = RuleError("field_unknown", {"unknown": tuple(sorted(map(str, unknown)))})
            elif "created" not in entry:
                problem = RuleError(_('"%(key)s" is missing') % {"key": "created"})
            if problem is not None:
                words = refusal_text(problem)
                raise RuleError(
                    _("game %(number)d: %(error)s") % {"number": number, "error": words}
                )
            entry = {CLUB_1_RENAMED.get(key, key): value for key, value in entry.items()}
        games.append(entry)
    return {**data, "format": CLUB_FORMAT, "games": games}


class _Import:
    """One restore: the new club, and how the file's keys are read into its rows."""

    def __init__(self, club: Club, restored: Restored, owner: AbstractBaseUser | None) -> None:
        self.club = club
        self.owner = owner
        self.restored = restored
        self.players: dict[str, int] = {}
        self.seasons: list[int] = []
        self.games: list[int] = []
        self.payments: list[int] = []
        User = get_user_model()
        self.readers: Readers = {User: self.user, Player: self.player, Season: self.season}

    def user(self, name: Any) -> int | None:
        User = get_user_model()
        if not isinstance(name, str):
            raise RuleError(_("an account must be given by its username"))
        pk = User.objects.filter(**{User.USERNAME_FIELD: name}).values_list("pk", flat=True)
        if not pk:
            self.restored.unknown_accounts.add(name)
            return None
        return pk[0]

    def player(self, name: Any) -> int:
        if not isinstance(name, str) or name.casefold() not in self.players:
            raise RuleError(_("%(name)r is not a player of the club") % {"name": name})
        return self.players[name.casefold()]

    def season(self, number: Any) -> int:
        # Not a boolean, a fraction or a text, which Python would take for a number.
        if type(number) is not int:
            raise RuleError(_('"season" must be a whole number, the season\'s place in the file'))
        if not 1 <= number <= len(self.seasons):
            raise RuleError(
                _("there is no season %(number)s (seasons are numbered from 1)")
                % {"number": number}
            )
        return self.seasons[number - 1]

    def fresh_tokens(self, row: models.Model) -> None:
        """A unique token (live link, invitation) that is taken here gets a new one."""
        for found in row._meta.concrete_fields:
            if found.unique and found.default is new_token:
                value = getattr(row, found.attname)
                if type(row).objects.filter(**{found.name: value}).exists():
                    setattr(row, found.attname, new_token())
                    self.restored.new_tokens += 1

    def row(
        self,
        model: type[models.Model],
        entry: Any,
        prepare: Callable[[Any, Mapping[str, Any]], bool] | None = None,
        **owner: Any,
    ) -> models.Model | None:
        """A row of ``model`` from its entry, checked and saved; None when ``prepare``
        saved it in another form."""
        fields = _fields(model)
        values = row_values(entry, fields, self.readers)
        row = model(**owner, **values)
        if prepare is not None and prepare(row, entry):
            return None
        self.fresh_tokens(row)
        row_check(row)
        row.save()
        row_stamp(row, fields, values)
        return row

    def section(self, data: Mapping[str, Any], key: str, **prepare: Any) -> None:
        model = SECTIONS[key]
        for number, entry in enumerate(_list(data, key), start=1):
            try:
                row = self.row(model, entry, club=self.club, **prepare)
            except RuleError as error:
                # The section as the file names it ("season 2"), the refusal in words.
                words = refusal_text(error, numbered=True)
                raise RuleError(f"{key.removesuffix('s')} {number}: {words}") from None
            if isinstance(row, Player):
                self.players[row.name.casefold()] = row.pk
            elif isinstance(row, Season):
                self.seasons.append(row.pk)
            elif isinstance(row, Payment):
                self.payments.append(row.pk)

    def member(self, row: Membership, entry: Mapping[str, Any]) -> bool:
        """A member without an account here is invited with their role instead."""
        if row.user_id is not None:
            return False
        name = entry.get("user")
        if not isinstance(name, str):
            raise RuleError(_('"user" must be the member\'s username'))
        row_check(row, exclude=["user"])
        invitation = Invitation.objects.create(club=self.club, role=row.role, created_by=self.owner)
        self.restored.unknown_accounts.discard(name)
        self.restored.invited.append((name, row.role, invitation.token))
        return True

    def player_name(self, row: Player, entry: Mapping[str, Any]) -> bool:
        row.name = check_name(entry.get("name"), RuleError("player_name", {}))
        return False

    def game(self, entry: Any) -> Game:
        if not isinstance(entry, Mapping):
            raise RuleError("game_not_object", {})
        carried = {key: value for key, value in entry.items() if key not in ("record", "changes")}
        values = row_values(carried, _fields(Game), self.readers)
        changes = _list(entry, "changes")
        record = parse_game(_as_played(entry.get("record")))
        players = roster(record.seating.players, club=self.club)
        for player in players.values():
            self.players.setdefault(player.name.casefold(), player.pk)
        state = game_create(
            players=[players[name] for name in record.seating.players],
            first_dealer=players[record.first_dealer],
            rules=record.rules,
            teams={t.name: [players[m] for m in t.members] for t in record.seating.teams},
        )
        # Set before the hands are saved, so that what is derived from them (the finish
        # time, the statistics) is derived from the game as it was.
        game = state.game
        for name, value in values.items():
            setattr(game, name, value)
        self.fresh_tokens(game)
        row_check(game, exclude=IN_RECORD[Game] | REPLAYED[Game])
        row_stamp(game, _fields(Game), values)
        # The finish time is kept in memory for game_save: a finished game without
        # its ending saved would break the table's check.
        saved = [name for name in values if name != "finished_at"]
        if saved:
            game.save(update_fields=saved)
        finished = game.finished_at
        game = game_save(state=state, records=record.hands, rows=[None] * len(record.hands)).game
        if (finished is None) != (game.finished_at is None):
            if finished is None:
                raise RuleError(_('the game is over: "finished_at" must say when it ended'))
            raise RuleError(_('"finished_at" is given but the game is not over'))
        for number, change in enumerate(changes, start=1):
            try:
                self.row(HandChange, change, game=game)
            except RuleError as error:
                words = refusal_text(error, numbered=True)
                raise RuleError(
                    _("change %(number)d: %(error)s") % {"number": number, "error": words}
                ) from None
        return game


@transaction.atomic
def club_import(*, data: Any, owner: AbstractBaseUser | None) -> Restored:
    """A new club from ``club_export`` data (either version), with ``owner`` (if any)
    made its owner; all or nothing: bad data raises a RuleError that says what is
    wrong and where (or a ValidationError for the club's name), and nothing is saved."""
    if not isinstance(data, Mapping):
        raise RuleError(_("a club must be a JSON object"))
    text_check(data)
    if data.get("format") == CLUB_FORMAT_1:
        data = _from_version_1(data)
    if data.get("format") != CLUB_FORMAT:
        raise RuleError(
            _('"format" must be "%(format)s" (or "%(older)s")')
            % {"format": CLUB_FORMAT, "older": CLUB_FORMAT_1}
        )
    club_fields = {found.name for found in _fields(Club)}
    unknown = set(data) - {"format", "games", "nights", *SECTIONS, *club_fields}
    if unknown:
        raise RuleError("field_unknown", {"unknown": tuple(sorted(map(str, unknown)))})
    name = data.get("name")
    if not isinstance(name, str):
        raise RuleError(_('"name" must be the club\'s name'))
    club = Club.objects.create(name=club_name_check(name))
    restored = Restored(club)
    restore = _Import(club, restored, owner)
    # The name was checked (and stripped) above; the other fields are carried as they are.
    carried = {key: data[key] for key in club_fields & set(data)}
    values = row_values(carried, _fields(Club), {})
    values["name"] = club.name
    for key, value in values.items():
        setattr(club, key, value)
    row_check(club)
    club.save()
    row_stamp(club, _fields(Club), values)
    restore.section(data, "players", prepare=restore.player_name)
    restore.section(data, "members", prepare=restore.member)
    if owner is not None:
        Membership.objects.update_or_create(club=club, user=owner, defaults={"role": Role.OWNER})
    restore.section(data, "invitations")
    restore.section(data, "seasons")
    for number, entry in enumerate(_list(data, "games"), start=1):
        try:
            restore.games.append(restore.game(entry).pk)
        except RuleError as error:
            words = refusal_text(error, numbered=True)
            raise RuleError(
                _("game %(number)d: %(error)s") % {"number": number, "error": words}
            ) from None
    restore.section(data, "payments")
    found = Found(
        restore.readers, restore.player, restore.games, restore.payments, restore.fresh_tokens
    )
    nights_import(data.get("nights"), club=club, found=found)
    club.refresh_from_db()
    return restored
