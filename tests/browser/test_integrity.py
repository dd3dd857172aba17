"""Never lose or double a hand, in headless Chromium: two phones at one table, a double
tap on Save, and a hand put back from the history of changes."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from pitchkeeper.games.hands import hand_delete, hand_record
from pitchkeeper.games.models import Hand
from pitchkeeper.games.replay import game_state
from pitchkeeper.rules import HandRecord
from tests.browser.test_game import (
    SETBACK_TABLE,
    contract,
    open_game,
    pick,
    pick_contract,
    play,
    save,
    shown_scores,
)

pytestmark = pytest.mark.browser


def enter(page, pitcher: str, bid: int, taker: str) -> None:
    """Everything of a hand but the Save tap: ``taker`` takes High, Low and Game."""
    pick_contract(page, pitcher, bid)
    for key, side in (("high", taker), ("low", taker), ("jack", None), ("game", taker)):
        pick(page, f"point_{key}", side)


def test_the_second_phone_is_told_and_keeps_its_entry(phone, make_game):
    game = make_game("setback", SETBACK_TABLE).game
    first, second = phone.new_page(), phone.new_page()
    open_game(first, game)
    open_game(second, game)

    play(first, "Bob", 2, "Bob", "Bob", None, "Cy")
    enter(second, "Cy", 3, "Cy")
    save(second)

    expect(second.locator(".messages")).to_contain_text(
        "Hand 1 was saved from another phone meanwhile"
    )
    # The table as it is now, and the entry as its user made it, for hand 2.
    assert shown_scores(second) == {"Ann": 0, "Bob": 2, "Cy": 1}
    expect(second.locator("form.hand-form h2")).to_contain_text("Hand 2: Bob deals")
    expect(contract(second, "Cy", 3)).to_be_checked()
    expect(second.locator('input[name="point_game"][value="Cy"]')).to_be_checked()
    assert Hand.objects.count() == 1

    save(second)  # still right: saved as hand 2
    expect(second.locator("ol.history > li")).to_have_count(2)
    assert game_state(game=game).result.scores == {"Ann": 0, "Bob": 2, "Cy": 4}


def test_a_double_tap_on_save_records_one_hand(page, make_game):
    game = make_game("setback", SETBACK_TABLE).game
    open_game(page, game)
    enter(page, "Bob", 2, "Bob")

    # htmx sends no second request while the first is out; the form's one-time token
    # covers whatever gets through all the same (sent twice: tests/games/test_integrity.py).
    page.locator('button[name="action"][value="save"]').dblclick()

    expect(page.locator("form.hand-form h2")).to_contain_text("Hand 2: Bob deals")
    page.wait_for_load_state("networkidle")
    expect(page.locator("ol.history > li")).to_have_count(1)
    assert Hand.objects.count() == 1


def test_a_deleted_hand_is_put_back_from_the_history(page, make_game):
    game = make_game("setback", SETBACK_TABLE).game
    hand_record(game=game, record=HandRecord(misdeal=True))
    hand_record(
        game=game,
        record=HandRecord(
            pitcher="Cy", bid=2, points={"high": "Cy", "low": "Cy", "jack": None, "game": "Ann"}
        ),
    )
    hand_delete(game=game, number=2)
    open_game(page, game)

    page.get_by_role("link", name="History of changes").click()
    expect(page.locator("#changes ol.history > li").first).to_contain_text("deleted hand 2")
    page.locator("#changes ol.history > li").first.get_by_role("button", name="Restore").click()

    expect(page.locator(".messages")).to_contain_text("Hand 2 restored.")
    expect(page.locator("#changes ol.history > li").first).to_contain_text("restored hand 2")
    assert game_state(game=game).result.scores == {"Ann": 1, "Bob": 0, "Cy": 2}
