"""Re-rating through the task queue: a change re-rates a few games at once and leaves
the rest due; the queued task brings every rating to what ``stats_rebuild`` writes,
through the immediate backend and through the database backend's worker, also after a
worker killed half-way."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path
from urllib.parse import quote

import pytest
from django.core.management import call_command
from django.db import connection, transaction
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from pitchkeeper.games.hands import hand_delete, hand_edit, hand_record
from pitchkeeper.games.models import CountedFieldError, Game
from pitchkeeper.games.services import game_counts_set, game_delete, game_restore
from pitchkeeper.rules import HandRecord
from pitchkeeper.seasons import ratings as ratings_module
from pitchkeeper.seasons.derive import stats_rebuild
from pitchkeeper.seasons.models import GameLine, RatingPoint, RatingsDue
from pitchkeeper.seasons.ratings import ratings_catch_up, ratings_changed
from tests.seasons.test_stats import at, moment, pts, rollups_match_the_games, smudge_game

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
HTMX = {"HTTP_HX_REQUEST": "true"}
DATABASE_BACKEND = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
NOTICE = "Ratings are being brought up to date"


def league(make_game, games: int = 6) -> list[Game]:
    """``games`` won games a day apart, by turns between the same three players."""
    orders = [("Ann", "Bob", "Cy"), ("Cy", "Ann", "Bob"), ("Bob", "Cy", "Ann")]
    found = []
    for day in range(games):
        with at(moment(2024, 1, 1) + timedelta(days=day)):
            found.append(Game.objects.get(pk=smudge_game(make_game, orders[day % 3]).pk))
    return found


def ratings(club) -> list[tuple[int, int, float, float]]:
    points = RatingPoint.objects.filter(club=club).values_list(
        "game_id", "player_id", "mu", "sigma"
    )
    return sorted((g, p, round(mu, 9), round(sigma, 9)) for g, p, mu, sigma in points)


def derived(club) -> tuple[list, list]:
    lines = GameLine.objects.filter(club=club).values_list(
        "game_id", "player_id", "place", "counted"
    )
    return sorted(lines), ratings(club)


def rebuilt(club) -> tuple[list, list]:
    """What stats_rebuild writes (the rows are left as it wrote them)."""
    stats_rebuild(club=club)
    return derived(club)


def edit_first_hand(game: Game) -> None:
    """The third player, set back in the first hand, makes the bid instead and takes
    every point: second, no longer last, so the game's places change."""
    third = game.seats.order_by("position").last().player.name
    hand_edit(
        game=game,
        number=1,
        record=HandRecord(pitcher=third, bid=3, points=pts(third, third, third, third)),
    )


def test_a_change_rerates_a_few_games_at_once_and_leaves_the_rest_due(settings, make_game, club):
    settings.RERATE_INLINE_GAMES = 2
    games = league(make_game)
    before = ratings(club)

    # Outside the test's transaction nothing commits, so nothing queued has run.
    edit_first_hand(games[0])

    due = RatingsDue.objects.get(club=club)
    assert (due.since_at, due.since_game) == (games[2].finished_at, games[2].pk)
    after = ratings(club)
    changed = {game for game, *_ in set(after) - set(before)}
    assert changed == {games[0].pk, games[1].pk}
    # The games not yet re-rated keep their old points until their turn.
    assert {p for p in after if p[0] not in changed} == {p for p in before if p[0] not in changed}


def test_a_change_before_the_mark_moves_it_back_and_one_after_it_leaves_it(make_game, club):
    games = league(make_game)
    key = [(game.finished_at, game.pk) for game in games]
    assert ratings_changed(club_id=club.pk, since=key[3], games=0)
    assert ratings_changed(club_id=club.pk, since=key[4], games=0)
    due = RatingsDue.objects.get(club=club)
    assert (due.since_at, due.since_game) == key[3]
    assert ratings_changed(club_id=club.pk, since=key[1], games=0)
    due.refresh_from_db()
    assert (due.since_at, due.since_game) == key[1]


def test_a_step_that_read_before_a_change_throws_its_work_away(
    queued, monkeypatch, make_game, club
):
    """A step reads and rates outside its transaction: a change committed in between
    (here, before the mark, one after it and one at it) must not be overwritten by
    points rated from the older reading."""
    with queued():
        games = league(make_game)
    key = [(game.finished_at, game.pk) for game in games]
    ratings_changed(club_id=club.pk, since=key[1], games=0)
    read = ratings_module._rated_from
    changes = iter([lambda: edit_first_hand(games[0]), lambda: edit_first_hand(games[3])])

    def rated_then_changed(**kwargs):
        rated = read(**kwargs)
        change = next(changes, None)
        if change:
            change()
        return rated

    monkeypatch.setattr(ratings_module, "_rated_from", rated_then_changed)
    assert not ratings_catch_up(club_id=club.pk, games=100)
    assert not ratings_catch_up(club_id=club.pk, games=100)
    # Both steps were thrown away: the mark is where the first change put it.
    due = RatingsDue.objects.get(club=club)
    assert (due.since_at, due.since_game) == key[0]
    assert due.changes == 2
    assert ratings_catch_up(club_id=club.pk, games=100)
    assert derived(club) == rebuilt(club)


@pytest.mark.parametrize(
    "change",
    [
        "add a hand",
        "edit",
        "delete a hand",
        "practice",
        "back from practice",
        "delete",
        "restore",
        "delete for good",
        "delete for good by a query",
        "update to practice",
        "update the finish",
    ],
)
def test_every_kind_of_change_converges_to_the_rebuild_through_the_queue(
    queued, make_game, club, change
):
    with queued():
        games = league(make_game)
        # Bob's smudge will finish it in the league's second night.
        pending = make_game("setback", ("Ann", "Bob", "Cy")).game
        hand_record(
            game=pending,
            record=HandRecord(pitcher="Cy", bid=3, points=pts("Cy", "Ann", "Ann", "Ann")),
        )
    old = games[1]
    if change in ("back from practice", "restore"):
        with queued():
            if change == "restore":
                game_delete(game=old)
            else:
                game_counts_set(game=old, counts=False)
    before = ratings(club)

    with queued(), at(moment(2024, 1, 2) + timedelta(hours=1)):
        {
            "add a hand": lambda: hand_record(
                game=pending,
                record=HandRecord(pitcher="Bob", bid=4, points=pts("Bob", "Bob", "Bob", "Bob")),
            ),
            "edit": lambda: edit_first_hand(old),
            "delete a hand": lambda: hand_delete(game=old, number=2),
            "practice": lambda: game_counts_set(game=old, counts=False),
            "back from practice": lambda: game_counts_set(game=old, counts=True),
            "delete": lambda: game_delete(game=old),
            "restore": lambda: game_restore(game=old),
            "delete for good": lambda: Game.objects.get(pk=old.pk).delete(),
            "delete for good by a query": lambda: Game.objects.filter(pk=old.pk).delete(),
            "update to practice": lambda: Game.objects.filter(pk=old.pk).update_counted(
                counts=False
            ),
            "update the finish": lambda: Game.objects.filter(pk=old.pk).update_counted(
                finished_at=moment(2024, 2, 10)
            ),
        }[change]()

    assert ratings(club) != before
    assert not RatingsDue.objects.exists()
    rollups_match_the_games(club)
    assert derived(club) == rebuilt(club)


def test_an_update_of_what_counts_is_refused_and_changes_nothing(make_game, club):
    games = league(make_game, 3)
    old = Game.objects.get(pk=games[1].pk)
    before = derived(club)

    with pytest.raises(CountedFieldError, match="counts would leave the statistics behind"):
        Game.objects.filter(pk=old.pk).update(counts=False)
    with pytest.raises(CountedFieldError, match="deleted_at, winner"):
        Game.objects.filter(pk=old.pk).update(winner_id=None, deleted_at=timezone.now())
    old.finished_at = moment(2024, 2, 10)
    # bulk_update writes in a transaction of its own, which the refusal rolls back.
    with pytest.raises(CountedFieldError, match="finished_at would"), transaction.atomic():
        Game.objects.bulk_update([old], ["finished_at"])

    assert Game.objects.filter(counts=True, deleted_at=None, winner__isnull=False).count() == 3
    assert Game.objects.get(pk=old.pk).finished_at == moment(2024, 1, 2)
    assert derived(club) == before == rebuilt(club)
    # The ledger reads the chip value; what the statistics do not read is updated as before.
    with pytest.raises(CountedFieldError, match="chip_value would"):
        Game.objects.filter(pk=old.pk).update(chip_value="0.25")
    assert Game.objects.filter(pk=old.pk).update(created=moment(2024, 1, 1)) == 1


def test_the_pages_say_while_ratings_are_due(client, make_game, club, queued):
    with queued():
        games = league(make_game, 3)
    player = games[0].seats.first().player
    urls = [reverse("leaderboard"), reverse("player_stats", args=[player.pk])]
    assert not any(NOTICE in client.get(url).content.decode() for url in urls)

    edit_first_hand(games[0])

    for url in urls:
        for page in (client.get(url), client.get(url, **HTMX)):
            assert NOTICE in page.content.decode(), url
    russian = client.get(urls[0], HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Рейтинги пересчитываются" in russian and NOTICE not in russian
    norwegian = client.get(urls[1], HTTP_ACCEPT_LANGUAGE="nb").content.decode()
    assert "Styrken regnes ut på nytt" in norwegian and NOTICE not in norwegian

    with queued():
        call_command("rerate")
    assert not any(NOTICE in client.get(url).content.decode() for url in urls)


@pytest.mark.django_db(transaction=True)
def test_the_database_backend_runs_the_task_in_its_worker(settings, make_game, club):
    """Queued on commit, run by `manage.py db_worker` (here in the test's process, out
    of any transaction as a worker is)."""
    settings.TASKS = DATABASE_BACKEND
    games = league(make_game)
    settings.RERATE_INLINE_GAMES = 0
    settings.RERATE_STEP_GAMES = 1
    settings.RERATE_PAUSE_MS = 0
    edit_first_hand(games[0])
    [task] = DBTaskResult.objects.all()
    assert task.task_path == "pitchkeeper.seasons.tasks.ratings_rerate"
    assert task.args_kwargs == {"args": [club.pk], "kwargs": {}}
    assert RatingsDue.objects.exists()

    call_command("db_worker", batch=True, reload=False, startup_delay=False, verbosity=0)

    task.refresh_from_db()
    # One game a step, from the edited game to the last of the six.
    assert task.status == "SUCCESSFUL" and task.return_value == 6
    # The check it queued against a dying worker waits its time, then finds nothing due.
    [check] = DBTaskResult.objects.exclude(pk=task.pk)
    assert check.status == "READY" and check.run_after > task.started_at
    assert not RatingsDue.objects.exists()
    assert derived(club) == rebuilt(club)


@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_half_way_leaves_the_work_to_the_next(settings, make_game, club):
    """The queue and the worker as they run for real: a db_worker process is killed
    (SIGKILL) in the middle of a re-rating; the next worker run finishes it, and the
    ratings are what stats_rebuild writes."""
    settings.TASKS = DATABASE_BACKEND
    games = league(make_game, 60)
    settings.RERATE_INLINE_GAMES = 0
    edit_first_hand(games[0])  # commits, and so queues the task
    start = RatingsDue.objects.get(club=club).since_game
    environment = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "TASKS_BACKEND": "django_tasks_db.DatabaseBackend",
        "RERATE_STEP_GAMES": "1",
        "RERATE_PAUSE_MS": "10",
        "RERATE_RETRY_SECONDS": "1",
    }
    worker = [sys.executable, "manage.py", "db_worker", "--no-reload", "--no-startup-delay"]

    first = subprocess.Popen(worker, cwd=ROOT, env=environment, stdout=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while RatingsDue.objects.get(club=club).since_game == start:
            assert time.monotonic() < deadline, "the worker never started"
            time.sleep(0.01)
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait()
    killed_at = RatingsDue.objects.get(club=club).since_game
    assert killed_at != start, "killed before it began"
    assert DBTaskResult.objects.filter(status="RUNNING").count() == 1

    time.sleep(1.5)  # the check the killed task queued is due
    subprocess.run([*worker, "--batch"], cwd=ROOT, env=environment, check=True, timeout=120)

    assert not RatingsDue.objects.exists()
    assert derived(club) == rebuilt(club)


def database_url() -> str:
    """The test database's address, for a process of its own."""
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    password = quote(db["PASSWORD"] or "", safe="")
    where = f"{db['HOST'] or 'localhost'}:{db['PORT'] or 5432}"
    return f"postgres://{quote(db['USER'] or '', safe='')}:{password}@{where}/{db['NAME']}"


def test_serve_runs_the_worker_beside_the_server_and_stops_it(tmp_path):
    """`manage.py serve` starts db_worker, serves, and takes the worker down with it."""
    import socket
    import urllib.request

    environment = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "TASKS_BACKEND": "django_tasks_db.DatabaseBackend",
    }
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "-v0"], cwd=ROOT, env=environment, check=True)
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    # What serve says, and (faulthandler, on SIGABRT) where each of its threads is when
    # it does not stop. Started as from a terminal, where Ctrl+C reaches it: a suite run
    # as a shell's background job has SIGINT ignored, which its children inherit, and
    # serve then outlived Ctrl+C (it was found waiting in serve_forever).
    output = (tmp_path / "serve.log").open("w")
    server = subprocess.Popen(
        [*manage, "serve", f"127.0.0.1:{port}", "--noreload"],
        cwd=ROOT,
        env={**environment, "PYTHONFAULTHANDLER": "1"},
        stdout=output,
        stderr=subprocess.STDOUT,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    workers: set[int] = set()
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/health/") as answer:
                    assert answer.status == 200
                    break
            except OSError:
                assert time.monotonic() < deadline, "the server never answered"
                time.sleep(0.2)
        workers = _workers(server.pid)
        assert workers, "no db_worker running"
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.send_signal(signal.SIGABRT)
            server.wait(timeout=30)
            for pid in _workers(server.pid) | workers:
                os.kill(pid, signal.SIGKILL)
            output.close()
            said = (tmp_path / "serve.log").read_text()[-8000:]
            pytest.fail(f"serve did not stop 30 s after Ctrl+C; it said:\n{said}")
        output.close()
    time.sleep(0.5)
    assert not [pid for pid in workers if _alive(pid)]


def _workers(parent: int) -> set[int]:
    """The db_worker processes started by ``parent``, and their own children."""
    listing = subprocess.run(["ps", "-eo", "pid,ppid,args"], capture_output=True, text=True)
    rows = [line.split(maxsplit=2) for line in listing.stdout.splitlines()[1:]]
    found: set[int] = set()
    parents = {parent}
    for _round in range(3):
        for pid, ppid, args in rows:
            if int(ppid) in parents and "db_worker" in args:
                found.add(int(pid))
        parents |= found
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


@pytest.mark.django_db(transaction=True)
def test_the_rq_backend_runs_the_task_in_an_rq_worker(settings, make_game, club, redis_url):
    """The queue of several machines: django-tasks-rq on Redis, its task run by an RQ
    worker (here in the test's process, as `manage.py rqworker --burst` runs it)."""
    import django_rq
    from django_tasks_rq import Job
    from rq import SimpleWorker

    settings.TASKS = {"default": {"BACKEND": "django_tasks_rq.RQBackend"}}
    settings.RQ_QUEUES = {"default": {"URL": redis_url}}
    games = league(make_game)
    settings.RERATE_INLINE_GAMES = 0
    settings.RERATE_STEP_GAMES = 2
    settings.RERATE_PAUSE_MS = 0
    edit_first_hand(games[0])
    queue = django_rq.get_queue("default", job_class=Job)
    assert queue.count == 1 and RatingsDue.objects.exists()

    worker = SimpleWorker([queue], connection=queue.connection, job_class=Job)
    assert worker.work(burst=True, with_scheduler=False)

    [job] = queue.finished_job_registry.get_job_ids()
    # Two games a step, from the edited game to the last of the six.
    assert queue.fetch_job(job).return_value() == 3
    # The check against a dying worker waits its time in RQ's schedule.
    assert queue.scheduled_job_registry.count == 1
    assert not RatingsDue.objects.exists()
    assert derived(club) == rebuilt(club)
