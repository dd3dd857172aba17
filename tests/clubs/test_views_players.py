from __future__ import annotations

import re
from unittest import mock

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from pitchkeeper.clubs.models import Player
from pitchkeeper.clubs.players import player_add, player_rename, player_retire
from pitchkeeper.rules.record import MAX_NAME_LENGTH

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def ann(club):
    return Player.objects.create(club=club, name="Ann")


def edit(client, player, htmx=False, follow=False, **data):
    headers = HTMX if htmx else {}
    return client.post(reverse("player", args=[player.pk]), data, follow=follow, **headers)


def test_roster_full_page_lists_active_players_then_retired(club, client, ann):
    Player.objects.create(club=club, name="Bob", retired=True)

    response = client.get(reverse("players"))

    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" in html
    assert "1 player" in html
    assert html.index("Ann") < html.index("Retired") < html.index("Bob")
    assert 'value="unretire"' in html and 'value="retire"' in html


def test_roster_htmx_fragment_is_the_roster_only(client, ann):
    response = client.get(reverse("players"), **HTMX)

    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html
    assert html.lstrip().startswith('<div id="roster">')
    assert "Ann" in html


def test_empty_roster_says_so(client):
    html = client.get(reverse("players")).content.decode()

    assert "Nobody yet" in html


def test_adding_a_player_redirects_with_a_message(client):
    response = client.post(reverse("players"), {"name": "  Bob  "}, follow=True)

    assert response.redirect_chain == [(reverse("players") + "?add", 302)]
    assert Player.objects.get().name == "Bob"
    assert "Bob is on the roster." in response.content.decode()
    # The name box has focus again, for the next name.
    assert re.search(r'id="new-name"[^>]*autofocus', response.content.decode())


def test_the_name_box_takes_focus_only_after_an_add(client):
    assert "autofocus" not in client.get(reverse("players")).content.decode()
    fragment = client.post(reverse("players"), {"name": "Bob"}, **HTMX).content.decode()
    assert re.search(r'id="new-name"[^>]*autofocus', fragment)
    refused = client.post(reverse("players"), {"name": "​"}, **HTMX).content.decode()
    assert re.search(r'id="new-name"[^>]*autofocus', refused)


def test_adding_a_player_with_htmx_answers_with_the_roster(client):
    response = client.post(reverse("players"), {"name": "Bob"}, **HTMX)

    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html
    assert "Bob is on the roster." in html
    assert "<summary>Bob</summary>" in html
    assert Player.objects.filter(name="Bob").exists()


@pytest.mark.parametrize("name", ["Ann", "ann", "ANN", "  aNn "])
@pytest.mark.parametrize("htmx", [False, True])
def test_a_duplicate_name_in_any_case_is_refused(client, ann, name, htmx):
    response = client.post(reverse("players"), {"name": name}, **(HTMX if htmx else {}))

    html = response.content.decode()
    assert response.status_code == 400
    assert ("<html" in html) is not htmx
    assert "There is already a player called Ann." in html
    assert 'aria-invalid="true"' in html
    assert Player.objects.count() == 1


@pytest.mark.parametrize(("existing", "name"), [("Ærlig", "ærlig"), ("Straße", "STRASSE")])
def test_duplicates_are_found_beyond_ascii(club, client, existing, name):
    # SQLite's LOWER() folds ASCII only, so this comparison is Python's casefold.
    Player.objects.create(club=club, name=existing)

    response = client.post(reverse("players"), {"name": name})

    assert response.status_code == 400
    assert f"There is already a player called {existing}." in response.content.decode()
    assert Player.objects.count() == 1


@pytest.mark.parametrize("name", ["", "   "])
def test_an_empty_name_is_refused(client, name):
    response = client.post(reverse("players"), {"name": name})

    assert response.status_code == 400
    assert "Give the player a name." in response.content.decode()
    assert not Player.objects.exists()


def test_a_name_that_is_too_long_is_refused(client):
    response = client.post(reverse("players"), {"name": "x" * (MAX_NAME_LENGTH + 1)})

    assert response.status_code == 400
    assert "at most 40 characters long; this one has 41" in response.content.decode()
    assert not Player.objects.exists()


def test_a_name_of_the_longest_length_is_taken(client):
    client.post(reverse("players"), {"name": "x" * MAX_NAME_LENGTH})

    assert Player.objects.get().name == "x" * MAX_NAME_LENGTH


def test_renaming_redirects_with_a_message(client, ann):
    response = edit(client, ann, name="Anne", action="rename", follow=True)

    assert response.redirect_chain == [(reverse("players"), 302)]
    assert "Ann is now Anne." in response.content.decode()
    ann.refresh_from_db()
    assert ann.name == "Anne"


def test_renaming_with_htmx_answers_with_the_roster(client, ann):
    response = edit(client, ann, htmx=True, name="Anne", action="rename")

    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<div id="roster">')
    assert "Ann is now Anne." in html


def test_enter_in_the_name_field_renames(client, ann):
    # Enter submits without a button's name: a rename.
    edit(client, ann, name="Anne")

    ann.refresh_from_db()
    assert ann.name == "Anne"


def test_a_player_may_change_the_case_of_their_own_name(client, ann):
    edit(client, ann, name="ANN", action="rename")

    ann.refresh_from_db()
    assert ann.name == "ANN"


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("bob", "There is already a player called Bob."),
        ("", "Give the player a name."),
        ("y" * 41, "at most 40 characters long"),
    ],
)
@pytest.mark.parametrize("htmx", [False, True])
def test_a_bad_rename_is_refused_next_to_that_players_field(club, client, ann, name, message, htmx):
    Player.objects.create(club=club, name="Bob")

    response = edit(client, ann, htmx=htmx, name=name, action="rename")

    html = response.content.decode()
    assert response.status_code == 400
    assert message in html
    assert f'id="name-{ann.pk}-errors"' in html
    assert f'aria-describedby="name-{ann.pk}-errors"' in html
    ann.refresh_from_db()
    assert ann.name == "Ann"


@pytest.mark.parametrize("htmx", [False, True])
def test_retiring_and_bringing_back(client, ann, htmx):
    response = edit(client, ann, htmx=htmx, action="retire")

    assert response.status_code == (200 if htmx else 302)
    ann.refresh_from_db()
    assert ann.retired

    response = edit(client, ann, htmx=htmx, action="unretire")

    assert response.status_code == (200 if htmx else 302)
    ann.refresh_from_db()
    assert not ann.retired


def test_retiring_with_htmx_moves_the_player_to_the_retired_list(client, ann):
    html = edit(client, ann, htmx=True, action="retire").content.decode()

    assert "Ann is retired." in html
    assert html.index("Retired") < html.index("<summary>Ann</summary>")


def test_an_unknown_action_is_refused(client, ann):
    assert edit(client, ann, action="delete").status_code == 400


def test_an_unknown_player_is_404(client):
    response = client.post(reverse("player", args=[999]), {"action": "retire"})

    assert response.status_code == 404


def test_player_edit_only_takes_posts(client, ann):
    assert client.get(reverse("player", args=[ann.pk])).status_code == 405


def test_player_services_strip_names_and_keep_retired_players(club):
    player = player_add(club=club, name=" Cy ")
    player = player_rename(player=player, name=" Cyrus ")
    player = player_retire(player=player, retired=True)

    player.refresh_from_db()
    assert (player.name, player.retired) == ("Cyrus", True)


def test_losing_a_race_to_the_unique_constraint_is_a_clear_error(club, ann):
    # Another request added the name between the check and the insert.
    with (
        mock.patch("pitchkeeper.clubs.players.player_name_check", side_effect=lambda n, **_: n),
        pytest.raises(ValidationError, match="There is already a player called ann"),
    ):
        player_add(club=club, name="ann")

    assert Player.objects.count() == 1
