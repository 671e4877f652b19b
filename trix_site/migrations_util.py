"""Operations shared by the apps' migrations."""

from django.db import migrations


class PostgreSQLOnlyRunSQL(migrations.RunSQL):
    """RunSQL that does nothing on databases other than PostgreSQL (SQLite, the embedded
    default, relies on the services for what the SQL adds)."""

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        if schema_editor.connection.vendor == "postgresql":
            super().database_forwards(app_label, schema_editor, from_state, to_state)

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        if schema_editor.connection.vendor == "postgresql":
            super().database_backwards(app_label, schema_editor, from_state, to_state)
