"""Names typed for players and clubs: normalised (NFKC, white space collapsed), refused
with invisible or control characters, and refused as a duplicate when another player's
name is the same in other letters ("Ａｎｎ" beside "Ann"); full page and htmx alike."""

from __future__ import annotations

import pytest
from django.urls import reverse

from pitchkeeper.clubs.models import Club, Player
from pitchkeeper.clubs.names import name_key
from pitchkeeper.clubs.players import roster

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
HIDDEN = [
    ("\u200b", "U+200B ZERO WIDTH SPACE"),
    ("\u200b\u200c\u200d", "U+200B ZERO WIDTH SPACE"),
    ("An\u200bn", "U+200B ZERO WIDTH SPACE"),
    ("Ann\u202e", "U+202E RIGHT-TO-LEFT OVERRIDE"),
    ("\ufeffAnn", "U+FEFF ZERO WIDTH NO-BREAK SPACE"),
    ("\u3164", "U+3164 HANGUL FILLER"),
    ("A\x07nn", "U+0007"),
    ("a\x00b", "U+0000"),
    ("Ann\x7f", "U+007F"),
    ("An\u2028n", "U+2028 LINE SEPARATOR"),
    # Variation selectors and a mark with no letter under it look like nothing.
    ("Ann\ufe0f", "U+FE0F VARIATION SELECTOR-16"),
    ("Ann\U000e0100", "U+E0100 VARIATION SELECTOR-17"),
    ("Ann\u180b", "U+180B MONGOLIAN FREE VARIATION SELECTOR ONE"),
    ("\u0301Ann", "U+0301 COMBINING ACUTE ACCENT"),
    ("Ann \u0301", "U+0301 COMBINING ACUTE ACCENT"),
]


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize(("name", "code"), HIDDEN)
def test_a_player_name_with_hidden_characters_is_refused(client, name, code, htmx):
    response = client.post(reverse("players"), {"name": name}, **(HTMX if htmx else {}))

    assert response.status_code == 400
    html = response.content.decode()
    assert f"A name cannot contain invisible or control characters ({code})." in html
    assert ("<html" in html) is not htmx
    assert not Player.objects.exists()


@pytest.mark.parametrize("lookalike", ["Ａｎｎ", "ＡＮＮ", " ann ", "ａnn"])
def test_a_player_name_that_is_another_in_other_letters_is_a_duplicate(client, club, lookalike):
    roster(["Ann"], club=club)

    response = client.post(reverse("players"), {"name": lookalike})

    assert response.status_code == 400
    assert "There is already a player called Ann." in response.content.decode()
    assert Player.objects.count() == 1


def test_an_old_full_width_name_is_matched_by_the_plain_one(client, club):
    # Stored before names were normalised.
    Player.objects.create(club=club, name="Ａｎｎ")

    response = client.post(reverse("players"), {"name": "Ann"})

    assert response.status_code == 400
    assert roster(["ann"], club=club)["ann"].name == "Ａｎｎ"


def test_a_name_is_stored_normalised(client):
    client.post(reverse("players"), {"name": "  Ｚｏë   Lee "})

    assert Player.objects.get().name == "Zoë Lee"


def test_a_rename_with_hidden_characters_is_refused(client, club):
    player = roster(["Ann"], club=club)["Ann"]

    response = client.post(
        reverse("player", args=[player.pk]), {"name": "Bo\u200bb", "action": "rename"}
    )

    assert response.status_code == 400
    player.refresh_from_db()
    assert player.name == "Ann"


def test_the_message_is_in_the_users_language(client):
    response = client.post(reverse("players"), {"name": "\u200b"}, HTTP_ACCEPT_LANGUAGE="nb")

    assert "Et navn kan ikke inneholde usynlige tegn" in response.content.decode()


@pytest.mark.parametrize(("name", "code"), HIDDEN[:3])
def test_a_club_name_with_hidden_characters_is_refused(client, name, code):
    before = Club.objects.count()

    response = client.post(reverse("clubs"), {"name": name})

    assert response.status_code == 400
    assert code in response.content.decode()
    assert Club.objects.count() == before


def test_names_are_compared_by_their_normal_form():
    assert name_key("Ａｎｎ") == name_key("ANN") == name_key(" ann ") == "ann"
    assert name_key("Ann") != name_key("Anne")
