"""The game screen in Russian and Norwegian at 360x740: the table's words, which are
longer than the English ("Неправильная сдача" for Misdeal), fit their buttons on one
line, no word broken."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.test_game import SETBACK_TABLE, open_game

pytestmark = pytest.mark.browser

# The buttons whose text overflows its box, the buttons' heights (one line of text in
# a button of the least tap height is 44 px) and how far right they reach.
MEASURE = """() => {
  const buttons = [...document.querySelectorAll('#entry .quick button')];
  return {
    overflowing: buttons.filter((b) => b.scrollWidth > b.clientWidth).map((b) => b.textContent),
    heights: buttons.map((b) => b.getBoundingClientRect().height),
    right: Math.max(...buttons.map((b) => b.getBoundingClientRect().right)),
  };
}"""


@pytest.mark.parametrize(
    ("locale", "misdeal", "passed"),
    [("ru-RU", "Неправильная сдача", "Все пас"), ("nb-NO", "Feilgiv", "Alle pass")],
)
def test_the_misdeal_and_all_passed_buttons_fit_in_the_language(
    phone, make_game, locale, misdeal, passed
):
    game = make_game("setback", SETBACK_TABLE).game
    page = phone.new_page(locale=locale)

    open_game(page, game)

    expect(page.locator('#entry button[value="misdeal"]')).to_have_text(misdeal)
    expect(page.locator('#entry button[value="passed"]')).to_have_text(passed)
    measured = page.evaluate(MEASURE)
    assert measured["overflowing"] == []
    assert measured["right"] <= 360
    # One line each: a label on two lines is a word broken or a taller button.
    assert all(44 <= height < 45 for height in measured["heights"]), measured
