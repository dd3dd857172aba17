"""django-tasks-db's ``db_worker``, with a worker that outlives its database:

    manage.py db_worker [--queue-name '*'] [the package's options]

The same command and options as the package's (the app comes before django_tasks_db in
INSTALLED_APPS, so this one is found first), running ``core.worker.Worker``: after a
database restart it waits for the database and goes on, and it runs again the tasks of
a worker that died."""

from __future__ import annotations

import os
from typing import Any

from django.core.management.base import CommandError
from django.utils.autoreload import DJANGO_AUTORELOAD_ENV, run_with_reloader
from django_tasks_db.management.commands import db_worker

from pitchkeeper.core.worker import Worker


class Command(db_worker.Command):
    help = "Run the database task worker, which waits out a database restart."

    def handle(
        self,
        *,
        verbosity: int,
        queue_name: str,
        exclude_queues: str,
        reload: bool,
        batch: bool,
        **options: Any,
    ) -> None:
        # As the package's own handle(), with this worker in place of its.
        self.configure_logging(verbosity)
        queue_names = queue_name.split(",")
        excluded = exclude_queues.split(",") if exclude_queues else []
        if excluded and "*" not in queue_names:
            raise CommandError("--exclude-queues can only be used with --queue-name=*")
        worker = Worker(
            queue_names=queue_names,
            excluded_queue_names=excluded,
            batch=batch,
            interval=options["interval"],
            backend_name=options["backend_name"],
            startup_delay=options["startup_delay"],
            max_tasks=options["max_tasks"],
            worker_id=options["worker_id"],
        )
        if reload and not batch:
            # The reloader's child runs the worker, and it alone stops on a signal.
            if os.environ.get(DJANGO_AUTORELOAD_ENV) == "true":
                worker.configure_signals()
            run_with_reloader(worker.run)
        else:
            worker.configure_signals()
            worker.run()
