# The head-to-head rollup: how each player fared with and against each other player, by
# month, so that a player page reads a few thousand rows rather than every game they
# played. Filled from the existing per-game lines, as seasons.derive.rollups_rebuild does.

import django.db.models.deletion
from django.db import migrations, models


def fill(apps, schema_editor):
    GameLine = apps.get_model("pitchkeeper", "GameLine")
    MonthPair = apps.get_model("pitchkeeper", "MonthPair")
    quote = schema_editor.connection.ops.quote_name
    line = quote(GameLine._meta.db_table)
    schema_editor.execute(
        f"""
        INSERT INTO {quote(MonthPair._meta.db_table)} (club_id, player_id, other_id, month,
            games, partners, wins_against, losses_to, ahead)
        SELECT m.club_id, m.player_id, o.player_id, m.month, COUNT(*),
               SUM(CASE WHEN m.side = o.side THEN 1 ELSE 0 END),
               SUM(CASE WHEN m.won AND m.side <> o.side THEN 1 ELSE 0 END),
               SUM(CASE WHEN o.won AND m.side <> o.side THEN 1 ELSE 0 END),
               SUM(CASE WHEN o.place > m.place THEN 1 ELSE 0 END)
        FROM {line} m JOIN {line} o ON o.game_id = m.game_id AND o.player_id <> m.player_id
        WHERE m.counted AND o.counted
        GROUP BY m.club_id, m.player_id, o.player_id, m.month
        """
    )


class Migration(migrations.Migration):

    dependencies = [
        ('pitchkeeper', '0013_hand_forced'),
    ]

    operations = [
        migrations.CreateModel(
            name='MonthPair',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('month', models.DateField()),
                ('games', models.IntegerField(default=0)),
                ('partners', models.IntegerField(default=0)),
                ('wins_against', models.IntegerField(default=0)),
                ('losses_to', models.IntegerField(default=0)),
                ('ahead', models.IntegerField(default=0)),
                ('club', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='pitchkeeper.club')),
                ('other', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='pitchkeeper.player')),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='pitchkeeper.player')),
            ],
            options={
                'indexes': [models.Index(fields=['club', 'month'], name='monthpair_club_month')],
                'constraints': [models.UniqueConstraint(fields=('player', 'other', 'month'), name='monthpair_unique')],
            },
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
