"""The development server with a task worker beside it, in one command:

    manage.py serve [ADDRPORT] [--noreload]

It queues whatever re-rating is due (``rerate``), starts ``manage.py db_worker`` in
the background when the tasks go through the database (the default), and then runs
``runserver``; stopping it (Ctrl+C) stops the worker too. With another task backend
(TASKS_BACKEND) that backend's own worker is to be started instead. In production the
web server and ``db_worker`` run as two services (see the README)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser
from django.utils.autoreload import DJANGO_AUTORELOAD_ENV
from django_tasks import task_backends
from django_tasks_db.backend import DatabaseBackend


class Command(BaseCommand):
    help = "Run the development server and, beside it, the task worker (db_worker)."
    # runserver runs them itself.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("addrport", nargs="?", default="", help="As for runserver.")
        parser.add_argument(
            "--noreload", action="store_false", dest="use_reloader", help="As for runserver."
        )

    def handle(self, *args: Any, addrport: str, use_reloader: bool, **options: Any) -> None:
        worker = None
        # The reloader runs this command again in a child process for the server itself;
        # the worker belongs to the first one only.
        if os.environ.get(DJANGO_AUTORELOAD_ENV) != "true":
            call_command("rerate", stdout=self.stdout)
            if isinstance(task_backends["default"], DatabaseBackend):
                # In a session of its own, so that its reloader's child goes with it.
                worker = subprocess.Popen(
                    [sys.executable, sys.argv[0], "db_worker"], start_new_session=True
                )
            else:
                self.stdout.write("Tasks go to another backend: start its worker as well.")
        try:
            call_command("runserver", addrport, use_reloader=use_reloader)
        finally:
            if worker is not None:
                os.killpg(worker.pid, signal.SIGTERM)
                worker.wait()
