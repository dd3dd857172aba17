"""Whole games played through the UI in headless Chromium at 360x740.

Only taps and Save: labels of the pill buttons are clicked as a thumb would, and after
every hand the totals on the screen are checked against the rules engine. The fixtures
(``browser``, ``phone``, ``page``) are in conftest.py; without /usr/bin/chromium these
tests are skipped, except on CI (CI=true), where they fail.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from pitchkeeper.clubs.models import Player
from pitchkeeper.clubs.players import player_add
from pitchkeeper.games.hands import hand_record
from pitchkeeper.games.models import Game, Hand
from pitchkeeper.games.replay import GameState, game_state
from pitchkeeper.rules import HandRecord
from tests.conftest import first_held, hold_first

pytestmark = pytest.mark.browser

# Ann deals first, so Bob bids first and Ann, the dealer, last.
SETBACK_TABLE = ("Ann", "Bob", "Cy")
# A point nobody took: the Jack not dealt, Game tied.
NOBODY = None


def pick(page: Any, field: str, value: object) -> None:
    """Tap a pill: the label of the radio button or checkbox ``field`` = ``value``."""
    value = "nobody" if value is None else value
    page.locator(f'label.pill:has(> input[name="{field}"][value="{value}"])').click()


def contract(page: Any, pitcher: str, bid: object) -> Any:
    """The button of the pitcher-and-bid grid for ``pitcher`` bidding ``bid``."""
    return page.locator(f'input[name="contract"][value="{pitcher}:{bid}"]')


def pick_contract(page: Any, pitcher: str, bid: object) -> None:
    """One tap on the grid where the rules have one; else the pitcher, then the bid."""
    if page.locator('input[name="contract"]').count():
        pick(page, "contract", f"{pitcher}:{bid}")
    else:
        pick(page, "pitcher", pitcher)
        pick(page, "bid", bid)


def play(
    page: Any,
    pitcher: str,
    bid: int,
    high: str | None,
    low: str | None,
    jack: str | None,
    game: str | None,
    *,
    all_tricks: bool = False,
) -> None:
    """Enter a hand on the game screen, six taps, and wait for the table to show it."""
    before = newest_hand(page)
    pick_contract(page, pitcher, bid)
    for key, side in (("high", high), ("low", low), ("jack", jack), ("game", game)):
        pick(page, f"point_{key}", side)
    if all_tricks:
        page.locator('label[for="id_all_tricks"]').click()
    save(page)
    expect(page.locator("ol.history > li strong").first).to_have_text(f"#{before + 1}")


def newest_hand(page: Any) -> int:
    """The number of the hand listed first, the latest (0 before the first): the
    screen lists the latest few hands only, so their count stops growing."""
    numbers = page.locator("ol.history > li strong")
    return int(numbers.first.inner_text().lstrip("#")) if numbers.count() else 0


def save(page: Any) -> None:
    page.locator('button[name="action"][value="save"]').click()


def shown_scores(page: Any) -> dict[str, int]:
    """Each side's total as the scoreboard shows it."""
    return {
        side.locator(".name").inner_text(): int(side.locator(".total").inner_text())
        for side in page.locator(".scores > .side").all()
    }


def check_totals(page: Any, game: Game, expected: dict[str, int] | None = None) -> GameState:
    """The totals shown are the engine's (and, when given, the ones expected)."""
    expect(page.locator(".scores > .side").first).to_be_visible()
    state = game_state(game=Game.objects.get(pk=game.pk))
    assert shown_scores(page) == state.result.scores
    if expected is not None:
        assert state.result.scores == expected
    return state


def payment_lines(state: GameState) -> list[str]:
    return [
        f"{payer} pays {payee} {chips} chip{'' if chips == 1 else 's'}"
        for payer, payee, chips in state.result.payments()
    ]


def check_game_over(page: Any, state: GameState, reason: str) -> None:
    """The winner's card: the reason in words and the settlement from the engine."""
    card = page.locator(".scoreboard .card")
    expect(card.locator(".big")).to_have_text(reason)
    expect(card.locator("li")).to_have_text(payment_lines(state))
    expect(page.locator(".side.winner .name")).to_have_text(state.result.winner)
    # No hand can follow the winning one; a rematch can.
    expect(page.locator("form.hand-form")).to_have_count(0)
    expect(page.locator('form[action$="/rematch/"] button')).to_be_visible()


def open_game(page: Any, game: Game) -> None:
    page.goto(f"/games/{game.pk}/")
    expect(page.locator(".scores")).to_be_visible()


def test_setback_won_in_count_order_with_chips_settled(page, make_game):
    game = make_game("setback", SETBACK_TABLE).game
    open_game(page, game)
    check_totals(page, game, {"Ann": 0, "Bob": 0, "Cy": 0})

    play(page, "Bob", 2, "Bob", "Bob", "Cy", "Cy")
    check_totals(page, game, {"Ann": 0, "Bob": 2, "Cy": 2})
    play(page, "Cy", 2, "Cy", "Cy", "Bob", "Bob")
    check_totals(page, game, {"Ann": 0, "Bob": 4, "Cy": 4})
    play(page, "Cy", 2, "Cy", "Cy", "Bob", NOBODY)
    check_totals(page, game, {"Ann": 0, "Bob": 5, "Cy": 6})
    # Bob's two points are counted first and take him to 7 before Cy's Jack does.
    play(page, "Bob", 2, "Bob", "Bob", "Cy", NOBODY)
    state = check_totals(page, game, {"Ann": 0, "Bob": 7, "Cy": 7})

    assert (state.result.winner, state.result.won_by) == ("Bob", "count_order")
    check_game_over(page, state, "Bob wins: the pitcher's points are counted first")
    # Ann ends at 0 and pays double.
    assert payment_lines(state) == ["Ann pays Bob 2 chips", "Cy pays Bob 1 chip"]


def test_smudge_wins_at_once(page, make_game):
    game = make_game("setback", SETBACK_TABLE).game
    open_game(page, game)

    play(page, "Bob", 4, "Bob", "Bob", "Bob", "Bob")

    state = check_totals(page, game, {"Ann": 0, "Bob": 4, "Cy": 0})
    assert (state.result.winner, state.result.won_by) == ("Bob", "smudge")
    reason = "Bob wins with a smudge: bid 4, took every point, and was not in the hole"
    check_game_over(page, state, reason)
    expect(page.locator("ol.history")).to_contain_text("(smudge)")


def test_undo_redo_and_an_edit_that_changes_the_winner(page, make_game):
    game = make_game("setback", SETBACK_TABLE).game
    open_game(page, game)
    play(page, "Bob", 2, "Bob", "Bob", "Bob", "Bob")
    play(page, "Cy", 3, "Cy", "Cy", "Cy", "Bob")
    play(page, "Bob", 2, "Bob", "Bob", "Cy", "Cy")
    state = check_totals(page, game, {"Ann": 0, "Bob": 7, "Cy": 5})
    assert state.result.winner == "Bob"
    expect(page.locator(".side.winner .name")).to_have_text("Bob")

    # One tap takes the winning hand back: the game reopens.
    page.locator('form[action*="/undo/"] button').click()
    expect(page.locator("ol.history > li")).to_have_count(2)
    state = check_totals(page, game, {"Ann": 0, "Bob": 5, "Cy": 3})
    assert state.result.winner is None and state.game.finished_at is None
    expect(page.locator(".side.winner")).to_have_count(0)
    expect(page.locator("form.hand-form")).to_be_visible()

    # ...and one more puts it back.
    page.locator('form[action*="/redo/"] button').click()
    expect(page.locator("ol.history > li")).to_have_count(3)
    state = check_totals(page, game, {"Ann": 0, "Bob": 7, "Cy": 5})
    assert state.result.winner == "Bob"

    # Hand 1 was really Cy's: Cy now reaches 7 on hand 3, and Bob does not.
    page.locator('ol.history a[href$="/hands/1/"]').click()
    expect(page).to_have_url(re.compile(rf"/games/{game.pk}/hands/1/$"))
    expect(contract(page, "Bob", 2)).to_be_checked()
    for field, value in [
        ("contract", "Cy:2"),
        ("point_high", "Cy"),
        ("point_low", "Cy"),
        ("point_jack", "Bob"),
        ("point_game", "Bob"),
    ]:
        pick(page, field, value)
    page.locator("#hand-form button[type=submit]").click()

    expect(page).to_have_url(re.compile(rf"/games/{game.pk}/$"))
    expect(page.locator(".messages")).to_contain_text("Hand 1 changed.")
    state = check_totals(page, game, {"Ann": 0, "Bob": 5, "Cy": 7})
    assert (state.result.winner, state.result.won_by) == ("Cy", "count_order")
    check_game_over(page, state, "Cy wins: reached 7 on Game")
    assert payment_lines(state) == ["Ann pays Cy 2 chips", "Bob pays Cy 1 chip"]


def test_illegal_auction_is_refused_next_to_the_field(phone, make_game):
    game = make_game("setback", SETBACK_TABLE).game
    dealer_steals_the_smudge = [("auction_0", 4), ("auction_1", "pass"), ("auction_2", 4)]

    # With JavaScript the form offers only the legal bids: after Bob's 4 and Cy's pass,
    # Ann, the dealer, may not take the smudge away.
    page = phone.new_page()
    open_game(page, game)
    page.locator("details.auction > summary").click()
    pick(page, "auction_0", 4)
    expect(page.locator('input[name="auction_1"][value="2"]')).to_be_disabled()
    pick(page, "auction_1", "pass")
    expect(page.locator('input[name="auction_2"][value="4"]')).to_be_disabled()
    expect(page.locator('input[name="auction_2"][value="pass"]')).to_be_enabled()

    # Without JavaScript nothing is disabled, so the server must refuse it.
    page = phone.new_page(java_script_enabled=False)
    open_game(page, game)
    page.locator("details.auction > summary").click()
    for field, value in dealer_steals_the_smudge:
        pick(page, field, value)
    for key in ("high", "low", "jack", "game"):
        pick(page, f"point_{key}", "Ann")
    save(page)

    message = "Ann cannot take Bob's 4: a bid of 4 cannot be taken away"
    # Next to the entry at fault, in the auction, which stays open, with the entries kept.
    errors = page.locator("details.auction[open] #id_auction_2_error")
    expect(errors).to_have_text(message)
    expect(page.locator('fieldset[aria-describedby="id_auction_2_error"]')).to_be_visible()
    expect(page.locator('input[name="auction_2"][value="4"]')).to_be_checked()
    # Nothing saved.
    assert Hand.objects.filter(game=game).count() == 0
    check_totals(page, game, {"Ann": 0, "Bob": 0, "Cy": 0})
    expect(page.locator("ol.history")).to_have_count(0)


def test_form_errors_are_shown_and_nothing_saved(page, make_game):
    game = make_game("setback", SETBACK_TABLE).game
    open_game(page, game)
    pick_contract(page, "Bob", 2)
    save(page)

    expect(page.locator("#id_point_high_error")).to_have_text("Say who took High.")
    # What was tapped is still tapped.
    expect(contract(page, "Bob", 2)).to_be_checked()
    assert Hand.objects.filter(game=game).count() == 0


def test_partnership_game(page, make_game):
    teams = {"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]}
    game = make_game("partnership", ("Ann", "Bob", "Cy", "Dee"), teams=teams).game
    open_game(page, game)
    expect(page.locator(".scores > .side .muted")).to_have_text(["Ann · Cy", "Bob · Dee"])
    # The pitcher is a player; the points go to teams.
    # Players, not teams, pitch: a button for each of the four on every bid of the grid.
    expect(page.locator('input[name="contract"][value$=":2"]')).to_have_count(4)
    expect(page.locator('input[name="point_high"]:not([value="nobody"])')).to_have_count(2)

    # A bid of 5 needs every point and every trick.
    play(page, "Ann", 5, "Us", "Us", "Us", "Us", all_tricks=True)
    check_totals(page, game, {"Us": 5, "Them": 0})
    play(page, "Bob", 3, "Them", "Them", "Them", "Us")
    check_totals(page, game, {"Us": 6, "Them": 3})
    play(page, "Cy", 4, "Us", "Us", "Us", "Us")
    check_totals(page, game, {"Us": 10, "Them": 3})
    play(page, "Dee", 2, "Us", "Them", "Them", "Them")
    state = check_totals(page, game, {"Us": 11, "Them": 6})

    assert (state.result.winner, state.result.won_by) == ("Us", "count_order")
    # Partnership games settle nothing.
    check_game_over(page, state, "Us wins: reached 11 on High")
    game.refresh_from_db()
    assert game.winner_team == "Us"


def test_game_switched_to_russian(page, make_game):
    game = make_game("setback", SETBACK_TABLE).game
    open_game(page, game)
    expect(page.locator("html")).to_have_attribute("lang", "en")
    play(page, "Bob", 2, "Bob", "Bob", "Bob", "Bob")

    # The switcher in the footer: a plain form, back to the same page.
    page.locator("#language").select_option("ru")
    page.locator("form.lang button[type=submit]").click()
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    expect(page).to_have_url(re.compile(rf"/games/{game.pk}/$"))
    check_totals(page, game, {"Ann": 0, "Bob": 4, "Cy": 0})
    # The table's own word for High, from the Russian catalog.
    high = page.locator('label.pill:has(> input[name="point_high"][value="Ann"])')
    expect(high).to_have_text("Ann: Старший")

    play(page, "Cy", 3, "Cy", "Cy", "Cy", "Bob")
    check_totals(page, game, {"Ann": 0, "Bob": 5, "Cy": 3})
    play(page, "Bob", 2, "Bob", "Bob", "Cy", "Cy")
    state = check_totals(page, game, {"Ann": 0, "Bob": 7, "Cy": 5})
    assert state.result.winner == "Bob"
    expect(page.locator(".side.winner .name")).to_have_text("Bob")
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    # The choice sticks for the next page too.
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", "ru")


def test_live_scoreboard_follows_a_new_hand_without_a_reload(phone, make_game):
    game = make_game("setback", SETBACK_TABLE).game
    hand_record(
        game=game,
        record=HandRecord(
            pitcher="Cy", bid=3, points={"high": "Bob", "low": "Cy", "jack": None, "game": "Ann"}
        ),
    )
    keeper = phone.new_page()
    open_game(keeper, game)
    url = keeper.locator("#share-link").input_value()
    assert url.endswith(f"/live/{game.share_token}/")

    # Another player's phone: its own browser context, no session, no cookies.
    follower = phone.new_page(context=None)
    follower.goto(url)
    expect(follower.locator("h1")).to_have_text("Live scores")
    check_totals(follower, game, {"Ann": 1, "Bob": 1, "Cy": -3})
    expect(follower.locator(".side.hole .name")).to_have_text("Cy")
    follower.evaluate("window.notReloaded = true")

    play(keeper, "Bob", 2, "Bob", "Bob", "Cy", "Ann")

    expect(follower.locator(".recent > li")).to_have_count(2, timeout=8_000)
    check_totals(follower, game, {"Ann": 2, "Bob": 3, "Cy": -2})
    assert follower.evaluate("window.notReloaded") is True
    # Read only: nothing there leads to the editing screens.
    expect(follower.locator("form.hand-form, a[href*='/hands/'], .bar nav")).to_have_count(0)


def test_new_game_screen_starts_a_game(club, page, db):
    ann, bob, cy = (player_add(club=club, name=name) for name in ("Ann", "Bob", "Cy"))
    page.goto("/")
    page.locator(".start a.button.primary").click()
    expect(page).to_have_url(re.compile(r"/games/new/$"))

    for player in (ann, bob, cy):
        pick(page, "players", player.pk)
    # The players' part is drawn again after each tick, the first dealer's choices with
    # it: Bob is offered once his tick's answer has come.
    expect(page.locator("li.seat-row.chosen")).to_have_count(3)
    page.locator('input[name="new_player"]').fill("Dee")
    page.locator("#id_first_dealer").select_option(str(bob.pk))
    # Another preset brings its own settings in (htmx), without leaving the page.
    page.locator('label.preset:has(> input[value="auction-pitch"])').click()
    expect(page.locator('#settings input[name="settings_for"]')).to_have_value("auction-pitch")
    expect(page.locator('#settings input[name="min_bid"]')).to_have_value("1")
    page.locator(".submit-bar button[type=submit]").click()

    expect(page).to_have_url(re.compile(r"/games/\d+/$"))
    game = Game.objects.get()
    state = game_state(game=game)
    assert state.record.seating.players == ("Ann", "Bob", "Cy", "Dee")
    assert state.record.rules.preset == "auction-pitch"
    assert game.first_dealer == bob
    assert state.result.dealer == "Bob"
    assert Player.objects.filter(name="Dee").exists()
    check_totals(page, game, {"Ann": 0, "Bob": 0, "Cy": 0, "Dee": 0})
    # Bob deals, so Cy bids first and the hand can be entered right away.
    play(page, "Cy", 2, "Cy", "Cy", "Dee", "Ann")
    check_totals(page, game, {"Ann": 1, "Bob": 0, "Cy": 2, "Dee": 1})


def test_ticks_made_while_an_answer_is_on_its_way_are_all_sent(club, page, db):
    """The first tick's answer is held back while two more players are ticked: those
    two wait in the form's queue and are sent once it comes, so all three are seated
    (a queue kept on #players was lost when the first answer redrew it)."""
    players = [player_add(club=club, name=name) for name in ("Ann", "Bob", "Cy")]
    held = hold_first(page, re.compile(r"/games/new/$"))
    page.goto("/games/new/")
    for player in players:
        pick(page, "players", player.pk)
    expect(page.locator("li.seat-row.chosen")).to_have_count(0)
    first_held(page, held).continue_()
    expect(page.locator("li.seat-row.chosen")).to_have_count(3)
    assert [
        int(v)
        for v in page.locator('li.seat-row.chosen input[name="players"]').evaluate_all(
            "boxes => boxes.map((box) => box.value)"
        )
    ] == [p.pk for p in players]


def test_a_name_typed_and_a_dealer_picked_while_a_tick_is_answered_are_kept(club, page, db):
    """The answer to a tick redraws the players' part, name box and dealer included, as
    they were sent: what was typed and picked since is put back, caret and focus too."""
    ann, bob, cy = (player_add(club=club, name=name) for name in ("Ann", "Bob", "Cy"))
    page.goto("/games/new/")
    for seated, player in enumerate((ann, bob), start=1):
        pick(page, "players", player.pk)
        expect(page.locator("li.seat-row.chosen")).to_have_count(seated)
    held = hold_first(page, re.compile(r"/games/new/$"))
    pick(page, "players", cy.pk)
    route = first_held(page, held)
    page.locator("#id_first_dealer").select_option(str(bob.pk))
    name = page.locator('input[name="new_player"]')
    name.fill("Deeee")
    name.press("ArrowLeft")
    route.continue_()
    expect(page.locator("li.seat-row.chosen")).to_have_count(3)
    expect(name).to_have_value("Deeee")
    expect(name).to_be_focused()
    assert name.evaluate("box => [box.selectionStart, box.selectionEnd]") == [4, 4]
    expect(page.locator("#id_first_dealer")).to_have_value(str(bob.pk))

    # A name the answer changed is left as drawn: added, its box comes back empty.
    name.press("Backspace")
    name.press("Enter")
    expect(page.locator("li.seat-row.chosen")).to_have_count(4)
    expect(name).to_have_value("")
    expect(page.locator("li.seat-row.chosen .who span").last).to_have_text("Deee")


@pytest.mark.parametrize("ci", ["true", "1"])
def test_without_a_browser_ci_fails(monkeypatch, ci):
    from tests.conftest import _browser_missing

    monkeypatch.setenv("CI", ci)
    with pytest.raises(pytest.fail.Exception, match="CI must run the browser tests"):
        _browser_missing("/usr/bin/chromium is missing")


@pytest.mark.parametrize("ci", [None, "", "false"])
def test_without_a_browser_a_developer_skips(monkeypatch, ci):
    from tests.conftest import _browser_missing

    if ci is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", ci)
    with pytest.raises(pytest.skip.Exception, match="chromium is missing"):
        _browser_missing("/usr/bin/chromium is missing")
