"""The username at sign-up is a name like the others: refused with its hidden character
named, as an error on the username field, and never a server error, whatever is typed;
a username the form takes always names the user's own club."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from pitchkeeper.clubs.forms import SignupForm
from pitchkeeper.clubs.models import Club

pytestmark = pytest.mark.django_db

User = get_user_model()
PASSWORD = "correct horse battery"


def signup(username: str):
    data = {"username": username, "password1": PASSWORD, "password2": PASSWORD}
    return Client().post(reverse("signup"), data)


def username_errors(response) -> list[str]:
    return response.context["form"].errors.get("username", [])


@pytest.mark.parametrize(
    ("username", "code"),
    [
        # The form normalises a username to NFKC first: the Hangul filler U+3164 is
        # then U+1160, also a blank letter.
        ("\u3164", "U+1160 HANGUL JUNGSEONG FILLER"),
        ("ann\u3164", "U+1160 HANGUL JUNGSEONG FILLER"),
        ("\u115f", "U+115F HANGUL CHOSEONG FILLER"),
        ("an\u200bn", "U+200B ZERO WIDTH SPACE"),
        ("ann\u202e", "U+202E RIGHT-TO-LEFT OVERRIDE"),
        ("ann\ufe0f", "U+FE0F VARIATION SELECTOR-16"),
    ],
)
def test_a_username_with_hidden_characters_is_refused_on_its_field(username, code):
    response = signup(username)

    assert response.status_code == 400
    assert username_errors(response) == [
        f"A name cannot contain invisible or control characters ({code})."
    ]
    assert not User.objects.exists()
    assert not Club.objects.exists()


def test_a_long_username_gives_a_club_name_cut_to_fit():
    response = signup("a" * 150)

    assert response.status_code == 302
    assert Club.objects.get().name == "a" * 60


def test_a_username_taken_meanwhile_is_an_error_on_its_field(monkeypatch):
    checked = SignupForm.is_valid

    def taken_after_the_check(form):
        valid = checked(form)
        User.objects.create_user(form.cleaned_data["username"])
        return valid

    monkeypatch.setattr(SignupForm, "is_valid", taken_after_the_check)

    response = signup("bob")

    assert response.status_code == 400
    assert username_errors(response) == ["A user with that username already exists."]
    assert User.objects.count() == 1
    assert not Club.objects.exists()


usernames = st.one_of(
    st.text(max_size=160),
    st.text(
        alphabet=st.one_of(
            st.characters(categories=["L", "N", "M", "Cf", "Zs"]),
            st.sampled_from("\u3164\u115f\u1160\uffa0\u2800_.@+-"),
        ),
        min_size=1,
        max_size=160,
    ),
)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(username=usernames)
@example(username="\u3164")
@example(username="\ufdfa")
@example(username="ｱ" * 150)
@example(username="ß" * 150)
def test_any_username_makes_an_account_and_its_club_or_is_refused_on_its_field(username):
    with transaction.atomic():
        # The test client raises what a view raises: a server error fails here.
        response = signup(username)

        if response.status_code == 302:
            user = User.objects.get()
            club = Club.objects.get(memberships__user=user)
            club.full_clean()
        else:
            assert response.status_code == 400
            assert username_errors(response)
            assert not User.objects.exists()
        transaction.set_rollback(True)
