"""While the database cannot be reached, a deployment (DEBUG off) answers 503 with
Retry-After and a short page in the user's language, and logs each request once, on one
line: no traceback, no error of the session after it, nothing mailed."""

from __future__ import annotations

import json
import socket
import subprocess
import sys

import pytest

from tests.test_deploy import ROOT, production_env

# Requests of a signed-in phone (its session cookie makes the session load from the
# database), one line of JSON each: status, Retry-After, the page.
REQUESTS = """
import json
import django
django.setup()
from django.test import Client
client = Client(raise_request_exception=False, HTTP_HOST="example.com")
client.cookies["sessionid"] = "x" * 32
for method, url, language in {requests!r}:
    data = {{"pitcher": "Ann", "bid": "2"}} if method == "post" else None
    response = getattr(client, method)(url, data, secure=True, HTTP_ACCEPT_LANGUAGE=language)
    print(json.dumps([
        response.status_code,
        response.get("Retry-After"),
        response.get("Cache-Control"),
        response.content.decode(),
    ]))
from django.core import mail
print(json.dumps(len(getattr(mail, "outbox", []))))
"""


def unreachable_database() -> str:
    """The address of a PostgreSQL server that is not there: a port nothing listens on."""
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    return f"postgres://pitchkeeper:pitchkeeper@127.0.0.1:{port}/pitchkeeper"


def serve(tmp_path, requests: list[tuple[str, str, str]]) -> tuple[list, list[str], str]:
    """The answers to ``requests``, the lines logged, and the whole log."""
    environment = {
        **production_env(tmp_path, DATABASE_URL=unreachable_database(), ADMINS="ops@example.com"),
        "DJANGO_SETTINGS_MODULE": "pitchkeeper.settings",
        # A mail to ADMINS is kept in the process, and counted at the end.
        "EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend",
    }
    done = subprocess.run(
        [sys.executable, "-c", REQUESTS.format(requests=requests)],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    *answers, mails = [json.loads(line) for line in done.stdout.splitlines()]
    assert mails == 0
    # Each line of the log is "<date> <time> <level> [<logger>] <message>".
    logged = [entry.split(" ", 2)[2] for entry in done.stderr.splitlines() if " [" in entry]
    return answers, logged, done.stderr


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ["Unavailable for a moment", "what you just sent was not saved"]),
        ("ru", ["Временно недоступно", "то, что вы сейчас отправили, не сохранено"]),
        ("nb", ["Utilgjengelig en liten stund", "det du nettopp sendte, ble ikke lagret"]),
    ],
)
def test_pages_answer_503_while_the_database_is_away(tmp_path, language, words):
    requests = [
        ("get", "/", language),
        ("get", "/accounts/login/", language),
        ("post", "/games/1/hands/", language),
    ]
    answers, logged, stderr = serve(tmp_path, requests)

    for (status, retry_after, cache_control, page), (method, url, _) in zip(
        answers, requests, strict=True
    ):
        assert (status, retry_after) == (503, "30"), (method, url)
        assert "no-cache" in cache_control
        for word in words:
            assert word in page, (method, url)
        # The page is the site's own, in the user's language, with no menu.
        assert f'<html lang="{language}">' in page
        assert "Sign out" not in page
    # One line for each request, naming it and the database's error.
    assert len(logged) == len(requests), stderr
    for line, (method, url, _) in zip(logged, requests, strict=True):
        assert line.startswith(
            f"ERROR [pitchkeeper.core.views] Database unreachable, {method.upper()} {url} "
            "answered 503: connection failed:"
        ), line
    assert "Traceback" not in stderr


def test_another_server_error_is_still_a_500(tmp_path):
    """The 503 is for the database alone: a view that raises anything else is the 500
    it was, traceback and all (tests/test_logging.py)."""
    from tests.test_logging import serve_an_error

    done = serve_an_error(tmp_path)

    assert done.stdout.strip() == "500"
    assert "Traceback (most recent call last):" in done.stderr
