"""``manage.py export_club``: a whole club as one backup file (backups.services)."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from pitchkeeper.backups.services import club_export
from pitchkeeper.clubs.models import Club


class Command(BaseCommand):
    help = (
        "Print a whole club (its roster, members, invitations, seasons, payments and every "
        "game with its history, deleted ones too) as JSON in the pitchkeeper.club/2 format: "
        "a backup that import_club restores."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--club", type=int, metavar="ID", required=True, help="The club.")
        parser.add_argument(
            "--output", "-o", metavar="FILE", help="Write to FILE instead of standard output."
        )

    def handle(self, *args: Any, club: int, output: str | None, **options: Any) -> None:
        found = Club.objects.filter(pk=club).first()
        if found is None:
            listed = ", ".join(f"{c.pk} {c.name}" for c in Club.objects.all()) or "none yet"
            raise CommandError(f"no club {club} (clubs: {listed})")
        text = json.dumps(club_export(club=found), indent=2, ensure_ascii=False)
        if output is None:
            self.stdout.write(text)
            return
        try:
            with open(output, "w", encoding="utf-8") as file:
                file.write(text + "\n")
        except OSError as error:
            raise CommandError(f"{output}: cannot write: {error}") from None
