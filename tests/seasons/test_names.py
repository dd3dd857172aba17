"""A season's name is checked like every name: hidden characters refused with the code
point named (through the form and the model's full_clean), the name normalised, and a
name that is, or looks like, another season's of the club refused naming it."""

from __future__ import annotations

from datetime import date

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from pitchkeeper.clubs.services import club_create
from pitchkeeper.seasons.models import Season
from tests.clubs.test_names import HIDDEN

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
# Django's form fields answer a NUL with their own message, before the name's check.
TYPED = [(name, code) for name, code in HIDDEN if "\x00" not in name]


def add(client, name: str, **headers):
    post = {"new-name": name, "new-start": "2024-01-01"}
    return client.post(reverse("seasons"), post, **headers)


def rename(client, season: Season, name: str):
    prefix = f"s{season.pk}"
    post = {f"{prefix}-name": name, f"{prefix}-start": "2024-01-01", "action": "save"}
    return client.post(reverse("season_edit", args=[season.pk]), post)


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize(("name", "code"), TYPED)
def test_a_season_name_with_hidden_characters_is_refused(client, name, code, htmx):
    response = add(client, name, **(HTMX if htmx else {}))

    assert response.status_code == 400
    assert f"A name cannot contain invisible or control characters ({code})." in (
        response.content.decode()
    )
    assert not Season.objects.exists()


def test_a_nul_in_a_season_name_is_refused(client):
    assert add(client, "a\x00b").status_code == 400
    assert not Season.objects.exists()


@pytest.mark.parametrize(("name", "code"), HIDDEN)
def test_the_models_full_clean_refuses_them_too(club, name, code):
    with pytest.raises(ValidationError) as refusal:
        Season(club=club, name=name, start=date(2024, 1, 1)).full_clean()

    assert any(code in message for message in refusal.value.message_dict["name"])


def test_a_rename_with_hidden_characters_is_refused(client, club):
    season = Season.objects.create(club=club, name="Spring", start=date(2024, 1, 1))

    response = rename(client, season, "Spr\u200bing")

    assert response.status_code == 400
    assert "U+200B ZERO WIDTH SPACE" in response.content.decode()
    season.refresh_from_db()
    assert season.name == "Spring"


def test_a_season_name_is_stored_normalised(client):
    add(client, "  Ｓｐｒｉｎｇ   2024 ")

    assert Season.objects.get().name == "Spring 2024"


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("Ѕрring", "“Ѕрring” looks like “Spring”, a season of this club; "),
        ("ЅΡRING", "“ЅΡRING” looks like “Spring”, a season of this club; "),
        ("SPRING", "There is already a season called Spring."),
        ("Ｓｐｒｉｎｇ", "There is already a season called Spring."),
    ],
)
def test_a_season_that_is_or_looks_like_another_is_refused(client, club, typed, message):
    Season.objects.create(club=club, name="Spring", start=date(2024, 1, 1))

    response = add(client, typed)

    assert response.status_code == 400
    assert message in response.content.decode()
    assert Season.objects.count() == 1


def test_a_season_keeps_its_own_name_and_may_share_another_clubs(client, club):
    spring = Season.objects.create(club=club, name="Spring", start=date(2024, 1, 1))
    other = club_create(name="Other", owner=club.memberships.get().user)
    Season.objects.create(club=other, name="Autumn", start=date(2024, 1, 1))

    assert rename(client, spring, "SPRING").status_code == 302
    assert add(client, "Autumn").status_code == 302
    assert rename(client, spring, "Autumn").status_code == 400
    assert sorted(Season.objects.filter(club=club).values_list("name", flat=True)) == [
        "Autumn",
        "SPRING",
    ]


def test_the_refusal_is_in_the_users_language(client, club):
    Season.objects.create(club=club, name="Spring", start=date(2024, 1, 1))

    response = client.post(
        reverse("seasons"),
        {"new-name": "Ѕрring", "new-start": "2024-01-01"},
        HTTP_ACCEPT_LANGUAGE="ru",
    )

    assert "«Ѕрring» похоже на «Spring» — сезон этого клуба" in response.content.decode()
