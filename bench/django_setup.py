"""Django as the benchmarks run it: the project's settings with DEBUG off, a given
database (a SQLite file, or any DATABASE_URL: PostgreSQL too), and a URL module of the
benchmark's own in front of the app's."""

from __future__ import annotations

import os
import secrets
import sys
import time
import types
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def database_url(database: Path | str) -> str:
    """A SQLite file's path as a database URL; a URL as it is."""
    return database if isinstance(database, str) and "://" in database else f"sqlite:///{database}"


def configure(
    database: Path | str,
    extra_urls: Callable[[], list[Any]] = list,
    others: dict[str, str] | None = None,
) -> None:
    """Set Django up on ``database`` (a SQLite file or a database URL); ``extra_urls()``
    (called once Django is ready) gives the benchmark's own URL patterns, put before a
    bare view and the app's. ``others``: more databases by alias, as URLs of the same
    kind as ``database``, configured as the project configures its own."""
    sys.path.insert(0, str(ROOT))
    os.environ["DJANGO_SETTINGS_MODULE"] = "pitchkeeper.settings"
    os.environ["DATABASE_URL"] = database_url(database)
    os.environ["DEBUG"] = "0"
    os.environ["SECRET_KEY"] = secrets.token_urlsafe(40)
    os.environ["ALLOWED_HOSTS"] = "testserver"
    # The client says it came through the TLS proxy (X-Forwarded-Proto), as in production.
    os.environ["BEHIND_HTTPS_PROXY"] = "1"

    import django
    from django.conf import settings

    # WhiteNoise looks for collectstatic's folder, which a benchmark does not need.
    warnings.filterwarnings("ignore", message="No directory at", module="django.core.handlers")
    # Plain static names, as in development: a benchmark does not run collectstatic.
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    import dj_database_url

    for alias, url in (others or {}).items():
        settings.DATABASES[alias] = {
            **dj_database_url.parse(url, conn_max_age=600, conn_health_checks=True),
            "OPTIONS": settings.DATABASES["default"].get("OPTIONS", {}),
        }
    django.setup()

    from django.http import HttpRequest, HttpResponse
    from django.urls import clear_url_caches, include, path

    def bare(request: HttpRequest) -> HttpResponse:
        return HttpResponse("ok", content_type="text/plain")

    # The bare view exists only here, never in the app's own URLs.
    urls = types.ModuleType("bench_urls")
    urls.urlpatterns = [  # type: ignore[attr-defined]
        path("bench/bare/", bare),
        *extra_urls(),
        path("", include("pitchkeeper.urls")),
    ]
    sys.modules["bench_urls"] = urls
    settings.ROOT_URLCONF = "bench_urls"
    clear_url_caches()


def database_version() -> str:
    """The default database's make and version, as "SQLite 3.40.1" or "PostgreSQL 15.14"."""
    import sqlite3

    from django.db import connection

    if connection.vendor == "sqlite":
        return f"SQLite {sqlite3.sqlite_version}"
    connection.ensure_connection()
    return f"PostgreSQL {connection.pg_version // 10000}.{connection.pg_version % 10000}"


CLOCKS = ("wall", "cpu")
CLOCK_HELP = (
    "wall time, or CPU time (on a machine shared with other work): this process's and, on "
    "PostgreSQL, that of the server processes serving its connections"
)


def clock(name: str) -> Callable[[], float]:
    """The clock a benchmark's --clock names."""
    return cpu_time if name == "cpu" else time.perf_counter


def cpu_time() -> float:
    """The CPU time spent by this process and, on PostgreSQL, by the server processes
    serving its connections (read from /proc: the server runs on this machine), so that
    a request's time leaves out the waits for a core that other work holds on both
    sides of the wire. Seconds, from an arbitrary start."""
    from django.db import connections

    spent = time.process_time()
    # By process: one connection may serve under two aliases (bench_league's leagues).
    servers = {
        wrapper.connection.info.backend_pid
        for wrapper in connections.all(initialized_only=True)
        if wrapper.vendor == "postgresql" and wrapper.connection is not None
    }
    for pid in servers:
        try:
            with open(f"/proc/{pid}/schedstat") as stat:
                # The first figure: nanoseconds the process has run on a CPU.
                spent += int(stat.read().split()[0]) / 1e9
        except FileNotFoundError:
            raise SystemExit(
                "--clock cpu reads the PostgreSQL server's processes on this machine: "
                "run it here, or time by the wall clock"
            ) from None
    return spent


def task_worker_turn() -> None:
    """What the app's task worker (``manage.py db_worker``) would do next: every task
    queued in the database, run here, in this process, to its end."""
    from django.core.management import call_command

    call_command("db_worker", batch=True, reload=False, startup_delay=False, verbosity=0)


LEAGUE = "Synthetic league"


def league_club(games: int, seed: int) -> Any:
    """The synthetic league's club, made by ``manage.py generate_league`` unless the
    database already holds it (so that a kept --database is reused)."""
    from django.core.management import call_command

    from pitchkeeper.clubs.models import Club

    call_command("migrate", verbosity=0)
    club = Club.objects.filter(name=LEAGUE).first()
    if club is None:
        print(f"Generating a league of {games} games (seed {seed})...", flush=True)
        call_command("generate_league", games=games, seed=seed, club=LEAGUE, stdout=sys.stderr)
        club = Club.objects.get(name=LEAGUE)
    return club
