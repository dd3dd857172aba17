"""The game screen of a full table at 360x740 in headless Chromium: seven names of 20
characters read whole (nothing cut), one player order from the totals to the points,
the place the screen is left at after a save, and every missing part of a hand told at
once, in view."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from pitchkeeper.games.hands import hand_record
from pitchkeeper.games.models import Hand
from pitchkeeper.rules import HandRecord
from tests.browser.test_game import contract, open_game, pick, save

pytestmark = pytest.mark.browser

# Seven names of 20 characters, one of them a single word (it cannot wrap at a space).
SEVEN = (
    "Alexandra Rosenfeldt",
    "Bartholomew Ashworth",
    "Christopher Langford",
    "Maximilian Rosenberg",
    "Evangeline Blackwood",
    "Fitzgerald Hawthorne",
    "KonstantinKonstantin",
)
assert {len(name) for name in SEVEN} == {20}
HEIGHT = 740
WIDTH = 360
TOUCH = 44

# Every element that shows text of its own (a visible text node), whose text is wider
# than its box: cut short, hidden or run out of it.
OVERFLOWING_JS = """() => [...document.body.querySelectorAll("*")]
  .filter((element) => element.checkVisibility() && !element.closest(".visually-hidden"))
  .filter((element) => [...element.childNodes].some(
    (node) => node.nodeType === Node.TEXT_NODE && node.textContent.trim()))
  .filter((element) => element.scrollWidth > element.clientWidth + 1
    || element.getBoundingClientRect().right > window.innerWidth + 1)
  .map((element) => element.outerHTML.slice(0, 100))"""

# The names as a place of the screen lists them, top to bottom: each element's own first
# text (not its badges), with the top of its box.
NAMES_JS = """(elements) => elements.map((element) => [
  element.firstChild.textContent.trim(), element.getBoundingClientRect().top])"""

# Whether the first eight characters of each name are on one line, where it starts.
FIRST_EIGHT_JS = """(elements) => elements.map((element) => {
  const range = document.createRange();
  range.setStart(element.firstChild, 0);
  range.setEnd(element.firstChild, Math.min(8, element.firstChild.length));
  return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
})"""

# The middle of each element's box, from the top of the screen.
MIDDLES_JS = """(elements) => elements.map((element) => {
  const box = element.getBoundingClientRect();
  return Math.round(box.top + box.height / 2);
})"""

INSIDE_JS = """(element) => {
  const box = element.getBoundingClientRect();
  return box.top >= 0 && box.bottom <= window.innerHeight && box.width > 0;
}"""


@pytest.fixture
def seven(make_game):
    """Two hands in: Bartholomew's 3 made, Christopher's 2 set (and in the hole); Cy
    deals the third, so neither the dealer nor the first bidder sits first."""
    game = make_game("setback", SEVEN).game
    ann, bob, cy, *_others = SEVEN
    for pitcher, bid, taker in ((bob, 3, bob), (cy, 2, ann)):
        points = {"high": taker, "low": taker, "jack": None, "game": taker}
        hand_record(game=game, record=HandRecord(pitcher=pitcher, bid=bid, points=points))
    return game


def names(page: Any, selector: str) -> list[str]:
    return [name for name, _top in page.locator(selector).evaluate_all(NAMES_JS)]


def test_seven_names_of_twenty_characters_are_never_cut(page, seven):
    open_game(page, seven)

    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH
    assert page.evaluate(OVERFLOWING_JS) == []
    # Each name whole, its first eight characters on one line, in the totals and grids.
    for selector in (".scores .name", ".bid-grid .who", ".point-grid .who"):
        shown = names(page, selector)
        assert shown[: len(SEVEN)] == list(SEVEN), selector
        lines = page.locator(selector).evaluate_all(FIRST_EIGHT_JS)
        assert set(lines) == {1}, f"{selector}: a name breaks inside its first 8 characters"
    # The badges and the bids whole, among them "4 smudge", and every button a thumb's.
    expect(page.locator(".scores .tag")).to_have_text(["deals", "in the hole", "bids first"])
    expect(page.locator(".bid-grid label.pill").last).to_have_text(f"{SEVEN[6]} 4 smudge")
    boxes = page.locator(".hand-form label.pill").evaluate_all(
        "(pills) => pills.map((pill) => pill.getBoundingClientRect())"
        ".map((box) => Math.min(box.width, box.height))"
    )
    assert len(boxes) > 7 * 3 + 7 * 4 and min(boxes) >= TOUCH


# Each word of the game screen's text broken across lines ("Неправ-ильная", "никт-о"),
# and each badge that runs out of its tile.
BROKEN_WORDS_JS = """() => {
  const broken = [];
  const walker = document.createTreeWalker(document.getElementById("table"), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent.checkVisibility() || parent.closest(".visually-hidden")) continue;
    for (const match of node.textContent.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const tops = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
      if (tops.size > 1) broken.push(match[0]);
    }
  }
  for (const tag of document.querySelectorAll(".scores .side .tag")) {
    const own = tag.getBoundingClientRect(), side = tag.closest(".side").getBoundingClientRect();
    if (own.left < side.left || own.right > side.right) broken.push(tag.textContent);
  }
  return broken;
}"""


@pytest.mark.parametrize("language", ["en", "ru", "nb"])
def test_a_table_of_four_reads_whole_in_every_language(page, make_game, language):
    game = make_game("setback", ("Ann", "Bob", "Cy", "Dee")).game
    page.goto("/")
    page.context.add_cookies([{"name": "django_language", "value": language, "url": page.url}])
    open_game(page, game)

    expect(page.locator("html")).to_have_attribute("lang", language)
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH
    assert page.evaluate(OVERFLOWING_JS) == []
    assert page.evaluate(BROKEN_WORDS_JS) == []


def test_the_screen_has_one_player_order_with_the_dealer_and_first_bidder_marked(page, seven):
    open_game(page, seven)
    ann, bob, cy, dee, *_others = SEVEN

    for selector in (".scores .name", ".bid-grid .who", ".point-grid .who"):
        shown = page.locator(selector).evaluate_all(NAMES_JS)
        assert [name for name, _top in shown[:7]] == list(SEVEN), selector
        tops = [top for _name, top in shown]
        assert tops == sorted(tops), f"{selector} is not top to bottom"
    # Each player's buttons are on that player's row: the bids, then the points.
    for grid, field, count in ((".bid-grid", "contract", 3), (".point-grid", "point_", 4)):
        rows = page.locator(f"{grid} .who").evaluate_all(MIDDLES_JS)
        for name, row in zip(SEVEN, rows, strict=False):
            value = f'[value^="{name}:"]' if field == "contract" else f'[value="{name}"]'
            buttons = page.locator(f'{grid} label.pill:has(> input[name^="{field}"]{value})')
            middles = buttons.evaluate_all(MIDDLES_JS)
            assert len(middles) == count and all(abs(m - row) <= 2 for m in middles), name
    # Cy deals the third hand and Dee, on Cy's left, bids first: marked on their rows,
    # in the totals and on the grid the pitcher is picked from.
    for selector in (".scores .side", ".bid-grid .who"):
        expect(page.locator(selector).filter(has_text="deals")).to_contain_text(cy)
        expect(page.locator(selector).filter(has_text="bids first")).to_contain_text(dee)
    expect(page.locator(".scores .side.deals .name")).to_have_text(cy)


def test_after_a_save_the_totals_the_hand_undo_and_the_next_form_are_in_view(page, seven):
    open_game(page, seven)
    dee, taker = SEVEN[3], SEVEN[4]

    scrolls = []
    for number, bid in ((3, 2), (4, 3)):
        pick(page, "contract", f"{dee}:{bid}")
        for point in ("high", "low", "game"):
            pick(page, f"point_{point}", dee)
        pick(page, "point_jack", taker)
        save(page)

        expect(page.locator("#last-hand")).to_have_text(
            f"Hand {number}: {dee} bid {bid} ✓ made: High, Low, Game"
        )
        expect(page.locator("#entry-title")).to_be_focused()
        scrolls.append(
            page.evaluate(
                "[window.scrollY, document.getElementById('table').getBoundingClientRect().top]"
            )
        )
        for selector in (
            ".scores",
            ".scores .tag",
            "#last-hand",
            "button:text('Undo last hand')",
            "#entry-title",
            ".bid-grid .who >> nth=0",
        ):
            for element in page.locator(selector).all()[:7]:
                assert element.evaluate(INSIDE_JS), f"{selector} is not whole in view"
        # The next hand's form, empty.
        expect(page.locator(".hand-form input[type=radio]:checked")).to_have_count(0)
    assert abs(scrolls[0][1]) <= 1 and scrolls[0] == scrolls[1]


def test_a_save_lacking_several_things_names_them_all_at_once_in_view(page, seven):
    open_game(page, seven)

    save(page)

    alerts = page.locator("#table [role=alert] .errorlist")
    expect(alerts).to_have_text(
        [
            "Choose the pitcher and the bid, or record the whole auction.",
            "Say who took High.",
            "Say who took Low.",
            "Say who took Jack.",
            "Say who took Game.",
        ]
    )
    for alert in alerts.all():
        assert alert.evaluate(INSIDE_JS), f"{alert.inner_text()} is not in view"
    points = page.locator(".point-grid")
    assert points.get_attribute("aria-describedby") == " ".join(
        f"id_point_{key}_error" for key in ("high", "low", "jack", "game")
    )
    expect(page.locator(".point-grid label.pill.invalid")).to_have_count(4 * 7 + 2)

    # Only some missing: those, and the entry kept.
    pick(page, "contract", f"{SEVEN[0]}:2")
    pick(page, "point_low", SEVEN[1])
    save(page)
    expect(alerts).to_have_text(["Say who took High.", "Say who took Jack.", "Say who took Game."])
    for alert in alerts.all():
        assert alert.evaluate(INSIDE_JS), f"{alert.inner_text()} is not in view"
    expect(contract(page, SEVEN[0], 2)).to_be_checked()
    assert page.locator(".point-grid").evaluate("(grid) => grid.contains(document.activeElement)")
    assert Hand.objects.filter(game=seven).count() == 2
