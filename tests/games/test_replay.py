"""A request replays its game at most once, and mostly not at all: what the engine
made of a game's hands is kept in the cache and, by the save, in the database, so the
game screen plays no hand and a hand submit only the new one, whatever the game's
length, in this worker or another; with nothing kept anywhere the screen plays each
stored hand once. The state a save hands back is the one a fresh read gives, and no
change to the hands is ever answered from an older replay."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from pitchkeeper.games import replay
from pitchkeeper.games.hands import (
    change_restore,
    hand_delete,
    hand_edit,
    hand_insert,
    hand_record,
)
from pitchkeeper.games.models import Game, GameReplay, Hand
from pitchkeeper.games.replay import GameState, game_state
from pitchkeeper.rules import HandRecord
from pitchkeeper.rules.engine import RunningGame
from tests.conftest import entry_basis

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
HANDS = 12
SMUDGE = ("high", "low", "jack", "game")


def next_hand(state: GameState) -> HandRecord:
    """A hand that keeps the game going: the leader pitches 3, takes only High and is
    set back; the next two take Low and Jack."""
    scores = state.result.scores
    sides = sorted(scores, key=lambda side: -scores[side])
    return HandRecord(
        pitcher=sides[0],
        bid=3,
        points={"high": sides[0], "low": sides[1], "jack": sides[2], "game": None},
    )


def as_posted(record: HandRecord) -> dict[str, str]:
    data = {"pitcher": record.pitcher, "bid": str(record.bid), "action": "save"}
    data.update({f"point_{key}": side or "nobody" for key, side in record.points.items()})
    return data


def another_worker() -> None:
    """What another worker (or this one restarted) has: its own cache, empty."""
    cache.clear()


def nothing_kept() -> None:
    """As a game last saved before its replay was kept in the database, or by another
    engine: kept nowhere."""
    cache.clear()
    GameReplay.objects.all().delete()


@pytest.fixture
def state(make_game) -> GameState:
    state = make_game()
    for _hand in range(HANDS):
        state = hand_record(game=state.game, record=next_hand(state))
    assert len(state.hands) == HANDS and not state.result.finished
    return state


@pytest.fixture
def played(monkeypatch) -> list[int]:
    """The hands the engine plays from here on, by number (each replay from the first)."""
    numbers: list[int] = []
    play = RunningGame.play

    def counted(self: RunningGame, record: HandRecord) -> None:
        numbers.append(len(self.hands) + 1)
        play(self, record)

    monkeypatch.setattr(RunningGame, "play", counted)
    return numbers


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["full page", "htmx fragment"])
def test_the_game_screen_plays_no_hand_when_the_replay_is_kept(client, state, played, headers):
    response = client.get(reverse("game", args=[state.game.pk]), **headers)

    assert response.status_code == 200
    assert played == []


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["full page", "htmx fragment"])
def test_the_game_screen_replays_the_game_once_when_nothing_is_kept(client, state, played, headers):
    nothing_kept()

    for _read in range(2):
        response = client.get(reverse("game", args=[state.game.pk]), **headers)
        assert response.status_code == 200

    # The first read replays and keeps it; the second plays nothing.
    assert played == list(range(1, HANDS + 1))


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["full page", "htmx fragment"])
def test_another_worker_shows_the_game_as_its_last_save_kept_it(client, state, played, headers):
    """Its own cache is empty: it reads what the save kept in the database, one row,
    and neither replays the game nor reads a hand."""
    another_worker()

    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("game", args=[state.game.pk]), **headers)

    assert response.status_code == 200
    assert played == []
    sql = [q["sql"] for q in queries.captured_queries]
    assert [q for q in sql if '"pitchkeeper_hand"' in q] == []
    assert sum('FROM "pitchkeeper_gamereplay"' in q for q in sql) == 1
    # And keeps it: the next read asks the database for nothing of it.
    with CaptureQueriesContext(connection) as queries:
        client.get(reverse("game", args=[state.game.pk]), **headers)
    assert not any("pitchkeeper_gamereplay" in q["sql"] for q in queries.captured_queries)


def test_the_database_keeps_a_game_at_its_last_revision_and_not_once_it_is_over(make_game):
    game = make_game().game
    points = {"high": "Bob", "low": "Bob", "jack": "Cy", "game": None}
    record = HandRecord(pitcher="Bob", bid=2, points=points)
    saved = hand_record(game=game, record=record)
    kept = GameReplay.objects.get(game=game)
    assert (kept.revision, kept.updated) == (saved.game.revision, saved.game.updated)

    saved = hand_record(game=game, record=record)
    kept = GameReplay.objects.get(game=game)
    assert (kept.revision, kept.updated) == (saved.game.revision, saved.game.updated)

    # A smudge (the bid of 4 made, every point taken) wins the game at once.
    smudge = HandRecord(pitcher="Cy", bid=4, points=dict.fromkeys(SMUDGE, "Cy"))
    assert hand_record(game=game, record=smudge).result.finished
    assert not GameReplay.objects.filter(game=game).exists()


@pytest.mark.parametrize(
    "stale",
    [
        {"engine": "another-engine"},
        {"revision": 1},
        {"updated": "2000-01-01T00:00:00+00:00"},
    ],
    ids=["another engine", "another revision", "another write"],
)
def test_a_row_kept_of_another_game_state_or_engine_is_not_read(state, played, stale):
    """The database row is read only at the game's revision and time of write, and as
    this engine kept it: any other is replayed over, not shown."""
    GameReplay.objects.filter(game=state.game).update(**stale)
    another_worker()

    read = game_state(game=Game.objects.get(pk=state.game.pk))

    assert played == list(range(1, HANDS + 1))
    assert read.result == state.result


@pytest.mark.parametrize(
    "kept", ["here", "another worker", "nothing kept"], ids=lambda kept: f"kept {kept}"
)
@pytest.mark.parametrize(
    ("headers", "status"), [({}, 302), (HTMX, 200)], ids=["no JS", "htmx fragment"]
)
def test_a_hand_submit_plays_the_new_hand_only(client, state, played, headers, status, kept):
    if kept == "another worker":
        another_worker()
    elif kept == "nothing kept":
        nothing_kept()
    data = {**as_posted(next_hand(state)), "expected": str(HANDS + 1)}

    response = client.post(
        reverse("hand_add", args=[state.game.pk]),
        {**entry_basis(state.game.pk), **entry_basis(state.game.pk), **data},
        **headers,
    )

    assert response.status_code == status
    assert Hand.objects.filter(game=state.game).count() == HANDS + 1
    # Kept nowhere, the stored hands once, from the first; then the new one.
    assert played == [*(range(1, HANDS + 1) if kept == "nothing kept" else []), HANDS + 1]


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["no JS", "htmx fragment"])
def test_undo_replays_what_is_left_once_and_redo_plays_the_hand_again(
    client, state, played, headers
):
    client.post(reverse("undo", args=[state.game.pk]), **headers)
    # The game without its last hand, once: what is kept is the game with it.
    assert played == list(range(1, HANDS))

    client.post(reverse("redo", args=[state.game.pk]), entry_basis(state.game.pk), **headers)

    assert played == [*range(1, HANDS), HANDS]
    assert game_state(game=state.game).record == state.record


def test_undo_with_nothing_kept_replays_the_game_and_what_is_left(client, state, played):
    nothing_kept()

    client.post(reverse("undo", args=[state.game.pk]))

    # The stored hands once (the view), then the game without its last hand.
    assert played == [*range(1, HANDS + 1), *range(1, HANDS)]


def replayed_afresh(state: GameState) -> GameState:
    """``state`` with its result played again from the stored hands."""
    fresh = game_state(game=state.game)
    assert fresh.result == fresh.record.replay()
    return fresh


def test_every_change_to_the_hands_is_read_back_as_a_fresh_replay_gives_it(state):
    """Each change below, read back through the cache, is what the engine makes of the
    hands now stored, never a result kept from before it."""
    game = state.game
    first = state.record.hands[0]
    results = [replayed_afresh(state).result]

    hand_edit(
        game=game,
        number=1,
        record=HandRecord(pitcher=first.pitcher, bid=2, points=dict(first.points)),
    )
    results.append(replayed_afresh(state).result)
    hand_delete(game=game, number=4)
    results.append(replayed_afresh(state).result)
    hand_delete(game=game, number=HANDS - 1, undo=True)
    results.append(replayed_afresh(state).result)
    hand_insert(game=game, number=2, record=HandRecord(misdeal=True))
    results.append(replayed_afresh(state).result)
    change = game.changes.filter(action="delete").get()
    change_restore(game=game, change=change)
    results.append(replayed_afresh(state).result)
    hand_record(game=game, record=next_hand(game_state(game=game)))
    results.append(replayed_afresh(state).result)

    # Every change made a different game, so no step could pass on an older result.
    assert all(a != b for a, b in zip(results, results[1:], strict=False))


def rows(state: GameState) -> list[dict]:
    """Every column of every hand, the id too."""
    fields = Hand._meta.concrete_fields
    return [
        {field.attname: getattr(hand, field.attname) for field in fields} for hand in state.hands
    ]


def test_the_state_a_save_returns_is_what_a_fresh_read_gives(state):
    saved = hand_record(game=state.game, record=next_hand(state), seen=state)

    fresh = game_state(game=state.game)
    assert saved.record == fresh.record
    assert saved.result == fresh.result
    assert rows(saved) == rows(fresh)
    assert [seat.pk for seat in saved.seats] == [seat.pk for seat in fresh.seats]


def test_a_save_after_another_phone_saved_replays_what_is_stored(state):
    # Another phone saved a hand after this one read the game.
    other = hand_record(game=state.game, record=next_hand(state))

    saved = hand_record(game=state.game, record=next_hand(other), seen=state)

    fresh = game_state(game=state.game)
    assert len(saved.hands) == HANDS + 2
    assert saved.result == fresh.result and rows(saved) == rows(fresh)


def test_a_save_after_another_phone_edited_a_hand_replays_what_is_stored(state):

    first = state.record.hands[0]
    changed = HandRecord(pitcher=first.pitcher, bid=2, points=dict(first.points))
    hand_edit(game=state.game, number=1, record=changed)

    saved = hand_record(game=state.game, record=HandRecord(misdeal=True), seen=state)

    fresh = game_state(game=state.game)
    assert saved.record.hands[0].bid == 2
    assert saved.result == fresh.result and rows(saved) == rows(fresh)


def test_a_read_and_each_one_tap_change_cost_the_same_queries_however_long_the_game(client, state):
    """A screen reads no hand row when the game is kept, and a change only the rows it
    compares: nothing asks for another column hand by hand, on any length of game."""

    game = state.game

    def counted() -> list[int]:
        counts = []
        # The entry's one-time token too: the submit looks for it among the hands.
        entry = {"action": "misdeal", "token": f"entry-{len(game_state(game=game).hands)}"}
        # What each sends, made just before it: a save states the game's basis as it is.
        requests = [
            ("get", reverse("game", args=[game.pk]), dict, {}),
            ("get", reverse("game_hands", args=[game.pk]), dict, HTMX),
            (
                "post",
                reverse("hand_add", args=[game.pk]),
                lambda: {**entry_basis(game.pk), **entry},
                {},
            ),
            ("post", reverse("undo", args=[game.pk]), dict, {}),
            ("post", reverse("redo", args=[game.pk]), lambda: entry_basis(game.pk), {}),
        ]
        for method, url, data, headers in requests:
            sent = data()
            with CaptureQueriesContext(connection) as queries:
                response = getattr(client, method)(url, sent, **headers)
            assert response.status_code in (200, 302)
            counts.append(len(queries.captured_queries))
        return counts

    # Once first, so that the session holds the same (an emptied redo stack) each time.
    counted()
    short = counted()
    for _hand in range(10):
        hand_record(game=game, record=HandRecord(misdeal=True))

    assert counted() == short


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["full page", "htmx fragment"])
def test_a_kept_game_screen_reads_no_hand_row(client, state, headers):
    """The revision names the hands: a game kept is shown from the cache alone."""

    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("game", args=[state.game.pk]), **headers)

    assert response.status_code == 200
    sql = [q["sql"] for q in queries.captured_queries]
    assert [q for q in sql if '"pitchkeeper_hand"' in q] == []
    # The game's row once: the seats' read finds it as it was read, not to be read again.
    assert sum('FROM "pitchkeeper_game"' in q for q in sql) == 1


def test_a_game_row_read_before_a_change_is_read_again(state):

    before = Game.objects.get(pk=state.game.pk)
    hand_record(game=state.game, record=next_hand(state))

    read = game_state(game=before)

    assert len(read.hands) == HANDS + 1 and read.result == read.record.replay()
    assert before.revision == Game.objects.get(pk=state.game.pk).revision


def test_hands_read_after_another_change_are_not_kept_under_the_rows_revision(state, monkeypatch):
    """Another phone saves between the game's row and its hands being read: what was
    read is shown, but not kept as the game at the revision its row said."""

    row = Game.objects.get(pk=state.game.pk)
    cache.clear()
    kept = replay._kept

    def raced(game):
        monkeypatch.setattr(replay, "_kept", kept)
        hand_record(game=state.game, record=next_hand(state))
        return None

    monkeypatch.setattr(replay, "_kept", raced)
    read = game_state(game=row)

    assert len(read.hands) == HANDS + 1
    # The save read and kept the game as it was before it, under that revision.
    assert len(replay._kept(row).hands) == HANDS


def test_a_save_rolled_back_leaves_nothing_that_a_later_save_is_answered_from(state, monkeypatch):
    """A save undone by its transaction after it kept the game, then another save at
    the same revision whose keeping is lost (a cache that drops what it cannot hold,
    as memcached does): the game read back is the hands stored, never the undone one."""

    class Undone(Exception):
        pass

    with pytest.raises(Undone), transaction.atomic():
        hand_record(game=state.game, record=HandRecord(misdeal=True))
        raise Undone
    with monkeypatch.context() as dropped:
        dropped.setattr(cache, "set", lambda *args, **kwargs: None)
        saved = hand_record(game=state.game, record=next_hand(state))

    read = game_state(game=state.game)

    assert read.record.hands[-1] == next_hand(state) and read.result == saved.result
    # Nor is another worker, from what the database kept.
    another_worker()
    elsewhere = game_state(game=Game.objects.get(pk=state.game.pk))
    assert elsewhere.record.hands[-1] == next_hand(state) and elsewhere.result == saved.result
