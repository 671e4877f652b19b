"""Amounts and balances bounded by ``wallet.inputs.MAX_AMOUNT`` (issue 13): a CHECK
constraint on the balance of every wallet and escrow, and ``wallet_post`` loaded again from
``wallet/sql/`` (it now refuses a posting that would leave an account above the bound,
before a payment provider is asked)."""

import importlib

from django.conf import settings
from django.db import migrations, models

_0003 = importlib.import_module("wallet.migrations.0003_postgresql_ledger_post_function")


class ReloadLedgerFunctions(_0003.CreateLedgerFunctions):
    """0003's loader, run again; undoing it keeps the functions (0003's undo drops them)."""

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        pass


class Migration(migrations.Migration):
    dependencies = [
        ("wallet", "0003_postgresql_ledger_post_function"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddConstraint(
            model_name="account",
            constraint=models.CheckConstraint(
                condition=models.Q(("kind", "system"), ("balance__lte", 10**12), _connector="OR"),
                name="wallet_account_balance_at_most_max",
                violation_error_message="A wallet or escrow holds at most MAX_AMOUNT.",
            ),
        ),
        ReloadLedgerFunctions(),
    ]
