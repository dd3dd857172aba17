"""At game over the game screen carries the result, worded on the server in the user's
language, for the Share button (static/js/table.js) to hand to the share sheet."""

from __future__ import annotations

import html as html_module
import re

import pytest
from django.urls import reverse

from pitchkeeper.games.hands import hand_record
from tests.conftest import entry_basis
from tests.games.test_views_edit_auction import three

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def shared(page: str) -> str | None:
    found = re.search(r'data-share="([^"]*)"', page)
    return html_module.unescape(found[1]) if found else None


@pytest.fixture
def almost(make_game):
    """Bob on 6 of 7 after two hands: the next 3 made wins."""
    game = make_game().game
    hand_record(game=game, record=three())
    hand_record(game=game, record=three())
    return game


def test_no_share_button_while_the_game_goes_on(client, almost):
    page = client.get(reverse("game", args=[almost.pk])).content.decode()

    assert shared(page) is None
    # The module that would share is fetched after load all the same (the wake lock).
    assert "js/table.js" in page


def test_game_over_carries_the_result_to_share(client, almost):
    hand_record(game=almost, record=three())

    page = client.get(reverse("game", args=[almost.pk])).content.decode()

    text = shared(page)
    live = f"http://testserver{reverse('live', args=[almost.share_token])}"
    assert text.split("\n") == [
        "Bob wins: made the bid and reached 7",
        "Final scores: Ann 0, Bob 9, Cy 3, Dee 0",
        "Settlement: Ann pays Bob 2 chips; Cy pays Bob 1 chip; Dee pays Bob 2 chips",
        live,
    ]
    assert re.search(r"<button[^>]*data-share[^>]*hidden", page)


def test_the_winning_save_answers_with_the_share_button_for_htmx(client, almost):
    data = {
        **entry_basis(almost.pk),
        "action": "save",
        "pitcher": "Bob",
        "bid": "3",
        "point_high": "Bob",
        "point_low": "Bob",
        "point_jack": "Bob",
        "point_game": "Cy",
    }

    response = client.post(reverse("hand_add", args=[almost.pk]), data, **HTMX)

    page = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in page
    assert shared(page).startswith("Bob wins")


def test_the_result_is_in_the_readers_language(client, almost):
    hand_record(game=almost, record=three())

    page = client.get(reverse("game", args=[almost.pk]), HTTP_ACCEPT_LANGUAGE="ru").content
    text = shared(page.decode())

    assert "Final scores" not in text
    assert "Settlement" not in text
    assert "Share the result" not in page.decode()
