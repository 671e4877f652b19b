"""PostgreSQL-only: ``wallet_post``, the ledger's one-round-trip executor, and ``wallet_staked``,
whose source is ``wallet/sql/wallet_post.sql`` and ``wallet/sql/wallet_staked.sql``.

``wallet.services`` decides everything that does not need the locked state (input
checks, request hash, the legs of a stake or a deposit, the payouts of a split) and
hands this function a *rule*; the function does, in one statement and with plans
PL/pgSQL caches per connection, what the portable ORM path does in five or six:

1. lock the accounts named in ``p_refs`` (sorted, distinct) with ``FOR UPDATE`` in id order;
2. look the idempotency key up: the same request hash returns ``('replay', id)``, another
   one is refused (``conflict``);
3. create the missing accounts that ``p_create_*`` allow (escrows, system accounts, a
   depositor's wallet once its user is known to exist), then lock again in id order;
4. apply the rule under the locks: ``legs`` (given legs; a reversal not reversed twice),
   ``pay_in`` (escrow open), ``refund`` (net stake read under the lock), ``refund_all``
   (every staker back, stakers as read before locking), ``payout`` (payees staked, payouts
   plus fee equal the escrow's balance);
5. refuse a wallet or escrow below zero and a closed escrow not at exactly zero;
6. unless ``p_write`` is false (a deposit checks first, calls its payment provider, then
   posts), insert the transaction and its entries and update the balances.

A refusal raises SQLSTATE ``WL001`` with a JSON object in DETAIL (``{"code": ...}`` and
the facts for the message), so everything the statement created is rolled back; Python
turns it into the ``wallet.errors`` class (``wallet.rules.error``). The balance trigger,
the immutability triggers and the CHECK constraints of 0001/0002 still apply to its writes.

``wallet_staked(escrow, stake_kinds, users)``: user id -> net amount staked (stakes and
entry fees minus refunds, reversals included), the SQL twin of ``wallet.staking.staked``.
"""

from pathlib import Path

from django.conf import settings
from django.db import migrations

from trix_site.migrations_util import PostgreSQLOnlyRunSQL
from wallet.inputs import MAX_AMOUNT

# The functions' source: wallet/sql/ (loaded as it is; {{user_table}} filled in below).
SQL_DIR = Path(__file__).resolve().parents[1] / "sql"
SOURCES = ("wallet_staked.sql", "wallet_post.sql")


def source_sql(user_table: str) -> str:
    """The SQL of wallet/sql/ this migration runs, with the user model's (quoted) table and
    the most an account may hold (``wallet.inputs.MAX_AMOUNT``; migration 0004 runs it again)."""
    text = "".join((SQL_DIR / name).read_text(encoding="utf-8") for name in SOURCES)
    return text.replace("{{user_table}}", user_table).replace("{{max_amount}}", str(MAX_AMOUNT))


BACKWARD = """
DROP FUNCTION IF EXISTS wallet_post(
    boolean, text, text, text, text, text, text, text, bigint, timestamptz, text[], text[],
    text[], bigint[], text, text[], bigint[], text, bigint, bigint, bigint[], bigint[], text,
    bigint, text[], text[]);
DROP FUNCTION IF EXISTS wallet_refuse(json);
DROP FUNCTION IF EXISTS wallet_staked(text, text[], bigint[]);
"""


class CreateLedgerFunctions(PostgreSQLOnlyRunSQL):
    """The functions, on PostgreSQL only, with the user model's table name filled in."""

    def __init__(self):
        super().__init__(source_sql('"auth_user"'), BACKWARD)

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        if schema_editor.connection.vendor != "postgresql":
            return
        user_model = to_state.apps.get_model(settings.AUTH_USER_MODEL)
        user_table = schema_editor.quote_name(user_model._meta.db_table)
        self._run_sql(schema_editor, source_sql(user_table))


class Migration(migrations.Migration):
    dependencies = [
        ("wallet", "0002_postgresql_ledger_triggers"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [CreateLedgerFunctions()]
