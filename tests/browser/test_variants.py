"""Seed 004's variants played to their end through the UI in headless Chromium at
360x740: a 10-point partnership game (doubled bids, the moon on the buttons) and a
nine-five game (the smudges, over 101 on a made bid). After every hand the totals on
the screen are checked against the rules engine, and every 10-point hand is entered
within its tap budget: the pitcher, the bid, one tap per point, save.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from pitchkeeper.games.models import Game
from pitchkeeper.games.replay import GameState
from pitchkeeper.rules import HandRecord, replay
from tests.browser.test_game import check_totals, newest_hand, open_game, pick, save
from tests.conftest import PHONE

pytestmark = pytest.mark.browser

TABLE = ("Ann", "Bob", "Cy", "Dee")
TEAMS = {"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]}
TEN_POINT = ("high", "low", "jack", "off_jack", "big_joker", "little_joker", "three", "game")
NINE_FIVE = ("high", "low", "jack", "game", "nine", "five")


def points(side: str | None, keys: tuple[str, ...], **others: str | None) -> dict[str, Any]:
    """Every point to ``side``, except those given in ``others`` (None: nobody)."""
    return {key: others.get(key, side) for key in keys}


class Scorekeeper:
    """Enters hands with a thumb, counting the taps, and checks every total against the
    engine replaying the same hands."""

    def __init__(self, page: Any, state: GameState) -> None:
        self.page = page
        self.game = state.game
        self.records: list[HandRecord] = []
        self.taps = 0
        # The tap budget of a hand: the pitcher, the bid, one tap per point, save.
        self.budget = 1 + 1 + state.record.rules.most_points + 1

    def tap(self, field: str, value: object) -> None:
        pick(self.page, field, value)
        self.taps += 1

    def hand(
        self,
        pitcher: str,
        bid: int | str,
        taken: dict[str, Any],
        partner: str | None = None,
        *,
        all_tricks: bool = False,
    ) -> int:
        """One hand, as the scorekeeper taps it in; the taps it took. A smudge needs every
        trick as well (seed 004): one more tap, on the box that says so."""
        before = newest_hand(self.page)
        self.taps = 0
        self.tap("pitcher", pitcher)
        self.tap("bid", bid)
        for key, side in taken.items():
            self.tap(f"point_{key}", side)
        if all_tricks:
            self.page.get_by_label("The pitcher's side took every trick").check()
            self.taps += 1
        save(self.page)
        self.taps += 1
        expect(self.page.locator("ol.history > li strong").first).to_have_text(f"#{before + 1}")
        self.records.append(
            HandRecord(
                pitcher=pitcher, bid=bid, points=taken, partner=partner, all_tricks=all_tricks
            )
        )
        budget = self.budget + all_tricks
        assert self.taps <= budget, f"{self.taps} taps for a hand of {self.budget - 3} points"
        return self.taps

    def check(self, expected: dict[str, int]) -> GameState:
        state = check_totals(self.page, self.game, expected)
        rules, seating = state.record.rules, state.record.seating
        engine = replay(rules, seating, state.record.first_dealer, self.records)
        assert state.result.scores == engine.scores
        assert (state.result.winner, state.result.won_by) == (engine.winner, engine.won_by)
        width = self.page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"the game screen scrolls sideways: {width} px"
        return state


def check_over(page: Any, state: GameState, reason: str) -> None:
    expect(page.locator(".scoreboard .card .big")).to_have_text(reason)
    expect(page.locator(".side.winner .name")).to_have_text(state.result.winner)
    expect(page.locator("form.hand-form")).to_have_count(0)
    expect(page.locator('form[action$="/rematch/"] button')).to_be_visible()
    game = Game.objects.get(pk=state.game.pk)
    assert game.finished_at is not None
    assert (game.winner_team, game.won_by) == (state.result.winner, state.result.won_by)


def test_ten_point_partnership_game_within_the_tap_budget(page, make_game):
    state = make_game("ten-point", TABLE, teams=TEAMS)
    keeper = Scorekeeper(page, state)
    open_game(page, state.game)
    keeper.check({"Us": 0, "Them": 0})
    # Ten points on eight rows of buttons; the doubled bids and the moon among the bids.
    expect(page.locator('fieldset:has(input[name="point_three"]) > legend')).to_have_text(
        "Three (3)"
    )
    expect(page.locator('label.pill:has(> input[name="bid"][value="6x2"])')).to_have_text(
        "6 for 12"
    )
    expect(page.locator('label.pill:has(> input[name="bid"][value="moon"])')).to_have_text(
        "Shoot the moon"
    )
    # Every hand: the pitcher, the bid, a tap on each of the 8 rows, save; 13 at most.
    assert keeper.budget == 13

    # Bob bids 6 for 12 and takes 8: twice that.
    taps = keeper.hand("Bob", "6x2", points("Them", TEN_POINT, little_joker="Us", game="Us"))
    assert taps == 1 + 1 + 8 + 1
    keeper.check({"Us": 2, "Them": 16})
    # Cy bids 7 and takes all ten.
    keeper.hand("Cy", 7, points("Us", TEN_POINT))
    keeper.check({"Us": 12, "Them": 16})
    # Dee bids 9 for 18 and takes all ten: 20.
    keeper.hand("Dee", "9x2", points("Them", TEN_POINT))
    keeper.check({"Us": 12, "Them": 36})
    # Ann bids 3 for 6 and takes only the Three, worth 3: made, 6.
    keeper.hand("Ann", "3x2", points("Them", TEN_POINT, three="Us"))
    keeper.check({"Us": 18, "Them": 43})
    # Bob bids 5 for 10 with Game tied: 9 taken, 18, and Them are over 52.
    keeper.hand("Bob", "5x2", points("Them", TEN_POINT, game=None))
    state = keeper.check({"Us": 18, "Them": 61})

    assert (state.result.winner, state.result.won_by) == ("Them", "count_order")
    check_over(page, state, "Them wins: made the bid and reached 52")
    history = page.locator("ol.history")
    expect(history).to_contain_text("Bob bid 5 for 10")
    expect(history).to_contain_text("Little joker: Us")
    expect(history).to_contain_text("Game: tied")


def test_nine_five_game_to_its_end(page, make_game):
    state = make_game("nine-five", TABLE, teams=TEAMS)
    keeper = Scorekeeper(page, state)
    open_game(page, state.game)
    expect(page.locator('label.pill:has(> input[name="bid"][value="blind"])')).to_have_text(
        "Blind smudge"
    )
    expect(page.locator('fieldset:has(input[name="point_nine"]) > legend')).to_have_text("Nine (9)")

    # Bob's smudge: all 18 points and every trick, worth 19.
    keeper.hand("Bob", "smudge", points("Them", NINE_FIVE), all_tricks=True)
    keeper.check({"Us": 0, "Them": 19})
    # Cy bids 9 and takes the Nine and High; Them score what they took.
    keeper.hand("Cy", 9, points("Them", NINE_FIVE, nine="Us", high="Us"))
    keeper.check({"Us": 10, "Them": 27})
    # Dee's blind smudge: 20.
    keeper.hand("Dee", "blind", points("Them", NINE_FIVE), all_tricks=True)
    keeper.check({"Us": 10, "Them": 47})
    keeper.hand("Ann", 18, points("Us", NINE_FIVE))
    keeper.check({"Us": 28, "Them": 47})
    keeper.hand("Bob", "blind", points("Them", NINE_FIVE), all_tricks=True)
    keeper.check({"Us": 28, "Them": 67})
    # Cy's smudge misses the Five: set back 19.
    keeper.hand("Cy", "smudge", points("Us", NINE_FIVE, five="Them"))
    keeper.check({"Us": 9, "Them": 72})
    keeper.hand("Dee", "blind", points("Them", NINE_FIVE), all_tricks=True)
    keeper.check({"Us": 9, "Them": 92})
    # Them pass 101 on the Nine and the Five while Ann makes her 4: only a made bid goes out.
    keeper.hand("Ann", 4, points("Us", NINE_FIVE, nine="Them", five="Them"))
    state = keeper.check({"Us": 13, "Them": 106})
    assert not state.result.finished
    keeper.hand("Bob", 4, points("Them", NINE_FIVE, nine="Us", five="Us"))
    state = keeper.check({"Us": 27, "Them": 110})

    assert (state.result.winner, state.result.won_by) == ("Them", "bidder_out")
    check_over(page, state, "Them wins: made the bid and reached 101")
    history = page.locator("ol.history")
    expect(history).to_contain_text("Cy bid Smudge")
    expect(history).to_contain_text("Dee bid Blind smudge")
