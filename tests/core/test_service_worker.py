"""The service worker: served at the site's root to anyone (a signed-out phone still
opens its cached games), never cached by HTTP, naming the app shell by the URLs the
pages use, and a new version whenever a file of the shell changes."""

from __future__ import annotations

import json
import re

import pytest
from django.templatetags.static import static

from pitchkeeper.core import service_worker as views

pytestmark = pytest.mark.django_db


def test_served_at_the_root_to_anyone(anonymous_client):
    response = anonymous_client.get("/sw.js")

    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert response["Cache-Control"] == "no-cache"
    assert response["Service-Worker-Allowed"] == "/"


def test_it_caches_the_shell_by_the_urls_the_pages_use(anonymous_client):
    script = anonymous_client.get("/sw.js").content.decode()

    shell = json.loads(re.search(r"const SHELL = (\[.*\]);", script).group(1))
    assert shell == [static(name) for name in views.SHELL]
    assert static("js/offline.js") in shell
    assert 'const LOGOUT = "/accounts/logout/";' in script
    # The engine's runtime is named, for when a game screen asks for it.
    engine = json.loads(re.search(r"const ENGINE = (\[.*\]);", script).group(1))
    assert engine == views.engine_files()
    assert engine[:2] == [static("js/engine.js"), "/engine/worker.js"]
    assert re.fullmatch(r"/engine/rules-[0-9a-f]{16}\.js", engine[2])
    # The worker, which names the rules' current version, is asked of the network first.
    assert 'const ENGINE_WORKER = "/engine/worker.js";' in script
    # Tests serve static files fresh from the source folder: asked of the network first.
    assert "const STATIC_FIRST = false;" in script


def test_only_read(anonymous_client):
    assert anonymous_client.post("/sw.js").status_code == 405


def test_a_changed_shell_file_is_a_new_version(anonymous_client, tmp_path, monkeypatch):
    changed = tmp_path / "app.css"
    changed.write_text("body { color: red; }")
    monkeypatch.setattr(views.finders, "find", lambda name: str(changed))

    before = views._shell_version()
    changed.write_text("body { color: blue; }")

    assert views._shell_version() != before
    assert (
        f"pitchkeeper-shell-{views._shell_version()}"
        in anonymous_client.get("/sw.js").content.decode()
    )


def test_it_names_the_start_page_and_the_offline_page(anonymous_client):
    script = anonymous_client.get("/sw.js").content.decode()

    assert 'const OFFLINE = "/offline/";' in script
    assert 'const HOME = "/";' in script


@pytest.mark.parametrize(
    ("language", "heading"),
    [("en", "No connection"), ("ru", "Нет связи"), ("nb", "Ingen forbindelse")],
)
def test_the_offline_page_is_the_apps_own_in_the_users_language(
    anonymous_client, language, heading
):
    response = anonymous_client.get("/offline/", HTTP_ACCEPT_LANGUAGE=language)

    # Signed out too: a phone whose session ended still gets it.
    assert response.status_code == 200
    html = response.content.decode()
    assert f'<h1 id="offline-title">{heading}</h1>' in html
    assert f'lang="{language}"' in html
    assert response["Content-Language"] == language
    assert 'href="/"' in html


def test_the_offline_page_as_an_htmx_answer_is_the_same_page(client):
    # Only the service worker asks for it, never htmx; an htmx request gets it whole.
    response = client.get("/offline/", HTTP_HX_REQUEST="true")

    assert response.status_code == 200
    assert "This page needs the network" in response.content.decode()
