"""A seat's private doubling pick (issue 13): kept beside the match, never a table version."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0007_receipts_and_log'),
    ]

    operations = [
        migrations.CreateModel(
            name='DoublingPick',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('seat', models.PositiveSmallIntegerField()),
                ('deal', models.PositiveSmallIntegerField()),
                ('cards', models.JSONField(default=list, help_text="card codes, e.g. ['KH']")),
                ('picked_at', models.DateTimeField()),
                ('table', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='picks', to='games.table')),
            ],
            options={
                'constraints': [models.UniqueConstraint(fields=('table', 'seat'), name='games_pick_one_per_seat')],
            },
        ),
    ]
