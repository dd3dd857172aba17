from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE_CLUBS = [("pitchkeeper", "0002_verbose_names")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_data_from_before_clubs_moves_into_a_first_club():
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes("pitchkeeper")
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


@pytest.mark.django_db(transaction=True)
def test_an_empty_database_gets_no_club():
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes("pitchkeeper")
    migrate(BEFORE_CLUBS)
    new = migrate(latest)
    assert not new.get_model("pitchkeeper", "Club").objects.exists()
