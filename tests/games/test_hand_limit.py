"""The most hands a game may have (rules.record.MAX_HANDS): a hand past it is refused on
the game screen with the reason, whether added, put in or restored, and a game that long
still answers quickly."""

from __future__ import annotations

import time

import pytest
from django.urls import reverse

from pitchkeeper.games.hands import hand_insert, hand_record
from pitchkeeper.games.models import Hand
from pitchkeeper.games.services import games_import
from pitchkeeper.rules import HandRecord, RuleError
from pitchkeeper.rules.record import MAX_HANDS
from tests.conftest import entry_basis
from tests.games.test_views_game import HTMX, hand_post

pytestmark = pytest.mark.django_db


@pytest.fixture
def full_game(club, game_data):
    """A game of MAX_HANDS misdeals, the most allowed."""
    return games_import(club=club, games=[game_data(hands=[{"misdeal": True}] * MAX_HANDS)])[0]


@pytest.mark.parametrize("htmx", [False, True])
def test_a_hand_past_the_most_is_refused_with_the_reason(client, full_game, htmx):
    response = client.post(
        reverse("hand_add", args=[full_game.pk]),
        {**entry_basis(full_game.pk), **hand_post()},
        **(HTMX if htmx else {}),
    )

    assert response.status_code == 400
    html = response.content.decode()
    assert f"A game can have at most {MAX_HANDS} hands, and this one has them all." in html
    assert "Start a new game." in html
    assert ("<html" in html) is not htmx
    assert Hand.objects.filter(game=full_game).count() == MAX_HANDS


def test_the_reason_is_in_the_users_language(client, full_game):
    response = client.post(
        reverse("hand_add", args=[full_game.pk]),
        {**entry_basis(full_game.pk), **hand_post()},
        HTTP_ACCEPT_LANGUAGE="ru",
    )

    assert f"В партии может быть не больше {MAX_HANDS} сдач" in response.content.decode()


def test_no_hand_is_put_in_past_the_most(full_game):
    with pytest.raises(RuleError, match="at most"):
        hand_insert(game=full_game, number=1, record=HandRecord(misdeal=True))
    with pytest.raises(RuleError, match="at most"):
        hand_record(game=full_game, record=HandRecord(misdeal=True))


def test_the_last_hand_allowed_is_taken(make_game, monkeypatch):
    monkeypatch.setattr("pitchkeeper.games.hands.MAX_HANDS", 3)
    game = make_game().game
    for _number in range(3):
        hand_record(game=game, record=HandRecord(misdeal=True))

    with pytest.raises(RuleError):
        hand_record(game=game, record=HandRecord(misdeal=True))
    assert game.hands.count() == 3


def test_a_game_of_the_most_hands_answers_quickly(client, full_game):
    started = time.perf_counter()
    page = client.get(reverse("game", args=[full_game.pk]))
    home = client.get("/")
    took = time.perf_counter() - started

    assert page.status_code == home.status_code == 200
    # 100,000 hands took 28 s; a shared machine's noise stays well inside this.
    assert took < 5, took
