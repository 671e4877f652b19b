"""PostgreSQL only: every committed change of a table's version is announced on the channel
``trix_table`` with the payload ``<table id>:<version>`` (``games.live.listener`` listens;
state long polls wait on it). NOTIFY is delivered when the transaction commits and never if
it rolls back; an update that leaves the version as it was announces nothing. SQLite, the
embedded default, has no NOTIFY: its long polls poll the table row."""

from django.db import migrations

from trix_site.migrations_util import PostgreSQLOnlyRunSQL

FORWARD = """
CREATE OR REPLACE FUNCTION games_table_notify_version() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'INSERT' OR NEW.version IS DISTINCT FROM OLD.version THEN
        PERFORM pg_notify('trix_table', NEW.id::text || ':' || NEW.version::text);
    END IF;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER games_table_version_notify
    AFTER INSERT OR UPDATE ON games_table
    FOR EACH ROW EXECUTE FUNCTION games_table_notify_version();
"""

BACKWARD = """
DROP TRIGGER IF EXISTS games_table_version_notify ON games_table;
DROP FUNCTION IF EXISTS games_table_notify_version();
"""


class Migration(migrations.Migration):
    dependencies = [("games", "0002_match_log_increments")]

    operations = [PostgreSQLOnlyRunSQL(FORWARD, BACKWARD)]
