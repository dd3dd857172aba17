"""The facts of a game: who sat where, under which rules, and what each hand was.

Totals, winners and settlements are derived by the rules engine (pitchkeeper.rules);
the few derived columns here (marked) are rewritten by services.game_save on every
change of a game's hands, never edited on their own.
"""

from __future__ import annotations

import secrets

from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

from pitchkeeper.rules.record import MAX_NAME_LENGTH


class Player(models.Model):
    """A name on the roster, reused from game to game."""

    name = models.CharField(_("name"), max_length=MAX_NAME_LENGTH)
    retired = models.BooleanField(_("retired"), default=False)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = [Lower("name")]
        constraints = [
            models.UniqueConstraint(
                Lower("name"),
                name="player_name_unique_ignoring_case",
                violation_error_message=_("There is already a player of that name."),
            ),
            models.CheckConstraint(condition=~models.Q(name=""), name="player_name_not_empty"),
        ]

    def __str__(self) -> str:
        return self.name


def new_share_token() -> str:
    return secrets.token_urlsafe(32)


class Game(models.Model):
    # The fully resolved ruleset (Ruleset.to_dict()), so later changes of a preset
    # never rewrite an old game.
    rules = models.JSONField()
    first_dealer = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    created = models.DateTimeField(auto_now_add=True)
    # Changes on every save, so a live scoreboard can answer "not modified" cheaply.
    updated = models.DateTimeField(auto_now=True)
    # Money per chip, shown beside the settlement when set.
    chip_value = models.DecimalField(
        _("chip value"), max_digits=8, decimal_places=2, null=True, blank=True
    )
    # The read-only live scoreboard's unguessable address.
    share_token = models.CharField(max_length=43, unique=True, default=new_share_token)
    # Derived by the engine:
    finished_at = models.DateTimeField(null=True, blank=True)
    winner = models.ForeignKey(
        Player, on_delete=models.PROTECT, null=True, blank=True, related_name="games_won"
    )
    winner_team = models.CharField(max_length=MAX_NAME_LENGTH, blank=True)
    won_by = models.CharField(max_length=20, blank=True)

    class Meta:
        ordering = ["-created", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(finished_at__isnull=True) | ~models.Q(won_by=""),
                name="game_finished_has_won_by",
            ),
        ]

    def __str__(self) -> str:
        return f"Game {self.pk} ({self.rules.get('preset', '?')})"


class Seat(models.Model):
    """A player's place at a game's table, clockwise from position 0."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField()
    team = models.CharField(max_length=MAX_NAME_LENGTH, blank=True)

    class Meta:
        ordering = ["game", "position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="seat_position_unique"),
            models.UniqueConstraint(fields=["game", "player"], name="seat_player_unique"),
            models.CheckConstraint(condition=models.Q(position__lt=7), name="seat_at_most_7"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in seat {self.position + 1}"


class Hand(models.Model):
    """One hand as recorded. Players in ``auction``, ``points`` and ``revoked`` are
    Player ids (a partner's id stands for the team); counts are ``{"<id>": n}``."""

    class Kind(models.TextChoices):
        PLAYED = "played", _("played")
        MISDEAL = "misdeal", _("misdeal")
        REDEAL = "redeal", _("all passed")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveIntegerField()
    misdeal = models.BooleanField(default=False)
    pitcher = models.ForeignKey(
        Player, on_delete=models.PROTECT, null=True, blank=True, related_name="hands_pitched"
    )
    bid = models.PositiveSmallIntegerField(null=True, blank=True)
    auction = models.JSONField(null=True, blank=True)
    points = models.JSONField(default=dict, blank=True)
    revoked = models.JSONField(default=list, blank=True)
    all_tricks = models.BooleanField(default=False)
    # Derived by the engine:
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.PLAYED)
    dealer = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="hands_dealt")
    made = models.BooleanField(null=True, blank=True)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="hand_number_unique"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="hand_number_from_1"),
            models.CheckConstraint(
                condition=models.Q(kind__in=["played", "misdeal", "redeal"]),
                name="hand_kind_valid",
            ),
            models.CheckConstraint(
                condition=models.Q(misdeal=False) | models.Q(kind="misdeal"),
                name="hand_misdeal_kind",
            ),
        ]

    def __str__(self) -> str:
        return f"Hand {self.number} of game {self.game_id}"
