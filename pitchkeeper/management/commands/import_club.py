"""``manage.py import_club``: a club restored from a backup file (backups.services)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from pitchkeeper.backups.services import club_import
from pitchkeeper.management.commands.import_games import read
from pitchkeeper.rules import RuleError
from pitchkeeper.rules.record import load_document


class Command(BaseCommand):
    help = (
        "Restore a club from an export_club backup (pitchkeeper.club/1) as a new club, all "
        "or nothing, and print its id. '-' reads standard input."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", metavar="FILE")
        parser.add_argument(
            "--owner", metavar="USERNAME", help="The account that owns the new club."
        )

    def handle(self, *args: Any, file: str, owner: str | None, **options: Any) -> None:
        user = None
        if owner is not None:
            user = get_user_model().objects.filter(username=owner).first()
            if user is None:
                raise CommandError(f"no user {owner}")
        data = load(file)
        try:
            club = club_import(data=data, owner=user)
        except RuleError as error:
            raise CommandError(f"{file}: {error}") from None
        except ValidationError as error:
            raise CommandError(f"{file}: {' '.join(error.messages)}") from None
        if user is None:
            self.stderr.write(
                f"Club {club.pk} has no members yet: give it an owner in the admin, or "
                "import again with --owner USERNAME."
            )
        self.stdout.write(str(club.pk))


def load(name: str) -> Any:
    try:
        return load_document(read(name))
    except RuleError as error:
        raise CommandError(f"{name}: {error}") from None
