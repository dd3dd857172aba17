"""Errors reach the operator with DEBUG off: a server error's traceback is written to
stderr and mailed to ADMINS, at the LOG_LEVEL the environment asks for."""

from __future__ import annotations

import subprocess
import sys

import pytest
from django.contrib.auth.decorators import login_not_required
from django.core import mail
from django.core.exceptions import PermissionDenied
from django.test import Client, override_settings
from django.urls import path

from tests.test_deploy import ROOT, production_env


@login_not_required
def broken(request):
    raise ZeroDivisionError("the view divided by zero")


@login_not_required
def forbidden(request):
    raise PermissionDenied("not yours")


urlpatterns = [path("broken/", broken)]

# A deployment (DEBUG off) answering one request to a view that raises.
SERVE_AN_ERROR = """
import django
django.setup()
from django.test import Client
from django.urls import clear_url_caches, path
import pitchkeeper.urls
import tests.test_logging
pitchkeeper.urls.urlpatterns.append(path("broken/", tests.test_logging.broken))
pitchkeeper.urls.urlpatterns.append(path("forbidden/", tests.test_logging.forbidden))
clear_url_caches()
client = Client(raise_request_exception=False, HTTP_HOST="example.com", enforce_csrf_checks=True)
response = getattr(client, "{method}")("{url}", secure=True)
print(response.status_code)
"""


def serve_an_error(
    tmp_path, url: str = "/broken/", method: str = "get", **env: str
) -> subprocess.CompletedProcess[str]:
    environment = {
        **production_env(tmp_path, **env),
        "DJANGO_SETTINGS_MODULE": "pitchkeeper.settings",
    }
    return subprocess.run(
        [sys.executable, "-c", SERVE_AN_ERROR.format(url=url, method=method)],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_server_error_writes_its_traceback_to_stderr(tmp_path):
    done = serve_an_error(tmp_path)

    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "500"
    assert "ERROR [django.request] Internal Server Error: /broken/" in done.stderr
    assert "Traceback (most recent call last):" in done.stderr
    assert "ZeroDivisionError: the view divided by zero" in done.stderr


@pytest.mark.parametrize(
    ("url", "method", "line"),
    [
        (
            "/forbidden/",
            "get",
            "WARNING [django.request] Forbidden (Permission denied): /forbidden/",
        ),
        (
            "/accounts/login/",
            "post",
            "WARNING [django.security.csrf] Forbidden (Referer checking failed - no Referer.): "
            "/accounts/login/",
        ),
    ],
)
def test_a_refusal_is_logged_on_one_line(tmp_path, url, method, line):
    done = serve_an_error(tmp_path, url=url, method=method)

    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "403"
    # Each line of the log is "<date> <time> <level> [<logger>] <message>".
    logged = [entry.split(" ", 2)[2] for entry in done.stderr.splitlines() if " [" in entry]
    assert logged == [line]
    assert "Traceback" not in done.stderr


def test_log_level_quiets_the_log(tmp_path):
    done = serve_an_error(tmp_path, LOG_LEVEL="critical")

    assert done.stdout.strip() == "500"
    assert "ZeroDivisionError" not in done.stderr


def test_admins_are_read_from_the_environment(tmp_path):
    script = (
        "import django; django.setup(); from django.conf import settings; print(settings.ADMINS)"
    )
    env = {
        **production_env(tmp_path, ADMINS="Ann Ops <ann@example.com>, bob@example.com"),
        "DJANGO_SETTINGS_MODULE": "pitchkeeper.settings",
    }
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True
    )

    assert done.stdout.strip() == "[('Ann Ops', 'ann@example.com'), ('', 'bob@example.com')]"


@pytest.mark.django_db
@override_settings(ROOT_URLCONF=__name__, ADMINS=[("Ops", "ops@example.com")])
def test_a_server_error_is_mailed_to_the_admins():
    response = Client(raise_request_exception=False).get("/broken/")

    assert response.status_code == 500
    [message] = mail.outbox
    assert message.to == ["ops@example.com"]
    assert "Internal Server Error: /broken/" in message.subject
    assert "ZeroDivisionError at /broken/\nthe view divided by zero" in message.body
    assert "Traceback" in message.body
