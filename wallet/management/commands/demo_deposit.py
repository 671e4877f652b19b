"""``python manage.py demo_deposit <username> <amount>``: credit a wallet via the demo provider.

``amount`` is in minor units. Stands in for a payment provider on demo sites.
"""

import uuid

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from wallet import services
from wallet.errors import LedgerError
from wallet.payments import DemoProvider
from wallet.selectors import format_money, wallet_balance


class Command(BaseCommand):
    help = "Deposit demo money (minor units) into a user's wallet."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("amount", type=int, help="minor units, e.g. 10000 for 100.00")
        parser.add_argument("--key", help="idempotency key (default: a new random one)")

    def handle(self, *args, username, amount, key, **options):
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"no user {username!r}")
        try:
            txn = services.deposit(
                user=user,
                amount=amount,
                key=key or f"demo-deposit:{uuid.uuid4()}",
                provider=DemoProvider(),
                reference="admin:demo_deposit",
                memo="demo deposit (management command)",
            )
        except LedgerError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(
            f"transaction {txn.pk}: {username} now holds {format_money(wallet_balance(user))}"
        )
