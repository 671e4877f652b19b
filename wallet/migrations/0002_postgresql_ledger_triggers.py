"""PostgreSQL-only guards of the ledger (SQLite, the embedded default, relies on the services).

- ``wallet_entry_balanced``: a deferred constraint trigger; at commit, every
  transaction that got entries must have entries summing to zero.
- ``wallet_entry_immutable`` / ``wallet_transaction_immutable``: UPDATE and DELETE
  are refused (TRUNCATE, used only by test flushes, is not a row operation).
"""

from django.db import migrations

from trix_site.migrations_util import PostgreSQLOnlyRunSQL

FORWARD = """
CREATE OR REPLACE FUNCTION wallet_check_transaction_balanced() RETURNS trigger AS $$
DECLARE total bigint;
BEGIN
    SELECT COALESCE(SUM(amount), 0) INTO total
      FROM wallet_entry WHERE transaction_id = NEW.transaction_id;
    IF total <> 0 THEN
        RAISE EXCEPTION 'ledger transaction % is not balanced: entries sum to %',
            NEW.transaction_id, total
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE CONSTRAINT TRIGGER wallet_entry_balanced
    AFTER INSERT ON wallet_entry
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION wallet_check_transaction_balanced();

CREATE OR REPLACE FUNCTION wallet_refuse_change() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION '% rows are append-only: % refused; post a reversal instead',
        TG_TABLE_NAME, TG_OP
        USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER wallet_entry_immutable
    BEFORE UPDATE OR DELETE ON wallet_entry
    FOR EACH ROW EXECUTE FUNCTION wallet_refuse_change();

CREATE TRIGGER wallet_transaction_immutable
    BEFORE UPDATE OR DELETE ON wallet_transaction
    FOR EACH ROW EXECUTE FUNCTION wallet_refuse_change();
"""

BACKWARD = """
DROP TRIGGER IF EXISTS wallet_transaction_immutable ON wallet_transaction;
DROP TRIGGER IF EXISTS wallet_entry_immutable ON wallet_entry;
DROP TRIGGER IF EXISTS wallet_entry_balanced ON wallet_entry;
DROP FUNCTION IF EXISTS wallet_refuse_change();
DROP FUNCTION IF EXISTS wallet_check_transaction_balanced();
"""


class Migration(migrations.Migration):
    dependencies = [("wallet", "0001_initial")]

    operations = [PostgreSQLOnlyRunSQL(FORWARD, BACKWARD)]
