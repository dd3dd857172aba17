from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from pitchkeeper.games.hands import hand_record
from pitchkeeper.games.models import Game, Hand
from pitchkeeper.games.replay import game_state
from pitchkeeper.rules import HandRecord
from tests.conftest import entry_basis

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def hand_post(pitcher="Bob", bid="2", high="Bob", low="Bob", jack="nobody", game="Cy", **extra):
    return {
        "pitcher": pitcher,
        "bid": bid,
        "point_high": high,
        "point_low": low,
        "point_jack": jack,
        "point_game": game,
        "action": "save",
        **extra,
    }


@pytest.fixture
def game(make_game):
    return make_game().game


def test_game_screen_full_page(client, game):
    response = client.get(reverse("game", args=[game.pk]))

    assert response.status_code == 200
    html = response.content.decode()
    assert "<html" in html
    assert 'id="table"' in html
    assert "Ann deals, Bob bids first." in html
    assert "Playing to 7." in html
    assert 'name="point_jack" value="nobody"' in html


def test_game_screen_htmx_fragment(client, game):
    response = client.get(reverse("game", args=[game.pk]), **HTMX)

    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html
    assert html.lstrip().startswith('<div id="table">')


def test_unknown_game_is_404(client):
    assert client.get(reverse("game", args=[999])).status_code == 404


def test_saving_a_hand_in_seven_taps_then_redirects(client, game):
    response = client.post(
        reverse("hand_add", args=[game.pk]),
        {**entry_basis(game.pk), **entry_basis(game.pk), **hand_post()},
    )

    assert response.status_code == 302
    assert response["Location"] == reverse("game", args=[game.pk])
    state = game_state(game=game)
    assert state.result.scores == {"Ann": 0, "Bob": 2, "Cy": 1, "Dee": 0}
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert "Bob bid 2" in page
    assert "Bob deals, Cy bids first." in page


def test_saving_a_hand_with_htmx_returns_the_fresh_table(client, game):
    response = client.post(
        reverse("hand_add", args=[game.pk]),
        {**entry_basis(game.pk), **entry_basis(game.pk), **hand_post()},
        **HTMX,
    )

    assert response.status_code == 200
    html = response.content.decode()
    assert "<html" not in html
    assert "Hand 2: Bob deals" in html


@pytest.mark.parametrize(
    ("post", "field", "message"),
    [
        # Sent as a pitcher and a bid, told on the grid that picks both.
        (hand_post(bid="5"), "contract", "Select a valid choice"),
        (hand_post(pitcher=""), "contract", "Choose the pitcher and the bid"),
        (hand_post(contract="Bob:5"), "contract", "Select a valid choice"),
        (hand_post(pitcher="", bid="", contract="Zed:2"), "contract", "Select a valid choice"),
        (hand_post(high=""), "point_high", "Say who took High."),
        (hand_post(high="Zed"), "point_high", "Select a valid choice"),
        # Each auction entry is told beside its own field: the first one missing...
        (hand_post(bid="", auction_0="3", auction_1="2"), "auction_2", "has no bid or pass yet"),
        (
            hand_post(
                pitcher="",
                bid="",
                auction_0="3",
                auction_1="2",
                auction_2="pass",
                auction_3="pass",
            ),
            # ... or the first the rules refuse.
            "auction_1",
            "Cy bid 2 but Bob already bid 3; each bid must be higher",
        ),
    ],
)
def test_illegal_hand_is_refused_next_to_its_field(client, game, post, field, message):
    for headers in ({}, HTMX):
        response = client.post(
            reverse("hand_add", args=[game.pk]),
            {**entry_basis(game.pk), **entry_basis(game.pk), **post},
            **headers,
        )

        assert response.status_code == 400
        form = response.context["form"]
        assert any(message in error for error in form.errors[field]), form.errors
        assert message.replace("'", "&#x27;") in response.content.decode()
    assert not Hand.objects.exists()


def test_a_save_lacking_several_things_names_each_beside_its_control(client, game):
    """Fails when the form is told only the first thing missing."""
    post = hand_post(pitcher="", bid="", high="", jack="", game="")
    for headers in ({}, HTMX):
        response = client.post(
            reverse("hand_add", args=[game.pk]),
            {**entry_basis(game.pk), **entry_basis(game.pk), **post},
            **headers,
        )

        assert response.status_code == 400
        errors = response.context["form"].errors
        assert sorted(errors) == ["contract", "point_game", "point_high", "point_jack"]
        html = response.content.decode()
        for point in ("High", "Jack", "Game"):
            assert f"Say who took {point}." in html
        assert ("<html" in html) is not bool(headers)
    assert not Hand.objects.exists()


def test_dealer_steal_of_a_smudge_is_refused(client, game):
    post = hand_post(
        pitcher="",
        bid="",
        auction_0="4",
        auction_1="pass",
        auction_2="pass",
        auction_3="4",
        high="Bob",
        low="Bob",
        jack="Bob",
        game="Bob",
    )
    response = client.post(
        reverse("hand_add", args=[game.pk]),
        {**entry_basis(game.pk), **entry_basis(game.pk), **post},
    )

    assert response.status_code == 400
    assert "a bid of 4 cannot be taken away" in response.content.decode()


def test_auction_fragment_offers_only_legal_bids(client, game):
    # Bob (eldest) bids 3: Cy may only pass or bid 4; Ann, the dealer, could steal 3.
    response = client.post(
        reverse("auction", args=[game.pk]),
        {"auction_0": "3", "auction_1": "pass", "auction_2": "pass"},
        **HTMX,
    )

    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html
    assert 'name="auction_1" value="2" id="id_auction_1_1" disabled' in html
    assert 'name="auction_1" value="4" id="id_auction_1_3" checked' not in html
    assert 'name="auction_3" value="3" id="id_auction_3_2" disabled' not in html
    assert 'name="auction_3" value="2" id="id_auction_3_1" disabled' in html


def test_misdeal_and_all_passed_are_one_tap_each(client, game):
    url = reverse("hand_add", args=[game.pk])
    client.post(url, {**entry_basis(game.pk), **entry_basis(game.pk), "action": "misdeal"})
    client.post(url, {**entry_basis(game.pk), **entry_basis(game.pk), "action": "passed"})

    hands = list(Hand.objects.order_by("number"))
    assert [(h.kind, h.dealer.name) for h in hands] == [("misdeal", "Ann"), ("redeal", "Bob")]
    assert game_state(game=game).result.dealer == "Bob"


def test_all_passed_under_dealer_forced_is_refused(client, make_game):
    game = make_game("auction-pitch").game

    response = client.post(
        reverse("hand_add", args=[game.pk]),
        {**entry_basis(game.pk), **entry_basis(game.pk), "action": "passed"},
    )

    assert response.status_code == 400
    assert "must bid at least 2" in response.content.decode()
    assert not Hand.objects.exists()


def test_a_button_the_form_does_not_have_saves_nothing(client, game):
    response = client.post(
        reverse("hand_add", args=[game.pk]),
        {**entry_basis(game.pk), **hand_post(), "action": "redeal"},
    )

    assert response.status_code == 400
    assert "action: redeal is not among the choices offered" in response.content.decode()
    assert not Hand.objects.exists()


def test_smudge_wins_and_game_over_shows_reason_and_settlement(client, game):
    game.chip_value = "0.50"
    game.save()
    post = hand_post(bid="4", high="Bob", low="Bob", jack="Bob", game="Bob")

    client.post(
        reverse("hand_add", args=[game.pk]),
        {**entry_basis(game.pk), **entry_basis(game.pk), **post},
    )

    html = client.get(reverse("game", args=[game.pk])).content.decode()
    assert "Bob wins with a smudge: bid 4, took every point, and was not in the hole" in html
    assert "Ann pays Bob 2 chips (1.00)" in html
    assert "Rematch" in html
    assert 'name="point_high"' not in html  # no hand after the win
    response = client.post(
        reverse("hand_add", args=[game.pk]),
        {**entry_basis(game.pk), **entry_basis(game.pk), **hand_post()},
    )
    assert response.status_code == 409


def test_undo_and_redo(client, game):
    client.post(
        reverse("hand_add", args=[game.pk]),
        {**entry_basis(game.pk), **entry_basis(game.pk), **hand_post()},
    )

    response = client.post(reverse("undo", args=[game.pk]), **HTMX)
    assert response.status_code == 200
    assert not Hand.objects.exists()
    assert "Redo" in response.content.decode()

    response = client.post(reverse("redo", args=[game.pk]), entry_basis(game.pk))
    assert response.status_code == 302
    assert game_state(game=game).result.scores["Bob"] == 2
    assert (
        client.post(reverse("redo", args=[game.pk]), entry_basis(game.pk)).status_code == 302
    )  # nothing left
    assert Hand.objects.count() == 1


def test_undo_with_nothing_to_undo(client, game):
    response = client.post(reverse("undo", args=[game.pk]), **HTMX)
    assert response.status_code == 409
    assert "There is no hand to undo." in response.content.decode()


def test_undo_of_the_winning_hand_reopens_the_game(client, game):
    client.post(
        reverse("hand_add", args=[game.pk]),
        {
            **entry_basis(game.pk),
            **entry_basis(game.pk),
            **hand_post(bid="4", high="Bob", low="Bob", jack="Bob", game="Bob"),
        },
    )
    client.post(reverse("undo", args=[game.pk]))

    game.refresh_from_db()
    assert game.finished_at is None
    assert 'name="point_high"' in client.get(reverse("game", args=[game.pk])).content.decode()


def test_edit_page_and_fragment(client, game):
    hand_record(
        game=game,
        record=HandRecord(
            pitcher="Bob", bid=2, points={"high": "Bob", "low": "Bob", "jack": None, "game": "Cy"}
        ),
    )
    url = reverse("hand_edit", args=[game.pk, 1])

    page = client.get(url)
    fragment = client.get(url, **HTMX)

    assert page.status_code == fragment.status_code == 200
    assert "<html" in page.content.decode()
    assert "<html" not in fragment.content.decode()
    assert re.search(r'value="Bob:2" id="id_contract_\d+" checked', page.content.decode())
    assert client.get(reverse("hand_edit", args=[game.pk, 2])).status_code == 404


def test_editing_an_earlier_hand_changes_the_winner(client, game):
    url = reverse("hand_add", args=[game.pk])
    client.post(
        url,
        {
            **entry_basis(game.pk),
            **entry_basis(game.pk),
            **hand_post(pitcher="Bob", bid="3", high="Bob", low="Bob", game="Bob"),
        },
    )
    client.post(
        url,
        {
            **entry_basis(game.pk),
            **entry_basis(game.pk),
            **hand_post(pitcher="Cy", bid="4", high="Cy", low="Cy", jack="Cy", game="Cy"),
        },
    )
    game.refresh_from_db()
    assert game.winner.name == "Cy"

    # Cy's smudge missed the Jack after all: set back, the game goes on.
    response = client.post(
        reverse("hand_edit", args=[game.pk, 2]),
        hand_post(pitcher="Cy", bid="4", high="Cy", low="Cy", jack="Dee", game="Cy"),
    )

    assert response.status_code == 302
    game.refresh_from_db()
    assert game.winner is None and game.finished_at is None
    assert game_state(game=game).result.scores == {"Ann": 0, "Bob": 3, "Cy": -4, "Dee": 1}


def test_bad_edit_is_refused_and_changes_nothing(client, game):
    hand_record(game=game, record=HandRecord(misdeal=True))
    response = client.post(reverse("hand_edit", args=[game.pk, 1]), hand_post(bid="9"), **HTMX)

    assert response.status_code == 400
    assert "<html" not in response.content.decode()
    assert Hand.objects.get().kind == "misdeal"


def test_delete_an_earlier_hand(client, game):
    hand_record(game=game, record=HandRecord(misdeal=True))
    hand_record(game=game, record=HandRecord(misdeal=True))

    response = client.post(reverse("hand_delete", args=[game.pk, 1]))

    assert response.status_code == 302
    assert list(Hand.objects.values_list("number", flat=True)) == [1]


def test_rematch_keeps_the_table_and_moves_the_deal(client, game):
    game.chip_value = "0.25"
    game.save()
    response = client.post(reverse("rematch", args=[game.pk]))

    new = Game.objects.exclude(pk=game.pk).get()
    assert response["Location"] == reverse("game", args=[new.pk])
    assert [s.player.name for s in new.seats.all()] == ["Ann", "Bob", "Cy", "Dee"]
    assert new.first_dealer.name == "Bob"
    assert new.rules == game.rules
    assert str(new.chip_value) == "0.25"


def test_partnership_game_screen_has_team_choices_and_all_tricks(client, make_game):
    game = make_game("partnership", teams={"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]}).game

    html = client.get(reverse("game", args=[game.pk])).content.decode()

    assert 'name="point_high" value="Us"' in html
    assert 'name="all_tricks"' in html
    assert "5 smudge" in html


def test_count_categories_ask_for_numbers(client, make_game):
    game = make_game("pitch-with-bidding", names=("Ann", "Bob", "Cy")).game
    post = {
        "pitcher": "Bob",
        "bid": "5",
        "point_high": "Bob",
        "point_low": "Cy",
        "point_jack": "nobody",
        "count_queens_1": "1",
        "count_aces_1": "1",
        "action": "save",
    }

    response = client.post(
        reverse("hand_add", args=[game.pk]),
        {**entry_basis(game.pk), **entry_basis(game.pk), **post},
    )

    assert response.status_code == 302, response.context["form"].errors
    assert game_state(game=game).result.scores == {"Ann": 0, "Bob": 7, "Cy": 1}


def _count_queries(client, url, data=None):
    with CaptureQueriesContext(connection) as queries:
        if data is None:
            client.get(url)
        else:
            client.post(url, data)
    return len(queries.captured_queries)


def test_game_screen_and_hand_submit_cost_fixed_queries(client, game):
    url = reverse("game", args=[game.pk])
    add = reverse("hand_add", args=[game.pk])
    client.post(add, {**entry_basis(game.pk), **entry_basis(game.pk), "action": "misdeal"})
    short_page, short_submit = (
        _count_queries(client, url),
        _count_queries(client, add, {"action": "misdeal"}),
    )
    for _ in range(25):
        hand_record(game=game, record=HandRecord(misdeal=True))

    assert _count_queries(client, url) == short_page
    assert _count_queries(client, add, {"action": "misdeal"}) == short_submit


def test_edit_saved_with_htmx_sends_the_browser_to_the_game(client, game):
    hand_record(game=game, record=HandRecord(misdeal=True))

    response = client.post(reverse("hand_edit", args=[game.pk, 1]), hand_post(), **HTMX)

    # Not a 302: htmx would follow it inside the request and swap the game page into
    # the edit form, which would vanish.
    assert response.status_code == 200
    assert response["HX-Redirect"] == reverse("game", args=[game.pk])
    assert Hand.objects.get().kind == "played"


@pytest.mark.parametrize("name", ["game", "hand_edit"])
def test_htmx_swaps_form_errors_on_the_game_screens(client, game, name):
    hand_record(game=game, record=HandRecord(misdeal=True))
    args = [game.pk] if name == "game" else [game.pk, 1]

    html = client.get(reverse(name, args=args)).content.decode()

    # Without this, htmx drops a 400 answer and the errors never reach the screen.
    assert '<meta name="htmx-config"' in html
    assert '"code": "40[09]", "swap": true' in html


def test_chart_coordinates_keep_a_decimal_point_in_every_language(client, game):
    for pitcher in ("Bob", "Cy", "Dee"):
        record = HandRecord(
            pitcher=pitcher,
            bid=3,
            points={"high": "Bob", "low": "Cy", "jack": None, "game": "Ann"},
        )
        hand_record(game=game, record=record)

    for language in ("en", "ru", "nb"):
        html = client.get(reverse("game", args=[game.pk]), HTTP_ACCEPT_LANGUAGE=language)
        svg = html.content.decode().split('<figure class="chart">')[1].split("</svg>")[0]
        numbers = re.findall(r'\b(?:x|y|x1|x2|y1|y2)="([^"]*)"', svg)
        assert numbers, svg
        # "168,0" from a Russian or Norwegian number format is no SVG length.
        assert all(re.fullmatch(r"-?\d+(\.\d+)?", number) for number in numbers), numbers


def history_item(html: str, number: int) -> str:
    """The text of hand ``number`` in the hand list of the game screen."""
    items = re.findall(r'<li class="card">(.*?)</li>\s*(?=<li class="card">|</ol>)', html, re.S)
    return next(item for item in items if f"<strong>#{number}</strong>" in item)


def test_a_pitcher_excused_by_a_revoke_is_not_shown_as_set_back(client, make_game):
    game = make_game("setback", ("Ann", "Bob", "Cy")).game
    # Bob bid 3 and took two points, but Cy revoked: Bob is short yet not set back.
    record = HandRecord(
        pitcher="Bob",
        bid=3,
        points={"high": "Bob", "low": "Bob", "jack": None, "game": "Cy"},
        revoked=("Cy",),
    )
    hand_record(game=game, record=record)
    hand_record(
        game=game,
        record=HandRecord(
            pitcher="Bob", bid=3, points={"high": "Bob", "low": "Cy", "jack": None, "game": "Cy"}
        ),
    )

    html = client.get(reverse("game", args=[game.pk])).content.decode()

    excused = history_item(html, 1)
    assert "short, excused by the revoke" in excused
    assert "set back" not in excused and "✓" not in excused
    assert "✗ set back" in history_item(html, 2)


def test_a_steal_is_marked_in_the_hand_list(client, make_game):
    game = make_game("setback", ("Ann", "Bob", "Cy")).game
    # Ann deals: Bob bids 3, Cy passes, Ann, the dealer, takes it by bidding 3 too.
    stolen = HandRecord(
        auction=(("Bob", 3), ("Cy", None), ("Ann", 3)),
        points={"high": "Ann", "low": "Ann", "jack": None, "game": "Ann"},
    )
    hand_record(game=game, record=stolen)
    # Bob deals: Cy bids 2, Ann bids 3, Bob, the dealer, passes: no steal.
    outbid = HandRecord(
        auction=(("Cy", 2), ("Ann", 3), ("Bob", None)),
        points={"high": "Ann", "low": "Ann", "jack": None, "game": "Ann"},
    )
    hand_record(game=game, record=outbid)

    html = client.get(reverse("game", args=[game.pk])).content.decode()

    assert "stolen from Bob" in history_item(html, 1)
    assert "stolen" not in history_item(html, 2)
    assert html.count("stolen from") == 1


def test_one_tap_on_the_grid_gives_the_pitcher_and_the_bid(client, game):
    post = hand_post(pitcher="", bid="", contract="Cy:3", high="Cy", low="Cy", game="Cy")

    response = client.post(
        reverse("hand_add", args=[game.pk]),
        {**entry_basis(game.pk), **entry_basis(game.pk), **post},
        **HTMX,
    )

    assert response.status_code == 200
    hand = game_state(game=game).result.hands[0]
    assert (hand.pitcher, hand.bid, hand.made) == ("Cy", 3, True)


@pytest.mark.parametrize(
    "contract", ["Cy\u200b:3", "Cy:3\u2060", "Cy:03", "Cy:" + "9" * 100, "Cy" * 50_000, ":"]
)
def test_a_garbled_grid_choice_is_refused_and_nothing_saved(client, game, contract):
    post = hand_post(pitcher="", bid="", contract=contract, high="Cy", low="Cy", game="Cy")

    response = client.post(
        reverse("hand_add", args=[game.pk]),
        {**entry_basis(game.pk), **entry_basis(game.pk), **post},
    )

    assert response.status_code == 400
    assert "Select a valid choice" in response.content.decode()
    assert not Hand.objects.exists()
