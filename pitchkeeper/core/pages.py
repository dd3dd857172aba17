"""What every domain's views share about answering htmx: whether to send a page's part
only, and the read-only boards that are polled (the live scoreboard, the room board)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest
from django.views.decorators.cache import cache_control
from django.views.decorators.http import condition, require_safe
from django.views.decorators.vary import vary_on_headers

View = Callable[..., Any]


def is_partial(request: HttpRequest) -> bool:
    """Whether to answer with the page's part only: htmx asked, and not to restore a
    page from its history (which needs all of it)."""
    return bool(request.htmx) and not request.htmx.history_restore_request  # type: ignore[attr-defined]


def polled(etag: Callable[..., str | None]) -> Callable[[View], View]:
    """A board polled every few seconds: answered 304 Not Modified while ``etag`` (of
    the view's arguments, None for a board not found) is what the browser has. No-cache,
    so browsers revalidate every poll; private, as the page carries a CSRF token; the
    page and its part vary by the htmx headers."""

    def decorate(view: View) -> View:
        revalidated = condition(etag_func=etag)(view)
        varied = vary_on_headers("HX-Request", "HX-History-Restore-Request")(revalidated)
        return require_safe(cache_control(no_cache=True, private=True)(varied))

    return decorate
