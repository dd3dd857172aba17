"""The new-game screen takes names one after another: "Add" (or Enter) puts the typed
name on the roster and in the next seat and empties the box for the next; the seats are
in the order the names were typed."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from pitchkeeper.clubs.models import Player
from pitchkeeper.games.models import Game
from tests.games.test_views_setup import HTMX, checked, setup_post, start

pytestmark = pytest.mark.django_db


def add(client, data, name: str, **headers):
    return start(client, data | {"action": "add", "new_player": name}, **headers)


def form_data(html: str) -> dict[str, object]:
    """What the browser would post back from the players' part of ``html``: the ticked
    players and their seat numbers."""
    data: dict[str, object] = {"players": re.findall(r'value="(\d+)" id="play-\d+" checked', html)}
    for key, seat in re.findall(r'name="seat_(\d+)" value="(\d+)"', html):
        data[f"seat_{key}"] = seat
    return data


def test_names_typed_one_after_another_are_seated_in_that_order(client, club):
    data = setup_post([])
    for count, name in enumerate(("Cy", "Ann", "Bob"), start=1):
        response = add(client, data, name, **HTMX)

        html = response.content.decode()
        assert response.status_code == 200
        assert html.lstrip().startswith('<fieldset class="card" id="players"')
        assert checked(html) == ["Cy", "Ann", "Bob"][:count]
        # The box is empty and has the focus again, ready for the next name.
        assert re.search(r'id="id_new_player"[^>]*value="" autofocus', html)
        data = setup_post([]) | form_data(html)

    response = start(client, data)

    game = Game.objects.get()
    assert response.status_code == 302
    assert [seat.player.name for seat in game.seats.order_by("position")] == ["Cy", "Ann", "Bob"]


def test_without_javascript_the_add_button_answers_with_the_whole_page(client, club):
    response = add(client, setup_post([]), "Ann")

    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" in html
    assert checked(html) == ["Ann"]
    assert 'id="add-player"' in html
    assert list(Player.objects.values_list("name", flat=True)) == ["Ann"]
    assert not Game.objects.exists()


def test_enter_with_a_name_in_the_box_adds_it_rather_than_start_the_game(client, club):
    """Enter in a text field presses the form's first button (action=enter): without
    JavaScript, or before it has loaded, a name typed in the box is added as by "Add"."""
    seated = [Player.objects.create(club=club, name=name) for name in ("Ann", "Bob")]
    response = start(client, setup_post(seated, action="enter", new_player=" Cy "))

    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" in html
    assert checked(html) == ["Ann", "Bob", "Cy"]
    assert re.search(r'id="id_new_player"[^>]*value="" autofocus', html)
    assert not Game.objects.exists()


def test_enter_with_the_box_empty_starts_the_game(client, club):
    seated = [Player.objects.create(club=club, name=name) for name in ("Ann", "Bob")]
    response = start(client, setup_post(seated, action="enter", new_player=" "))

    game = Game.objects.get()
    assert response.status_code == 302
    assert [seat.player.name for seat in game.seats.order_by("position")] == ["Ann", "Bob"]


def test_a_name_added_after_the_last_tables_players_sits_after_them(client, club, make_game):
    make_game("setback", ("Ann", "Bob"))
    html = client.get(reverse("game_new")).content.decode()
    assert checked(html) == ["Ann", "Bob"]

    html = add(client, setup_post([]) | form_data(html), "Cy", **HTMX).content.decode()

    assert checked(html) == ["Ann", "Bob", "Cy"]
    cy = Player.objects.get(name="Cy")
    assert f'name="seat_{cy.pk}" value="3"' in html


def test_the_new_player_as_first_dealer_stays_the_first_dealer(client, club):
    html = add(client, setup_post([]) | {"first_dealer": "new"}, "Ann").content.decode()

    ann = Player.objects.get(name="Ann")
    assert re.search(rf'<option value="{ann.pk}" selected>Ann</option>', html)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "Give the player a name."),
        ("Ann\u200b", "invisible or control characters (U+200B ZERO WIDTH SPACE)"),
        ("A" * 100_000, "at most"),
        ("bob", "There is already a player called Bob"),
    ],
)
@pytest.mark.parametrize("headers", [{}, HTMX])
def test_a_refused_name_saves_nothing_and_says_why(client, club, name, message, headers):
    Player.objects.create(club=club, name="Bob")

    response = add(client, setup_post([]), name, **headers)

    html = response.content.decode()
    assert response.status_code == 400
    assert message in html
    assert 'aria-invalid="true"' in html
    assert list(Player.objects.values_list("name", flat=True)) == ["Bob"]
    assert not Game.objects.exists()


def test_a_refused_name_is_said_in_the_users_language(client, club):
    response = add(client, setup_post([]), " ", HTTP_ACCEPT_LANGUAGE="nb", **HTMX)

    assert response.status_code == 400
    assert "Give the player a name." not in response.content.decode()
