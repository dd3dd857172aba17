"""``manage.py import_games``: games in the game-record format into a club, all or nothing."""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from pitchkeeper.clubs.models import Club
from pitchkeeper.clubs.services import club_name_check
from pitchkeeper.games.services import game_export, games_import
from pitchkeeper.games.words import refusal_text
from pitchkeeper.rules import RuleError, load_json
from pitchkeeper.rules.record import MAX_JSON_CHARS


class DryRun(Exception):
    """Rolls back a dry run once the export has been written."""


class Command(BaseCommand):
    help = (
        "Import games in the pitchkeeper.game/1 record format, all or nothing, and print "
        "their ids. A file holds one game or a list of games; '-' reads standard input."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="+", metavar="FILE")
        parser.add_argument("--club", type=int, metavar="ID", help="The club to import into.")
        parser.add_argument(
            "--new-club", metavar="NAME", help="Make a club of this name and import into it."
        )
        parser.add_argument(
            "--dry-run",
            action="store_true",
            help="Check and print what export would print, saving nothing.",
        )

    def handle(
        self,
        *args: Any,
        files: list[str],
        dry_run: bool,
        club: int | None,
        new_club: str | None,
        **options: Any,
    ) -> None:
        games: list[Any] = []
        for name in files:
            games.extend(load(name))
        try:
            with transaction.atomic():
                saved = games_import(club=target_club(club, new_club), games=games)
                if dry_run:
                    exported = [game_export(game=game) for game in saved]
                    for game in exported:
                        del game["id"]
                    self.stdout.write(json.dumps(exported, indent=2, ensure_ascii=False))
                    raise DryRun
        except DryRun:
            return
        except RuleError as error:
            raise CommandError(refusal_text(error, numbered=True)) from None
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from None
        for game in saved:
            self.stdout.write(str(game.pk))


def read(name: str) -> str:
    """The text of file ``name`` ('-' standard input), read no further than one character
    past the size a file may have, so that a huge one is refused without filling memory."""
    try:
        if name == "-":
            return sys.stdin.read(MAX_JSON_CHARS + 1)
        with open(name, encoding="utf-8") as file:
            return file.read(MAX_JSON_CHARS + 1)
    except (OSError, UnicodeDecodeError) as error:
        raise CommandError(f"{name}: cannot read: {error}") from None


def load(name: str) -> list[Any]:
    try:
        return load_json(read(name))
    except RuleError as error:
        raise CommandError(f"{name}: {refusal_text(error, numbered=True)}") from None


def target_club(pk: int | None, new_name: str | None) -> Club:
    """The club named on the command line, or the only one there is."""
    if new_name is not None:
        return Club.objects.create(name=club_name_check(new_name))
    if pk is not None:
        club = Club.objects.filter(pk=pk).first()
        if club is None:
            raise CommandError(f"no club {pk}")
        return club
    clubs = list(Club.objects.all()[:2])
    if len(clubs) != 1:
        listed = ", ".join(f"{c.pk} {c.name}" for c in Club.objects.all()) or "none yet"
        raise CommandError(
            f"say which club with --club ID (clubs: {listed}) or make one with --new-club NAME"
        )
    return clubs[0]
