# The task workers' beats (core.worker): a task left running by a worker that stopped
# beating is run again.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('pitchkeeper', '0020_names_visible'),
    ]

    operations = [
        migrations.CreateModel(
            name='WorkerBeat',
            fields=[
                ('worker_id', models.CharField(max_length=64, primary_key=True, serialize=False)),
                ('beat', models.DateTimeField()),
            ],
            options={
                'verbose_name': 'worker beat',
            },
        ),
    ]
