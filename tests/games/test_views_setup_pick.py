"""The new-game screen's table as players are picked: seats in the order of picking,
whichever list a player was in; the first dealer always one of the players at the
table; every reason a start is refused at the top of the page."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from pitchkeeper.clubs.models import Player
from pitchkeeper.games.models import Game
from tests.games.test_views_setup import HTMX, NAMES, checked, setup_post, start

pytestmark = pytest.mark.django_db


@pytest.fixture
def players(club) -> dict[str, Player]:
    return {name: Player.objects.create(club=club, name=name) for name in NAMES}


def seat_of(html: str, player: Player) -> str | None:
    found = re.search(rf'name="seat_{player.pk}"(?: value="(\d*)")?', html)
    return found[1] if found else None


def dealer_options(html: str) -> list[str]:
    select = re.search(r'<select name="first_dealer".*?</select>', html, re.S)[0]
    return re.findall(r"<option[^>]*>([^<]*)</option>", select)


@pytest.mark.parametrize("htmx", [False, True])
def test_a_player_picked_from_the_rest_of_the_roster_sits_after_those_seated(client, players, htmx):
    ann, bob, cy, dee = players.values()
    # Ann and Dee seated; Bob just ticked, below, with no seat yet.
    data = setup_post([dee, ann]) | {"players": [str(dee.pk), str(ann.pk), str(bob.pk)]}

    response = client.post(reverse("game_new"), data | {"action": "pick"}, **(HTMX if htmx else {}))

    html = response.content.decode()
    assert response.status_code == 200
    assert ("<html" in html) != htmx
    assert checked(html) == ["Dee", "Ann", "Bob"]
    assert [seat_of(html, p) for p in (dee, ann, bob)] == ["1", "2", "3"]
    # Cy, not picked, has no seat.
    assert seat_of(html, cy) is None
    # The first dealer is offered among the three only.
    assert dealer_options(html) == ["Whoever sits in seat 1", "Ann", "Bob", "Dee", "The new player"]


def test_unticking_the_first_dealer_lets_the_first_seat_deal(client, players):
    ann, bob, cy, dee = players.values()
    data = setup_post([ann, bob, cy], first_dealer=str(cy.pk))
    data["players"] = [str(ann.pk), str(bob.pk)]

    html = client.post(reverse("game_new"), data | {"action": "pick"}, **HTMX).content.decode()

    assert "Cy" not in dealer_options(html)
    assert not re.search(r"<option value=\"\d+\" selected>", html)
    assert seat_of(html, cy) is None


def test_a_first_dealer_not_at_the_table_is_refused_by_name_at_the_top(client, players):
    ann, bob, cy, dee = players.values()
    data = setup_post([ann, bob], first_dealer=str(dee.pk))

    response = start(client, data)

    html = response.content.decode()
    assert response.status_code == 400
    assert not Game.objects.exists()
    alert = re.search(r'<div role="alert">.*?</div>', html, re.S)[0]
    assert "First dealer: Dee is not at this table" in alert
    assert html.index("Dee is not at this table") < html.index('id="players"')


def test_the_seat_box_has_a_visible_label(client, players):
    html = client.get(reverse("game_new")).content.decode()

    for player in players.values():
        box = re.search(
            rf'<label for="id_seat_{player.pk}"><span aria-hidden="true">Seat</span>'
            rf'<span class="visually-hidden">Seat of {player.name}</span></label>',
            html,
        )
        assert box, player.name
    assert re.search(r'<label for="id_seat_new"><span aria-hidden="true">Seat</span>', html)
