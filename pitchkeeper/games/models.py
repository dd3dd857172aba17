"""The facts of a game: who sat where, under which rules, and what each hand was.

Totals, winners and settlements are derived by the rules engine (pitchkeeper.rules);
the few derived columns here (marked) are rewritten by games.hands on every change of
a game's hands, never edited on their own."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.utils.translation import gettext_lazy as _

from pitchkeeper.clubs.models import TOKEN_VALIDATORS, Club, Player, new_token
from pitchkeeper.clubs.names import name_visible
from pitchkeeper.games.signals import game_erasing, games_updated
from pitchkeeper.games.words import refusal_text
from pitchkeeper.rules import RuleError
from pitchkeeper.rules.record import MAX_NAME_LENGTH, parse_hand

# What the statistics are derived from besides the hands: the services that change one
# tell them (games.signals), so a plain ``update`` of one is refused.
COUNTED_FIELDS = frozenset(
    {"club", "rules", "first_dealer", "finished_at", "winner", "winner_team", "won_by"}
    | {"deleted_at", "counts", "chip_value"}
)


class CountedFieldError(Exception):
    """An ``update`` of games' COUNTED_FIELDS, which would leave the statistics behind."""


class GameQuerySet(models.QuerySet["Game"]):
    def alive(self) -> GameQuerySet:
        """Games not deleted: the only ones lists, pages and the live link show."""
        return self.filter(deleted_at__isnull=True)

    def deleted(self) -> GameQuerySet:
        """Deleted games, kept to be restored."""
        return self.filter(deleted_at__isnull=False)

    def update(self, **fields: Any) -> int:
        """An update of the games, refused (CountedFieldError) when it sets what counts:
        the game services change that, or ``update_counted``. ``bulk_update`` comes
        through here too."""
        counted = sorted(
            {self.model._meta.get_field(name).name for name in fields} & COUNTED_FIELDS
        )
        if counted:
            raise CountedFieldError(
                f"update() of {', '.join(counted)} would leave the statistics behind: "
                "use the game services, or update_counted()"
            )
        return super().update(**fields)

    update.alters_data = True  # type: ignore[attr-defined]

    @transaction.atomic
    def update_counted(self, **fields: Any) -> int:
        """An update of the games that may set what counts (a repair, a test's fixture):
        their statistics are brought up to date in the same transaction, through
        ``games_updated``."""
        pks = list(self.values_list("pk", flat=True))
        updated = super().update(**fields)
        games_updated.send(Game, pks=pks)
        return updated

    update_counted.alters_data = True  # type: ignore[attr-defined]

    @transaction.atomic
    def delete(self) -> tuple[int, dict[str, int]]:
        """The games deleted for good, each announced first through ``game_erasing``."""
        for game in self:
            game_erasing.send(Game, game=game)
        return super().delete()

    # As QuerySet.delete: no ``Game.objects.delete()`` that would take every game.
    delete.alters_data = True  # type: ignore[attr-defined]
    delete.queryset_only = True  # type: ignore[attr-defined]


class Game(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="games")
    # The fully resolved ruleset (Ruleset.to_dict()), so later changes of a preset
    # never rewrite an old game.
    rules = models.JSONField(_("rules"))
    first_dealer = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("first dealer")
    )
    created = models.DateTimeField(_("created"), auto_now_add=True)
    # Changes on every save, so a live scoreboard can answer "not modified" cheaply.
    updated = models.DateTimeField(_("updated"), auto_now=True)
    # Money per chip, shown beside the settlement when set.
    chip_value = models.DecimalField(
        _("chip value"), max_digits=8, decimal_places=2, null=True, blank=True
    )
    # The read-only live scoreboard's unguessable address.
    share_token = models.CharField(
        _("share token"),
        max_length=43,
        unique=True,
        default=new_token,
        validators=TOKEN_VALIDATORS,
    )
    # Derived by the engine:
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    winner = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="games_won",
        verbose_name=_("winner"),
    )
    winner_team = models.CharField(
        _("winning team"), max_length=MAX_NAME_LENGTH, blank=True, validators=[name_visible]
    )
    won_by = models.CharField(_("won by"), max_length=20, blank=True)
    # A deleted game is hidden, not dropped, so that it can be restored.
    deleted_at = models.DateTimeField(_("deleted at"), null=True, blank=True)
    # A practice game is kept and shown, but left out of seasons, ratings and the ledger.
    counts = models.BooleanField(_("counts"), default=True)
    # Advanced by every change of the game's hands, in its transaction, and given to the
    # hands it writes as their version (games.hands.game_save): a hand is saved only
    # against the revision its page was made from, so that it is never recorded under a
    # deal that moved meanwhile.
    revision = models.PositiveIntegerField(_("revision"), default=0)
    # The scores as the engine left them at the last save, for the home screen, which
    # lists games without replaying them (games.replay.standing_of: each side's score in
    # seat order, a player's id or a team's name, and the id of the next hand's dealer).
    standing = models.JSONField(_("standing"), null=True, blank=True)

    # Every query sees deleted games too (admin, exports, the stats): a screen for the
    # players asks for ``alive()`` ones.
    objects = GameQuerySet.as_manager()

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["-created", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(finished_at__isnull=True) | ~models.Q(won_by=""),
                name="game_finished_has_won_by",
            ),
        ]
        # A season's games (statistics, exports, the ledger's chip value) read from the
        # index alone.
        indexes = [
            models.Index(
                fields=["club", "finished_at", "counts", "deleted_at", "chip_value"],
                name="game_club_finished",
            ),
            # The home screen's lists, newest first, read in order from an index instead
            # of sorting every game of the club: all games (the finished ones, the last
            # one), and the few in progress apart, however old they are.
            models.Index(
                fields=["club", "-created", "-id"],
                name="game_club_created",
                condition=models.Q(deleted_at=None),
            ),
            models.Index(
                fields=["club", "-created", "-id"],
                name="game_club_playing",
                condition=models.Q(deleted_at=None, finished_at=None),
            ),
        ]

    def __str__(self) -> str:
        return _("Game %(number)s (%(preset)s)") % {
            "number": self.pk,
            "preset": self.rules.get("preset", "?"),
        }

    @transaction.atomic
    def delete(self, using: Any = None, keep_parents: bool = False) -> tuple[int, dict[str, int]]:
        """The game deleted for good, with its seats, hands and history, announced first
        through ``game_erasing`` (deleting it on the game's screen only hides it:
        games.services.game_delete)."""
        game_erasing.send(Game, game=self)
        return super().delete(using=using, keep_parents=keep_parents)


class Seat(models.Model):
    """A player's place at a game's table, clockwise from position 0."""

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="seats", verbose_name=_("game")
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="seats", verbose_name=_("player")
    )
    position = models.PositiveSmallIntegerField(_("position"))
    team = models.CharField(
        _("team"), max_length=MAX_NAME_LENGTH, blank=True, validators=[name_visible]
    )

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["game", "position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="seat_position_unique"),
            models.UniqueConstraint(fields=["game", "player"], name="seat_player_unique"),
            models.CheckConstraint(condition=models.Q(position__lt=7), name="seat_at_most_7"),
        ]

    def __str__(self) -> str:
        return _("%(player)s in seat %(seat)d") % {"player": self.player, "seat": self.position + 1}


class Hand(models.Model):
    """One hand as recorded. Players in ``auction``, ``points`` and ``revoked`` are
    Player ids (a partner's id stands for the team); counts are ``{"<id>": n}``.
    ``forced`` lists the Player ids whose hands forced a bid (``Ruleset.forced_bid``)."""

    class Kind(models.TextChoices):
        PLAYED = "played", _("played")
        MISDEAL = "misdeal", _("misdeal")
        REDEAL = "redeal", _("all passed")

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="hands", verbose_name=_("game")
    )
    number = models.PositiveIntegerField(_("number"))
    misdeal = models.BooleanField(_("misdeal"), default=False)
    pitcher = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="hands_pitched",
        verbose_name=_("pitcher"),
    )
    # A whole number, or a word bid of the variant ("6x2", "moon"): JSON keeps them apart.
    bid = models.JSONField(_("bid"), null=True, blank=True)
    # The partner the pitcher called for this hand, in variants that call one.
    partner = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="hands_partnered",
        verbose_name=_("called partner"),
    )
    auction = models.JSONField(_("auction"), null=True, blank=True)
    points = models.JSONField(_("points"), default=dict, blank=True)
    revoked = models.JSONField(_("revoked"), default=list, blank=True)
    forced = models.JSONField(_("forced to bid"), default=list, blank=True)
    all_tricks = models.BooleanField(_("took every trick"), default=False)
    # Derived by the engine:
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices, default=Kind.PLAYED)
    dealer = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="hands_dealt", verbose_name=_("dealer")
    )
    made = models.BooleanField(_("made"), null=True, blank=True)
    # Bumped whenever the row is written (edited, moved by a deletion before it, or given
    # another dealer by a change before it), from the game's revision
    # (games.hands._next_version): an edit made from an older page is refused, not applied.
    version = models.PositiveIntegerField(_("version"), default=1)
    # The entry form's one-time token: a double tap or a resent form records once.
    # NULL, not "", for hands without one, so that the unique constraint ignores them.
    token = models.CharField(max_length=43, null=True, blank=True)  # noqa: DJ001

    class Meta:
        verbose_name = _("hand")
        verbose_name_plural = _("hands")
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="hand_number_unique"),
            models.UniqueConstraint(fields=["game", "token"], name="hand_token_unique"),
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
        return _("Hand %(number)d of game %(game)s") % {
            "number": self.number,
            "game": self.game_id,
        }


class GameReplay(models.Model):
    """What the engine made of a game in progress, as the save that gave the game its
    revision kept it (games.replay), so that every worker and a restarted server read
    it instead of replaying every hand. Derived: neither backed up nor rebuilt; a row
    is read only at the revision, the time of the write and the engine it was made at,
    and a finished game has none."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, primary_key=True, related_name="+")
    revision = models.PositiveIntegerField()
    updated = models.DateTimeField()
    # The digest of the engine's code and of what kept it (games.replay.ENGINE).
    engine = models.CharField(max_length=16)
    # A games.replay.Kept, pickled, as Django's own cache keeps values.
    data = models.BinaryField()

    class Meta:
        verbose_name = _("kept replay")
        verbose_name_plural = _("kept replays")

    def __str__(self) -> str:
        return f"replay of game {self.game_id} at revision {self.revision}"


class HandChange(models.Model):
    """One change to a game's hands: who made it, when, and the hand before and after
    (in the game-record format), so that a scorekeeper can read and restore it."""

    class Action(models.TextChoices):
        ADD = "add", _("added")
        EDIT = "edit", _("changed")
        DELETE = "delete", _("deleted")
        RESTORE = "restore", _("restored")
        # The last hand taken back with Undo: it waits to be redone, not deleted for good.
        UNDO = "undo", _("undone")

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="changes", verbose_name=_("game")
    )
    number = models.PositiveIntegerField(_("hand number"))
    action = models.CharField(_("action"), max_length=10, choices=Action.choices)
    before = models.JSONField(_("before"), null=True, blank=True)
    after = models.JSONField(_("after"), null=True, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("by"),
    )
    at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        verbose_name = _("hand change")
        verbose_name_plural = _("hand changes")
        ordering = ["game", "-at", "-pk"]

    def __str__(self) -> str:
        return f"{self.action} hand {self.number} of game {self.game_id}"

    def clean(self) -> None:
        """``before`` and ``after`` are each a hand as the game record writes it, or
        null: the history screen words them without replaying the game. In ``clean``
        rather than as field validators, which Django skips for "" and [] in a field
        that may be blank."""
        errors = {}
        for name in ("before", "after"):
            problem = hand_data_problem(getattr(self, name))
            if problem is not None:
                errors[name] = ValidationError(
                    _("Not a hand as a game record writes it: %(problem)s"),
                    code="hand",
                    params={"problem": problem},
                )
        if errors:
            raise ValidationError(errors)


def hand_data_problem(data: Any) -> str | None:
    """What keeps ``data`` from being a hand of the game-record format (or null), if
    anything: its fields (rules.record.parse_hand), and who took each category, a name,
    nobody, or a count for each side."""
    if data is None:
        return None
    try:
        hand = parse_hand(data)
    except RuleError as error:
        return refusal_text(error, numbered=True)
    for key, taken in hand.points.items():
        counts = isinstance(taken, Mapping) and all(
            isinstance(side, str) and type(count) is int for side, count in taken.items()
        )
        if not (taken is None or isinstance(taken, str) or counts):
            return _(
                '"points": "%(key)s" must be a name, null, or a whole number for each side'
            ) % {"key": key}
    return None
