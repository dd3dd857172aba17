"""The auction helper on a hand's edit screen: it answers for the hand being edited (its
dealer, its bidding order, the scores before it), in a game in progress and in a
finished one, which has no next hand."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from pitchkeeper.games.hands import hand_record
from pitchkeeper.rules import HandRecord
from tests.games.test_views_auction_rounds import label_of

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def three(pitcher: str = "Bob") -> HandRecord:
    """Bid 3 and made: High, Low and Jack to the pitcher, Game to Cy."""
    return HandRecord(
        pitcher=pitcher,
        bid=3,
        points={"high": pitcher, "low": pitcher, "jack": pitcher, "game": "Cy"},
    )


def helper_url(html: str) -> str:
    """Where the edit screen's auction helper posts to."""
    return re.search(r'<div id="auction" hx-post="([^"]+)"', html)[1]


@pytest.fixture
def finished(make_game):
    """Setback to 7 for Ann, Bob, Cy and Dee: Bob makes 3 three times and wins. Hand 3
    is Cy's deal, so Dee bids first there."""
    game = make_game().game
    for _hand in range(3):
        state = hand_record(game=game, record=three())
    assert state.result.finished
    return game


@pytest.mark.parametrize("htmx", [False, True])
def test_the_edit_screen_of_a_finished_game_offers_its_auction(client, finished, htmx):
    page = client.get(reverse("hand_edit", args=[finished.pk, 3])).content.decode()

    # A tap on the first bid, as htmx posts the form to the helper.
    response = client.post(
        helper_url(page), {"version": "1", "auction_0": "2"}, **(HTMX if htmx else {})
    )

    assert response.status_code == 200
    html = response.content.decode()
    assert "<html" not in html
    assert [label_of(html, index) for index in range(4)] == ["Dee", "Ann", "Bob", "Cy"]
    # Dee bid 2: Ann may not bid 2 again, but may bid 3 or pass.
    assert re.search(r'name="auction_1" value="2"[^>]*disabled', html)
    assert not re.search(r'name="auction_1" value="3"[^>]*disabled', html)
    # The answer keeps answering for hand 3.
    assert helper_url(html) == reverse("hand_auction", args=[finished.pk, 3])


def test_the_edit_helper_follows_the_edited_hands_dealer_in_a_game_in_progress(client, make_game):
    game = make_game().game
    hand_record(game=game, record=three())
    # Bob deals the next hand; hand 1 was Ann's deal, so Bob bid first there.

    page = client.get(reverse("hand_edit", args=[game.pk, 1])).content.decode()
    html = client.post(helper_url(page), {"auction_0": "3"}, **HTMX).content.decode()

    assert [label_of(html, index) for index in range(4)] == ["Bob", "Cy", "Dee", "Ann"]


def test_the_helper_for_a_hand_that_is_not_there_is_404(client, finished):
    url = reverse("hand_auction", args=[finished.pk, 4])

    assert client.post(url, {"auction_0": "2"}, **HTMX).status_code == 404


def test_the_next_hand_helper_of_a_game_over_swaps_nothing(client, finished):
    response = client.post(reverse("auction", args=[finished.pk]), {"auction_0": "2"}, **HTMX)

    assert response.status_code == 204
