# The time zone each club's statistics were built in (seasons.zone).

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def record_today_zone(apps, schema_editor):
    # The statistics that exist were built in the TIME_ZONE of the server that built
    # them, which is taken to be the one it runs with now.
    Club = apps.get_model("pitchkeeper", "Club")
    StatsZone = apps.get_model("pitchkeeper", "StatsZone")
    StatsZone.objects.bulk_create(
        StatsZone(club_id=pk, time_zone=settings.TIME_ZONE)
        for pk in Club.objects.values_list("pk", flat=True)
    )


class Migration(migrations.Migration):

    dependencies = [
        ('pitchkeeper', '0010_invitation_expiry_and_heartbeat'),
    ]

    operations = [
        migrations.CreateModel(
            name='StatsZone',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('time_zone', models.CharField(max_length=64)),
                ('club', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='stats_zone', to='pitchkeeper.club')),
            ],
        ),
        migrations.RunPython(record_today_zone, migrations.RunPython.noop),
    ]
