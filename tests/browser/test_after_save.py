"""Where the game screen is left after a save and after a refused one, in headless
Chromium at 360x740: the table at the top of the screen every time (with htmx and
without JavaScript), and a refusal's message in view, announced, beside its control."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from pitchkeeper.games.models import Hand
from tests.browser.test_game import SETBACK_TABLE, contract, open_game, pick_contract, play, save
from tests.browser.test_integrity import enter

pytestmark = pytest.mark.browser

TABLE_TOP = "document.getElementById('table').getBoundingClientRect().top"


def table_top(page: Any) -> float:
    return page.evaluate(TABLE_TOP)


def test_after_each_save_the_table_is_at_the_top_and_the_next_hand_has_focus(page, make_game):
    game = make_game("setback", ("Ann", "Bob", "Cy", "Dee")).game
    open_game(page, game)

    for number, (pitcher, taker) in enumerate((("Bob", "Bob"), ("Cy", "Dee"), ("Dee", "Ann")), 2):
        play(page, pitcher, 2, taker, taker, None, taker)
        expect(page.locator("#entry-title")).to_contain_text(f"Hand {number}:")
        assert abs(table_top(page)) <= 1
        expect(page.locator("#entry-title")).to_be_focused()
        expect(page.locator(".scores")).to_be_in_viewport()


def test_without_javascript_a_save_opens_at_the_table(phone, make_game):
    game = make_game("setback", SETBACK_TABLE).game
    page = phone.new_page(java_script_enabled=False)
    open_game(page, game)
    enter(page, "Bob", 2, "Bob")
    save(page)

    expect(page.locator("ol.history > li")).to_have_count(1)
    assert page.url.endswith(f"/games/{game.pk}/#table")
    assert abs(table_top(page)) <= 1
    expect(page.locator(".scores")).to_be_in_viewport()


def test_a_refused_save_shows_its_message_in_view_beside_the_control(page, make_game):
    game = make_game("setback", ("Ann", "Bob", "Cy", "Dee")).game
    open_game(page, game)
    pick_contract(page, "Bob", 2)
    save(page)

    message = page.locator("#id_point_high_error")
    expect(message).to_have_text("Say who took High.")
    expect(page.locator("[role=alert] > #id_point_high_error")).to_have_count(1)
    expect(message).to_be_in_viewport()
    # Above the points' choices, which describe themselves by it and have focus.
    points = page.locator('fieldset.point-grid[aria-describedby~="id_point_high_error"]')
    expect(points.locator("legend")).to_have_text("Who took each point")
    assert points.evaluate("(fieldset) => fieldset.contains(document.activeElement)")
    expect(contract(page, "Bob", 2)).to_be_checked()
    assert Hand.objects.count() == 0


def test_a_save_refused_for_another_phones_hand_is_told_in_view(phone, make_game):
    game = make_game("setback", SETBACK_TABLE).game
    first, second = phone.new_page(), phone.new_page()
    open_game(first, game)
    open_game(second, game)
    play(first, "Bob", 2, "Bob", "Bob", None, "Cy")
    enter(second, "Cy", 3, "Cy")
    save(second)

    message = second.locator(".messages .error")
    expect(message).to_contain_text("Hand 1 was saved from another phone meanwhile")
    expect(message).to_have_attribute("role", "alert")
    expect(message).to_be_in_viewport()
