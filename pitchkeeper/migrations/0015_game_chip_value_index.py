# The counted games by chip value, so that the ledger finds the lowest and highest at the
# two ends of an index rather than by reading every game of the span.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('pitchkeeper', '0014_stats_head_to_head_and_runs'),
    ]

    operations = [
        migrations.AddIndex(
            model_name='game',
            index=models.Index(condition=models.Q(('counts', True), ('deleted_at', None), ('finished_at__isnull', False)), fields=['club', 'chip_value', 'finished_at'], name='game_club_chip_value'),
        ),
    ]
