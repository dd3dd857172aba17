"""The one Django app: its domains (clubs, games, seasons, backups) are folders inside it."""

from __future__ import annotations

from django.apps import AppConfig


class PitchkeeperConfig(AppConfig):
    name = "pitchkeeper"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The statistics follow every saved game through signals, and a night's game
        # leads back to its night; connect them however the app is started (server,
        # management command or test).
        from pitchkeeper.nights import links  # noqa: F401
        from pitchkeeper.seasons import derive  # noqa: F401
