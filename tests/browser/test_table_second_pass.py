"""What a person meets at 360x740 around the table: a restore that would move hands asks
first, the edit screen of a finished game takes a whole auction, the new-game screen
seats players as they are picked, the screen is kept on while a game is open, and the
result is shared at game over (or copied where there is no share sheet)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from pitchkeeper.clubs.models import Player
from pitchkeeper.games.hands import hand_delete, hand_record
from pitchkeeper.games.models import Game, Hand
from pitchkeeper.games.replay import game_state
from pitchkeeper.rules import HandRecord, replay
from tests.browser.test_game import open_game

pytestmark = pytest.mark.browser

TABLE = ("Ann", "Bob", "Cy", "Dee")


def three(pitcher: str) -> HandRecord:
    return HandRecord(
        pitcher=pitcher,
        bid=3,
        points={"high": pitcher, "low": pitcher, "jack": pitcher, "game": "Cy"},
    )


def in_view(page, locator) -> bool:
    box = locator.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 740


def test_a_restore_that_moves_hands_asks_first_and_then_matches_a_replay(page, make_game):
    game = make_game("setback", TABLE).game
    hand_record(game=game, record=HandRecord(misdeal=True))
    hand_record(game=game, record=three("Cy"))
    hand_delete(game=game, number=2, undo=True)
    hand_record(game=game, record=three("Dee"))
    open_game(page, game)
    page.get_by_role("link", name="History of changes").click()

    undone = page.locator("#changes ol.history > li", has_text="undid hand 2")
    undone.get_by_role("button", name="Restore").click()

    question = page.get_by_role("heading", name="Restore hand 2?")
    expect(question).to_be_visible()
    assert in_view(page, question)
    expect(page.locator("#changes")).to_contain_text("Hand 2 becomes hand 3")
    assert Hand.objects.filter(game=game).count() == 2
    # The answer in reach at once, below the effects still being read.
    confirm = page.get_by_role("button", name="Restore hand 2")
    assert in_view(page, confirm)
    assert in_view(page, page.get_by_role("link", name="Cancel"))

    confirm.click()

    expect(page.locator(".messages")).to_contain_text("Hand 2 restored.")
    state = game_state(game=Game.objects.get(pk=game.pk))
    record = state.record
    fresh = replay(record.rules, record.seating, record.first_dealer, record.hands)
    assert [hand.pitcher for hand in state.result.hands] == [None, "Cy", "Dee"]
    assert state.result.scores == fresh.scores
    page.goto(f"/games/{game.pk}/")
    for side, score in fresh.scores.items():
        expect(page.locator(f'[data-side="{side}"] [data-total]')).to_have_text(str(score))


def test_the_edit_screen_of_a_finished_game_takes_a_whole_auction(page, make_game):
    game = make_game("setback", TABLE).game
    for _hand in range(3):
        hand_record(game=game, record=three("Bob"))
    assert game_state(game=game).result.finished
    page.goto(f"/games/{game.pk}/hands/3/")

    page.get_by_text("Or record the whole auction").click()
    auction = page.locator("#auction")
    first = auction.locator("fieldset").first
    expect(first.locator("legend")).to_have_text("Dee")
    first.locator("label", has_text="2").first.click()

    # The section is drawn again, whole, with the next bidder's 2 taken away.
    second = auction.locator("fieldset").nth(1)
    expect(second.locator("legend")).to_have_text("Ann")
    expect(second.locator('input[value="2"]')).to_be_disabled()
    expect(auction.locator("fieldset")).to_have_count(4)


def test_new_game_seats_in_picking_order_and_offers_only_players_at_the_table(
    page, make_game, club
):
    make_game("setback", ("Lars", "Marit", "Olga"))
    for name in ("Alexandra", "Maximilian"):
        Player.objects.create(club=club, name=name)
    page.goto("/games/new/")
    expect(page.locator("#id_first_dealer")).to_have_value(str(Player.objects.get(name="Marit").pk))

    # Lars and Marit out, then Maximilian and Alexandra in, one tap after another.
    for name in ("Lars", "Marit", "Maximilian", "Alexandra"):
        with page.expect_response("**/games/new/"):
            page.locator("#players label.pill", has_text=name).click()

    seated = page.locator("#players .seat-row.chosen label.pill")
    expect(seated).to_have_text(["Olga", "Maximilian", "Alexandra"])
    options = page.locator("#id_first_dealer option")
    expect(options).to_have_text(
        ["Whoever sits in seat 1", "Alexandra", "Maximilian", "Olga", "The new player"]
    )
    expect(page.locator("#id_first_dealer")).to_have_value("")
    # Each seat box is labelled where the eye sees it, and no name breaks inside a word.
    expect(page.locator(".seat-row.chosen .seat-field label").first).to_be_visible()
    for name in ("Alexandra", "Maximilian"):
        span = page.locator("#players label.pill span", has_text=name)
        height = span.evaluate("(el) => el.getBoundingClientRect().height")
        line = span.evaluate("(el) => parseFloat(getComputedStyle(el).lineHeight)")
        assert height < 2 * line, name
    page.screenshot(path="/tmp/new-game-picked.png", caret="initial", full_page=True)

    page.get_by_role("button", name="Start the game").click()

    expect(page.locator(".scores")).to_be_visible()
    game = Game.objects.latest("pk")
    assert [seat.player.name for seat in game.seats.all()] == ["Olga", "Maximilian", "Alexandra"]


def test_a_refused_start_says_why_in_view(page, club):
    for name in ("Ann", "Bob"):
        Player.objects.create(club=club, name=name)
    page.goto("/games/new/")
    with page.expect_response("**/games/new/"):
        page.locator("#players label.pill", has_text="Ann").click()

    page.get_by_role("button", name="Start the game").click()

    alert = page.get_by_role("alert").first
    expect(alert).to_contain_text("Pick at least two players.")
    assert in_view(page, alert)


WAKE_LOCK_STUB = """
window.wakeRequests = [];
window.wakeSentinels = [];
Object.defineProperty(navigator, "wakeLock", {
  configurable: true,
  value: {
    request(type) {
      window.wakeRequests.push(type);
      const sentinel = new EventTarget();
      sentinel.release = async () => sentinel.dispatchEvent(new Event("release"));
      window.wakeSentinels.push(sentinel);
      return Promise.resolve(sentinel);
    },
  },
});
"""


def test_the_screen_is_kept_on_and_asked_again_when_the_page_comes_back(phone, make_game):
    game = make_game("setback", TABLE).game
    page = phone.new_page()
    page.add_init_script(WAKE_LOCK_STUB)
    open_game(page, game)

    page.wait_for_function("() => window.wakeRequests.length === 1")
    assert page.evaluate("window.wakeRequests") == ["screen"]

    # Hidden, the browser lets the lock go; back in view, the page asks again.
    page.evaluate("window.wakeSentinels[0].release()")
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    page.wait_for_function("() => window.wakeRequests.length === 2")


def test_without_a_wake_lock_nothing_goes_wrong(phone, make_game):
    game = make_game("setback", TABLE).game
    page = phone.new_page()
    page.add_init_script("delete Navigator.prototype.wakeLock;")
    open_game(page, game)
    page.wait_for_load_state("networkidle")
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    expect(page.locator(".scores")).to_be_visible()


SHARE_STUB = """
window.shared = [];
Object.defineProperty(navigator, "share", {
  configurable: true,
  value: (data) => { window.shared.push(data); return Promise.resolve(); },
});
"""
CLIPBOARD_STUB = """
delete Navigator.prototype.share;
window.copied = [];
Object.defineProperty(navigator, "clipboard", {
  configurable: true,
  value: { writeText: (text) => { window.copied.push(text); return Promise.resolve(); } },
});
"""


def finished(make_game) -> Game:
    game = make_game("setback", TABLE).game
    for _hand in range(3):
        hand_record(game=game, record=three("Bob"))
    return game


def test_the_result_goes_to_the_share_sheet(phone, make_game):
    game = finished(make_game)
    page = phone.new_page()
    page.add_init_script(SHARE_STUB)
    open_game(page, game)

    share = page.get_by_role("button", name="Share the result")
    expect(share).to_be_visible()
    share.click()

    page.wait_for_function("() => window.shared.length === 1")
    text = page.evaluate("window.shared[0].text")
    assert text.startswith("Bob wins: made the bid and reached 7\n")
    assert "Final scores: Ann 0, Bob 9, Cy 3, Dee 0" in text
    assert "Ann pays Bob 2 chips" in text
    assert text.endswith(f"/live/{game.share_token}/")


def test_without_a_share_sheet_the_result_is_copied_and_the_page_says_so(phone, make_game):
    game = finished(make_game)
    page = phone.new_page()
    page.add_init_script(CLIPBOARD_STUB)
    open_game(page, game)

    page.get_by_role("button", name="Share the result").click()

    status = page.locator("#result-share-status")
    expect(status).to_have_text("The result is copied: paste it where you want to send it.")
    assert in_view(page, status) or status.bounding_box() is not None
    assert page.evaluate("window.copied[0]").startswith("Bob wins")
