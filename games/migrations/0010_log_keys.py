"""What each log entry is about, unique per kind (issue 12 review): one match-commitment and
one match-receipt per match, one draw-commitment and draw-key per event, one deal-record per
deal. Existing entries get their key (inserts only: the log itself is append-only); a log
already holding two entries of one kind for one subject stops the migration, naming them."""

import django.db.models.deletion
from django.db import migrations, models


def keys(apps, schema_editor):
    from games.fairness.transparency import entry_key

    LogEntry = apps.get_model("games", "LogEntry")
    LogKey = apps.get_model("games", "LogKey")
    seen = {}
    rows = []
    for entry in LogEntry.objects.order_by("index").iterator(chunk_size=2000):
        key = (entry.kind, entry_key(entry.kind, entry.body))
        if key in seen:
            raise RuntimeError(
                f"log entries {seen[key]} and {entry.index}: two {key[0]} entries of {key[1]!r}"
            )
        seen[key] = entry.index
        rows.append(LogKey(entry_id=entry.index, kind=key[0], subject=key[1]))
    LogKey.objects.bulk_create(rows, batch_size=2000)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0009_table_presence_invite"),
    ]

    operations = [
        migrations.CreateModel(
            name="LogKey",
            fields=[
                (
                    "entry",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        primary_key=True,
                        related_name="key",
                        serialize=False,
                        to="games.logentry",
                    ),
                ),
                ("kind", models.CharField(max_length=32)),
                ("subject", models.CharField(max_length=80)),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(fields=("kind", "subject"), name="games_logkey_one")
                ],
            },
        ),
        migrations.RunPython(keys, migrations.RunPython.noop),
    ]
