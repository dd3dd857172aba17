"""What the game screen gives the script that keeps hands on the phone while the
network is gone: the box for the waiting count (outside the table an htmx answer
replaces), its words in the user's language, and nothing of it for a reader."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from pitchkeeper.clubs.models import Membership
from pitchkeeper.games.models import Hand
from pitchkeeper.rules.errors import REFUSALS
from tests.conftest import PASSWORD, sign_in

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def game(make_game):
    return make_game().game


def phrases(html: str) -> dict:
    found = re.search(r'data-phrases="([^"]*)"', html)
    assert found, "no phrases"
    return json.loads(unescape(found.group(1)))


def test_the_full_page_has_a_place_for_the_queue_and_nothing_more(client, game):
    html = client.get(reverse("game", args=[game.pk])).content.decode()

    # The script and the box's words come after the page has loaded.
    assert re.search(
        r'<section id="queue"[^>]* hidden[^>]*data-later="/static/js/offline.js">', html
    )
    assert "data-phrases" not in html
    assert "Enter as next hand" not in html


def test_the_queue_box_and_its_words(client, game):
    response = client.get(reverse("queue_box", args=[game.pk]))

    assert response.status_code == 200
    html = response.content.decode()
    words = phrases(html)
    assert words["waiting"]["one"] == "{n} hand waiting to be sent"
    assert words["waiting"]["other"] == "{n} hands waiting to be sent"
    assert words["deals"] == "Hand {n}: {dealer} deals"
    assert "{message}" in words["conflict"]
    assert "Enter as next hand" in html
    assert "data-count" in html


def test_the_htmx_answer_leaves_the_queue_box_alone(client, game):
    html = client.get(reverse("game", args=[game.pk]), **HTMX).content.decode()

    assert html.lstrip().startswith('<div id="table">')
    assert 'id="queue"' not in html


def test_russian_has_a_form_for_each_plural_category(client, game):
    url = reverse("queue_box", args=[game.pk])
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()

    waiting = phrases(html)["waiting"]
    assert waiting["one"] == "{n} сдача ждёт отправки"
    assert waiting["few"] == "{n} сдачи ждут отправки"
    assert waiting["many"] == "{n} сдач ждут отправки"
    assert "Записать следующей сдачей" in html


def test_norwegian(client, game):
    url = reverse("queue_box", args=[game.pk])
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="nb").content.decode()

    waiting = phrases(html)["waiting"]
    assert waiting["one"] == "{n} runde venter på å bli sendt"
    assert waiting["other"] == "{n} runder venter på å bli sendt"


def test_a_reader_gets_no_queue(client, club, game):
    reader = get_user_model().objects.create_user("reader", password=PASSWORD)
    Membership.objects.create(club=club, user=reader, role="viewer")
    reader_client = sign_in(client, reader, club)

    html = reader_client.get(reverse("game", args=[game.pk])).content.decode()
    assert 'id="queue"' not in html
    assert reader_client.get(reverse("queue_box", args=[game.pk])).status_code == 403


def test_only_members_get_the_words(anonymous_client, game):
    answer = anonymous_client.get(reverse("queue_box", args=[game.pk]))

    assert answer.status_code == 302


def post_hand(client, game, token, expected, **fields):
    data = {
        "pitcher": "Bob",
        "bid": "2",
        "point_high": "Bob",
        "point_low": "Bob",
        "point_jack": "nobody",
        "point_game": "Cy",
        "action": "save",
        "token": token,
        # As the queue says it: in a game whose hands were only ever added, hand n
        # follows revision n - 1.
        "revision": str(expected - 1),
        "expected": str(expected),
        **fields,
    }
    return client.post(reverse("hand_add", args=[game.pk]), data, **HTMX)


def test_a_queued_hand_sent_again_after_later_ones_is_the_same_save(client, game):
    # The phone sent hand 1 and lost the answer, then hand 2; hand 1 goes again.
    assert post_hand(client, game, "first-hand", 1).status_code == 200
    assert post_hand(client, game, "second-hand", 2, pitcher="Cy").status_code == 200

    again = post_hand(client, game, "first-hand", 1)

    assert again.status_code == 200
    assert [hand.token for hand in Hand.objects.order_by("number")] == [
        "first-hand",
        "second-hand",
    ]


def test_a_queued_hand_that_no_longer_follows_the_last_is_a_conflict(client, game):
    # Another phone recorded hand 1 while this one was offline with its own hand 1.
    assert post_hand(client, game, "other-phone", 1).status_code == 200

    refused = post_hand(client, game, "this-phone", 1, pitcher="Cy", point_high="Cy")

    assert refused.status_code == 409
    html = refused.content.decode()
    assert "Hand 1 was saved from another phone meanwhile" in html
    # The entry kept in the form for a person, as the next hand; nothing saved.
    assert 'name="expected" value="2"' in html
    assert re.search(r'name="contract" value="Cy:2"[^>]*checked', html)
    assert re.search(r'name="point_high" value="Cy"[^>]*checked', html)
    assert [hand.token for hand in Hand.objects.all()] == ["other-phone"]


def test_the_queue_words_word_the_phones_refusals_in_the_language(client, make_game):
    """The phone's engine refuses by code and parameters; the page words the refusal
    from these: every code's words from the catalog, and the game's bids and points."""
    teams = {"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]}
    game = make_game("nine-five", teams=teams).game
    url = reverse("queue_box", args=[game.pk])

    words = phrases(client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode())

    assert set(words["refusals"]) == set(REFUSALS)
    assert words["refusals"]["entry_point"] == "Укажите, кто взял «%(point)s»."
    assert words["refused"] == "Не сохранено: {refusal}"
    assert words["params"]["point"]["High"] == "Старший"
    assert words["params"]["bid"] == words["params"]["high_bid"] == words["params"]["moons"]
    assert words["params"]["bid"]["smudge"] == "Смадж"
    assert words["params"]["preset"]["setback"] == "Отсадка"
    # A game won on the phone is settled in the words of every other screen.
    assert words["pays"] == {
        "one": "{payer} платит {payee} {n} фишку",
        "few": "{payer} платит {payee} {n} фишки",
        "many": "{payer} платит {payee} {n} фишек",
        "other": "{payer} платит {payee} {n} фишки",
    }


def test_the_box_names_the_member_signed_in_and_the_current_csrf_token(client, game, user):
    html = client.get(reverse("queue_box", args=[game.pk])).content.decode()

    # A kept hand is the member's who entered it, and is sent with the token of now.
    assert f'data-member="{user.pk}"' in html
    assert 'data-member-name="owner"' in html
    token = re.search(r'data-csrf="([^"]+)"', html).group(1)
    assert len(token) == 64
    assert f'href="/accounts/login/?next=/games/{game.pk}/"' in html
    words = phrases(html)
    assert words["member"] == (
        "Hand {n} was entered by {member}: it waits on this phone until {member} signs in "
        "here again."
    )
    assert words["pays"]["one"] == "{payer} pays {payee} {n} chip"
    assert words["pays"]["other"] == "{payer} pays {payee} {n} chips"


def test_the_box_offers_a_way_forward_in_every_state(client, game):
    html = client.get(reverse("queue_box", args=[game.pk])).content.decode()

    for control in ("data-send", "data-sign-in", "data-enter", "data-discard", "data-discard-yes"):
        assert control in html
    assert "Send now" in html
    assert "Keep it" in html
