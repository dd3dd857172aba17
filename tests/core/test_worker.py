"""The task worker outlives its database and runs again the tasks of a worker that died:
the rules of core.worker in the test's database, a worker killed (SIGKILL) while
another runs beside it, and a PostgreSQL server of the test's own restarted under a
running worker."""

from __future__ import annotations

import logging
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import suppress
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import OperationalError
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from pitchkeeper.core import worker as worker_module
from pitchkeeper.core.models import WorkerBeat
from pitchkeeper.core.worker import ATTEMPTS, task_put_back, tasks_orphaned_put_back
from pitchkeeper.seasons import tasks as tasks_module
from pitchkeeper.seasons.models import RatingPoint, RatingsDue
from pitchkeeper.seasons.tasks import ratings_rerate
from tests.conftest import _in_ci
from tests.seasons.test_tasks import (
    DATABASE_BACKEND,
    database_url,
    derived,
    edit_first_hand,
    league,
    rebuilt,
)

ROOT = Path(__file__).resolve().parents[2]
WORKER = [sys.executable, "manage.py", "db_worker", "--no-reload", "--no-startup-delay"]


def running_task(worker_ids: list[str], started: timedelta = timedelta(0)) -> DBTaskResult:
    """A re-rating claimed by the last of ``worker_ids``, ``started`` ago."""
    task = DBTaskResult.objects.get(pk=ratings_rerate.using(backend="default").enqueue(1).id)
    task.status = "RUNNING"
    task.worker_ids = worker_ids
    task.started_at = timezone.now() - started
    task.save()
    return task


def beat(worker_id: str, ago: timedelta = timedelta(0)) -> None:
    WorkerBeat.objects.create(worker_id=worker_id, beat=timezone.now() - ago)


@pytest.fixture
def database_queue(settings):
    settings.TASKS = DATABASE_BACKEND
    settings.WORKER_DEAD_SECONDS = 60


@pytest.mark.django_db
def test_a_task_under_a_live_worker_stays_and_one_under_a_dead_one_goes_back(database_queue):
    """A worker is alive while it beats, however long its task has run; a task left
    running by a worker that stopped beating, or never beat, is queued again."""
    beat("live", timedelta(seconds=50))
    beat("dead", timedelta(seconds=70))
    under_live = running_task(["dead", "live"], started=timedelta(hours=3))
    under_dead = running_task(["dead"])
    under_none = running_task(["gone"])

    assert tasks_orphaned_put_back(backend_name="default") == 2

    statuses = dict(DBTaskResult.objects.values_list("pk", "status"))
    assert statuses == {under_live.pk: "RUNNING", under_dead.pk: "READY", under_none.pk: "READY"}
    # The dead worker's beat is forgotten, the live one's kept.
    assert list(WorkerBeat.objects.values_list("worker_id", flat=True)) == ["live"]


@pytest.mark.django_db
def test_a_task_claimed_again_meanwhile_is_left_alone(database_queue):
    """Put back only as it was read: another worker that put it back and claimed it
    since is running it now."""
    task = running_task(["dead"])
    DBTaskResult.objects.filter(pk=task.pk).update(
        started_at=timezone.now() + timedelta(seconds=1), worker_ids=["dead", "live"]
    )

    assert not task_put_back(task)
    assert DBTaskResult.objects.get(pk=task.pk).status == "RUNNING"


@pytest.mark.django_db
def test_a_task_cut_short_again_and_again_is_failed(database_queue, caplog):
    task = running_task([f"worker {n}" for n in range(ATTEMPTS)])

    with caplog.at_level(logging.ERROR):
        assert tasks_orphaned_put_back(backend_name="default") == 0

    task.refresh_from_db()
    assert task.status == "FAILED" and task.finished_at is not None
    assert task.exception_class_path == "pitchkeeper.core.worker.TaskCutShort"
    assert f"cut short {ATTEMPTS} times" in caplog.text


def test_a_worker_looks_for_dead_workers_only_after_a_whole_limit_with_the_database(
    settings, monkeypatch
):
    """Another worker may have been unable to beat while the database was away: the
    search waits until this one has reached the database for WORKER_DEAD_SECONDS, after
    its start and again after every outage."""
    settings.WORKER_DEAD_SECONDS = 0.6  # a beat every 0.1 s
    events: list[tuple[str, float]] = []
    outcomes = iter(["beat"] * 9 + ["lost"] + ["beat"] * 100)

    def beat(*, worker_id):
        outcome = next(outcomes)
        events.append((outcome, time.monotonic()))
        if outcome == "lost":
            raise OperationalError("the database system is starting up")

    monkeypatch.setattr(worker_module, "worker_beat", beat)
    monkeypatch.setattr(
        worker_module,
        "tasks_orphaned_put_back",
        lambda **kwargs: events.append(("search", time.monotonic())),
    )
    beats = worker_module.Beats(worker_id="w", backend_name="default")
    beats.start()
    time.sleep(2.2)
    beats.stop()

    def first(what: str, after: float = 0) -> float:
        return next(at for kind, at in events if kind == what and at > after)

    lost = first("lost")
    # From the first beat on 0.6 s, until the outage, and from the next beat on 0.6 s.
    assert first("search") - first("beat") >= 0.6
    assert first("search") < lost
    assert first("search", lost) - first("beat", lost) >= 0.6


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("recorded", [True, False], ids=["failure recorded", "not recorded"])
def test_a_task_the_database_cut_short_is_run_again(
    database_queue, settings, monkeypatch, make_game, club, caplog, recorded
):
    """The database goes away under a task: once when the worker can still record the
    failure, once when it cannot record it either (then the worker waits for the
    database). Either way the worker goes on and runs the task again."""
    games = league(make_game)
    settings.RERATE_INLINE_GAMES = 0
    settings.RERATE_PAUSE_MS = 0
    edit_first_hand(games[0])
    [task] = DBTaskResult.objects.all()
    catch_up = tasks_module.ratings_catch_up
    cuts = iter([OperationalError("server closed the connection unexpectedly\n\tagain")])

    def cut_once(**kwargs):
        error = next(cuts, None)
        if error and recorded:
            raise error
        if error:
            record = DBTaskResult.set_failed

            def unrecordable(self, exc):
                monkeypatch.setattr(DBTaskResult, "set_failed", record)
                raise OperationalError("connection refused") from exc

            monkeypatch.setattr(DBTaskResult, "set_failed", unrecordable)
            raise error
        return catch_up(**kwargs)

    monkeypatch.setattr(tasks_module, "ratings_catch_up", cut_once)
    monkeypatch.setattr(worker_module, "BACKOFF_FIRST", 0.01)

    with caplog.at_level(logging.INFO, logger="pitchkeeper.core.worker"):
        call_command("db_worker", batch=True, reload=False, startup_delay=False, verbosity=0)

    task.refresh_from_db()
    assert task.status == "SUCCESSFUL" and len(task.worker_ids) == 2
    assert not RatingsDue.objects.exists()
    assert derived(club) == rebuilt(club)
    logged = [r.getMessage() for r in caplog.records if r.name == "pitchkeeper.core.worker"]
    cut_short = f"Task {task.pk} (pitchkeeper.seasons.tasks.ratings_rerate) was cut short"
    if recorded:
        assert len(logged) == 1 and cut_short in logged[0]
    else:
        # One line when it is lost, one when it is back; no traceback.
        assert len(logged) == 3
        assert "lost the database, waits for it: connection refused" in logged[0]
        assert cut_short in logged[1]
        assert "has the database again" in logged[2]
    assert not any(r.exc_info for r in caplog.records if r.name == "pitchkeeper.core.worker")


def worker_environment(url: str, **extra: str) -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": url,
        "TASKS_BACKEND": "django_tasks_db.DatabaseBackend",
        "RERATE_STEP_GAMES": "1",
        "RERATE_PAUSE_MS": "100",
        # Long enough that the check a task queues against a dying worker is not what
        # finishes the work here.
        "RERATE_RETRY_SECONDS": "3600",
        "WORKER_DEAD_SECONDS": "2",
        **extra,
    }


def wait_for(condition, what: str, seconds: float = 90) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def stop(process: subprocess.Popen) -> int:
    process.send_signal(signal.SIGTERM)
    return process.wait(timeout=30)


@pytest.mark.django_db(transaction=True)
def test_the_task_of_a_killed_worker_is_run_again_by_another(settings, make_game, club):
    """Two workers: the one running the re-rating is not taken for dead while it runs
    (longer than WORKER_DEAD_SECONDS), then it is killed (SIGKILL) half-way; the other
    finds its task and runs it again, and the ratings are what stats_rebuild writes."""
    settings.TASKS = DATABASE_BACKEND
    games = league(make_game, 60)
    settings.RERATE_INLINE_GAMES = 0
    edit_first_hand(games[0])  # commits, and so queues the task
    start = RatingsDue.objects.get(club=club).since_game
    environment = worker_environment(database_url())

    first = subprocess.Popen(WORKER, cwd=ROOT, env=environment, stdout=subprocess.DEVNULL)
    second = None
    try:
        wait_for(lambda: RatingsDue.objects.get(club=club).since_game != start, "never began")
        second = subprocess.Popen(WORKER, cwd=ROOT, env=environment, stdout=subprocess.DEVNULL)
        # The second worker looks for dead workers' tasks from 2 s on, every 1/3 s.
        time.sleep(3.5)
        [task] = DBTaskResult.objects.filter(status="RUNNING")
        assert len(task.worker_ids) == 1, "taken from a worker that was alive"
        assert RatingsDue.objects.exists(), "the re-rating was over too soon"
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait()
    try:
        # The worker records the task's end after the task has returned, in a transaction
        # of its own: the re-rating's work can be seen done a moment before that.
        wait_for(
            lambda: DBTaskResult.objects.get(pk=task.pk).task_result.is_finished,
            "the re-rating never finished",
        )
        task.refresh_from_db()
        assert task.status == "SUCCESSFUL" and len(task.worker_ids) == 2
        assert not RatingsDue.objects.exists()
    finally:
        assert stop(second) == 0
    assert not DBTaskResult.objects.filter(status="RUNNING").exists()
    assert derived(club) == rebuilt(club)


# ---- A PostgreSQL server of the test's own, restarted under a running worker ----

RESTART_ONLY_ON_POSTGRES = (
    "the suite runs on SQLite: the PostgreSQL pass (DATABASE_URL) restarts a server"
)


def _postgres_bin() -> Path | None:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"), key=lambda p: p.parts[-3])
    return found[-1].parent if found else None


def _as_postgres(*command: str, **options) -> subprocess.CompletedProcess[str]:
    """Run a server program as the postgres user (the server refuses to run as root)."""
    if os.geteuid() == 0:
        command = ("su", "postgres", "-c", shlex.join(command))
    return subprocess.run(command, check=True, capture_output=True, text=True, **options)


class Server:
    """A PostgreSQL cluster in a directory of its own, on a free port, trusting local
    connections; stopped and deleted at the end."""

    def __init__(self, bin_dir: Path) -> None:
        self.bin = bin_dir
        self.home = Path(tempfile.mkdtemp(prefix="pitchkeeper-pg-"))
        self.data = self.home / "data"
        with socket.socket() as free:
            free.bind(("127.0.0.1", 0))
            self.port = free.getsockname()[1]
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/postgres"
        if os.geteuid() == 0:
            shutil.chown(self.home, "postgres", "postgres")
        _as_postgres(
            str(self.bin / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres"
        )

    def ctl(self, *args: str) -> None:
        options = f"-p {self.port} -k {self.home} -c listen_addresses=127.0.0.1"
        _as_postgres(
            str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.home / "log"),
            "-o", options, "-w", *args,
        )  # fmt: skip

    def query(self, sql: str) -> list[tuple]:
        import psycopg

        with psycopg.connect(self.url) as connection:
            return connection.execute(sql).fetchall()

    def close(self) -> None:
        with suppress(subprocess.CalledProcessError):
            self.ctl("stop", "-m", "immediate")
        shutil.rmtree(self.home, ignore_errors=True)


@pytest.fixture
def postgres_server() -> Iterator[Server]:
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        pytest.skip(RESTART_ONLY_ON_POSTGRES)
    bin_dir = _postgres_bin()
    if bin_dir is None:
        reason = "the PostgreSQL server programs (/usr/lib/postgresql/*/bin) are missing"
        if _in_ci():
            pytest.fail(f"{reason}; CI must run the restart test", pytrace=False)
        pytest.skip(reason)
    server = Server(bin_dir)
    try:
        server.ctl("start")
        yield server
    finally:
        server.close()


def manage(*args: str, env: dict[str, str]) -> None:
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr


PRACTICE_FIRST_GAME = """
from pitchkeeper.games.models import Game
from pitchkeeper.games.services import game_counts_set
first = Game.objects.exclude(finished_at=None).earliest("finished_at", "pk")
game_counts_set(game=first, counts=False)
"""
RATINGS = f"SELECT game_id, player_id, mu, sigma FROM {RatingPoint._meta.db_table} ORDER BY 1, 2"
DUE = f"SELECT since_game FROM {RatingsDue._meta.db_table}"
TASKS = f"SELECT status, count(*) FROM {DBTaskResult._meta.db_table} GROUP BY 1 ORDER BY 1"


def test_a_worker_outlives_a_restart_of_its_database(postgres_server):
    """The re-rating is under way when the server restarts (``pg_ctl restart -m
    immediate``, as after a crash): the worker is still running after it, finishes the
    re-rating, and the ratings are what stats_rebuild writes."""
    environment = worker_environment(postgres_server.url, RERATE_INLINE_GAMES="0")
    manage("migrate", "-v0", env=environment)
    manage("generate_league", "--games", "60", "--players", "6", "--years", "1", env=environment)
    manage("shell", "-c", PRACTICE_FIRST_GAME, env=environment)
    [(start,)] = postgres_server.query(DUE)
    worker = subprocess.Popen(
        WORKER, cwd=ROOT, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        wait_for(lambda: postgres_server.query(DUE) != [(start,)], "never began")
        postgres_server.ctl("restart", "-m", "immediate")
        assert postgres_server.query(DUE), "the re-rating was over before the restart"
        wait_for(lambda: not postgres_server.query(DUE), "the re-rating never finished")
        assert worker.poll() is None, "the worker stopped"
    finally:
        code = stop(worker)
        log = worker.stderr.read().decode()
    assert code == 0, log
    assert log.count("lost the database") == 1 and "has the database again" in log, log
    assert "Traceback" not in log, log
    # The task, run again after the restart, and the two checks it queued.
    assert postgres_server.query(TASKS) == [("READY", 2), ("SUCCESSFUL", 1)]
    rerated = postgres_server.query(RATINGS)
    manage("stats_rebuild", env=environment)
    assert rerated == postgres_server.query(RATINGS)
