"""The task worker that outlives its database, and the tasks of a worker that died.

``manage.py db_worker`` runs django-tasks-db's own worker loop (``Worker`` below only
adds to it). On its own that loop stops the process (exit code 1) at the first database
error other than a lock, and a task whose worker is gone stays RUNNING for good. Here:

- **An outage.** An OperationalError or InterfaceError that ends the loop is logged on
  one line; the broken connections are closed, the worker waits for the database
  (BACKOFF_FIRST seconds, doubling up to BACKOFF_CAP) and goes on where it was. The task
  it was running when the database went away is put back in the queue, whether the
  worker could still record its failure or not: it failed for the database, not for
  itself.
- **A worker that died.** Every worker writes a beat (``WorkerBeat``) before it claims
  its first task and then, from a thread of its own, BEATS times every
  WORKER_DEAD_SECONDS, also while a task runs. A task RUNNING under a worker with no beat
  in the last WORKER_DEAD_SECONDS is put back to be run again by whichever worker takes
  it. A worker looks for such tasks only once it has itself reached the database for a
  whole WORKER_DEAD_SECONDS: a worker that could not beat because the database was down
  has beaten again by then, and is not taken for dead.

A task is run at least once, and more than once only when it was cut short. The
re-rating is idempotent (it carries on from the club's mark), which is what makes that
safe. A task cut short ATTEMPTS times is marked failed instead of being run again, so that
a task that kills its worker does not do so for ever."""

from __future__ import annotations

import logging
import threading
import time
from contextlib import suppress
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import connections
from django.db.models.functions import Now
from django_tasks_db.compat import TaskResultStatus
from django_tasks_db.management.commands import db_worker
from django_tasks_db.models import DBTaskResult

from pitchkeeper.core.logs import DATABASE_DOWN, database_error_line
from pitchkeeper.core.models import WorkerBeat

logger = logging.getLogger(__name__)

DATABASE_DOWN_PATHS = {f"{kind.__module__}.{kind.__qualname__}" for kind in DATABASE_DOWN}
BACKOFF_FIRST = 0.5
BACKOFF_CAP = 30.0
# Beats a worker writes in WORKER_DEAD_SECONDS: it is taken for dead after missing them.
BEATS = 6
ATTEMPTS = 5


class TaskCutShort(Exception):
    """What a task's row records when it was cut short ATTEMPTS times."""


def worker_beat(*, worker_id: str) -> None:
    """The worker is alive, by the database's clock."""
    WorkerBeat.objects.update_or_create(worker_id=worker_id, defaults={"beat": Now()})


def _dead_before() -> Any:
    return Now() - timedelta(seconds=settings.WORKER_DEAD_SECONDS)


def task_put_back(task: DBTaskResult) -> bool:
    """Queue a task cut short again, as it was before it was claimed, unless it has been
    claimed ATTEMPTS times; then it is marked failed. Nothing happens when the row moved
    since ``task`` was read (another worker claimed it again, or put it back first).
    True when it was put back."""
    same_run = DBTaskResult.objects.filter(
        pk=task.pk,
        started_at=task.started_at,
        status__in=[TaskResultStatus.RUNNING, TaskResultStatus.FAILED],
    )
    if len(task.worker_ids) >= ATTEMPTS:
        failure = TaskCutShort(f"cut short {len(task.worker_ids)} times; not run again")
        same_run.filter(status=TaskResultStatus.RUNNING).update(
            status=TaskResultStatus.FAILED,
            finished_at=Now(),
            exception_class_path=f"{__name__}.{TaskCutShort.__qualname__}",
            traceback=f"{__name__}.{TaskCutShort.__qualname__}: {failure}\n",
        )
        logger.error("Task %s (%s) %s", task.pk, task.task_path, failure)
        return False
    put_back = same_run.update(
        status=TaskResultStatus.READY,
        finished_at=None,
        return_value=None,
        exception_class_path="",
        traceback="",
    )
    if put_back:
        logger.warning("Task %s (%s) was cut short: queued again", task.pk, task.task_path)
    return bool(put_back)


def tasks_orphaned_put_back(*, backend_name: str) -> int:
    """Put back every task left RUNNING by a worker that stopped beating, and forget the
    beats of such workers. Returns how many tasks went back to the queue."""
    # The tasks first, then the beats: a worker beats before it claims, so a task read
    # here as running under a worker that has just started finds that worker's beat.
    running = list(DBTaskResult.objects.running().filter(backend_name=backend_name))
    alive = set(
        WorkerBeat.objects.filter(beat__gte=_dead_before()).values_list("worker_id", flat=True)
    )
    put_back = sum(
        task_put_back(task) for task in running if not (set(task.worker_ids[-1:]) & alive)
    )
    WorkerBeat.objects.filter(beat__lt=_dead_before()).delete()
    return put_back


class Beats(threading.Thread):
    """The worker's beat, written BEATS times every WORKER_DEAD_SECONDS from a thread of
    its own (a connection of its own too), whatever the worker is doing; and, once the
    database has answered for a whole WORKER_DEAD_SECONDS, the search for tasks of
    workers that died, after every beat."""

    def __init__(self, *, worker_id: str, backend_name: str) -> None:
        super().__init__(name=f"beats-{worker_id}", daemon=True)
        self.worker_id = worker_id
        self.backend_name = backend_name
        self.stopping = threading.Event()

    def run(self) -> None:
        period = settings.WORKER_DEAD_SECONDS / BEATS
        reached_since: float | None = None
        try:
            while True:
                try:
                    worker_beat(worker_id=self.worker_id)
                    reached_since = reached_since or time.monotonic()
                    if time.monotonic() - reached_since >= settings.WORKER_DEAD_SECONDS:
                        tasks_orphaned_put_back(backend_name=self.backend_name)
                except DATABASE_DOWN:
                    # The worker's own loop says so in the log, once.
                    reached_since = None
                    connections.close_all()
                if self.stopping.wait(period):
                    return
        finally:
            connections.close_all()

    def stop(self) -> None:
        self.stopping.set()
        self.join(timeout=5)


class Worker(db_worker.Worker):
    """django-tasks-db's worker, going on after the database went away."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        # The task under way, for as long as its outcome is not recorded.
        self.task: DBTaskResult | None = None

    def run(self) -> None:
        beats = Beats(worker_id=self.worker_id, backend_name=self.backend_name)
        beats.start()
        try:
            while True:
                try:
                    # Before the first claim, so that no other worker takes the task
                    # for one whose worker died.
                    worker_beat(worker_id=self.worker_id)
                    super().run()
                    return
                except DATABASE_DOWN as error:
                    self.wait_for_database(error)
        finally:
            beats.stop()
            # Without the database, the beat grows old and the next worker forgets it.
            with suppress(DATABASE_DOWN):
                WorkerBeat.objects.filter(worker_id=self.worker_id).delete()

    def run_task(self, db_task_result: DBTaskResult) -> None:
        self.task = db_task_result
        # Either raises a DATABASE_DOWN when it could not record the outcome, or records
        # it; either way, a task that failed for the database is put back (in run() once
        # the database answers again, should it be away).
        super().run_task(db_task_result)
        if (
            db_task_result.status == TaskResultStatus.FAILED
            and db_task_result.exception_class_path in DATABASE_DOWN_PATHS
        ):
            task_put_back(db_task_result)
        self.task = None

    def wait_for_database(self, error: BaseException) -> None:
        """Until the database answers again, with a wait that doubles up to BACKOFF_CAP;
        then the task cut short goes back to the queue."""
        logger.warning(
            "Task worker %s lost the database, waits for it: %s",
            self.worker_id,
            database_error_line(error),
        )
        lost = time.monotonic()
        wait = BACKOFF_FIRST
        while True:
            connections.close_all()
            time.sleep(wait)
            try:
                if self.task is not None:
                    task_put_back(self.task)
                    self.task = None
                else:
                    connections[DBTaskResult.objects.db].ensure_connection()
                break
            except DATABASE_DOWN:
                wait = min(wait * 2, BACKOFF_CAP)
        logger.warning(
            "Task worker %s has the database again after %.0f s",
            self.worker_id,
            time.monotonic() - lost,
        )
