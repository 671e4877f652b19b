"""Issue 12: the match-start receipt on the table (public) and the transparency log
(``LogEntry``), append-only: on PostgreSQL a trigger refuses UPDATE and DELETE of its rows
(the model refuses them on every database)."""

from django.db import migrations, models

from trix_site.migrations_util import PostgreSQLOnlyRunSQL

FORWARD = """
CREATE OR REPLACE FUNCTION games_log_refuse_change() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'the transparency log is append-only: % refused', TG_OP
        USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER games_logentry_append_only
    BEFORE UPDATE OR DELETE ON games_logentry
    FOR EACH ROW EXECUTE FUNCTION games_log_refuse_change();
"""

BACKWARD = """
DROP TRIGGER IF EXISTS games_logentry_append_only ON games_logentry;
DROP FUNCTION IF EXISTS games_log_refuse_change();
"""


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0006_sealed_shuffle_secrets'),
    ]

    operations = [
        migrations.CreateModel(
            name='LogEntry',
            fields=[
                ('index', models.PositiveBigIntegerField(help_text='0, 1, 2, ...', primary_key=True, serialize=False)),
                ('prev', models.CharField(help_text='hash of the entry before (GENESIS at 0)', max_length=64)),
                ('kind', models.CharField(max_length=32)),
                ('body', models.JSONField()),
                ('logged_at', models.DateTimeField()),
                ('hash', models.CharField(max_length=64, unique=True)),
            ],
            options={
                'verbose_name_plural': 'log entries',
                'ordering': ['index'],
            },
        ),
        migrations.AddField(
            model_name='table',
            name='receipt',
            field=models.JSONField(blank=True, help_text='the match-start receipt trix-receipt/1 (public; null until the seeds lock)', null=True),
        ),
        migrations.AddField(
            model_name='table',
            name='receipt_signature',
            field=models.CharField(blank=True, default='', help_text="the site's Ed25519 signature of it", max_length=128),
        ),
        PostgreSQLOnlyRunSQL(FORWARD, BACKWARD),
    ]
