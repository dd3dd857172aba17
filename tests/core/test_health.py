from __future__ import annotations

import logging
from contextlib import contextmanager

import pytest
from django.db import connection

from pitchkeeper.core.models import Heartbeat

pytestmark = pytest.mark.django_db


@contextmanager
def read_only_database():
    """The database refuses every write from here on, as one out of disk or mounted
    read-only does, while it still answers reads."""
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("PRAGMA query_only = ON")
        else:
            # Until the test's transaction is rolled back.
            cursor.execute("SET transaction_read_only = on")
    try:
        yield
    finally:
        if connection.vendor == "sqlite":
            with connection.cursor() as cursor:
                cursor.execute("PRAGMA query_only = OFF")


def test_health_reports_ok(anonymous_client):
    response = anonymous_client.get("/health/")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"status": "ok"}
    assert "no-cache" in response["Cache-Control"]


def test_health_writes_to_the_database_every_time(anonymous_client):
    anonymous_client.get("/health/")
    first = Heartbeat.objects.get().beat

    anonymous_client.get("/health/")

    assert Heartbeat.objects.get().beat > first
    assert Heartbeat.objects.count() == 1


def test_health_fails_when_the_database_takes_no_writes(anonymous_client, caplog):
    with read_only_database(), caplog.at_level(logging.ERROR):
        # Reads still work: a SELECT 1 alone would have said ok.
        assert Heartbeat.objects.count() == 0
        response = anonymous_client.get("/health/")

    assert response.status_code == 503
    assert response["Content-Type"] == "application/json"
    # A fixed phrase for the public; the database's own words go to the log.
    assert response.json() == {"status": "error", "reason": "database not writable"}
    assert "no-cache" in response["Cache-Control"]
    [record] = [r for r in caplog.records if r.name == "pitchkeeper.core.views"]
    # On one line, with the database's own words.
    assert record.exc_info is None
    assert "refused a write: " in record.getMessage()
    assert "\n" not in record.getMessage()
    assert any(word in record.getMessage() for word in ("readonly", "read-only"))


def test_health_answers_get_only(anonymous_client):
    assert anonymous_client.post("/health/").status_code == 405
    assert not Heartbeat.objects.exists()
