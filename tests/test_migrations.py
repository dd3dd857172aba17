from __future__ import annotations

import gzip
import os
import sqlite3
import subprocess
import sys
from contextlib import closing
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE_CLUBS = [("pitchkeeper", "0002_verbose_names")]
FIRST_CLUB = [("pitchkeeper", "0004_first_club")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_data_from_before_clubs_moves_into_a_first_club_and_no_data_makes_none():
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes("pitchkeeper")
    migrate(BEFORE_CLUBS)
    # Taken back a few steps rather than the whole way twice: the migrations take time.
    empty = migrate(FIRST_CLUB)
    assert not empty.get_model("pitchkeeper", "Club").objects.exists()
    old = migrate(BEFORE_CLUBS)
    user = get_user_model().objects.create(username="keeper")
    ann = old.get_model("pitchkeeper", "Player").objects.create(name="Ann")
    game = old.get_model("pitchkeeper", "Game").objects.create(
        rules={"preset": "setback"}, first_dealer=ann, share_token="t"
    )

    new = migrate(latest)

    club = new.get_model("pitchkeeper", "Club").objects.get()
    assert new.get_model("pitchkeeper", "Player").objects.get(pk=ann.pk).club_id == club.pk
    assert new.get_model("pitchkeeper", "Game").objects.get(pk=game.pk).club_id == club.pk
    membership = new.get_model("pitchkeeper", "Membership").objects.get()
    assert (membership.user_id, membership.role) == (user.pk, "owner")
    # Its statistics are taken to be in the zone the server runs in.
    zone = new.get_model("pitchkeeper", "StatsZone").objects.get()
    assert (zone.club_id, zone.time_zone) == (club.pk, settings.TIME_ZONE)


# ---- A database made before the Django side was arranged by domain ----

# Written by the code of the commit before the move, with the migrations of that time:
# a generated 40-game league with its statistics and ratings, a season with a chip
# value, a recorded payment, two members, an open and an accepted invitation, a game in
# progress whose hand was edited (its history), a deleted game and a practice game.
BEFORE_DOMAINS = Path(__file__).parent / "data" / "before_domains.sqlite3.gz"
ROOT = Path(__file__).resolve().parent.parent

CHECK_AFTER_MIGRATING = """
from django.forms.models import model_to_dict
from pitchkeeper.clubs.models import Club
from pitchkeeper.games.models import Game
from pitchkeeper.games.replay import games_replayed, standing_of
from pitchkeeper.seasons.derive import stats_rebuild
from pitchkeeper.seasons.models import (
    GameCount, GameLine, MonthChipValue, MonthCount, MonthLine, MonthPair, MonthRun,
    RatingPoint, TotalCount,
)

for state in games_replayed(games=Game.objects.all()):
    game = state.game
    finished = state.result.finished
    assert (game.finished_at is not None) == finished, game.pk
    winner = game.winner_id
    assert winner == (state.names and {n: p for p, n in state.names.items()}.get(
        state.result.winner)), game.pk
    if not finished:
        # The home screen's standing of a game in progress, written by the migration.
        ids = {n: p for p, n in state.names.items()}
        assert game.standing == standing_of(state.result, state.record.seating, ids), game.pk

NAMES = {"id", "club", "player", "other", "month", "kind", "key"}

def rows(model):
    # A rollup row brought back to nothing (its games deleted or made practice) is
    # kept at zero by the incremental path and not written by a rebuild: the same sums.
    found = [model_to_dict(row) for row in model.objects.all()]
    return sorted(
        tuple(sorted((k, str(v)) for k, v in row.items() if k != "id"))
        for row in found
        if any(v for k, v in row.items() if k not in NAMES)
    )

derived = (
    GameLine, GameCount, MonthLine, MonthCount, TotalCount, MonthPair, MonthRun, MonthChipValue,
    RatingPoint,
)
kept = [rows(model) for model in derived]
stats_rebuild(club=Club.objects.get())
assert [rows(model) for model in derived] == kept
print("checked", Game.objects.count())
"""


def _tables(path: Path) -> dict[str, int]:
    with closing(sqlite3.connect(path)) as db:
        names = [
            name
            for (name,) in db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'pitchkeeper_%'"
            )
        ]
        return {name: db.execute(f'SELECT COUNT(*) FROM "{name}"').fetchone()[0] for name in names}


def _manage(database: Path, *args: str) -> str:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}", "DEBUG": "1"}
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_a_database_from_before_the_domains_migrates_with_nothing_lost(tmp_path):
    database = tmp_path / "before.sqlite3"
    database.write_bytes(gzip.decompress(BEFORE_DOMAINS.read_bytes()))
    before = _tables(database)
    assert before["pitchkeeper_game"] == 41 and before["pitchkeeper_handchange"] > 0

    migrated_at = datetime.now(UTC)
    _manage(database, "migrate", "--no-input")

    after = _tables(database)
    assert {name: after[name] for name in before} == before
    # The tables added since: the health check's row (written by the first check), the
    # time zone each club's statistics were built in, where ratings are still due
    # (nowhere: the migrated statistics are whole), the task workers' beats (none yet),
    # the plans of payments (none until a ledger is viewed), the replays kept of games in
    # progress (none until a game is saved), and the head-to-head and
    # runs rollups, the months' chip values and the all-time tallies, filled from the
    # league's rows (checked against a rebuild below), and the club nights (none yet).
    assert {name: n for name, n in after.items() if name not in before} == {
        "pitchkeeper_heartbeat": 0,
        "pitchkeeper_statszone": 1,
        "pitchkeeper_ratingsdue": 0,
        "pitchkeeper_workerbeat": 0,
        "pitchkeeper_monthpair": 412,
        "pitchkeeper_monthrun": 86,
        "pitchkeeper_monthchipvalue": 12,
        "pitchkeeper_totalcount": 67,
        "pitchkeeper_ledgerplan": 0,
        "pitchkeeper_gamereplay": 0,
        **dict.fromkeys(
            ["pitchkeeper_night", "pitchkeeper_night_payments", "pitchkeeper_attendance"], 0
        ),
        **dict.fromkeys(["pitchkeeper_nightround", "pitchkeeper_nighttable"], 0),
    }
    # The invitations already made expire a week after the migration.
    with closing(sqlite3.connect(database)) as db:
        expiries = [e for (e,) in db.execute("SELECT expires FROM pitchkeeper_invitation")]
    assert len(expiries) == 2
    for expires in expiries:
        left = datetime.fromisoformat(expires).replace(tzinfo=UTC) - migrated_at
        assert timedelta(days=7) <= left < timedelta(days=7, minutes=5)
    # Every game replays to what is stored, and the statistics kept are exactly what
    # rebuilding them from the hands writes.
    assert "checked 41" in _manage(database, "shell", "-c", CHECK_AFTER_MIGRATING)


def test_the_models_match_the_migrations(tmp_path):
    _manage(tmp_path / "empty.sqlite3", "makemigrations", "--check", "--dry-run")


# A partnership game in which the dealer stole a 4, as the rule was before seed 001's
# reading (`steal_up_to`): stored, it must still replay as it was scored.
STOLEN_FOUR = {
    "pitcher": "Dee",
    "bid": 4,
    "auction": [["Ann", 4], ["Bob", None], ["Cy", None], ["Dee", 4]],
    "points": {"high": "Dee", "low": "Dee", "jack": "Dee", "game": "Dee"},
}


@pytest.mark.django_db(transaction=True)
def test_a_partnership_game_stored_before_the_steal_limit_keeps_its_rule():
    from pitchkeeper.rules import resolve_rules

    latest = MigrationExecutor(connection).loader.graph.leaf_nodes("pitchkeeper")
    old = migrate([("pitchkeeper", "0016_stats_indexes")])
    before = resolve_rules("partnership").to_dict()
    del before["steal_up_to"]
    club = old.get_model("pitchkeeper", "Club").objects.create(name="Thursday")
    ann = old.get_model("pitchkeeper", "Player").objects.create(club=club, name="Ann")
    games = old.get_model("pitchkeeper", "Game").objects
    played = games.create(club=club, rules=before, first_dealer=ann, share_token="a")
    setback = games.create(
        club=club, rules=resolve_rules("setback").to_dict(), first_dealer=ann, share_token="b"
    )
    written = games.get(pk=setback.pk).rules

    new = migrate(latest)

    stored = new.get_model("pitchkeeper", "Game").objects
    assert resolve_rules(stored.get(pk=played.pk).rules).steal_up_to is None
    assert stored.get(pk=setback.pk).rules == written
    assert resolve_rules("partnership").steal_up_to == 3
