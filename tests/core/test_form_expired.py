"""A form sent with a CSRF token that no longer matches the phone's (the page was open
while the phone signed in or out) is refused in the app's own page, in the user's
language, with nothing saved and a link back to the page it came from."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from pitchkeeper.games.models import Hand
from tests.conftest import PASSWORD, entry_basis, sign_in
from tests.core.test_translated_screens import LANGUAGES, english
from tests.games.test_views_game import hand_post

HAND = {"pitcher": "Ann", "bid": "2", "point_high": "Ann", "point_low": "Ann"}


@pytest.fixture
def checked_client(user, club) -> Client:
    """Signed in, with Django's CSRF check on, as a browser meets it."""
    return sign_in(Client(enforce_csrf_checks=True), user, club)


def test_a_hand_sent_without_a_matching_token_is_refused_and_not_saved(checked_client, make_game):
    game = make_game().game
    page = reverse("game", args=[game.pk])
    response = checked_client.post(
        reverse("hand_add", args=[game.pk]), HAND, HTTP_REFERER=f"http://testserver{page}"
    )

    assert response.status_code == 403
    html = response.content.decode()
    assert "This form was out of date" in html
    assert "Nothing was saved." in html
    assert f'href="http://testserver{page}"' in html
    # No inline style, which the Content-Security-Policy forbids.
    assert "style=" not in html and "<style" not in html
    assert Hand.objects.count() == 0


def test_an_htmx_save_refused_gets_the_sessions_token_and_goes_through_with_it(
    checked_client, make_game
):
    """htmx swaps no refusal in: the answer carries the token of the session now, which
    the page's forms take (static/js/app.js), so that "Try again" saves the hand."""
    game = make_game().game
    checked_client.get(reverse("game", args=[game.pk]))  # the CSRF cookie, as a page sets it
    entry = {**hand_post(), **entry_basis(game.pk), "token": "t" * 43}
    url = reverse("hand_add", args=[game.pk])
    stale = {"HTTP_HX_REQUEST": "true", "HTTP_X_CSRFTOKEN": "x" * 64}

    refused = checked_client.post(url, {**entry, "csrfmiddlewaretoken": "x" * 64}, **stale)

    assert refused.status_code == 403 and Hand.objects.count() == 0
    token = json.loads(refused["HX-Trigger"])["csrf-renewed"]["token"]
    again = checked_client.post(
        url, {**entry, "csrfmiddlewaretoken": token}, HTTP_HX_REQUEST="true"
    )
    assert again.status_code == 200 and Hand.objects.count() == 1


def test_a_refusal_outside_htmx_sends_no_token(checked_client, make_game):
    game = make_game().game
    response = checked_client.post(reverse("hand_add", args=[game.pk]), HAND)
    assert response.status_code == 403 and not response.has_header("HX-Trigger")


def test_a_sign_in_refused_leads_back_to_the_sign_in_page(user):
    browser = Client(enforce_csrf_checks=True)
    login = reverse("login")
    response = browser.post(
        login,
        {"username": user.username, "password": PASSWORD},
        HTTP_REFERER=f"http://testserver{login}?next=/",
    )

    assert response.status_code == 403
    assert f'href="http://testserver{login}?next=/"' in response.content.decode()
    assert "_auth_user_id" not in browser.session


@pytest.mark.parametrize(
    "referer", ["", "https://elsewhere.example/games/", "javascript:alert(1)", "//elsewhere/"]
)
def test_a_missing_or_foreign_referer_leads_home(user, referer):
    response = Client(enforce_csrf_checks=True).post(reverse("login"), HTTP_REFERER=referer)

    assert response.status_code == 403
    html = response.content.decode()
    assert f'href="{reverse("home")}"' in html
    assert "elsewhere" not in html and "javascript:" not in html


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_refusal_is_in_the_users_language(user, language):
    response = Client(enforce_csrf_checks=True).post(
        reverse("login"), HTTP_ACCEPT_LANGUAGE=language
    )

    assert response.status_code == 403
    assert english(response.content.decode(), language) == []
