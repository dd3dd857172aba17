# Indexes that keep the statistics pages' reads flat as a club's history grows: the
# counted games by chip value, so that the ledger finds the lowest and highest at the
# two ends of an index rather than by reading every game of the span; and the monthly
# sums covered by player, so that all time is summed from the index alone.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('pitchkeeper', '0015_stats_head_to_head_and_runs'),
    ]

    operations = [
        migrations.AddIndex(
            model_name='game',
            index=models.Index(condition=models.Q(('counts', True), ('deleted_at', None), ('finished_at__isnull', False)), fields=['club', 'chip_value', 'finished_at'], name='game_club_chip_value'),
        ),
        migrations.AddIndex(
            model_name='monthline',
            index=models.Index(fields=['club', 'player', 'month', 'games', 'team_games', 'wins', 'team_wins', 'place_sum', 'hands', 'taken', 'pitched', 'bids', 'made', 'set_back', 'in_hole', 'smudges', 'smudges_made', 'revokes', 'chips'], name='monthline_club_sums'),
        ),
    ]
