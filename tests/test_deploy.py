"""Production settings: `check --deploy` passes with them, the Content Security Policy
allows only the app's own files (so no template may carry inline script or style), and
the app runs under gunicorn as the README says."""

from __future__ import annotations

import json
import os
import re
import secrets
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parent.parent


def production_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """The environment of a deployment: DEBUG off, a real key, one host name; a
    throwaway SQLite database whatever the test run itself uses."""
    env = {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "example.com",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'deploy.sqlite3'}",
        "STATIC_ROOT": str(tmp_path / "static"),
        **extra,
    }
    # Not what this test run has set: the browser tests allow async-unsafe calls, which
    # check --deploy rightly refuses.
    for name in (
        "BEHIND_HTTPS_PROXY",
        "SECURE_SSL_REDIRECT",
        "DJANGO_SETTINGS_MODULE",
        "DJANGO_ALLOW_ASYNC_UNSAFE",
    ):
        if name not in extra:
            env.pop(name, None)
    return env


def manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_passes_with_production_settings(tmp_path):
    done = manage("check", "--deploy", "--fail-level", "WARNING", env=production_env(tmp_path))

    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


def test_production_refuses_to_start_without_a_secret_key(tmp_path):
    env = production_env(tmp_path)
    del env["SECRET_KEY"]

    done = manage("check", env=env)

    assert done.returncode != 0
    assert "SECRET_KEY must be set" in done.stderr


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("LOG_LEVEL", "loud", "LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL"),
        ("ADMINS", "Ann <ann at example.com>", "ADMINS needs e-mail addresses"),
        ("INVITATION_DAYS", "0", "INVITATION_DAYS must be a whole number of days from 1 to 365"),
        ("INVITATION_DAYS", str(2**63), "INVITATION_DAYS must be a whole number"),
        ("INVITATION_DAYS", "-7", "INVITATION_DAYS must be a whole number"),
        ("INVITATION_DAYS", "a week", "INVITATION_DAYS must be a whole number"),
        ("CACHE_URL", "memcached://127.0.0.1:11211", "CACHE_URL must be a Redis URL"),
        ("TASKS_BACKEND", "django_tasks_rq.RQBackend", "TASKS_REDIS_URL must be set"),
    ],
)
def test_a_wrong_setting_is_refused_at_start(tmp_path, name, value, message):
    done = manage("check", env=production_env(tmp_path, **{name: value}))

    assert done.returncode != 0
    assert message in done.stderr


PRINT_SETTINGS = """
import json, django
django.setup()
from django.conf import settings as s
print(json.dumps({
    "session_secure": s.SESSION_COOKIE_SECURE,
    "csrf_secure": s.CSRF_COOKIE_SECURE,
    "language_cookie": [
        s.LANGUAGE_COOKIE_SECURE, s.LANGUAGE_COOKIE_SAMESITE, s.LANGUAGE_COOKIE_HTTPONLY
    ],
    "ssl_redirect": s.SECURE_SSL_REDIRECT,
    "hsts": s.SECURE_HSTS_SECONDS,
    "proxy_header": s.SECURE_PROXY_SSL_HEADER,
    "frame": s.X_FRAME_OPTIONS,
    "nosniff": s.SECURE_CONTENT_TYPE_NOSNIFF,
    "static": s.STORAGES["staticfiles"]["BACKEND"],
    "email": s.EMAIL_BACKEND,
}))
"""

PRINT_SHARED = """
import json, django
django.setup()
from django.conf import settings as s
print(json.dumps({"cache": s.CACHES["default"], "apps": s.INSTALLED_APPS}))
"""


def settings_under(env: dict[str, str], script: str = PRINT_SETTINGS) -> dict:
    env = {**env, "DJANGO_SETTINGS_MODULE": "pitchkeeper.settings"}
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_cache_and_the_queue_move_to_redis_each_in_its_own_database(tmp_path):
    """One machine keeps a cache in each process; several share Redis, one database
    for the cache and another for the queue, never the same one."""
    alone = settings_under(production_env(tmp_path), PRINT_SHARED)
    shared = settings_under(
        production_env(
            tmp_path,
            CACHE_URL="redis://127.0.0.1:6379/1",
            TASKS_BACKEND="django_tasks_rq.RQBackend",
            TASKS_REDIS_URL="redis://127.0.0.1:6379/0",
        ),
        PRINT_SHARED,
    )
    clash = manage(
        "check",
        env=production_env(
            tmp_path,
            CACHE_URL="redis://127.0.0.1:6379/0",
            TASKS_BACKEND="django_tasks_rq.RQBackend",
            TASKS_REDIS_URL="redis://127.0.0.1:6379/0",
        ),
    )

    assert alone["cache"] == {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    assert "django_tasks_rq" not in alone["apps"]
    assert shared["cache"] == {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:6379/1",
    }
    assert {"django_rq", "django_tasks_rq"} <= set(shared["apps"])
    assert clash.returncode != 0
    assert "must name different Redis databases" in clash.stderr


def test_production_settings_are_secure_and_local_ones_work_over_http(tmp_path):
    production = settings_under(production_env(tmp_path))
    local = settings_under({**production_env(tmp_path), "DEBUG": "1"})
    proxied = settings_under(production_env(tmp_path, BEHIND_HTTPS_PROXY="1"))

    assert production == {
        "session_secure": True,
        "csrf_secure": True,
        # The language chosen: over HTTPS only, not sent along from other sites' pages,
        # and out of the page's scripts' reach (none reads it).
        "language_cookie": [True, "Lax", True],
        "ssl_redirect": True,
        "hsts": 31_536_000,
        # Trusting X-Forwarded-Proto is only safe behind a proxy that sets it: opt-in.
        "proxy_header": None,
        "frame": "DENY",
        "nosniff": True,
        "static": "whitenoise.storage.CompressedManifestStaticFilesStorage",
        # Django's own default: the console one would print password-reset links.
        "email": "django.core.mail.backends.smtp.EmailBackend",
    }
    assert proxied["proxy_header"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    # runserver speaks plain HTTP: nothing may insist on HTTPS there.
    assert not local["session_secure"] and not local["csrf_secure"]
    assert local["language_cookie"] == [False, "Lax", True]
    assert not local["ssl_redirect"] and local["hsts"] == 0
    assert local["email"] == "django.core.mail.backends.console.EmailBackend"


def test_production_refuses_to_start_with_the_console_email_backend(tmp_path):
    env = production_env(tmp_path, EMAIL_BACKEND="django.core.mail.backends.console.EmailBackend")

    done = manage("check", env=env)

    assert done.returncode != 0
    assert "EMAIL_BACKEND must not be the console backend when DEBUG is off" in done.stderr


def csp_directives(header: str) -> dict[str, list[str]]:
    directives = {}
    for part in header.split(";"):
        words = part.split()
        if words:
            directives[words[0]] = words[1:]
    return directives


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/accounts/login/", "/accounts/signup/"])
def test_content_security_policy_allows_only_the_apps_own_files(anonymous_client, url):
    response = anonymous_client.get(url)

    assert response.status_code == 200
    header = response["Content-Security-Policy"]
    assert "unsafe-inline" not in header and "unsafe-eval" not in header
    directives = csp_directives(header)
    for name in ("default-src", "script-src", "style-src", "connect-src", "form-action"):
        assert directives[name] == ["'self'"], (name, header)
    assert directives["frame-ancestors"] == ["'none'"]
    assert directives["object-src"] == ["'none'"]


@pytest.mark.django_db
def test_signed_in_pages_carry_the_policy_too(client):
    response = client.get("/")

    assert response.status_code == 200
    assert csp_directives(response["Content-Security-Policy"])["script-src"] == ["'self'"]
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"


# What a strict policy blocks: a <script> without src, <style> blocks, style="..."
# attributes, on*="..." handlers, htmx's hx-on (which evaluates its value as script)
# and javascript: URLs.
INLINE = {
    "inline <script>": re.compile(r"<script\b(?![^>]*\bsrc=)[^>]*>", re.IGNORECASE),
    "<style> block": re.compile(r"<style\b", re.IGNORECASE),
    "style attribute": re.compile(r"\sstyle\s*=", re.IGNORECASE),
    "on* handler": re.compile(r"\son[a-z]+\s*=", re.IGNORECASE),
    "hx-on handler": re.compile(r"\s(?:data-)?hx-on\b", re.IGNORECASE),
    "javascript: URL": re.compile(r"javascript:", re.IGNORECASE),
}


def test_no_template_has_inline_script_or_style():
    # The site-wide folder and every domain's own (core's holds the engine's worker
    # script, a .js template the scan leaves alone: it is no page).
    folders = [Path(folder) for folder in settings.TEMPLATES[0]["DIRS"]]
    templates = sorted(
        p for folder in folders for p in folder.rglob("*") if p.suffix in {".html", ".txt"}
    )
    assert len(folders) == 6
    assert len(templates) > 30
    found = [
        f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, match.start()) + 1}: {what}"
        for path in templates
        for text in [path.read_text(encoding="utf-8")]
        for what, pattern in INLINE.items()
        for match in pattern.finditer(text)
    ]
    assert not found, "\n".join(found)


def test_the_inline_scan_finds_what_it_looks_for():
    sample = (
        '<script>x()</script><style>p{}</style><p style="color:red" onclick="x()"'
        ' hx-on::click="x()"><a href="javascript:x()">'
    )
    assert all(pattern.search(sample) for pattern in INLINE.values())
    assert not any(
        pattern.search('<script src="/static/js/app.js" defer></script><p class="online">')
        for pattern in INLINE.values()
    )


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def fetch(url: str, **headers: str) -> tuple[int, dict[str, str]]:
    opener = urllib.request.build_opener(NoRedirect)
    request = urllib.request.Request(url, headers={"Host": "example.com", **headers})
    try:
        with opener.open(request, timeout=10) as response:
            return response.status, dict(response.headers)
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers)


def test_gunicorn_serves_the_app_with_several_workers(tmp_path):
    """The README's command, on a free loopback port: the health check answers over
    plain HTTP (for a load balancer), pages redirect to HTTPS, behind the proxy a
    request marked X-Forwarded-Proto: https goes through, and every request is in the
    access log."""
    pytest.importorskip("gunicorn")
    port = free_port()
    env = production_env(tmp_path, BEHIND_HTTPS_PROXY="1")
    # The health check writes to the database: it must have its tables.
    migrated = manage("migrate", env=env)
    assert migrated.returncode == 0, migrated.stderr
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "pitchkeeper.wsgi", "-w", "2"]
        + ["-b", f"127.0.0.1:{port}", "--log-level", "warning", "--access-logfile", "-"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                status, headers = fetch(f"{base}/health/")
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        assert status == 200
        assert fetch(f"{base}/")[1]["Location"] == "https://example.com/"
        status, headers = fetch(f"{base}/", **{"X-Forwarded-Proto": "https"})
        assert status == 302 and headers["Location"].startswith("/accounts/login/")
        assert headers["Strict-Transport-Security"].startswith("max-age=31536000")
    finally:
        server.terminate()
        output = server.communicate(timeout=30)[0]
    assert "Traceback" not in output, output
    assert '"GET /health/ HTTP/1.1" 200' in output, output
