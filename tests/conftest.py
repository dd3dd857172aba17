"""Shared pytest fixtures for Pitchkeeper."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client
from django.utils import translation

from pitchkeeper.clubs.access import CURRENT_CLUB
from pitchkeeper.clubs.models import Club
from pitchkeeper.clubs.players import roster
from pitchkeeper.clubs.services import club_create
from pitchkeeper.games.hands import hand_record
from pitchkeeper.games.models import Game
from pitchkeeper.games.replay import GameState, game_state
from pitchkeeper.games.services import game_create
from pitchkeeper.nights.models import Night
from pitchkeeper.nights.services import night_start
from pitchkeeper.rules import FORMAT, HandRecord, resolve_rules

PASSWORD = "a long table password"


def pytest_configure(config: pytest.Config) -> None:
    """Django's advice for a quick suite: a fast password hasher. The default one takes
    half a second a password here by design, and nearly every test makes a user or
    signs one in; what the tests check of passwords does not depend on the hasher."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def entry_basis(pk: int) -> dict[str, str]:
    """What game ``pk``'s hand form says it was made from, as the game screen would now:
    the fields a save of a hand states its basis with (games.basis.Basis)."""
    state = game_state(game=Game.objects.get(pk=pk))
    return {
        "revision": str(state.game.revision),
        "expected": str(len(state.hands) + 1),
        "entry_dealer": state.result.dealer or "",
    }


def example_record(**overrides: Any) -> dict[str, Any]:
    """A four-player setback record (the one in the format's documentation)."""
    data: dict[str, Any] = {
        "format": FORMAT,
        "rules": "setback",
        "players": ["Ann", "Bob", "Cy", "Dee"],
        "first_dealer": "Ann",
        "hands": [
            {
                "pitcher": "Bob",
                "bid": 3,
                "points": {"high": "Bob", "low": "Cy", "jack": None, "game": "Bob"},
            },
            {
                "auction": [["Cy", None], ["Dee", 2], ["Ann", 3], ["Bob", 3]],
                "points": {"high": "Bob", "low": "Cy", "jack": "Ann", "game": "Dee"},
                "revoked": ["Ann"],
            },
            {"misdeal": True},
            {"auction": [["Ann", None], ["Bob", None], ["Cy", None], ["Dee", None]]},
        ],
    }
    data.update(overrides)
    return data


@pytest.fixture
def game_data():
    """``game_data(hands=[...])``: the example record with some fields replaced."""
    return example_record


@pytest.fixture(autouse=True)
def _language_reset():
    """A request in Russian leaves Russian active in the thread; the next test starts
    in English again."""
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def _cache_reset():
    """Each test starts with an empty cache: a test database hands out the ids of the
    last test's rows again, and a replay kept for them must not meet another game."""
    cache.clear()


@pytest.fixture
def user(db):
    """The signed-in scorekeeper of most tests: owner of ``club``."""
    return get_user_model().objects.create_user("owner", password=PASSWORD)


@pytest.fixture
def club(user) -> Club:
    return club_create(name="Thursday table", owner=user)


def sign_in(client: Any, user: Any, club: Club | None = None) -> Any:
    """``client`` signed in as ``user`` with ``club`` as the current club."""
    client.force_login(user)
    if club is not None:
        session = client.session
        session[CURRENT_CLUB] = club.pk
        session.save()
    return client


@pytest.fixture
def client(client, user, club):
    """Django's test client, signed in as the owner of ``club``."""
    return sign_in(client, user, club)


@pytest.fixture
def anonymous_client():
    return Client()


@pytest.fixture
def make_game(club):
    """A new game of ``club``: ``make_game("setback", ["Ann", "Bob", "Cy"])``."""

    def make(
        preset: str | dict[str, Any] = "setback",
        names: tuple[str, ...] = ("Ann", "Bob", "Cy", "Dee"),
        teams: dict[str, list[str]] | None = None,
    ) -> GameState:
        players = roster(list(names), club=club)
        return game_create(
            players=[players[name] for name in names],
            first_dealer=players[names[0]],
            rules=resolve_rules(preset),
            teams={team: [players[n] for n in members] for team, members in (teams or {}).items()},
        )

    return make


def hold_first(page: Any, url: Any) -> list[Any]:
    """Route the page's POSTs to ``url`` (a pattern): the first one is held, its route
    put in the list returned for the test to let go (``held[0].continue_()``), as an
    answer slow to come; every other request goes through."""
    held: list[Any] = []

    def hold(route: Any) -> None:
        if held or route.request.method != "POST":
            route.continue_()
        else:
            held.append(route)

    page.route(url, hold)
    return held


def wait_until(page: Any, done: Callable[[], bool], seconds: float, failure: str) -> None:
    """Wait, letting the browser work, until ``done()`` holds of what the test's thread
    records of the page (routes, responses): Playwright hands those over only while the
    test waits on the browser, so ``expect`` cannot wait for them."""
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, failure
        page.wait_for_timeout(20)


def first_held(page: Any, held: list[Any]) -> Any:
    """The route ``hold_first`` held, once Playwright has handed it over: the page can
    show its request under way (htmx's class on the element) before the route's
    handler has run in the test's thread, which runs it only while it waits on the
    browser."""
    wait_until(page, lambda: bool(held), 10, "no request was held within 10 s")
    return held[0]


# ---- Club nights ----

EIGHT = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal")


def finish(game: Game, winner: str | None = None) -> Game:
    """``game`` played to its end: ``winner`` (else the first seat) bids 2 and takes
    every point, hand after hand."""
    state = game_state(game=game)
    winner = winner or state.record.seating.players[0]
    for _ in range(20):
        if state.result.winner is not None:
            break
        points = {c.key: winner for c in state.record.rules.categories}
        state = hand_record(game=game, record=HandRecord(pitcher=winner, bid=2, points=points))
    game.refresh_from_db()
    assert game.finished_at is not None
    return game


@pytest.fixture
def make_night(club, user):
    """A night of ``club``: ``make_night("partnership", EIGHT, rounds=3)``."""

    def make(
        preset: str = "partnership",
        names: tuple[str, ...] = EIGHT,
        *,
        rounds: int | None = 3,
        progressive: bool = False,
        order: str = "wins",
        seed: int = 1,
    ) -> Night:
        players = roster(list(names), club=club)
        return night_start(
            club=club,
            players=[players[name] for name in names],
            preset=preset,
            rounds=rounds,
            progressive=progressive,
            order=order,
            by=user,
            seed=seed,
        )

    return make


# ---- Browser tests (tests/browser/): Playwright driving Debian's Chromium ----

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
# How long a tap, and what it shows, may take before a test fails; a tap that leads to
# another page waits for that page within this too (Playwright's "scheduled
# navigations"), which on a loaded machine took more than 5 s.
ACTION_MS = 10_000
NAVIGATION_MS = 20_000
# The phone the app is laid out for.
PHONE = {"width": 360, "height": 740}
# Chromium logs every 4xx answer to the console; these two are the app's way of showing a
# form with its errors (400) or a refused action with its message (409), not faults.
EXPECTED_STATUS_LOGS = re.compile(r"the server responded with a status of (400|409)\b")
# Every Content-Security-Policy violation (an inline style or script, a foreign origin)
# is made a console error, which fails the test, whatever Chromium itself logs of it.
CSP_WATCH = """
document.addEventListener("securitypolicyviolation", (event) => {
  console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI} ${event.sample}`);
});
"""


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in {"", "0", "false", "no"}


def _browser_missing(reason: str) -> None:
    """Skip on a developer's machine without a browser; on CI, fail: CI must never pass
    with the browser tests silently skipped."""
    if _in_ci():
        pytest.fail(f"{reason}; CI must run the browser tests", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def browser():
    """One headless Chromium for the whole session."""
    if not CHROMIUM.exists():
        _browser_missing(f"{CHROMIUM} is missing (apt-get install -y chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _browser_missing("playwright is not installed (pip install -e '.[test]')")
    # Playwright's sync API keeps an event loop in this thread for the rest of the
    # session, which makes Django refuse ORM calls from the tests (and from every test
    # after this one) as if they came from async code. They don't.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    from playwright.sync_api import expect

    # What a page shows is waited for as long as a tap may take (ACTION_MS): on a
    # loaded 2-core machine an answer swapped in can come after Playwright's 5 s.
    expect.set_options(timeout=ACTION_MS)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        yield chromium
        chromium.close()


class Phone:
    """Browser contexts at phone size on the live server, every page watched for
    JavaScript errors, console errors and failed requests."""

    def __init__(self, browser: Any, base_url: str, session_cookie: dict[str, str]) -> None:
        self.browser = browser
        self.base_url = base_url
        self.session_cookie = session_cookie
        self.contexts: list[Any] = []
        self.problems: list[str] = []
        self.allowed: list[re.Pattern[str]] = []

    def allow(self, pattern: str) -> None:
        """A problem the test itself causes (a server error, the network cut off) is
        not a fault: leave out problems matching ``pattern``."""
        self.allowed.append(re.compile(pattern))

    def faults(self) -> list[str]:
        return [p for p in self.problems if not any(a.search(p) for a in self.allowed)]

    def new_page(self, context: Any = None, *, signed_in: bool = True, **options: Any) -> Any:
        """A page in ``context``, or in a new context (another phone) made with
        ``options`` (e.g. ``java_script_enabled=False``), signed in as the owner of
        the ``club`` fixture unless ``signed_in`` is false."""
        if context is None:
            options = {"locale": "en-US", **options}
            context = self.browser.new_context(viewport=PHONE, base_url=self.base_url, **options)
            if signed_in:
                context.add_cookies([{**self.session_cookie, "url": self.base_url}])
            self.contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(ACTION_MS)
        # A fresh context's first page (its server rendering, its files, the service
        # worker's install beside it) can pass 5 s on a loaded 2-core machine; how fast
        # pages are is measured by the benchmarks, not here.
        page.set_default_navigation_timeout(NAVIGATION_MS)
        self._watch(page)
        return page

    def restartable(self, profile: Path) -> Any:
        """A page of a browser whose profile (cookies, storage, service workers) is kept
        in ``profile``: closing its context and calling this again is a phone whose
        browser was restarted. Signed in with a cookie that outlives the restart."""
        context = self.browser.browser_type.launch_persistent_context(
            str(profile),
            executable_path=str(CHROMIUM),
            args=CHROMIUM_ARGS,
            headless=True,
            viewport=PHONE,
            base_url=self.base_url,
            locale="en-US",
        )
        expires = time.time() + 3600
        context.add_cookies([{**self.session_cookie, "url": self.base_url, "expires": expires}])
        self.contexts.append(context)
        return self.new_page(context)

    def _watch(self, page: Any) -> None:
        problems = self.problems
        page.add_init_script(CSP_WATCH)
        page.on("pageerror", lambda error: problems.append(f"JavaScript error: {error}"))

        def console(message: Any) -> None:
            if message.type == "error" and not EXPECTED_STATUS_LOGS.search(message.text):
                problems.append(f"console error on {page.url}: {message.text}")

        def response(answer: Any) -> None:
            if answer.status >= 500 or (answer.status >= 400 and "/static/" in answer.url):
                problems.append(f"{answer.status} for {answer.request.method} {answer.url}")

        def failed(request: Any) -> None:
            # A poll cut short by leaving the page is not a fault.
            if "ERR_ABORTED" not in (request.failure or ""):
                problems.append(f"request failed: {request.url} ({request.failure})")

        page.on("console", console)
        page.on("response", response)
        page.on("requestfailed", failed)

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@contextmanager
def phone_at(browser: Any, base_url: str, user: Any, club: Club) -> Iterator[Phone]:
    """A ``Phone`` on the server at ``base_url``, signed in as ``user``; fails the test on
    any JavaScript error once it is done."""
    signed_in = sign_in(Client(), user, club)
    cookie = signed_in.cookies[settings.SESSION_COOKIE_NAME]
    phone = Phone(browser, base_url, {"name": cookie.key, "value": cookie.value})
    yield phone
    phone.close()
    assert not phone.faults(), "\n".join(phone.faults())


@pytest.fixture
def phone(browser, live_server, user, club):
    """Pages at 360x740 on the live server; the test fails on any JavaScript error."""
    with phone_at(browser, live_server.url, user, club) as phone:
        yield phone


@pytest.fixture
def page(phone):
    """One phone's page on the live server."""
    return phone.new_page()


# ---- Redis (the shared cache and the RQ queue of several machines) ----


@pytest.fixture
def redis_url() -> str:
    """A Redis database of the tests' own on the server REDIS_TEST_URL names
    (redis://127.0.0.1:6379), emptied before and after each test: database 1, or
    1 + N for the parallel runner's worker N, so that no two workers share one. Without
    the server the tests that need it are skipped, and fail with CI set: `.ci/run`
    starts Debian's Redis for them."""
    server_url = os.environ.get("REDIS_TEST_URL", "").rstrip("/")
    if not server_url:
        if os.environ.get("CI"):
            pytest.fail("REDIS_TEST_URL is not set, and CI is: .ci/run starts Redis.")
        pytest.skip("REDIS_TEST_URL is not set")
    import redis

    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw")
    url = f"{server_url}/{1 + int(worker)}"
    server = redis.Redis.from_url(url)
    server.flushdb()
    yield url
    server.flushdb()
