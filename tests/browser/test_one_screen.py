"""A hand on one screen, in headless Chromium at 360x740: the taps each kind of game
needs for an ordinary hand, counted as a thumb makes them, and, where the rules leave the
room, every control of the hand inside the screen as it opens, with no scrolling.

Measured (the figures asserted here): 4-player setback, 2-player setback, partnership
and 7-player setback take 6 taps on one screen (seven players: each point on one row of
45 px buttons, 39 px with "not dealt" or "tied", Save 662-706 px down); ten-point
(19 bids) and nine-five (17 bids, six points) keep a row of pitchers and a row of bids:
11 taps (eight points) and 9 (six points).
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from pitchkeeper.games.models import Game
from pitchkeeper.games.replay import game_state
from tests.browser.test_game import open_game

pytestmark = pytest.mark.browser

HEIGHT = 740
NAV_MOST = 56
FOUR = ("Ann", "Bob", "Cy", "Dee")
SEVEN = ("Alexandra", "Bartholomew", "Christopher", "Maximilian", "Evangeline", "Fitz", "Kon")
TEAMS = {"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]}

INSIDE_JS = """(element) => {
  const box = (element.closest("label") || element).getBoundingClientRect();
  return box.top >= 0 && box.bottom <= window.innerHeight && box.width > 0;
}"""


class Thumb:
    """Taps on the game screen, counted; each control checked to be on the screen
    before it is tapped, without scrolling to it."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.taps = 0
        self.off_screen: list[str] = []

    def tap(self, selector: str) -> None:
        control = self.page.locator(selector)
        if not control.evaluate(INSIDE_JS):
            self.off_screen.append(selector)
        target = self.page.locator(f"label.pill:has(> {selector})")
        (target if target.count() else control).click()
        self.taps += 1

    def choose(self, name: str, value: object) -> None:
        self.tap(f'input[name="{name}"][value="{value}"]')


def ordinary_hand(thumb: Thumb, pitcher: str, bid: object, taker: str, points: list[str]) -> None:
    """The pitcher and the bid (one tap on the grid where there is one), who took each
    point, Save."""
    if thumb.page.locator('input[name="contract"]').count():
        thumb.choose("contract", f"{pitcher}:{bid}")
    else:
        thumb.choose("pitcher", pitcher)
        thumb.choose("bid", bid)
    for key in points:
        thumb.choose(f"point_{key}", taker)
    thumb.tap('button[name="action"][value="save"]')


KINDS = {
    # kind: (preset, players, teams, pitcher, bid, taker, taps, all on one screen)
    "setback, 4 players": ("setback", FOUR, None, "Bob", 2, "Bob", 6, True),
    "setback, 2 players": ("setback", ("Ann", "Bob"), None, "Bob", 2, "Bob", 6, True),
    "setback, 7 players": ("setback", SEVEN, None, "Bartholomew", 3, "Fitz", 6, False),
    "partnership": ("partnership", FOUR, TEAMS, "Bob", 3, "Them", 6, True),
    "ten-point": ("ten-point", FOUR, TEAMS, "Bob", 6, "Them", 11, False),
    "nine-five": ("nine-five", FOUR, TEAMS, "Bob", 9, "Them", 9, False),
}


@pytest.mark.parametrize("kind", KINDS)
def test_an_ordinary_hand_in_the_fewest_taps(page, make_game, kind):
    preset, players, teams, pitcher, bid, taker, taps, one_screen = KINDS[kind]
    game = make_game(preset, players, teams=teams).game
    open_game(page, game)
    points = [c.key for c in game_state(game=game).record.rules.categories]
    thumb = Thumb(page)

    ordinary_hand(thumb, pitcher, bid, taker, points)

    expect(page.locator("ol.history > li")).to_have_count(1)
    hand = game_state(game=Game.objects.get(pk=game.pk)).result.hands[0]
    assert (hand.pitcher, hand.bid) == (pitcher, bid)
    assert thumb.taps == taps
    if one_screen:
        assert thumb.off_screen == []
    else:
        assert thumb.off_screen, f"{kind} now fits one screen: say so in this test"


@pytest.mark.parametrize("action", ["misdeal", "passed"])
def test_misdeal_and_all_passed_are_one_tap_on_the_screen(page, make_game, action):
    game = make_game("setback", FOUR).game
    open_game(page, game)
    thumb = Thumb(page)

    thumb.tap(f'button[name="action"][value="{action}"]')

    expect(page.locator("ol.history > li")).to_have_count(1)
    assert thumb.taps == 1 and thumb.off_screen == []


def test_the_screen_as_it_opens_holds_the_scores_and_the_whole_hand(page, make_game):
    game = make_game("setback", FOUR).game
    open_game(page, game)

    header = page.locator("header.bar").bounding_box()
    assert header is not None and header["height"] <= NAV_MOST
    assert page.evaluate("window.scrollY") == 0
    for selector in (
        ".scores",
        'input[name="contract"][value="Dee:4"]',
        'input[name="point_game"][value="nobody"]',
        'button[name="action"][value="save"]',
        'button[name="action"][value="passed"]',
    ):
        assert page.locator(selector).evaluate(INSIDE_JS), f"{selector} is off the screen"
    # Who deals and who bids first, on their tiles.
    expect(page.locator(".side.deals .name")).to_have_text("Ann")
    expect(page.locator(".side:has(.role) .role")).to_have_text(["deals", "bids first"])
