"""Clubs: make one, switch between them, manage members and invitations."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from pitchkeeper.clubs.access import CURRENT_CLUB, club_membership
from pitchkeeper.clubs.models import Invitation, Membership
from pitchkeeper.clubs.services import (
    club_create,
    invitation_check,
    invitation_create,
    invitation_revoke,
    member_change,
    player_link,
)
from pitchkeeper.clubs.services import invitation_accept as accept
from pitchkeeper.core.limits import plain_int


@require_http_methods(["GET", "POST"])
def club_list(request: HttpRequest) -> HttpResponse:
    """The user's clubs; a POST makes a new one with the user as its owner."""
    errors: list[str] = []
    name = ""
    if request.method == "POST":
        name = request.POST.get("name", "")
        try:
            club = club_create(name=name, owner=request.user)
        except ValidationError as error:
            errors = error.messages
        else:
            request.session[CURRENT_CLUB] = club.pk
            messages.success(request, _("%(club)s is ready.") % {"club": club.name})
            return redirect("home")
    memberships = Membership.objects.filter(user=request.user).select_related("club")
    context = {"memberships": memberships, "errors": errors, "name": name}
    return render(request, "clubs/clubs.html", context, status=400 if errors else 200)


@require_POST
def club_switch(request: HttpRequest, pk: int) -> HttpResponse:
    membership = club_membership(request, pk)
    request.session[CURRENT_CLUB] = membership.club_id
    return redirect("home")


@require_http_methods(["GET", "POST"])
def club_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """Members, roles, invitations and which roster player is whose, for the owner."""
    membership = club_membership(request, pk, "own")
    club = membership.club
    status = 200
    if request.method == "POST":
        try:
            _club_action(request, membership)
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
            status = 400
        else:
            return redirect("club", pk=pk)
    context = {
        "club": club,
        "members": club.memberships.select_related("user"),
        "invitations": club.invitations.filter(revoked=False, expires__gt=timezone.now()),
        "players": club.players.select_related("user"),
        "roles": Membership._meta.get_field("role").choices,
    }
    template = "clubs/club.html#members" if request.htmx else "clubs/club.html"
    return render(request, template, context, status=status)


def _club_action(request: HttpRequest, owner: Membership) -> None:
    action = request.POST.get("action")
    club = owner.club
    if action == "invite":
        invitation_create(club=club, role=request.POST.get("role", ""), by=request.user)
    elif action == "revoke":
        invitation_revoke(club=club, pk=_int(request.POST.get("invitation")))
    elif action in ("role", "remove"):
        member_change(
            club=club,
            pk=_int(request.POST.get("member")),
            role=request.POST.get("role", "") if action == "role" else None,
        )
    elif action == "link":
        player_link(
            club=club,
            player_pk=_int(request.POST.get("player")),
            member_pk=_int(request.POST.get("member")) if request.POST.get("member") else None,
        )
    else:
        raise ValidationError(_("Unknown action."))


def _int(value: str | None) -> int:
    try:
        return plain_int(value or "")
    except ValueError:
        raise Http404 from None


@require_http_methods(["GET", "POST"])
def invitation_accept(request: HttpRequest, token: str) -> HttpResponse:
    """Join a club by its invitation link (after signing in or up); the page says which
    club and with what role. A revoked, used-up or expired link says so (410 Gone)."""
    invitation = Invitation.objects.filter(token=token).select_related("club").first()
    if invitation is None:
        raise Http404
    try:
        if request.method == "POST":
            membership = accept(invitation=invitation, user=request.user)
            request.session[CURRENT_CLUB] = membership.club_id
            messages.success(request, _("Welcome to %(club)s.") % {"club": membership.club.name})
            return redirect("home")
        invitation_check(invitation)
    except ValidationError as error:
        context = {"invitation": invitation, "errors": error.messages}
        return render(request, "clubs/invitation.html", context, status=410)
    return render(request, "clubs/invitation.html", {"invitation": invitation})
