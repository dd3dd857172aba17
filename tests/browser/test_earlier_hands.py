"""The game screen's earlier hands, in headless Chromium at 360x740: the screen lists
the latest hands, a tap brings the earlier ones in under them with the focus on them,
and without JavaScript the same link opens the hands screen with every hand."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from pitchkeeper.games.hands import hand_record
from pitchkeeper.games.models import Game
from pitchkeeper.games.views.table import TABLE_HANDS
from pitchkeeper.rules import HandRecord
from tests.browser.test_game import open_game

pytestmark = pytest.mark.browser

HANDS = TABLE_HANDS + 2


def long_game(make_game: Any) -> Game:
    """A game of HANDS misdeals."""
    state = make_game("setback", ("Ann", "Bob", "Cy", "Dee"))
    for _hand in range(HANDS):
        state = hand_record(game=state.game, record=HandRecord(misdeal=True))
    return state.game


def listed(first: int, last: int) -> list[str]:
    return [f"#{number}" for number in range(first, last - 1, -1)]


def test_a_tap_brings_the_earlier_hands_in_under_the_latest(page, make_game):
    game = long_game(make_game)
    open_game(page, game)
    numbers = page.locator("ol.history > li strong")
    expect(numbers).to_have_text(listed(HANDS, HANDS - TABLE_HANDS + 1))

    page.get_by_role("link", name="Show 2 earlier hands").click()

    expect(numbers).to_have_text(listed(HANDS, 1))
    expect(page.locator("#earlier")).to_be_focused()
    expect(page.locator("#earlier-hands")).to_have_count(0)
    # The next save shows the latest hands again, and the link.
    page.locator('button[name="action"][value="misdeal"]').click()
    expect(numbers).to_have_text(listed(HANDS + 1, HANDS + 2 - TABLE_HANDS))
    expect(page.get_by_role("link", name="Show 3 earlier hands")).to_be_visible()


def test_without_javascript_the_link_opens_every_hand(phone, make_game):
    game = long_game(make_game)
    page = phone.new_page(java_script_enabled=False)
    open_game(page, game)

    page.get_by_role("link", name="Show 2 earlier hands").click()

    assert page.url.endswith(f"/games/{game.pk}/hands/all/")
    expect(page.locator("h1")).to_have_text(f"Hands of game {game.pk}")
    expect(page.locator("ol.history > li strong")).to_have_text(listed(HANDS, 1))
    page.get_by_role("link", name="Back to the game").click()
    assert page.url.endswith(f"/games/{game.pk}/#table")
