"""Bounds on input: seasons' days within years 1900-2999 and a chip value that is not
negative (rows from before are brought inside first), and the validators that say so."""

import datetime

import django.core.validators
from django.db import migrations, models

FIRST_DAY = datetime.date(1900, 1, 1)
LAST_DAY = datetime.date(2999, 12, 31)


def seasons_in_bounds(apps, schema_editor):
    """Seasons from before the bounds, brought inside them without changing which games
    they hold (no game falls outside those years): an end past the last day becomes no
    end, a start outside the years their nearest day; a negative chip value was a slip of
    the minus key, so it keeps its amount."""
    Season = apps.get_model("pitchkeeper", "Season")
    Season.objects.filter(end__gt=LAST_DAY).update(end=None)
    Season.objects.filter(start__gt=LAST_DAY).update(start=LAST_DAY)
    Season.objects.filter(end__lt=FIRST_DAY).update(end=FIRST_DAY)
    Season.objects.filter(start__lt=FIRST_DAY).update(start=FIRST_DAY)
    for season in Season.objects.filter(chip_value__lt=0):
        season.chip_value = -season.chip_value
        season.save(update_fields=["chip_value"])


class Migration(migrations.Migration):

    dependencies = [
        ('pitchkeeper', '0007_seasons_and_stats'),
    ]

    operations = [
        migrations.RunPython(seasons_in_bounds, migrations.RunPython.noop),
        migrations.AlterField(
            model_name='payment',
            name='chips',
            field=models.PositiveIntegerField(validators=[django.core.validators.MaxValueValidator(2147483647)], verbose_name='chips'),
        ),
        migrations.AlterField(
            model_name='season',
            name='chip_value',
            field=models.DecimalField(blank=True, decimal_places=2, max_digits=8, null=True, validators=[django.core.validators.MinValueValidator(0)], verbose_name='chip value'),
        ),
        migrations.AlterField(
            model_name='season',
            name='end',
            field=models.DateField(blank=True, null=True, validators=[django.core.validators.MinValueValidator(datetime.date(1900, 1, 1)), django.core.validators.MaxValueValidator(datetime.date(2999, 12, 31))], verbose_name='last day'),
        ),
        migrations.AlterField(
            model_name='season',
            name='start',
            field=models.DateField(validators=[django.core.validators.MinValueValidator(datetime.date(1900, 1, 1)), django.core.validators.MaxValueValidator(datetime.date(2999, 12, 31))], verbose_name='first day'),
        ),
        migrations.AddConstraint(
            model_name='season',
            constraint=models.CheckConstraint(condition=models.Q(('start__gte', datetime.date(1900, 1, 1)), ('start__lte', datetime.date(2999, 12, 31)), models.Q(('end__isnull', True), ('end__lte', datetime.date(2999, 12, 31)), _connector='OR')), name='season_days_in_bounds'),
        ),
        migrations.AddConstraint(
            model_name='season',
            constraint=models.CheckConstraint(condition=models.Q(('chip_value__isnull', True), ('chip_value__gte', 0), _connector='OR'), name='season_chip_value_not_negative'),
        ),
    ]
