"""The site's own bookkeeping: the row the health check writes."""

from __future__ import annotations

from django.db import models


class Heartbeat(models.Model):
    """One row that ``/health/`` rewrites on every check, to prove the database still
    takes writes (a full disk or a read-only database answers reads to the end)."""

    beat = models.DateTimeField()

    class Meta:
        verbose_name = "heartbeat"
        constraints = [
            models.CheckConstraint(condition=models.Q(pk=1), name="heartbeat_one_row"),
        ]

    def __str__(self) -> str:
        return f"heartbeat at {self.beat}"
