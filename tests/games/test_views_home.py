from __future__ import annotations

from datetime import timedelta
from unittest.mock import ANY

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from pitchkeeper.clubs.models import Player
from pitchkeeper.games import replay
from pitchkeeper.games.hands import hand_record
from pitchkeeper.games.models import Game
from pitchkeeper.games.replay import GameState
from pitchkeeper.games.views.home import PAGE_SIZE
from pitchkeeper.rules import GameRecord, HandRecord

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
    # progress and their seats; the last game and its seats.
    assert few <= 9


def test_home_page_replays_no_game_in_progress(client, make_game, monkeypatch):
    """The scores are those the last save stored: no game is replayed, nor read from the
    cache, however many hands it has."""
    game = make_game().game
    for _ in range(2):
        hand_record(game=game, record=set_back("Bob", "Cy"))
    team_game = make_game("partnership", teams={"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]})

    def refused(*args, **kwargs):
        raise AssertionError("the home page replayed a game")

    monkeypatch.setattr(GameRecord, "replay", refused)
    monkeypatch.setattr(replay, "_kept", refused)
    html = client.get(reverse("home")).content.decode()

    assert '<span class="neg">Bob <strong>-6</strong>' in html
    assert "Cy <strong>6</strong>" in html
    assert "Us <strong>0</strong>" in html
    assert team_game.game.standing == {"scores": [["Us", 0], ["Them", 0]], "dealer": ANY}


def test_home_page_shows_a_players_new_name(client, make_game):
    game = make_game().game
    hand_record(game=game, record=set_back("Bob", "Cy"))
    Player.objects.filter(name="Bob").update(name="Robert")

    html = client.get(reverse("home")).content.decode()

    assert '<span class="neg">Robert <strong>-3</strong>' in html
    assert "Robert deals" in html


def test_a_game_untouched_for_long_is_marked_abandoned_and_can_be_deleted(
    client, make_game, settings
):
    settings.ABANDONED_DAYS = 30
    old = make_game().game
    recent = make_game().game
    Game.objects.filter(pk=old.pk).update(updated=timezone.now() - timedelta(days=31))
    Game.objects.filter(pk=recent.pk).update(updated=timezone.now() - timedelta(days=29))

    html = client.get(reverse("home")).content.decode()

    assert html.count(">abandoned</span>") == 1
    assert html.count('class="abandoned-delete"') == 1
    assert f'href="{reverse("game_delete", args=[old.pk])}"' in html
    assert f'href="{reverse("game_delete", args=[recent.pk])}"' not in html
    # Left alone it stays listed; finished, it leaves the games in progress.
    hand_record(game=old, record=smudge("Bob"))
    html = client.get(reverse("home")).content.decode()
    assert ">abandoned</span>" not in html


def test_the_home_screens_lists_are_read_in_order_from_an_index(client, make_game, finished):
    make_game()
    finished()
    with CaptureQueriesContext(connection) as captured:
        assert client.get(reverse("home")).status_code == 200
    listed = [
        q["sql"]
        for q in captured
        if 'ORDER BY "pitchkeeper_game"."created" DESC' in q["sql"]
        and "pitchkeeper_seat" not in q["sql"]
    ]
    assert len(listed) == 3  # in progress, finished, the last game
    with connection.cursor() as cursor:
        for sql in listed:
            if connection.vendor == "postgresql":
                # A few test rows are read faster without an index, and with no
                # statistics yet the planner may sort another index's rows: the plan
                # asked for is the one a large club gets, a sort only where no index
                # gives the order.
                cursor.execute("SET LOCAL enable_seqscan = off")
                cursor.execute("SET LOCAL enable_sort = off")
                cursor.execute("EXPLAIN " + sql)
                plan = "\n".join(row[0] for row in cursor.fetchall())
                assert "Sort" not in plan, plan
            else:
                cursor.execute("EXPLAIN QUERY PLAN " + sql)
                plan = "\n".join(row[-1] for row in cursor.fetchall())
                assert "TEMP B-TREE" not in plan, plan


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
