"""Accounts: sign up, sign in and out, the lockout after failed sign-ins, and changing or
resetting a password, with Django's password validators applied everywhere.

Every test makes its own ``Client()``: the shared ``client`` fixture may come signed in.
Axes needs the request to count an attempt, so users sign in by posting to the login
page (or with ``force_login``), never with ``client.login()``.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.mail.backends.base import BaseEmailBackend
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import translation

from pitchkeeper.clubs.access import CURRENT_CLUB
from pitchkeeper.clubs.models import Membership, Role

pytestmark = pytest.mark.django_db

User = get_user_model()
PASSWORD = "correct horse battery"
NEW_PASSWORD = "staple pitch trump 42"


@pytest.fixture(autouse=True)
def _back_to_english():
    """The locale middleware leaves the request's language active in the thread."""
    yield
    translation.deactivate()


@pytest.fixture
def ann():
    return User.objects.create_user("ann", email="ann@example.com", password=PASSWORD)


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def sign_in(client: Client, username: str, password: str, **extra):
    return client.post(reverse("login"), {"username": username, "password": password, **extra})


def is_signed_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def signup(client: Client, next_url: str = "", **fields):
    data = {"username": "bob", "password1": PASSWORD, "password2": PASSWORD, **fields}
    url = reverse("signup") + (f"?next={next_url}" if next_url else "")
    return client.post(url, data)


# ---- Sign up ----


def test_signup_page_has_labelled_fields():
    response = Client().get(reverse("signup"))

    html = response.content.decode()
    assert response.status_code == 200
    for name in ("username", "email", "password1", "password2"):
        assert f'<label for="id_{name}">' in html
        assert f'id="id_{name}"' in html
    assert 'class="primary wide" type="submit"' in html
    # The input points at its help with aria-describedby: the help must carry that id.
    assert 'id="id_password1_helptext"' in html


def test_signup_makes_the_account_and_its_own_club_and_goes_to_a_new_game():
    client = Client()

    response = signup(client, email="bob@example.com")

    assert response.status_code == 302
    assert response.url == reverse("game_new")
    user = User.objects.get(username="bob")
    # The user's own club, current, with the user as its owner: no club step first.
    membership = Membership.objects.get(user=user)
    assert membership.role == Role.OWNER and membership.club.name == "bob's table"
    assert client.session[CURRENT_CLUB] == membership.club.pk
    assert client.get(response.url).status_code == 200
    assert user.email == "bob@example.com"
    assert user.check_password(PASSWORD)
    assert client.session["_auth_user_id"] == str(user.pk)


def test_signup_without_an_email_is_fine():
    client = Client()

    assert signup(client).status_code == 302
    assert User.objects.get(username="bob").email == ""


@pytest.mark.parametrize(
    ("password1", "password2", "message"),
    [
        ("Ab3$xz", "Ab3$xz", "This password is too short."),
        ("qwertyuiop", "qwertyuiop", "This password is too common."),
        ("40917735528", "40917735528", "This password is entirely numeric."),
        (PASSWORD, PASSWORD + "!", "The two password fields didn’t match."),
        ("bobbybobby1", "bobbybobby1", "The password is too similar to the username."),
    ],
)
def test_signup_refuses_a_weak_or_mismatched_password(password1, password2, message):
    client = Client()

    response = signup(client, username="bobbybobby", password1=password1, password2=password2)

    html = response.content.decode()
    assert response.status_code == 400
    assert message in html
    # Next to the field it is about, and summed up at the top.
    assert 'id="id_password2_error"' in html
    assert "The account was not created" in html
    assert not User.objects.exists()
    assert not is_signed_in(client)


def test_signup_refuses_a_taken_username_whatever_its_case(ann):
    response = signup(Client(), username="ANN")

    assert response.status_code == 400
    assert "A user with that username already exists." in response.content.decode()
    assert 'id="id_username_error"' in response.content.decode()
    assert User.objects.count() == 1


def test_signup_refuses_a_bad_email():
    response = signup(Client(), email="not an address")

    assert response.status_code == 400
    assert 'id="id_email_error"' in response.content.decode()
    assert not User.objects.exists()


def test_signup_goes_on_to_next_on_this_site():
    response = signup(Client(), next_url="/invitations/abc/")

    assert response.status_code == 302
    assert response.url == "/invitations/abc/"
    assert not Membership.objects.exists()  # the invitation's club, not one of their own


@pytest.mark.parametrize(
    ("next_url", "goes_to"), [("/", "/games/new/"), ("/players/", "/players/")]
)
def test_signup_from_another_page_makes_the_users_own_club(next_url, goes_to):
    """A first visit to the home page goes to sign in with ?next=/; signing up from
    there still makes the user's own club, and home has nothing to show yet."""
    response = signup(Client(), next_url=next_url)

    assert response.status_code == 302
    assert response.url == goes_to
    membership = Membership.objects.get()
    assert (membership.user.username, membership.role) == ("bob", "owner")


def test_signup_keeps_next_through_a_refused_form():
    client = Client()
    response = client.post(
        reverse("signup"),
        {"username": "bob", "password1": "short", "password2": "short", "next": "/players/"},
    )

    assert response.status_code == 400
    assert 'name="next" value="/players/"' in response.content.decode()


@pytest.mark.parametrize("next_url", ["https://evil.example/", "//evil.example/", "javascript:x"])
def test_signup_ignores_next_off_the_site(next_url):
    response = Client().post(
        reverse("signup"),
        {"username": "bob", "password1": PASSWORD, "password2": PASSWORD, "next": next_url},
    )

    assert response.status_code == 302
    assert response.url == reverse("game_new")


def test_signup_with_the_longest_name_names_the_club_within_its_limit():
    name = "b" * 150
    response = Client().post(
        reverse("signup"), {"username": name, "password1": PASSWORD, "password2": PASSWORD}
    )

    assert response.status_code == 302
    club = Membership.objects.get(user__username=name).club
    assert club.name == ("b" * 150 + "'s table")[:60]


def test_signed_in_user_is_sent_home_from_signup(ann):
    client = signed_in(ann)

    assert client.get(reverse("signup")).url == reverse("home")
    response = signup(client, username="carl")
    assert response.url == reverse("home")
    assert not User.objects.filter(username="carl").exists()


# ---- Sign in and out ----


def test_login_page_links_to_signup_and_password_reset():
    response = Client().get(reverse("login"))

    html = response.content.decode()
    assert response.status_code == 200
    assert '<label for="id_username">' in html and '<label for="id_password">' in html
    assert f'href="{reverse("signup")}"' in html
    assert f'href="{reverse("password_reset")}"' in html


def test_login_page_passes_next_on_to_signup():
    response = Client().get(reverse("login"), {"next": "/invitations/abc/"})

    html = response.content.decode()
    assert 'name="next" value="/invitations/abc/"' in html
    assert f'href="{reverse("signup")}?next=/invitations/abc/"' in html


def test_login_signs_in_and_goes_home(ann):
    client = Client()

    response = sign_in(client, "ann", PASSWORD)

    assert response.status_code == 302
    assert response.url == reverse("home")
    assert client.session["_auth_user_id"] == str(ann.pk)


def test_login_goes_on_to_next(ann):
    response = sign_in(Client(), "ann", PASSWORD, next="/players/")

    assert response.url == "/players/"


def test_wrong_password_is_refused_with_a_message(ann):
    client = Client()

    response = sign_in(client, "ann", "not the password")

    assert response.status_code == 200
    assert "Please enter a correct username and password." in response.content.decode()
    assert 'role="alert"' in response.content.decode()
    assert not is_signed_in(client)


def test_lockout_after_five_failures_refuses_even_the_right_password(ann):
    client = Client()
    for _ in range(4):
        assert sign_in(client, "ann", "not the password").status_code == 200
    # The fifth failure reaches the limit: it is already answered with the lockout page.
    assert sign_in(client, "ann", "not the password").status_code == 429

    response = sign_in(client, "ann", PASSWORD)

    html = response.content.decode()
    assert response.status_code == 429
    assert "Too many failed sign-ins; try again in 15 minutes." in html
    assert "<html" in html and f'href="{reverse("password_reset")}"' in html
    assert not is_signed_in(client)


def test_a_success_before_the_limit_starts_the_count_again(ann):
    client = Client()
    for _ in range(4):
        sign_in(client, "ann", "not the password")
    assert sign_in(client, "ann", PASSWORD).status_code == 302
    client.post(reverse("logout"))

    for _ in range(4):
        assert sign_in(client, "ann", "not the password").status_code == 200
    assert sign_in(client, "ann", PASSWORD).status_code == 302


def test_lockout_page_speaks_the_language(ann):
    client = Client()
    client.cookies["django_language"] = "ru"
    for _ in range(5):
        sign_in(client, "ann", "not the password")

    response = sign_in(client, "ann", PASSWORD)

    assert response.status_code == 429
    assert "попробуйте снова через 15 минут" in response.content.decode()


def test_logout_by_post_signs_out(ann):
    client = signed_in(ann)

    assert client.get(reverse("logout")).status_code == 405
    assert is_signed_in(client)
    response = client.post(reverse("logout"))

    assert response.status_code == 302
    assert response.url == reverse("login")
    assert not is_signed_in(client)
    assert client.get("/players/").status_code == 302


# ---- Who may see what ----


@pytest.mark.parametrize(
    "name",
    ["login", "signup", "password_reset", "password_reset_done", "password_reset_complete"],
)
def test_anonymous_users_reach_the_account_pages(name):
    response = Client().get(reverse(name))

    assert response.status_code == 200
    assert "<html" in response.content.decode()


@pytest.mark.parametrize("url", ["/players/", "/", "/games/new/", reverse("password_change")])
def test_protected_pages_send_anonymous_users_to_sign_in(url):
    response = Client().get(url)

    assert response.status_code == 302
    assert response.url == f"{reverse('login')}?next={url}"


# ---- Changing the password ----


def change(client: Client, old: str, new1: str, new2: str | None = None):
    data = {"old_password": old, "new_password1": new1, "new_password2": new2 or new1}
    return client.post(reverse("password_change"), data)


def test_password_change_page_has_labelled_fields(ann):
    response = signed_in(ann).get(reverse("password_change"))

    html = response.content.decode()
    assert response.status_code == 200
    for name in ("old_password", "new_password1", "new_password2"):
        assert f'<label for="id_{name}">' in html


def test_password_change_keeps_the_user_signed_in(ann):
    client = signed_in(ann)

    response = change(client, PASSWORD, NEW_PASSWORD)

    assert response.status_code == 302
    assert response.url == reverse("password_change_done")
    ann.refresh_from_db()
    assert ann.check_password(NEW_PASSWORD)
    # The session was carried over to the new password; others were not.
    assert client.get(reverse("password_change_done")).status_code == 200


@pytest.mark.parametrize(
    ("old", "new1", "new2", "field", "message"),
    [
        ("wrong", NEW_PASSWORD, NEW_PASSWORD, "old_password", "Your old password was entered"),
        (PASSWORD, "Ab3$xz", "Ab3$xz", "new_password2", "This password is too short."),
        (PASSWORD, "qwertyuiop", "qwertyuiop", "new_password2", "This password is too common."),
        (PASSWORD, NEW_PASSWORD, NEW_PASSWORD + "!", "new_password2", "didn’t match"),
    ],
)
def test_password_change_refuses_bad_input(ann, old, new1, new2, field, message):
    client = signed_in(ann)

    response = change(client, old, new1, new2)

    html = response.content.decode()
    assert response.status_code == 200
    assert message in html
    assert f'id="id_{field}_error"' in html
    ann.refresh_from_db()
    assert ann.check_password(PASSWORD)


# ---- Resetting a forgotten password ----

RESET_LINK = re.compile(r"https?://testserver(/accounts/reset/\S+/\S+/)")


def reset_link(address: str) -> str:
    response = Client().post(reverse("password_reset"), {"email": address})
    assert response.status_code == 302
    assert response.url == reverse("password_reset_done")
    assert len(mail.outbox) == 1
    match = RESET_LINK.search(mail.outbox[0].body)
    assert match, mail.outbox[0].body
    return match.group(1)


def test_password_reset_end_to_end(ann):
    link = reset_link("ANN@example.com")
    email = mail.outbox[0]
    assert email.to == ["ann@example.com"]
    assert email.subject == "Reset your Pitchkeeper password"
    assert "Your username, in case you have forgotten it: ann" in email.body

    client = Client()
    # The token moves from the address into the session before the form is shown.
    form_page = client.get(link, follow=True)
    assert form_page.status_code == 200
    assert form_page.context["validlink"]
    set_url = form_page.redirect_chain[-1][0]

    refused = client.post(set_url, {"new_password1": "Ab3$xz", "new_password2": "Ab3$xz"})
    assert refused.status_code == 200
    assert "This password is too short." in refused.content.decode()

    done = client.post(set_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert done.status_code == 302
    assert done.url == reverse("password_reset_complete")

    assert sign_in(Client(), "ann", PASSWORD).status_code == 200
    assert sign_in(Client(), "ann", NEW_PASSWORD).status_code == 302
    # Used once, the link is dead.
    again = Client().get(link, follow=True)
    assert not again.context["validlink"]
    assert "This link no longer works" in again.content.decode()


def test_password_reset_for_an_unknown_address_sends_nothing_and_tells_nothing(ann):
    response = Client().post(reverse("password_reset"), {"email": "nobody@example.com"})

    assert response.status_code == 302
    assert response.url == reverse("password_reset_done")
    assert mail.outbox == []


def test_password_reset_with_a_forged_link_offers_a_new_one(ann):
    url = reverse("password_reset_confirm", kwargs={"uidb64": "MQ", "token": "bad-token"})

    response = Client().get(url)

    html = response.content.decode()
    assert response.status_code == 200
    assert "This link no longer works" in html
    assert f'href="{reverse("password_reset")}"' in html
    assert 'name="new_password1"' not in html


class UnreachableMailServer(BaseEmailBackend):
    def send_messages(self, messages):
        raise ConnectionRefusedError("no mail server listening")


@override_settings(EMAIL_BACKEND="tests.clubs.test_accounts.UnreachableMailServer")
def test_a_reset_with_no_mail_server_is_logged_not_a_server_error(ann, caplog):
    response = Client().post(reverse("password_reset"), {"email": "ann@example.com"})

    # Django's own form logs the failure for the operator and gives the same answer as
    # for an address with no account, so that it tells nobody which addresses have one.
    assert response.status_code == 302
    assert response.url == reverse("password_reset_done")
    failed = [r for r in caplog.records if r.levelname == "ERROR"]
    assert failed and "Failed to send password reset email" in failed[0].getMessage()
    assert failed[0].exc_info[0] is ConnectionRefusedError


@pytest.mark.parametrize(
    ("language", "name"), [("ru", "Стол olga"), ("nb", "Bordet til olga"), ("en", "olga's table")]
)
def test_the_club_made_at_signup_is_named_in_the_language_of_the_signup(language, name):
    client = Client(HTTP_ACCEPT_LANGUAGE=language)

    assert signup(client, username="olga").status_code == 302

    assert Membership.objects.get(user__username="olga").club.name == name
