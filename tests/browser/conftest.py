"""A production-mode server for the browser tests: DEBUG off (as in every test), the
static files collected by ``collectstatic`` under hashed names and served by WhiteNoise
from the collected folder, as a deployment serves them (the development server serves
them fresh from the source folder under their own names)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connections
from django.test import override_settings
from django.test.testcases import LiveServerThread

from tests.conftest import Phone, phone_at

PRODUCTION_STATIC = {
    "STORAGES": {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    },
    "WHITENOISE_USE_FINDERS": False,
    "WHITENOISE_AUTOREFRESH": False,
}


@pytest.fixture(scope="session")
def collected_static(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The static files as ``collectstatic`` writes them for a deployment: hashed names,
    a manifest, and each text file compressed beside it. Once per session."""
    root = tmp_path_factory.mktemp("staticfiles")
    with override_settings(STATIC_ROOT=root, **PRODUCTION_STATIC):
        call_command("collectstatic", interactive=False, verbosity=0)
    return root


@pytest.fixture
def production_server(collected_static: Path, transactional_db: None) -> Iterator[str]:
    """The URL of a live server in production mode for this test: the settings a
    deployment serves static files with, and no static-files handler of the test
    server's own in front of WhiteNoise. The settings stay while the test runs, since
    pages name their static files as they are rendered."""
    with override_settings(STATIC_ROOT=collected_static, **PRODUCTION_STATIC):
        # An in-memory SQLite database is shared with the server's thread; PostgreSQL
        # and a SQLite file are reached through the server's own connection.
        shared = {
            connection.alias: connection
            for connection in connections.all()
            if connection.vendor == "sqlite" and connection.is_in_memory_db()
        }
        server = LiveServerThread("localhost", lambda app: app, shared, port=0)
        server.daemon = True
        server.start()
        server.is_ready.wait()
        if server.error:
            raise server.error
        try:
            yield f"http://localhost:{server.port}"
        finally:
            server.terminate()


@pytest.fixture(params=["development", "production"])
def served_phone(
    request: pytest.FixtureRequest, transactional_db: None, browser: Any, user: Any, club: Any
) -> Iterator[Phone]:
    """Pages at 360x740, once on the development server and once on a production-mode
    one; the test fails on any JavaScript error. Its rows are committed (the servers
    read them from their own threads)."""
    if request.param == "development":
        url = request.getfixturevalue("live_server").url
    else:
        url = request.getfixturevalue("production_server")
    with phone_at(browser, url, user, club) as phone:
        yield phone
