from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from pitchkeeper.games.hands import hand_record
from pitchkeeper.games.models import Game
from pitchkeeper.games.replay import GameState
from pitchkeeper.games.views.home import PAGE_SIZE
from pitchkeeper.rules import HandRecord

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def smudge(pitcher: str) -> HandRecord:
    """A bid of 4 taking all four points: a setback game is won at once."""
    return HandRecord(
        pitcher=pitcher, bid=4, points=dict.fromkeys(("high", "low", "jack", "game"), pitcher)
    )


def set_back(pitcher: str, other: str) -> HandRecord:
    return HandRecord(
        pitcher=pitcher, bid=3, points={"high": other, "low": other, "jack": None, "game": other}
    )


@pytest.fixture
def finished(make_game):
    """``finished(names)``: a setback game won by the second player's smudge."""

    def make(names: tuple[str, ...] = ("Ann", "Bob", "Cy")) -> GameState:
        game = make_game("setback", names).game
        return hand_record(game=game, record=smudge(names[1]))

    return make


def test_empty_home_page_offers_a_new_game_only(client):
    response = client.get(reverse("home"))

    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" in html
    assert f'href="{reverse("game_new")}"' in html
    assert "Rematch" not in html
    assert "No game in progress." in html
    assert "No finished game yet." in html


def test_games_in_progress_show_scores_in_the_hole_in_words(client, make_game):
    game = make_game().game
    hand_record(game=game, record=set_back("Bob", "Cy"))

    html = client.get(reverse("home")).content.decode()

    assert f'href="{reverse("game", args=[game.pk])}"' in html
    assert "Setback" in html
    assert '<span class="neg">Bob <strong>-3</strong> <span class="tag">in the hole</span>' in html
    assert "Cy <strong>3</strong>" in html
    assert "Bob deals · playing to 7" in html


def test_team_games_in_progress_show_the_teams(client, make_game):
    make_game("partnership", teams={"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]})

    html = client.get(reverse("home")).content.decode()

    assert "Partnership" in html
    assert "Us <strong>0</strong>" in html
    assert "Them <strong>0</strong>" in html


def test_finished_games_show_the_winner_and_players(client, finished):
    game = finished(("Ann", "Bob", "Cy")).game

    html = client.get(reverse("home")).content.decode()

    assert f'href="{reverse("game", args=[game.pk])}"' in html
    assert "Bob won" in html
    assert "Ann, Bob, Cy" in html
    assert "No game in progress." in html


def test_rematch_is_offered_for_the_last_game(client, make_game, finished):
    finished(("Ann", "Bob", "Cy"))
    last = make_game("setback", ("Dee", "Eve")).game

    html = client.get(reverse("home")).content.decode()

    assert f'action="{reverse("rematch", args=[last.pk])}"' in html
    assert "Dee, Eve" in html


def test_htmx_fragment_is_the_finished_games_list(client, finished):
    finished()

    response = client.get(reverse("home"), **HTMX)

    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html
    assert "Bob won" in html
    assert "In progress" not in html


def test_older_finished_games_come_a_page_at_a_time(client, finished):
    games = [finished().game for _ in range(PAGE_SIZE + 2)]

    first = client.get(reverse("home")).content.decode()
    second = client.get(reverse("home"), {"page": 2}, **HTMX).content.decode()

    assert first.count("Bob won") == PAGE_SIZE
    assert 'href="?page=2"' in first
    assert second.count("Bob won") == 2
    assert "?page=3" not in second
    for game in games[:2]:
        assert f'href="{reverse("game", args=[game.pk])}"' in second


@pytest.mark.parametrize("page", ["0", "-1", "x", "99"])
def test_a_page_out_of_range_is_not_an_error(client, page):
    assert client.get(reverse("home"), {"page": page}).status_code == 200


def test_home_page_queries_do_not_grow_with_the_number_of_games(client, make_game, finished):
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(reverse("home")).status_code == 200
        return len(captured)

    game = make_game().game
    hand_record(game=game, record=set_back("Bob", "Cy"))
    finished()
    few = queries()

    for _ in range(PAGE_SIZE + 3):
        game = make_game().game
        for _ in range(2):
            hand_record(game=game, record=set_back("Bob", "Cy"))
        finished()
    assert Game.objects.filter(finished_at=None).count() > PAGE_SIZE
    assert Game.objects.exclude(finished_at=None).count() > PAGE_SIZE

    assert queries() == few
    # The session, the user and their club; finished games and their seats; games in
    # progress, their seats and their hands; the last game and its seats.
    assert few <= 10


@pytest.mark.parametrize(
    ("language", "now", "earlier"),
    [
        ("en", "just now", "2\xa0hours ago"),
        ("ru", "только что", "2\xa0часа назад"),
        ("nb", "akkurat nå", "for 2\xa0timer siden"),
    ],
)
def test_a_game_in_progress_says_when_it_was_played_just_now_or_how_long_ago(
    client, make_game, language, now, earlier
):
    """Under a minute is "just now" in every language, not "0 minutes ago"."""
    game = make_game().game
    hand_record(game=game, record=set_back("Bob", "Cy"))

    html = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f"· {now}</span>" in html

    Game.objects.filter(pk=game.pk).update(updated=timezone.now() - timedelta(hours=2))
    html = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f"· {earlier}</span>" in html
