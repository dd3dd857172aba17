from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import pytest
from django.core.management import CommandError, call_command
from django.utils import translation

from pitchkeeper.clubs.models import Player
from pitchkeeper.clubs.services import club_create
from pitchkeeper.games.models import Game, Hand

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def only_club(club):
    """With one club, import needs no --club."""
    return club


def run(*args: str, stdin: str | None = None, monkeypatch=None) -> str:
    out = io.StringIO()
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    call_command(*args, stdout=out)
    return out.getvalue()


@pytest.fixture
def record_file(tmp_path, game_data):
    def write(content, name="games.json"):
        path = tmp_path / name
        path.write_text(content if isinstance(content, str) else json.dumps(content))
        return str(path)

    return write


def test_import_prints_ids_and_export_gives_the_games_back(record_file, game_data):
    path = record_file([game_data(), game_data(first_dealer="Bob", hands=[])])

    ids = run("import_games", path).split()

    assert ids == [str(g.pk) for g in Game.objects.order_by("pk")]
    exported = json.loads(run("export_games"))
    assert [g["id"] for g in exported] == [int(i) for i in ids]
    assert exported[0]["hands"] == game_data()["hands"]
    assert exported[1]["first_dealer"] == "Bob"
    assert exported[1]["result"]["dealer"] == "Bob"


def test_export_then_import_gives_the_same_games(record_file, game_data):
    run("import_games", record_file(game_data()))
    first = json.loads(run("export_games"))

    [new_id] = run("import_games", record_file(first, "again.json")).split()

    [second] = json.loads(run("export_games", "--game", new_id))
    assert {**second, "id": first[0]["id"]} == first[0]


def test_import_reads_standard_input(monkeypatch, game_data):
    out = run("import_games", "-", stdin=json.dumps(game_data()), monkeypatch=monkeypatch)

    assert out.strip() == str(Game.objects.get().pk)


def test_dry_run_prints_the_export_and_saves_nothing(record_file, game_data):
    out = run("import_games", "--dry-run", record_file(game_data()))

    [game] = json.loads(out)
    assert "id" not in game
    assert game["rules"]["preset"] == "setback"
    assert game["result"]["scores"] == {"Ann": -3, "Bob": -2, "Cy": 2, "Dee": 1}
    assert not Game.objects.exists() and not Player.objects.exists()


def test_export_of_selected_games_and_unknown_id(record_file, game_data):
    run("import_games", record_file([game_data(), game_data()]))
    first = Game.objects.order_by("pk").first()

    assert [g["id"] for g in json.loads(run("export_games", "--game", str(first.pk)))] == [first.pk]
    with pytest.raises(CommandError, match="no game 999"):
        run("export_games", "--game", "999")


BAD_RECORDS = [
    ("{not json", "not valid JSON"),
    (
        {"players": ["Ann", "Bob"]},
        '"format" must be "pitchkeeper.game/1"',
    ),
    ("unknown_player", "'Zed' is not a player at this table"),
    ("bid_out_of_range", "hand 1: Bob bid 9; bids go from 2 to 4"),
    ("illegal_auction", "game 2: hand 1: Cy bid 2 but Bob already bid 3; each bid must be higher"),
    ("missing_category", "hand 1: say who took Jack (or nobody)"),
    ("after_win", "hand 2: the game was won on hand 1; no hand can follow it"),
    ("team_seating", "Us's players must sit opposite each other"),
    ("unknown_preset", "unknown preset 'bridge'"),
]


def bad_record(kind, game_data):
    if not isinstance(kind, str) or kind.startswith("{"):
        return kind
    smudge = {
        "pitcher": "Bob",
        "bid": 4,
        "points": dict.fromkeys(["high", "low", "jack", "game"], "Bob"),
    }
    return {
        "unknown_player": game_data(hands=[{"pitcher": "Zed", "bid": 2, "points": {}}]),
        "bid_out_of_range": game_data(hands=[{**smudge, "bid": 9}]),
        "illegal_auction": game_data(
            hands=[{"auction": [["Bob", 3], ["Cy", 2], ["Dee", None], ["Ann", None]]}]
        ),
        "missing_category": game_data(
            hands=[{"pitcher": "Bob", "bid": 2, "points": {"high": "Bob", "low": "Bob"}}]
        ),
        "after_win": game_data(hands=[smudge, {"misdeal": True}]),
        "team_seating": game_data(
            rules="partnership", teams={"Us": ["Ann", "Bob"], "Them": ["Cy", "Dee"]}, hands=[]
        ),
        "unknown_preset": game_data(rules="bridge"),
    }[kind]


@pytest.mark.parametrize(("kind", "message"), BAD_RECORDS)
def test_bad_record_is_refused_with_a_clear_message_and_saves_nothing(
    record_file, game_data, kind, message
):
    data = bad_record(kind, game_data)
    path = record_file([game_data(), data] if isinstance(data, dict) else data)

    with pytest.raises(CommandError) as caught:
        run("import_games", path)

    assert message in str(caught.value)
    assert "Traceback" not in str(caught.value)
    assert not Game.objects.exists() and not Hand.objects.exists()
    assert not Player.objects.exists()


def test_second_game_is_named_in_the_error(record_file, game_data):
    bad = game_data(hands=[{"auction": [["Bob", 3], ["Cy", 2], ["Dee", None], ["Ann", None]]}])

    with pytest.raises(CommandError) as caught:
        run("import_games", record_file([game_data(), bad]))

    assert str(caught.value) == (
        "game 2: hand 1: Cy bid 2 but Bob already bid 3; each bid must be higher"
    )


def test_unreadable_file_is_a_clear_error(tmp_path):
    with pytest.raises(CommandError, match="cannot read"):
        run("import_games", str(tmp_path / "missing.json"))


def test_import_command_exits_non_zero_from_the_shell(record_file, game_data, tmp_path):
    path = record_file(game_data(rules="bridge"))
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"}
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "-v0"], env=env, check=True)
    done = subprocess.run(
        [*manage, "import_games", "--new-club", "Club", path],
        capture_output=True,
        text=True,
        env=env,
    )

    assert done.returncode != 0
    assert "unknown preset 'bridge'" in done.stderr
    assert "Traceback" not in done.stderr


def test_import_into_a_named_or_a_new_club(record_file, game_data, only_club, user):
    other = club_create(name="Friday table", owner=user)

    with pytest.raises(CommandError, match="say which club with --club ID"):
        run("import_games", record_file(game_data()))
    run("import_games", "--club", str(other.pk), record_file(game_data()))
    run("import_games", "--new-club", "Pub league", record_file(game_data()))
    with pytest.raises(CommandError, match="no club 999"):
        run("import_games", "--club", "999", record_file(game_data()))

    assert list(Game.objects.values_list("club__name", flat=True).order_by("pk")) == [
        "Friday table",
        "Pub league",
    ]
    assert not only_club.games.exists()
    assert len(json.loads(run("export_games", "--club", str(other.pk)))) == 1


# ---- Input past every bound: a one-line CommandError, never a traceback ----

HOSTILE_FILES = {
    "nested": ("[" * 100_000, "the data is nested more than 32 levels deep"),
    "long number": ('{"bid": ' + "9" * 5000 + "}", "a number has more than 18 digits: 9999"),
    "key twice": (
        '[{"format": "pitchkeeper.game/1", "hands": [{"bid": 2, "bid": 3}]}]',
        'game 1, hand 1: "bid" is given twice',
    ),
}


@pytest.mark.parametrize("command", ["import_games", "import_club"])
@pytest.mark.parametrize("kind", HOSTILE_FILES)
def test_hostile_files_are_refused_in_one_line(record_file, command, kind):
    content, message = HOSTILE_FILES[kind]
    path = record_file(content)

    with pytest.raises(CommandError) as caught:
        run(command, path)

    assert str(caught.value).startswith(f"{path}: {message}")
    assert "\n" not in str(caught.value)
    assert not Game.objects.exists() and not Player.objects.exists()


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("x" * 61, "at most 60 characters long; this one has 61"),
        ("", "Give the club a name."),
        ("Pub\u200b", "invisible or control characters (U+200B ZERO WIDTH SPACE)"),
    ],
)
def test_a_new_club_name_past_the_bounds_is_refused(record_file, game_data, name, message):
    with pytest.raises(CommandError) as caught:
        run("import_games", "--new-club", name, record_file(game_data()))

    assert message in str(caught.value)
    assert not Game.objects.exists()


def test_a_new_club_name_is_normalised(record_file, game_data):
    run("import_games", "--new-club", "  Ｐｕｂ  league ", record_file(game_data()))

    assert Game.objects.get().club.name == "Pub league"


def test_a_game_with_more_hands_than_allowed_is_refused(record_file, game_data):
    path = record_file(game_data(hands=[{"misdeal": True}] * 100_000))

    with pytest.raises(CommandError, match="at most 200 hands \\(this one has 100000\\)"):
        run("import_games", path)

    assert not Game.objects.exists()


@pytest.mark.parametrize(
    ("language", "messages"),
    [
        (
            "ru",
            [
                "это не JSON: ",
                "партия 2: сдача 1: Cy заявил 2, но Bob уже заявил 3; каждая заявка должна быть "
                "выше предыдущей",
            ],
        ),
        (
            "nb",
            [
                "ikke gyldig JSON: ",
                "parti 2: runde 1: Cy bød 2, men Bob hadde allerede bydd 3; hvert bud må være "
                "høyere enn det forrige",
            ],
        ),
    ],
)
def test_a_refusal_is_told_in_the_language_of_the_command(
    record_file, game_data, language, messages
):
    """In the active language (the site's, LANGUAGE_CODE), not the engine's English."""
    bad = game_data(hands=[{"auction": [["Bob", 3], ["Cy", 2], ["Dee", None], ["Ann", None]]}])
    unreadable, illegal = messages

    with translation.override(language):
        with pytest.raises(CommandError) as caught:
            run("import_games", record_file("{not json"))
        assert unreadable in str(caught.value)
        with pytest.raises(CommandError) as caught:
            run("import_games", record_file([game_data(), bad]))
        assert str(caught.value) == illegal
