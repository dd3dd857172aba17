"""The game screen lists the latest hands only; the earlier ones come into it on a tap
(htmx), or on the hands screen, which lists them all and works without JavaScript."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from pitchkeeper.clubs.models import Membership, Role
from pitchkeeper.games.hands import hand_record
from pitchkeeper.games.views.table import TABLE_HANDS
from pitchkeeper.rules import HandRecord
from tests.conftest import PASSWORD, entry_basis, sign_in

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
HANDS = TABLE_HANDS + 3


def numbers(html: str) -> list[int]:
    """The hand numbers a page lists, in its order."""
    return [int(number) for number in re.findall(r"<strong>#(\d+)</strong>", html)]


@pytest.fixture
def game(make_game):
    """A game of HANDS misdeals."""
    state = make_game()
    for _hand in range(HANDS):
        state = hand_record(game=state.game, record=HandRecord(misdeal=True))
    return state.game


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["full page", "htmx fragment"])
def test_the_game_screen_lists_the_latest_hands_and_links_to_the_earlier(client, game, headers):
    response = client.get(reverse("game", args=[game.pk]), **headers)

    html = response.content.decode()
    assert response.status_code == 200
    assert numbers(html) == list(range(HANDS, HANDS - TABLE_HANDS, -1))
    link = re.search(r'<a class="button" id="earlier-hands"[^>]*>([^<]*)</a>', html)
    assert link is not None
    url = reverse("game_hands", args=[game.pk])
    # A plain link without JavaScript; with it, the hands come into the screen.
    assert f'href="{url}"' in link.group(0) and f'hx-get="{url}"' in link.group(0)
    assert 'hx-target="this"' in link.group(0) and 'hx-swap="outerHTML"' in link.group(0)
    assert link.group(1) == f"Show {HANDS - TABLE_HANDS} earlier hands"


def test_the_link_counts_one_earlier_hand_in_the_singular(client, make_game):
    state = make_game()
    for _hand in range(TABLE_HANDS + 1):
        state = hand_record(game=state.game, record=HandRecord(misdeal=True))

    html = client.get(reverse("game", args=[state.game.pk])).content.decode()

    assert ">Show 1 earlier hand</a>" in html


def test_a_short_game_lists_every_hand_and_no_link(client, make_game):
    state = make_game()
    for _hand in range(TABLE_HANDS):
        state = hand_record(game=state.game, record=HandRecord(misdeal=True))

    html = client.get(reverse("game", args=[state.game.pk])).content.decode()

    assert numbers(html) == list(range(TABLE_HANDS, 0, -1))
    assert "earlier-hands" not in html


def test_a_saved_hand_answers_with_the_latest_hands(client, game):
    response = client.post(
        reverse("hand_add", args=[game.pk]),
        {**entry_basis(game.pk), "action": "misdeal"},
        **HTMX,
    )

    html = response.content.decode()
    assert response.status_code == 200
    assert numbers(html) == list(range(HANDS + 1, HANDS + 1 - TABLE_HANDS, -1))
    assert f"Show {HANDS + 1 - TABLE_HANDS} earlier hands" in html


def test_the_hands_screen_lists_every_hand_without_javascript(client, game):
    response = client.get(reverse("game_hands", args=[game.pk]))

    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" in html
    assert f"<h1>Hands of game {game.pk}</h1>" in html
    assert numbers(html) == list(range(HANDS, 0, -1))
    assert f'href="{reverse("game", args=[game.pk])}#table"' in html
    assert f'href="{reverse("hand_edit", args=[game.pk, 1])}"' in html


def test_the_hands_fragment_holds_the_hands_before_the_latest(client, game):
    response = client.get(reverse("game_hands", args=[game.pk]), **HTMX)

    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html and "<h1>" not in html
    assert html.strip().startswith('<ol class="plain history" id="earlier" tabindex="-1">')
    assert numbers(html) == list(range(HANDS - TABLE_HANDS, 0, -1))


def test_the_hands_screen_of_a_game_without_hands(client, make_game):
    game = make_game().game

    html = client.get(reverse("game_hands", args=[game.pk])).content.decode()

    assert "No hand has been recorded yet." in html
    assert numbers(html) == []


def test_a_viewer_reads_the_hands_without_edit_links(client, club, game):
    viewer = get_user_model().objects.create_user("viewer", password=PASSWORD)
    Membership.objects.create(club=club, user=viewer, role=Role.VIEWER)
    sign_in(client, viewer, club)

    for headers in ({}, HTMX):
        response = client.get(reverse("game_hands", args=[game.pk]), **headers)
        assert response.status_code == 200
        assert numbers(response.content.decode())
        assert "/hands/1/" not in response.content.decode()


def test_the_hands_of_another_clubs_game_are_not_found(client, game):
    stranger = get_user_model().objects.create_user("stranger", password=PASSWORD)
    from pitchkeeper.clubs.services import club_create

    sign_in(client, stranger, club_create(name="Other table", owner=stranger))

    assert client.get(reverse("game_hands", args=[game.pk])).status_code == 404
    assert client.post(reverse("game_hands", args=[game.pk])).status_code == 405


def test_the_game_screen_costs_the_same_queries_and_bytes_however_long_the_game(client, game):
    """The latest hands only: a game twice as long sends the same screen, give or take
    the digits of its numbers, apart from the chart's lines (a point for every hand) and
    the record the phone's engine reads (every hand, as data)."""
    url = reverse("game", args=[game.pk])

    def measured() -> tuple[int, int]:
        with CaptureQueriesContext(connection) as queries:
            html = client.get(url, **HTMX).content.decode()
        html = re.sub(r'<script id="game-record"[^>]*>.*?</script>', "", html, flags=re.S)
        return len(queries.captured_queries), len(re.sub(r' points="[^"]*"', "", html))

    short = measured()
    for _hand in range(HANDS):
        hand_record(game=game, record=HandRecord(misdeal=True))
    long = measured()

    assert long[0] == short[0]
    assert abs(long[1] - short[1]) < 100
