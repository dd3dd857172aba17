"""Offline, the app says what it cannot do: the start page is kept from the first visit,
every page that needs the network answers with the app's own short page in the user's
language, and a game screen says when it is not yet ready to be played offline. In
headless Chromium, on the development server and on a production-mode one."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from playwright.sync_api import expect

from pitchkeeper.core import views
from pitchkeeper.core.brython import bundle
from tests.browser.test_game import SETBACK_TABLE
from tests.browser.test_offline import ENGINE_START, KEPT, OFFLINE_LOGS, open_kept, open_ready

pytestmark = pytest.mark.browser


@pytest.fixture
def phone(served_phone):
    """Each test on the development server and on a production-mode one."""
    return served_phone


def first_visit(page: Any, path: str) -> None:
    """Open ``path`` once with the network, and wait for the service worker to keep the
    start page and the offline page."""
    page.goto(path)
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    assert page.evaluate(KEPT, ["/", "/offline/"]), "the start page was not kept"


def test_the_start_page_opens_offline_and_a_page_that_needs_the_network_says_so(phone, make_game):
    opened = make_game("setback", SETBACK_TABLE).game
    never_opened = make_game("setback", SETBACK_TABLE).game
    page = phone.new_page()
    phone.allow(OFFLINE_LOGS)
    first_visit(page, "/")

    page.context.set_offline(True)
    page.reload()
    expect(page.get_by_role("heading", name="In progress")).to_be_visible()
    for link in ('main a[href="/games/new/"]', f'main a[href="/games/{never_opened.pk}/"]'):
        page.goto("/")
        page.locator(link).first.click()
        expect(page.get_by_role("heading", name="No connection")).to_be_visible()
        expect(page.locator("main")).to_contain_text("This page needs the network")
    for path in ("/seasons/", f"/games/{opened.pk}/hands/all/", f"/games/{never_opened.pk}/"):
        page.goto(path)
        expect(page.get_by_role("heading", name="No connection")).to_be_visible()
    page.get_by_role("link", name="Back to the start").click()
    expect(page.get_by_role("heading", name="In progress")).to_be_visible()


def test_the_offline_page_is_in_the_users_language(phone):
    page = phone.new_page()
    # The language chosen on this phone (the language switch's cookie).
    page.context.add_cookies([{"name": "django_language", "value": "ru", "url": phone.base_url}])
    phone.allow(OFFLINE_LOGS)
    first_visit(page, "/")
    page.context.set_offline(True)
    page.goto("/seasons/")
    expect(page.get_by_role("heading", name="Нет связи")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", "ru")


def test_a_game_says_it_is_not_ready_offline_until_it_is(phone, make_game, monkeypatch):
    game = make_game("setback", SETBACK_TABLE).game
    # The server holds the engine back (a slow network): it cannot start, so nothing is
    # kept for offline play, however fast this machine is today. (Playwright's routes do
    # not see what the engine's worker asks for through the service worker.)
    held = threading.Event()
    monkeypatch.setattr(views, "bundle", lambda: (held.wait(60), bundle())[1])
    page = phone.new_page()
    phone.allow(r"ERR_INTERNET_DISCONNECTED|ERR_FAILED")
    open_ready(page, game)
    # The service worker in control (it needs nothing of the engine), so that what is
    # missing offline is the engine alone, not the worker cut off while installing.
    page.wait_for_function(
        "() => navigator.serviceWorker.controller !== null", timeout=ENGINE_START
    )
    unready = page.locator("#queue [data-unready]")
    # The network gone before all is kept: the screen says so.
    page.context.set_offline(True)
    expect(unready).to_have_text(
        "Not ready for play without a network yet: keep the connection until this note goes."
    )
    expect(unready).to_be_visible()
    page.context.set_offline(False)
    held.set()
    # Once the runtime, the page and its words are all kept, the network may go.
    open_kept(page, game)
    page.context.set_offline(True)
    expect(page.locator("#queue")).to_be_visible()
    expect(unready).to_be_hidden()
    page.context.set_offline(False)
    page.reload()
    expect(page.locator("#queue")).to_be_hidden(timeout=30_000)
