"""The offline queue is never stuck and never sent under the wrong person, can be
corrected, and ends a game the phone's engine sees won: in headless Chromium, on the
development server and on a production-mode one (tests/browser/conftest.py)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from playwright.sync_api import expect

from pitchkeeper.clubs.models import Membership
from pitchkeeper.games.hands import hand_record
from pitchkeeper.games.models import Hand
from pitchkeeper.games.replay import game_state
from pitchkeeper.rules import HandRecord
from tests.browser.test_game import SETBACK_TABLE, save, shown_scores
from tests.browser.test_integrity import enter
from tests.browser.test_offline import (
    ENGINE_START,
    FIVE,
    OFFLINE_LOGS,
    SYNCED,
    kept,
    open_kept,
    queue,
    shown_roles,
    waiting,
    waiting_text,
)
from tests.conftest import PASSWORD, wait_until

pytestmark = pytest.mark.browser

HELD = "#queue [data-conflict]"


@pytest.fixture
def phone(served_phone):
    """Each test on the development server and on a production-mode one."""
    return served_phone


def sign_in_as(page: Any, username: str) -> None:
    """Sign in on the sign-in page the browser is on."""
    page.locator('input[name="username"]').fill(username)
    page.locator('input[name="password"]').fill(PASSWORD)
    page.locator("main button[type=submit]").click()


def kept_offline(page: Any, game: Any, hands: list[tuple[str, int, str]]) -> None:
    """Open ``game`` with the network, then save ``hands`` with none."""
    open_kept(page, game)
    page.context.set_offline(True)
    for count, (pitcher, bid, taker) in enumerate(hands, start=1):
        enter(page, pitcher, bid, taker)
        save(page)
        kept(page, count)


def two_kept_then_signed_out(phone: Any, make_game: Any) -> tuple[Any, Any, list[Any]]:
    """A game with two hands kept offline; then the session ends (its cookie, and the
    CSRF cookie, gone: the sign-in that follows gives a new CSRF token, which the kept
    hands are sent with) and the network returns. Also every response from then on, as
    (URL, status)."""
    game = make_game("setback", SETBACK_TABLE).game
    page = phone.new_page()
    phone.allow(OFFLINE_LOGS)
    kept_offline(page, game, FIVE[:2])
    page.context.clear_cookies()
    answers: list[tuple[str, int]] = []
    page.context.on("response", lambda answer: answers.append((answer.url, answer.status)))
    page.context.set_offline(False)
    return page, game, answers


def signed_out_quietly(page: Any, game: Any, answers: list[tuple[str, int]]) -> None:
    """Signed out, the phone keeps to itself: its background requests for the game (the
    copy kept for offline, the queue) are not followed to the sign-in page, whose CSRF
    cookie would replace that of the sign-in page the person opens, so that signing in
    is refused. ``answers``: every response since the network came back."""
    redirected = (f"{page.url.split('/games/')[0]}/games/{game.pk}/", 302)
    wait_until(page, lambda: redirected in answers, SYNCED / 1000, f"{redirected}: {answers}")
    # A redirect followed is asked for at once; its answer would be in by now.
    page.wait_for_timeout(500)
    assert not [url for url, _status in answers if reverse("login") in url], answers


def signed_in_again(page: Any, game: Any) -> None:
    """Back on the game screen after signing in: its queue has sent what it may."""
    page.wait_for_url(f"**/games/{game.pk}/")
    # Ready once the page's engine has started: seconds on a shared test machine.
    expect(page.locator("#queue[data-ready]")).to_be_attached(timeout=ENGINE_START)
    expect(queue(page)).to_be_hidden(timeout=SYNCED)


def played(pitcher: str, bid: int, taker: str) -> HandRecord:
    return HandRecord(
        pitcher=pitcher, bid=bid, points={"high": taker, "low": taker, "jack": None, "game": taker}
    )


def test_hands_kept_when_the_session_ends_are_sent_once_the_member_signs_in_again(phone, make_game):
    page, game, answers = two_kept_then_signed_out(phone, make_game)
    held = page.locator(HELD)
    expect(held).to_contain_text(
        "Signed out: the waiting hands are sent once owner signs in again.", timeout=SYNCED
    )
    signed_out_quietly(page, game, answers)
    expect(waiting(page)).to_have_text(waiting_text(2))
    # The way forward is a sign-in; no hidden button shows ([hidden] wins over display).
    expect(held.get_by_role("button", name="Enter as next hand")).not_to_be_visible()
    expect(held.get_by_role("button", name="Send now")).not_to_be_visible()
    assert Hand.objects.count() == 0

    held.get_by_role("link", name="Sign in").click()
    sign_in_as(page, "owner")
    signed_in_again(page, game)
    expect(page.locator("ol.history > li")).to_have_count(2)
    hands = list(Hand.objects.filter(game=game).order_by("number"))
    assert [hand.pitcher.name for hand in hands] == ["Bob", "Cy"]
    assert len({hand.token for hand in hands}) == 2


def test_another_members_kept_hands_wait_for_that_member_and_count_for_nobody_else(
    phone, make_game, club
):
    second = get_user_model().objects.create_user("second", password=PASSWORD)
    Membership.objects.create(club=club, user=second, role="scorekeeper")
    page, game, _answers = two_kept_then_signed_out(phone, make_game)
    page.goto(f"/games/{game.pk}/")
    sign_in_as(page, "second")
    page.wait_for_url(f"**/games/{game.pk}/")
    held = page.locator(HELD)
    expect(held).to_contain_text(
        "Hand 1 was entered by owner: it waits on this phone until owner signs in here again.",
        timeout=SYNCED,
    )
    expect(waiting(page)).to_have_text(waiting_text(2))
    # Not sent, and not in this member's totals.
    expect(page.locator(".scoreboard.unconfirmed")).to_have_count(0)
    assert shown_scores(page) == {"Ann": 0, "Bob": 0, "Cy": 0}
    expect(page.locator("#entry-title")).to_contain_text("Hand 1: Ann deals")

    # Discarding asks first; kept, nothing changes.
    held.get_by_role("button", name="Discard").click()
    expect(held).to_contain_text(
        "Discard hand 1? It is kept on this phone only and is recorded nowhere."
    )
    expect(held.get_by_role("button", name="Enter as next hand")).not_to_be_visible()
    held.get_by_role("button", name="Keep it").click()
    expect(held.get_by_role("button", name="Enter as next hand")).to_be_visible()
    expect(waiting(page)).to_have_text(waiting_text(2))
    assert Hand.objects.count() == 0

    # The member who entered them signs in again: both go, once each.
    page.get_by_text("Menu").click()
    page.get_by_role("button", name="Sign out").click()
    page.wait_for_url("**/accounts/**")
    page.goto(f"/games/{game.pk}/")
    sign_in_as(page, "owner")
    signed_in_again(page, game)
    expect(page.locator("ol.history > li")).to_have_count(2)
    assert [hand.pitcher.name for hand in Hand.objects.filter(game=game).order_by("number")] == [
        "Bob",
        "Cy",
    ]


def test_a_waiting_hand_is_undone_and_changed_and_a_kept_undo_is_sent_once(phone, make_game):
    game = make_game("setback", SETBACK_TABLE).game
    hand_record(game=game, record=played("Bob", 2, "Bob"))
    page = phone.new_page()
    phone.allow(OFFLINE_LOGS)
    kept_offline(page, game, [("Cy", 3, "Cy")])

    # Undo, the same button as online: the waiting hand leaves the queue and comes back
    # into the form, to be changed.
    undo = page.get_by_role("button", name="Undo last hand")
    undo.click()
    expect(waiting(page)).to_have_text(re.compile("^No connection"))
    expect(page.locator('#entry input[name="contract"][value="Cy:3"]')).to_be_checked()
    expect(page.locator("#entry-title")).to_contain_text("Hand 2: Bob deals")
    # The server's order for hand 2 again, on the badges and the auction's names.
    assert shown_roles(page) == ("Bob", "Cy")
    enter(page, "Cy", 2, "Cy")
    save(page)
    expect(waiting(page)).to_have_text(waiting_text(1))

    page.context.set_offline(False)
    expect(queue(page)).to_be_hidden(timeout=SYNCED)
    assert [(h.pitcher.name, h.bid) for h in Hand.objects.filter(game=game).order_by("number")] == [
        ("Bob", 2),
        ("Cy", 2),
    ]

    # With none waiting, Undo offline undoes the server's last hand when the network is
    # back: once, however often the send is tried.
    page.context.set_offline(True)
    undo.click()
    expect(page.locator("#entry-title")).to_contain_text("Hand 2: Bob deals", timeout=SYNCED)
    assert Hand.objects.filter(game=game).count() == 2
    page.context.set_offline(False)
    expect(queue(page)).to_be_hidden(timeout=SYNCED)
    expect(page.locator("ol.history > li")).to_have_count(1)
    assert [h.pitcher.name for h in Hand.objects.filter(game=game)] == ["Bob"]
    page.reload()
    expect(queue(page)).to_be_hidden(timeout=SYNCED)
    assert Hand.objects.filter(game=game).count() == 1


def test_a_game_won_offline_is_over_on_the_phone_as_the_server_has_it_after_sync(phone, make_game):
    game = make_game("setback", SETBACK_TABLE).game
    for hand in FIVE:
        hand_record(game=game, record=played(*hand))
    page = phone.new_page()
    phone.allow(OFFLINE_LOGS)
    # Cy on 6 of 7 takes three points: Cy wins, and the others pay chips.
    kept_offline(page, game, [("Cy", 2, "Cy")])

    over = page.locator("#queue [data-over]")
    expect(over).to_be_visible(timeout=30_000)
    expect(over.locator("[data-reason]")).to_have_text("Cy wins")
    phone_payments = over.locator("[data-payments] li").all_inner_texts()
    assert phone_payments
    phone_totals = shown_scores(page)
    # No further hand is taken.
    expect(page.locator("#entry")).to_be_hidden()

    page.context.set_offline(False)
    expect(queue(page)).to_be_hidden(timeout=SYNCED)
    state = game_state(game=game)
    assert state.result.winner == "Cy"
    server = page.locator('.scoreboard [role="status"]')
    expect(server).to_contain_text("Cy")
    assert server.locator("li").all_inner_texts() == phone_payments
    assert shown_scores(page) == phone_totals == state.result.scores
    expect(page.locator("#entry")).to_have_count(0)


def test_a_hidden_control_is_not_shown_whatever_its_display(phone, make_game):
    game = make_game("setback", SETBACK_TABLE).game
    page = phone.new_page()
    page.goto(f"/games/{game.pk}/")
    expect(page.locator("#queue[data-ready]")).to_be_attached(timeout=ENGINE_START)
    # The box and its question shown, "Enter as next hand" still hidden: a button's
    # display (inline-flex) must not bring it back. Set and read in one task: the page's
    # own render (the service worker's answer comes when it comes) would set them back.
    shown = page.evaluate(
        """() => {
          const box = document.getElementById("queue");
          box.hidden = false;
          box.querySelector("[data-conflict]").hidden = false;
          const enter = box.querySelector("[data-enter]");
          enter.hidden = true;
          return {
            discard: box.querySelector("[data-discard]").checkVisibility(),
            enter: enter.checkVisibility(),
          };
        }"""
    )
    assert shown == {"discard": True, "enter": False}
