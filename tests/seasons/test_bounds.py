"""Seasons and the ledger at the edges of their input: days at the ends of the calendar,
negative chip values, chips past the database's integers, page numbers of any size.
Each is refused with a message in the user's language (and nothing saved), or answered."""

from __future__ import annotations

from datetime import date

import pytest
from django.urls import reverse

from pitchkeeper.clubs.models import Player
from pitchkeeper.core.limits import LAST_DAY, MOST_CHIPS
from pitchkeeper.seasons.models import Payment, Season
from tests.seasons.test_views import HTMX, body, pages

pytestmark = pytest.mark.django_db


def new_season(client, htmx: bool = False, headers: dict[str, str] | None = None, **fields: str):
    data = {"new-name": "Forever", "new-start": "2024-01-01", **fields}
    return client.post(reverse("seasons"), data, **(HTMX if htmx else {}), **(headers or {}))


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize(
    "fields",
    [
        {"new-end": "9999-12-31"},
        {"new-start": "9999-12-31"},
        {"new-start": "0001-01-01"},
        {"new-end": "3000-01-01"},
        {"new-chip_value": "-0.25"},
    ],
)
def test_a_season_beyond_the_bounds_is_refused_with_a_message(client, season_games, fields, htmx):
    response = new_season(client, htmx, **fields)

    assert response.status_code == 400
    html = body(response)
    assert "Ensure this value is" in html
    assert ("<html" in html) is not htmx
    assert not Season.objects.exists()


def test_the_message_is_in_the_users_language(client, season_games):
    response = new_season(
        client, headers={"HTTP_ACCEPT_LANGUAGE": "ru"}, **{"new-end": "9999-12-31"}
    )

    assert response.status_code == 400 and "Убедитесь, что это значение" in body(response)


@pytest.mark.parametrize("page", ["leaderboard", "player", "ledger", "seasons"])
def test_a_season_ending_on_the_last_day_allowed_is_read(client, club, season_games, page):
    Season.objects.create(club=club, name="Long", start=date(2000, 1, 1), end=LAST_DAY)

    assert client.get(pages(season_games)[page]).status_code == 200
    assert client.get(pages(season_games)[page], **HTMX).status_code == 200


def test_the_exports_of_a_season_ending_on_the_last_day_are_whole(client, club, season_games):
    Season.objects.create(club=club, name="Long", start=date(2000, 1, 1), end=LAST_DAY)

    for name in ("leaderboard.csv", "hands.csv", "games.json"):
        response = client.get(reverse("season_export", args=[name]))
        assert response.status_code == 200, name
        assert body(response).strip(), name


def pay(client, bob: Player, **fields):
    """Dee pays Bob on the all-time ledger; ``fields`` replace what is posted."""
    dee = Player.objects.get(name="Dee")
    data = {"payer": dee.pk, "payee": bob.pk, **fields}
    return client.post(reverse("ledger") + "?season=all", data)


@pytest.mark.parametrize("chips", [str(MOST_CHIPS + 1), str(2**63), "9" * 5000, "0", "x"])
def test_a_payment_past_the_largest_column_is_refused(client, season_games, chips):
    response = pay(client, season_games, chips=chips)

    assert response.status_code == 400
    assert not Payment.objects.exists()
    html = body(response)
    assert "A payment is from 1 to 2,147,483,647 chips." in html


def test_the_largest_payment_is_recorded(client, season_games):
    dee, bob = Player.objects.get(name="Dee"), season_games
    url = reverse("ledger") + "?season=all"

    response = client.post(url, {"payer": dee.pk, "payee": bob.pk, "chips": MOST_CHIPS})

    assert response.status_code == 302
    assert Payment.objects.get().chips == MOST_CHIPS
    assert client.get(url).status_code == 200


@pytest.mark.parametrize("page", ["9" * 23, str(2**63), "-5", "x", "１２", "1e9", ""])
def test_any_page_number_of_a_players_games(client, season_games, page):
    url = pages(season_games)["player"]

    assert client.get(url, {"page": page}).status_code == 200
    assert client.get(url, {"page": page}, **HTMX).status_code == 200


# Python's int() and Decimal() read "1_000" and other scripts' digits; a person types
# none of them, and a payment, a chip value or a player's id must not be read from them.
NOT_PLAIN = ["1_000", "1 000", "١٠", "１０", "1e3", "+10", "10\n"]


@pytest.mark.parametrize("chips", NOT_PLAIN)
def test_a_payment_in_anything_but_plain_digits_is_refused(client, season_games, chips):
    response = pay(client, season_games, chips=chips)

    assert response.status_code == 400
    assert not Payment.objects.exists()
    assert "A payment is from 1 to 2,147,483,647 chips." in body(response)


def test_a_payer_named_in_anything_but_plain_digits_is_refused(client, season_games):
    dee = Player.objects.get(name="Dee")

    response = pay(client, season_games, payer=f"{dee.pk}_0", chips="3")

    assert response.status_code == 400
    assert not Payment.objects.exists()


@pytest.mark.parametrize("value", NOT_PLAIN)
def test_a_chip_value_in_anything_but_plain_digits_is_refused(client, season_games, value):
    response = new_season(client, **{"new-chip_value": value})

    assert response.status_code == 400
    assert "Enter a number." in body(response)
    assert not Season.objects.exists()
