"""A save never fails without a word, in headless Chromium: no answer (offline) or a
server error shows a message with a retry that records the hand once; a save on its way
disables its buttons; an answer that comes late never overwrites newer entries."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.utils.crypto import get_random_string
from playwright.sync_api import expect

from pitchkeeper.games.models import Hand
from tests.browser.test_game import SETBACK_TABLE, contract, open_game, pick, save
from tests.browser.test_integrity import enter
from tests.browser.test_offline import open_kept, open_ready
from tests.conftest import first_held, hold_first

pytestmark = pytest.mark.browser

HANDS = "**/games/*/hands/"
AUCTION = "**/games/*/auction/"


def failure(page: Any) -> Any:
    return page.locator("#failure")


def test_offline_save_waits_on_the_phone_and_is_sent_once_back_online(phone, make_game):
    game = make_game("setback", SETBACK_TABLE).game
    page = phone.new_page()
    open_ready(page, game)
    enter(page, "Bob", 2, "Bob")
    # What the browser and htmx log of a request that got no answer, and of the
    # engine's files, asked of the service worker before it had kept them (the network
    # went before the game was ready offline).
    phone.allow(r"ERR_INTERNET_DISCONNECTED|htmx:(afterRequest|sendError)|/engine/.*ERR_FAILED")

    page.context.set_offline(True)
    save(page)

    # Not an error: the hand is kept on the phone, and the screen says so.
    waiting = page.locator("#queue [data-count]")
    expect(waiting).to_have_text("1 hand waiting to be sent")
    expect(waiting).to_be_in_viewport()
    expect(failure(page)).to_be_hidden()
    expect(contract(page, "Bob", 2)).not_to_be_checked()
    assert Hand.objects.count() == 0

    page.context.set_offline(False)
    expect(page.locator("form.hand-form h2")).to_contain_text("Hand 2: Bob deals", timeout=20_000)
    # Nothing waits any more (the box may still say that the game is not yet ready to
    # be played offline, until the engine has started and everything is kept).
    expect(waiting).to_be_hidden()
    assert Hand.objects.count() == 1


def test_a_save_whose_answer_was_lost_is_sent_again_and_recorded_once(phone, make_game):
    game = make_game("setback", SETBACK_TABLE).game
    page = phone.new_page()
    open_ready(page, game)
    enter(page, "Bob", 2, "Bob")
    phone.allow(r"ERR_INTERNET_DISCONNECTED|htmx:(afterRequest|sendError)")

    def lost_answer(route: Any) -> None:
        # The hand reaches the server and is saved; the connection drops before the answer.
        route.fetch()
        route.abort("internetdisconnected")

    page.route(HANDS, lost_answer, times=1)
    save(page)

    expect(page.locator("#queue [data-count]")).to_have_text("1 hand waiting to be sent")
    assert Hand.objects.count() == 1
    # Sent again by itself with the same token: the server knows it, and records nothing more.
    expect(page.locator("#queue")).to_be_hidden(timeout=20_000)
    expect(page.locator("ol.history > li")).to_have_count(1)
    assert Hand.objects.count() == 1


def test_server_error_after_saving_is_told_and_the_retry_records_nothing_more(phone, make_game):
    game = make_game("setback", SETBACK_TABLE).game
    page = phone.new_page()
    open_game(page, game)
    enter(page, "Bob", 2, "Bob")
    phone.allow(r"502 for POST .*/hands/$|status of 502|Status Error Code 502")

    def lost_answer(route: Any) -> None:
        # The hand reaches the server and is saved; its answer is lost on the way back.
        route.fetch()
        route.fulfill(status=502, body="Bad gateway")

    page.route(HANDS, lost_answer)
    save(page)

    expect(failure(page).locator("p")).to_have_text(
        "The server failed to answer: nothing was lost. Try again."
    )
    expect(failure(page)).to_be_in_viewport()
    assert Hand.objects.count() == 1
    expect(page.locator("ol.history > li")).to_have_count(0)

    page.unroute(HANDS)
    failure(page).get_by_role("button", name="Try again").click()

    # The same one-time token: the retry shows the saved hand and records no second one.
    expect(page.locator("ol.history > li")).to_have_count(1)
    expect(failure(page)).to_be_hidden()
    assert Hand.objects.count() == 1


def test_a_form_out_of_date_is_told_and_the_retry_sends_it_as_signed_in_now(phone, make_game):
    """The phone signed in again in another tab: its CSRF cookie is a new one, which the
    page's token no longer matches. The save is refused with nothing saved, the screen
    says why, and "Try again" sends the same entry with the session's token."""
    game = make_game("setback", SETBACK_TABLE).game
    page = phone.new_page()
    # Everything the page fetches once loaded has answered first: each answer with a
    # token sends its cookie again (Django renews its expiry), and one still on its way
    # would put the old cookie back under the test.
    open_kept(page, game)
    enter(page, "Bob", 2, "Bob")
    phone.allow(r"403 for POST .*/hands/$|status of 403|Status Error Code 403")
    cookie = next(c for c in page.context.cookies() if c["name"] == settings.CSRF_COOKIE_NAME)
    page.context.add_cookies([{**cookie, "value": get_random_string(32)}])

    save(page)

    expect(failure(page).locator("p")).to_have_text(
        "The form was out of date (the phone signed in or out meanwhile): nothing was saved."
        " Try again."
    )
    expect(failure(page)).to_be_in_viewport()
    assert Hand.objects.count() == 0

    failure(page).get_by_role("button", name="Try again").click()

    expect(page.locator("ol.history > li")).to_have_count(1)
    expect(failure(page)).to_be_hidden()
    assert Hand.objects.count() == 1
    # Another save goes through too: every form of the page took the new token.
    enter(page, "Cy", 2, "Cy")
    save(page)
    expect(page.locator("ol.history > li")).to_have_count(2)


def test_a_failure_message_can_be_dismissed(phone, make_game):
    game = make_game("setback", SETBACK_TABLE).game
    page = phone.new_page()
    open_game(page, game)
    phone.allow(r"500 for POST .*/hands/$|status of 500|Status Error Code 500")
    page.route(HANDS, lambda route: route.fulfill(status=500, body="Server error"))

    page.locator('button[name="action"][value="misdeal"]').click()
    expect(failure(page)).to_be_visible()
    failure(page).get_by_role("button", name="Dismiss").click()

    expect(failure(page)).to_be_hidden()
    assert Hand.objects.count() == 0


def test_a_save_on_its_way_disables_its_buttons(page, make_game):
    game = make_game("setback", SETBACK_TABLE).game
    open_game(page, game)
    enter(page, "Bob", 2, "Bob")
    held: list[Any] = []
    page.route(HANDS, lambda route: held.append(route))
    sent: list[str] = []
    page.on("request", lambda request: "/hands/" in request.url and sent.append(request.url))

    save(page)

    buttons = page.locator("fieldset.actions button")
    for index in range(buttons.count()):
        expect(buttons.nth(index)).to_be_disabled()
    # A second tap while the first is out does nothing.
    page.locator('button[name="action"][value="save"]').dispatch_event("click")
    page.locator("form.hand-form").dispatch_event("submit")
    first = first_held(page, held)
    assert len(held) == 1

    first.continue_()
    expect(page.locator("form.hand-form h2")).to_contain_text("Hand 2: Bob deals")
    expect(page.locator('button[name="action"][value="save"]')).to_be_enabled()
    assert len(sent) == 1
    assert Hand.objects.count() == 1


def test_a_late_auction_answer_does_not_overwrite_a_newer_bid(phone, make_game):
    game = make_game("setback", SETBACK_TABLE).game
    page = phone.new_page()
    open_game(page, game)
    page.locator("details.auction > summary").click()
    held = hold_first(page, AUCTION)
    pick(page, "auction_0", 2)
    page.wait_for_function("() => document.querySelector('#auction.htmx-request') !== null")
    pick(page, "auction_0", 3)

    # The newer bid waits for the first answer, which is not drawn (drawn, it would put
    # the 2 back, and lose the queued bid with the part it redrew); nothing is aborted,
    # so nothing is logged (the phone fixture fails on any console error).
    with page.expect_response(lambda answer: "auction_0=3" in (answer.request.post_data or "")):
        first_held(page, held).continue_()
    expect(page.locator("#auction.htmx-request")).to_have_count(0)
    page.wait_for_load_state("networkidle")
    expect(page.locator('input[name="auction_0"][value="3"]')).to_be_checked()
    expect(page.locator('input[name="auction_0"][value="2"]')).not_to_be_checked()
