from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from pitchkeeper.games.models import Game, Hand
from pitchkeeper.games.services import games_import

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client):
    user = User.objects.create_superuser("admin", "admin@example.com", "pw")
    client.force_login(user)
    return client


def test_admin_lists_and_shows_every_model(club, admin_client, game_data):
    [game] = games_import(club=club, games=[game_data()])
    hand = Hand.objects.filter(game=game).first()

    for url in [
        "/admin/pitchkeeper/player/",
        "/admin/pitchkeeper/game/",
        f"/admin/pitchkeeper/game/{game.pk}/change/",
        "/admin/pitchkeeper/hand/",
        f"/admin/pitchkeeper/hand/{hand.pk}/change/",
    ]:
        assert admin_client.get(url).status_code == 200, url


def test_hands_and_games_cannot_be_added_behind_the_engines_back(admin_client):
    assert admin_client.get("/admin/pitchkeeper/hand/add/").status_code == 403
    assert admin_client.get("/admin/pitchkeeper/game/add/").status_code == 403
    assert not Game.objects.exists()


def test_whether_a_game_counts_is_not_changed_behind_the_statistics(club, admin_client, game_data):
    [game] = games_import(club=club, games=[game_data()])
    page = admin_client.get(f"/admin/pitchkeeper/game/{game.pk}/change/").content.decode()

    assert 'name="chip_value"' in page
    assert 'name="counts"' not in page and 'name="deleted_at' not in page
