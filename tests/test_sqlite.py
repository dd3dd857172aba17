"""SQLite under concurrent writers: WAL, a busy timeout and IMMEDIATE transactions, so
that several phones saving hands while live scoreboards read never meet "database is
locked". The tests run on a database file (settings), as a real run does."""

from __future__ import annotations

import threading

import pytest
from django.db import close_old_connections, connection
from django.test import Client

from pitchkeeper.games.hands import hand_record
from pitchkeeper.games.models import Game, Hand
from pitchkeeper.games.replay import game_state
from pitchkeeper.rules import HandRecord

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite only"),
]

WRITERS = 6
HANDS_EACH = 15


def test_a_fresh_connection_has_wal_and_a_busy_timeout():
    connection.close()
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA journal_mode")
        assert cursor.fetchone()[0] == "wal"
        cursor.execute("PRAGMA busy_timeout")
        assert cursor.fetchone()[0] == 20_000
        cursor.execute("PRAGMA synchronous")
        assert cursor.fetchone()[0] == 1  # NORMAL: safe with WAL, fewer fsyncs
    assert connection.transaction_mode == "IMMEDIATE"
    assert not connection.is_in_memory_db()


def next_hand(state) -> HandRecord:
    """A hand that keeps the game going: the leader pitches 3 and takes only High (set
    back); the next two take Low and Jack; Game is tied."""
    sides = sorted(state.result.scores, key=lambda side: -state.result.scores[side])
    return HandRecord(
        pitcher=sides[0],
        bid=3,
        points={"high": sides[0], "low": sides[1], "jack": sides[2], "game": None},
    )


def race(make_game, *, begin_immediate: bool = True) -> tuple[list[BaseException], list[Game]]:
    """WRITERS threads record HANDS_EACH hands each, every one in its own game, while a
    live scoreboard polls one of them: the errors met, and the games."""
    games = [make_game("setback", ("Ann", "Bob", "Cy", "Dee")).game for _ in range(WRITERS)]
    watched = games[0]
    start = threading.Barrier(WRITERS + 1)
    writing = threading.Event()
    errors: list[BaseException] = []
    reads: list[int] = []

    def guarded(work):
        def run():
            try:
                start.wait(timeout=30)
                work()
            except BaseException as error:  # noqa: BLE001 - reported by the test
                errors.append(error)
            finally:
                connection.close()

        return run

    def write(game: Game) -> None:
        if not begin_immediate:
            # What the setting prevents: a transaction that reads first and takes the
            # write lock only at its first write.
            connection.ensure_connection()
            connection.transaction_mode = None
        for _hand in range(HANDS_EACH):
            state = game_state(game=game)
            hand_record(game=game, record=next_hand(state))

    def read() -> None:
        client = Client()
        url = f"/live/{watched.share_token}/"
        while True:
            response = client.get(url)
            assert response.status_code == 200, response.status_code
            reads.append(len(game_state(game=watched).hands))
            close_old_connections()
            if not writing.is_set():
                break

    writing.set()
    writers = [threading.Thread(target=guarded(lambda g=g: write(g))) for g in games]
    reader = threading.Thread(target=guarded(read))
    for thread in [*writers, reader]:
        thread.start()
    for thread in writers:
        thread.join(timeout=120)
    writing.clear()
    reader.join(timeout=60)
    assert not any(thread.is_alive() for thread in [*writers, reader])
    # The reader went on reading while the writers wrote, and never saw a hand vanish.
    assert reads and reads == sorted(reads)
    return errors, games


def test_writers_of_different_games_and_a_reader_never_see_database_is_locked(make_game):
    errors, games = race(make_game)

    assert not errors, [repr(error) for error in errors]
    for game in games:
        numbers = Hand.objects.filter(game=game).values_list("number", flat=True)
        assert list(numbers) == list(range(1, HANDS_EACH + 1))


def test_the_same_load_without_immediate_transactions_does_meet_it(make_game):
    """The control: the race above is close enough to fail without BEGIN IMMEDIATE."""
    for _attempt in range(3):
        errors, _games = race(make_game, begin_immediate=False)
        if errors:
            break
    assert errors and all("database is locked" in str(error) for error in errors)
