"""What belongs to the site as a whole rather than to a domain: the health check and
the service worker that keeps the app working on a phone with no network."""

from __future__ import annotations

import hashlib
import json
import logging
from functools import cache
from pathlib import Path

from django.conf import settings
from django.contrib.auth.decorators import login_not_required
from django.contrib.staticfiles import finders
from django.db import DatabaseError, transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from pitchkeeper.core.models import Heartbeat

logger = logging.getLogger(__name__)


@login_not_required
@never_cache
@require_GET
def health(request: HttpRequest) -> JsonResponse:
    """OK only if the database takes a committed write, so a load balancer sees a
    database that is down, read-only or out of disk. The answer is public: the reason is
    a fixed phrase, and the error itself goes to the log."""
    try:
        with transaction.atomic():
            Heartbeat.objects.update_or_create(pk=1, defaults={"beat": timezone.now()})
    except DatabaseError:
        logger.exception("Health check: the database refused a write")
        return JsonResponse({"status": "error", "reason": "database not writable"}, status=503)
    return JsonResponse({"status": "ok"})


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
        "static_first": not fresh,
    }
    response = render(request, "sw.js", context, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response
