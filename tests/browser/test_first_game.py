"""The way to a first game, in headless Chromium at 360x740: names typed one after
another on the Players page, Enter after each, without putting the thumb back in the box."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from pitchkeeper.clubs.models import Player

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
