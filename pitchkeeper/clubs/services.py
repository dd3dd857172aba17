"""Clubs and membership: creating a club, invitations, roles, and linking a roster
player to a member's account."""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.core.validators import ProhibitNullCharactersValidator
from django.db import transaction
from django.utils.translation import gettext as _

from pitchkeeper.clubs.models import Club, Invitation, Membership, Player, Role

CLUB_NAME_LENGTH = 60


@transaction.atomic
def club_create(*, name: str, owner: AbstractBaseUser) -> Club:
    """A new club with ``owner`` as its first member."""
    club = Club.objects.create(name=club_name_check(name))
    Membership.objects.create(club=club, user=owner, role=Role.OWNER)
    return club


def club_own(*, owner: AbstractBaseUser) -> Club:
    """A new user's own club, named after them: the first game needs no club step (the
    owner renames it in the club's settings)."""
    name = _("%(name)s's table") % {"name": owner.get_username()}
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
    """``user`` joins the invitation's club; a member already keeps their role."""
    membership, _created = Membership.objects.get_or_create(
        club=invitation.club, user=user, defaults={"role": invitation.role}
    )
    return membership


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
    """``name`` stripped, or a ValidationError saying what is wrong with it."""
    name = name.strip()
    if not name:
        raise ValidationError(_("Give the club a name."), code="required")
    # PostgreSQL refuses text with a NUL byte: that was a 500.
    ProhibitNullCharactersValidator()(name)
    if len(name) > CLUB_NAME_LENGTH:
        raise ValidationError(
            _("A club name can be at most %(limit)d characters long."),
            code="max_length",
            params={"limit": CLUB_NAME_LENGTH},
        )
    return name
