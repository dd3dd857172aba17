"""What belongs to the site as a whole rather than to a domain: the health check, the
answer while the database cannot be reached, a form refused as out of date, and the
rules engine's worker and package for the phone."""

from __future__ import annotations

import logging
import sys

from csp.constants import SELF, UNSAFE_EVAL
from csp.decorators import csp_replace
from django.contrib.auth.decorators import login_not_required
from django.db import DatabaseError, transaction
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import add_never_cache_headers, patch_vary_headers
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import cache_control, never_cache
from django.views.decorators.http import require_GET
from django.views.defaults import server_error as django_server_error
from django_htmx.http import trigger_client_event

from pitchkeeper.core.brython import PREFIX, bundle, bundle_brotli
from pitchkeeper.core.logs import DATABASE_DOWN, database_error_line
from pitchkeeper.core.models import Heartbeat

JAVASCRIPT = "text/javascript; charset=utf-8"

logger = logging.getLogger(__name__)

# How soon a browser or a client is asked to try again while the database is away (a
# restart takes seconds, a failover about a minute).
RETRY_AFTER_SECONDS = 30


@login_not_required
@never_cache
def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """Django's CSRF_FAILURE_VIEW: a form sent with a token that no longer matches the
    phone's (the page was open while it signed in or out, here or in another tab) is
    refused, in the app's own page and the user's language, with a way back to the page
    it came from. Django's own page is English, for developers, and styled inline, which
    the Content-Security-Policy forbids."""
    back = request.headers.get("Referer", "")
    if not url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        back = reverse("home")
    response = render(request, "core/form_expired.html", {"back": back}, status=403)
    if request.htmx:
        # htmx swaps no refusal in: the page says why in its failure box and takes the
        # token of the phone's session now (static/js/app.js), so that "Try again" sends
        # the same entry (its one-time token keeps it from being saved twice) with it.
        trigger_client_event(response, "csrf-renewed", {"token": get_token(request)})
    return response


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
    except DatabaseError as error:
        # One line: a load balancer asks every few seconds for as long as it lasts.
        logger.error("Health check: the database refused a write: %s", database_error_line(error))
        return JsonResponse({"status": "error", "reason": "database not writable"}, status=503)
    return JsonResponse({"status": "ok"})


def server_error(request: HttpRequest) -> HttpResponse:
    """Django's handler500, called with the exception the request ended in, wherever it
    was raised (a view, or a middleware loading the session). A database that cannot be
    reached is no fault of the page: 503 with Retry-After and a short page of its own in
    the user's language, which asks nothing of the database, logged on one line. Any
    other error is Django's 500 as before."""
    error = sys.exception()
    if not isinstance(error, DATABASE_DOWN):
        return django_server_error(request)
    logger.error(
        "Database unreachable, %s %s answered 503: %s",
        request.method,
        request.path,
        database_error_line(error),
    )
    response = render(request, "core/unavailable.html", status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    add_never_cache_headers(response)
    # Django's own mark for a response already logged: its request log would write the
    # error again, with its traceback, and mail it to ADMINS, once for every request.
    response._has_been_logged = True  # type: ignore[attr-defined]
    return response


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
        "bundle": reverse("engine_bundle", args=[digest]),
        "digest": digest,
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
    if "br" not in request.headers.get("Accept-Encoding", ""):
        # Compressed with gzip by the middleware where the browser takes it.
        return HttpResponse(text, content_type=JAVASCRIPT)
    response = HttpResponse(bundle_brotli(), content_type=JAVASCRIPT)
    response["Content-Encoding"] = "br"
    patch_vary_headers(response, ["Accept-Encoding"])
    return response
