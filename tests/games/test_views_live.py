"""The live read-only scoreboard, its share link and QR code, the web app manifest and
the language switcher."""

from __future__ import annotations

import json
import re
import struct

import pytest
from django.template.loader import render_to_string
from django.test import RequestFactory, override_settings
from django.urls import reverse

from pitchkeeper.games.hands import hand_record
from pitchkeeper.games.models import Game
from pitchkeeper.rules import HandRecord

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def played(pitcher: str, bid: int, high: str, low: str, jack: str | None, game: str | None):
    return HandRecord(
        pitcher=pitcher, bid=bid, points={"high": high, "low": low, "jack": jack, "game": game}
    )


@pytest.fixture
def game(make_game) -> Game:
    return make_game().game


def live_url(game: Game) -> str:
    return reverse("live", args=[game.share_token])


def test_page_shows_the_scores_and_polls_for_the_board(client, game):
    hand_record(game=game, record=played("Bob", 2, "Bob", "Bob", None, "Cy"))
    url = live_url(game)

    response = client.get(url)

    assert response.status_code == 200
    html = response.content.decode()
    assert html.startswith("<!DOCTYPE html>")
    assert '<body class="live"' in html
    assert f'hx-get="{url}"' in html
    assert 'hx-trigger="every 3s"' in html
    assert 'aria-label="2 points"' in html  # Bob's total
    assert "Last hands" in html
    assert "Bob +2" in html and "Cy +1" in html
    assert "✓ made" in html


def test_page_has_no_way_to_edit_the_game(client, game):
    html = client.get(live_url(game)).content.decode()

    assert reverse("game", args=[game.pk]) not in html
    assert reverse("game_new") not in html
    assert "<button" not in html.split("<footer")[0]


def test_htmx_poll_gets_the_board_alone(client, game):
    response = client.get(live_url(game), **HTMX)

    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="live-board"')
    assert "<html" not in html
    assert "Scores" in html


def test_a_set_pitcher_and_the_winner_are_shown(client, game):
    hand_record(game=game, record=played("Bob", 3, "Bob", "Cy", None, "Bob"))
    hand_record(game=game, record=played("Cy", 4, "Cy", "Cy", "Cy", "Cy"))

    html = client.get(live_url(game), **HTMX).content.decode()

    # In the game screen's words (games/game_hands.html#hand).
    assert 'Bob bid 3 <span class="tag set">✗ set back</span>' in html
    assert "Bob -3" in html
    assert 'Cy bid 4 (smudge) <span class="tag made">✓ made</span>' in html
    assert "Cy wins with a smudge: bid 4, took every point, and was not in the hole" in html


def test_unknown_token_is_not_found(client, game):
    assert client.get(reverse("live", args=["no-such-token"])).status_code == 404
    assert client.get(reverse("live", args=["no-such-token"]), **HTMX).status_code == 404


def test_page_is_read_only(client, game):
    assert client.post(live_url(game)).status_code == 405


def test_answers_are_revalidated_on_every_poll(client, game):
    response = client.get(live_url(game), **HTMX)

    assert response["ETag"]
    assert "no-cache" in response["Cache-Control"]
    assert "private" in response["Cache-Control"]
    assert "HX-Request" in response["Vary"]


def test_unchanged_game_answers_not_modified_from_one_query(
    anonymous_client, game, django_assert_max_num_queries
):
    # The spectators following the link are not signed in.
    hand_record(game=game, record=played("Bob", 2, "Bob", "Bob", None, "Cy"))
    url = live_url(game)
    etag = anonymous_client.get(url, **HTMX)["ETag"]

    with django_assert_max_num_queries(1):
        response = anonymous_client.get(url, HTTP_IF_NONE_MATCH=etag, **HTMX)

    assert response.status_code == 304
    assert response.content == b""
    assert response["ETag"] == etag
    assert "no-cache" in response["Cache-Control"]
    assert "HX-Request" in response["Vary"]


def test_a_new_hand_is_a_fresh_answer(client, game):
    url = live_url(game)
    first = client.get(url, **HTMX)

    hand_record(game=game, record=played("Bob", 2, "Bob", "Bob", None, "Cy"))
    response = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"], **HTMX)

    assert response.status_code == 200
    assert response["ETag"] != first["ETag"]
    assert response.content != first.content
    assert "Bob +2" in response.content.decode()


def test_etag_is_opaque_and_tells_neither_the_id_nor_the_time(client, game):
    hand_record(game=game, record=played("Bob", 2, "Bob", "Bob", None, "Cy"))
    game.refresh_from_db()
    url = live_url(game)

    etag = client.get(url, **HTMX)["ETag"]
    with override_settings(SECRET_KEY="another deployment's key"):
        elsewhere = client.get(url, **HTMX)["ETag"]

    # Nothing but hex digits: no "<id>-<timestamp>" for a spectator to read.
    assert re.fullmatch(r'"[0-9a-f]{32}"', etag), etag
    assert str(int(game.updated.timestamp())) not in etag
    assert game.updated.isoformat() not in etag
    # Keyed with the SECRET_KEY, so nobody can work the inputs out from it.
    assert elsewhere != etag


def test_page_fragment_and_language_have_their_own_etags(client, game):
    url = live_url(game)

    etags = {
        client.get(url)["ETag"],
        client.get(url, **HTMX)["ETag"],
        client.get(url, HTTP_ACCEPT_LANGUAGE="ru")["ETag"],
        client.get(url, HTTP_HX_HISTORY_RESTORE_REQUEST="true", **HTMX)["ETag"],
    }

    assert len(etags) == 3  # a history restore wants the whole page


def test_share_include_shows_the_link_and_its_qr_code(game):
    request = RequestFactory().get(f"/games/{game.pk}/")

    html = render_to_string("games/_share.html", {"game": game}, request=request)

    url = f"http://testserver/live/{game.share_token}/"
    assert f'value="{url}"' in html
    assert '<label for="share-link">' in html and 'id="share-link"' in html
    assert "readonly" in html
    svg = html[html.index("<svg") : html.index("</svg>")]
    assert 'role="img"' in svg and 'aria-label="QR code' in svg
    assert "<title>" in svg
    assert "viewBox=" in svg
    assert "<?xml" not in html


def png_size(data: bytes) -> str:
    width, height = struct.unpack(">II", data[16:24])
    return f"{width}x{height}"


def test_manifest_is_served_with_icons_that_exist(client):
    response = client.get("/static/manifest.webmanifest")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.getvalue())
    assert manifest["start_url"] == "/"
    assert manifest["display"] == "standalone"
    assert manifest["theme_color"] == "#1f5f3f"
    purposes = set()
    for icon in manifest["icons"]:
        served = client.get(f"/static/{icon['src']}")
        assert served.status_code == 200, icon["src"]
        assert served["Content-Type"] == icon["type"]
        if icon["type"] == "image/png":
            assert png_size(served.getvalue()) == icon["sizes"]
        purposes.add(icon["purpose"])
    assert {"192x192", "512x512"} <= {icon["sizes"] for icon in manifest["icons"]}
    assert purposes == {"any", "maskable"}


def test_pages_link_the_manifest_and_icons(client, game):
    html = client.get(live_url(game)).content.decode()

    assert 'rel="manifest" href="/static/manifest.webmanifest"' in html
    assert 'rel="apple-touch-icon"' in html
    assert 'name="theme-color" content="#1f5f3f"' in html


def test_language_switcher_lists_languages_in_their_own_names(client, game):
    html = client.get(live_url(game)).content.decode()

    assert 'action="/i18n/setlang/"' in html
    assert '<label for="language">' in html
    assert '<option value="en" lang="en" selected>English</option>' in html
    assert '<option value="ru" lang="ru">Русский</option>' in html
    assert '<option value="nb" lang="nb">Norsk (bokmål)</option>' in html


def test_switching_language_changes_the_page_and_its_etag(client, game):
    url = live_url(game)
    english = client.get(url)
    assert '<html lang="en">' in english.content.decode()

    switched = client.post("/i18n/setlang/", {"language": "ru", "next": url})
    response = client.get(url, HTTP_IF_NONE_MATCH=english["ETag"])

    assert switched.status_code == 302 and switched["Location"] == url
    assert response.status_code == 200
    html = response.content.decode()
    assert '<html lang="ru">' in html
    assert '<option value="ru" lang="ru" selected>' in html
