"""A club and who belongs to it: members and their roles, invitations, and the
players of its roster (a player need not have an account)."""

from __future__ import annotations

import secrets
from datetime import datetime

from django.conf import settings
from django.core.validators import RegexValidator
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from pitchkeeper.clubs.names import name_visible
from pitchkeeper.rules.record import MAX_NAME_LENGTH

# An unguessable link's token as secrets.token_urlsafe writes it: what the URLs accept
# (pitchkeeper.urls.TokenConverter) and so what a stored token must be, or the page that
# links to it cannot be drawn.
TOKEN_REGEX = "[A-Za-z0-9_-]{1,64}"
TOKEN_VALIDATORS = [
    RegexValidator(
        rf"\A{TOKEN_REGEX}\Z",
        _("A link's token is letters, digits, - and _ only."),
        code="token",
    )
]


def new_token() -> str:
    return secrets.token_urlsafe(32)


def invitation_expiry() -> datetime:
    """When an invitation made now stops working (settings.INVITATION_TTL from now)."""
    return timezone.now() + settings.INVITATION_TTL


class Club(models.Model):
    """A group that plays together: it owns its players, games, seasons and ledger."""

    name = models.CharField(_("name"), max_length=60, validators=[name_visible])
    created = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        ordering = ["name", "pk"]
        constraints = [
            models.CheckConstraint(condition=~models.Q(name=""), name="club_name_not_empty"),
        ]

    def __str__(self) -> str:
        return self.name


class Role(models.TextChoices):
    OWNER = "owner", _("owner")
    SCOREKEEPER = "scorekeeper", _("scorekeeper")
    VIEWER = "viewer", _("viewer")


class Membership(models.Model):
    """A user's place in a club. Owners manage members and settings; scorekeepers
    record and edit hands; viewers read."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(_("role"), max_length=12, choices=Role.choices)
    joined = models.DateTimeField(_("joined"), auto_now_add=True)

    class Meta:
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        ordering = ["club", "user__username"]
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="membership_unique"),
            models.CheckConstraint(
                condition=models.Q(role__in=Role.values), name="membership_role_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.role}) in {self.club}"

    @property
    def can_score(self) -> bool:
        return self.role in (Role.OWNER, Role.SCOREKEEPER)

    @property
    def is_owner(self) -> bool:
        return self.role == Role.OWNER


class Invitation(models.Model):
    """A link that makes whoever follows it (signed in) a member with ``role``, until it
    expires or is revoked. An owner's link is used up by the first who joins with it."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    token = models.CharField(
        max_length=43, unique=True, default=new_token, validators=TOKEN_VALIDATORS
    )
    role = models.CharField(_("role"), max_length=12, choices=Role.choices)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created = models.DateTimeField(_("created"), auto_now_add=True)
    revoked = models.BooleanField(_("revoked"), default=False)
    expires = models.DateTimeField(_("expires"), default=invitation_expiry)

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"{self.role} invitation to {self.club}"

    @property
    def expired(self) -> bool:
        return timezone.now() >= self.expires


class Player(models.Model):
    """A name on a club's roster, reused from game to game; it may be linked to the
    account of the member who plays under it."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="players")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="players",
        verbose_name=_("account"),
    )
    name = models.CharField(_("name"), max_length=MAX_NAME_LENGTH, validators=[name_visible])
    retired = models.BooleanField(_("retired"), default=False)
    created = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = [Lower("name")]
        constraints = [
            models.UniqueConstraint(
                "club",
                Lower("name"),
                name="player_name_unique_ignoring_case",
                violation_error_message=_("There is already a player of that name."),
            ),
            models.CheckConstraint(condition=~models.Q(name=""), name="player_name_not_empty"),
            models.UniqueConstraint(fields=["club", "user"], name="player_account_once_per_club"),
        ]

    def __str__(self) -> str:
        return self.name
