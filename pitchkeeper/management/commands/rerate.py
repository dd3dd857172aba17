"""Bring every club's due ratings up to date.

A change to an older game leaves the later games to be re-rated by the task queue
(``seasons.tasks``). Should a change's task have been lost (the queue unreachable when
it was sent), this queues the clubs still due again; ``serve`` runs it as it starts:

    manage.py rerate [--now]
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from pitchkeeper.seasons.models import RatingsDue
from pitchkeeper.seasons.tasks import ratings_rerate


class Command(BaseCommand):
    help = "Queue the re-rating of every club whose ratings are due (--now: do it here)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--now", action="store_true", help="Re-rate here and now instead of queueing."
        )

    def handle(self, *args: Any, now: bool, **options: Any) -> None:
        for club_id in RatingsDue.objects.order_by("pk").values_list("club_id", flat=True):
            if now:
                steps = ratings_rerate.call(club_id)
                self.stdout.write(f"Club {club_id}: re-rated in {steps} steps")
            else:
                ratings_rerate.enqueue(club_id)
                self.stdout.write(f"Club {club_id}: re-rating queued")
