"""Seasons, the rows derived from each finished game for statistics, their monthly
rollups, the rating history and the chip ledger's recorded payments.

Every row here but Season and Payment is derived: written by pitchkeeper.seasons.derive
from the engine's result, never edited on its own."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from pitchkeeper.clubs.models import Club, Player
from pitchkeeper.clubs.names import name_visible
from pitchkeeper.core.limits import DAY_VALIDATORS, FIRST_DAY, LAST_DAY, MOST_CHIPS
from pitchkeeper.games.models import Game
from pitchkeeper.rules.record import MAX_NAME_LENGTH

SEASON_NAME_LENGTH = 60


class Season(models.Model):
    """A named span of days; every finished game that counts falls in the seasons its
    finish date (in TIME_ZONE) is in. No end: the season runs on."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=SEASON_NAME_LENGTH, validators=[name_visible])
    start = models.DateField(_("first day"), validators=DAY_VALIDATORS)
    end = models.DateField(_("last day"), null=True, blank=True, validators=DAY_VALIDATORS)
    # Money per chip on this season's ledger; without it, the games' own chip value
    # when all of them agree.
    chip_value = models.DecimalField(
        _("chip value"),
        max_digits=8,
        decimal_places=2,
        null=True,
        blank=True,
        validators=[MinValueValidator(0)],
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
            models.CheckConstraint(
                condition=models.Q(start__gte=FIRST_DAY, start__lte=LAST_DAY)
                & (models.Q(end__isnull=True) | models.Q(end__lte=LAST_DAY)),
                name="season_days_in_bounds",
            ),
            models.CheckConstraint(
                condition=models.Q(chip_value__isnull=True) | models.Q(chip_value__gte=0),
                name="season_chip_value_not_negative",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class GameLine(models.Model):
    """Derived: one player's figures from one finished game, written from the engine's
    GameResult by seasons.derive.stats_game_saved and never edited on their own. In a team game
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


# The sums a MonthLine keeps, each from the GameLine column of the same name except
# the four counted from flags.
LINE_SUMS = (
    "hands",
    "taken",
    "pitched",
    "bids",
    "made",
    "set_back",
    "in_hole",
    "smudges",
    "smudges_made",
    "revokes",
    "chips",
)


MONTH_FIELDS = ("games", "team_games", "wins", "team_wins", "place_sum", *LINE_SUMS)


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
        # The second covering the leaderboard's sums by player, as MonthCount's does.
        indexes = [
            models.Index(fields=["club", "month"], name="monthline_club_month"),
            models.Index(
                fields=["club", "player", "month", *MONTH_FIELDS],
                name="monthline_club_sums",
            ),
        ]

    def __str__(self) -> str:
        return f"player {self.player_id} in {self.month:%Y-%m}"


class SummedCount(models.Model):
    """GameCounts of one player, kind and key summed (the rollups' common fields)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=3)
    key = models.CharField(max_length=20)
    count = models.IntegerField(default=0)
    out_of = models.IntegerField(default=0)

    class Meta:
        abstract = True


class MonthCount(SummedCount):
    """Derived rollup of GameCount by player, month, kind and key."""

    month = models.DateField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["player", "month", "kind", "key"], name="monthcount_unique"
            ),
        ]
        # Covering a season's sums by player, kind and key: its months read from the
        # index alone (all time is read from TotalCount).
        indexes = [
            models.Index(
                fields=["club", "month", "player", "kind", "key", "count", "out_of"],
                name="monthcount_club_months",
            )
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.key} of player {self.player_id} in {self.month:%Y-%m}"


class TotalCount(SummedCount):
    """Derived rollup: a player's MonthCounts summed over all time, kept up to date as
    they are, so that an all-time page reads a row per player and point or bid rather
    than one per month of them (30,000 at 60,000 games)."""

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "kind", "key"], name="totalcount_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.key} of player {self.player_id}"


class MonthPair(models.Model):
    """Derived rollup: how a player fared with and against each other player in the
    counted games of one month (the player page's head-to-head table), kept up to date
    by adding each rewritten game's difference, as MonthLine is."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    other = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    month = models.DateField()
    games = models.IntegerField(default=0)
    # Games on the same side; won against the other; lost to the other; placed ahead.
    partners = models.IntegerField(default=0)
    wins_against = models.IntegerField(default=0)
    losses_to = models.IntegerField(default=0)
    ahead = models.IntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "other", "month"], name="monthpair_unique"),
        ]
        # Covering the player page's sums by other player: read from the index alone.
        indexes = [
            models.Index(fields=["club", "month"], name="monthpair_club_month"),
            models.Index(
                fields=[
                    "player",
                    "other",
                    "month",
                    "games",
                    "partners",
                    "wins_against",
                    "losses_to",
                    "ahead",
                ],
                name="monthpair_player_sums",
            ),
        ]

    def __str__(self) -> str:
        return f"player {self.player_id} with {self.other_id} in {self.month:%Y-%m}"


class MonthRun(models.Model):
    """Derived: a player's runs of results in the counted games of one month, so that
    their streaks over a span are joined up month by month rather than read game by
    game: the first and last runs (their length, and 1 when they are of wins: integers,
    so that one SQL statement writes them on every database) and the longest of each
    kind. Written again from the month's lines whenever one of them changes."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    month = models.DateField()
    games = models.IntegerField()
    head = models.IntegerField()
    head_won = models.IntegerField()
    tail = models.IntegerField()
    tail_won = models.IntegerField()
    longest_wins = models.IntegerField()
    longest_without = models.IntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "month"], name="monthrun_unique"),
        ]
        indexes = [models.Index(fields=["club", "month"], name="monthrun_club_month")]

    def __str__(self) -> str:
        return f"runs of player {self.player_id} in {self.month:%Y-%m}"


class MonthChipValue(models.Model):
    """Derived: the chip values of a month's counted games (the lowest, the highest, and
    how many games had none), so that a season's ledger tells its money from a row per
    month rather than from every game of the season. Written again from the month's
    games whenever one of them changes."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    month = models.DateField()
    games = models.IntegerField()
    lowest = models.DecimalField(max_digits=8, decimal_places=2, null=True)
    highest = models.DecimalField(max_digits=8, decimal_places=2, null=True)
    no_value = models.IntegerField()  # games without a chip value

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "month"], name="monthchipvalue_unique"),
        ]

    def __str__(self) -> str:
        return f"chip values of club {self.club_id} in {self.month:%Y-%m}"


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


class RatingsDue(models.Model):
    """Derived bookkeeping: the club's ratings are right for every counted game before
    the game (``since_at``, ``since_game``) and still to be re-rated from it on, by
    seasons.tasks in short steps. No row: every rating is up to date. A change to an
    older game moves the mark back; each step moves it on in the same transaction as
    the ratings it wrote, so that a step cut short leaves it where it was."""

    club = models.OneToOneField(
        Club, on_delete=models.CASCADE, primary_key=True, related_name="ratings_due"
    )
    since_at = models.DateTimeField()
    # Not a foreign key: the game a re-rating starts from may have been deleted.
    since_game = models.BigIntegerField()
    # When the mark last moved: a re-rating that stopped moving shows here.
    moved_at = models.DateTimeField(auto_now=True)
    # Changes to the ratings since the mark was set: a step checks it before writing
    # what it rated from an earlier reading.
    changes = models.PositiveBigIntegerField(default=0)

    def __str__(self) -> str:
        return f"ratings of club {self.club_id} due from game {self.since_game}"


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
    chips = models.PositiveIntegerField(_("chips"), validators=[MaxValueValidator(MOST_CHIPS)])
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


class LedgerPlan(models.Model):
    """The payments that settle a ledger (seasons.ledger), kept for the state of its
    books they were searched for, so that every worker and a restarted server read
    them instead of searching again. One row per club and span, replaced when the books
    change; derived, so neither backed up nor rebuilt."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    span = models.CharField(max_length=20)
    # A digest of the balances the plan settles.
    state = models.CharField(max_length=64)
    # (payer id, payee id, chips) each.
    payments = models.JSONField()
    fewest = models.BooleanField()
    # False while a task searches on for a shorter plan than the page found.
    complete = models.BooleanField(default=True)

    class Meta:
        verbose_name = _("plan of payments")
        verbose_name_plural = _("plans of payments")
        constraints = [
            models.UniqueConstraint(fields=["club", "span"], name="ledger_plan_span_unique"),
        ]

    def __str__(self) -> str:
        return f"plan of club {self.club_id}, span {self.span}"


class StatsZone(models.Model):
    """The time zone a club's statistics were built in: every GameLine's ``month`` and
    the monthly rollups follow the finish dates in that zone. A change of TIME_ZONE is
    refused by a system check (seasons.zone) until ``stats_rebuild`` has built them
    again in the new zone and recorded it here."""

    club = models.OneToOneField(Club, on_delete=models.CASCADE, related_name="stats_zone")
    time_zone = models.CharField(max_length=64)

    def __str__(self) -> str:
        return f"statistics of club {self.club_id} in {self.time_zone}"
