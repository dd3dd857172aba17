# A live link's and an invitation's token are validated as the URLs accept them: a
# token of other characters made the club and game pages that link to it fail.
# Validators only, nothing changes in the database.

import django.core.validators
import pitchkeeper.clubs.models
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('pitchkeeper', '0018_game_revision'),
    ]

    operations = [
        migrations.AlterField(
            model_name='game',
            name='share_token',
            field=models.CharField(default=pitchkeeper.clubs.models.new_token, max_length=43, unique=True, validators=[django.core.validators.RegexValidator('\\A[A-Za-z0-9_-]{1,64}\\Z', "A link's token is letters, digits, - and _ only.", code='token')], verbose_name='share token'),
        ),
        migrations.AlterField(
            model_name='invitation',
            name='token',
            field=models.CharField(default=pitchkeeper.clubs.models.new_token, max_length=43, unique=True, validators=[django.core.validators.RegexValidator('\\A[A-Za-z0-9_-]{1,64}\\Z', "A link's token is letters, digits, - and _ only.", code='token')]),
        ),
    ]
