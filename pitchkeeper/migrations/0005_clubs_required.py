import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("pitchkeeper", "0004_first_club")]

    operations = [
        migrations.AlterField(
            model_name="game",
            name="club",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="games",
                to="pitchkeeper.club",
            ),
        ),
        migrations.AlterField(
            model_name="player",
            name="club",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="players",
                to="pitchkeeper.club",
            ),
        ),
    ]
