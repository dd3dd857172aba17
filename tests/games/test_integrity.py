"""Never lose or double a hand: one-time tokens, stale pages refused with the game as it
is now, and two phones really racing each other on the real database."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from pitchkeeper.games.hands import (
    Basis,
    Conflict,
    hand_delete,
    hand_edit,
    hand_insert,
    hand_record,
)
from pitchkeeper.games.models import Hand, HandChange
from pitchkeeper.games.replay import game_state
from pitchkeeper.rules import HandRecord, RuleError
from tests.conftest import entry_basis, sign_in
from tests.games.test_basis import ALL_PASSED, BOB_BIDS_2
from tests.games.test_views_game import hand_post

pytestmark = pytest.mark.django_db

# What the form of a new game's first hand says it was made from.
FIRST = Basis(revision=0, number=1)

HTMX = {"HTTP_HX_REQUEST": "true"}


def played(pitcher: str = "Bob", bid: int = 2, high: str = "Bob", game: str | None = "Cy"):
    return HandRecord(
        pitcher=pitcher, bid=bid, points={"high": high, "low": high, "jack": None, "game": game}
    )


def page_fields(html: str) -> dict[str, str]:
    """The hidden fields the game screen's entry form sends back."""
    fields = {}
    for name in ("token", "revision", "expected", "entry_dealer"):
        found = re.search(rf'name="{name}" value="([^"]*)"', html)
        assert found, name
        fields[name] = found[1]
    return fields


def edit_version(html: str) -> str:
    found = re.search(r'name="version" value="(\d+)"', html)
    assert found
    return found[1]


@pytest.fixture
def game(make_game):
    return make_game().game


# ---- Exactly once: the one-time token and the hand number the form is for ----


def test_the_same_token_twice_records_one_hand(game):
    first = hand_record(game=game, record=played(), token="t1", basis=FIRST)
    again = hand_record(game=game, record=played(), token="t1", basis=FIRST)

    assert Hand.objects.count() == 1
    assert Hand.objects.get().token == "t1"
    assert again.result.scores == first.result.scores
    assert HandChange.objects.count() == 1


def test_a_hand_saved_meanwhile_is_a_conflict_and_nothing_is_saved(game):
    hand_record(game=game, record=played(), basis=FIRST)

    with pytest.raises(Conflict, match="Hand 1 was saved from another phone meanwhile"):
        hand_record(game=game, record=played("Cy", 3, "Cy", "Cy"), token="late", basis=FIRST)

    assert Hand.objects.count() == 1
    assert not Hand.objects.filter(token="late").exists()
    # A conflict is a RuleError: code that only knows those still answers 4xx.
    assert issubclass(Conflict, RuleError)


def test_a_hand_removed_meanwhile_is_a_conflict_too(game):
    hand_record(game=game, record=played())
    hand_delete(game=game, number=1)

    with pytest.raises(Conflict, match="Hand 1 was deleted from another phone meanwhile"):
        hand_record(game=game, record=played(), basis=Basis(revision=1, number=2))
    assert not Hand.objects.exists()


def test_a_double_tap_on_the_game_screen_records_once(client, game):
    fields = page_fields(client.get(reverse("game", args=[game.pk])).content.decode())
    url = reverse("hand_add", args=[game.pk])

    first = client.post(
        url, {**entry_basis(game.pk), **entry_basis(game.pk), **hand_post(**fields)}
    )
    second = client.post(
        url, {**entry_basis(game.pk), **entry_basis(game.pk), **hand_post(**fields)}
    )
    third = client.post(
        url, {**entry_basis(game.pk), **entry_basis(game.pk), **hand_post(**fields)}, **HTMX
    )

    assert first.status_code == second.status_code == 302
    assert third.status_code == 200
    assert "Hand 2: Bob deals" in third.content.decode()
    assert Hand.objects.count() == 1
    assert game_state(game=game).result.scores["Bob"] == 2


def test_a_form_sent_again_after_the_winning_hand_is_no_error(client, game):
    fields = page_fields(client.get(reverse("game", args=[game.pk])).content.decode())
    smudge = hand_post(bid="4", high="Bob", low="Bob", jack="Bob", game="Bob", **fields)
    url = reverse("hand_add", args=[game.pk])

    assert (
        client.post(url, {**entry_basis(game.pk), **entry_basis(game.pk), **smudge}).status_code
        == 302
    )
    # The game is over now, but this is the same entry: it was saved, not refused.
    assert (
        client.post(url, {**entry_basis(game.pk), **entry_basis(game.pk), **smudge}).status_code
        == 302
    )
    assert Hand.objects.count() == 1


def test_every_showing_of_the_form_has_a_new_token(client, game):
    url = reverse("game", args=[game.pk])
    first = page_fields(client.get(url).content.decode())
    second = page_fields(client.get(url).content.decode())

    assert first["token"] != second["token"]
    assert first["expected"] == second["expected"] == "1"


def test_stale_entry_is_refused_with_the_current_table_and_the_entry_kept(client, game):
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    fields = page_fields(page)
    # Another phone saves hand 1 first.
    hand_record(game=game, record=played("Bob", 2, "Bob", "Cy"))

    for headers in ({}, HTMX):
        response = client.post(
            reverse("hand_add", args=[game.pk]),
            {
                **entry_basis(game.pk),
                **entry_basis(game.pk),
                **hand_post(pitcher="Cy", bid="3", high="Cy", low="Cy", game="Dee", **fields),
            },
            **headers,
        )

        assert response.status_code == 409
        html = response.content.decode()
        assert "Hand 1 was saved from another phone meanwhile" in html
        assert Hand.objects.count() == 1
        # The table as it is now: Bob's hand counted, Bob deals hand 2.
        board = response.context["board"]
        assert {side.name: side.score for side in board.sides}["Bob"] == 2
        assert "Hand 2: Bob deals" in html
        # The entry kept, in a form that saves hand 2.
        # Sent as a pitcher and a bid (a page from before the grid): shown on the grid.
        assert re.search(r'name="contract" value="Cy:3" id="id_contract_\d+"[^>]*checked', html)
        assert re.search(r'name="point_game" value="Dee" id="id_point_game_\d+"[^>]*checked', html)
        assert page_fields(html)["expected"] == "2"
        assert page_fields(html)["entry_dealer"] == "Bob"

    # Still right: saved again from the refreshed form, it is hand 2.
    again = page_fields(response.content.decode())
    response = client.post(
        reverse("hand_add", args=[game.pk]),
        {
            **entry_basis(game.pk),
            **entry_basis(game.pk),
            **hand_post(pitcher="Cy", bid="3", high="Cy", low="Cy", game="Dee", **again),
        },
    )
    assert response.status_code == 302
    assert Hand.objects.count() == 2


def test_a_kept_auction_moves_with_its_bidders_to_the_new_dealer(client, game):
    fields = page_fields(client.get(reverse("game", args=[game.pk])).content.decode())
    hand_record(game=game, record=HandRecord(misdeal=True))  # the deal moves to Bob
    # Entered for Ann's deal: Bob, Cy, Dee, then Ann.
    entry = hand_post(
        pitcher="",
        bid="",
        auction_0="2",
        auction_1="3",
        auction_2="pass",
        auction_3="pass",
        high="Cy",
        low="Cy",
        game="Cy",
        **fields,
    )

    response = client.post(
        reverse("hand_add", args=[game.pk]),
        {**entry_basis(game.pk), **entry_basis(game.pk), **entry},
    )

    assert response.status_code == 409
    data = response.context["form"].data
    # Bob deals now: Cy, Dee, Ann, then Bob.
    assert [data.get(f"auction_{seat}") for seat in range(4)] == ["3", "pass", "pass", "2"]


def test_garbled_hidden_fields_are_a_clear_400(client, game):
    url = reverse("hand_add", args=[game.pk])
    for bad in ({"expected": "one"}, {"expected": "-1"}, {"token": "x" * 44}, {"token": "<b>"}):
        response = client.post(
            url, {**entry_basis(game.pk), **entry_basis(game.pk), **hand_post(**bad)}
        )
        assert response.status_code == 400, bad
        assert "reload it and try again" in response.content.decode()
    assert not Hand.objects.exists()


# ---- Stale edits and deletions ----


def test_an_edit_from_a_stale_page_is_refused(game):
    hand_record(game=game, record=played())
    seen = Hand.objects.get().version
    hand_edit(game=game, number=1, record=played("Cy", 3, "Cy"), version=seen)
    assert Hand.objects.get().version > seen

    with pytest.raises(Conflict, match="Hand 1 was changed from another phone meanwhile"):
        hand_edit(game=game, number=1, record=played("Dee", 2, "Dee"), version=seen)

    assert Hand.objects.get().pitcher.name == "Cy"


def test_the_same_edit_sent_twice_succeeds_and_changes_nothing_more(game):
    hand_record(game=game, record=played())
    seen = Hand.objects.get().version
    hand_edit(game=game, number=1, record=played("Cy", 3, "Cy"), version=seen)
    after = Hand.objects.get().version

    state = hand_edit(game=game, number=1, record=played("Cy", 3, "Cy"), version=seen)

    assert state.result.scores["Cy"] == 3
    assert Hand.objects.get().version == after
    assert HandChange.objects.filter(action="edit").count() == 1


def test_a_deletion_from_a_stale_page_is_refused(game):
    hand_record(game=game, record=played())
    seen = Hand.objects.get().version
    hand_edit(game=game, number=1, record=played("Cy", 3, "Cy"))

    with pytest.raises(Conflict, match="was not deleted"):
        hand_delete(game=game, number=1, version=seen)
    assert Hand.objects.count() == 1


def test_a_hand_moved_up_never_takes_a_stale_pages_version(game):
    for _ in range(3):
        hand_record(game=game, record=HandRecord(misdeal=True))
    second = Hand.objects.get(number=2).version
    hand_delete(game=game, number=1)  # the third hand is hand 2 now

    with pytest.raises(Conflict):
        hand_edit(game=game, number=2, record=played("Dee", 2, "Dee"), version=second)


def test_a_new_hand_where_an_undone_one_was_has_a_new_version(game):
    hand_record(game=game, record=played())
    seen = Hand.objects.get().version
    hand_delete(game=game, number=1)
    hand_record(game=game, record=played("Cy", 2, "Cy"))

    assert Hand.objects.get().version != seen
    with pytest.raises(Conflict):
        hand_delete(game=game, number=1, version=seen)


def test_an_inserted_hand_moves_the_later_ones_down(game):
    hand_record(game=game, record=HandRecord(misdeal=True))
    hand_record(game=game, record=played("Cy", 2, "Cy"))
    misdeal = Hand.objects.get(number=1)

    state = hand_insert(game=game, number=1, record=played("Bob", 2, "Bob"))

    assert [h.number for h in state.hands] == [1, 2, 3]
    assert Hand.objects.get(pk=misdeal.pk).number == 2
    with pytest.raises(RuleError, match="no place for hand 5"):
        hand_insert(game=game, number=5, record=HandRecord(misdeal=True))


def test_stale_edit_page_answers_409_with_the_hand_now_and_the_entry_kept(client, game):
    hand_record(game=game, record=played())
    url = reverse("hand_edit", args=[game.pk, 1])
    seen = edit_version(client.get(url).content.decode())
    # Another phone changes the hand meanwhile.
    hand_edit(game=game, number=1, record=played("Dee", 3, "Dee", "Dee"))
    entry = hand_post(pitcher="Cy", bid="4", high="Cy", low="Cy", game="Cy", version=seen)

    for headers in ({}, HTMX):
        response = client.post(url, entry, **headers)

        assert response.status_code == 409
        html = response.content.decode()
        assert "Hand 1 was changed from another phone meanwhile" in html
        assert "Hand 1 as it is saved now" in html
        assert "Dee bid 3" in html
        # Sent as a pitcher and a bid (a page from before the grid): shown on the grid.
        assert re.search(r'name="contract" value="Cy:4" id="id_contract_\d+"[^>]*checked', html)
        assert edit_version(html) == str(Hand.objects.get().version)
    assert Hand.objects.get().pitcher.name == "Dee"

    # Saved again from that page, with the version it shows now.
    entry["version"] = edit_version(html)
    assert client.post(url, entry).status_code == 302
    assert Hand.objects.get().pitcher.name == "Cy"


def test_the_same_edit_posted_twice_is_a_success_both_times(client, game):
    hand_record(game=game, record=played())
    url = reverse("hand_edit", args=[game.pk, 1])
    entry = hand_post(pitcher="Cy", bid="3", high="Cy", low="Cy", game="Cy")
    entry["version"] = edit_version(client.get(url).content.decode())

    assert client.post(url, entry).status_code == 302
    assert client.post(url, entry).status_code == 302
    assert HandChange.objects.filter(action="edit").count() == 1


def test_a_stale_delete_is_refused_and_the_hand_kept(client, game):
    hand_record(game=game, record=played())
    seen = edit_version(client.get(reverse("hand_edit", args=[game.pk, 1])).content.decode())
    hand_edit(game=game, number=1, record=played("Dee", 3, "Dee", "Dee"))

    response = client.post(reverse("hand_delete", args=[game.pk, 1]), {"version": seen})

    assert response.status_code == 409
    assert "was not deleted" in response.content.decode()
    assert Hand.objects.count() == 1


def test_editing_a_hand_deleted_meanwhile_says_so(client, game):
    hand_record(game=game, record=played())
    url = reverse("hand_edit", args=[game.pk, 1])
    seen = edit_version(client.get(url).content.decode())
    hand_delete(game=game, number=1)

    response = client.post(url, hand_post(version=seen), follow=True)

    assert "Hand 1 is no longer in this game" in response.content.decode()
    assert not Hand.objects.exists()


def test_undo_from_a_stale_page_undoes_nothing(client, game):
    hand_record(game=game, record=played())
    page = client.get(reverse("game", args=[game.pk]), **HTMX).content.decode()
    undo = {
        "number": re.search(r'name="number" value="(\d+)"', page)[1],
        "version": re.search(r'name="version" value="(\d+)"', page)[1],
    }
    hand_record(game=game, record=HandRecord(misdeal=True))  # another phone

    response = client.post(reverse("undo", args=[game.pk]), undo, **HTMX)

    assert response.status_code == 409
    assert "nothing was undone" in response.content.decode()
    assert Hand.objects.count() == 2


def test_a_second_tap_on_redo_redoes_once(client, game):
    hand_record(game=game, record=played())
    hand_record(game=game, record=HandRecord(misdeal=True))
    client.post(reverse("undo", args=[game.pk]))
    client.post(reverse("undo", args=[game.pk]))
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    redo = (
        r'action="/games/\d+/redo/#table".*?name="revision" value="(\d+)"'
        r'.*?name="expected" value="(\d+)"'
    )
    found = re.search(redo, page, re.S)
    basis = {"revision": found[1], "expected": found[2]}

    assert (
        client.post(reverse("redo", args=[game.pk]), {**entry_basis(game.pk), **basis}).status_code
        == 302
    )
    response = client.post(
        reverse("redo", args=[game.pk]), {**entry_basis(game.pk), **basis}, **HTMX
    )

    assert response.status_code == 409
    assert Hand.objects.count() == 1
    assert HandChange.objects.filter(action=HandChange.Action.ADD).count() == 3


# ---- Two phones at the same moment, on the real database ----


def race(*phones: Callable[[], Any]) -> list[Any]:
    """Run each phone in its own thread, all let go at the same moment; what each
    returned or raised."""
    barrier = threading.Barrier(len(phones))
    outcomes: list[Any] = [None] * len(phones)

    def run(index: int, phone: Callable[[], Any]) -> None:
        try:
            barrier.wait(timeout=10)
            outcomes[index] = phone()
        except Exception as error:  # noqa: BLE001 - the test looks at what it was
            outcomes[index] = error
        finally:
            # Each thread has its own connection; left open it would hold the test
            # database (and on PostgreSQL keep it from being dropped).
            connection.close()

    threads = [threading.Thread(target=run, args=(i, p)) for i, p in enumerate(phones)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads)
    return outcomes


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("attempt", range(3))
def test_two_phones_saving_hand_1_at_once_record_exactly_one(make_game, attempt):
    game = make_game().game

    outcomes = race(
        lambda: hand_record(game=game, record=played("Bob"), token="phone-a", basis=FIRST),
        lambda: hand_record(game=game, record=played("Cy", 3, "Cy"), token="phone-b", basis=FIRST),
    )

    saved = [o for o in outcomes if not isinstance(o, Exception)]
    refused = [o for o in outcomes if isinstance(o, Exception)]
    assert len(saved) == 1 and len(refused) == 1, outcomes
    assert isinstance(refused[0], Conflict), refused
    assert "Hand 1 was saved from another phone meanwhile" in refused[0].message
    assert Hand.objects.filter(game=game).count() == 1
    assert HandChange.objects.filter(game=game).count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_double_tap_racing_itself_records_once(make_game):
    game = make_game().game

    outcomes = race(
        lambda: hand_record(game=game, record=played(), token="same", basis=FIRST),
        lambda: hand_record(game=game, record=played(), token="same", basis=FIRST),
    )

    assert not any(isinstance(o, Exception) for o in outcomes), outcomes
    assert Hand.objects.filter(game=game).count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_phones_posting_the_form_at_once_record_exactly_one(user, club, make_game):
    game = make_game().game
    phones = [sign_in(Client(), user, club) for _ in range(2)]
    pages = [phone.get(reverse("game", args=[game.pk])).content.decode() for phone in phones]
    entries = [
        hand_post(**page_fields(pages[0])),
        hand_post(pitcher="Cy", bid="3", high="Cy", low="Cy", game="Dee", **page_fields(pages[1])),
    ]
    url = reverse("hand_add", args=[game.pk])

    statuses = race(
        lambda: (
            phones[0]
            .post(url, {**entry_basis(game.pk), **entry_basis(game.pk), **entries[0]}, **HTMX)
            .status_code
        ),
        lambda: (
            phones[1]
            .post(url, {**entry_basis(game.pk), **entry_basis(game.pk), **entries[1]}, **HTMX)
            .status_code
        ),
    )

    assert sorted(statuses) == [200, 409], statuses
    assert Hand.objects.filter(game=game).count() == 1


def test_a_kept_edit_auction_moves_with_its_bidders_when_the_deal_moved(client, game):
    hand_record(game=game, record=HandRecord(misdeal=True))  # Ann misdeals: Bob deals 2
    hand_record(game=game, record=played("Cy", 2, "Cy"))
    url = reverse("hand_edit", args=[game.pk, 2])
    seen = edit_version(client.get(url).content.decode())
    # Another phone: hand 1 was all passed, not a misdeal; Ann deals hand 2 again.
    passes = tuple((name, None) for name in ("Bob", "Cy", "Dee", "Ann"))
    hand_edit(game=game, number=1, record=HandRecord(auction=passes))
    # Entered for Bob's deal: Cy, Dee, Ann, then Bob.
    entry = hand_post(
        pitcher="",
        bid="",
        auction_0="2",
        auction_1="pass",
        auction_2="3",
        auction_3="pass",
        high="Ann",
        low="Ann",
        game="Ann",
        version=seen,
        entry_dealer="Bob",
    )

    response = client.post(url, entry)

    assert response.status_code == 409
    data = response.context["form"].data
    # Ann deals now: Bob, Cy, Dee, then Ann.
    assert [data.get(f"auction_{seat}") for seat in range(4)] == ["pass", "2", "pass", "3"]
    assert 'name="entry_dealer" value="Ann"' in response.content.decode()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("attempt", range(3))
def test_an_edit_racing_a_save_never_records_the_save_for_another_dealer(make_game, attempt):
    # Issue 19: hand 1 all passed, hand 2 a misdeal, both dealt by Ann; Bob deals hand 3
    # on phone B's page while phone A makes hand 1 a played hand (Cy would deal hand 3).
    game = make_game("plain-auction-pitch").game
    hand_record(game=game, record=ALL_PASSED)
    hand_record(game=game, record=HandRecord(misdeal=True))
    basis = Basis(revision=2, number=3, dealer="Bob")

    def phone_b() -> Any:
        # At the same moment, or just after the edit: both orders come up.
        time.sleep(0.2 * attempt)
        return hand_record(game=game, record=HandRecord(misdeal=True), token="b", basis=basis)

    outcomes = race(lambda: hand_edit(game=game, number=1, record=BOB_BIDS_2), phone_b)

    assert not isinstance(outcomes[0], Exception), outcomes
    added = HandChange.objects.filter(game=game, action=HandChange.Action.ADD, number=3)
    if isinstance(outcomes[1], Exception):
        assert isinstance(outcomes[1], Conflict), outcomes
        assert not added.exists()
    else:
        # Saved only before the edit: for Bob's deal, the one it was entered for.
        edited = HandChange.objects.get(game=game, action=HandChange.Action.EDIT)
        assert added.get().pk < edited.pk
