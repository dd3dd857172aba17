"""Clubs and membership: creating a club, invitations, roles, and linking a roster
player to a member's account."""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from pitchkeeper.clubs.models import Club, Invitation, Membership, Player, Role
from pitchkeeper.clubs.names import name_clean, name_unlike
from pitchkeeper.rules.record import normal_name

CLUB_NAME_LENGTH = 60


@transaction.atomic
def club_create(*, name: str, owner: AbstractBaseUser) -> Club:
    """A new club with ``owner`` as its first member. Its name may not be, or look like,
    the name of another of the owner's clubs: the club switcher shows them side by side."""
    name = club_name_check(name)
    name_unlike(
        name,
        Club.objects.filter(memberships__user=owner).values_list("name", flat=True),
        duplicate=_("You already have a club called %(name)s."),
        where=_("one of your clubs"),
    )
    club = Club.objects.create(name=name)
    Membership.objects.create(club=club, user=owner, role=Role.OWNER)
    return club


def club_own(*, owner: AbstractBaseUser) -> Club:
    """A new user's own club, named after them: the first game needs no club step. A
    username the sign-up form takes always makes a good name: it has no hidden
    characters (``name_visible``), and a long one is cut to the longest a club's name may
    be, after normalising, which may change its length."""
    name = normal_name(_("%(name)s's table") % {"name": owner.get_username()})
    return club_create(name=name[:CLUB_NAME_LENGTH], owner=owner)


def _role(role: str) -> str:
    if role not in Role.values:
        raise ValidationError(_("Choose owner, scorekeeper or viewer."), code="invalid")
    return role


def invitation_create(*, club: Club, role: str, by: AbstractBaseUser) -> Invitation:
    """A link that lets whoever follows it join ``club`` as ``role``."""
    return Invitation.objects.create(club=club, role=_role(role), created_by=by)


def invitation_revoke(*, club: Club, pk: int) -> None:
    if not club.invitations.filter(pk=pk).update(revoked=True):
        raise ValidationError(_("There is no such invitation."), code="missing")


@transaction.atomic
def invitation_accept(*, invitation: Invitation, user: AbstractBaseUser) -> Membership:
    """``user`` joins the invitation's club; a member already keeps their role. An
    expired or revoked invitation is refused; an owner's is used up by the one who joins."""
    # Locked, so that two people cannot both take an owner's link at the same moment.
    invitation = Invitation.objects.select_for_update().get(pk=invitation.pk)
    invitation_check(invitation)
    membership, created = Membership.objects.get_or_create(
        club=invitation.club, user=user, defaults={"role": invitation.role}
    )
    if created and invitation.role == Role.OWNER:
        invitation.revoked = True
        invitation.save(update_fields=["revoked"])
    return membership


def invitation_check(invitation: Invitation) -> None:
    """A ValidationError saying why ``invitation`` no longer works, if it does not."""
    if invitation.revoked:
        raise ValidationError(
            _(
                "This invitation has been withdrawn or already used. "
                "Ask the club's owner for a new link."
            ),
            code="revoked",
        )
    if invitation.expired:
        raise ValidationError(
            _("This invitation expired on %(date)s. Ask the club's owner for a new link."),
            code="expired",
            params={"date": date_format(timezone.localtime(invitation.expires), "DATETIME_FORMAT")},
        )


@transaction.atomic
def member_change(*, club: Club, pk: int, role: str | None) -> None:
    """Give member ``pk`` a new role, or remove them (``role`` None). A club always
    keeps an owner."""
    membership = club.memberships.select_for_update().filter(pk=pk).first()
    if membership is None:
        raise ValidationError(_("There is no such member."), code="missing")
    if role is not None:
        membership.role = _role(role)
    owners = club.memberships.filter(role=Role.OWNER).exclude(pk=pk).exists()
    if not owners and (role is None or membership.role != Role.OWNER):
        raise ValidationError(_("A club needs an owner: make someone else owner first."))
    if role is None:
        club.players.filter(user=membership.user).update(user=None)
        membership.delete()
    else:
        membership.save(update_fields=["role"])


def player_link(*, club: Club, player_pk: int, member_pk: int | None) -> Player:
    """Link a roster player to a member's account (or unlink it)."""
    player = club.players.filter(pk=player_pk).first()
    if player is None:
        raise ValidationError(_("There is no such player."), code="missing")
    user = None
    if member_pk is not None:
        membership = club.memberships.filter(pk=member_pk).select_related("user").first()
        if membership is None:
            raise ValidationError(_("There is no such member."), code="missing")
        user = membership.user
        if club.players.filter(user=user).exclude(pk=player.pk).exists():
            raise ValidationError(
                _("%(user)s already plays as another player of this club.") % {"user": user}
            )
    player.user = user
    player.save(update_fields=["user"])
    return player


def club_name_check(name: str) -> str:
    """``name`` normalised (``name_clean``), or a ValidationError saying what is wrong."""
    return name_clean(name, limit=CLUB_NAME_LENGTH, empty=_("Give the club a name."))
