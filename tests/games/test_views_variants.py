"""Seed 004's variants through the screens: the hand form built from each preset's
points and bids, hands posted through the view scored as the rules engine scores them,
the new-game screen's grouped presets, and games that end in the variants' own ways.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.translation import trans_real

from pitchkeeper.clubs.models import Player
from pitchkeeper.games.forms.hand import MOST_GRID_BIDS
from pitchkeeper.games.hands import hand_record
from pitchkeeper.games.models import Game, Hand
from pitchkeeper.games.replay import GameState, game_state
from pitchkeeper.games.words import (
    CATEGORY_LABELS,
    GROUP_LABELS,
    MOON_LABELS,
    category_label,
    preset_description,
)
from pitchkeeper.rules import (
    GROUPS,
    PRESET_INFO,
    PRESETS,
    HandRecord,
    all_bids,
    replay,
    resolve_rules,
)
from pitchkeeper.rules import ruleset as engine_points
from tests.conftest import entry_basis

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
# Ann deals first: Bob bids first, Ann last. Partners sit opposite.
TABLE = ("Ann", "Bob", "Cy", "Dee")
TEAMS = {"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]}
ALL_TEN = ("high", "low", "jack", "off_jack", "big_joker", "little_joker", "three", "game")
NINE_FIVE = ("high", "low", "jack", "game", "nine", "five")


def new_game(make_game, preset: str | dict[str, Any]) -> GameState:
    """A game of ``preset`` for Ann, Bob, Cy and Dee, in teams where it is played so."""
    rules = resolve_rules(preset)
    return make_game(preset, TABLE, teams=TEAMS if rules.partnership else None)


def everything(side: str | None, keys: tuple[str, ...], **others: str | None) -> dict[str, Any]:
    """Every point to ``side``, except those given in ``others``."""
    return {key: others.get(key, side) for key in keys}


def post_for(state: GameState, record: HandRecord) -> dict[str, Any]:
    """``record`` as the hand form posts it: one choice per point, a number per side for
    a counted point."""
    rules = state.record.rules
    data: dict[str, Any] = {"action": "save"}
    if record.pitcher is not None:
        data["pitcher"] = record.pitcher
    if record.bid is not None:
        data["bid"] = str(record.bid)
    for seat, (_name, bid) in enumerate(record.auction or ()):
        data[f"auction_{seat}"] = "pass" if bid is None else str(bid)
    for category in rules.categories:
        went_to = record.points[category.key]
        if category.kind == "count":
            for index, side in enumerate(state.result.sides):
                data[f"count_{category.key}_{index}"] = str(went_to.get(side, 0))
        else:
            data[f"point_{category.key}"] = "nobody" if went_to is None else went_to
    if rules.called_partner:
        data["partner"] = record.partner or "alone"
    if record.all_tricks:
        data["all_tricks"] = "on"
    if record.revoked:
        data["revoked"] = list(record.revoked)
    if record.forced:
        data["forced"] = list(record.forced)
    return data


class Table:
    """A game played through the views, every hand checked against the engine."""

    def __init__(self, client: Any, state: GameState) -> None:
        self.client = client
        self.game = state.game
        self.records: list[HandRecord] = []

    @property
    def state(self) -> GameState:
        return game_state(game=Game.objects.get(pk=self.game.pk))

    def play(self, record: HandRecord, *, htmx: bool = False) -> GameState:
        state = self.state
        url = reverse("hand_add", args=[self.game.pk])
        response = self.client.post(
            url, {**entry_basis(self.game.pk), **post_for(state, record)}, **(HTMX if htmx else {})
        )
        assert response.status_code == (200 if htmx else 302), _errors(response)
        self.records.append(record)
        state = self.state
        rules, seating = state.record.rules, state.record.seating
        expected = replay(rules, seating, state.record.first_dealer, self.records)
        assert state.result.scores == expected.scores
        assert state.result.hands[-1].delta == expected.hands[-1].delta
        assert (state.result.winner, state.result.won_by) == (expected.winner, expected.won_by)
        return state

    def refused(self, record: HandRecord, field: str, message: str) -> None:
        before = Hand.objects.filter(game=self.game).count()
        url = reverse("hand_add", args=[self.game.pk])
        response = self.client.post(
            url, {**entry_basis(self.game.pk), **post_for(self.state, record)}
        )
        assert response.status_code == 400
        errors = response.context["form"].errors
        assert any(message in error for error in errors.get(field, ())), errors
        assert Hand.objects.filter(game=self.game).count() == before

    def page(self, **headers: Any) -> str:
        response = self.client.get(reverse("game", args=[self.game.pk]), **headers)
        assert response.status_code == 200
        return response.content.decode()


def _errors(response: Any) -> Any:
    context = getattr(response, "context", None)
    return context["form"].errors if context and context.get("form") else response


def checked_value(html: str, name: str) -> str | None:
    found = re.search(rf'name="{name}" value="([^"]*)"[^>]*checked', html)
    return found[1] if found else None


# ---- Every preset's hand form ----


@pytest.mark.parametrize("preset", PRESETS)
def test_every_presets_game_screen_asks_for_its_points_and_bids(client, make_game, preset):
    state = new_game(make_game, preset)
    rules = state.record.rules
    table = Table(client, state)

    html = table.page()
    fragment = table.page(**HTMX)

    assert "<html" in html
    assert "<html" not in fragment
    assert fragment.lstrip().startswith('<div id="table">')
    for category in rules.categories:
        label = category_label(category)
        assert label in fragment
        if category.kind == "one":
            assert f'name="point_{category.key}"' in fragment
        else:
            assert f'name="count_{category.key}_0"' in fragment
    if rules.bidding:
        # Every bid is one button, word bids included; no number field to type in. A
        # short range is a grid: one button picks the pitcher and the bid.
        bids = all_bids(rules)
        grid = len(bids) <= MOST_GRID_BIDS
        assert ('name="contract"' in fragment) == grid
        assert ('name="bid"' in fragment) != grid
        pitcher = state.record.seating.players[0]
        for bid in bids:
            shown = (
                f'name="contract" value="{pitcher}:{bid}"' if grid else f'name="bid" value="{bid}"'
            )
            assert shown in fragment
        assert 'type="number" name="bid"' not in fragment
    assert ('name="partner"' in fragment) == rules.called_partner
    every_trick = rules.smudge == "all_tricks" or any(m.all_tricks for m in rules.moon_bids)
    assert ('name="all_tricks"' in fragment) == every_trick


def test_a_ten_point_hand_is_one_choice_per_point():
    rules = PRESETS["ten-point"]
    # Pitcher, bid, eight points worth ten, save.
    assert [c.key for c in rules.categories] == list(ALL_TEN)
    assert rules.most_points == 10


def test_long_bid_ranges_are_compact_buttons_with_their_words(client, make_game):
    html = Table(client, new_game(make_game, "ten-point")).page()

    assert "pills compact" in html
    assert ">6 for 12</span>" in html
    assert ">Shoot the moon</span>" in html
    nine_five = Table(client, new_game(make_game, "nine-five")).page()
    assert ">Smudge</span>" in nine_five
    assert ">Blind smudge</span>" in nine_five
    assert 'name="bid" value="4x2"' not in nine_five


def test_every_new_point_has_words_for_nobody_and_a_translation():
    ready_made = [c for c in vars(engine_points).values() if isinstance(c, engine_points.Category)]
    assert {c.key for c in ready_made} <= set(CATEGORY_LABELS)
    moons = {m.label for rules in PRESETS.values() for m in rules.moon_bids}
    assert moons <= set(MOON_LABELS)
    campbell = PRESETS["campbell-ten"]
    assert [category_label(c) for c in campbell.categories if "joker" in c.key] == [
        "High joker",
        "Low joker",
    ]


# ---- Hands posted through the view, scored as the engine scores them ----


def test_ten_point_partnership_doubled_bids_and_a_set_back(client, make_game):
    table = Table(client, new_game(make_game, "ten-point"))

    # Bob bids 6 for 12 and takes 8: twice what Them took.
    them = everything("Them", ALL_TEN, little_joker="Us", game="Us")
    state = table.play(HandRecord(pitcher="Bob", bid="6x2", points=them))
    assert state.result.scores == {"Us": 2, "Them": 16}
    assert Hand.objects.get(number=1).bid == "6x2"
    # Cy bids 3 for 6 and takes only High: set back 6.
    us_high = everything("Them", ALL_TEN, high="Us")
    state = table.play(HandRecord(pitcher="Cy", bid="3x2", points=us_high), htmx=True)
    assert state.result.scores == {"Us": -4, "Them": 25}
    # A plain bid, Game tied.
    state = table.play(
        HandRecord(pitcher="Dee", bid=7, points=everything("Them", ALL_TEN, game=None))
    )
    assert state.result.scores == {"Us": -4, "Them": 34}

    html = table.page()
    assert "Bob bid 6 for 12" in html
    assert "Cy bid 3 for 6" in html
    assert "Off-jack: Them" in html
    assert "Game: tied" in html
    assert "in the hole" in html


def test_ten_point_auction_with_a_doubled_bid(client, make_game):
    table = Table(client, new_game(make_game, "ten-point"))
    url = reverse("auction", args=[table.game.pk])

    # After Bob's 6, Cy may bid 6 for 12 but not 6 again.
    html = client.post(url, {"auction_0": "6"}, **HTMX).content.decode()
    assert re.search(r'name="auction_1" value="6" [^>]*disabled', html)
    assert not re.search(r'name="auction_1" value="6x2" [^>]*disabled', html)
    assert not re.search(r'name="auction_1" value="moon" [^>]*disabled', html)

    auction = (("Bob", 6), ("Cy", "6x2"), ("Dee", None), ("Ann", None))
    points = everything("Us", ALL_TEN, high="Them")
    state = table.play(HandRecord(auction=auction, points=points))
    assert state.result.hands[0].bid == "6x2"
    assert state.result.scores == {"Us": 18, "Them": 1}
    assert Hand.objects.get().auction == [[p.pk, bid] for p, bid in _players(auction)]


def _players(auction: tuple[tuple[str, Any], ...]) -> list[tuple[Player, Any]]:
    return [(Player.objects.get(name=name), bid) for name, bid in auction]


def test_ten_point_moon_made_wins_at_once(client, make_game):
    table = Table(client, new_game(make_game, "ten-point"))
    table.play(HandRecord(pitcher="Bob", bid=3, points=everything("Them", ALL_TEN)))

    state = table.play(HandRecord(pitcher="Cy", bid="moon", points=everything("Us", ALL_TEN)))

    assert (state.result.winner, state.result.won_by) == ("Us", "smudge")
    html = table.page()
    assert "Us wins: bid Shoot the moon and made it" in html
    assert "Cy bid Shoot the moon" in html
    assert "(smudge)" not in html
    assert 'class="card hand-form"' not in html
    state.game.refresh_from_db()
    assert (state.game.winner_team, state.game.won_by) == ("Us", "smudge")
    assert state.game.finished_at is not None


def test_ten_point_moon_failed_loses_the_game(client, make_game):
    table = Table(client, new_game(make_game, "ten-point"))

    points = everything("Us", ALL_TEN, game=None)
    state = table.play(HandRecord(pitcher="Ann", bid="moon", points=points))

    assert (state.result.winner, state.result.won_by) == ("Them", "smudge_failed")
    assert "Them wins: Us bid Shoot the moon and failed" in table.page()


def test_razzle_dazzle_calls_a_partner_each_hand(client, make_game):
    table = Table(client, new_game(make_game, "razzle-dazzle"))
    html = table.page()
    assert "Called partner" in html
    assert 'name="partner" value="alone"' in html

    # Bob calls the card Dee holds; the two score as a partnership, each their own.
    points = everything("Ann", ALL_TEN, high="Bob", jack="Bob", three="Dee")
    state = table.play(HandRecord(pitcher="Bob", bid=5, points=points, partner="Dee"))
    assert state.result.hands[0].partner == "Dee"
    assert Hand.objects.get().partner.name == "Dee"
    # Cy held the card called: alone against the other three.
    points = everything("Cy", ALL_TEN, game="Ann")
    state = table.play(HandRecord(pitcher="Cy", bid="4x2", points=points), htmx=True)
    assert Hand.objects.get(number=2).partner is None

    html = table.page()
    assert "(partner: Dee)" in html
    assert "(played alone)" in html
    # The edit form brings the partner back.
    edit = client.get(reverse("hand_edit", args=[table.game.pk, 1])).content.decode()
    assert checked_value(edit, "partner") == "Dee"
    assert checked_value(edit, "bid") == "5"
    edit = client.get(reverse("hand_edit", args=[table.game.pk, 2])).content.decode()
    assert checked_value(edit, "partner") == "alone"
    assert checked_value(edit, "bid") == "4x2"


def test_razzle_dazzle_refuses_a_missing_or_impossible_partner(client, make_game):
    table = Table(client, new_game(make_game, "razzle-dazzle"))
    points = everything("Bob", ALL_TEN)
    post = post_for(table.state, HandRecord(pitcher="Bob", bid=5, points=points))
    del post["partner"]

    response = client.post(
        reverse("hand_add", args=[table.game.pk]), {**entry_basis(table.game.pk), **post}
    )

    assert response.status_code == 400
    assert "Say who held the called card" in response.content.decode()
    table.refused(
        HandRecord(pitcher="Bob", bid=5, points=points, partner="Bob"),
        "partner",
        "leave the partner out when Bob held the called card",
    )


def test_razzle_dazzle_moon_failed_by_a_called_partnership(client, make_game):
    table = Table(client, new_game(make_game, "razzle-dazzle"))

    points = everything("Bob", ALL_TEN, jack="Dee", game="Cy")
    state = table.play(HandRecord(pitcher="Bob", bid="moon", points=points, partner="Dee"))

    assert state.result.won_by == "smudge_failed"
    assert state.result.winner in ("Ann", "Cy")
    reason = f"{state.result.winner} wins: Bob &amp; Dee bid Shoot the moon and failed"
    assert reason in table.page()


def test_nine_five_smudges_and_the_floor(client, make_game):
    table = Table(client, new_game(make_game, "nine-five"))

    state = table.play(
        HandRecord(
            pitcher="Bob", bid="smudge", points=everything("Them", NINE_FIVE), all_tricks=True
        )
    )
    assert state.result.scores == {"Us": 0, "Them": 19}
    # Us keep bidding the blind smudge and missing Game: 20 back each time.
    for pitcher in ("Cy", "Ann", "Cy", "Ann"):
        state = table.play(
            HandRecord(pitcher=pitcher, bid="blind", points=everything("Us", NINE_FIVE, game=None))
        )
        assert not state.result.finished
    assert state.result.scores == {"Us": -80, "Them": 19}
    state = table.play(
        HandRecord(pitcher="Cy", bid="blind", points=everything("Us", NINE_FIVE, game=None))
    )

    assert (state.result.winner, state.result.won_by) == ("Them", "floor")
    html = table.page()
    assert "Them wins: Us reached -100" in html
    assert "Cy bid Blind smudge" in html
    assert 'class="card hand-form"' not in html


def test_nine_five_drawn_by_the_backdoor_is_over(client, make_game):
    state = new_game(make_game, {"preset": "nine-five", "lose_at": None, "draw_at": -200})
    game = state.game
    failed_blind = everything("Us", NINE_FIVE, game=None)
    for pitcher in ("Ann", "Cy") * 5:
        hand_record(game=game, record=HandRecord(pitcher=pitcher, bid="blind", points=failed_blind))

    game.refresh_from_db()
    assert game.finished_at is not None
    assert (game.won_by, game.winner, game.winner_team) == ("draw", None, "")
    table = Table(client, game_state(game=game))
    html = table.page()
    assert "Drawn: Us reached -200" in html
    assert 'class="card hand-form"' not in html
    assert "Rematch" in html
    assert 'class="side winner' not in html
    response = client.post(
        reverse("hand_add", args=[game.pk]), {**entry_basis(game.pk), "action": "misdeal"}
    )
    assert response.status_code == 409
    # Listed with the finished games, as drawn.
    home = client.get(reverse("home")).content.decode()
    finished = home.split('id="finished-title"', 1)[1]
    assert "Drawn" in finished
    assert " won</span>" not in finished


def test_bonanza_moon_is_closed_to_a_side_in_the_hole(client, make_game):
    table = Table(client, new_game(make_game, "bonanza"))
    bonanza = ("high", "low", "jack", "ten", "nine", "five")
    # Bob bids 4 and takes only High: Them are in the hole.
    state = table.play(
        HandRecord(pitcher="Bob", bid=4, points=everything("Us", bonanza, high="Them"))
    )
    assert state.result.scores == {"Us": 17, "Them": -4}

    # Bob dealt: Cy bids first, then Dee, whose side is in the hole.
    url = reverse("auction", args=[table.game.pk])
    html = client.post(url, {"auction_0": "pass"}, **HTMX).content.decode()
    assert re.search(r'name="auction_1" value="moon" [^>]*disabled', html)
    assert not re.search(r'name="auction_1" value="18" [^>]*disabled', html)
    table.refused(
        HandRecord(pitcher="Dee", bid="moon", points=everything("Them", bonanza)),
        "bid",
        "Dee cannot bid Shoot the moon: Them is in the hole",
    )

    state = table.play(HandRecord(pitcher="Cy", bid="moon", points=everything("Us", bonanza)))
    assert (state.result.winner, state.result.won_by) == ("Us", "smudge")


def test_bonanza_edit_offers_the_bids_open_before_that_hand(client, make_game):
    table = Table(client, new_game(make_game, "bonanza"))
    bonanza = ("high", "low", "jack", "ten", "nine", "five")
    table.play(HandRecord(pitcher="Bob", bid=2, points=everything("Them", bonanza)))
    table.play(HandRecord(pitcher="Cy", bid=1, points=everything("Them", bonanza, high="Us")))
    # Hand 3: Cy deals and Dee bids first, Them at 35; it takes them to 53.
    table.play(HandRecord(pitcher="Dee", bid=18, points=everything("Them", bonanza)))
    assert table.state.result.scores == {"Us": 1, "Them": 53}

    # Now, at 46 or more, the moon is closed to Them (Bob bids second).
    url = reverse("auction", args=[table.game.pk])
    new_hand = client.post(url, {"auction_0": "pass"}, **HTMX).content.decode()
    assert not re.search(r'name="auction_0" value="moon" [^>]*disabled', new_hand)
    assert re.search(r'name="auction_1" value="moon" [^>]*disabled', new_hand)
    # Editing hand 3 offers what was open then.
    edit = client.get(reverse("hand_edit", args=[table.game.pk, 3])).content.decode()
    assert 'name="auction_0" value="moon"' in edit
    assert not re.search(r'name="auction_0" value="moon" [^>]*disabled', edit)


def test_contway_scores_never_below_zero_and_hickeys_are_paid(client, make_game):
    table = Table(client, new_game(make_game, "contway-six"))
    contway = ("high", "low", "jack", "off_jack", "joker", "game")

    # Bob bids 6 and is set: Them would fall to -6, the floor keeps them at 0.
    state = table.play(
        HandRecord(pitcher="Bob", bid=6, points=everything("Us", contway, high="Them"))
    )
    assert state.result.scores == {"Us": 5, "Them": 0}
    state = table.play(HandRecord(pitcher="Cy", bid=6, points=everything("Us", contway)))

    assert (state.result.winner, state.result.won_by) == ("Us", "count_order")
    html = table.page()
    assert "Us wins: made the bid and reached 11" in html
    # Every loser pays 1, and 1 more for its hickey.
    assert "Them pays Us 2 chips" in html


def test_smear_goes_to_the_highest_score(client, make_game):
    state = make_game("smear", ("Ann", "Bob", "Cy"))
    table = Table(client, state)
    smear = ("high", "low", "jack", "off_jack", "game")

    table.play(HandRecord(pitcher="Bob", bid=5, points=everything("Bob", smear)))
    table.play(HandRecord(pitcher="Cy", bid=3, points=everything("Cy", smear, game="Bob")))
    state = table.play(
        HandRecord(pitcher="Ann", bid=2, points=everything("Bob", smear, high="Ann"))
    )

    assert state.result.scores == {"Ann": -2, "Bob": 10, "Cy": 4}
    assert not state.result.finished
    state = table.play(HandRecord(pitcher="Bob", bid=2, points=everything("Bob", smear, low="Cy")))
    assert (state.result.winner, state.result.won_by) == ("Bob", "highest_total")
    assert "Bob wins with the highest score" in table.page()


def test_a_counted_point_asks_for_a_number_per_side(client, make_game):
    table = Table(client, make_game("six-point-joker", ("Ann", "Bob", "Cy")))
    html = table.page()
    assert 'name="count_jokers_0"' in html
    assert "Jokers: Bob" in html

    jokers = {"Bob": 1, "Cy": 1}
    points = {"high": "Bob", "low": "Bob", "jack": "Cy", "jokers": jokers, "game": "Cy"}
    state = table.play(HandRecord(pitcher="Bob", bid=3, points=points))
    assert state.result.scores == {"Ann": 0, "Bob": 3, "Cy": 3}
    assert "Jokers: Bob 1, Cy 1" in table.page()

    too_many = dict(points, jokers={"Bob": 2, "Cy": 1})
    table.refused(
        HandRecord(pitcher="Cy", bid=3, points=too_many), "count_jokers_0", "there are only 2"
    )


def test_roadhouse_wins_by_two_and_asks_for_every_trick(client, make_game):
    table = Table(client, make_game("roadhouse", ("Ann", "Bob", "Cy")))
    four = ("high", "low", "jack", "game")
    assert 'name="all_tricks"' in table.page()

    # The moon needs every trick too: all four points without them is set back 15.
    state = table.play(HandRecord(pitcher="Bob", bid="moon", points=everything("Bob", four)))
    assert state.result.scores == {"Ann": 0, "Bob": -15, "Cy": 0}
    state = table.play(
        HandRecord(pitcher="Cy", bid="moon", points=everything("Cy", four), all_tricks=True)
    )
    assert state.result.scores == {"Ann": 0, "Bob": -15, "Cy": 15}
    assert (state.result.winner, state.result.won_by) == ("Cy", "win_by")
    assert "Cy wins: reached 15 with a lead of 15" in table.page()


# ---- The new-game screen ----


def test_new_game_screen_lists_every_preset_in_its_group(client):
    html = client.get(reverse("game_new")).content.decode()

    groups = re.findall(r'<details class="preset-group" id="presets-([\w-]+)"', html)
    assert groups == list(GROUPS)
    for group in GROUPS:
        section = html.split(f'id="presets-{group}"', 1)[1].split("</details>", 1)[0]
        assert str(GROUP_LABELS[group]) in section
        names = re.findall(r'name="preset" value="([\w-]+)"', section)
        assert names == [name for name in PRESETS if PRESET_INFO[name].group == group]
        for name in names:
            assert PRESET_INFO[name].label in section
            assert PRESET_INFO[name].description.replace("'", "&#x27;") in section
    # The default preset's group is open.
    assert '<details class="preset-group" id="presets-classic" open>' in html
    # A preset played in teams says so, for the team fields.
    assert re.search(r'value="ten-point"[^>]*data-teams', html)
    assert not re.search(r'value="razzle-dazzle"[^>]*data-teams', html)


def test_the_presets_words_are_the_engines():
    for group, label in GROUPS.items():
        assert str(GROUP_LABELS[group]) == label


@pytest.mark.parametrize("language", ["ru", "nb"])
def test_every_presets_words_are_in_the_catalogs(language):
    """Each preset's name and description, marked where the preset is written, is in
    the catalogs (makemessages collects the rules' gettext_noop); tests/test_i18n.py
    checks that every entry there is translated."""
    catalog = trans_real.translation(language)._catalog
    for info in PRESET_INFO.values():
        assert catalog.get(info.label) and catalog.get(info.description), info.key
    with translation.override(language):
        assert preset_description("setback") == catalog.get(PRESET_INFO["setback"].description)
