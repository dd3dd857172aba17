"""Write every club's statistics again from the recorded hands.

The statistics are kept up to date as hands are saved; this is for games recorded before
they existed (after the migration that adds them), after a change of TIME_ZONE (which
``manage.py check`` refuses until this has run), and to repair them if ever in doubt:

    manage.py stats_rebuild [--club ID]
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction

from pitchkeeper.clubs.models import Club
from pitchkeeper.seasons.derive import stats_rebuild


class Command(BaseCommand):
    help = "Rewrite the derived statistics, rollups and ratings of every club from its hands."
    # It is the cure for the time-zone check's error, so that check must not stop it.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--club", type=int, metavar="ID", help="Only this club.")

    def handle(self, *args: Any, club: int | None, **options: Any) -> None:
        clubs = Club.objects.order_by("pk")
        if club is not None:
            clubs = clubs.filter(pk=club)
        for found in clubs:
            with transaction.atomic():
                stats_rebuild(club=found)
            self.stdout.write(
                f"{found.name}: {found.games.exclude(finished_at=None).count()} games"
            )
