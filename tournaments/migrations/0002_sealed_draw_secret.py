"""Draw secrets sealed at rest (issue 12): the column widens to hold ``trix-seal/1:...`` text
and every plain hex secret is sealed under ``TRIX_SEED_KEY`` (``games.sealing``, associated
data ``draw:tournament:<id>``). Backwards: the secrets are opened again (the key needed)."""

from django.db import migrations, models


def seal_secrets(apps, schema_editor):
    from games import sealing

    Tournament = apps.get_model("tournaments", "Tournament")
    for t in Tournament.objects.exclude(draw_secret__startswith=sealing.FORMAT).iterator():
        secret = bytes.fromhex(t.draw_secret)
        t.draw_secret = sealing.seal(secret, context=f"draw:tournament:{t.pk}")
        t.save(update_fields=["draw_secret"])


def open_secrets(apps, schema_editor):
    from games import sealing

    Tournament = apps.get_model("tournaments", "Tournament")
    for t in Tournament.objects.filter(draw_secret__startswith=sealing.FORMAT).iterator():
        secret = sealing.unseal(t.draw_secret, context=f"draw:tournament:{t.pk}")
        t.draw_secret = secret.hex()
        t.save(update_fields=["draw_secret"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0001_initial"),
    ]

    operations = [
        migrations.AlterField(
            model_name="tournament",
            name="draw_secret",
            field=models.CharField(
                editable=False,
                help_text="server-only, sealed (games.sealing, context draw:tournament:<id>)",
                max_length=200,
            ),
        ),
        migrations.RunPython(seal_secrets, open_secrets),
    ]
