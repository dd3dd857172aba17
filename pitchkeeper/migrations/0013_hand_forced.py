# Which players' hands forced a bid of nine (nine-five), as the rules engine records it.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("pitchkeeper", "0012_hand_change_undo"),
    ]

    operations = [
        migrations.AddField(
            model_name="hand",
            name="forced",
            field=models.JSONField(blank=True, default=list, verbose_name="forced to bid"),
        ),
    ]
