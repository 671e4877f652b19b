"""Shuffle secrets sealed at rest (issue 12): every match's chain secret, stored as plain hex
in ``MatchRecord.shuffle["chain"]["secret"]``, is sealed under ``TRIX_SEED_KEY``
(``games.sealing`` through ``games.shuffles.seal_plain``; associated data
``match:<match id>``) into ``["chain"]["sealed"]``. Backwards: opened again (the key needed)."""

from django.db import migrations


def seal_secrets(apps, schema_editor):
    from games import shuffles

    MatchRecord = apps.get_model("games", "MatchRecord")
    for record in MatchRecord.objects.filter(shuffle__chain__has_key="secret").iterator():
        record.shuffle = shuffles.seal_plain(record.shuffle)
        record.save(update_fields=["shuffle"])


def open_secrets(apps, schema_editor):
    from games import sealing

    MatchRecord = apps.get_model("games", "MatchRecord")
    for record in MatchRecord.objects.filter(shuffle__chain__has_key="sealed").iterator():
        chain = dict(record.shuffle["chain"])
        sealed = chain.pop("sealed")
        chain["secret"] = sealing.unseal(
            sealed, context=f"match:{record.shuffle['match_id']}"
        ).hex()
        record.shuffle = {**record.shuffle, "chain": chain}
        record.save(update_fields=["shuffle"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0005_heartbeat"),
    ]

    operations = [
        migrations.RunPython(seal_secrets, open_secrets),
    ]
