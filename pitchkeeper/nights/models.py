"""The facts of a club night: who came (and when they came or left), each round's
tables as they were proposed, changed and started, and the game each table played.

The tables are planned by the rules (``rules.nights``); the standing and the payout are
worked out from the night's games, never stored. The payout, once the night is closed,
is the club's ledger's: the payments it recorded are linked to the night."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from pitchkeeper.clubs.models import TOKEN_VALIDATORS, Club, Player, new_token
from pitchkeeper.games.models import Game
from pitchkeeper.rules.nights import Table
from pitchkeeper.seasons.models import Payment


class Night(models.Model):
    class Order(models.TextChoices):
        WINS = "wins", _("Most wins")
        CHIPS = "chips", _("Most chips")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="nights")
    # The ruleset every table plays, as a game keeps it (Ruleset.to_dict()).
    rules = models.JSONField(_("rules"))
    # The rounds planned; none for a night that runs until the players stop.
    rounds = models.PositiveSmallIntegerField(_("rounds"), null=True, blank=True)
    # Cutthroat only: each table's winner moves up a table, its last down one.
    progressive = models.BooleanField(_("winners move up"), default=False)
    order = models.CharField(_("standing by"), max_length=5, choices=Order.choices)
    # Every plan of the night's tables is drawn from this seed, so it can be made again.
    seed = models.BigIntegerField(_("seed"))
    # The rounds planned ahead, from round ``plan_from`` on, as the rules made them
    # (player ids): a round is proposed from here while the players and the rounds played
    # are those the plan was made for, so the plan's promises hold (eight players partner
    # each other once in seven rounds); planned again from the seed when they are not.
    plan = models.JSONField(_("plan"), default=list, blank=True)
    plan_from = models.PositiveSmallIntegerField(_("planned from round"), default=1)
    # The room board's read-only address.
    share_token = models.CharField(
        _("share token"), max_length=43, unique=True, default=new_token, validators=TOKEN_VALIDATORS
    )
    started_at = models.DateTimeField(_("started at"), auto_now_add=True)
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # One more at every change of the night's rounds, tables or players (the services
    # change them with this row locked): the room board's tag reads it.
    revision = models.PositiveIntegerField(_("revision"), default=0)
    # The payout, recorded on the club's ledger when the night was closed.
    payments = models.ManyToManyField(Payment, blank=True, related_name="nights")

    class Meta:
        verbose_name = _("night")
        verbose_name_plural = _("nights")
        ordering = ["-started_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(rounds__isnull=True) | models.Q(rounds__gte=1),
                name="night_rounds_positive",
            ),
            models.CheckConstraint(
                condition=models.Q(order__in=["wins", "chips"]), name="night_order_known"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.started_at:%Y-%m-%d}"


class Attendance(models.Model):
    """A player at a night: from which round they play, and after which they left."""

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="attendance")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    first_round = models.PositiveSmallIntegerField(_("first round"), default=1)
    last_round = models.PositiveSmallIntegerField(_("last round"), null=True, blank=True)

    class Meta:
        verbose_name = _("player at a night")
        verbose_name_plural = _("players at a night")
        constraints = [
            models.UniqueConstraint(fields=["night", "player"], name="attendance_once"),
            models.CheckConstraint(
                condition=models.Q(last_round__isnull=True)
                | models.Q(last_round__gte=models.F("first_round") - 1),
                name="attendance_leaves_after_coming",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} ({self.night})"


class NightRound(models.Model):
    """A round: proposed (its tables may still be changed) until it is started, when
    each table's game is made."""

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="night_rounds")
    number = models.PositiveSmallIntegerField(_("number"))
    # Player ids, in the order the plan chose them.
    sitting_out = models.JSONField(_("sitting out"), default=list, blank=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["night", "number"]
        constraints = [
            models.UniqueConstraint(fields=["night", "number"], name="night_round_once"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="night_round_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.night} #{self.number}"


class NightTable(models.Model):
    """A table of a round: its teams of player ids (one player a team when cutthroat),
    its own link for the table's phone, and its game once the round started."""

    night_round = models.ForeignKey(NightRound, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("number"))
    teams = models.JSONField(_("teams"))
    token = models.CharField(
        max_length=43, unique=True, default=new_token, validators=TOKEN_VALIDATORS
    )
    game = models.OneToOneField(
        Game, on_delete=models.SET_NULL, null=True, blank=True, related_name="night_table"
    )

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["night_round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["night_round", "number"], name="night_table_once"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="night_table_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.night_round} / {self.number}"

    @property
    def seated(self) -> list[int]:
        """The players' ids clockwise from the first seat, partners apart."""
        return [int(pk) for pk in Table(tuple(map(tuple, self.teams))).players]
