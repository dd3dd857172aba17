# The player page's rollups: how each player fared with and against each other player,
# by month (MonthPair), and each month's runs of results (MonthRun), so that a player
# page reads a row per month rather than every game they played. Both filled from the
# existing per-game lines, as seasons.derive.rollups_rebuild does.

import django.db.models.deletion
from django.db import migrations, models


def fill_pairs(apps, schema_editor):
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

def fill_runs(apps, schema_editor):
    GameLine = apps.get_model("pitchkeeper", "GameLine")
    MonthRun = apps.get_model("pitchkeeper", "MonthRun")
    quote = schema_editor.connection.ops.quote_name
    schema_editor.execute(
        f"""
        INSERT INTO {quote(MonthRun._meta.db_table)} (club_id, player_id, month, games, head,
            head_won, tail, tail_won, longest_wins, longest_without)
        SELECT club_id, player_id, month, MAX(games),
               MAX(CASE WHEN first_n = 1 THEN length ELSE 0 END),
               MAX(CASE WHEN first_n = 1 AND won THEN 1 ELSE 0 END),
               MAX(CASE WHEN last_n = games THEN length ELSE 0 END),
               MAX(CASE WHEN last_n = games AND won THEN 1 ELSE 0 END),
               MAX(CASE WHEN won THEN length ELSE 0 END),
               MAX(CASE WHEN won THEN 0 ELSE length END)
        FROM (
            SELECT club_id, player_id, month, won, COUNT(*) AS length, MIN(n) AS first_n,
                   MAX(n) AS last_n, MAX(MAX(n)) OVER (PARTITION BY player_id, month) AS games
            FROM (
                SELECT club_id, player_id, month, won,
                       ROW_NUMBER() OVER (PARTITION BY player_id, month
                                          ORDER BY finished_at, game_id) AS n,
                       ROW_NUMBER() OVER (PARTITION BY player_id, month
                                          ORDER BY finished_at, game_id)
                       - ROW_NUMBER() OVER (PARTITION BY player_id, month, won
                                            ORDER BY finished_at, game_id) AS run
                FROM {quote(GameLine._meta.db_table)} WHERE counted
            ) seq
            GROUP BY club_id, player_id, month, won, run
        ) runs
        GROUP BY club_id, player_id, month
        """
    )


class Migration(migrations.Migration):

    dependencies = [
        ('pitchkeeper', '0014_ratings_due'),
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
                'indexes': [models.Index(fields=['club', 'month'], name='monthpair_club_month'), models.Index(fields=['player', 'other', 'month', 'games', 'partners', 'wins_against', 'losses_to', 'ahead'], name='monthpair_player_sums')],
                'constraints': [models.UniqueConstraint(fields=('player', 'other', 'month'), name='monthpair_unique')],
            },
        ),
        migrations.CreateModel(
            name='MonthRun',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('month', models.DateField()),
                ('games', models.IntegerField()),
                ('head', models.IntegerField()),
                ('head_won', models.IntegerField()),
                ('tail', models.IntegerField()),
                ('tail_won', models.IntegerField()),
                ('longest_wins', models.IntegerField()),
                ('longest_without', models.IntegerField()),
                ('club', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='pitchkeeper.club')),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='pitchkeeper.player')),
            ],
            options={
                'indexes': [models.Index(fields=['club', 'month'], name='monthrun_club_month')],
                'constraints': [models.UniqueConstraint(fields=('player', 'month'), name='monthrun_unique')],
            },
        ),
        migrations.RunPython(fill_pairs, migrations.RunPython.noop),
        migrations.RunPython(fill_runs, migrations.RunPython.noop),
    ]
