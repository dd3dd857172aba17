"""Offline, the phone draws each next hand's form itself, with the server's rules engine
run by Brython: ten hands of four-player setback entered with no network (two steals,
a misdeal, an all-pass and the smudge that wins the game), and at each hand the phone's
form (who deals, who bids first, each turn of the whole auction with its bidder and the
bids it offers, and which turns are shown) is the form the server shows for that same
hand of the same game once the hands are sent. All ten are then recorded once, with the
totals the phone showed."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from pitchkeeper.games.models import Hand
from pitchkeeper.games.replay import game_state
from tests.browser.test_game import open_game, pick, pick_contract, save, shown_scores
from tests.browser.test_offline import (
    OFFLINE_LOGS,
    SYNCED,
    open_kept,
    queue,
    waiting,
    waiting_text,
)
from tests.conftest import first_held, hold_first
from tests.games.test_auction_offer import server_turns
from tests.games.test_views_variants import new_game

pytestmark = pytest.mark.browser

TABLE = ("Ann", "Bob", "Cy", "Dee")
EVERY_POINT = ("high", "low", "jack", "game")

# The ten hands, each (the dealer the rules give it, what is entered): the whole auction
# in bidding order with who takes each point, one tap on the grid, or a button. Ann deals
# first; a misdeal passes the deal on, an all-pass (setback's redeal) does not.
TEN = [
    (
        "Ann",
        {"auction": ["2", "pass", "3", "3"], "points": ["Ann", "Ann", None, "Ann"]},
    ),  # Ann steals Dee's 3
    ("Bob", "misdeal"),
    ("Cy", "passed"),
    ("Cy", {"contract": ("Dee", 2), "points": ["Dee", "Dee", None, "Dee"]}),
    (
        "Dee",
        {"auction": ["2", "3", "pass", "pass"], "points": ["Bob", "Bob", None, "Cy"]},
    ),  # Bob set back
    ("Ann", {"contract": ("Bob", 2), "points": ["Bob", "Bob", None, "Bob"]}),
    (
        "Bob",
        {"auction": ["pass", "2", "pass", "2"], "points": ["Bob", "Bob", None, "Dee"]},
    ),  # Bob steals
    ("Cy", {"contract": ("Ann", 2), "points": ["Ann", "Ann", None, "Cy"]}),
    ("Dee", {"contract": ("Cy", 3), "points": ["Cy", "Cy", None, "Cy"]}),
    ("Ann", {"auction": ["pass", "4", "pass", "pass"], "points": ["Cy"] * 4}),  # Cy's smudge wins
]
# The totals after the ninth hand, from the seed's scoring worked out by hand: nobody at
# 7 yet, so that the smudge is what wins.
AFTER_NINE = {"Ann": 5, "Bob": 2, "Cy": 5, "Dee": 4}

# The hand form as the phone shows it: its heading, who the grid says deals and bids
# first, each whole-auction field (its number, whether shown, its legend, the entries it
# does not offer) and the auction's entries as the form would post them.
FORM = """() => {
  const form = document.getElementById("entry");
  const own = (row) => row.firstChild.textContent.trim();
  const rows = [...form.querySelectorAll(".bid-grid .who")];
  const dealer = rows.find((row) => row.querySelector(".tag.role.deals"));
  const first = rows.find((row) => row.querySelector(".tag.role:not(.deals)"));
  const turns = [...form.querySelectorAll("#auction .turn")].map((holder) => {
    const inputs = [...holder.querySelectorAll('input[name^="auction_"]')];
    const off = inputs.filter((input) => input.disabled).map((input) => input.value);
    const legend = holder.querySelector("legend").textContent.trim();
    return [Number(inputs[0].name.slice("auction_".length)), !holder.hidden, legend, off];
  });
  const fields = {};
  for (const [name, value] of new FormData(form)) {
    if (name.startsWith("auction_")) (fields[name] ||= []).push(value);
  }
  const title = document.getElementById("entry-title").textContent.trim();
  return { title, dealer: dealer && own(dealer), first: first && own(first), turns, fields };
}"""


@pytest.fixture
def phone(served_phone):
    """On the development server and on a production-mode one."""
    return served_phone


def settled(page: Any) -> None:
    """Wait until the phone has drawn the auction for the form as it is now."""
    expect(page.locator("#auction[aria-busy]")).to_have_count(0, timeout=SYNCED)


def enter_hand(page: Any, entry: dict[str, Any]) -> None:
    if "auction" in entry:
        if not page.locator("details.auction[open]").count():
            page.locator("details.auction > summary").click()
        for index, bid in enumerate(entry["auction"]):
            pick(page, f"auction_{index}", bid)
            settled(page)
    else:
        pick_contract(page, *entry["contract"])
    for key, side in zip(EVERY_POINT, entry["points"], strict=True):
        pick(page, f"point_{key}", side)
    settled(page)


def server_form(
    client: Any, game: Any, number: int, fields: dict[str, list[str]]
) -> dict[str, Any]:
    """The server's form for hand ``number`` of the game, with the phone's entries: its
    heading and roles from the hand's page, its auction from the auction helper."""
    page = client.get(reverse("hand_edit", args=[game.pk, number])).content.decode()
    title = re.search(r"<h1>(Hand \d+: \w+ deals)</h1>", page)[1]
    dealer = re.search(r'class="who" aria-hidden="true">(\w+) <span class="tag role deals">', page)
    first = re.search(r'class="who" aria-hidden="true">(\w+) <span class="tag role">', page)
    url = reverse("hand_auction", args=[game.pk, number])
    auction = client.post(url, {"action": "save", **fields}, HTTP_HX_REQUEST="true")
    turns = [
        [index, shown, legend, sorted(off)]
        for index, shown, legend, off in server_turns(auction.content.decode())
    ]
    return {"title": title, "dealer": dealer[1], "first": first[1], "turns": turns}


def test_ten_hands_offline_each_entered_on_the_form_the_server_draws_for_it(
    phone, make_game, client
):
    game = make_game("setback", TABLE).game
    page = phone.new_page()
    open_kept(page, game)
    phone.allow(OFFLINE_LOGS)
    page.context.set_offline(True)

    forms = []
    for number, (dealer, entry) in enumerate(TEN, start=1):
        if number > 1:
            # The heading turns first: wait for the phone's own auction after it.
            expect(page.locator("#entry-title")).to_contain_text(f"Hand {number}: {dealer} deals")
            settled(page)
        if isinstance(entry, dict):
            enter_hand(page, entry)
        shown = page.evaluate(FORM)
        shown["turns"] = [
            [index, visible, legend, sorted(off)] for index, visible, legend, off in shown["turns"]
        ]
        forms.append(shown)
        if number == 10:
            assert shown_scores(page) == AFTER_NINE
        if isinstance(entry, dict):
            save(page)
        else:
            page.locator(f'#entry button[name="action"][value="{entry}"]').click()
        expect(waiting(page)).to_have_text(waiting_text(number))
    # The smudge won the game on the phone: no further hand is asked for.
    expect(page.locator("#entry")).to_be_hidden()
    phone_totals = shown_scores(page)
    assert phone_totals["Cy"] == AFTER_NINE["Cy"] + 4
    assert Hand.objects.filter(game=game).count() == 0

    page.context.set_offline(False)
    expect(queue(page)).to_be_hidden(timeout=SYNCED)
    hands = list(Hand.objects.filter(game=game).order_by("number"))
    assert [hand.number for hand in hands] == list(range(1, 11))
    assert len({hand.token for hand in hands}) == 10
    state = game_state(game=game)
    assert state.result.scores == phone_totals == shown_scores(page)
    assert (state.result.winner, [hand.dealer for hand in state.result.hands]) == (
        "Cy",
        [dealer for dealer, _entry in TEN],
    )

    for number, shown in enumerate(forms, start=1):
        fields = shown.pop("fields")
        server = server_form(client, game, number, fields)
        assert shown == server, f"hand {number}"
    # What was compared says something: after Bob's 2 the later turns refuse 2, but Ann,
    # dealing, may take Dee's 3 (a steal); in hand 7 Bob, dealing, may take Dee's 2.
    assert forms[0]["turns"] == [
        [0, True, "Bob", []],
        [1, True, "Cy", ["2"]],
        [2, True, "Dee", ["2"]],
        [3, True, "Ann", ["2"]],
    ]
    assert forms[6]["turns"][3] == [3, True, "Bob", []]
    assert forms[6]["turns"][2] == [2, True, "Ann", ["2"]]


def test_offline_a_forced_bid_ticked_changes_what_the_auction_offers(phone, make_game, client):
    # Nine-five forces a player holding the 9 with another trump to bid 9 (seed 003).
    game = new_game(make_game, "nine-five").game
    page = phone.new_page()
    open_kept(page, game)
    phone.allow(OFFLINE_LOGS)
    page.context.set_offline(True)

    page.locator("details.forced > summary").click()
    pick(page, "forced", "Cy")
    page.locator("details.auction > summary").click()
    pick(page, "auction_0", "pass")
    settled(page)

    # Cy, forced, may neither pass nor bid below 9; Bob was free to.
    cy = page.locator('#auction input[name="auction_1"]')
    expect(cy.and_(page.locator('[value="pass"]'))).to_be_disabled()
    expect(cy.and_(page.locator('[value="8"]'))).to_be_disabled()
    expect(cy.and_(page.locator('[value="9"]'))).to_be_enabled()
    shown = page.evaluate(FORM)
    fields = {**shown["fields"], "forced": ["Cy"]}
    auction = client.post(
        reverse("auction", args=[game.pk]), {"action": "save", **fields}, HTTP_HX_REQUEST="true"
    )
    server = [
        [i, s, legend, sorted(off)] for i, s, legend, off in server_turns(auction.content.decode())
    ]
    assert [[i, s, legend, sorted(off)] for i, s, legend, off in shown["turns"]] == server


def test_online_a_forced_bid_ticked_redraws_the_auction_too(phone, make_game):
    game = new_game(make_game, "nine-five").game
    page = phone.new_page()
    open_game(page, game)
    page.locator("details.auction > summary").click()
    pick(page, "auction_0", "pass")
    cy_passes = page.locator('#auction input[name="auction_1"][value="pass"]')
    expect(cy_passes).to_be_enabled()

    # Ticked after the auction's entries: the server redraws the auction with it.
    page.locator("details.forced > summary").click()
    pick(page, "forced", "Cy")
    expect(cy_passes).to_be_disabled()
    expect(page.locator('#auction input[name="auction_1"][value="9"]')).to_be_enabled()


def test_online_a_tick_just_after_the_auction_is_redrawn_is_not_lost(phone, make_game):
    """A forced bid ticked a few milliseconds after the auction's answer is drawn: the
    redrawn auction already listens for it (htmx had left it deaf for its settle delay,
    20 ms, and the tick was lost)."""
    game = new_game(make_game, "nine-five").game
    page = phone.new_page()
    open_game(page, game)
    page.locator("details.auction > summary").click()
    page.locator("details.forced > summary").click()
    page.evaluate(
        """() => document.addEventListener("htmx:afterSwap", () => setTimeout(() => {
            const cy = document.querySelector('input[name="forced"][value="Cy"]');
            cy.checked = true;
            cy.dispatchEvent(new Event("change", { bubbles: true }));
        }, 5), { once: true })"""
    )
    pick(page, "auction_0", "pass")

    expect(page.locator('input[name="forced"][value="Cy"]')).to_be_checked()
    expect(page.locator('#auction input[name="auction_1"][value="pass"]')).to_be_disabled()


def test_online_only_the_newest_auction_answer_is_drawn(phone, make_game):
    """A forced bid ticked while the auction's answer is on its way: the change waits in
    the auction's queue, the older answer is not drawn over it (drawing it would undo the
    tick and lose the queue with the part it redraws), and the newer one is. Nothing is
    aborted, so the console stays clean (the phone fixture fails on any console error)."""
    game = new_game(make_game, "nine-five").game
    page = phone.new_page()
    held = hold_first(page, re.compile(r"/auction/$"))
    open_game(page, game)
    page.locator("details.auction > summary").click()
    pick(page, "auction_0", "pass")
    page.locator("details.forced > summary").click()
    pick(page, "forced", "Cy")
    expect(page.locator("#auction")).to_have_count(1)
    first = first_held(page, held)
    assert len(held) == 1

    with page.expect_response(lambda answer: "forced=" in (answer.request.post_data or "")):
        first.continue_()
    cy_passes = page.locator('#auction input[name="auction_1"][value="pass"]')
    expect(cy_passes).to_be_disabled()
    expect(page.locator('#auction input[name="auction_1"][value="9"]')).to_be_enabled()
    expect(page.locator('#auction input[name="auction_0"][value="pass"]')).to_be_checked()
