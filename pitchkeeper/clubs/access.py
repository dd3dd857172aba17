"""Who may see and change what.

Everything belongs to a club and a user reaches it only through a membership of that
club; anything else is answered 404, whatever id is put in a URL or a form, so that
nothing even tells that it exists. Lists and new things use the current club, chosen
in the header and kept in the session.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, Literal, TypeVar

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect

from pitchkeeper.clubs.models import Membership, Player, Role

Need = Literal["read", "score", "own"]
CURRENT_CLUB = "club"
View = TypeVar("View", bound=Callable[..., HttpResponse])

ROLES_FOR: dict[Need, tuple[str, ...]] = {
    "read": tuple(Role.values),
    "score": (Role.OWNER, Role.SCOREKEEPER),
    "own": (Role.OWNER,),
}


def role_allows(role: str, need: Need) -> None:
    """Refused (403) unless ``role`` may do what ``need`` names."""
    if role not in ROLES_FOR[need]:
        raise PermissionDenied


def current_membership(request: HttpRequest) -> Membership | None:
    """The membership of the club chosen in this session, else the first one."""
    memberships = list(Membership.objects.filter(user=request.user).select_related("club"))
    chosen = request.session.get(CURRENT_CLUB)
    return next((m for m in memberships if m.club_id == chosen), None) or next(
        iter(memberships), None
    )


def club_view(need: Need = "read", write: Need = "score") -> Callable[[View], View]:
    """For pages of the current club: reading needs ``need``, posting ``write``.
    ``request.membership`` is set, and a user without a club is sent to make or join
    one."""

    def decorate(view: View) -> View:
        @wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            membership = current_membership(request)
            if membership is None:
                return redirect("clubs")
            role_allows(membership.role, need if request.method in ("GET", "HEAD") else write)
            request.membership = membership  # type: ignore[attr-defined]
            return view(request, *args, **kwargs)

        return wrapped  # type: ignore[return-value]

    return decorate


def club_player(request: HttpRequest, pk: int) -> Player:
    """A player of the current club (``request.membership``)."""
    player = Player.objects.filter(pk=pk, club=request.membership.club).first()  # type: ignore[attr-defined]
    if player is None:
        raise Http404
    return player


def club_membership(request: HttpRequest, club_pk: int, need: Need = "read") -> Membership:
    """The user's membership of club ``club_pk``: 404 when there is none."""
    membership = (
        # club__pk, not club_id: an id beyond SQLite's integers is then simply not found.
        Membership.objects.filter(club__pk=club_pk, user=request.user)
        .select_related("club")
        .first()
    )
    if membership is None:
        raise Http404
    role_allows(membership.role, need)
    return membership
