# A game's standing, stored at every save for the home screen, which then replays no
# game, and the indexes its lists are read from, newest first: the games in progress stored before it are replayed once here (the finished ones
# are not listed with scores). And the plans of payments kept in the database for every
# worker to read (seasons.ledger).

import django.db.models.deletion
from django.db import migrations, models
from django.db.models import Prefetch

from pitchkeeper.games.replay import standing_replayed


def standing_of_games_in_progress(apps, schema_editor):
    Game = apps.get_model("pitchkeeper", "Game")
    Seat = apps.get_model("pitchkeeper", "Seat")
    Hand = apps.get_model("pitchkeeper", "Hand")
    games = Game.objects.filter(finished_at=None).prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position")),
        Prefetch("hands", queryset=Hand.objects.order_by("number")),
    )
    for game in games.iterator(chunk_size=200):
        try:
            game.standing = standing_replayed(
                game=game, seats=list(game.seats.all()), hands=list(game.hands.all())
            )
        except (KeyError, ValueError):  # ValueError: the engine's RuleError too
            # A game the engine cannot read (its first dealer not seated) is listed
            # without scores, as it was shown nowhere with any.
            continue
        game.save(update_fields=["standing"])


class Migration(migrations.Migration):
    dependencies = [
        ("pitchkeeper", "0021_worker_beat"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="standing",
            field=models.JSONField(blank=True, null=True, verbose_name="standing"),
        ),
        migrations.RunPython(standing_of_games_in_progress, migrations.RunPython.noop),
        migrations.AddIndex(
            model_name="game",
            index=models.Index(
                condition=models.Q(("deleted_at", None)),
                fields=["club", "-created", "-id"],
                name="game_club_created",
            ),
        ),
        migrations.AddIndex(
            model_name="game",
            index=models.Index(
                condition=models.Q(("deleted_at", None), ("finished_at", None)),
                fields=["club", "-created", "-id"],
                name="game_club_playing",
            ),
        ),
        migrations.CreateModel(
            name="LedgerPlan",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("span", models.CharField(max_length=20)),
                ("state", models.CharField(max_length=64)),
                ("payments", models.JSONField()),
                ("fewest", models.BooleanField()),
                (
                    "club",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="pitchkeeper.club",
                    ),
                ),
            ],
            options={
                "verbose_name": "plan of payments",
                "verbose_name_plural": "plans of payments",
                "constraints": [
                    models.UniqueConstraint(fields=("club", "span"), name="ledger_plan_span_unique")
                ],
            },
        ),
    ]
