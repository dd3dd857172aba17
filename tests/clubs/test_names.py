"""Names typed for players and clubs: normalised (NFKC, white space collapsed), refused
with invisible or control characters, and refused as a duplicate when another player's
name is the same in other letters ("Ａｎｎ" beside "Ann"); full page and htmx alike. The
same check in every model's full_clean, and nothing but a ValidationError out of it."""

from __future__ import annotations

from datetime import date

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from hypothesis import example, given
from hypothesis import strategies as st

from pitchkeeper.clubs.models import Club, Player
from pitchkeeper.clubs.names import name_clean, name_key
from pitchkeeper.clubs.players import roster
from pitchkeeper.games.models import Game, Seat
from pitchkeeper.seasons.models import Season

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
    # NFKC makes a space and a combining macron of the spacing macron; stripped, the
    # space would leave the mark alone.
    ("\u00afAnn", "U+0304 COMBINING MACRON"),
    # Letters and signs drawn as nothing at all.
    ("\u115f", "U+115F HANGUL CHOSEONG FILLER"),
    ("Ann\u1160", "U+1160 HANGUL JUNGSEONG FILLER"),
    ("\uffa0Ann", "U+FFA0 HALFWIDTH HANGUL FILLER"),
    ("\u2800", "U+2800 BRAILLE PATTERN BLANK"),
    ("Ann\U00016fe4", "U+16FE4 KHITAN SMALL SCRIPT FILLER"),
    ("An\U0001d159n", "U+1D159 MUSICAL SYMBOL NULL NOTEHEAD"),
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


@pytest.mark.parametrize(("name", "code"), HIDDEN)
def test_a_club_name_with_hidden_characters_is_refused(client, name, code):
    before = Club.objects.count()

    response = client.post(reverse("clubs"), {"name": name})

    assert response.status_code == 400
    assert code in response.content.decode()
    assert Club.objects.count() == before


def test_names_are_compared_by_their_normal_form():
    assert name_key("Ａｎｎ") == name_key("ANN") == name_key(" ann ") == "ann"
    assert name_key("Ann") != name_key("Anne")


@pytest.mark.parametrize(("name", "code"), HIDDEN)
def test_every_name_field_refuses_hidden_characters_in_full_clean(club, name, code):
    ann = roster(["Ann"], club=club)["Ann"]
    game = Game(club=club, rules={})
    rows = [
        (Club(name=name), "name"),
        (Player(club=club, name=name), "name"),
        (Season(club=club, name=name, start=date(2024, 1, 1)), "name"),
        (Seat(game=game, player=ann, position=0, team=name), "team"),
        (Game(club=club, rules={}, winner_team=name), "winner_team"),
    ]
    for row, field in rows:
        with pytest.raises(ValidationError) as refusal:
            row.full_clean(exclude=["game"] if isinstance(row, Seat) else None)

        assert any(code in message for message in refusal.value.message_dict[field]), row


@given(st.text())
@example("\x00")
@example("\ud800")
@example("\u0301" * 50)
@example("\U000e0100")
def test_cleaning_any_text_gives_a_name_or_a_validation_error(text):
    try:
        name = name_clean(text, limit=40, empty="empty")
    except ValidationError:
        return
    assert name == name_clean(name, limit=40, empty="empty")
