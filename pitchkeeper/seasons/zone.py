"""The time zone the statistics were built in, and a system check that refuses to run
with another one.

A finished game's month (GameLine.month, the monthly rollups, and so every season's
figures) is its finish date in TIME_ZONE. Were TIME_ZONE changed with statistics
already built, the months would stay those of the old zone and the season figures
would be silently wrong; so each club records the zone its statistics are in, and
``manage.py check`` (run by runserver and before the server in the README's steps)
refuses a difference with the command that rebuilds them."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.core import checks
from django.db import DatabaseError
from django.db.models.signals import post_save
from django.dispatch import receiver

from pitchkeeper.clubs.models import Club
from pitchkeeper.seasons.models import GameLine, StatsZone


def zone_recorded(*, club: Club) -> None:
    """Record that the club's statistics are now in TIME_ZONE."""
    StatsZone.objects.update_or_create(club=club, defaults={"time_zone": settings.TIME_ZONE})


@receiver(post_save, sender=Club, dispatch_uid="stats_zone_new_club")
def _club_created(sender: type[Club], instance: Club, created: bool, **kwargs: Any) -> None:
    # A new club has no statistics yet: whatever it gets is built in today's zone.
    if created and not kwargs.get("raw"):
        zone_recorded(club=instance)


def _built_elsewhere() -> dict[str, list[Club]]:
    """The clubs with statistics built in another zone than TIME_ZONE, by that zone
    ("" where none was recorded)."""
    found: dict[str, list[Club]] = defaultdict(list)
    others = Club.objects.exclude(stats_zone__time_zone=settings.TIME_ZONE)
    for club in others.select_related("stats_zone").order_by("pk"):
        # A club with no statistics has nothing in the old zone: its first are built anew.
        if GameLine.objects.filter(club=club).exists():
            zone = getattr(club, "stats_zone", None)
            found[zone.time_zone if zone else ""].append(club)
    return found


@checks.register()
def stats_time_zone_check(app_configs: Sequence[Any] | None = None, **kwargs: Any) -> list:
    try:
        elsewhere = _built_elsewhere()
    except DatabaseError:
        # No database yet, or not migrated this far: no statistics to be wrong.
        return []
    errors = []
    for zone, clubs in elsewhere.items():
        names = ", ".join(f"{club.name} (id {club.pk})" for club in clubs)
        errors.append(
            checks.Error(
                f"The statistics of {names} were built in the time zone "
                f"{zone or '(not recorded)'}, but TIME_ZONE is now {settings.TIME_ZONE}: "
                "their months and seasons would be counted in the old zone.",
                hint=(
                    f"Run `manage.py stats_rebuild` to build them again in "
                    f"{settings.TIME_ZONE} (after `manage.py migrate --skip-checks` if "
                    f"migrations are pending), or set TIME_ZONE back to {zone or 'it'}."
                ),
                obj=clubs[0],
                id="pitchkeeper.E001",
            )
        )
    return errors
