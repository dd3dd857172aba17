"""The site's own bookkeeping: the row the health check writes, and the beats of the
task workers."""

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


class WorkerBeat(models.Model):
    """A task worker that is alive: it rewrites its row every few seconds, also while it
    runs a task, so that a task left running by a worker that stopped beating can be
    told from one that is still under way (core.worker)."""

    worker_id = models.CharField(max_length=64, primary_key=True)
    # The database's clock, the one every worker on every machine shares.
    beat = models.DateTimeField()

    class Meta:
        verbose_name = "worker beat"

    def __str__(self) -> str:
        return f"worker {self.worker_id} beat at {self.beat}"
