"""Clubs keep groups apart: another club's things answer 404 on every view."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from pitchkeeper.clubs.models import Club, Invitation, Membership, Player
from pitchkeeper.clubs.players import roster
from pitchkeeper.clubs.services import club_create
from pitchkeeper.games.hands import hand_record
from pitchkeeper.games.models import Game, Hand
from pitchkeeper.games.services import game_create
from pitchkeeper.rules import HandRecord, resolve_rules
from tests.conftest import PASSWORD, entry_basis, sign_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def stranger_game(db):
    """A game of a club the signed-in user is not in."""
    outsider = get_user_model().objects.create_user("outsider", password=PASSWORD)
    other = club_create(name="Other table", owner=outsider)
    players = roster(["Xu", "Yan", "Zed"], club=other)
    state = game_create(
        players=list(players.values()),
        first_dealer=players["Xu"],
        rules=resolve_rules("setback"),
    )
    hand_record(game=state.game, record=HandRecord(misdeal=True))
    return state.game


def other_club_urls(game: Game) -> list[tuple[str, str]]:
    player = game.seats.first().player
    return [
        ("get", reverse("game", args=[game.pk])),
        ("post", reverse("hand_add", args=[game.pk])),
        ("get", reverse("hand_edit", args=[game.pk, 1])),
        ("post", reverse("hand_edit", args=[game.pk, 1])),
        ("post", reverse("hand_delete", args=[game.pk, 1])),
        ("post", reverse("auction", args=[game.pk])),
        ("post", reverse("undo", args=[game.pk])),
        ("post", reverse("redo", args=[game.pk])),
        ("post", reverse("rematch", args=[game.pk])),
        ("post", reverse("share_revoke", args=[game.pk])),
        ("post", reverse("player", args=[player.pk])),
        ("get", reverse("club", args=[game.club_id])),
        ("post", reverse("club", args=[game.club_id])),
        ("post", reverse("club_switch", args=[game.club_id])),
    ]


@pytest.mark.parametrize("htmx", [False, True])
def test_another_clubs_things_are_not_found_anywhere(client, stranger_game, htmx):
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    before = list(Hand.objects.values_list("pk", "number", "kind"))
    for method, url in other_club_urls(stranger_game):
        response = getattr(client, method)(url, {"action": "misdeal", "name": "Hacked"}, **headers)
        assert response.status_code == 404, (method, url, response.status_code)
    assert list(Hand.objects.values_list("pk", "number", "kind")) == before
    assert Game.objects.count() == 1
    assert not Player.objects.filter(name="Hacked").exists()


def words_shown(html: str) -> set[str]:
    """The words of a page's text, not of its markup (a random CSP nonce or CSRF token
    may hold any two letters)."""
    return set(re.findall(r"\w+", re.sub(r"<[^>]*>", " ", html)))


def test_lists_show_only_the_current_club(client, make_game, stranger_game):
    make_game()
    home = words_shown(client.get(reverse("home")).content.decode())
    players = words_shown(client.get(reverse("players")).content.decode())

    assert "Ann" in home and "Xu" not in home
    assert "Ann" in players and "Zed" not in players


def test_new_game_cannot_seat_another_clubs_player(client, make_game, stranger_game):
    make_game()
    xu = Player.objects.get(name="Xu")
    ann = Player.objects.get(name="Ann")

    response = client.post(
        reverse("game_new"),
        {
            "players": [str(ann.pk), str(xu.pk)],
            f"seat_{ann.pk}": "1",
            f"seat_{xu.pk}": "2",
            "preset": "setback",
            "settings_for": "setback",
        },
    )

    assert response.status_code == 400
    assert Game.objects.count() == 2  # the stranger's and make_game's


def test_anonymous_visitors_are_sent_to_sign_in(anonymous_client, make_game):
    game = make_game().game
    for url in [
        reverse("home"),
        reverse("players"),
        reverse("game_new"),
        reverse("game", args=[game.pk]),
        reverse("clubs"),
    ]:
        response = anonymous_client.get(url)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login") + "?next=")


def test_the_live_link_needs_no_account_and_an_owner_can_revoke_it(
    client, anonymous_client, make_game
):
    game = make_game().game
    old = reverse("live", args=[game.share_token])
    assert anonymous_client.get(old).status_code == 200

    response = client.post(reverse("share_revoke", args=[game.pk]))

    assert response.status_code == 302
    game.refresh_from_db()
    assert anonymous_client.get(old).status_code == 404
    assert anonymous_client.get(reverse("live", args=[game.share_token])).status_code == 200


@pytest.fixture
def member(club):
    """Sign a new member of ``club`` in with the given role."""

    def make(role: str, client):
        user = get_user_model().objects.create_user(f"a-{role}", password=PASSWORD)
        Membership.objects.create(club=club, user=user, role=role)
        return sign_in(client, user, club)

    return make


def test_a_viewer_reads_but_cannot_change_anything(member, make_game, client):
    game = make_game().game
    viewer = member("viewer", client)

    page = viewer.get(reverse("game", args=[game.pk]))
    assert page.status_code == 200
    assert 'name="point_high"' not in page.content.decode()
    assert "Undo" not in page.content.decode()
    for url in [
        reverse("hand_add", args=[game.pk]),
        reverse("undo", args=[game.pk]),
        reverse("rematch", args=[game.pk]),
        reverse("players"),
        reverse("game_new"),
    ]:
        assert viewer.post(url, {"action": "misdeal", "name": "Eve"}).status_code == 403, url
    assert viewer.get(reverse("game_new")).status_code == 403
    assert viewer.get(reverse("club", args=[game.club_id])).status_code == 403
    assert not Hand.objects.exists()


def test_a_scorekeeper_records_hands_but_does_not_manage_the_club(member, make_game, client):
    game = make_game().game
    keeper = member("scorekeeper", client)

    assert (
        keeper.post(
            reverse("hand_add", args=[game.pk]),
            {**entry_basis(game.pk), **entry_basis(game.pk), "action": "misdeal"},
        ).status_code
        == 302
    )
    assert keeper.get(reverse("club", args=[game.club_id])).status_code == 403
    assert keeper.post(reverse("share_revoke", args=[game.pk])).status_code == 403
    assert Hand.objects.count() == 1


def test_making_and_switching_clubs(client, user, club):
    response = client.post(reverse("clubs"), {"name": "Friday table"})
    friday = Club.objects.get(name="Friday table")
    assert response.status_code == 302
    assert Membership.objects.get(club=friday, user=user).role == "owner"

    client.post(reverse("players"), {"name": "Fay"})
    assert friday.players.filter(name="Fay").exists()
    assert "Fay" in client.get(reverse("players")).content.decode()
    client.post(reverse("club_switch", args=[club.pk]))
    assert "Fay" not in client.get(reverse("players")).content.decode()

    assert client.post(reverse("clubs"), {"name": "  "}).status_code == 400
    assert Club.objects.count() == 2


def test_a_new_user_without_a_club_is_sent_to_make_one(anonymous_client):
    user = get_user_model().objects.create_user("newbie", password=PASSWORD)
    sign_in(anonymous_client, user)
    response = anonymous_client.get(reverse("home"))
    assert response.status_code == 302
    assert response["Location"] == reverse("clubs")
    assert anonymous_client.get(reverse("clubs")).status_code == 200


def test_invitation_link_makes_a_member(client, club, anonymous_client):
    client.post(reverse("club", args=[club.pk]), {"action": "invite", "role": "viewer"})
    invitation = Invitation.objects.get()
    url = reverse("invitation", args=[invitation.token])
    joiner = get_user_model().objects.create_user("joiner", password=PASSWORD)

    assert anonymous_client.get(url).status_code == 302  # sign in first
    sign_in(anonymous_client, joiner)
    assert club.name in anonymous_client.get(url).content.decode()
    assert anonymous_client.post(url).status_code == 302
    assert Membership.objects.get(user=joiner).role == "viewer"

    client.post(reverse("club", args=[club.pk]), {"action": "revoke", "invitation": invitation.pk})
    revoked = anonymous_client.get(url)
    assert revoked.status_code == 410
    assert "This invitation has been withdrawn" in revoked.content.decode()


def test_owner_changes_roles_but_a_club_keeps_an_owner(
    client, club, user, member, anonymous_client
):
    member("scorekeeper", anonymous_client)
    keeper = Membership.objects.get(role="scorekeeper")
    mine = Membership.objects.get(user=user)

    client.post(
        reverse("club", args=[club.pk]), {"action": "role", "member": keeper.pk, "role": "viewer"}
    )
    keeper.refresh_from_db()
    assert keeper.role == "viewer"

    response = client.post(reverse("club", args=[club.pk]), {"action": "remove", "member": mine.pk})
    assert response.status_code == 400
    assert "A club needs an owner" in response.content.decode()
    assert Membership.objects.filter(pk=mine.pk).exists()

    client.post(reverse("club", args=[club.pk]), {"action": "remove", "member": keeper.pk})
    assert not Membership.objects.filter(pk=keeper.pk).exists()


def test_a_roster_player_is_linked_to_a_members_account(client, club, user, make_game):
    make_game()
    ann = Player.objects.get(name="Ann")
    mine = Membership.objects.get(user=user)

    client.post(
        reverse("club", args=[club.pk]), {"action": "link", "player": ann.pk, "member": mine.pk}
    )

    ann.refresh_from_db()
    assert ann.user == user
    bob = Player.objects.get(name="Bob")
    response = client.post(
        reverse("club", args=[club.pk]), {"action": "link", "player": bob.pk, "member": mine.pk}
    )
    assert response.status_code == 400
    assert Player.objects.get(name="Bob").user is None


def test_club_page_full_and_fragment(client, club):
    page = client.get(reverse("club", args=[club.pk]))
    fragment = client.get(reverse("club", args=[club.pk]), HTTP_HX_REQUEST="true")
    assert "<html" in page.content.decode()
    assert "<html" not in fragment.content.decode()
    assert 'id="members"' in fragment.content.decode()
