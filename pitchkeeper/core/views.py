"""What belongs to the site as a whole rather than to a domain: the health check, and
the rules engine's worker and package for the phone."""

from __future__ import annotations

import logging

from csp.constants import SELF, UNSAFE_EVAL
from csp.decorators import csp_replace
from django.contrib.auth.decorators import login_not_required
from django.db import DatabaseError, transaction
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.cache import cache_control, never_cache
from django.views.decorators.http import require_GET

from pitchkeeper.core.engine import PREFIX, bundle
from pitchkeeper.core.models import Heartbeat

JAVASCRIPT = "text/javascript; charset=utf-8"

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


# Brython compiles Python to JavaScript and runs it with new Function(): the worker alone
# may evaluate code. Its policy is its own response's, so the pages' stays as strict.
@login_not_required
@require_GET
@csp_replace({"script-src": [SELF, UNSAFE_EVAL]})
def engine_worker(request: HttpRequest) -> HttpResponse:
    """The Web Worker that runs the rules engine (static/js/engine.js starts it)."""
    _text, digest = bundle()
    context = {
        "runtime": static(f"{PREFIX}/brython.js"),
        # Where Brython looks for its Unicode table: the unhashed name beside the runtime.
        "runtime_path": static(f"{PREFIX}/brython.js").rsplit("/", 1)[0] + "/",
        "bundle": reverse("engine_bundle", args=[digest]),
    }
    return render(request, "core/engine_worker.js", context, content_type=JAVASCRIPT)


@login_not_required
@require_GET
@cache_control(public=True, max_age=365 * 24 * 3600, immutable=True)
def engine_bundle(request: HttpRequest, digest: str) -> HttpResponse:
    """The rules package and the standard library it needs, for Brython; named by its
    hash, so it is cached for good and a new version of the rules is a new name."""
    text, current = bundle()
    if digest != current:
        raise Http404("not this version of the rules")
    return HttpResponse(text, content_type=JAVASCRIPT)
