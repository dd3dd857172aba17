"""The way to a first game, in headless Chromium at 360x740: names typed one after
another, Enter after each, without putting the thumb back in the box, on the Players page
and on the new-game screen; from the first visit to the first hand saved in 12 taps."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from pitchkeeper.clubs.models import Player
from pitchkeeper.games.models import Game
from tests.browser.test_one_screen import Thumb, ordinary_hand
from tests.conftest import PASSWORD

pytestmark = pytest.mark.browser


def test_players_are_added_one_after_another_with_enter(phone, club):
    page = phone.new_page()
    page.goto("/players/")
    box = page.locator("#new-name")
    box.click()

    for count, name in enumerate(("Ann", "Bob", "Cy"), 1):
        page.keyboard.type(name)
        page.keyboard.press("Enter")
        expect(page.locator("#roster h2")).to_contain_text(f"{count} player")
        # The box is empty and still has focus: the next name goes straight in.
        expect(box).to_be_focused()
        expect(box).to_have_value("")

    # Without JavaScript too: the page after each add opens with the box focused.
    nojs = phone.new_page(java_script_enabled=False)
    nojs.goto("/players/")
    nojs.locator("#new-name").fill("Dee")
    nojs.keyboard.press("Enter")
    expect(nojs.locator("#roster h2")).to_contain_text("4 players")
    expect(nojs.locator("#new-name")).to_be_focused()

    assert list(Player.objects.filter(club=club).values_list("name", flat=True)) == [
        "Ann",
        "Bob",
        "Cy",
        "Dee",
    ]


def test_without_javascript_enter_adds_the_names_on_the_new_game_screen(phone, club):
    """Enter in the name box adds the name without JavaScript too (as on a phone that
    has not yet loaded app.js): the page comes back with the player seated and the box
    empty and focused, where Enter used to start a game of one player and be refused."""
    nojs = phone.new_page(java_script_enabled=False)
    nojs.goto("/games/new/")
    box = nojs.locator("#id_new_player")
    expect(box).to_be_focused()
    for count, name in enumerate(("Cy", "Ann"), 1):
        nojs.keyboard.type(name)
        nojs.keyboard.press("Enter")
        expect(nojs.locator('#players input[name="players"]:checked')).to_have_count(count)
        expect(box).to_be_focused()
        expect(box).to_have_value("")
    nojs.get_by_role("button", name="Start the game").click()

    expect(nojs).to_have_url(re.compile(r"/games/\d+/$"))
    game = Game.objects.get()
    assert [seat.player.name for seat in game.seats.order_by("position")] == ["Cy", "Ann"]


def test_from_the_first_visit_to_the_first_hand_saved_in_twelve_taps(phone):
    """Sign up, type the names with Enter after each, start, enter a hand: measured 5
    taps to the account, 1 to start (the name box has the focus), 6 for the hand."""
    page = phone.new_page(signed_in=False)
    taps = 0

    def tap(locator: Any) -> None:
        nonlocal taps
        locator.click()
        taps += 1

    page.goto("/")
    tap(page.get_by_role("link", name="Create an account"))
    tap(page.locator("#id_username"))
    page.keyboard.type("keeper")
    tap(page.locator("#id_password1"))
    page.keyboard.type(PASSWORD)
    tap(page.locator("#id_password2"))
    page.keyboard.type(PASSWORD)
    tap(page.get_by_role("button", name="Create the account"))

    expect(page).to_have_url(re.compile(r"/games/new/$"))
    box = page.locator("#id_new_player")
    expect(box).to_be_focused()
    for count, name in enumerate(("Cy", "Ann", "Bob"), 1):
        page.keyboard.type(name)
        page.keyboard.press("Enter")
        expect(page.locator('#players input[name="players"]:checked')).to_have_count(count)
        expect(box).to_be_focused()
        expect(box).to_have_value("")
    tap(page.get_by_role("button", name="Start the game"))

    expect(page).to_have_url(re.compile(r"/games/\d+/$"))
    game = Game.objects.get()
    assert [seat.player.name for seat in game.seats.order_by("position")] == ["Cy", "Ann", "Bob"]
    thumb = Thumb(page)
    ordinary_hand(thumb, "Ann", 2, "Ann", ["high", "low", "jack", "game"])

    expect(page.locator("ol.history > li")).to_have_count(1)
    assert (taps, thumb.taps) == (6, 6)
    assert taps + thumb.taps <= 12
