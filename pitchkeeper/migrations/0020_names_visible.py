# Every name field refuses invisible and control characters in a model's full_clean, as
# the forms do (clubs.names.name_visible). A validator only: nothing in the database
# changes.

import pitchkeeper.clubs.names
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("pitchkeeper", "0019_token_format"),
    ]

    operations = [
        migrations.AlterField(
            model_name="club",
            name="name",
            field=models.CharField(
                max_length=60,
                validators=[pitchkeeper.clubs.names.name_visible],
                verbose_name="name",
            ),
        ),
        migrations.AlterField(
            model_name="game",
            name="winner_team",
            field=models.CharField(
                blank=True,
                max_length=40,
                validators=[pitchkeeper.clubs.names.name_visible],
                verbose_name="winning team",
            ),
        ),
        migrations.AlterField(
            model_name="player",
            name="name",
            field=models.CharField(
                max_length=40,
                validators=[pitchkeeper.clubs.names.name_visible],
                verbose_name="name",
            ),
        ),
        migrations.AlterField(
            model_name="season",
            name="name",
            field=models.CharField(
                max_length=60,
                validators=[pitchkeeper.clubs.names.name_visible],
                verbose_name="name",
            ),
        ),
        migrations.AlterField(
            model_name="seat",
            name="team",
            field=models.CharField(
                blank=True,
                max_length=40,
                validators=[pitchkeeper.clubs.names.name_visible],
                verbose_name="team",
            ),
        ),
    ]
