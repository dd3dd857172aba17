"""Invitation links: they expire, name the role they give on the page that accepts
them, and an owner's link makes one owner only."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from pitchkeeper.clubs.models import Invitation, Membership
from tests.conftest import PASSWORD, sign_in

pytestmark = pytest.mark.django_db


def invite(client, club, role: str) -> Invitation:
    response = client.post(reverse("club", args=[club.pk]), {"action": "invite", "role": role})
    assert response.status_code == 302
    return Invitation.objects.get(role=role)


@pytest.fixture
def joiner(anonymous_client):
    """A signed-in account that is in no club yet."""
    user = get_user_model().objects.create_user("joiner", password=PASSWORD)
    return sign_in(anonymous_client, user)


def url(invitation: Invitation) -> str:
    return reverse("invitation", args=[invitation.token])


def test_an_invitation_expires_a_week_after_it_is_made(client, club):
    before = timezone.now()
    invitation = invite(client, club, "viewer")

    assert before + timedelta(days=7) <= invitation.expires <= timezone.now() + timedelta(days=7)


@override_settings(INVITATION_TTL=timedelta(days=2))
def test_how_long_an_invitation_lasts_is_a_setting(client, club):
    invitation = invite(client, club, "viewer")

    assert invitation.expires - invitation.created < timedelta(days=2, seconds=5)


@pytest.mark.parametrize(
    ("role", "sentence"),
    [
        ("viewer", "You will join Thursday table as viewer."),
        ("scorekeeper", "You will join Thursday table as scorekeeper."),
        ("owner", "You will join Thursday table as owner."),
    ],
)
def test_the_accept_page_names_the_club_and_the_role(client, club, joiner, role, sentence):
    invitation = invite(client, club, role)

    html = joiner.get(url(invitation)).content.decode()

    assert sentence in html
    assert "The invitation is valid until" in html
    assert ("an owner has full control of the club" in html) == (role == "owner")
    assert ("Join as owner" in html) == (role == "owner")


def test_the_accept_page_speaks_russian(client, club, joiner):
    invitation = invite(client, club, "owner")
    joiner.cookies["django_language"] = "ru"

    html = joiner.get(url(invitation)).content.decode()

    assert "Вы вступите в Thursday table как владелец." in html


def test_an_expired_invitation_is_refused_and_saves_nothing(client, club, joiner):
    invitation = invite(client, club, "scorekeeper")
    Invitation.objects.filter(pk=invitation.pk).update(
        expires=timezone.now() - timedelta(seconds=1)
    )

    page = joiner.get(url(invitation))
    post = joiner.post(url(invitation))

    for response in (page, post):
        html = response.content.decode()
        assert response.status_code == 410
        assert "This invitation expired on" in html
        assert "Ask the club&#x27;s owner for a new link." in html
        assert 'role="alert"' in html
        assert 'type="submit">Join' not in html
    assert Membership.objects.filter(club=club).count() == 1  # the owner alone


def test_an_invitation_still_works_until_it_expires(client, club, joiner):
    invitation = invite(client, club, "viewer")
    Invitation.objects.filter(pk=invitation.pk).update(
        expires=timezone.now() + timedelta(seconds=30)
    )

    assert joiner.post(url(invitation)).status_code == 302
    assert Membership.objects.filter(club=club, role="viewer").count() == 1


def test_expired_invitations_leave_the_club_page(client, club):
    live = invite(client, club, "viewer")
    old = invite(client, club, "scorekeeper")
    Invitation.objects.filter(pk=old.pk).update(expires=timezone.now())

    html = client.get(reverse("club", args=[club.pk])).content.decode()

    assert live.token in html and old.token not in html
    assert "The invitation is valid until" in html


def test_an_owners_link_makes_one_owner_only(client, club, joiner, anonymous_client):
    invitation = invite(client, club, "owner")
    assert joiner.post(url(invitation)).status_code == 302
    assert Membership.objects.get(user__username="joiner").role == "owner"

    second = sign_in(
        type(anonymous_client)(), get_user_model().objects.create_user("second", password="x")
    )
    response = second.post(url(invitation))

    assert response.status_code == 410
    assert "already used" in response.content.decode()
    assert not Membership.objects.filter(user__username="second").exists()
    assert "An owner&#x27;s link works for one person only." not in (
        client.get(reverse("club", args=[club.pk])).content.decode()
    )


def test_other_links_let_several_people_join(client, club, joiner):
    invitation = invite(client, club, "scorekeeper")
    other = sign_in(type(joiner)(), get_user_model().objects.create_user("second", password="x"))

    assert joiner.post(url(invitation)).status_code == 302
    assert other.post(url(invitation)).status_code == 302
    assert Membership.objects.filter(club=club, role="scorekeeper").count() == 2
