"""Nine-five's forced bid of 9 through the game screen: the hand form asks who was
forced only where the rules force a bid, a lower contract is refused beside its field
and nothing saved, a bid of 9 is saved with its forced players, shown in the history
and the changes, kept by an edit, carried by the game record and a club backup."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from pitchkeeper.backups.services import club_export, club_import
from pitchkeeper.games.models import Game, Hand
from pitchkeeper.games.replay import game_state
from pitchkeeper.games.services import game_export
from pitchkeeper.rules import HandRecord
from tests.conftest import entry_basis
from tests.games.test_views_variants import (
    HTMX,
    NINE_FIVE,
    Table,
    everything,
    new_game,
    post_for,
)
from tests.seasons.test_views import read_csv

pytestmark = pytest.mark.django_db

# Ann deals first: Bob bids first. Us are Ann and Cy, Them Bob and Dee.
FORCED_NINE = HandRecord(pitcher="Bob", bid=9, points=everything("Them", NINE_FIVE), forced=("Cy",))


def _forced_ids(game: Game) -> list[list[int]]:
    return [hand.forced for hand in Hand.objects.filter(game=game).order_by("number")]


def test_only_a_game_that_forces_a_bid_asks_who_was_forced(client, make_game):
    nine_five = Table(client, new_game(make_game, "nine-five")).page()
    setback = Table(client, new_game(make_game, "setback")).page()

    assert 'name="forced"' in nine_five
    assert "Forced to bid 9 (held the 9 with another trump)" in nine_five
    assert re.search(r'<details class="forced">\s*<summary>Forced bid</summary>', nine_five)
    assert 'name="forced"' not in setback


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize("bid", [4, 8])
def test_a_contract_below_nine_from_a_forced_hand_is_refused_beside_the_bid(
    client, make_game, htmx, bid
):
    table = Table(client, new_game(make_game, "nine-five"))
    record = HandRecord(
        pitcher="Bob", bid=bid, points=everything("Them", NINE_FIVE), forced=("Cy",)
    )
    response = client.post(
        reverse("hand_add", args=[table.game.pk]),
        {**entry_basis(table.game.pk), **post_for(table.state, record)},
        **(HTMX if htmx else {}),
    )

    assert response.status_code == 400
    message = (
        f"Cy's hand forced a bid of at least 9, so the auction cannot have been won with {bid}"
    )
    assert response.context["form"].errors["bid"] == [message]
    html = response.content.decode()
    assert ("<html" in html) is not htmx
    assert re.search(r'id="id_bid_error"><li>Cy&#x27;s hand forced a bid of at least 9', html)
    # The entry is kept: Cy stays ticked, the fold-out open.
    assert re.search(r'name="forced" value="Cy"[^>]*checked', html)
    assert '<details class="forced" open>' in html
    assert not Hand.objects.filter(game=table.game).exists()


@pytest.mark.parametrize("htmx", [False, True])
def test_a_forced_bid_of_nine_is_saved_with_who_was_forced(client, make_game, htmx):
    table = Table(client, new_game(make_game, "nine-five"))

    state = table.play(FORCED_NINE, htmx=htmx)

    cy = next(seat.player_id for seat in state.seats if seat.player.name == "Cy")
    assert _forced_ids(table.game) == [[cy]]
    assert state.record.hands[0].forced == ("Cy",)
    assert (state.result.hands[0].pitcher, state.result.hands[0].bid) == ("Bob", 9)
    assert "Forced to bid: Cy" in table.page()
    history = client.get(reverse("game_history", args=[table.game.pk])).content.decode()
    assert "Forced to bid: Cy" in history
    assert game_export(game=table.game)["hands"][0]["forced"] == ["Cy"]


def test_the_forced_players_are_worded_in_russian(client, make_game):
    table = Table(client, new_game(make_game, "nine-five"))
    table.play(FORCED_NINE)

    page = table.page(HTTP_ACCEPT_LANGUAGE="ru")

    assert "Вынужденная заявка: Cy" in page
    assert "Обязан заявить 9 (держал девятку с другим козырем)" in page


def test_an_edit_shows_and_keeps_the_forced_players(client, make_game):
    table = Table(client, new_game(make_game, "nine-five"))
    state = table.play(FORCED_NINE)
    url = reverse("hand_edit", args=[table.game.pk, 1])

    edit = client.get(url).content.decode()
    assert re.search(r'name="forced" value="Cy"[^>]*checked', edit)
    assert not re.search(r'name="forced" value="Ann"[^>]*checked', edit)

    changed = HandRecord(
        pitcher="Bob", bid=10, points=everything("Them", NINE_FIVE), forced=("Cy", "Dee")
    )
    data = {**post_for(state, changed), "version": state.hands[0].version}
    response = client.post(url, data)
    assert response.status_code == 302, response.context["form"].errors
    assert game_state(game=table.game).record.hands[0].forced == ("Cy", "Dee")

    # Lowered below 9 with Cy still forced: refused, the hand as it was.
    lowered = HandRecord(pitcher="Bob", bid=8, points=everything("Them", NINE_FIVE), forced=("Cy",))
    version = game_state(game=table.game).hands[0].version
    response = client.post(url, {**post_for(state, lowered), "version": version}, **HTMX)
    assert response.status_code == 400
    assert "forced a bid of at least 9" in response.context["form"].errors["bid"][0]
    assert game_state(game=table.game).record.hands[0].forced == ("Cy", "Dee")


def test_a_forced_player_cannot_pass_an_auction_below_nine(client, make_game):
    table = Table(client, new_game(make_game, "nine-five"))
    url = reverse("auction", args=[table.game.pk])

    html = client.post(url, {"auction_0": "5", "forced": ["Cy"]}, **HTMX).content.decode()
    assert re.search(r'name="auction_1" value="pass"[^>]*disabled', html)
    assert re.search(r'name="auction_1" value="8"[^>]*disabled', html)
    assert not re.search(r'name="auction_1" value="9"[^>]*disabled', html)
    # Not ticked, Cy may pass.
    html = client.post(url, {"auction_0": "5"}, **HTMX).content.decode()
    assert not re.search(r'name="auction_1" value="pass"[^>]*disabled', html)

    passed = HandRecord(
        auction=(("Bob", 5), ("Cy", None), ("Dee", None), ("Ann", None)),
        points=everything("Them", NINE_FIVE),
        forced=("Cy",),
    )
    table.refused(passed, "auction_1", "Cy must bid at least 9")
    won = HandRecord(
        auction=(("Bob", 5), ("Cy", 9), ("Dee", None), ("Ann", None)),
        points=everything("Us", NINE_FIVE),
        forced=("Cy",),
    )
    state = table.play(won)
    assert (state.result.hands[0].pitcher, state.result.hands[0].bid) == ("Cy", 9)


def test_a_name_not_at_the_table_is_refused_as_forced(client, make_game):
    table = Table(client, new_game(make_game, "nine-five"))
    data = post_for(table.state, FORCED_NINE)
    # An invisible character makes it another name.
    data["forced"] = ["Cy\u200b"]

    response = client.post(
        reverse("hand_add", args=[table.game.pk]), {**entry_basis(table.game.pk), **data}
    )

    assert response.status_code == 400
    assert "Select a valid choice" in response.context["form"].errors["forced"][0]
    assert not Hand.objects.filter(game=table.game).exists()


def test_a_backup_carries_the_forced_players(client, make_game, club, user):
    table = Table(client, new_game(make_game, "nine-five"))
    table.play(FORCED_NINE)

    restored = club_import(data=json.loads(json.dumps(club_export(club=club))), owner=user).club

    game = Game.objects.get(club=restored)
    assert game_state(game=game).record.hands[0].forced == ("Cy",)
    assert len(_forced_ids(game)[0]) == 1


def test_the_hands_csv_has_the_forced_players(client, make_game):
    # Them bid 9 and take all 18 points: the game is won, and counted in the season.
    table = Table(client, new_game(make_game, {"preset": "nine-five", "target": 18}))
    state = table.play(FORCED_NINE)
    assert state.result.winner == "Them"

    rows = read_csv(client.get(reverse("season_export", args=["hands.csv"])))

    assert [(row["pitcher"], row["bid"], row["forced"]) for row in rows] == [("Bob", "9", "Cy")]
