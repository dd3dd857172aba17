"""Sign-up. Sign-in, sign-out and the password pages are Django's own views
(django.contrib.auth.urls) with the templates in templates/registration/."""

from __future__ import annotations

from urllib.parse import urlsplit

from django.contrib import messages
from django.contrib.auth import REDIRECT_FIELD_NAME, get_user_model, login
from django.contrib.auth.decorators import login_not_required
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import Resolver404, resolve
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods

from pitchkeeper.clubs.access import CURRENT_CLUB
from pitchkeeper.clubs.forms import SignupForm
from pitchkeeper.clubs.services import club_own

User = get_user_model()


@login_not_required
@sensitive_post_parameters("password1", "password2")
@never_cache
@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Make an account and sign in with it, then go on to ``next`` (an invitation link,
    say), or make the user's own club and go straight to a new game."""
    if request.user.is_authenticated:
        return redirect("home")
    next_url = _next_url(request)
    if request.method == "GET":
        return _page(request, SignupForm(), next_url)
    form = SignupForm(request.POST)
    if not form.is_valid():
        return _page(request, form, next_url, status=400)
    try:
        with transaction.atomic():
            user = form.save()
            # Following an invitation, the user joins that club; else they get their own.
            club = None if _view_name(next_url) == "invitation" else club_own(owner=user)
    except IntegrityError:
        # Somebody took the username since the form was checked.
        form.add_error("username", form.instance.unique_error_message(User, ["username"]))
        return _page(request, form, next_url, status=400)
    # Named, because django-axes' backend comes first and only counts attempts; the
    # password was just set, so there is nothing to check again.
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    messages.success(
        request, _("Welcome, %(name)s: your account is ready.") % {"name": user.get_username()}
    )
    if club is None:
        return redirect(next_url)
    request.session[CURRENT_CLUB] = club.pk
    # A first visit is sent to sign in from the home page, which has nothing to show
    # yet: a first game has.
    if _view_name(next_url) in (None, "home"):
        return redirect("game_new")
    return redirect(next_url)


def _view_name(url: str) -> str | None:
    """The name of the view ``url`` (a path on this site) leads to, if any."""
    try:
        return resolve(urlsplit(url).path).url_name if url else None
    except Resolver404:
        return None


def _next_url(request: HttpRequest) -> str:
    """``next`` from the form or the query string, if it stays on this site."""
    url = request.POST.get(REDIRECT_FIELD_NAME) or request.GET.get(REDIRECT_FIELD_NAME, "")
    safe = url_has_allowed_host_and_scheme(
        url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return url if safe else ""


def _page(
    request: HttpRequest, form: SignupForm, next_url: str, *, status: int = 200
) -> HttpResponse:
    context = {"form": form, "next": next_url}
    return render(request, "registration/signup.html", context, status=status)
