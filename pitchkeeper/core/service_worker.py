"""The service worker that keeps the app working on a phone with no network: the app
shell, the static files and the game pages the phone opened (docs/offline.md)."""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path

from django.conf import settings
from django.contrib.auth.decorators import login_not_required
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.http import require_GET

from pitchkeeper.core.brython import PREFIX, RUNTIME_FILES, bundle

# What a phone needs to open a game it has seen with no network: fetched when the
# service worker is installed. Other static files (the engine's runtime among them)
# are kept once the phone has fetched them.
SHELL = (
    "css/app.css",
    "js/htmx.min.js",
    "js/app.js",
    "js/offline.js",
    "manifest.webmanifest",
    "icons/icon.svg",
    "icons/icon-192.png",
)


def _shell_version() -> str:
    """Changes whenever a file of the shell does, so that phones fetch the new ones:
    with hashed names (production) the URLs change; in development the contents do."""
    digest = hashlib.sha256()
    for name in SHELL:
        digest.update(static(name).encode())
        found = finders.find(name)
        if found:
            digest.update(Path(str(found)).read_bytes())
    return digest.hexdigest()[:16]


_cached_shell_version = cache(_shell_version)


def engine_files() -> list[str]:
    """The rules engine's runtime and its starter: kept once a game screen asks for it
    (not at install, which any first page does, a viewer's included), so that the engine
    starts on a phone with no network."""
    return [
        static("js/engine.js"),
        reverse("engine_worker"),
        reverse("engine_bundle", args=[bundle()[1]]),
        *(static(f"{PREFIX}/{name}") for name in RUNTIME_FILES),
    ]


@login_not_required
@require_GET
def offline_page(request: HttpRequest) -> HttpResponse:
    """What the service worker shows, with no network, in place of a page it has not
    kept (an edit, a new game, the statistics, a game never opened): the app's own
    words in the user's language rather than the browser's error page."""
    return render(request, "core/offline.html")


@login_not_required
@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, at the site's root so that its scope is the whole site.
    Never cached by HTTP: the browser checks it for a new version on every visit."""
    # Static files served fresh from the source folder (development, tests) keep their
    # names when they change: the worker then asks the network first for them too.
    fresh = settings.WHITENOISE_AUTOREFRESH
    context = {
        "version": _shell_version() if fresh else _cached_shell_version(),
        "shell": json.dumps([static(name) for name in SHELL]),
        "engine": json.dumps(engine_files()),
        "static_first": not fresh,
        "offline": reverse("offline"),
        "home": reverse("home"),
    }
    response = render(request, "sw.js", context, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response
