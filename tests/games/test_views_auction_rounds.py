"""Bonanza's auction, round after round until all but one pass, through the game
screen: the fields go on turn by turn as the entries leave the auction open (with the
auction helper, or after a refused save without JavaScript), the whole auction is
saved and scored as the engine scores it, and a refused entry is told beside its own
field."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from pitchkeeper.games.models import Hand
from pitchkeeper.games.replay import game_state
from pitchkeeper.rules import HandRecord
from pitchkeeper.rules.entry import AUCTION_ROUNDS, MOST_AUCTION_FIELDS
from tests.conftest import entry_basis
from tests.games.test_views_variants import HTMX, Table, everything, new_game, post_for

pytestmark = pytest.mark.django_db

BONANZA = ("high", "low", "jack", "ten", "nine", "five")
# Ann deals first: Bob, Cy, Dee, Ann bid in that order. Us are Ann and Cy.
FIRST_ROUND = (("Bob", 3), ("Cy", 5), ("Dee", None), ("Ann", None))
TWO_ROUNDS = (*FIRST_ROUND, ("Bob", 6), ("Cy", None))


def posted(auction: tuple[tuple[str, object], ...]) -> dict[str, str]:
    return {
        f"auction_{index}": "pass" if bid is None else str(bid)
        for index, (_name, bid) in enumerate(auction)
    }


def shown(html: str) -> set[int]:
    """The auction fields shown. The rest are drawn hidden, for the phone to show while
    hands wait on it to be sent (offline.js)."""
    turns = re.findall(r'<div class="turn"( hidden)?>.*?name="auction_(\d+)"', html, re.S)
    return {int(index) for hidden, index in turns if not hidden}


def label_of(html: str, index: int) -> str | None:
    """The legend of the fieldset that holds the turn's buttons: whose turn it is."""
    for fieldset in re.findall(r"<fieldset.*?</fieldset>", html, re.S):
        if f'name="auction_{index}"' in fieldset:
            return re.search(r"<legend>([^<]*)</legend>", fieldset)[1].strip()
    return None


def test_a_two_round_auction_is_saved_whole(client, make_game):
    table = Table(client, new_game(make_game, "bonanza"))

    state = table.play(HandRecord(auction=TWO_ROUNDS, points=everything("Them", BONANZA)))

    hand = Hand.objects.get(game=table.game)
    ids = {seat.player.name: seat.player_id for seat in state.seats}
    assert hand.auction == [[ids[name], bid] for name, bid in TWO_ROUNDS]
    assert (hand.pitcher_id, hand.bid) == (ids["Bob"], 6)
    assert (state.result.hands[0].pitcher, state.result.hands[0].bid) == ("Bob", 6)
    assert state.result.scores == {"Us": 0, "Them": 18}


def test_a_three_round_auction_with_htmx_and_its_edit(client, make_game):
    table = Table(client, new_game(make_game, "bonanza"))
    auction = (*FIRST_ROUND, ("Bob", 6), ("Cy", 7), ("Bob", 8), ("Cy", None))

    state = table.play(HandRecord(auction=auction, points=everything("Them", BONANZA)), htmx=True)

    assert (state.result.hands[0].pitcher, state.result.hands[0].bid) == ("Bob", 8)
    edit = client.get(reverse("hand_edit", args=[table.game.pk, 1])).content.decode()
    for index, (_name, bid) in enumerate(auction):
        value = "pass" if bid is None else str(bid)
        assert re.search(rf'name="auction_{index}" value="{value}"[^>]*checked', edit), index
    assert 8 not in shown(edit)


@pytest.mark.parametrize("htmx", [False, True])
def test_the_auction_helper_offers_the_next_turn_of_the_next_round(client, make_game, htmx):
    table = Table(client, new_game(make_game, "bonanza"))
    url = reverse("auction", args=[table.game.pk])

    html = client.post(url, posted(FIRST_ROUND), **(HTMX if htmx else {})).content.decode()

    assert "<html" not in html
    # Dee and Ann passed: Bob bids again, above Cy's 5, or passes.
    assert label_of(html, 4) == "Bob"
    assert re.search(r'name="auction_4" value="5"[^>]*disabled', html)
    assert not re.search(r'name="auction_4" value="6"[^>]*disabled', html)
    assert not re.search(r'name="auction_4" value="pass"[^>]*disabled', html)
    assert 5 not in shown(html)

    html = client.post(url, posted(TWO_ROUNDS[:5]), **HTMX).content.decode()
    assert label_of(html, 5) == "Cy"
    # Over once Cy passes: no further turn.
    html = client.post(url, posted(TWO_ROUNDS), **HTMX).content.decode()
    assert 6 not in shown(html)


def test_an_edit_refused_names_the_later_turns_for_who_is_still_in(client, make_game):
    table = Table(client, new_game(make_game, "bonanza"))
    first = (("Bob", None), ("Cy", 3), ("Dee", 4), ("Ann", None))
    state = table.play(
        HandRecord(auction=(*first, ("Cy", 5), ("Dee", None)), points=everything("Us", BONANZA))
    )
    # Dee bids 5 again instead of passing: lower than Cy's 5 is refused beside it.
    wrong = HandRecord(auction=(*first, ("Cy", 5), ("Dee", 5)), points=everything("Us", BONANZA))
    data = {**post_for(state, wrong), "version": state.hands[0].version}

    response = client.post(reverse("hand_edit", args=[table.game.pk, 1]), data)

    assert response.status_code == 400
    assert "Dee bid 5 but Cy already bid 5" in response.context["form"].errors["auction_5"][0]
    html = response.content.decode()
    assert (label_of(html, 4), label_of(html, 5)) == ("Cy", "Dee")


def test_a_later_turn_is_named_for_who_is_still_in(client, make_game):
    table = Table(client, new_game(make_game, "bonanza"))
    url = reverse("auction", args=[table.game.pk])
    # Bob passed first: the second round starts with Cy, then Dee.
    first = (("Bob", None), ("Cy", 3), ("Dee", 4), ("Ann", None))

    html = client.post(url, posted((*first, ("Cy", 5))), **HTMX).content.decode()

    assert (label_of(html, 4), label_of(html, 5)) == ("Cy", "Dee")
    state = table.play(
        HandRecord(auction=(*first, ("Cy", 5), ("Dee", None)), points=everything("Us", BONANZA))
    )
    assert (state.result.hands[0].pitcher, state.result.hands[0].bid) == ("Cy", 5)


def test_the_game_screen_asks_for_one_round_until_more_is_needed(client, make_game):
    table = Table(client, new_game(make_game, "bonanza"))
    page = table.page()

    assert 3 in shown(page)
    assert 4 not in shown(page)


def test_without_javascript_a_save_asks_for_the_next_turn(client, make_game):
    table = Table(client, new_game(make_game, "bonanza"))
    record = HandRecord(auction=FIRST_ROUND, points=everything("Them", BONANZA))

    response = client.post(
        reverse("hand_add", args=[table.game.pk]),
        {**entry_basis(table.game.pk), **post_for(table.state, record)},
    )

    assert response.status_code == 400
    errors = response.context["form"].errors
    assert "Bob must still bid or pass" in errors["auction_4"][0]
    html = response.content.decode()
    assert label_of(html, 4) == "Bob"
    assert 'id="id_auction_4_error"' in html
    assert '<details class="auction" open>' in html
    assert not Hand.objects.filter(game=table.game).exists()


@pytest.mark.parametrize(
    ("auction", "field", "message"),
    [
        # Cy's pass left Bob alone: a turn after that is out of turn.
        ((*TWO_ROUNDS, ("Bob", 7)), "auction_6", "The auction was over before this entry"),
        ((*FIRST_ROUND, ("Bob", 4)), "auction_4", "Bob bid 4 but Cy already bid 5"),
        (FIRST_ROUND[:3], "auction_3", "Ann has no bid or pass yet"),
    ],
)
def test_a_refused_entry_is_told_beside_its_field(client, make_game, auction, field, message):
    table = Table(client, new_game(make_game, "bonanza"))

    table.refused(HandRecord(auction=auction, points=everything("Them", BONANZA)), field, message)


def test_a_gap_in_a_later_round_names_whose_turn_it_was(client, make_game):
    table = Table(client, new_game(make_game, "bonanza"))
    data = {
        **post_for(table.state, HandRecord(auction=TWO_ROUNDS, points=everything("Them", BONANZA)))
    }
    del data["auction_4"]

    response = client.post(
        reverse("hand_add", args=[table.game.pk]), {**entry_basis(table.game.pk), **data}
    )

    assert response.status_code == 400
    assert response.context["form"].errors["auction_4"] == ["Bob has no bid or pass yet"]


def test_a_page_sending_far_too_many_turns_makes_a_bounded_form(client, make_game):
    table = Table(client, new_game(make_game, "bonanza"))
    data = post_for(table.state, HandRecord(auction=TWO_ROUNDS, points=everything("Them", BONANZA)))
    data["auction_9999"] = "pass"
    data[f"auction_{2**63}"] = "pass"

    response = client.post(
        reverse("hand_add", args=[table.game.pk]), {**entry_basis(table.game.pk), **data}
    )
    assert response.status_code == 302
    assert len(Hand.objects.get(game=table.game).auction) == len(TWO_ROUNDS)

    data = post_for(table.state, HandRecord(auction=TWO_ROUNDS, points=everything("Them", BONANZA)))
    data["auction_199"] = "pass"
    data["auction_500"] = "pass"
    response = client.post(
        reverse("hand_add", args=[table.game.pk]), {**entry_basis(table.game.pk), **data}
    )
    assert response.status_code == 400
    form = response.context["form"]
    assert form.auction_count == MOST_AUCTION_FIELDS
    assert "The auction was over before this entry" in form.errors["auction_199"][0]


def test_a_one_round_game_keeps_one_field_per_player(client, make_game):
    table = Table(client, new_game(make_game, "setback"))
    html = client.post(
        reverse("auction", args=[table.game.pk]), {"auction_0": "2", "auction_7": "pass"}, **HTMX
    ).content.decode()

    assert 3 in shown(html)
    assert 4 not in shown(html)
    assert AUCTION_ROUNDS > 1
    assert game_state(game=table.game).hands == []
