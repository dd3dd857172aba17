from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from pitchkeeper.rules import RuleError, load_json
from pitchkeeper.services import game_export, games_import


class DryRun(Exception):
    """Rolls back a dry run once the export has been written."""


class Command(BaseCommand):
    help = (
        "Import games in the pitchkeeper.game/1 record format, all or nothing, and print "
        "their ids. A file holds one game or a list of games; '-' reads standard input."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="+", metavar="FILE")
        parser.add_argument(
            "--dry-run",
            action="store_true",
            help="Check and print what export would print, saving nothing.",
        )

    def handle(self, *args: Any, files: list[str], dry_run: bool, **options: Any) -> None:
        games: list[Any] = []
        for name in files:
            games.extend(load(name))
        try:
            with transaction.atomic():
                saved = games_import(games=games)
                if dry_run:
                    exported = [game_export(game=game) for game in saved]
                    for game in exported:
                        del game["id"]
                    self.stdout.write(json.dumps(exported, indent=2, ensure_ascii=False))
                    raise DryRun
        except DryRun:
            return
        except RuleError as error:
            raise CommandError(str(error)) from None
        for game in saved:
            self.stdout.write(str(game.pk))


def load(name: str) -> list[Any]:
    try:
        if name == "-":
            text = sys.stdin.read()
        else:
            with open(name, encoding="utf-8") as file:
                text = file.read()
        return load_json(text)
    except (OSError, UnicodeDecodeError) as error:
        raise CommandError(f"{name}: cannot read: {error}") from None
    except RuleError as error:
        raise CommandError(f"{name}: {error}") from None
