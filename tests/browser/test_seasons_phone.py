"""The season pages on a phone, in headless Chromium at 360x740: the leaderboard, the
ledger, a player's page and the seasons fit the width with long names (no sideways
scroll, inside a box either), each name wrapped between its words and never inside
one; a payment is recorded only once confirmed and can be taken back, with htmx and
without JavaScript."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from pitchkeeper.clubs.models import Club, Player
from pitchkeeper.games.models import Game
from pitchkeeper.seasons.ledger import payment_record
from pitchkeeper.seasons.models import Payment, Season
from pitchkeeper.seasons.spans import Span
from tests.seasons.test_stats import smudge_game, team_game

pytestmark = pytest.mark.browser

# Twenty letters in two words, twenty in one, and thirty in one.
LONG = "Maximilian Rosenberg"
WORD = "Konstantinopolitanus"
LONGEST = "Wolfeschlegelsteinhausenberger"
NAMES = (LONG, WORD, LONGEST)

# Whether the page or any box in it scrolls sideways.
SIDEWAYS_JS = """
() => {
  const found = [];
  const page = document.scrollingElement;
  if (page.scrollWidth > window.innerWidth) {
    found.push(`the page: ${page.scrollWidth} px wide`);
  }
  for (const element of document.querySelectorAll("body *")) {
    const style = getComputedStyle(element);
    const scrolls = ["auto", "scroll"].includes(style.overflowX);
    if (scrolls && element.scrollWidth > element.clientWidth + 1) {
      found.push(`${element.outerHTML.slice(0, 80)}: ${element.scrollWidth} px`);
    }
  }
  return found;
}
"""

# Every word of every name shown, each on one line: a word whose characters fall on
# two lines was broken inside it ("Maxi/milian").
BROKEN_WORDS_JS = """
(names) => {
  const broken = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const name of names) {
      let at = node.data.indexOf(name);
      while (at >= 0) {
        let offset = at;
        for (const word of name.split(" ")) {
          const range = document.createRange();
          range.setStart(node, offset);
          range.setEnd(node, offset + word.length);
          const lines = new Set([...range.getClientRects()]
            .filter((box) => box.width > 0)
            .map((box) => Math.round(box.top)));
          if (lines.size > 1) {
            const where = node.parentElement.outerHTML.slice(0, 80);
            broken.push(`"${word}" on ${lines.size} lines in ${where}`);
          }
          offset += word.length + 1;
        }
        at = node.data.indexOf(name, at + name.length);
      }
    }
  }
  return broken;
}
"""


def long_names(make_game: Callable[..., Any], club: Club) -> Player:
    """Games of the long names with Ann, Bob and Cy, a team game, chips worth money, a
    season with a long name and a payment; returns the thirty-letter player."""
    smudge_game(make_game, (LONG, LONGEST, "Ann"))
    smudge_game(make_game, (WORD, "Bob", LONGEST))
    smudge_game(make_game, ("Cy", LONG, WORD))
    smudge_game(make_game)
    team_game(make_game)
    Game.objects.update_counted(chip_value="0.25")
    Season.objects.create(club=club, name="The long winter season of 2026", start="2000-01-01")
    players = {p.name: p for p in Player.objects.all()}
    owner = club.memberships.get().user
    payment_record(
        club=club, span=Span(None), payer=players["Dee"], payee=players[LONG], chips=1, by=owner
    )
    return players[LONGEST]


def pages(player: Player) -> dict[str, str]:
    return {
        "leaderboard": "/seasons/?season=all",
        "leaderboard by rating": "/seasons/?season=all&sort=-rating",
        "ledger": "/seasons/ledger/?season=all",
        "player": f"/seasons/players/{player.pk}/?season=all",
        "seasons": "/seasons/manage/",
    }


def test_the_season_pages_fit_a_phone_with_long_names(page, make_game, club):
    player = long_names(make_game, club)
    for name, url in pages(player).items():
        page.goto(url)
        for opened in (False, True):
            if opened:
                page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
            assert not page.evaluate(SIDEWAYS_JS), (name, opened, page.evaluate(SIDEWAYS_JS))
            broken = page.evaluate(BROKEN_WORDS_JS, list(NAMES))
            assert not broken, f"{name}:\n" + "\n".join(broken)
            assert page.evaluate("window.scrollX") == 0


def test_the_leaderboard_shows_the_headline_figures_and_the_rest_on_a_tap(page, make_game, club):
    long_names(make_game, club)
    page.goto("/seasons/?season=all")

    first = page.locator(".standing").first
    expect(first.locator(".name")).to_have_text("Bob")  # two wins
    headline = first.locator(".headline")
    expect(headline).to_have_text("Wins 2 Games 3 (1) Net chips +5")
    expect(headline).to_be_in_viewport()
    expect(first.locator("dl.all")).to_be_hidden()
    first.locator("summary").click()
    expect(first.locator("dl.all")).to_be_visible()
    expect(first.get_by_text("Points per hand")).to_be_in_viewport()

    # Sorting by another figure adds it to each line (htmx: on the choice itself).
    page.locator("#sort").select_option("rating")
    expect(page.locator(".ranked")).to_contain_text("Ranked by the cautious rating")
    expect(page.locator(".standing").first.locator(".headline")).to_contain_text("Rating")
    assert "sort=rating" in page.url


def test_the_leaderboard_sorts_without_javascript(phone, make_game, club):
    long_names(make_game, club)
    page = phone.new_page(java_script_enabled=False)
    page.goto("/seasons/?season=all")
    page.locator("#sort").select_option("chips")
    page.get_by_role("button", name="Sort", exact=True).click()
    expect(page.locator(".ranked")).to_have_text("Ranked by Net chips")
    page.get_by_role("link", name="The other way round").click()
    expect(page.locator(".ranked")).to_have_text("Ranked by Net chips, the other way round")
    expect(page.locator(".standing").first.locator(".name")).to_have_text(WORD)  # -3


@pytest.mark.parametrize("javascript", [True, False])
def test_a_payment_is_confirmed_then_taken_back(phone, make_game, club, javascript):
    long_names(make_game, club)
    Payment.objects.all().delete()
    page = phone.new_page(java_script_enabled=javascript)
    page.goto("/seasons/ledger/?season=all")

    plan = page.locator(".plan li").first
    said = plan.locator("p").inner_text()
    mark = plan.get_by_text("Mark as paid")
    mark.scroll_into_view_if_needed()
    mark.click()
    confirm = plan.get_by_role("button", name="Yes, record this payment")
    expect(confirm).to_be_in_viewport()
    assert not Payment.objects.exists()  # opening the confirmation records nothing
    confirm.click()

    expect(page.locator("#ledger .messages")).to_contain_text("Recorded:")
    payment = Payment.objects.get()
    paid = f"{payment.payer.name} paid {payment.payee.name} {payment.chips} chip"
    assert said.startswith(f"{payment.payer.name} pays {payment.payee.name}")
    recorded = page.locator(".recorded li", has_text=paid)
    recorded.get_by_text("Take back").click()
    take_back = recorded.get_by_role("button", name="Yes, take this payment back")
    expect(take_back).to_be_in_viewport()
    take_back.click()

    expect(page.locator("#ledger .messages")).to_contain_text(f"Taken back: {paid}")
    expect(page.locator(".recorded")).to_have_count(0)
    assert not Payment.objects.exists()
    expect(page.locator(".plan li").first.locator("p")).to_have_text(said)
    assert not page.evaluate(SIDEWAYS_JS)
