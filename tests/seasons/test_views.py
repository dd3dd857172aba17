"""The season pages: leaderboard, player page, ledger, seasons, exports and the
practice-game switch; full pages, htmx fragments, fixed query counts, other clubs."""

from __future__ import annotations

import csv
import io
import json
import re
from datetime import date
from unittest import mock

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import connection
from django.template.defaultfilters import floatformat
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from pitchkeeper.clubs.models import Membership, Player
from pitchkeeper.clubs.players import roster
from pitchkeeper.clubs.services import club_create
from pitchkeeper.games.models import Game
from pitchkeeper.games.services import games_import
from pitchkeeper.rules import parse_game
from pitchkeeper.rules.payments import Plan, settle_up
from pitchkeeper.seasons.models import LedgerPlan, Payment, Season
from pitchkeeper.seasons.views.shared import decimal, percent
from tests.conftest import PASSWORD, sign_in
from tests.seasons.test_stats import at, contway_game, moment, smudge_game

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def body(response) -> str:
    content = b"".join(response.streaming_content) if response.streaming else response.content
    return content.decode("utf-8")


def pages(bob: Player) -> dict[str, str]:
    return {
        "leaderboard": reverse("leaderboard"),
        "player": reverse("player_stats", args=[bob.pk]),
        "ledger": reverse("ledger"),
        "seasons": reverse("seasons"),
    }


@pytest.mark.parametrize("page", ["leaderboard", "player", "ledger", "seasons"])
def test_full_page_and_htmx_fragment(client, season_games, page):
    url = pages(season_games)[page]

    full = client.get(url)
    fragment = client.get(url, **HTMX)

    assert full.status_code == fragment.status_code == 200
    assert "<html" in body(full) and "<html" not in body(fragment)
    assert body(fragment).lstrip().startswith("<div id=")
    assert "stats.css" in body(full)
    # Going back to a page htmx put in the history asks for all of it.
    restore = client.get(url, HTTP_HX_HISTORY_RESTORE_REQUEST="true", **HTMX)
    assert "<html" in body(restore)


def test_the_leaderboard_shows_every_figure(client, season_games):
    html = body(client.get(reverse("leaderboard")))
    for heading in [
        "Rating",
        "Games",
        "Wins",
        "Win rate",
        "Average place",
        "Points per hand",
        "Hands pitched",
        "Bids made",
        "Made at 4",
        "Set back",
        "In the hole",
        "Smudges made",
        "Revokes",
        "High per hand",
        "Game per hand",
        "Net chips",
    ]:
        assert f">{heading}<" in html or f">{heading}&nbsp;" in html, heading
    assert "In a team game the team" in html
    assert "1 (1)" in html  # Ann: one game, one of them a team game


def names_in_order(html: str) -> list[str]:
    rows = html.split('<ol class="plain standings"')[1].split("</ol>")[0]
    return re.findall(r'<span class="name">([^<]*)</span>', rows)


def sorted_by(html: str) -> str:
    """The column the sort control shows as chosen."""
    return re.findall(r'<option value="([^"]+)" selected>', html.split('id="sort"')[1])[0]


def test_the_leaderboard_sorts_by_any_column(client, season_games):
    by_chips = names_in_order(body(client.get(reverse("leaderboard") + "?sort=chips")))
    assert by_chips[0] == "Bob" and by_chips[-1] == "Dee"  # +2 ... -1
    reverse_chips = names_in_order(body(client.get(reverse("leaderboard") + "?sort=-chips")))
    assert reverse_chips == ["Cy", "Dee", "Ann", "Bob"]  # equal figures by name
    by_place = names_in_order(body(client.get(reverse("leaderboard") + "?sort=place", **HTMX)))
    assert by_place == ["Ann", "Bob", "Cy", "Dee"]  # 1.5, 1.5, 2, 2: the best first
    html = body(client.get(reverse("leaderboard") + "?sort=nonsense"))
    assert sorted_by(html) == "wins"  # an unknown column sorts by the default
    assert "Ranked by wins, then net chips" in html


def test_the_leaderboard_ranks_by_wins_then_chips_and_says_so(client, season_games):
    """What a casual table expects: the most wins first, ties broken by chips; the
    rating is a column to sort by, not the ranking."""
    page = body(client.get(reverse("leaderboard")))
    fragment = body(client.get(reverse("leaderboard"), **HTMX))

    # Bob won a game (+2 chips), Ann and Cy one each in a team game (0 and -1), Dee none.
    for html in (page, fragment):
        assert "Ranked by wins, then net chips" in html
        assert names_in_order(html) == ["Bob", "Ann", "Cy", "Dee"]
        assert sorted_by(html) == "wins"
        # The note on the rating says what sorting by it does, not that the board
        # always goes by it.
        assert "the board ranks by the cautious estimate" not in html
        assert "Sorted by rating, the board goes by the cautious estimate" in html
    by_rating = body(client.get(reverse("leaderboard") + "?sort=rating"))
    assert "Ranked by the cautious rating (rating less three times its uncertainty)" in by_rating
    assert sorted_by(by_rating) == "rating"
    assert "the other way round" in body(client.get(reverse("leaderboard") + "?sort=-wins"))


def test_each_player_shows_the_headline_figures_and_the_rest_a_tap_away(client, season_games):
    """Wins, games and net chips on the player's line, with the figure sorted by; every
    other figure and the player page inside the line's fold-out."""
    for url in ("?season=all", "?season=all&sort=rating"):
        for html in (
            body(client.get(reverse("leaderboard") + url)),
            body(client.get(reverse("leaderboard") + url, **HTMX)),
        ):
            bob = html.split('<span class="name">Bob</span>')[1].split("</li>")[0]
            summary, folded = bob.split("</summary>")
            headline = re.findall(r"<span>([^<]+) <strong>", summary)
            expected = ["Wins", "Games", "Net chips"] + (["Rating"] if "rating" in url else [])
            assert headline == expected
            assert "<strong>+2</strong>" in summary
            assert "<dt>Points per hand" in folded and "<dt>Revokes" in folded
            assert reverse("player_stats", args=[season_games.pk]) in folded


def test_the_player_page(client, season_games):
    bob = season_games
    html = body(client.get(reverse("player_stats", args=[bob.pk])))
    assert '<h1 class="name">Bob</h1>' in html
    assert "Partners and opponents" in html and "Dee" in html
    assert "Longest winning streak: 1 game" in html
    assert "Bids made, by bid" in html and "<rect" in html
    assert "Points taken" in html
    assert html.count('class="game"') == 2


def test_each_game_on_the_player_page_says_who_played_and_who_won(client, season_games):
    """Two games of the same rules on the same day are told apart by their table."""
    url = reverse("player_stats", args=[season_games.pk]) + "?season=all"
    for html in (body(client.get(url)), body(client.get(url, **HTMX))):
        games = html.split('<ul class="plain games">')[1].split("</ul>")[0].split("<li>")[1:]
        team, smudge = games  # the latest first
        assert '<strong class="title">Partnership</strong>' in team
        assert '<strong class="title">Setback</strong>' in smudge
        assert "Us won" in team and "Ann, Cy, Bob, Dee" in team
        assert "place 2 of 2" in team and "· team Them" in team
        assert "Bob won" in smudge and "Bob, Ann, Cy" in smudge
        assert "place" not in smudge and "+3 chips" in smudge


def test_the_player_pages_older_games(client, make_game, club):
    for day in range(1, 24):
        with at(moment(2024, 3, day)):
            smudge_game(make_game)
    bob = Player.objects.get(name="Bob")
    url = reverse("player_stats", args=[bob.pk])
    first = body(client.get(url + "?season=all"))
    assert first.count('class="game"') == 20 and "page=2" in first
    older = body(client.get(url + "?season=all&page=2", **HTMX))
    assert older.count('class="game"') == 3 and "<html" not in older
    assert "Form: rating over time" in first and "<polyline" in first


def test_recording_a_payment(client, season_games):
    dee, bob = Player.objects.get(name="Dee"), season_games
    url = reverse("ledger") + "?season=all"
    html = body(client.get(url))
    assert "Dee pays Bob 1 chip" in html and "Cy pays Bob 1 chip" in html

    response = client.post(url, {"payer": dee.pk, "payee": bob.pk, "chips": 1})
    assert response.status_code == 302
    assert Payment.objects.get().chips == 1
    html = body(client.post(url, {"payer": dee.pk, "payee": dee.pk, "chips": 1}, **HTMX))
    assert "Choose two different players" in html and Payment.objects.count() == 1
    html = body(client.get(url))
    assert "Dee pays Bob" not in html and "Dee paid Bob 1 chip" in html


def balances(html: str) -> list[tuple[str, str]]:
    """The ledger's balances as shown: (name, balance)."""
    return re.findall(
        r'<li class="balance">\s*<span class="name">([^<]+)</span>.*?<strong[^>]*>([^<]+)</strong>',
        html,
        re.S,
    )


def test_the_ledger_page_shows_each_contway_player_the_sides_amount(client, make_game):
    contway_game(make_game)
    url = reverse("ledger") + "?season=all"

    for html in (body(client.get(url)), body(client.get(url, **HTMX))):
        assert sorted(balances(html)) == [("Ann", "-2"), ("Bob", "+2"), ("Cy", "-2"), ("Dee", "+2")]
    assert "<html" in body(client.get(url)) and "<html" not in body(client.get(url, **HTMX))


def test_seasons_are_added_changed_and_deleted_by_the_owner(client, club, season_games):
    response = client.post(
        reverse("seasons"),
        {"new-name": "Autumn", "new-start": "2024-09-01", "new-end": "2024-08-01"},
    )
    assert response.status_code == 400 and "cannot be before" in body(response)
    client.post(reverse("seasons"), {"new-name": "Always", "new-start": "2000-01-01"})
    season = Season.objects.get()
    assert season.end is None

    prefix = f"s{season.pk}"
    client.post(
        reverse("season_edit", args=[season.pk]),
        {f"{prefix}-name": "Ever", f"{prefix}-start": "2001-01-01", "action": "save"},
    )
    season.refresh_from_db()
    assert (season.name, season.start) == ("Ever", date(2001, 1, 1))
    # The current season is the default: it holds both games.
    assert "Ever" in body(client.get(reverse("leaderboard")))
    client.post(reverse("season_edit", args=[season.pk]), {"action": "delete"})
    assert not Season.objects.exists()


@pytest.mark.parametrize(
    ("language", "words", "not_words"),
    [
        (
            "ru",
            ["<summary>Изменить<", ">Название:</label>", ">За всё время</a>"],
            ["<summary>Сменить", ">Имя:"],
        ),
        ("nb", ["<summary>Endre<", ">Navn:</label>", ">Totalt</a>"], ["Bytt", "Hele tiden"]),
    ],
)
def test_a_seasons_edit_and_name_are_worded_as_such(
    client, season_games, language, words, not_words
):
    """A season is edited (not "changed", "swapped") and has a title, not a person's name."""
    client.post(reverse("seasons"), {"new-name": "Always", "new-start": "2000-01-01"})

    html = body(client.get(reverse("seasons"), HTTP_ACCEPT_LANGUAGE=language))

    for word in words:
        assert word in html
    for word in not_words:
        assert word not in html


def test_marking_a_game_as_practice(client, season_games):
    game = Game.objects.order_by("pk").first()
    url = reverse("game_counts", args=[game.pk])

    fragment = client.post(url, {"counts": "0"}, **HTMX)
    assert "Practice game: not counted" in body(fragment) and "<html" not in body(fragment)
    assert "Made at 4" in body(client.get(reverse("leaderboard")))  # Ann's 4s in teams
    assert ">Smudges made<" in body(client.get(reverse("leaderboard")))
    response = client.post(url, {"counts": "1"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.counts


def test_a_viewer_reads_but_changes_nothing(client, club, season_games):
    viewer = get_user_model().objects.create_user("viewer", password=PASSWORD)
    Membership.objects.create(club=club, user=viewer, role="viewer")
    sign_in(client, viewer, club)
    bob = season_games
    for url in pages(bob).values():
        assert client.get(url).status_code == 200
    assert "Mark as paid" not in body(client.get(reverse("ledger")))
    ledger_post = client.post(reverse("ledger"), {"payer": bob.pk, "payee": bob.pk, "chips": 1})
    assert ledger_post.status_code == 403
    season_post = client.post(reverse("seasons"), {"new-name": "X", "new-start": "2024-01-01"})
    assert season_post.status_code == 403
    game = Game.objects.first()
    assert client.post(reverse("game_counts", args=[game.pk]), {"counts": "0"}).status_code == 403


@pytest.fixture
def stranger(db):
    """Another club's player, season and game."""
    outsider = get_user_model().objects.create_user("outsider", password=PASSWORD)
    other = club_create(name="Other table", owner=outsider)
    players = roster(["Xu", "Yan", "Zed"], club=other)
    season = Season.objects.create(club=other, name="Theirs", start=date(2020, 1, 1))
    from pitchkeeper.games.services import game_create
    from pitchkeeper.rules import resolve_rules

    game = game_create(
        players=list(players.values()), first_dealer=players["Xu"], rules=resolve_rules("setback")
    ).game
    return players["Xu"], season, game


@pytest.mark.parametrize("htmx", [False, True])
def test_another_clubs_things_are_not_found(client, season_games, stranger, htmx):
    headers = HTMX if htmx else {}
    xu, season, game = stranger
    bob = season_games
    theirs = Payment.objects.create(club=xu.club, payer=xu, payee=game.seats.last().player, chips=1)
    for method, url, data in [
        ("get", reverse("player_stats", args=[xu.pk]), {}),
        ("get", reverse("leaderboard") + f"?season={season.pk}", {}),
        ("get", reverse("ledger") + f"?season={season.pk}", {}),
        ("get", reverse("season_export", args=["hands.csv"]) + f"?season={season.pk}", {}),
        ("post", reverse("season_edit", args=[season.pk]), {"action": "delete"}),
        ("post", reverse("game_counts", args=[game.pk]), {"counts": "0"}),
        ("post", reverse("ledger"), {"payer": xu.pk, "payee": bob.pk, "chips": 1}),
        ("post", reverse("ledger"), {"payer": bob.pk, "payee": xu.pk, "chips": 1}),
        ("get", reverse("leaderboard") + "?season=nonsense", {}),
    ]:
        response = getattr(client, method)(url, data, **headers)
        assert response.status_code == 404, (method, url, response.status_code)
    # Their payment is not on this club's ledger, as one taken back already is not.
    response = client.post(reverse("payment_take_back", args=[theirs.pk]), **headers)
    assert response.status_code == 409 and "not on the ledger" in body(response)
    assert Season.objects.filter(pk=season.pk).exists()
    assert list(Payment.objects.all()) == [theirs]
    game.refresh_from_db()
    assert game.counts


def read_csv(response) -> list[dict[str, str]]:
    raw = b"".join(response.streaming_content)
    assert raw.startswith("\ufeff".encode())  # the BOM: spreadsheets read UTF-8
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    return list(csv.DictReader(io.StringIO(raw.decode("utf-8-sig"), newline="")))


def test_the_leaderboard_csv_parses_back(client, season_games):
    Player.objects.filter(name="Dee").update(name='Dee "Ace", Jr.')
    Player.objects.filter(name="Cy").update(name="=Cy+1")
    rows = read_csv(client.get(reverse("season_export", args=["leaderboard.csv"])))
    by = {row["player"]: row for row in rows}
    # A name a spreadsheet would run as a formula is kept as text.
    assert set(by) == {"Ann", "Bob", "'=Cy+1", 'Dee "Ace", Jr.'}
    assert by["Ann"]["games"] == "2" and by["Ann"]["team_games"] == "1"
    assert by["Bob"]["net_chips"] == "2" and by["Bob"]["bids_4"] == "1"
    assert float(by["Ann"]["win_rate"]) == 0.5
    assert by["'=Cy+1"]["took_high"] == "4" and by["'=Cy+1"]["hands_high"] == "5"


def test_the_hands_csv_parses_back(client, season_games):
    rows = read_csv(client.get(reverse("season_export", args=["hands.csv"])))
    assert len(rows) == 5
    assert rows[0]["pitcher"] == "Cy" and rows[0]["bid"] == "3" and rows[0]["made"] == "0"
    assert rows[0]["low"] == "Ann" and rows[1]["high"] == "Bob"
    assert rows[2]["high"] == "Us" and rows[2]["pitcher"] == "Ann"


def test_the_games_json_imports_again(client, season_games):
    response = client.get(reverse("season_export", args=["games.json"]))
    data = json.loads(body(response))
    assert [parse_game(game).seating.players for game in data] == [
        ("Ann", "Bob", "Cy"),
        ("Ann", "Bob", "Cy", "Dee"),
    ]
    other = club_create(name="Copy", owner=get_user_model().objects.create_user("copier"))
    imported = games_import(club=other, games=data)
    assert all(game.finished_at for game in imported)
    from pitchkeeper.seasons.spans import Span
    from pitchkeeper.seasons.standings import leaderboard

    copy = {s.name: s.sums for s in leaderboard(club=other, span=Span(None)).standings}
    original = {
        s.name: s.sums for s in leaderboard(club=season_games.club, span=Span(None)).standings
    }
    assert copy == original


def count_queries(client, url: str) -> int:
    """The queries of ``url`` once seen (the ledger's plan kept: its cold views are
    counted in test_ledger_plans.py)."""
    client.get(url)
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def test_pages_cost_a_fixed_number_of_queries(client, make_game, club, season_games):
    """More games, more players and more seasons: the same number of queries."""
    season = Season.objects.create(
        club=club, name="Spring", start=date(2024, 3, 15), end=date(2024, 5, 10)
    )
    bob = season_games
    urls = [
        *pages(bob).values(),
        *(url + f"?season={season.pk}" for url in pages(bob).values()),
        reverse("leaderboard") + "?season=all&sort=-wins",
        reverse("ledger") + "?season=all",
    ]
    before = [count_queries(client, url) for url in urls]

    for day in range(1, 12):
        with at(moment(2024, 3 + day % 3, 10 + day)):
            smudge_game(make_game, ("Bob", "Eve", "Fay") if day % 2 else ("Gus", "Bob", "Ann"))
    Season.objects.create(club=club, name="Summer", start=date(2024, 6, 1))
    Payment.objects.create(club=club, payer=bob, payee=Player.objects.get(name="Ann"), chips=1)

    assert [count_queries(client, url) for url in urls] == before


@pytest.mark.parametrize(
    ("page", "queries"),
    # Session, user and membership (3) and the seasons for the picker (1), then all
    # time from the monthly rollups: the leaderboard's sums, tallies and ratings (3); a
    # player (1) with sums, tallies, rating, opponents, rating history (its first and
    # last game, then its points), games, who played them and streaks (9); on those
    # two, whether ratings
    # are being re-rated (1); the ledger's chips, payments, names, chip value and the
    # players to pick from (5). A season adds itself (1) and, when it starts or ends in
    # the middle of a month, the games of those days (1 for the ledger, 2 for the
    # leaderboard, 4 for a player: sums, tallies, opponents and streaks).
    [("leaderboard", 8), ("player", 15), ("ledger", 9), ("seasons", 4)],
)
def test_query_counts(client, season_games, django_assert_num_queries, page, queries):
    url = pages(season_games)[page] + "?season=all"
    client.get(url)  # the ledger's plan kept, as after its first view
    with django_assert_num_queries(queries):
        response = client.get(url)
    assert response.status_code == 200


def plans_forgotten() -> None:
    """The ledger's plans forgotten by the cache and the database alike."""
    cache.clear()
    LedgerPlan.objects.all().delete()


def test_the_ledger_says_when_its_plan_is_only_short(client, season_games):
    plans_forgotten()
    url = reverse("ledger") + "?season=all"
    assert "The fewest payments that settle everything: 2 payments." in body(client.get(url))
    plans_forgotten()

    def short(balances, budget):
        return Plan(settle_up(balances, budget=budget).payments, fewest=False)

    with mock.patch("pitchkeeper.seasons.ledger.settle_up", side_effect=short) as search:
        client.get(url)  # searched once for this state of the books, then kept
        full, fragment = body(client.get(url)), body(client.get(url, **HTMX))
    assert search.call_count == 1
    for html in (full, fragment):
        assert "The fewest payments" not in html and "A short plan" in html
    assert "<html" in full and "<html" not in fragment
    plans_forgotten()


def test_the_short_plan_is_labelled_in_every_language(client, season_games):
    plans_forgotten()
    url = reverse("ledger") + "?season=all"
    with mock.patch(
        "pitchkeeper.seasons.ledger.settle_up",
        side_effect=lambda balances, budget: Plan(settle_up(balances).payments, fewest=False),
    ):
        labels = {
            language: body(client.get(url, HTTP_ACCEPT_LANGUAGE=language))
            for language in ("en", "ru", "nb")
        }
    plans_forgotten()
    assert "A short plan that settles everything: 2 payments (there may be one" in labels["en"]
    assert "Короткий план, чтобы рассчитаться: 2 платежа" in labels["ru"]
    assert "En kort plan for å gjøre opp alt: 2 betalinger" in labels["nb"]
    html = body(client.get(url, **HTMX))
    assert "The fewest payments that settle everything: 2 payments." in html


@pytest.mark.parametrize(
    "value", [0.909, 0.905, 0.9049, -0.005, -0.004, 2.5, 123456.785, 1e-12, 2**63, 2.0**53 + 1]
)
@pytest.mark.parametrize("places", [0, 1, 2])
def test_board_figures_round_as_the_player_page_does(value, places):
    """The leaderboard (``decimal``) and the player page (floatformat) round alike: 0.909
    is 0.91 on both, not 0.90 on the board."""
    assert decimal(value, places) == floatformat(value, places)


def test_points_per_hand_is_rounded_not_cut():
    assert decimal(0.909) == "0.91"
    assert decimal(0.904) == "0.90"
    assert percent(0.125) == "13%"
    assert decimal(None) == percent(None) == "—"
