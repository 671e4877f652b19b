"""Table kinds (games.policy): ``kind`` set from the stake for existing tables, ``origin``,
and ``Seat.checked_in_at`` for tournament no-shows."""

from django.db import migrations, models


def kinds_from_stakes(apps, schema_editor):
    Table = apps.get_model("games", "Table")
    Table.objects.filter(stake__gt=0).update(kind="staked")


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0003_postgresql_table_notify"),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="kind",
            field=models.CharField(
                choices=[
                    ("casual", "casual (free)"),
                    ("staked", "staked"),
                    ("tournament", "tournament"),
                ],
                default="casual",
                help_text="what the table does on timers, leaving and its end (games.policy)",
                max_length=16,
            ),
        ),
        migrations.AddField(
            model_name="table",
            name="origin",
            field=models.CharField(
                blank=True,
                db_index=True,
                default="",
                help_text="who made it: '' for a player, e.g. 'tournament:12/round:3/table:2'",
                max_length=64,
            ),
        ),
        migrations.AddField(
            model_name="seat",
            name="checked_in_at",
            field=models.DateTimeField(
                blank=True,
                help_text="when the seated user first opened the table or acted (tournament no-shows)",
                null=True,
            ),
        ),
        migrations.RunPython(kinds_from_stakes, migrations.RunPython.noop),
    ]
