"""The night's screens through the client: each page whole and as its htmx part, each
button's service and its refusal shown, what a viewer and another club may not do, and
the room board answered 304 while nothing changed."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from pitchkeeper.clubs.models import Membership, Player, Role
from pitchkeeper.clubs.services import club_create
from pitchkeeper.games.models import Game
from pitchkeeper.nights.models import Night
from pitchkeeper.nights.services import round_start
from tests.conftest import EIGHT, PASSWORD, finish, sign_in

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
SEVEN = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus")


def text(response) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())))


def test_a_night_is_started_from_the_roster_and_typed_names(client, club):
    for name in SEVEN[:5]:
        Player.objects.create(club=club, name=name)
    page = client.get(reverse("night_new"))
    assert page.status_code == 200 and "Who is here" in text(page)
    ticked = list(Player.objects.filter(club=club).values_list("pk", flat=True))
    response = client.post(
        reverse("night_new"),
        {"players": ticked, "new_players": "Fay\n\n  Gus  \n", "preset": "setback",
         "rounds": "3", "order": "wins"},
    )  # fmt: skip
    night = Night.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("night", args=[night.pk])
    assert night.attendance.count() == 7 and Player.objects.filter(name="Gus").exists()
    html = text(client.get(response["Location"]))
    assert "Round 1" in html and "Table 2" in html and "Start round 1" in html


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"preset": "setback", "order": "wins"}, "Tick who is here, or type their names."),
        ({"new_players": "Ann\nBob", "preset": "setback", "order": "wins"},
         "2 players are here, and a table needs at least 3"),
        ({"new_players": "A\nB\nC\nD", "preset": "partnership", "order": "wins",
          "progressive": "on"}, "Winners move up at cutthroat tables only"),
        ({"new_players": "A\nB\nC", "preset": "setback", "order": "wins", "rounds": "0"},
         "greater than or equal to 1"),
        ({"new_players": "A\nB\nC", "preset": "setback", "order": "wins",
          "rounds": str(2**63)}, "less than or equal to 99"),
        ({"new_players": "A\n\u200b\nC", "preset": "setback", "order": "wins"},
         "a player's name contains an invisible or control character (U+200B ZERO WIDTH SPACE)"),
        ({"new_players": "A\nB\n" + "x" * 300, "preset": "setback", "order": "wins"},
         "a player's name is longer than 40 characters"),
    ],
)  # fmt: skip
def test_a_night_that_cannot_start_says_why_and_saves_nothing(client, data, words):
    players = Player.objects.count()
    response = client.post(reverse("night_new"), data)
    assert response.status_code == 400
    assert words in text(response)
    assert not Night.objects.exists() and Player.objects.count() == players


def test_the_round_is_swapped_started_and_moved_on(client, make_night):
    night = make_night("setback", SEVEN, rounds=2)
    url = reverse("night", args=[night.pk])
    proposal = night.night_rounds.get()
    first, second = proposal.tables.order_by("number")
    a, b = first.teams[0][0], second.teams[0][0]
    client.post(reverse("night_swap", args=[night.pk]), {"first": a, "second": b})
    first.refresh_from_db()
    assert first.teams[0][0] == b
    swapped = text(client.get(url))
    assert "swapped places" in swapped

    response = client.post(reverse("night_next", args=[night.pk]))
    assert response.status_code == 302  # the proposal itself: nothing new
    client.post(reverse("night_round_start", args=[night.pk]))
    assert Game.objects.count() == 2
    html = text(client.get(url))
    assert "0 of 2 tables done" in html
    refused = client.post(reverse("night_next", args=[night.pk]), follow=True)
    assert "Round 1 is not over: the game at table 1 has not finished." in text(refused)

    for table in proposal.tables.all():
        finish(table.game)
    part = client.get(url, **HTMX)
    assert part.status_code == 200 and 'id="round"' in part.content.decode()
    assert "<html" not in part.content.decode() and "2 of 2 tables done" in text(part)
    client.post(reverse("night_next", args=[night.pk]))
    assert night.night_rounds.count() == 2


def test_players_arrive_and_leave(client, make_night, club):
    night = make_night("setback", SEVEN)
    ivy = Player.objects.create(club=club, name="Ivy")
    client.post(reverse("night_arrive", args=[night.pk]), {"player": ivy.pk})
    ann = Player.objects.get(name="Ann")
    response = client.post(reverse("night_leave", args=[night.pk]), {"player": ann.pk}, follow=True)
    assert "Ann has left" in text(response)
    seated = {pk for t in night.night_rounds.get().tables.all() for team in t.teams for pk in team}
    assert ivy.pk in seated and ann.pk not in seated
    again = client.post(reverse("night_arrive", args=[night.pk]), {"player": ivy.pk}, follow=True)
    assert "Ivy is already here." in text(again)

    # Somebody new to the club, typed as on the new-night screen.
    typed = client.post(reverse("night_arrive", args=[night.pk]), {"name": " Jo "}, follow=True)
    assert "Jo plays from the next round." in text(typed)
    jo = Player.objects.get(club=club, name="Jo")
    seated = {pk for t in night.night_rounds.get().tables.all() for team in t.teams for pk in team}
    assert jo.pk in seated
    players = Player.objects.count()
    for data, words in (
        ({"name": "J\u200bo"}, "invisible or control character (U+200B ZERO WIDTH SPACE)"),
        ({}, "Choose a player."),
        ({"player": "x"}, "Select a valid choice."),
    ):
        refused = client.post(reverse("night_arrive", args=[night.pk]), data, follow=True)
        assert words in text(refused)
        assert Player.objects.count() == players


def test_closing_asks_first_while_a_game_is_played(client, make_night):
    night = make_night("setback", SEVEN, rounds=1)
    round_start(night_round=night.night_rounds.get())
    url = reverse("night_close", args=[night.pk])
    asked = client.post(url)
    assert asked.status_code == 200 and "Close the night anyway" in text(asked)
    night.refresh_from_db()
    assert night.closed_at is None
    for table in night.night_rounds.get().tables.all():
        finish(table.game)
    done = client.post(url, follow=True)
    assert "payout is on the ledger" in text(done) and "pays" in text(done)
    listed = text(client.get(reverse("nights")))
    assert "Won by" in listed and "closed" in listed
    assert "Won by" in text(client.get(reverse("nights"), **HTMX))


def test_a_tables_link_starts_the_round_and_then_opens_its_game(client, make_night):
    night = make_night()
    table = night.night_rounds.get().tables.get(number=2)
    url = reverse("night_table", args=[table.token])
    assert "Start round 1" in text(client.get(url))
    response = client.post(reverse("night_table_start", args=[table.token]))
    table.refresh_from_db()
    assert response["Location"] == reverse("game", args=[table.game_id])
    assert client.get(url)["Location"] == reverse("game", args=[table.game_id])
    assert Game.objects.count() == 2


def test_a_viewer_reads_but_cannot_change_a_night(client, club, make_night):
    night = make_night()
    viewer = get_user_model().objects.create_user("viewer", password=PASSWORD)
    Membership.objects.create(club=club, user=viewer, role=Role.VIEWER)
    sign_in(client, viewer, club)
    page = client.get(reverse("night", args=[night.pk]))
    assert page.status_code == 200 and "Table 1" in text(page)
    # No button a viewer may not press.
    assert "<form" not in page.content.decode().split('id="round"')[1].split("</main>")[0]
    assert "Start a night" not in text(client.get(reverse("nights")))
    assert client.post(reverse("night_round_start", args=[night.pk])).status_code == 403
    table = night.night_rounds.get().tables.first()
    assert client.post(reverse("night_table_start", args=[table.token])).status_code == 403
    assert not Game.objects.exists()


def test_another_clubs_night_is_not_found(client, make_night):
    night = make_night()
    stranger = get_user_model().objects.create_user("stranger", password=PASSWORD)
    other = club_create(name="Elsewhere", owner=stranger)
    sign_in(client, stranger, other)
    table = night.night_rounds.get().tables.first()
    for url in (reverse("night", args=[night.pk]), reverse("night_table", args=[table.token]),
                reverse("night_board", args=[night.pk])):  # fmt: skip
        assert client.get(url).status_code == 404


def test_the_room_board_follows_every_table_and_is_304_while_nothing_changes(
    client, anonymous_client, make_night
):
    night = make_night(rounds=2)
    night_round = round_start(night_round=night.night_rounds.get())
    for url, reader in (
        (reverse("night_board", args=[night.pk]), client),
        (reverse("night_board_shared", args=[night.share_token]), anonymous_client),
    ):
        page = reader.get(url)
        assert page.status_code == 200 and "Table 2" in text(page)
        part = reader.get(url, **HTMX)
        assert "<html" not in part.content.decode() and 'id="night-board"' in part.content.decode()
        assert reader.get(url, HTTP_IF_NONE_MATCH=part["ETag"], **HTMX).status_code == 304
    shared = reverse("night_board_shared", args=[night.share_token])
    before = anonymous_client.get(shared, **HTMX)["ETag"]
    finish(night_round.tables.get(number=1).game)
    after = anonymous_client.get(shared, HTTP_IF_NONE_MATCH=before, **HTMX)
    assert after.status_code == 200 and "1 of 2 tables done" in text(after)
    # Read only: no link to the night's screens or its games.
    assert "/games/" not in after.content.decode() and "Start round" not in text(after)
    assert anonymous_client.get(reverse("night_board_shared", args=["x" * 43])).status_code == 404
    assert len(EIGHT) == 8


def test_the_season_export_says_each_games_night_round_and_table(client, make_night, make_game):
    night = make_night("setback", SEVEN, rounds=1)
    for table in round_start(night_round=night.night_rounds.get()).tables.all():
        finish(table.game)
    finish(make_game("setback", ("Ann", "Bob", "Cy")).game)
    response = client.get(reverse("season_export", args=["games.json"]) + "?season=all")
    records = json.loads(b"".join(response.streaming_content))
    nights = sorted((r.get("night") or {}).get("table", 0) for r in records)
    assert nights == [0, 1, 2]
    assert {r["night"]["round"] for r in records if "night" in r} == {1}
    assert all(
        r["night"]["started_at"] == night.started_at.isoformat() for r in records if "night" in r
    )


def test_the_link_of_an_earlier_tables_game_deleted_for_good_says_so(client, make_night):
    night = make_night(rounds=2)
    for table in round_start(night_round=night.night_rounds.get()).tables.all():
        finish(table.game)
    client.post(reverse("night_next", args=[night.pk]))
    old = night.night_rounds.get(number=1).tables.get(number=1)
    Game.objects.filter(pk=old.game_id).delete()
    response = client.get(reverse("night_table", args=[old.token]))
    assert response.status_code == 200
    assert "This table's round was changed" in text(response)


def test_a_nights_game_once_over_leads_back_to_the_night(client, make_night, make_game):
    night = make_night()
    round_start(night_round=night.night_rounds.get())
    played, waiting = (table.game for table in night.night_rounds.get().tables.all())
    back = f'href="{reverse("night", args=[night.pk])}"'

    def shown(game: Game) -> list[str]:
        url = reverse("game", args=[game.pk])
        return [
            client.get(url).content.decode(),
            client.get(url, HTTP_HX_REQUEST="true").content.decode(),
        ]

    assert not [page for page in shown(waiting) if back in page]
    finish(played)
    full, fragment = shown(played)
    assert back in full and back in fragment
    assert "Back to the night" in text(client.get(reverse("game", args=[played.pk])))
    # A game of no night offers only a rematch and a new game.
    alone = finish(make_game("setback", ("Ann", "Bob", "Cy")).game)
    assert not [page for page in shown(alone) if "Back to the night" in page]
