"""Every screen in headless Chromium, opened once: pictured in light and dark for
docs/screens/, its fold-outs marked and opened with a tap, axe-core finds no serious or
critical accessibility violation in light or dark mode, at 360x740 nothing scrolls
sideways and every control is a 44 px touch target, and nothing is logged as an error.

Each screen is set up with realistic data and in its busiest state: form errors shown,
players in the hole, a finished game with its settlement, every <details> opened.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from pitchkeeper.clubs.models import Club
from pitchkeeper.clubs.players import player_add, player_retire
from pitchkeeper.clubs.services import invitation_create, player_link
from pitchkeeper.games.hands import hand_record
from pitchkeeper.rules import HandRecord
from tests.browser.test_game import SETBACK_TABLE, pick, pick_contract, save

pytestmark = pytest.mark.browser

AXE = Axe()
# Serious and critical violations fail; moderate and minor ones are left to judgement.
FAILING_IMPACTS = {"serious", "critical"}
PHONE_WIDTH = 360
TOUCH_TARGET = 44


def points(high: str | None, low: str | None, jack: str | None, game: str | None) -> dict:
    return {"high": high, "low": low, "jack": jack, "game": game}


def game_in_progress(make_game: Callable[..., Any]) -> Any:
    """Three hands, Cy in the hole."""
    game = make_game("setback", SETBACK_TABLE).game
    for record in (
        HandRecord(pitcher="Bob", bid=2, points=points("Bob", "Bob", "Cy", "Ann")),
        HandRecord(pitcher="Cy", bid=3, points=points("Cy", "Bob", None, "Ann")),
        HandRecord(misdeal=True),
    ):
        hand_record(game=game, record=record)
    return game


def game_over(make_game: Callable[..., Any]) -> Any:
    """Bob's smudge, after a set back of Cy's; settled in chips with a money value."""
    game = make_game("setback", SETBACK_TABLE).game
    game.chip_value = "0.25"
    game.save()
    hand_record(
        game=game, record=HandRecord(pitcher="Cy", bid=3, points=points("Cy", "Ann", "Ann", "Ann"))
    )
    hand_record(
        game=game,
        record=HandRecord(pitcher="Bob", bid=4, points=points("Bob", "Bob", "Bob", "Bob")),
    )
    return game


def home(page: Any, make_game: Callable[..., Any], club: Club) -> None:
    game_in_progress(make_game)
    game_over(make_game)
    page.goto("/")


def players(page: Any, make_game: Callable[..., Any], club: Club) -> None:
    for name in ("Ann", "Bob", "Cy"):
        player_add(club=club, name=name)
    player_retire(player=player_add(club=club, name="Old Joe"), retired=True)
    page.goto("/players/")
    # A duplicate name, refused with its message next to the field.
    page.locator("#new-name").fill("ann")
    page.locator("#roster form.card button[type=submit]").click()
    expect(page.locator("#new-name-errors")).to_be_visible()


def game_new(page: Any, make_game: Callable[..., Any], club: Club) -> None:
    """With a last game: its table and rules are offered again, ↑/↓ buttons shown."""
    teams = {"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]}
    make_game("partnership", ("Ann", "Bob", "Cy", "Dee"), teams)
    player_add(club=club, name="Eve")
    page.goto("/games/new/")


def game_new_errors(page: Any, make_game: Callable[..., Any], club: Club) -> None:
    """Nobody ticked: the game is refused and the form says why."""
    for name in ("Ann", "Bob", "Cy"):
        player_add(club=club, name=name)
    page.goto("/games/new/")
    page.locator(".submit-bar button[type=submit]").click()
    expect(page.get_by_role("alert")).to_be_visible()


def game_with_errors(page: Any, make_game: Callable[..., Any], club: Club) -> None:
    game = game_in_progress(make_game)
    page.goto(f"/games/{game.pk}/")
    pick_contract(page, "Bob", 2)
    save(page)
    expect(page.locator("#id_point_high_error")).to_be_visible()


def game_partnership(page: Any, make_game: Callable[..., Any], club: Club) -> None:
    teams = {"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]}
    game = make_game("partnership", ("Ann", "Bob", "Cy", "Dee"), teams).game
    hand_record(
        game=game, record=HandRecord(pitcher="Bob", bid=3, points=points("Us", "Us", "Us", "Them"))
    )
    page.goto(f"/games/{game.pk}/")


def game_finished(page: Any, make_game: Callable[..., Any], club: Club) -> None:
    page.goto(f"/games/{game_over(make_game).pk}/")


TEN_POINT = ("high", "low", "jack", "off_jack", "big_joker", "little_joker", "three", "game")


def game_ten_point(page: Any, make_game: Callable[..., Any], club: Club) -> None:
    """Ten points a hand on eight rows, nineteen bids with the doubled ones and the moon;
    a doubled bid made, one set back (Us in the hole)."""
    teams = {"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]}
    game = make_game("ten-point", ("Ann", "Bob", "Cy", "Dee"), teams).game
    them = dict.fromkeys(TEN_POINT, "Them") | {"game": None}
    for pitcher, bid in (("Bob", "6x2"), ("Cy", "3x2")):
        hand_record(game=game, record=HandRecord(pitcher=pitcher, bid=bid, points=them))
    page.goto(f"/games/{game.pk}/")


def game_drawn(page: Any, make_game: Callable[..., Any], club: Club) -> None:
    """Nine-five's backdoor: Us fell to -200 on failed blind smudges, the game drawn."""
    teams = {"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]}
    rules = {"preset": "nine-five", "lose_at": None, "draw_at": -200}
    game = make_game(rules, ("Ann", "Bob", "Cy", "Dee"), teams).game
    keys = ("high", "low", "jack", "game", "nine", "five")
    failed = dict.fromkeys(keys, "Us") | {"game": None}
    for pitcher in ("Ann", "Cy") * 5:
        hand_record(game=game, record=HandRecord(pitcher=pitcher, bid="blind", points=failed))
    page.goto(f"/games/{game.pk}/")


def hand_edit(page: Any, make_game: Callable[..., Any], club: Club) -> None:
    page.goto(f"/games/{game_in_progress(make_game).pk}/hands/2/")


def live(page: Any, make_game: Callable[..., Any], club: Club) -> None:
    page.goto(f"/live/{game_in_progress(make_game).share_token}/")


# A full table of seven with long names, to stress the 360 px width.
SEVEN = (
    "Alexandra",
    "Bartholomew",
    "Christopher",
    "Maximilian Rosenberg",
    "Evangeline",
    "Fitzgerald",
    "Konstantin Konstantinopolsky",
)


def seven_long_names(make_game: Callable[..., Any]) -> Any:
    game = make_game("setback", SEVEN).game
    for pitcher in SEVEN[3:6]:
        record = HandRecord(pitcher=pitcher, bid=3, points=points(SEVEN[6], SEVEN[3], None, None))
        hand_record(game=game, record=record)
    return game


def game_seven(page: Any, make_game: Callable[..., Any], club: Club) -> None:
    page.goto(f"/games/{seven_long_names(make_game).pk}/")


def live_seven(page: Any, make_game: Callable[..., Any], club: Club) -> None:
    page.goto(f"/live/{seven_long_names(make_game).share_token}/")


def clubs(page: Any, make_game: Callable[..., Any], club: Club) -> None:
    page.goto("/clubs/")


def club_settings(page: Any, make_game: Callable[..., Any], club: Club) -> None:
    """The owner's page with a member, an invitation and a linked player."""
    make_game()
    owner = club.memberships.get()
    invitation_create(club=club, role="viewer", by=owner.user)
    player_link(club=club, player_pk=club.players.first().pk, member_pk=owner.pk)
    page.goto(f"/clubs/{club.pk}/")


def invitation(page: Any, make_game: Callable[..., Any], club: Club) -> None:
    owner = club.memberships.get().user
    page.goto(f"/invitations/{invitation_create(club=club, role='viewer', by=owner).token}/")


def sign_in_page(page: Any, make_game: Callable[..., Any], club: Club) -> None:
    page.goto("/accounts/login/")


def password_change(page: Any, make_game: Callable[..., Any], club: Club) -> None:
    page.goto("/accounts/password_change/")


SCREENS = {
    "home": home,
    "clubs": clubs,
    "club_settings": club_settings,
    "invitation": invitation,
    "sign_in": sign_in_page,
    "password_change": password_change,
    "players": players,
    "game_new": game_new,
    "game_new_errors": game_new_errors,
    "game_with_errors": game_with_errors,
    "game_partnership": game_partnership,
    "game_over": game_finished,
    "game_ten_point": game_ten_point,
    "game_drawn": game_drawn,
    "hand_edit": hand_edit,
    "live": live,
    "game_seven_long_names": game_seven,
    "live_seven_long_names": live_seven,
}


# ---- Seasons: leaderboard, player page, ledger, seasons ----


def season_data(make_game: Callable[..., Any], club: Club) -> Any:
    """A season of five games, a team game among them, chips with a money value, a
    payment recorded and a long name; returns Bob."""
    from pitchkeeper.clubs.models import Player
    from pitchkeeper.games.models import Game
    from pitchkeeper.seasons.ledger import payment_record
    from pitchkeeper.seasons.models import Season
    from pitchkeeper.seasons.spans import Span
    from tests.seasons.test_stats import smudge_game, team_game

    for table in [
        ("Ann", "Bob", "Cy"),
        ("Bob", "Cy", "Ann"),
        ("Cy", "Maximilian Rosenberg", "Bob"),
    ]:
        smudge_game(make_game, table)
    smudge_game(make_game)
    team_game(make_game)
    Game.objects.update_counted(chip_value="0.25")
    Season.objects.create(club=club, name="Whole history", start="2000-01-01")
    players = {p.name: p for p in Player.objects.all()}
    owner = club.memberships.get().user
    payment_record(
        club=club, span=Span(None), payer=players["Dee"], payee=players["Bob"], chips=1, by=owner
    )
    return players["Bob"]


def leaderboard(page: Any, make_game: Callable[..., Any], club: Club) -> None:
    season_data(make_game, club)
    page.goto("/seasons/?sort=-wins")


def player_stats(page: Any, make_game: Callable[..., Any], club: Club) -> None:
    page.goto(f"/seasons/players/{season_data(make_game, club).pk}/")


def ledger(page: Any, make_game: Callable[..., Any], club: Club) -> None:
    season_data(make_game, club)
    page.goto("/seasons/ledger/?season=all")


def seasons(page: Any, make_game: Callable[..., Any], club: Club) -> None:
    """With a refused change shown next to its field."""
    season_data(make_game, club)
    page.goto("/seasons/manage/")
    page.locator("#id_new-name").fill("Spring")
    page.locator("#id_new-start").fill("2024-05-01")
    page.locator("#id_new-end").fill("2024-04-01")
    page.get_by_role("button", name="Add season").click()
    expect(page.locator("#id_new-end_error")).to_be_visible()


SCREENS |= {
    "leaderboard": leaderboard,
    "player_stats": player_stats,
    "ledger": ledger,
    "seasons": seasons,
}


# ---- Club nights: the list, a new night, a round proposed and in play, the room board ----


def night_of_eight(club: Club, *, played: int = 0, start: bool = True) -> Any:
    """A Contway night of eight at two tables over three rounds, ``played`` rounds of it
    played out and the next proposed; with ``start``, started and a hand into each of
    its games."""
    from pitchkeeper.clubs.players import roster
    from pitchkeeper.games.hands import hand_record
    from pitchkeeper.nights.services import night_start, round_next, round_start
    from pitchkeeper.rules import HandRecord
    from tests.conftest import EIGHT, finish

    players = roster(list(EIGHT), club=club)
    night = night_start(
        club=club,
        players=[players[name] for name in EIGHT],
        preset="contway-six",
        rounds=3,
        progressive=False,
        order="wins",
        by=club.memberships.get().user,
        seed=4,
    )
    for number in range(played):
        if number:
            round_next(night=night)
        for table in round_start(night_round=night.night_rounds.last()).tables.all():
            finish(table.game)
    if played:
        round_next(night=night)
    if not start:
        return night
    for table in round_start(night_round=night.night_rounds.last()).tables.all():
        seats = table.game.seats.order_by("position")
        team = seats[1].team
        points = {key: team for key in ("high", "low", "jack", "off_jack", "joker", "game")}
        hand_record(
            game=table.game, record=HandRecord(pitcher=seats[0].player.name, bid=2, points=points)
        )
    return night


def nights(page: Any, make_game: Callable[..., Any], club: Club) -> None:
    from pitchkeeper.nights.services import night_close

    night = night_of_eight(club, played=1)
    night_close(night=night, by=club.memberships.get().user, unfinished_ok=True)
    night_of_eight(club)
    page.goto("/nights/")


def night_new(page: Any, make_game: Callable[..., Any], club: Club) -> None:
    from pitchkeeper.clubs.players import roster
    from tests.conftest import EIGHT

    roster(list(EIGHT), club=club)
    page.goto("/nights/new/")


def night_proposed(page: Any, make_game: Callable[..., Any], club: Club) -> None:
    page.goto(f"/nights/{night_of_eight(club, played=1, start=False).pk}/")


def night_round(page: Any, make_game: Callable[..., Any], club: Club) -> None:
    page.goto(f"/nights/{night_of_eight(club, played=1).pk}/")


def night_board(page: Any, make_game: Callable[..., Any], club: Club) -> None:
    night = night_of_eight(club, played=1)
    page.goto(f"/nights/board/{night.share_token}/")


SCREENS |= {
    "nights": nights,
    "night_new": night_new,
    "night_proposed": night_proposed,
    "night_round": night_round,
    "night_board": night_board,
}


def describe(violation: dict[str, Any]) -> str:
    nodes = "\n".join(
        f"    {' '.join(map(str, node['target']))}: {node['html'][:160]}\n"
        f"      {node.get('failureSummary', '').replace(chr(10), ' ')}"
        for node in violation["nodes"]
    )
    return f"  {violation['id']} ({violation['impact']}): {violation['help']}\n{nodes}"


# Everything a thumb is meant to hit: buttons, pills, fields, summaries and links, except
# links inside running text. The box counted is the element's with its children's, since
# a pill's label is inline and its <span> is the pill drawn.
SMALL_TARGETS_JS = """
(minimum) => {
  const selector = [
    "button", "a", "label.pill", "label.preset", ".check label", "select", "summary",
    "input:not([type=hidden]):not([type=radio]):not([type=checkbox])",
  ].join(",");
  const small = [];
  for (const element of document.querySelectorAll(selector)) {
    if (element.matches("p a, a.skip") || element.closest(".visually-hidden, [hidden]")) {
      continue;
    }
    if (!element.checkVisibility({ visibilityProperty: true })) {
      continue;
    }
    let { left, top, right, bottom } = element.getBoundingClientRect();
    for (const child of element.children) {
      const box = child.getBoundingClientRect();
      if (box.width && box.height) {
        left = Math.min(left, box.left);
        top = Math.min(top, box.top);
        right = Math.max(right, box.right);
        bottom = Math.max(bottom, box.bottom);
      }
    }
    const [width, height] = [right - left, bottom - top];
    if (width < minimum - 0.5 || height < minimum - 0.5) {
      const text = (element.innerText || element.value || element.name || "").trim();
      const size = `${width.toFixed(1)}x${height.toFixed(1)}`;
      small.push(`${element.outerHTML.slice(0, 90)} "${text.slice(0, 30)}": ${size}`);
    }
  }
  return small;
}
"""


# ---- History of changes, deleting and restoring ----


def game_history(page: Any, make_game: Callable[..., Any], club: Club) -> None:
    """Every kind of change, with the hands before and after and the Restore buttons."""
    from pitchkeeper.games.hands import hand_delete, hand_edit

    game = game_in_progress(make_game)
    hand_edit(
        game=game,
        number=2,
        record=HandRecord(pitcher="Cy", bid=2, points=points("Cy", "Bob", None, "Ann")),
    )
    hand_delete(game=game, number=3)
    page.goto(f"/games/{game.pk}/history/")


def hand_edit_conflict(page: Any, make_game: Callable[..., Any], club: Club) -> None:
    """An edit refused because another phone changed the hand first (409)."""
    from pitchkeeper.games.hands import hand_edit

    game = game_in_progress(make_game)
    page.goto(f"/games/{game.pk}/hands/1/")
    hand_edit(
        game=game,
        number=1,
        record=HandRecord(pitcher="Ann", bid=2, points=points("Ann", "Ann", None, "Bob")),
    )
    pick(page, "contract", "Cy:2")
    page.get_by_role("button", name="Save changes").click()
    expect(page.locator("#hand-form [role=alert]")).to_be_visible()


def game_delete(page: Any, make_game: Callable[..., Any], club: Club) -> None:
    page.goto(f"/games/{game_in_progress(make_game).pk}/delete/")


def games_deleted(page: Any, make_game: Callable[..., Any], club: Club) -> None:
    from pitchkeeper.games.services import game_delete as delete

    delete(game=game_in_progress(make_game))
    delete(game=game_over(make_game))
    page.goto("/games/deleted/")


def long_game(make_game: Callable[..., Any]) -> Any:
    """The game in progress and five misdeals after it: more hands than the game screen
    lists."""
    game = game_in_progress(make_game)
    for _hand in range(5):
        hand_record(game=game, record=HandRecord(misdeal=True))
    return game


def game_long(page: Any, make_game: Callable[..., Any], club: Club) -> None:
    """The latest hands, with the link to the earlier ones."""
    page.goto(f"/games/{long_game(make_game).pk}/")


def game_hands(page: Any, make_game: Callable[..., Any], club: Club) -> None:
    page.goto(f"/games/{long_game(make_game).pk}/hands/all/")


SCREENS |= {
    "game_long": game_long,
    "game_hands": game_hands,
    "game_history": game_history,
    "hand_edit_conflict": hand_edit_conflict,
    "game_delete": game_delete,
    "games_deleted": games_deleted,
}


UNMARKED_FOLD_OUTS_JS = """
() => [...document.querySelectorAll("details > summary")]
  .filter((summary) => summary.checkVisibility())
  .filter((summary) => {
    const marker = getComputedStyle(summary, "::before").content;
    return ["none", "normal", ""].includes(marker);
  })
  .map((summary) => summary.outerHTML.slice(0, 90))
"""


SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screens"


@pytest.mark.parametrize("screen", SCREENS)
def test_a_screen_on_a_phone(phone, make_game, club, screen):
    """One screen, opened once and checked in the order its states come:
    - pictured for the README as a phone shows it when it opens, in light and dark
      (kept in docs/screens/, made again by every browser test run);
    - every fold-out shows a marker and opens with a tap, as a thumb would, in light and
      dark;
    - with every fold-out open, nothing scrolls sideways, every control is a 44 px touch
      target, and axe-core finds no serious or critical violation in light or dark;
    - then a bid in the whole auction is tapped where the screen has one;
    - and all along, no console error and no breach of the Content-Security-Policy
      (the fixture's watch, checked here to name the screen).
    Every check runs, and the test names all that failed."""
    page = phone.new_page()
    SCREENS[screen](page, make_game, club)
    failed = []

    page.wait_for_load_state("networkidle")
    SHOTS.mkdir(parents=True, exist_ok=True)
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        path = SHOTS / f"{screen}-{scheme}.png"
        # caret="initial": hiding the caret writes style="" on every input, which htmx
        # would settle onto swapped inputs and the strict CSP report.
        page.screenshot(path=str(path), animations="disabled", caret="initial")
        if path.stat().st_size <= 1000:
            failed.append(f"{path} is empty")

    if unmarked := page.evaluate(UNMARKED_FOLD_OUTS_JS):
        failed.append("fold-outs without a marker:\n" + "\n".join(unmarked))
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        for summary in page.locator("details:not([open]) > summary").all():
            if summary.is_visible():
                summary.click()
        page.wait_for_load_state("networkidle")
    # The fold-outs a tap cannot reach (inside hidden parts) are opened too.
    page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")

    width = page.evaluate("document.documentElement.scrollWidth")
    if width > PHONE_WIDTH:
        failed.append(f"scrolls sideways: {width} px wide")
    if small := page.evaluate(SMALL_TARGETS_JS, TOUCH_TARGET):
        failed.append(f"touch targets under {TOUCH_TARGET} px:\n" + "\n".join(small))
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        violations = AXE.run(page).response["violations"]
        failed += [
            f"axe-core, {scheme}:\n{describe(v)}"
            for v in violations
            if v["impact"] in FAILING_IMPACTS
        ]

    auction = page.locator('#auction label.pill:has(> input[name="auction_0"]:not(:disabled))')
    if auction.count():
        auction.last.click()
        expect(page.locator("#auction.htmx-request")).to_have_count(0)
    failed += phone.faults()
    assert not failed, f"on {screen}:\n" + "\n".join(failed)
