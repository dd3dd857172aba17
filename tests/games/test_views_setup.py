from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

import pytest
from django.urls import reverse

from pitchkeeper.clubs.models import Player
from pitchkeeper.games.models import Game
from pitchkeeper.rules import PRESETS

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
NAMES = ("Ann", "Bob", "Cy", "Dee")


@pytest.fixture
def players(club) -> dict[str, Player]:
    return {name: Player.objects.create(club=club, name=name) for name in NAMES}


def setup_post(
    seated: list[Player], preset: str = "setback", teams: dict[Player, str] | None = None, **extra
) -> dict[str, Any]:
    """A new-game form as a browser posts it: ``seated`` in seat order, the preset's
    own settings, ``extra`` on top."""
    rules = PRESETS[preset]
    data: dict[str, Any] = {
        "players": [str(p.pk) for p in seated],
        "preset": preset,
        "settings_for": preset,
        "target": rules.target,
        "min_bid": rules.min_bid,
        "all_pass": rules.all_pass,
        "settlement": rules.settlement,
        "chips_per_setback": rules.chips_per_setback,
        "ante": rules.ante,
        "action": "start",
    }
    if rules.dealer_may_steal:
        data["dealer_may_steal"] = "on"
    for seat, player in enumerate(seated, start=1):
        data[f"seat_{player.pk}"] = seat
    for player, team in (teams or {}).items():
        data[f"team_{player.pk}"] = team
    return data | extra


def start(client, data, **headers):
    return client.post(reverse("game_new"), data, **headers)


def refused(response, message: str) -> str:
    html = response.content.decode()
    assert response.status_code == 400
    assert message in html
    assert not Game.objects.exists()
    return html


def checked(html: str) -> list[str]:
    """The names ticked to play, in the order shown."""
    return re.findall(r'value="\d+" id="play-\d+" checked><span>([^<]+)</span>', html)


# The page


def test_first_game_page_offers_the_roster_and_the_default_preset(client, players):
    response = client.get(reverse("game_new"))

    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" in html
    assert checked(html) == []
    for name in NAMES:
        assert f"<span>{name}</span>" in html
    assert 'value="setback" id="id_preset_0" required checked' in html
    assert 'name="target" value="7"' in html
    assert "Settings for Setback" in html
    for description in ("Bids 2–4, to 7", "No bidding"):
        assert description in html


def test_retired_players_are_not_offered(client, players):
    Player.objects.filter(name="Dee").update(retired=True)

    html = client.get(reverse("game_new")).content.decode()

    assert "<span>Dee</span>" not in html


def test_defaults_are_the_last_games_table_and_rules_with_the_next_dealer(
    client, players, make_game
):
    previous = make_game({"preset": "auction-pitch", "target": 11}, ("Cy", "Ann", "Dee", "Bob"))
    Game.objects.filter(pk=previous.game.pk).update_counted(chip_value=Decimal("0.25"))

    html = client.get(reverse("game_new")).content.decode()

    assert checked(html) == ["Cy", "Ann", "Dee", "Bob"]
    # make_game deals first from the first seat, Cy: the next game starts with Ann.
    assert f'<option value="{players["Ann"].pk}" selected>Ann</option>' in html
    assert 'value="auction-pitch" id="id_preset_1" required checked' in html
    assert 'name="target" value="11"' in html
    assert 'name="min_bid" value="1"' in html
    assert 'value="dealer_forced" id="id_all_pass_1" required checked' in html
    assert 'name="chip_value" value="0.25"' in html


def test_defaults_skip_retired_players_and_keep_teams(client, players, make_game):
    make_game("partnership", NAMES, teams={"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]})
    Player.objects.filter(name="Bob").update(retired=True)

    html = client.get(reverse("game_new")).content.decode()

    assert checked(html) == ["Ann", "Cy", "Dee"]
    # Bob, after Ann, is retired: Cy deals first.
    assert f'<option value="{players["Cy"].pk}" selected>Cy</option>' in html
    assert 'name="team_name_1" value="Us"' in html
    assert 'name="team_name_2" value="Them"' in html
    assert f'<select name="team_{players["Dee"].pk}"' in html
    assert re.search(rf'name="team_{players["Dee"].pk}".*?<option value="2" selected>', html, re.S)


def test_team_names_made_up_from_the_players_are_made_up_again(client, players, make_game):
    make_game("partnership", NAMES, teams={"Ann & Cy": ["Ann", "Cy"], "Bob & Dee": ["Bob", "Dee"]})

    html = client.get(reverse("game_new")).content.decode()

    assert 'name="team_name_1" maxlength="40"' in html
    assert "Ann &amp; Cy" not in html


# Starting a game


def test_starting_a_game_saves_the_table_and_goes_to_the_game(client, players):
    ann, bob, cy, dee = players.values()
    data = setup_post([cy, ann, bob], first_dealer=bob.pk, target=9, chip_value="0.50")

    response = start(client, data)

    game = Game.objects.get()
    assert response.status_code == 302
    assert response.url == reverse("game", args=[game.pk])
    assert [seat.player.name for seat in game.seats.all()] == ["Cy", "Ann", "Bob"]
    assert game.first_dealer == bob
    assert game.rules["preset"] == "setback"
    assert game.rules["target"] == 9
    assert game.chip_value == Decimal("0.50")


def test_seat_numbers_order_the_table_and_blank_seats_go_last(client, players):
    ann, bob, cy, dee = players.values()
    data = setup_post([ann, bob, cy, dee])
    data |= {f"seat_{ann.pk}": 5, f"seat_{bob.pk}": "", f"seat_{cy.pk}": 1, f"seat_{dee.pk}": 3}

    start(client, data)

    assert [s.player.name for s in Game.objects.get().seats.all()] == ["Cy", "Dee", "Ann", "Bob"]


def test_the_first_dealer_defaults_to_seat_one(client, players):
    ann, bob, cy, dee = players.values()

    start(client, setup_post([dee, cy], first_dealer=""))

    assert Game.objects.get().first_dealer == dee


def test_a_new_player_joins_the_roster_and_the_table(client, players):
    ann, bob = players["Ann"], players["Bob"]
    data = setup_post([ann, bob], new_player=" Eve ", first_dealer="new")
    data |= {"seat_new": 1, f"seat_{ann.pk}": 2, f"seat_{bob.pk}": 3}

    start(client, data)

    game = Game.objects.get()
    eve = Player.objects.get(name="Eve")
    assert [s.player.name for s in game.seats.all()] == ["Eve", "Ann", "Bob"]
    assert game.first_dealer == eve


def test_a_partnership_game_with_teams(client, players):
    ann, bob, cy, dee = players.values()
    teams = {ann: "1", bob: "2", cy: "1", dee: "2"}
    data = setup_post([ann, bob, cy, dee], "partnership", teams, team_name_2="Them")

    start(client, data)

    game = Game.objects.get()
    assert {s.player.name: s.team for s in game.seats.all()} == {
        "Ann": "Ann & Cy",
        "Bob": "Them",
        "Cy": "Ann & Cy",
        "Dee": "Them",
    }
    assert game.rules["partnership"] is True


def test_team_choices_are_ignored_when_the_game_has_no_teams(client, players):
    ann, bob, cy, dee = players.values()

    start(client, setup_post([ann, bob, cy], teams={ann: "1", bob: "2", cy: "1"}))

    assert {s.team for s in Game.objects.get().seats.all()} == {""}


# Refusals: nothing is saved, the reason is next to the field


def test_one_player_is_refused(client, players):
    html = refused(start(client, setup_post([players["Ann"]])), "Pick at least two players.")

    assert 'id="players-errors"' in html


def test_no_player_is_refused(client, players):
    refused(start(client, setup_post([])), "Pick at least two players.")


def test_eight_players_are_refused_and_the_new_player_is_not_kept(club, client, players):
    more = [Player.objects.create(club=club, name=name) for name in ("Eve", "Fay", "Gus")]
    data = setup_post([*players.values(), *more], new_player="Hal")

    html = refused(start(client, data), "Setback is played by 2 to 7 players, not 8")

    assert 'id="players-errors"' in html
    assert not Player.objects.filter(name="Hal").exists()


def test_a_dealer_who_is_not_seated_is_refused(client, players):
    ann, bob, cy, dee = players.values()

    html = refused(
        start(client, setup_post([ann, bob], first_dealer=dee.pk)), "Dee is not at this table"
    )

    assert 'id="id_first_dealer_error"' in html


def test_the_new_player_as_dealer_needs_a_name(client, players):
    ann, bob = players["Ann"], players["Bob"]

    refused(
        start(client, setup_post([ann, bob], first_dealer="new")),
        "Type the new player&#x27;s name, or pick another first dealer.",
    )


def test_a_partnership_without_teams_is_refused(client, players):
    refused(
        start(client, setup_post(list(players.values()), "partnership")),
        "Partnership is a partnership game: give the teams",
    )


@pytest.mark.parametrize("numbered", [True, False])
def test_partners_are_seated_opposite_whatever_order_they_were_picked_in(client, players, numbered):
    ann, bob, cy, dee = players.values()
    teams = {ann: "1", bob: "1", cy: "2", dee: "2"}
    data = setup_post([ann, bob, cy, dee], "partnership", teams)
    if not numbered:
        data |= {f"seat_{p.pk}": "" for p in players.values()}

    response = start(client, data)

    assert response.status_code == 302
    seats = Game.objects.get().seats.order_by("position")
    # Each team keeps its players' order; the teams alternate, partners opposite.
    assert [seat.player.name for seat in seats] == ["Ann", "Cy", "Bob", "Dee"]


def test_a_player_without_a_team_in_a_partnership_is_refused(client, players):
    ann, bob, cy, dee = players.values()
    teams = {ann: "1", bob: "2", cy: "1"}

    refused(
        start(client, setup_post([ann, bob, cy, dee], "partnership", teams)),
        "every player must be in exactly one team",
    )


def partnership_post(players, **extra) -> dict[str, Any]:
    ann, bob, cy, dee = players.values()
    teams = {ann: "1", bob: "2", cy: "1", dee: "2"}
    return setup_post([ann, bob, cy, dee], "partnership", teams, **extra)


def test_a_team_cannot_have_a_players_name(client, players):
    html = refused(
        start(client, partnership_post(players, team_name_1="ann")),
        "A team cannot have a player&#x27;s name.",
    )

    assert 'id="id_team_name_1_error"' in html


def test_two_teams_cannot_have_the_same_name(client, players):
    html = refused(
        start(client, partnership_post(players, team_name_1="Us", team_name_2="US")),
        "Two teams cannot have the same name.",
    )

    assert 'id="id_team_name_2_error"' in html


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("0", "Ensure this value is greater than or equal to 1."),
        ("seven", "Enter a whole number."),
        ("", "This field is required."),
    ],
)
def test_a_bad_target_is_refused(client, players, target, message):
    html = refused(
        start(client, setup_post(list(players.values()), target=target)),
        message,
    )

    assert 'id="id_target_error"' in html
    assert "The game was not started: see the notes below." in html


def test_a_lowest_bid_above_the_highest_is_refused(client, players):
    refused(
        start(client, setup_post(list(players.values()), min_bid=5)),
        "The lowest bid cannot be above 4, the highest bid in this game.",
    )


def test_two_players_in_one_seat_are_refused(client, players):
    ann, bob, cy, dee = players.values()
    data = setup_post([ann, bob, cy]) | {f"seat_{cy.pk}": 2}

    refused(start(client, data), "Bob already sits in seat 2.")


@pytest.mark.parametrize("name", ["bob", "BOB"])
def test_a_new_player_with_a_roster_name_in_any_case_is_refused(client, players, name):
    html = refused(
        start(client, setup_post([players["Ann"]], new_player=name)),
        "There is already a player called Bob.",
    )

    assert 'aria-describedby="new-player-errors"' in html
    assert Player.objects.count() == 4


def test_a_new_player_with_a_name_too_long_is_refused(client, players):
    refused(
        start(client, setup_post([players["Ann"]], new_player="x" * 41)),
        "at most 40 characters long",
    )
    assert Player.objects.count() == 4


def test_a_refused_form_keeps_what_was_entered(client, players):
    ann, bob, cy, dee = players.values()

    html = refused(
        start(client, setup_post([bob, ann], target=0, new_player="Eve")),
        "Ensure this value is greater than or equal to 1.",
    )

    assert checked(html) == ["Bob", "Ann"]
    assert 'value="Eve"' in html


# Rearranging without starting


def test_moving_a_player_up_renumbers_the_seats(client, players):
    ann, bob, cy, dee = players.values()
    data = setup_post([ann, bob, cy]) | {"move": f"{cy.pk}:up"}

    response = start(client, data)

    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" in html
    assert checked(html) == ["Ann", "Cy", "Bob"]
    assert f'name="seat_{cy.pk}" value="2"' in html
    assert not Game.objects.exists()


def test_moving_with_htmx_answers_with_the_players_only(client, players):
    ann, bob, cy, dee = players.values()
    data = setup_post([ann, bob, cy]) | {"move": f"{ann.pk}:down"}

    response = start(client, data, **HTMX)

    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html
    assert html.lstrip().startswith('<fieldset class="card" id="players"')
    assert checked(html) == ["Bob", "Ann", "Cy"]
    # The unticked player keeps no seat.
    assert f'name="seat_{dee.pk}" class' in html


def test_moving_past_the_end_changes_nothing(client, players):
    ann, bob, cy, dee = players.values()

    html = start(client, setup_post([ann, bob]) | {"move": f"{ann.pk}:up"}).content.decode()

    assert checked(html) == ["Ann", "Bob"]


def test_a_named_new_player_can_be_moved(client, players):
    ann, bob = players["Ann"], players["Bob"]
    data = setup_post([ann, bob], new_player="Eve", seat_new=3) | {"move": "new:up"}

    html = start(client, data).content.decode()

    assert 'name="seat_new" value="2"' in html
    assert 'value="Eve"' in html
    assert not Player.objects.filter(name="Eve").exists()


def test_picking_a_preset_shows_its_settings(client, players):
    data = setup_post(list(players.values())) | {"action": "preset", "preset": "partnership"}

    response = start(client, data)

    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" in html
    assert "Settings for Partnership" in html
    assert 'name="target" value="11"' in html
    assert 'name="settings_for" value="partnership"' in html
    assert len(checked(html)) == 4


def test_picking_a_preset_with_htmx_answers_with_the_settings_only(client, players):
    data = setup_post(list(players.values())) | {"action": "preset", "preset": "blind-all-fours"}

    response = start(client, data, **HTMX)

    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<fieldset class="card" id="settings">')
    assert 'name="target" value="11"' in html
    assert 'name="dealer_may_steal" id="id_dealer_may_steal">' in html


def test_picking_the_last_games_preset_again_brings_back_its_settings(client, players, make_game):
    make_game(
        {"preset": "partnership", "target": 15}, NAMES, teams={"A": NAMES[::2], "B": NAMES[1::2]}
    )
    data = setup_post(list(players.values())) | {"action": "preset", "preset": "partnership"}

    html = start(client, data, **HTMX).content.decode()

    assert 'name="target" value="15"' in html


def test_starting_with_settings_shown_for_another_preset_asks_to_check_them(client, players):
    # Without JavaScript the settings stay those of the preset first shown.
    data = setup_post(list(players.values())) | {"preset": "partnership"}

    response = start(client, data)

    html = response.content.decode()
    assert response.status_code == 200
    assert "These are the settings for Partnership: check them, then start the game." in html
    assert 'name="target" value="11"' in html
    assert not Game.objects.exists()


def test_the_screen_only_takes_get_and_post(client):
    assert client.put(reverse("game_new")).status_code == 405


@pytest.mark.parametrize(
    ("name", "message"),
    [
        (
            "Us\u200b",
            "A name cannot contain invisible or control characters (U+200B ZERO WIDTH SPACE).",
        ),
        ("ＡＮＮ", "A team cannot have a player&#x27;s name."),
    ],
)
def test_a_team_name_with_hidden_characters_or_a_players_in_other_letters(
    client, players, name, message
):
    html = refused(start(client, partnership_post(players, team_name_1=name)), message)

    assert 'id="id_team_name_1_error"' in html


def test_a_team_name_is_normalised(client, players):
    response = start(client, partnership_post(players, team_name_1="  Ｕｓ   two "))

    assert response.status_code == 302
    assert set(Game.objects.get().seats.values_list("team", flat=True)) >= {"Us two"}


@pytest.mark.parametrize("value", ["1_1", "١١", "１１", "+11", "11.0"])
@pytest.mark.parametrize("field", ["target", "ante"])
def test_a_setting_in_anything_but_plain_digits_is_refused(client, players, field, value):
    seated = list(players.values())[:4]

    response = start(client, setup_post(seated, **{field: value}))

    refused(response, "Enter a whole number.")
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    ("names", "message"),
    [
        ({"team_name_1": "Аnn"}, "“Аnn” looks like “Ann”, a player at this table; "),
        (
            {"team_name_1": "Us", "team_name_2": "Uѕ"},
            "“Uѕ” looks like “Us”, the name of another team; ",
        ),
    ],
)
def test_a_team_name_that_looks_like_a_player_or_the_other_team_is_refused(
    client, players, names, message
):
    html = refused(start(client, partnership_post(players, **names)), message)

    field = "team_name_1" if len(names) == 1 else "team_name_2"
    assert f'id="id_{field}_error"' in html
