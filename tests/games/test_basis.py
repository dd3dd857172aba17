"""A hand is recorded only for the deal it was entered for: a save states the game's
revision its page was made from (with the hand's number and dealer), and another
phone's edit, delete, undo or restore meanwhile makes it a conflict that stores nothing
and keeps the entry, never a hand recorded under another dealer or number."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.urls import reverse

from pitchkeeper.games.hands import (
    Basis,
    Conflict,
    change_restore,
    hand_delete,
    hand_edit,
    hand_record,
)
from pitchkeeper.games.models import Game, Hand, HandChange
from pitchkeeper.games.replay import game_state
from pitchkeeper.rules import HandRecord
from tests.conftest import entry_basis
from tests.games.test_views_variants import post_for

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
ALL_PASSED = HandRecord(auction=(("Bob", None), ("Cy", None), ("Dee", None), ("Ann", None)))
BOB_BIDS_2 = HandRecord(
    auction=(("Bob", 2), ("Cy", None), ("Dee", None), ("Ann", None)),
    points={"high": "Bob", "low": "Bob", "jack": None, "game": "Bob"},
)


def bids(dealer_left: tuple[str, ...], bidder: str) -> HandRecord:
    """``bidder`` bids 2 and the others pass, in the order ``dealer_left``; one point."""
    auction = tuple((name, 2 if name == bidder else None) for name in dealer_left)
    return HandRecord(
        auction=auction, points={"high": bidder, "low": bidder, "jack": None, "game": None}
    )


@pytest.fixture
def game(make_game) -> Game:
    """Plain auction pitch: all passing redeals with the same dealer. Hand 1 all passed
    and hand 2 a misdeal, both dealt by Ann: Bob deals hand 3. Hand 3 was recorded once
    and deleted, so that there is a change to restore."""
    game = make_game("plain-auction-pitch").game
    hand_record(game=game, record=ALL_PASSED)
    hand_record(game=game, record=HandRecord(misdeal=True))
    hand_record(game=game, record=HandRecord(misdeal=True))
    hand_delete(game=game, number=3)
    assert entry_basis(game.pk)["entry_dealer"] == "Bob"
    return game


def _deleted(game: Game) -> HandChange:
    return game.changes.get(action=HandChange.Action.DELETE, number=3)


# Another phone's change, each with what it means for the entry made for hand 3.
CHANGES: dict[str, tuple[Callable[[Game], Any], str]] = {
    # The finding: hand 1 all passed made a played hand, so Cy, not Bob, deals hand 3.
    "edit": (
        lambda game: hand_edit(game=game, number=1, record=BOB_BIDS_2),
        "Cy deals hand 3 now, not Bob. Hand 1 was changed from another phone meanwhile.",
    ),
    "delete": (
        lambda game: hand_delete(game=game, number=1),
        "Your entry was for hand 3; the next hand is hand 2 now. "
        "Hand 1 was deleted from another phone meanwhile.",
    ),
    "undo": (
        lambda game: hand_delete(game=game, number=2, undo=True),
        "Your entry was for hand 3; the next hand is hand 2 now. "
        "Hand 2 was undone from another phone meanwhile.",
    ),
    "restore": (
        lambda game: change_restore(game=game, change=_deleted(game)),
        "Your entry was for hand 3; the next hand is hand 4 now. "
        "Hand 3 was restored from another phone meanwhile.",
    ),
}


def stored(game: Game) -> tuple[list[tuple[int, int]], int]:
    """Every hand as stored (its number and version) and the count of changes."""
    return list(game.hands.values_list("number", "version")), game.changes.count()


def entry(game: Game) -> dict[str, Any]:
    """Bob deals hand 3: Cy bids 2 (left of Bob), as the page shown before the change
    posts it, with its basis and one-time token."""
    state = game_state(game=game)
    data = post_for(state, bids(("Cy", "Dee", "Ann", "Bob"), "Cy"))
    return {**data, **entry_basis(game.pk), "token": "phone-b-hand-3"}


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["full page", "htmx fragment"])
@pytest.mark.parametrize("change", CHANGES)
def test_a_save_made_before_another_phones_change_is_a_conflict(client, game, change, headers):
    posted = entry(game)
    act, said = CHANGES[change]
    act(game)
    before = stored(game)

    response = client.post(reverse("hand_add", args=[game.pk]), posted, **headers)

    assert response.status_code == 409
    assert stored(game) == before
    assert not Hand.objects.filter(token=posted["token"]).exists()
    html = response.content.decode()
    assert ("<html" in html) == (not headers)
    assert said in html
    # The entry kept in the form, with the basis as it is now to save it again with.
    form = response.context["form"]
    assert form.data.get("point_high") == "Cy"
    now = entry_basis(game.pk)
    assert f'name="revision" value="{now["revision"]}"' in html
    assert f'name="expected" value="{now["expected"]}"' in html


@pytest.mark.parametrize("change", CHANGES)
def test_the_service_refuses_a_basis_the_game_has_moved_from(game, change):
    basis = Basis(**dict(zip(("revision", "number", "dealer"), _basis_values(game), strict=True)))
    act, said = CHANGES[change]
    act(game)
    before = stored(game)

    with pytest.raises(Conflict) as refused:
        hand_record(game=game, record=HandRecord(misdeal=True), token="late", basis=basis)

    assert said in refused.value.message
    assert stored(game) == before


def _basis_values(game: Game) -> tuple[int, int, str]:
    fields = entry_basis(game.pk)
    return int(fields["revision"]), int(fields["expected"]), fields["entry_dealer"]


def test_the_entry_saved_again_from_the_conflict_is_recorded_for_the_new_dealer(client, game):
    posted = entry(game)
    CHANGES["edit"][0](game)
    refused = client.post(reverse("hand_add", args=[game.pk]), posted)
    assert refused.status_code == 409

    # Its user checks it: Cy deals now, Dee bids 2 (left of Cy).
    state = game_state(game=game)
    again = post_for(state, bids(("Dee", "Ann", "Bob", "Cy"), "Dee"))
    answer = client.post(
        reverse("hand_add", args=[game.pk]), {**again, **entry_basis(game.pk), "token": "again"}
    )

    assert answer.status_code == 302
    hand = Hand.objects.get(game=game, number=3)
    assert (hand.dealer.name, hand.pitcher.name) == ("Cy", "Dee")


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["full page", "htmx fragment"])
@pytest.mark.parametrize("missing", ["revision", "all"])
def test_a_save_that_states_no_basis_is_refused_and_kept(client, game, missing, headers):
    posted = entry(game)
    drop = ("revision",) if missing == "revision" else ("revision", "expected", "entry_dealer")
    for name in drop:
        del posted[name]
    before = stored(game)

    response = client.post(reverse("hand_add", args=[game.pk]), posted, **headers)

    assert response.status_code == 409
    assert "does not say which state of the game" in response.content.decode()
    assert stored(game) == before
    assert response.context["form"].data.get("point_high") == "Cy"


@pytest.mark.parametrize("field", ["expected", "entry_dealer"])
def test_a_number_or_dealer_the_revision_does_not_agree_with_is_refused(client, game, field):
    posted = {**entry(game), field: {"expected": "4", "entry_dealer": "Cy"}[field]}

    response = client.post(reverse("hand_add", args=[game.pk]), posted)

    assert response.status_code == 409
    assert not Hand.objects.filter(token=posted["token"]).exists()


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["full page", "htmx fragment"])
def test_a_save_sent_again_is_answered_as_the_first_time_even_after_a_change(client, game, headers):
    posted = entry(game)
    url = reverse("hand_add", args=[game.pk])
    first = client.post(url, posted, **headers)
    # The answer to the first send was lost; another phone records the next hand.
    hand_record(game=game, record=HandRecord(misdeal=True))

    again = client.post(url, posted, **headers)

    assert first.status_code == again.status_code == (200 if headers else 302)
    assert Hand.objects.filter(token=posted["token"]).count() == 1
    assert game.changes.filter(action=HandChange.Action.ADD, number=3).count() == 2  # + fixture's


@pytest.mark.parametrize("change", CHANGES)
def test_every_change_advances_the_revision_by_one(game, change):
    # The fixture's four changes: two hands added, one added and deleted.
    assert Game.objects.get(pk=game.pk).revision == 4

    CHANGES[change][0](game)

    assert Game.objects.get(pk=game.pk).revision == 5
    # No hand is above the revision, so the next change's version is above them all.
    assert max(game.hands.values_list("version", flat=True)) <= 5


def test_an_edit_page_of_a_hand_whose_dealer_moved_is_a_conflict(client, game):
    hand_record(game=game, record=HandRecord(misdeal=True))  # hand 3, Bob deals
    page = client.get(reverse("hand_edit", args=[game.pk, 3]))
    version = page.context["version"]
    three = Hand.objects.get(game=game, number=3)
    # Another phone: hand 1 played, not all passed. Hand 3 is still a misdeal, dealt by Cy.
    hand_edit(game=game, number=1, record=BOB_BIDS_2)
    moved = Hand.objects.get(game=game, number=3)
    assert (three.dealer.name, moved.dealer.name) == ("Bob", "Cy")
    assert moved.version != three.version

    data = post_for(game_state(game=game), bids(("Cy", "Dee", "Ann", "Bob"), "Cy"))
    response = client.post(
        reverse("hand_edit", args=[game.pk, 3]),
        {**data, "version": str(version), "entry_dealer": "Bob"},
    )

    assert response.status_code == 409
    assert Hand.objects.get(game=game, number=3).misdeal
    assert "Hand 3 was changed from another phone meanwhile" in response.content.decode()


def test_a_redo_made_before_another_phones_change_is_a_conflict(client, game):
    client.post(reverse("undo", args=[game.pk]))
    basis = entry_basis(game.pk)
    hand_edit(game=game, number=1, record=BOB_BIDS_2)
    before = stored(game)

    response = client.post(reverse("redo", args=[game.pk]), basis, **HTMX)

    assert response.status_code == 409
    assert stored(game) == before


def test_a_change_that_moves_no_dealer_is_a_conflict_too(client, game):
    # Hand 2 played (Dee bid 2), then changed from another phone to Ann's bid of 2:
    # Bob still deals hand 3, only the scores beside the entry moved.
    hand_edit(game=game, number=2, record=bids(("Bob", "Cy", "Dee", "Ann"), "Dee"))
    posted = entry(game)
    hand_edit(game=game, number=2, record=bids(("Bob", "Cy", "Dee", "Ann"), "Ann"))
    assert entry_basis(game.pk)["entry_dealer"] == posted["entry_dealer"]

    response = client.post(reverse("hand_add", args=[game.pk]), posted)

    assert response.status_code == 409
    assert "Hand 2 was changed from another phone meanwhile" in response.content.decode()
    assert not Hand.objects.filter(token=posted["token"]).exists()


def test_a_queued_entry_that_names_no_dealer_is_held_by_the_revision(client, game):
    # The queue names no dealer when the phone's engine could not tell it.
    posted = {**entry(game), "entry_dealer": ""}
    CHANGES["edit"][0](game)

    response = client.post(reverse("hand_add", args=[game.pk]), posted)

    assert response.status_code == 409
    assert "Hand 1 was changed from another phone meanwhile" in response.content.decode()
    assert not Hand.objects.filter(token=posted["token"]).exists()
