"""A restore whose place has been taken since says what it would do and is done only
when confirmed (or refused with the reason); the totals after any restore are those of
a fresh replay of the hands the game shows."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.urls import reverse
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from pitchkeeper.games.hands import Conflict, change_restore, hand_delete, hand_edit, hand_record
from pitchkeeper.games.models import Game, Hand, HandChange
from pitchkeeper.games.replay import game_state
from pitchkeeper.games.restoring import restore_plan
from pitchkeeper.rules import HandRecord, RuleError, replay

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
NAMES = ("Ann", "Bob", "Cy", "Dee")


def played(pitcher: str, bid: int = 2, high: str | None = None, game: str | None = "Cy"):
    high = high or pitcher
    return HandRecord(
        pitcher=pitcher, bid=bid, points={"high": high, "low": high, "jack": None, "game": game}
    )


@pytest.fixture
def taken(make_game):
    """Hand 2 (Bob's deal, Cy bid) undone, and another hand 2 entered in its place: its
    restore would push the new hand 2 to hand 3, under Cy's deal instead of Bob's."""
    game = make_game().game
    hand_record(game=game, record=played("Bob"))
    hand_record(game=game, record=played("Cy", 3))
    hand_delete(game=game, number=2, undo=True)
    hand_record(game=game, record=played("Dee"))
    return game, game.changes.get(action="undo")


def restore_url(game: Game, change: HandChange) -> str:
    return reverse("change_restore", args=[game.pk, change.pk])


def fresh_totals(game: Game) -> dict[str, int]:
    """The totals of a replay of the hands as stored now, nothing kept from before."""
    cache.clear()
    state = game_state(game=Game.objects.get(pk=game.pk), whole=True)
    record = state.record
    return replay(record.rules, record.seating, record.first_dealer, record.hands).scores


def test_a_restore_whose_place_was_taken_says_what_it_would_do_first(client, taken):
    game, change = taken
    hands = list(Hand.objects.values_list("pk", "number", "version"))

    response = client.post(restore_url(game, change))

    assert response.status_code == 200
    html = response.content.decode()
    assert "<html" in html
    assert "Restore hand 2?" in html
    assert "It would go back in as hand 2" in html
    assert "Cy bid 3" in html
    assert "Hand 2 becomes hand 3, dealt by Cy instead of Bob." in html
    # Cy's 3 made (High, Low, Game) on top of the two Games Cy has.
    assert "Cy: 2 → <strong>5</strong>" in html
    assert "Dee would deal the next hand, instead of Cy." in html
    assert f'name="revision" value="{Game.objects.get(pk=game.pk).revision}"' in html
    assert list(Hand.objects.values_list("pk", "number", "version")) == hands


def test_the_question_is_the_history_fragment_for_htmx(client, taken):
    game, change = taken

    response = client.post(restore_url(game, change), **HTMX)

    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html
    assert html.lstrip().startswith('<div id="changes">')
    assert 'hx-target="#changes"' in html
    assert Hand.objects.filter(game=game).count() == 2


@pytest.mark.parametrize("htmx", [False, True])
def test_confirmed_the_restore_is_done_and_the_totals_are_a_fresh_replay(client, taken, htmx):
    game, change = taken
    plan = restore_plan(game=game, change=change)

    response = client.post(
        restore_url(game, change), {"revision": plan.revision}, **(HTMX if htmx else {})
    )

    assert response.status_code == (200 if htmx else 302)
    state = game_state(game=Game.objects.get(pk=game.pk))
    assert [hand.pitcher for hand in state.result.hands] == ["Bob", "Cy", "Dee"]
    assert [hand.dealer for hand in state.result.hands] == ["Ann", "Bob", "Cy"]
    assert state.result.scores == fresh_totals(game) == {t.side: t.after for t in plan.totals}
    # A second tap on the same confirmation puts nothing in twice.
    again = client.post(restore_url(game, change), {"revision": plan.revision})
    assert again.status_code == 302
    assert Hand.objects.filter(game=game).count() == 3


def test_a_confirmation_for_a_game_changed_since_is_asked_again(client, taken):
    game, change = taken
    plan = restore_plan(game=game, change=change)
    hand_record(game=game, record=HandRecord(misdeal=True))

    response = client.post(restore_url(game, change), {"revision": plan.revision}, **HTMX)

    assert response.status_code == 409
    html = response.content.decode()
    assert "nothing was restored" in html
    assert "Hand 3 becomes hand 4" in html
    assert Hand.objects.filter(game=game).count() == 3
    with pytest.raises(Conflict):
        change_restore(game=game, change=change, revision=plan.revision)


def test_an_edit_restored_over_a_later_change_asks_first(client, make_game):
    game = make_game().game
    hand_record(game=game, record=played("Bob"))
    hand_edit(game=game, number=1, record=played("Cy", 3))
    hand_edit(game=game, number=1, record=played("Dee", 2))
    first = game.changes.filter(action="edit").earliest("pk")

    html = client.post(restore_url(game, first)).content.decode()

    assert "Hand 1 was changed again since. As it is now:" in html
    assert "Dee bid 2" in html
    assert "Bob bid 2" in html
    assert Hand.objects.get(game=game).pitcher.name == "Dee"


def test_a_plain_restore_is_done_at_once(client, make_game):
    game = make_game().game
    hand_record(game=game, record=played("Bob"))
    hand_record(game=game, record=played("Cy"))
    hand_delete(game=game, number=2)

    response = client.post(restore_url(game, game.changes.get(action="delete")), follow=True)

    assert "Hand 2 restored." in response.content.decode()
    assert Hand.objects.filter(game=game).count() == 2


def test_a_garbled_confirmation_restores_nothing(client, taken):
    game, change = taken

    response = client.post(restore_url(game, change), {"revision": "x1"}, follow=True)

    assert "This page is out of date or damaged" in response.content.decode()
    assert Hand.objects.filter(game=game).count() == 2


# ---- Any restore, after any changes: the totals of a fresh replay ----

PLAYER = st.sampled_from(NAMES)
HAND = st.one_of(
    st.builds(lambda: HandRecord(misdeal=True)),
    st.builds(
        lambda pitcher, bid, high, low, game: HandRecord(
            pitcher=pitcher,
            bid=bid,
            points={"high": high, "low": low, "jack": None, "game": game},
        ),
        PLAYER,
        st.integers(2, 3),
        PLAYER,
        PLAYER,
        st.one_of(st.none(), PLAYER),
    ),
)
RESTORE = st.tuples(st.just("restore"), st.integers(0, 20))
STEP = st.one_of(
    st.tuples(st.just("add"), HAND),
    st.tuples(st.just("edit"), st.integers(1, 4), HAND),
    st.tuples(st.just("delete"), st.integers(1, 4)),
    st.tuples(st.just("undo")),
    RESTORE,
    RESTORE,
)


def _step(game: Game, step: tuple) -> None:
    kind = step[0]
    if kind == "add":
        hand_record(game=game, record=step[1])
    elif kind == "edit":
        hand_edit(game=game, number=step[1], record=step[2])
    elif kind == "delete":
        hand_delete(game=game, number=step[1])
    elif kind == "undo":
        hand_delete(game=game, number=Hand.objects.filter(game=game).count(), undo=True)
    else:
        changes = [change for change in game.changes.order_by("pk") if change.before]
        change = changes[step[1] % len(changes)] if changes else None
        if change is None:
            return
        plan = restore_plan(game=game, change=change)
        change_restore(game=game, change=change, revision=plan.revision)
        assert fresh_totals(game) == {total.side: total.after for total in plan.totals}
        event("restored, asked first" if plan.asks else "restored at once")


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    first=st.lists(st.tuples(st.just("add"), HAND), min_size=2, max_size=4),
    steps=st.lists(STEP, min_size=1, max_size=10),
)
def test_the_totals_after_any_restore_are_a_fresh_replay(make_game, first, steps):
    game = make_game().game
    for step in [*first, *steps]:
        try:
            _step(game, step)
        except Conflict:
            raise  # a restore confirmed on the game as it is must go through
        except RuleError:
            pass  # refused, and nothing changed: the next step goes on from there
        state = game_state(game=Game.objects.get(pk=game.pk))
        assert state.result.scores == fresh_totals(game)
