# Where a club's ratings are still to be re-rated from (seasons.tasks works through it).

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('pitchkeeper', '0013_hand_forced'),
    ]

    operations = [
        migrations.CreateModel(
            name='RatingsDue',
            fields=[
                ('club', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='ratings_due', serialize=False, to='pitchkeeper.club')),
                ('since_at', models.DateTimeField()),
                ('since_game', models.BigIntegerField()),
                ('moved_at', models.DateTimeField(auto_now=True)),
                ('changes', models.PositiveBigIntegerField(default=0)),
            ],
        ),
    ]
