"""Backup and restore of a whole club (format pitchkeeper.club/1): export, import as a
new club, export again gives the same data apart from the games' ids; bad data is
refused with a message and saves nothing."""

from __future__ import annotations

import copy
import io
import json
from datetime import timedelta
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.utils import timezone

from pitchkeeper.backups.services import CLUB_FORMAT, club_export, club_import
from pitchkeeper.clubs.models import Club, Membership, Player, Role
from pitchkeeper.clubs.players import player_add, player_retire
from pitchkeeper.games.models import Game, Hand
from pitchkeeper.games.services import games_import
from pitchkeeper.rules import FORMAT, RuleError

pytestmark = pytest.mark.django_db

SMUDGE = {"high": "Bob", "low": "Bob", "jack": "Bob", "game": "Bob"}


def team_record() -> dict:
    return {
        "format": FORMAT,
        "rules": "partnership",
        "players": ["Ann", "Cy", "Bob", "Dee"],
        "teams": {"Us": ["Ann", "Bob"], "Them": ["Cy", "Dee"]},
        "first_dealer": "Ann",
        "hands": [
            {
                "pitcher": "Cy",
                "bid": 2,
                "points": {"high": "Them", "low": "Us", "jack": None, "game": "Them"},
            },
            {"misdeal": True},
        ],
    }


@pytest.fixture
def full_club(club, game_data):
    """A club with one game of each kind: in progress, finished, team, deleted, with a
    chip value, and a retired player who played none of them."""
    finished = {
        "format": FORMAT,
        "rules": "setback",
        "players": ["Ann", "Bob", "Cy"],
        "first_dealer": "Ann",
        "hands": [{"pitcher": "Bob", "bid": 4, "points": SMUDGE}],
    }
    games = games_import(
        club=club, games=[game_data(), finished, team_record(), game_data(hands=[])]
    )
    playing, over, team, deleted = games
    assert over.finished_at is not None and team.finished_at is None
    start = timezone.now() - timedelta(days=30)
    for hours, game in enumerate(games):
        Game.objects.filter(pk=game.pk).update(created=start + timedelta(hours=hours))
    Game.objects.filter(pk=over.pk).update(finished_at=start + timedelta(hours=1, minutes=40))
    Game.objects.filter(pk=deleted.pk).update(deleted_at=start + timedelta(days=2))
    Game.objects.filter(pk=playing.pk).update(chip_value=Decimal("0.25"))
    player_retire(player=player_add(club=club, name="Zoë"), retired=True)
    return club


def without_ids(data: dict) -> dict:
    data = copy.deepcopy(data)
    for game in data["games"]:
        del game["record"]["id"]
    return data


def test_export_then_import_then_export_gives_the_same_club(full_club, user):
    first = club_export(club=full_club)
    restored = club_import(data=json.loads(json.dumps(first)), owner=user)
    second = club_export(club=restored)

    assert restored.pk != full_club.pk
    assert without_ids(second) == without_ids(first)
    assert Membership.objects.get(club=restored).user == user
    assert Membership.objects.get(club=restored).role == Role.OWNER


def test_the_export_holds_every_game_with_its_times(full_club):
    data = club_export(club=full_club)

    assert data["format"] == CLUB_FORMAT
    assert data["name"] == "Thursday table"
    assert {"name": "Zoë", "retired": True} in data["players"]
    assert {p["name"] for p in data["players"]} == {"Ann", "Bob", "Cy", "Dee", "Zoë"}
    playing, over, team, deleted = data["games"]
    assert playing["chip_value"] == "0.25" and playing["finished"] is None
    assert over["finished"] is not None and over["record"]["result"]["winner"] == "Bob"
    assert team["record"]["teams"] == {"Us": ["Ann", "Bob"], "Them": ["Cy", "Dee"]}
    assert "deleted" in deleted and "deleted" not in playing
    assert [g["record"]["format"] for g in data["games"]] == [FORMAT] * 4
    # Every game record can be imported on its own with import_games.
    assert games_import(club=full_club, games=[g["record"] for g in data["games"]])


def test_restored_games_keep_their_times_hands_and_state(full_club, user):
    restored = club_import(data=club_export(club=full_club), owner=user)

    old = list(Game.objects.filter(club=full_club).order_by("created"))
    new = list(Game.objects.filter(club=restored).order_by("created"))
    assert [(g.created, g.finished_at, g.deleted_at, g.chip_value) for g in new] == [
        (g.created, g.finished_at, g.deleted_at, g.chip_value) for g in old
    ]
    assert [g.hands.count() for g in new] == [g.hands.count() for g in old]
    assert new[1].winner.name == "Bob" and new[1].winner.club == restored
    assert Player.objects.get(club=restored, name="Zoë").retired


def counts() -> tuple[int, ...]:
    return (
        Club.objects.count(),
        Player.objects.count(),
        Game.objects.count(),
        Hand.objects.count(),
    )


def broken(full_club, change) -> dict:
    data = club_export(club=full_club)
    change(data)
    return data


BAD = {
    "games not a list": (lambda d: d.update(games={}), '"games" must be a list'),
    "players not a list": (lambda d: d.update(players="Ann"), '"players" must be a list'),
    "wrong format": (lambda d: d.update(format="pitchkeeper.game/1"), '"format" must be'),
    "unknown field": (lambda d: d.update(colour="green"), "unknown field colour"),
    "no name": (lambda d: d.update(name=None), '"name"'),
    "player twice": (lambda d: d["players"].append({"name": "ann"}), "on the list twice"),
    "player with no name": (lambda d: d["players"].append({"retired": True}), "player 6"),
    "retired not a boolean": (
        lambda d: d["players"][0].update(retired="yes"),
        '"retired" must be true or false',
    ),
    "bad created": (lambda d: d["games"][1].update(created="yesterday"), 'game 2: "created"'),
    "no created": (lambda d: d["games"][0].pop("created"), 'game 1: "created"'),
    "finished but not over": (
        lambda d: d["games"][0].update(finished=d["games"][0]["created"]),
        'game 1: "finished" is given but the game is not over',
    ),
    "over but no finish": (
        lambda d: d["games"][1].update(finished=None),
        "game 2: the game is over",
    ),
    "bad chip value": (lambda d: d["games"][0].update(chip_value="lots"), '"chip_value"'),
    "bad hand in the last game": (
        lambda d: d["games"][3]["record"]["hands"].append({"pitcher": "Nobody", "bid": 2}),
        "game 4: hand 1",
    ),
    "record not a game": (lambda d: d["games"][2].update(record=[]), "game 3: a game must be"),
}


@pytest.mark.parametrize("case", BAD.keys())
def test_bad_data_is_refused_with_a_message_and_saves_nothing(full_club, user, case):
    change, message = BAD[case]
    data = broken(full_club, change)
    before = counts()

    with pytest.raises(RuleError) as refused:
        club_import(data=data, owner=user)

    assert message in str(refused.value)
    assert counts() == before


def test_data_that_is_not_an_object_is_refused(user):
    with pytest.raises(RuleError, match="a club must be a JSON object"):
        club_import(data=[], owner=user)
    assert not Club.objects.exclude(memberships__user=user).exists()


@pytest.mark.parametrize("name", ["", "   ", "x" * 61])
def test_a_bad_club_name_is_refused(full_club, user, name):
    data = broken(full_club, lambda d: d.update(name=name))
    before = counts()

    with pytest.raises(ValidationError):
        club_import(data=data, owner=user)
    with pytest.raises(ValidationError):
        club_import(data=data, owner=None)
    assert counts() == before


def run(*args: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command(*args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_the_commands_back_up_and_restore_a_club(full_club, tmp_path):
    other = get_user_model().objects.create_user("restorer")
    backup = tmp_path / "club.json"

    run("export_club", "--club", str(full_club.pk), "--output", str(backup))
    printed, _err = run("export_club", "--club", str(full_club.pk))
    new_id, _err = run("import_club", str(backup), "--owner", "restorer")

    assert json.loads(printed) == json.loads(backup.read_text(encoding="utf-8"))
    restored = Club.objects.get(pk=int(new_id))
    assert restored.memberships.get().user == other
    again, _err = run("export_club", "--club", new_id)
    assert without_ids(json.loads(again)) == without_ids(json.loads(printed))


def test_import_without_an_owner_says_the_club_has_no_member(full_club, tmp_path):
    backup = tmp_path / "club.json"
    run("export_club", "--club", str(full_club.pk), "-o", str(backup))

    new_id, err = run("import_club", str(backup))

    assert not Club.objects.get(pk=int(new_id)).memberships.exists()
    assert "no members yet" in err


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "not valid JSON"),
        ('{"format": "pitchkeeper.club/1", "name": "A", "games": [1]}', "game 1"),
        ('{"format": "pitchkeeper.club/1", "name": ""}', "Give the club a name."),
    ],
)
def test_import_command_reports_bad_files(tmp_path, user, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    before = counts()

    with pytest.raises(CommandError, match=message):
        run("import_club", str(path), "--owner", user.username)
    assert counts() == before


def test_commands_name_a_missing_club_or_user(club, tmp_path):
    with pytest.raises(CommandError, match="no club 999"):
        run("export_club", "--club", "999")
    with pytest.raises(CommandError, match="no user nobody"):
        run("import_club", str(tmp_path / "x.json"), "--owner", "nobody")
    with pytest.raises(CommandError, match="cannot read"):
        run("import_club", str(tmp_path / "missing.json"))
