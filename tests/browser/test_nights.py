"""A club night in the browser, as a room plays it: an organiser's phone starts the
night and each round, every table scores its own game on its own phone at the same time
(one of them offline for a round), and the room board follows them all. Partners rotate,
and the board's standing and the night's payout are checked against a sum of the games
made here, independently of the app's own statistics."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest
from playwright.sync_api import expect

from pitchkeeper.clubs.players import player_add
from pitchkeeper.games.models import Game
from pitchkeeper.games.replay import game_state
from pitchkeeper.nights.models import Night, NightTable
from pitchkeeper.rules.engine import settled_per_player
from tests.browser.test_game import newest_hand, pick, pick_contract, save
from tests.browser.test_offline import (
    OFFLINE_LOGS,
    SYNCED,
    kept,
    open_kept,
    queue,
)
from tests.conftest import EIGHT

pytestmark = pytest.mark.browser

# The room board polls every 2 seconds; a hand saved shows on it within 3.
ON_THE_BOARD = 3_000


def hand(
    page: Any, pitcher: str, taker: str, keys: tuple[str, ...], *, online: bool = True
) -> None:
    """A hand of ``pitcher`` bidding 2 that ``taker`` (a player or a team) wins whole;
    online, once the game screen lists it."""
    before = newest_hand(page)
    pick_contract(page, pitcher, 2)
    for key in keys:
        pick(page, f"point_{key}", taker)
    save(page)
    if online:
        expect(page.locator("ol.history > li strong").first).to_have_text(f"#{before + 1}")


def board_tables(board: Any) -> dict[str, dict[str, int]]:
    """Each table's totals as the room board shows them."""
    shown = {}
    for card in board.locator(".tables > li").all():
        title = card.locator("h3").inner_text().split("·")[0].strip()
        sides = card.locator(".totals li").all()
        shown[title] = {
            side.locator("span").inner_text(): int(side.locator("strong").inner_text())
            for side in sides
        }
    return shown


def board_standing(board: Any) -> dict[str, tuple[int, int, int, int]]:
    rows = {}
    for row in board.locator("table.standing tbody tr").all():
        name = row.locator("th").inner_text()
        games, wins, points, chips = (int(c) for c in row.locator("td").all_inner_texts())
        rows[name] = (games, wins, points, chips)
    return rows


def summed(night: Night) -> tuple[dict[str, tuple[int, int, int, int]], Counter[str]]:
    """Each person's games, wins, points and chips, summed here from each game's replay
    (the rules' own settlement per player), not from the app's statistics."""
    rows: dict[str, list[int]] = {}
    chips: Counter[str] = Counter()
    for game in Game.objects.filter(night_table__night_round__night=night):
        state = game_state(game=game)
        result, seating = state.result, state.record.seating
        each = settled_per_player(state.record.rules, seating, result.settlement) or {}
        for name in seating.players:
            side = seating.side_of(name)
            row = rows.setdefault(name, [0, 0, 0, 0])
            row[0] += 1
            row[1] += side == result.winner
            row[2] += result.scores[side]
            row[3] += each.get(name, 0)
            chips[name] += each.get(name, 0)
    return {name: tuple(row) for name, row in rows.items()}, chips  # type: ignore[misc]


def tables_of(night: Night, number: int) -> list[NightTable]:
    return list(
        NightTable.objects.filter(night_round__night=night, night_round__number=number)
        .select_related("game")
        .order_by("number")
    )


def teams_of(table: NightTable) -> list[str]:
    return [s.team for s in table.game.seats.order_by("position")][:2]


def test_a_night_of_eight_at_two_partnership_tables(phone, club):
    for name in EIGHT:
        player_add(club=club, name=name)
    organiser = phone.new_page()
    organiser.goto("/nights/new/")
    for name in EIGHT:
        organiser.locator(f'label.pill:has(> input[name="players"]) span:text-is("{name}")').click()
    organiser.locator("#id_preset").select_option("contway-six")
    organiser.locator("#id_rounds").fill("3")
    organiser.get_by_role("button", name="Start the night").click()
    expect(organiser.locator("#round h2")).to_contain_text("Round 1")
    night = Night.objects.get()

    board = phone.new_page(signed_in=False)
    board.goto(f"/nights/board/{night.share_token}/")
    expect(board.locator(".tables > li")).to_have_count(2)
    tables = [phone.new_page(), phone.new_page()]
    keys = ("high", "low", "jack", "off_jack", "joker", "game")

    for number in (1, 2, 3):
        if number > 1:
            # The organiser's page follows the tables by itself: the button comes.
            following = organiser.get_by_role("button", name="Next round")
            expect(following).to_be_visible(timeout=10_000)
            following.click()
            expect(organiser.locator("#round h2")).to_contain_text(f"Round {number}")
        organiser.get_by_role("button", name=f"Start round {number}").click()
        expect(organiser.locator("#round h2")).to_contain_text("0 of 2 tables done")
        started = tables_of(night, number)
        # Each table's phone opens its own link, which now opens its game.
        for page, table in zip(tables, started, strict=True):
            page.goto(f"/nights/table/{table.token}/")
            expect(page).to_have_url(re.compile(rf"/games/{table.game_id}/$"))
        offline = tables[1] if number == 2 else None
        if offline is not None:
            open_kept(offline, started[1].game)
            phone.allow(OFFLINE_LOGS)
            offline.context.set_offline(True)

        # Both tables score at once, hand by hand; table 1's first team and table 2's
        # second one win, each in two hands of six points.
        for turn in range(2):
            for index, (page, table) in enumerate(zip(tables, started, strict=True)):
                seats = [s.player.name for s in table.game.seats.order_by("position")]
                winners = teams_of(table)[index]
                hand(page, seats[turn], winners, keys, online=page is not offline)
                if page is offline:
                    kept(page, turn + 1)
                else:
                    card = board.locator(f'.tables > li:has(h3:has-text("Table {table.number}"))')
                    total = card.locator(f'.totals li:has(span:text-is("{winners}")) strong')
                    expect(total).to_have_text(str(6 * (turn + 1)), timeout=ON_THE_BOARD)
        if offline is not None:
            assert started[1].game.hands.count() == 0
            offline.context.set_offline(False)
            expect(queue(offline)).to_be_hidden(timeout=SYNCED)
            assert started[1].game.hands.count() == 2
        expect(board.locator("#night-board h2").first).to_contain_text(
            "2 of 2 tables done", timeout=ON_THE_BOARD
        )
        shown = board_tables(board)
        for table in started:
            table.game.refresh_from_db()
            assert table.game.finished_at is not None
            assert shown[f"Table {table.number}"] == game_state(game=table.game).result.scores

    # Partners rotate: no two players partner twice over the three rounds.
    partnerships = Counter(
        frozenset(team)
        for t in NightTable.objects.filter(night_round__night=night)
        for team in t.teams
    )
    assert len(partnerships) == 12 and set(partnerships.values()) == {1}

    standing, chips = summed(night)
    expect(board.locator("table.standing tbody tr")).to_have_count(8)
    assert board_standing(board) == standing
    assert sum(row[0] for row in standing.values()) == 8 * 3

    organiser.get_by_role("link", name="Close the night and pay out").click()
    organiser.get_by_role("button", name="Close the night").click()
    expect(organiser.locator("#payout-title")).to_be_visible()
    night.refresh_from_db()
    lines = organiser.locator("#payout-title + ul li").all_inner_texts()
    assert len(lines) == night.payments.count() > 0
    left = Counter(chips)
    for payment in night.payments.all():
        left[payment.payer.name] += payment.chips
        left[payment.payee.name] -= payment.chips
        chips_word = "chip" if payment.chips == 1 else "chips"
        said = f"{payment.payer.name} pays {payment.payee.name} {payment.chips} {chips_word}"
        assert said in lines
    assert set(left.values()) == {0}


def test_a_night_of_seven_cutthroat_players_at_tables_of_four_and_three(phone, make_night):
    night = make_night("setback", EIGHT[:7], rounds=1)
    organiser = phone.new_page()
    organiser.goto(f"/nights/{night.pk}/")
    sizes = [
        len(table.locator("p").first.inner_text().split(" vs "))
        for table in organiser.locator("#round .tables > li").all()
    ]
    assert sorted(sizes) == [3, 4]
    proposal = tables_of(night, 1)
    # Started from a table's own link, by whoever holds that table's phone.
    first = phone.new_page()
    first.goto(f"/nights/table/{proposal[0].token}/")
    first.get_by_role("button", name="Start round 1").click()
    expect(first).to_have_url(re.compile(r"/games/\d+/$"))
    started = tables_of(night, 1)
    second = phone.new_page()
    second.goto(f"/nights/table/{started[1].token}/")
    expect(second).to_have_url(re.compile(rf"/games/{started[1].game_id}/$"))
    board = phone.new_page()
    board.goto(f"/nights/{night.pk}/board/")

    # Each table plays on until its game is won: the last seat takes every point.
    for _hand in range(6):
        for page, table in ((first, started[0]), (second, started[1])):
            table.game.refresh_from_db()
            if table.game.finished_at is None:
                seats = [s.player.name for s in table.game.seats.order_by("position")]
                hand(page, seats[0], seats[-1], ("high", "low", "jack", "game"))
    expect(board.locator("#night-board h2").first).to_contain_text(
        "2 of 2 tables done", timeout=ON_THE_BOARD
    )
    standing, _chips = summed(night)
    assert board_standing(board) == standing
    winners = [name for name, row in standing.items() if row[1]]
    assert len(winners) == 2
    # The table's phone, its game won, goes back to the night with one tap, on screen
    # where the winning hand left it.
    back = first.get_by_role("link", name="Back to the night")
    expect(back).to_be_in_viewport()
    back.click()
    expect(first).to_have_url(re.compile(rf"/nights/{night.pk}/$"))
