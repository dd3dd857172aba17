"""The table keeps scoring with no network, in headless Chromium: the service worker
opens a game the phone has seen, hands saved offline wait on the phone (IndexedDB)
through a reload and a browser restart, and go to the server in order, each once, when
the network returns; a hand another phone got in first is shown for a person to settle.

The network is cut with Playwright's ``context.set_offline``. Each test runs on the
development server and on a production-mode one (tests/browser/conftest.py)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from pitchkeeper.core.service_worker import engine_files
from pitchkeeper.games.hands import change_restore, hand_delete, hand_edit, hand_record
from pitchkeeper.games.models import Game, Hand, HandChange
from pitchkeeper.games.replay import game_state
from pitchkeeper.rules import HandRecord
from tests.browser.test_game import SETBACK_TABLE, open_game, save, shown_scores
from tests.browser.test_instant_totals import SETTLED
from tests.browser.test_integrity import enter

pytestmark = pytest.mark.browser

# Ann deals first. Two are set back, and nobody reaches the target of 7 in these five.
FIVE = [("Bob", 2, "Bob"), ("Cy", 2, "Cy"), ("Ann", 2, "Ann"), ("Bob", 3, "Cy"), ("Ann", 2, "Bob")]
# Whether the page is in the service worker's cache, asked for up to ten seconds
# (wait_for_function would not wait for the promise), as the worker finds what it serves
# (whatever the answer's Vary).
KEPT = """async (urls) => {
  for (let tries = 0; tries < 200; tries++) {
    const found = await Promise.all(urls.map((url) => caches.match(url, { ignoreVary: true })));
    if (found.every(Boolean)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}"""
# How long a sync may take once the network is back: the phones' engines start meanwhile,
# and on a shared two-core test machine that takes seconds.
SYNCED = 20_000
# How long the phone's engine may take to start on a first visit, on a shared two-core
# test machine under load.
ENGINE_START = 90_000
OFFLINE_LOGS = r"ERR_INTERNET_DISCONNECTED|htmx:(afterRequest|sendError)"


# A row's name: its own first text, without its badges.
OWN_NAME = "(row) => row.firstChild.textContent.trim()"

# How many hands wait on the phone (IndexedDB), kept ones included.
QUEUED = """() => new Promise((resolve, reject) => {
  const request = indexedDB.open("pitchkeeper", 1);
  request.onsuccess = () => {
    const count = request.result.transaction("hands").objectStore("hands").count();
    count.onsuccess = () => resolve(count.result);
    count.onerror = () => reject(count.error);
  };
  request.onerror = () => reject(request.error);
})"""


# Save tapped, and in the same task, before any other: the totals on the screen, whether
# they are marked as the phone's, and how many hands the phone's storage holds then (a
# transaction begun first is answered as things were before any begun after it; the
# database is opened beforehand, so that the count's transaction is begun first).
AT_TAP = """async () => {
  const db = await new Promise((resolve, reject) => {
    const request = indexedDB.open("pitchkeeper", 1);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  return new Promise((resolve, reject) => {
    const count = db.transaction("hands").objectStore("hands").count();
    document.querySelector('#entry button[name="action"][value="save"]').click();
    const totals = {};
    for (const side of document.querySelectorAll(".scores > .side")) {
      const total = side.querySelector(".total").textContent;
      totals[side.querySelector(".name").textContent.trim()] = Number(total);
    }
    const unconfirmed = document.querySelector(".scoreboard").classList.contains("unconfirmed");
    count.onsuccess = () => resolve({ totals, unconfirmed, kept: count.result });
    count.onerror = () => reject(count.error);
  });
}"""


@pytest.fixture
def phone(served_phone):
    """Each test on the development server and on a production-mode one."""
    return served_phone


def queue(page: Any) -> Any:
    return page.locator("#queue")


def waiting(page: Any) -> Any:
    return page.locator("#queue [data-count]")


def waiting_text(count: int) -> str:
    return f"{count} hand{'' if count == 1 else 's'} waiting to be sent"


def kept(page: Any, count: int) -> None:
    """Wait until ``count`` hands wait on the phone and the form takes taps again. Both
    come once the phone's engine has read the hand and worked out the totals, which on
    a first offline save waits for the engine to start: a person waits as well."""
    expect(waiting(page)).to_have_text(waiting_text(count), timeout=ENGINE_START)
    form = page.locator("form.hand-form")
    expect(form).not_to_have_attribute("aria-busy", "true", timeout=ENGINE_START)


def shown_roles(page: Any) -> tuple[str, str]:
    """Who the screen says deals and bids first, the same on the grid's rows and the
    tiles (the page's words for screen readers too)."""
    grid = page.locator("#entry .bid-grid .who")
    dealer = grid.filter(has=page.locator(".tag.role.deals"))
    first = grid.filter(has=page.locator(".tag.role:not(.deals)"))
    expect(dealer).to_have_count(1)
    expect(first).to_have_count(1)
    names = (dealer.evaluate(OWN_NAME), first.evaluate(OWN_NAME))
    expect(page.locator(".scores > .side.deals .name")).to_have_text(names[0])
    expect(page.locator(".scores > .side:not(.deals):has(.tag.role) .name")).to_have_text(names[1])
    said = page.locator(".scoreboard .target .visually-hidden")
    expect(said).to_have_text(f"{names[0]} deals, {names[1]} bids first.")
    # The whole auction's turns, from the first bidder round to the dealer (three here).
    turns = page.locator("#entry .auction fieldset > legend").all_text_contents()
    assert (turns[0], turns[2]) == (names[1], names[0])
    return names


def open_ready(page: Any, game: Game) -> None:
    """Open the game and wait for its offline queue (fetched once the page has loaded)."""
    open_game(page, game)
    expect(page.locator("#queue[data-ready]")).to_be_attached()


def open_kept(page: Any, game: Game) -> None:
    """Open the game and wait until the service worker looks after the page and has
    kept a copy of it, as a phone has after a first visit with the network."""
    open_ready(page, game)
    # The worker controls the page once it has installed, which keeps the start pages
    # first (a second install when the network went during the first).
    page.wait_for_function(
        "() => navigator.serviceWorker.controller !== null", timeout=ENGINE_START
    )
    # The worker says so once the engine has started and all is kept (till then the
    # screen would say "not ready" with the network gone).
    expect(page.locator("#queue[data-kept]")).to_be_attached(timeout=ENGINE_START)
    kept = [f"/games/{game.pk}/", f"/games/{game.pk}/queue/", *engine_files()]
    assert page.evaluate(KEPT, kept), "the service worker did not keep the game and the engine"


def kept_then_offline(phone: Any, make_game: Any) -> tuple[Game, Any]:
    """A setback game opened and kept on a phone, which then loses the network."""
    game = make_game("setback", SETBACK_TABLE).game
    page = phone.new_page()
    open_kept(page, game)
    phone.allow(OFFLINE_LOGS)
    page.context.set_offline(True)
    return game, page


def test_five_hands_offline_through_a_reload_are_recorded_once(phone, make_game):
    game = make_game("setback", SETBACK_TABLE).game
    page = phone.new_page()
    open_kept(page, game)
    phone.allow(OFFLINE_LOGS)

    page.context.set_offline(True)
    expect(waiting(page)).to_have_text(re.compile("^No connection"))
    for count, (pitcher, bid, taker) in enumerate(FIVE, start=1):
        enter(page, pitcher, bid, taker)
        save(page)
        kept(page, count)
        # The next hand's dealer, as the phone's engine has it, on the heading, the
        # grid's rows and the tiles; the player on their left bids first.
        dealer = SETBACK_TABLE[count % 3]
        expect(page.locator("#entry-title")).to_contain_text(f"Hand {count + 1}: {dealer} deals")
        assert shown_roles(page) == (dealer, SETBACK_TABLE[(count + 1) % 3])
        # A fresh form for the next hand.
        expect(page.locator("#entry input:checked")).to_have_count(0)
    assert Hand.objects.count() == 0
    offline_roles = shown_roles(page)

    # Reloaded with no network: the page from the phone's cache, the hands still there,
    # and the totals with them from the phone's own engine, marked as not yet sent.
    page.reload()
    expect(waiting(page)).to_have_text(waiting_text(5))
    # The engine starts again from the phone's cache: seconds on a shared test machine.
    expect(page.locator(".scoreboard.unconfirmed")).to_be_visible(timeout=30_000)
    expect(page.locator("#queue [data-note]")).to_be_hidden()
    expect(page.locator("#entry-title")).to_contain_text("Hand 6: Cy deals")
    phone_totals = shown_scores(page)
    assert phone_totals == {"Ann": 1, "Bob": 3, "Cy": 6}
    assert Hand.objects.count() == 0

    page.context.set_offline(False)
    expect(queue(page)).to_be_hidden(timeout=SYNCED)
    expect(page.locator("ol.history > li")).to_have_count(5)
    hands = list(Hand.objects.filter(game=game).order_by("number"))
    assert [hand.number for hand in hands] == [1, 2, 3, 4, 5]
    assert len({hand.token for hand in hands}) == 5
    assert [hand.pitcher.name for hand in hands] == [pitcher for pitcher, _bid, _taker in FIVE]
    assert shown_scores(page) == game_state(game=game).result.scores == phone_totals
    expect(page.locator(".scoreboard.unconfirmed")).to_have_count(0)
    # The server's form for hand 6 has the roles the phone showed for it.
    expect(page.locator("#entry-title")).to_contain_text("Hand 6: Cy deals")
    assert shown_roles(page) == offline_roles

    # Nothing is sent twice: a reload online finds nothing waiting.
    page.reload()
    expect(page.locator("ol.history > li")).to_have_count(5)
    expect(queue(page)).to_be_hidden(timeout=SYNCED)
    assert Hand.objects.filter(game=game).count() == 5


def test_two_phones_offline_on_one_game_the_conflict_is_shown_and_settled_by_a_person(
    phone, make_game
):
    game = make_game("setback", SETBACK_TABLE).game
    first, second = phone.new_page(), phone.new_page()
    for page in (first, second):
        open_kept(page, game)
        page.context.set_offline(True)
    phone.allow(OFFLINE_LOGS)
    enter(first, "Bob", 2, "Bob")
    save(first)
    enter(second, "Cy", 3, "Cy")
    save(second)
    expect(waiting(first)).to_have_text(waiting_text(1))
    expect(waiting(second)).to_have_text(waiting_text(1))

    first.context.set_offline(False)
    expect(queue(first)).to_be_hidden(timeout=SYNCED)
    expect(first.locator("ol.history > li")).to_have_count(1)

    second.context.set_offline(False)
    conflict = second.locator("#queue [data-conflict]")
    expect(conflict).to_be_visible(timeout=SYNCED)
    expect(conflict).to_contain_text("Hand 1 from this phone was not recorded")
    expect(conflict).to_contain_text("Hand 1 was saved from another phone meanwhile")
    # Both: the server's hand 1 on the table, this phone's entry kept in the form.
    expect(waiting(second)).to_have_text(waiting_text(1))
    expect(second.locator("ol.history > li")).to_have_count(1)
    expect(second.locator('#entry input[name="contract"][value="Cy:3"]')).to_be_checked()
    assert Hand.objects.filter(game=game).count() == 1

    # Nothing is settled by itself: a reload still shows it, and sends nothing.
    second.reload()
    expect(conflict).to_be_visible()
    expect(second.locator('#entry input[name="contract"][value="Cy:3"]')).to_be_checked()
    assert Hand.objects.filter(game=game).count() == 1

    conflict.get_by_role("button", name="Enter as next hand").click()
    expect(queue(second)).to_be_hidden(timeout=SYNCED)
    expect(second.locator("ol.history > li")).to_have_count(2)
    hands = list(Hand.objects.filter(game=game).order_by("number"))
    assert [hand.pitcher.name for hand in hands] == ["Bob", "Cy"]
    assert shown_scores(second) == game_state(game=game).result.scores


def test_a_conflicting_hand_can_be_discarded(phone, make_game):
    game = make_game("setback", SETBACK_TABLE).game
    first, second = phone.new_page(), phone.new_page()
    for page in (first, second):
        open_kept(page, game)
    phone.allow(OFFLINE_LOGS)
    second.context.set_offline(True)
    enter(second, "Cy", 3, "Cy")
    save(second)
    enter(first, "Bob", 2, "Bob")
    save(first)
    expect(first.locator("ol.history > li")).to_have_count(1)

    second.context.set_offline(False)
    conflict = second.locator("#queue [data-conflict]")
    expect(conflict).to_be_visible()
    conflict.get_by_role("button", name="Discard").click()
    # Asked first: the hand is on this phone only.
    conflict.locator("[data-discard-yes]").click()
    expect(queue(second)).to_be_hidden(timeout=SYNCED)
    # The server's game, and an empty form for hand 2.
    expect(second.locator("#entry-title")).to_contain_text("Hand 2")
    expect(second.locator("#entry input:checked")).to_have_count(0)
    assert [hand.pitcher.name for hand in Hand.objects.filter(game=game)] == ["Bob"]
    expect(second.locator(".scoreboard.unconfirmed")).to_have_count(0)
    assert shown_scores(second) == game_state(game=game).result.scores


def test_hands_wait_through_a_browser_restart_and_a_second_tab(phone, make_game, tmp_path):
    game = make_game("setback", SETBACK_TABLE).game
    profile = tmp_path / "phone"
    page = phone.restartable(profile)
    open_kept(page, game)
    phone.allow(OFFLINE_LOGS)
    page.context.set_offline(True)
    for count, (pitcher, bid, taker) in enumerate(FIVE[:2], start=1):
        enter(page, pitcher, bid, taker)
        save(page)
        kept(page, count)

    # Another tab of the same browser sees the same two, and adds a third after them.
    tab = phone.new_page(page.context)
    tab.goto(f"/games/{game.pk}/")
    expect(waiting(tab)).to_have_text(waiting_text(2))
    expect(tab.locator("#entry-title")).to_contain_text("Hand 3")
    enter(tab, *FIVE[2])
    save(tab)
    expect(waiting(tab)).to_have_text(waiting_text(3))
    page.context.close()
    assert Hand.objects.count() == 0

    # The browser started again, still with no network: the game opens from the phone.
    page = phone.restartable(profile)
    page.context.set_offline(True)
    page.goto(f"/games/{game.pk}/")
    expect(waiting(page)).to_have_text(waiting_text(3))
    assert Hand.objects.count() == 0

    page.context.set_offline(False)
    expect(queue(page)).to_be_hidden(timeout=SYNCED)
    expect(page.locator("ol.history > li")).to_have_count(3)
    assert [hand.pitcher.name for hand in Hand.objects.filter(game=game).order_by("number")] == [
        "Bob",
        "Cy",
        "Ann",
    ]


def test_signing_out_forgets_the_kept_pages(phone, make_game):
    game = make_game("setback", SETBACK_TABLE).game
    page = phone.new_page()
    open_kept(page, game)

    page.get_by_text("Menu").click()
    page.get_by_role("button", name="Sign out").click()
    page.wait_for_url("**/accounts/**")

    forgotten = page.evaluate(
        """async (path) => {
          for (let tries = 0; tries < 100; tries++) {
            if (!(await caches.match(path))) return true;
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
          return false;
        }""",
        f"/games/{game.pk}/",
    )
    assert forgotten, "the game page is still kept after signing out"


def test_taps_for_the_next_hand_survive_the_sync(phone, make_game):
    game, page = kept_then_offline(phone, make_game)
    enter(page, *FIVE[0])
    save(page)
    # Kept, and the form cleared for the next hand, which is half entered when the
    # network returns.
    kept(page, 1)
    enter(page, "Cy", 3, "Cy")

    page.context.set_offline(False)
    expect(queue(page)).to_be_hidden(timeout=SYNCED)
    expect(page.locator("#entry-title")).to_contain_text("Hand 2: Bob deals")
    expect(page.locator('#entry input[name="contract"][value="Cy:3"]')).to_be_checked()
    expect(page.locator('#entry input[name="point_high"][value="Cy"]')).to_be_checked()
    assert Hand.objects.filter(game=game).count() == 1


def test_taps_while_the_phone_keeps_a_hand_wait_for_it(phone, make_game):
    """A slow phone: its engine takes a second and a half to check a saved hand. The
    form waits meanwhile, so the next hand's taps are neither cleared with it nor lost."""
    game, page = kept_then_offline(phone, make_game)
    page.evaluate(
        """() => {
          const post = Worker.prototype.postMessage;
          Worker.prototype.postMessage = function (...message) {
            setTimeout(() => post.apply(this, message), 1500);
          };
        }"""
    )
    enter(page, *FIVE[0])
    save(page)
    form = page.locator("form.hand-form")
    expect(form).to_have_attribute("aria-busy", "true")
    # The taps wait as a person's would, for as long as a slow phone takes.
    expect(form).not_to_have_attribute("aria-busy", "true", timeout=SYNCED)
    enter(page, *FIVE[1])
    save(page)
    expect(waiting(page)).to_have_text(waiting_text(2), timeout=SYNCED)
    expect(form).not_to_have_attribute("aria-busy", "true")
    assert page.evaluate(QUEUED) == 2


def test_the_waiting_box_at_the_top_covers_nothing_scrolled_to(phone, make_game):
    """The box of waiting hands stays at the top of the screen while the form is scrolled:
    the table put in place after a save, and a pill the page is asked to bring to the
    top (a script, a screen reader's cursor), come out below it, not behind it, where a
    tap would land on the box."""
    game, page = kept_then_offline(phone, make_game)
    enter(page, *FIVE[0])
    save(page)
    kept(page, 1)
    box = queue(page).bounding_box()
    assert box["y"] == 0, "the box is not at the top of the screen"
    table = page.locator("#table").bounding_box()
    assert table["y"] >= box["height"], f"the table starts behind the box: {table}, {box}"

    pill = page.locator('label.pill:has(> input[name="contract"][value="Cy:2"])')
    pill.evaluate("(pill) => pill.scrollIntoView({ block: 'start' })")
    top = pill.bounding_box()["y"]
    assert top >= queue(page).bounding_box()["height"], f"the pill at {top} is behind the box"
    pill.click(trial=True, timeout=1000)


def test_a_hand_saved_offline_shows_its_totals_before_it_is_kept(phone, make_game):
    """Offline as online, the Save tap finds the hand read and played while the form was
    filled in: its totals are on the screen in the tap's own task, before anything is
    written to the phone's storage (how soon, in ms: bench/bench_instant.py)."""
    game, page = kept_then_offline(phone, make_game)
    enter(page, *FIVE[0])
    page.evaluate(SETTLED)
    at_tap = page.evaluate(AT_TAP)
    assert at_tap["unconfirmed"], "the totals at the tap are not marked as the phone's"
    assert at_tap["kept"] == 0, "the hand was written before its totals were shown"

    expect(waiting(page)).to_have_text(waiting_text(1))
    page.context.set_offline(False)
    expect(queue(page)).to_be_hidden(timeout=SYNCED)
    assert at_tap["totals"] == shown_scores(page) == {"Ann": 0, "Bob": 3, "Cy": 0}
    assert at_tap["totals"] == game_state(game=Game.objects.get(pk=game.pk)).result.scores


def test_an_incomplete_entry_offline_is_told_and_not_kept(phone, make_game):
    game, page = kept_then_offline(phone, make_game)
    page.locator('label.pill:has(> input[name="contract"][value="Bob:2"])').click()
    save(page)

    # In the engine's words: all that is missing, at once.
    expect(page.locator("#queue [data-refused]")).to_have_text(
        "Not kept: Say who took High. Say who took Low. Say who took Jack. Say who took Game."
    )
    expect(waiting(page)).to_have_text(re.compile("^No connection"))
    # The entry stays in the form, to be finished.
    expect(page.locator('#entry input[name="contract"][value="Bob:2"]')).to_be_checked()
    enter(page, *FIVE[0])
    save(page)
    expect(waiting(page)).to_have_text(waiting_text(1))
    expect(page.locator("#queue [data-refused]")).to_be_hidden()


@pytest.mark.parametrize(
    ("locale", "missing", "dealer_bids"),
    [
        (
            "ru-RU",
            "Не сохранено: Укажите, кто взял «Старший». Укажите, кто взял «Младший». "
            "Укажите, кто взял «Валет». Укажите, кто взял «Гейм».",
            "Не сохранено: все остальные спасовали, поэтому сдающий, Ann, должен заявить не "
            "меньше 2",
        ),
        (
            "nb-NO",
            "Ikke tatt vare på: Oppgi hvem som tok «Høy». Oppgi hvem som tok «Lav». "
            "Oppgi hvem som tok «Knekt». Oppgi hvem som tok «Stikkpoeng».",
            "Ikke tatt vare på: alle andre passet, så giveren, Ann, må by minst 2",
        ),
    ],
)
def test_an_entry_refused_offline_is_told_in_the_language_of_the_page(
    phone, make_game, locale, missing, dealer_bids
):
    """The phone's engine refuses in English; the page words its refusal (code and
    parameters) from the server's catalog: an entry the form refuses (a point nobody
    was said to take, named in the table's word) and a hand the rules refuse."""
    game = make_game("auction-pitch", SETBACK_TABLE).game
    page = phone.new_page(locale=locale)
    open_kept(page, game)
    phone.allow(OFFLINE_LOGS)
    page.context.set_offline(True)
    refused = page.locator("#queue [data-refused]")

    page.locator('label.pill:has(> input[name="contract"][value="Bob:2"])').click()
    save(page)
    expect(refused).to_have_text(missing)
    expect(refused).to_be_in_viewport()

    page.locator('#entry button[name="action"][value="passed"]').click()
    expect(refused).to_have_text(dealer_bids)
    expect(refused).to_be_in_viewport()
    assert page.evaluate(QUEUED) == 0
    assert Hand.objects.count() == 0


def _played(pitcher: str, bid: int = 2) -> HandRecord:
    return HandRecord(
        pitcher=pitcher,
        bid=bid,
        points={"high": pitcher, "low": pitcher, "jack": None, "game": pitcher},
    )


# Another phone's change while a hand waits here, and what the queue box then says.
OTHER_PHONE = {
    "edit": (
        lambda game: hand_edit(game=game, number=1, record=_played("Cy", 3)),
        "Hand 1 was changed from another phone meanwhile",
    ),
    "delete": (
        lambda game: hand_delete(game=game, number=1),
        "Hand 1 was deleted from another phone meanwhile",
    ),
    "undo": (
        lambda game: hand_delete(game=game, number=2, undo=True),
        "Hand 2 was undone from another phone meanwhile",
    ),
    "restore": (
        lambda game: change_restore(
            game=game, change=game.changes.get(action=HandChange.Action.DELETE)
        ),
        "Hand 3 was restored from another phone meanwhile",
    ),
}


@pytest.mark.parametrize("change", OTHER_PHONE)
def test_a_waiting_hand_is_held_when_another_phone_changed_the_hands(phone, make_game, change):
    # Two hands played; a third recorded and deleted, so that there is one to restore.
    game = make_game("setback", SETBACK_TABLE).game
    for pitcher in ("Bob", "Cy", "Ann"):
        hand_record(game=game, record=_played(pitcher))
    hand_delete(game=game, number=3)
    page = phone.new_page()
    open_kept(page, game)
    phone.allow(OFFLINE_LOGS)
    page.context.set_offline(True)
    enter(page, "Ann", 3, "Ann")
    save(page)
    expect(waiting(page)).to_have_text(waiting_text(1))
    act, said = OTHER_PHONE[change]
    act(game)
    hands = list(game.hands.values_list("pk", "version"))

    page.context.set_offline(False)

    conflict = page.locator("#queue [data-conflict]")
    expect(conflict).to_be_visible(timeout=SYNCED)
    expect(conflict).to_contain_text("Hand 3 from this phone was not recorded")
    expect(conflict).to_contain_text(said)
    expect(page.locator('#entry input[name="contract"][value="Ann:3"]')).to_be_checked()
    assert list(game.hands.values_list("pk", "version")) == hands
    assert not game.hands.filter(pitcher__name="Ann", bid=3).exists()
