"""The whole auction as the phone redraws it while hands wait on it to be sent
(``rules.projection.offer_json``, run by the phone's engine with the waiting hands) is the
server's own: for the same game and the same entries, who bids at each turn, the bids
each may make and which turns are shown are what the auction helper draws once the
waiting hands are recorded. Both come from ``rules.entry.auction_offer``; what is
compared here is the phone's path to it (the record, the hands played after it, the
posted fields read as JSON) against the server's form as HTML."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.urls import reverse

from pitchkeeper.rules import HandRecord
from pitchkeeper.rules.entry import auction_offer
from pitchkeeper.rules.projection import offer_json
from pitchkeeper.rules.record import game_to_data
from tests.conftest import entry_basis
from tests.games.test_views_variants import HTMX, Table, everything, new_game

pytestmark = pytest.mark.django_db

SETBACK = ("high", "low", "jack", "game")
BONANZA = ("high", "low", "jack", "ten", "nine", "five")


def _played(pitcher: str, bid: int, side: str, keys: tuple[str, ...]) -> HandRecord:
    return HandRecord(pitcher=pitcher, bid=bid, points=everything(side, keys))


# (preset, the hands recorded before: a hand record, or the button "misdeal" or
# "passed", and the entries of the next hand's form). Ann deals the first hand; Bob
# bids first. The sides are the players, or Us (Ann and Cy) and Them (Bob and Dee).
CASES = {
    "setback, nothing entered, after a misdeal and an all-pass": (
        "setback",
        ["misdeal", "passed"],
        {},
    ),
    "setback, the dealer may steal": (
        "setback",
        [_played("Bob", 2, "Bob", SETBACK)],
        {"auction_0": "2", "auction_1": "pass", "auction_2": "pass"},
    ),
    "setback, a bid below the one before is refused and the turn named": (
        "setback",
        [],
        {"auction_0": "3", "auction_1": "2"},
    ),
    "auction pitch, the dealer is forced after three passes": (
        "auction-pitch",
        [_played("Cy", 2, "Cy", SETBACK), "misdeal"],
        {"auction_0": "pass", "auction_1": "pass", "auction_2": "pass"},
    ),
    "nine-five, a player forced to bid 9": (
        "nine-five",
        [],
        {"auction_0": "pass", "forced": ["Cy", "Dee"]},
    ),
    "bonanza, the auction goes round": (
        "bonanza",
        [_played("Bob", 3, "Them", BONANZA)],
        {"auction_0": "3", "auction_1": "5", "auction_2": "pass", "auction_3": "pass"},
    ),
    "bonanza, the auction is over": (
        "bonanza",
        [],
        {"auction_0": "3", "auction_1": "pass", "auction_2": "pass", "auction_3": "pass"},
    ),
}


def server_turns(html: str) -> list[tuple[int, bool, str, set[str]]]:
    """Each auction field the server drew: its number, whether it is shown, its
    legend (who bids) and the entries it does not offer."""
    turns = []
    for hidden, field in re.findall(
        r'<div class="turn"( hidden)?>(.*?)</fieldset>\s*</div>', html, re.S
    ):
        index = int(re.search(r'name="auction_(\d+)"', field)[1])
        legend = re.search(r"<legend>([^<]*)</legend>", field)[1].strip()
        disabled = set(re.findall(r'value="([^"]*)"[^>]*\bdisabled\b', field))
        turns.append((index, not hidden, legend, disabled))
    return turns


def as_fields(entries: dict[str, Any]) -> dict[str, list[str]]:
    """The entries as the phone's engine.js passes a form's fields: {name: [values]}."""
    return {name: value if isinstance(value, list) else [value] for name, value in entries.items()}


def phone_turns(
    page: dict[str, Any], extra: list[Any], entries: dict[str, Any], offered: list[str], count: int
) -> tuple[dict[str, Any], list[tuple[int, bool, str | None, set[str]]]]:
    """The phone's offer for the page's record with ``extra`` played after it, and the
    fields as the phone draws them from it (offline.js, drawOffer): a turn's legend
    and the entries it does not offer; no entry refused where it is not yet a turn."""
    answer = offer_json(json.dumps(page), json.dumps(extra), json.dumps(as_fields(entries)))
    offer = json.loads(answer)
    turns = {index: (player, set(allowed)) for index, player, allowed in offer["turns"]}
    drawn = []
    for index in range(count):
        player, allowed = turns.get(index, (None, set(offered)))
        drawn.append((index, index < offer["shown"], player, set(offered) - allowed))
    return offer, drawn


@pytest.mark.parametrize(
    ("case", "waiting"),
    # None waiting (the phone offline at the game's first hand), and each of the last
    # hands recorded waiting on the phone instead.
    [
        (case, waiting)
        for case, (_p, hands, _e) in CASES.items()
        for waiting in range(len(hands) + 1)
    ],
)
def test_the_phones_auction_is_the_servers_form_after_the_waiting_hands(
    client, make_game, case, waiting
):
    preset, hands, entries = CASES[case]
    table = Table(client, new_game(make_game, preset))
    for hand in hands:
        if isinstance(hand, HandRecord):
            table.play(hand)
        else:
            url = reverse("hand_add", args=[table.game.pk])
            client.post(url, {**entry_basis(table.game.pk), "action": hand})
    state = table.state
    assert len(state.record.hands) == len(hands)
    posted = {"action": "save", **entries}
    html = client.post(reverse("auction", args=[table.game.pk]), posted, **HTMX).content.decode()
    server = server_turns(html)
    assert server, html

    # The phone holds the page of the game before the waiting hands, and plays them on.
    record = game_to_data(state.record)
    kept = record["hands"][: len(record["hands"]) - waiting]
    extra = record["hands"][len(kept) :]
    offered = re.findall(r'name="auction_0" value="([^"]*)"', html)
    offer, phone = phone_turns({**record, "hands": kept}, extra, entries, offered, len(server))

    assert [(index, shown) for index, shown, _legend, _off in server] == [
        (index, shown) for index, shown, _player, _off in phone
    ]
    for (index, _shown, legend, disabled), (_i, _s, player, off) in zip(server, phone, strict=True):
        if player is not None:
            assert legend == player, index
            assert disabled == off, index
        else:
            # Not yet a turn: no entry is refused there.
            assert disabled == off == set(), index
    # And the phone's answer is the rules' own, for the hand after every one recorded.
    forms = as_fields(entries)
    rules, seating = state.record.rules, state.record.seating
    expected = auction_offer(
        rules,
        seating,
        state.result.dealer,
        [(forms.get(f"auction_{i}") or [None])[-1] for i in range(len(server))],
        state.result.scores,
        forms.get("forced", ()),
    )
    assert offer["turns"] == [[t.index, t.player, sorted(t.allowed)] for t in expected.turns]
    assert (offer["over"], offer["shown"]) == (expected.over, expected.shown)


def test_no_auction_is_offered_once_the_game_is_over():
    record = {"format": "pitchkeeper.game/1", "rules": "setback", "players": ["Ann", "Bob"]}
    smudge = {"pitcher": "Ann", "bid": 4, "points": everything("Ann", SETBACK)}
    answer = json.loads(
        offer_json(json.dumps({**record, "first_dealer": "Bob"}), json.dumps([smudge]), "{}")
    )

    assert answer == {"turns": [], "over": True, "shown": 0}
