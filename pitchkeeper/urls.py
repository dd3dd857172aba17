"""The site's URLs: each domain's own (its urls.py), the accounts, the admin and the
health check. Names are not namespaced: ``reverse("game", ...)`` as before."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth.decorators import login_not_required
from django.urls import include, path, register_converter
from django.views.i18n import set_language

from pitchkeeper.clubs.models import TOKEN_REGEX
from pitchkeeper.core.service_worker import offline_page, service_worker
from pitchkeeper.core.views import engine_bundle, engine_worker, health


class TokenConverter:
    """An unguessable link's token (secrets.token_urlsafe): anything else is not found
    before it reaches the database (PostgreSQL refuses text with a NUL byte in it)."""

    regex = TOKEN_REGEX

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


# Registered before the domains' URLs are included, which use it.
register_converter(TokenConverter, "token")

urlpatterns = [
    path("", include("pitchkeeper.games.urls")),
    path("", include("pitchkeeper.clubs.urls")),
    path("seasons/", include("pitchkeeper.seasons.urls")),
    path("nights/", include("pitchkeeper.nights.urls")),
    path("health/", health, name="health"),
    # At the root, so that the worker may look after every page of the site.
    path("sw.js", service_worker, name="service_worker"),
    path("offline/", offline_page, name="offline"),
    path("engine/worker.js", engine_worker, name="engine_worker"),
    path("engine/rules-<slug:digest>.js", engine_bundle, name="engine_bundle"),
    path("accounts/", include("django.contrib.auth.urls")),
    # The language can be chosen before signing in.
    path("i18n/setlang/", login_not_required(set_language), name="set_language"),
    path("admin/", admin.site.urls),
]

# A database that cannot be reached answers 503 (core.views.server_error).
handler500 = "pitchkeeper.core.views.server_error"
