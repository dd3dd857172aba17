"""``manage.py import_club``: a club restored from a backup file (backups.services)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.urls import reverse

from pitchkeeper.backups.services import club_import
from pitchkeeper.clubs.models import Role
from pitchkeeper.games.words import refusal_text
from pitchkeeper.management.commands.import_games import read
from pitchkeeper.rules import RuleError
from pitchkeeper.rules.record import load_document


class Command(BaseCommand):
    help = (
        "Restore a club from an export_club backup (pitchkeeper.club/2 or /1) as a new club, all "
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
            restored = club_import(data=data, owner=user)
        except RuleError as error:
            words = refusal_text(error, numbered=True)
            raise CommandError(one_line(f"{file}: {words}")) from None
        except ValidationError as error:
            raise CommandError(one_line(f"{file}: {' '.join(error.messages)}")) from None
        club = restored.club
        for username, role, token in restored.invited:
            self.stderr.write(
                f"{username} ({role}) has no account here: invited instead, "
                f"{reverse('invitation', args=[token])}"
            )
        if restored.unknown_accounts:
            names = ", ".join(sorted(restored.unknown_accounts))
            self.stderr.write(f"Not linked, as there is no account of that name here: {names}")
        if restored.new_tokens:
            self.stderr.write(
                f"{restored.new_tokens} live or invitation links were in use here and got a "
                "new address."
            )
        if not club.memberships.filter(role=Role.OWNER).exists():
            self.stderr.write(
                f"Club {club.pk} has no owner yet: give it one in the admin, or "
                "import again with --owner USERNAME."
            )
        self.stdout.write(str(club.pk))


def one_line(message: str) -> str:
    return " ".join(message.split())


def load(name: str) -> Any:
    try:
        return load_document(read(name))
    except RuleError as error:
        raise CommandError(f"{name}: {refusal_text(error, numbered=True)}") from None
