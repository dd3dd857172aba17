# A game's revision: advanced by every change of its hands, and what a save of a hand is
# checked against. A game stored before starts from the highest version its hands have
# or have had (each change was one HandChange row), so that the versions given from the
# revision on stay above every version a page may still carry.

from django.db import migrations, models
from django.db.models import Count, IntegerField, Max, OuterRef, Subquery, Value
from django.db.models.functions import Coalesce, Greatest


def revision_from_history(apps, schema_editor):
    Game = apps.get_model("pitchkeeper", "Game")
    Hand = apps.get_model("pitchkeeper", "Hand")
    HandChange = apps.get_model("pitchkeeper", "HandChange")
    highest = (
        Hand.objects.filter(game=OuterRef("pk"))
        .values("game")
        .annotate(top=Max("version"))
        .values("top")
    )
    changes = (
        HandChange.objects.filter(game=OuterRef("pk"))
        .values("game")
        .annotate(count=Count("pk"))
        .values("count")
    )
    zero = Value(0, output_field=IntegerField())
    Game.objects.update(
        revision=Greatest(
            Coalesce(Subquery(highest, output_field=IntegerField()), zero),
            Coalesce(Subquery(changes, output_field=IntegerField()), zero),
        )
    )


class Migration(migrations.Migration):

    dependencies = [
        ("pitchkeeper", "0017_steal_up_to"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="revision",
            field=models.PositiveIntegerField(default=0, verbose_name="revision"),
        ),
        migrations.RunPython(revision_from_history, migrations.RunPython.noop),
    ]
