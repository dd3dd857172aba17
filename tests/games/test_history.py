"""Every change to a hand is kept (who, when, before and after) and can be restored; a
deleted game is hidden everywhere until it is restored."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from pitchkeeper.clubs.models import Membership
from pitchkeeper.clubs.players import roster
from pitchkeeper.clubs.services import club_create
from pitchkeeper.games.hands import change_restore, hand_delete, hand_edit, hand_record
from pitchkeeper.games.models import Game, Hand, HandChange
from pitchkeeper.games.replay import game_state
from pitchkeeper.games.services import game_create, game_delete
from pitchkeeper.rules import HandRecord, RuleError, resolve_rules
from tests.conftest import PASSWORD, entry_basis, sign_in
from tests.games.test_views_game import hand_post

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def played(pitcher: str = "Bob", bid: int = 2, high: str = "Bob", game: str | None = "Cy"):
    return HandRecord(
        pitcher=pitcher, bid=bid, points={"high": high, "low": high, "jack": None, "game": game}
    )


@pytest.fixture
def game(make_game):
    return make_game().game


@pytest.fixture
def member(club):
    """Sign a new member of ``club`` in with the given role."""

    def make(role: str, client):
        user = get_user_model().objects.create_user(f"a-{role}", password=PASSWORD)
        Membership.objects.create(club=club, user=user, role=role)
        return sign_in(client, user, club)

    return make


@pytest.fixture
def stranger_game(db):
    """A game of a club the signed-in user is not in, with a change to restore."""
    outsider = get_user_model().objects.create_user("outsider", password=PASSWORD)
    other = club_create(name="Other table", owner=outsider)
    players = roster(["Xu", "Yan", "Zed"], club=other)
    state = game_create(
        players=list(players.values()), first_dealer=players["Xu"], rules=resolve_rules("setback")
    )
    hand_record(game=state.game, record=HandRecord(misdeal=True), user=outsider)
    hand_delete(game=state.game, number=1, user=outsider)
    return state.game


def actions(game: Game) -> list[tuple[str, int]]:
    return [(c.action, c.number) for c in game.changes.order_by("pk")]


# ---- The history kept with every change ----


def test_every_change_from_the_screens_is_kept_with_its_user(client, user, game):
    add, edit = reverse("hand_add", args=[game.pk]), reverse("hand_edit", args=[game.pk, 1])
    client.post(add, {**entry_basis(game.pk), **entry_basis(game.pk), **hand_post()})
    client.post(add, {**entry_basis(game.pk), **entry_basis(game.pk), "action": "misdeal"})
    client.post(edit, hand_post(pitcher="Cy", bid="3", high="Cy", low="Cy"))
    client.post(reverse("undo", args=[game.pk]))
    client.post(reverse("redo", args=[game.pk]), entry_basis(game.pk))
    client.post(reverse("hand_delete", args=[game.pk, 1]))

    assert actions(game) == [
        ("add", 1),
        ("add", 2),
        ("edit", 1),
        ("undo", 2),
        ("add", 2),  # redo
        ("delete", 1),
    ]
    changes = list(game.changes.order_by("pk"))
    assert {change.user for change in changes} == {user}
    first, _second, edit_change, undo, redo, deletion = changes
    assert first.before is None
    assert first.after == {
        "dealer": "Ann",
        "pitcher": "Bob",
        "bid": 2,
        "points": {"high": "Bob", "low": "Bob", "jack": None, "game": "Cy"},
    }
    assert edit_change.before == first.after
    assert edit_change.after["pitcher"] == "Cy" and edit_change.after["bid"] == 3
    assert undo.before == {"misdeal": True} and undo.after is None
    assert redo.after == {"misdeal": True}
    assert deletion.before == edit_change.after and deletion.after is None
    assert all(change.at is not None for change in changes)
    # Told apart in the history of changes: an undo is not a deletion.
    html = client.get(reverse("game_history", args=[game.pk])).content.decode()
    assert "owner undid hand 2" in html
    assert "owner deleted hand 1" in html
    assert "owner deleted hand 2" not in html


def test_a_refused_change_leaves_no_history(game):
    with pytest.raises(RuleError):
        hand_record(game=game, record=played(bid=9))
    assert not HandChange.objects.exists()


def test_history_page_and_fragment(client, game):
    hand_record(game=game, record=played())
    hand_edit(game=game, number=1, record=played("Cy", 3, "Cy"))
    url = reverse("game_history", args=[game.pk])

    page = client.get(url)
    fragment = client.get(url, **HTMX)

    assert page.status_code == fragment.status_code == 200
    html = page.content.decode()
    assert "<html" in html
    assert "<html" not in fragment.content.decode()
    assert fragment.content.decode().lstrip().startswith('<div id="changes">')
    # Newest first, in words: what the hand was before and after.
    assert html.index("Someone changed hand 1") < html.index("Someone added hand 1")
    assert "Bob bid 2" in html and "Cy bid 3" in html
    assert "Ann dealt" in html
    assert "High: Cy" in html
    assert html.count(f'action="/games/{game.pk}/history/') == 1  # Restore: the edit only
    assert f'href="{url}"' in client.get(reverse("game", args=[game.pk])).content.decode()


def test_history_names_who_made_each_change(client, user, game):
    client.post(
        reverse("hand_add", args=[game.pk]),
        {**entry_basis(game.pk), **entry_basis(game.pk), "action": "misdeal"},
    )

    html = client.get(reverse("game_history", args=[game.pk])).content.decode()

    assert f"{user.username} added hand 1" in html
    assert "Misdeal" in html


def test_a_viewer_reads_the_history_but_cannot_restore(member, client, game):
    hand_record(game=game, record=played())
    hand_delete(game=game, number=1)
    viewer = member("viewer", client)
    change = game.changes.get(action="delete")

    page = viewer.get(reverse("game_history", args=[game.pk]))

    assert page.status_code == 200
    assert "Restore" not in page.content.decode()
    response = viewer.post(reverse("change_restore", args=[game.pk, change.pk]))
    assert response.status_code == 403
    assert not Hand.objects.exists()


# ---- Restoring from the history ----


def test_restoring_an_edit_puts_the_hand_back_as_it_was(client, user, game):
    hand_record(game=game, record=played())
    hand_edit(game=game, number=1, record=played("Cy", 3, "Cy"))
    change = game.changes.get(action="edit")

    response = client.post(reverse("change_restore", args=[game.pk, change.pk]))

    assert response.status_code == 302
    assert response["Location"] == reverse("game_history", args=[game.pk])
    assert Hand.objects.get().pitcher.name == "Bob"
    restored = game.changes.latest("pk")
    assert (restored.action, restored.user) == ("restore", user)
    assert (restored.before, restored.after) == (change.after, change.before)
    assert "Hand 1 restored." in client.get(response["Location"]).content.decode()


def test_restoring_a_deleted_hand_puts_it_back_at_its_number(client, game):
    hand_record(game=game, record=HandRecord(misdeal=True))
    hand_record(game=game, record=played("Cy", 2, "Cy"))
    hand_record(game=game, record=HandRecord(misdeal=True))
    hand_delete(game=game, number=2)
    change = game.changes.get(action="delete")
    url = reverse("change_restore", args=[game.pk, change.pk])
    # The misdeal now hand 2 would move down: asked first (tests/games/test_restore.py).
    asked = client.post(url, **HTMX).content.decode()
    revision = re.search(r'name="revision" value="(\d+)"', asked)[1]

    response = client.post(url, {"revision": revision}, **HTMX)

    assert response.status_code == 200
    assert "Hand 2 restored." in response.content.decode()
    assert "<html" not in response.content.decode()
    state = game_state(game=game)
    assert [h.kind for h in state.result.hands] == ["misdeal", "played", "misdeal"]
    assert state.result.hands[1].pitcher == "Cy"
    # A second tap puts nothing in twice.
    client.post(reverse("change_restore", args=[game.pk, change.pk]))
    assert Hand.objects.count() == 3


def test_a_restore_the_rules_refuse_says_why_and_changes_nothing(client, game):
    # Bob's smudge wins at once; deleted, the game went on with two more hands.
    smudge = {"high": "Bob", "low": "Bob", "jack": "Bob", "game": "Bob"}
    hand_record(game=game, record=HandRecord(pitcher="Bob", bid=4, points=smudge))
    hand_delete(game=game, number=1)
    hand_record(game=game, record=HandRecord(misdeal=True))
    hand_record(game=game, record=HandRecord(misdeal=True))
    before = list(Hand.objects.values_list("pk", "number", "version"))
    changes = HandChange.objects.count()
    change = game.changes.get(action="delete")

    response = client.post(reverse("change_restore", args=[game.pk, change.pk]), **HTMX)

    assert response.status_code == 409
    assert "Hand 1 cannot be restored" in response.content.decode()
    assert "won on hand 1" in response.content.decode()
    assert list(Hand.objects.values_list("pk", "number", "version")) == before
    assert HandChange.objects.count() == changes


def test_an_edit_of_a_hand_no_longer_there_cannot_be_restored(game):
    hand_record(game=game, record=played())
    hand_edit(game=game, number=1, record=played("Cy", 3, "Cy"))
    hand_delete(game=game, number=1)

    with pytest.raises(RuleError, match="Hand 1 cannot be restored: there is no hand 1"):
        change_restore(game=game, change=game.changes.get(action="edit"))


def test_an_added_hand_has_nothing_to_restore(client, game):
    hand_record(game=game, record=played())
    change = game.changes.get()

    response = client.post(reverse("change_restore", args=[game.pk, change.pk]), follow=True)

    assert "There is nothing to restore from this change." in response.content.decode()
    assert Hand.objects.count() == 1


def test_restore_of_an_unknown_change_is_404(client, game, stranger_game):
    # Another game's change, even of another club, is not this game's.
    change = stranger_game.changes.first()
    assert client.post(reverse("change_restore", args=[game.pk, change.pk])).status_code == 404
    assert client.post(reverse("change_restore", args=[game.pk, 999])).status_code == 404


# ---- Deleting and restoring a game ----


def game_urls(game: Game) -> list[tuple[str, str]]:
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
        ("get", reverse("game_history", args=[game.pk])),
        ("post", reverse("change_restore", args=[game.pk, 1])),
        ("get", reverse("game_delete", args=[game.pk])),
        ("post", reverse("game_delete", args=[game.pk])),
    ]


def test_delete_asks_first_then_hides_the_game(client, anonymous_client, game):
    hand_record(game=game, record=played())
    url = reverse("game_delete", args=[game.pk])
    live = reverse("live", args=[game.share_token])

    confirm = client.get(url)
    assert confirm.status_code == 200
    assert f"Delete game {game.pk}?" in confirm.content.decode()
    assert game_state(game=game).game.deleted_at is None

    response = client.post(url)

    assert response.status_code == 302
    assert response["Location"] == reverse("home")
    game.refresh_from_db()
    assert game.deleted_at is not None
    assert Hand.objects.count() == 1  # nothing dropped
    home = client.get(reverse("home")).content.decode()
    assert f'href="{reverse("game", args=[game.pk])}"' not in home
    assert "can be restored from the deleted games" in home
    assert anonymous_client.get(live).status_code == 404
    assert anonymous_client.get(live, **HTMX).status_code == 404


@pytest.mark.parametrize("htmx", [False, True])
def test_a_deleted_game_is_not_found_anywhere(client, game, htmx):
    hand_record(game=game, record=played())
    game_delete(game=game)
    headers = HTMX if htmx else {}

    for method, url in game_urls(game):
        response = getattr(client, method)(url, {"action": "misdeal"}, **headers)
        assert response.status_code == 404, (method, url, response.status_code)
    assert Hand.objects.count() == 1
    assert Game.objects.count() == 1


def test_deleted_games_list_and_restore(client, anonymous_client, make_game):
    kept, deleted = make_game().game, make_game(names=("Ann", "Bob", "Eve")).game
    game_delete(game=deleted)
    url = reverse("games_deleted")

    page = client.get(url)
    fragment = client.get(url, **HTMX)

    assert page.status_code == fragment.status_code == 200
    html = page.content.decode()
    assert "<html" in html and "<html" not in fragment.content.decode()
    assert "Eve" in html
    assert f'action="{reverse("game_restore", args=[deleted.pk])}"' in html
    assert f'action="{reverse("game_restore", args=[kept.pk])}"' not in html
    assert f'href="{url}"' in client.get(reverse("home")).content.decode()

    response = client.post(reverse("game_restore", args=[deleted.pk]))

    assert response.status_code == 302
    assert response["Location"] == reverse("game", args=[deleted.pk])
    deleted.refresh_from_db()
    assert deleted.deleted_at is None
    assert client.get(response["Location"]).status_code == 200
    assert anonymous_client.get(reverse("live", args=[deleted.share_token])).status_code == 200
    assert "No deleted game." in client.get(url).content.decode()


def test_a_viewer_sees_deleted_games_but_cannot_delete_or_restore(member, client, game):
    viewer = member("viewer", client)
    assert viewer.get(reverse("game_delete", args=[game.pk])).status_code == 403
    assert viewer.post(reverse("game_delete", args=[game.pk])).status_code == 403
    game_delete(game=game)

    page = viewer.get(reverse("games_deleted"))

    assert page.status_code == 200
    assert "Restore" not in page.content.decode()
    assert viewer.post(reverse("game_restore", args=[game.pk])).status_code == 403
    game.refresh_from_db()
    assert game.deleted_at is not None


def test_a_scorekeeper_deletes_and_restores(member, client, game):
    keeper = member("scorekeeper", client)

    assert keeper.post(reverse("game_delete", args=[game.pk])).status_code == 302
    assert keeper.post(reverse("game_restore", args=[game.pk])).status_code == 302
    game.refresh_from_db()
    assert game.deleted_at is None


@pytest.mark.parametrize("htmx", [False, True])
def test_another_clubs_game_is_not_found_on_the_new_screens(client, make_game, stranger_game, htmx):
    headers = HTMX if htmx else {}
    change = stranger_game.changes.first()
    urls = [
        ("get", reverse("game_history", args=[stranger_game.pk])),
        ("post", reverse("change_restore", args=[stranger_game.pk, change.pk])),
        ("get", reverse("game_delete", args=[stranger_game.pk])),
        ("post", reverse("game_delete", args=[stranger_game.pk])),
        ("post", reverse("game_restore", args=[stranger_game.pk])),
    ]
    for method, url in urls:
        assert getattr(client, method)(url, **headers).status_code == 404, (method, url)
    game_delete(game=stranger_game)
    assert client.post(reverse("game_restore", args=[stranger_game.pk])).status_code == 404
    own = game_delete(game=make_game().game)
    listed = client.get(reverse("games_deleted")).content.decode()
    assert reverse("game_restore", args=[own.pk]) in listed
    assert reverse("game_restore", args=[stranger_game.pk]) not in listed
    stranger_game.refresh_from_db()
    assert stranger_game.deleted_at is not None
    assert not Hand.objects.filter(game=stranger_game).exists()


@pytest.mark.parametrize("page", ["0", "-1", "x", "99", "9" * 30, "9" * 5000])
def test_any_page_of_the_history_and_the_deleted_games(client, game, page):
    hand_record(game=game, record=played())
    for url in (reverse("game_history", args=[game.pk]), reverse("games_deleted")):
        assert client.get(url, {"page": page}).status_code == 200
        assert client.get(url, {"page": page}, **HTMX).status_code == 200


def test_the_history_words_a_hand_as_the_game_screen_does_and_an_auction_as_bid(client, make_game):
    """One wording of a hand (games/game_hands.html#hand) on every screen; an entry the
    history keeps is not replayed, so an auction is given bid by bid, with nothing of
    how the hand went."""
    game = make_game("plain-auction-pitch").game
    auction = (("Bob", 2), ("Cy", None), ("Dee", 3), ("Ann", None))
    points = {"high": "Dee", "low": "Dee", "jack": "Dee", "game": "Bob"}
    hand_record(game=game, record=HandRecord(auction=auction, points=points))
    hand_record(game=game, record=HandRecord(misdeal=True))

    history = client.get(reverse("game_history", args=[game.pk])).content.decode()
    hands = client.get(reverse("game_hands", args=[game.pk])).content.decode()

    assert "Auction: Bob 2, Cy pass, Dee 3, Ann pass" in history
    assert "Dee bid 3" in hands and "Auction:" not in hands
    assert "tag made" not in history and "✓ made" in hands
    # The same points line and the same misdeal sentence on both screens.
    taken = "High: Dee · Low: Dee · Jack: Dee · Game: Bob"
    assert taken in re.sub(r"\s+", " ", hands) and taken in re.sub(r"\s+", " ", history)
    assert "Misdeal: the deal passes on." in hands and "Misdeal: the deal passes on." in history
