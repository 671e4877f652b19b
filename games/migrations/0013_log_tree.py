"""The transparency log's Merkle tree (RFC 9162): the hash of each perfect subtree, stored
when its last entry is appended. Entries already logged get theirs here (inserts only: the
log itself is append-only); their leaf hashes are over the same canonical bytes as their
chain hashes."""

from datetime import UTC

from django.db import migrations, models


def nodes(apps, schema_editor):
    from games.fairness import merkle
    from games.fairness.canonical import canonical_bytes

    LogEntry = apps.get_model("games", "LogEntry")
    LogTreeNode = apps.get_model("games", "LogTreeNode")
    stack: list[tuple[int, bytes]] = []  # (level, hash) of the completed subtrees on the right
    rows = []
    for row in LogEntry.objects.order_by("index").iterator(chunk_size=2000):
        entry = {
            "index": row.index,
            "prev": row.prev,
            "kind": row.kind,
            "body": row.body,
            "logged_at": row.logged_at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        }
        digest, level, number = merkle.leaf_hash(canonical_bytes(entry)), 0, row.index
        rows.append(LogTreeNode(position=number * 64, hash=digest.hex()))
        while stack and stack[-1][0] == level:
            digest = merkle.node_hash(stack.pop()[1], digest)
            level, number = level + 1, number >> 1
            rows.append(LogTreeNode(position=number * 64 + level, hash=digest.hex()))
        stack.append((level, digest))
        if len(rows) >= 4000:
            LogTreeNode.objects.bulk_create(rows)
            rows = []
    LogTreeNode.objects.bulk_create(rows)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0012_rematch"),
    ]

    operations = [
        migrations.CreateModel(
            name="LogTreeNode",
            fields=[
                (
                    "position",
                    models.PositiveBigIntegerField(
                        help_text="number * 64 + level", primary_key=True, serialize=False
                    ),
                ),
                ("hash", models.CharField(max_length=64)),
            ],
            options={"ordering": ["position"]},
        ),
        migrations.RunPython(nodes, migrations.RunPython.noop),
    ]
