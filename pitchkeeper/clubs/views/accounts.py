"""Sign-up. Sign-in, sign-out and the password pages are Django's own views
(django.contrib.auth.urls) with the templates in templates/registration/."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import REDIRECT_FIELD_NAME, login
from django.contrib.auth.decorators import login_not_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods

from pitchkeeper.clubs.forms import SignupForm


@login_not_required
@sensitive_post_parameters("password1", "password2")
@never_cache
@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Make an account and sign in with it, then go on to ``next`` (an invitation link,
    say) or to the clubs page, where a new user makes or joins a club."""
    if request.user.is_authenticated:
        return redirect("home")
    next_url = _next_url(request)
    if request.method == "GET":
        return _page(request, SignupForm(), next_url)
    form = SignupForm(request.POST)
    if not form.is_valid():
        return _page(request, form, next_url, status=400)
    user = form.save()
    # Named, because django-axes' backend comes first and only counts attempts; the
    # password was just set, so there is nothing to check again.
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    messages.success(
        request, _("Welcome, %(name)s: your account is ready.") % {"name": user.get_username()}
    )
    return redirect(next_url or reverse("clubs"))


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
