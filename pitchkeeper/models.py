"""The facts of a game: who sat where, under which rules, and what each hand was.

Totals, winners and settlements are derived by the rules engine (pitchkeeper.rules);
the few derived columns here (marked) are rewritten by services.game_save on every
change of a game's hands, never edited on their own.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

from pitchkeeper.rules.record import MAX_NAME_LENGTH


def new_token() -> str:
    return secrets.token_urlsafe(32)


class Club(models.Model):
    """A group that plays together: it owns its players, games, seasons and ledger."""

    name = models.CharField(_("name"), max_length=60)
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
    """A link that makes whoever follows it (signed in) a member with ``role``."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    token = models.CharField(max_length=43, unique=True, default=new_token)
    role = models.CharField(_("role"), max_length=12, choices=Role.choices)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created = models.DateTimeField(_("created"), auto_now_add=True)
    revoked = models.BooleanField(_("revoked"), default=False)

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"{self.role} invitation to {self.club}"


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
    name = models.CharField(_("name"), max_length=MAX_NAME_LENGTH)
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


class GameQuerySet(models.QuerySet["Game"]):
    def alive(self) -> GameQuerySet:
        """Games not deleted: the only ones lists, pages and the live link show."""
        return self.filter(deleted_at__isnull=True)

    def deleted(self) -> GameQuerySet:
        """Deleted games, kept to be restored."""
        return self.filter(deleted_at__isnull=False)


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
    share_token = models.CharField(_("share token"), max_length=43, unique=True, default=new_token)
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
    winner_team = models.CharField(_("winning team"), max_length=MAX_NAME_LENGTH, blank=True)
    won_by = models.CharField(_("won by"), max_length=20, blank=True)
    # A deleted game is hidden, not dropped, so that it can be restored.
    deleted_at = models.DateTimeField(_("deleted at"), null=True, blank=True)
    # A practice game is kept and shown, but left out of seasons, ratings and the ledger.
    counts = models.BooleanField(_("counts"), default=True)

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
        ]

    def __str__(self) -> str:
        return _("Game %(number)s (%(preset)s)") % {
            "number": self.pk,
            "preset": self.rules.get("preset", "?"),
        }


class Seat(models.Model):
    """A player's place at a game's table, clockwise from position 0."""

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="seats", verbose_name=_("game")
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="seats", verbose_name=_("player")
    )
    position = models.PositiveSmallIntegerField(_("position"))
    team = models.CharField(_("team"), max_length=MAX_NAME_LENGTH, blank=True)

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
    Player ids (a partner's id stands for the team); counts are ``{"<id>": n}``."""

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
    all_tricks = models.BooleanField(_("took every trick"), default=False)
    # Derived by the engine:
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices, default=Kind.PLAYED)
    dealer = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="hands_dealt", verbose_name=_("dealer")
    )
    made = models.BooleanField(_("made"), null=True, blank=True)
    # Bumped whenever the row is written (edited, or moved by a deletion before it), from
    # one counter per game (services._next_version): an edit made from an older page is
    # refused, not applied.
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


class HandChange(models.Model):
    """One change to a game's hands: who made it, when, and the hand before and after
    (in the game-record format), so that a scorekeeper can read and restore it."""

    class Action(models.TextChoices):
        ADD = "add", _("added")
        EDIT = "edit", _("changed")
        DELETE = "delete", _("deleted")
        RESTORE = "restore", _("restored")

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


# ---- Seasons, statistics, ratings and the chip ledger (pitchkeeper.stats) ----


class Season(models.Model):
    """A named span of days; every finished game that counts falls in the seasons its
    finish date (in TIME_ZONE) is in. No end: the season runs on."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=60)
    start = models.DateField(_("first day"))
    end = models.DateField(_("last day"), null=True, blank=True)
    # Money per chip on this season's ledger; without it, the games' own chip value
    # when all of them agree.
    chip_value = models.DecimalField(
        _("chip value"), max_digits=8, decimal_places=2, null=True, blank=True
    )

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ["-start", "-pk"]
        constraints = [
            models.CheckConstraint(condition=~models.Q(name=""), name="season_name_not_empty"),
            models.CheckConstraint(
                condition=models.Q(end__isnull=True) | models.Q(end__gte=models.F("start")),
                name="season_ends_after_it_starts",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class GameLine(models.Model):
    """Derived: one player's figures from one finished game, written from the engine's
    GameResult by stats.stats_game_saved and never edited on their own. In a team game
    the side's figures (wins, points taken, set backs, chips...) are every member's."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="lines")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="lines")
    side = models.CharField(max_length=MAX_NAME_LENGTH)
    team = models.BooleanField(default=False)
    finished_at = models.DateTimeField()
    # The first day of the finish date's month, the key of the monthly rollups.
    month = models.DateField()
    # The game counts and is not deleted: only these lines are in seasons and rollups.
    counted = models.BooleanField(default=True)
    sides = models.PositiveSmallIntegerField()
    place = models.PositiveSmallIntegerField()
    won = models.BooleanField()
    score = models.IntegerField()
    hands = models.PositiveIntegerField()
    taken = models.PositiveIntegerField()
    pitched = models.PositiveIntegerField()
    bids = models.PositiveIntegerField()
    made = models.PositiveIntegerField()
    set_back = models.PositiveIntegerField()
    in_hole = models.PositiveIntegerField()
    smudges = models.PositiveIntegerField()
    smudges_made = models.PositiveIntegerField()
    revokes = models.PositiveIntegerField()
    chips = models.IntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="gameline_unique"),
        ]
        # The finish time right after the club or player, so that a span is a range
        # of the index (a boolean filter is a test, not an equality SQLite can seek);
        # with the game, so that a player's latest games are read in index order.
        indexes = [
            models.Index(fields=["club", "finished_at", "counted"], name="gameline_club_time"),
            models.Index(
                fields=["player", "finished_at", "game", "counted"], name="gameline_player_time"
            ),
        ]

    def __str__(self) -> str:
        return f"player {self.player_id} in game {self.game_id}"


class GameCount(models.Model):
    """Derived: one player's tally of one kind in one finished game: ``kind`` "cat",
    hands in which the side took category ``key`` (``count``) out of the hands played
    with it (``out_of``); ``kind`` "bid", bids of ``key`` made out of those bid."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    finished_at = models.DateTimeField()
    month = models.DateField()
    counted = models.BooleanField(default=True)
    kind = models.CharField(max_length=3)
    key = models.CharField(max_length=20)
    count = models.PositiveIntegerField()
    out_of = models.PositiveIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["game", "player", "kind", "key"], name="gamecount_unique"
            ),
        ]
        indexes = [
            models.Index(fields=["club", "finished_at"], name="gamecount_club_time"),
            models.Index(fields=["player", "finished_at"], name="gamecount_player_time"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.key} of player {self.player_id} in game {self.game_id}"


class MonthLine(models.Model):
    """Derived rollup: the sums of a player's counted GameLines of one month, kept up to
    date by adding each rewritten game's difference, so that a season of whole months is
    read from a few thousand rows rather than a million."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    month = models.DateField()
    games = models.IntegerField(default=0)
    team_games = models.IntegerField(default=0)
    wins = models.IntegerField(default=0)
    team_wins = models.IntegerField(default=0)
    place_sum = models.IntegerField(default=0)
    hands = models.IntegerField(default=0)
    taken = models.IntegerField(default=0)
    pitched = models.IntegerField(default=0)
    bids = models.IntegerField(default=0)
    made = models.IntegerField(default=0)
    set_back = models.IntegerField(default=0)
    in_hole = models.IntegerField(default=0)
    smudges = models.IntegerField(default=0)
    smudges_made = models.IntegerField(default=0)
    revokes = models.IntegerField(default=0)
    chips = models.IntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "month"], name="monthline_unique"),
        ]
        indexes = [models.Index(fields=["club", "month"], name="monthline_club_month")]

    def __str__(self) -> str:
        return f"player {self.player_id} in {self.month:%Y-%m}"


class MonthCount(models.Model):
    """Derived rollup of GameCount by player, month, kind and key."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    month = models.DateField()
    kind = models.CharField(max_length=3)
    key = models.CharField(max_length=20)
    count = models.IntegerField(default=0)
    out_of = models.IntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["player", "month", "kind", "key"], name="monthcount_unique"
            ),
        ]
        # Covering the leaderboard's sum by player, kind and key: read from the index
        # alone, already in the order it groups by.
        indexes = [
            models.Index(
                fields=["club", "player", "kind", "key", "month", "count", "out_of"],
                name="monthcount_club_sums",
            )
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.key} of player {self.player_id} in {self.month:%Y-%m}"


class RatingPoint(models.Model):
    """Derived: a player's rating (openskill's mu and sigma) after one counted game,
    rated in the order the games finished."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    finished_at = models.DateTimeField()
    mu = models.FloatField()
    sigma = models.FloatField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="ratingpoint_unique"),
        ]
        indexes = [
            models.Index(fields=["club", "finished_at", "game"], name="rating_club_time"),
            models.Index(fields=["player", "finished_at", "game"], name="rating_player_time"),
        ]

    def __str__(self) -> str:
        return f"player {self.player_id} after game {self.game_id}: {self.mu:.1f}±{self.sigma:.1f}"


class Payment(models.Model):
    """Chips one player paid another to settle the ledger; it reduces both balances.
    Recorded on a season's ledger (and always on the all-time one)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="payments")
    season = models.ForeignKey(
        Season,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="payments",
        verbose_name=_("season"),
    )
    payer = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("payer")
    )
    payee = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("payee")
    )
    chips = models.PositiveIntegerField(_("chips"))
    at = models.DateTimeField(_("at"), auto_now_add=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("by"),
    )

    class Meta:
        verbose_name = _("payment")
        verbose_name_plural = _("payments")
        ordering = ["-at", "-pk"]
        constraints = [
            models.CheckConstraint(condition=models.Q(chips__gte=1), name="payment_positive"),
            models.CheckConstraint(
                condition=~models.Q(payer=models.F("payee")), name="payment_two_players"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.payer_id} paid {self.payee_id} {self.chips}"
