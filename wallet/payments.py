"""Where a payment provider plugs in: deposits are collected and withdrawals paid out here.

``settings.TRIX_PAYMENT_PROVIDER`` (dotted path, default ``wallet.payments.DemoProvider``)
names the class; ``wallet.services.deposit`` / ``withdraw`` call it inside their
database transaction, after every ledger check passed and before the entries
are written, so a decline writes nothing. A real provider must be idempotent on
``key`` (as card processors are on their idempotency keys): a retried deposit
whose first attempt collected the money but failed to commit gets the same
receipt and is recorded once.
"""

from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod

from django.conf import settings
from django.utils.module_loading import import_string

from wallet.errors import PaymentDeclined


class PaymentProvider(ABC):
    """Moves real money between a user and the site. Amounts in minor units."""

    name: str = "provider"

    @abstractmethod
    def collect(self, *, user_id: int, amount: int, key: str) -> str:
        """Take ``amount`` from the user's payment method; return the provider's receipt id.

        Raises ``PaymentDeclined`` if the money cannot be taken.
        """

    @abstractmethod
    def pay_out(self, *, user_id: int, amount: int, key: str) -> str:
        """Send ``amount`` to the user's payment method; return the provider's receipt id.

        Raises ``PaymentDeclined`` if the money cannot be sent.
        """


class DemoProvider(PaymentProvider):
    """Stands in for a payment provider on demo sites and in tests: no money moves.

    Approves every amount up to ``limit`` minor units (``settings.TRIX_DEMO_PAYMENT_LIMIT``,
    default 1,000,000) and declines larger ones, as a card limit would.
    """

    name = "demo"

    def __init__(self, limit: int | None = None):
        self.limit = limit if limit is not None else settings.TRIX_DEMO_PAYMENT_LIMIT

    def _receipt(self, action: str, user_id: int, amount: int, key: str) -> str:
        if amount > self.limit:
            raise PaymentDeclined(
                f"demo provider declines {action} of {amount} (limit {self.limit})"
            )
        digest = hashlib.sha256(f"{action}:{user_id}:{amount}:{key}".encode()).hexdigest()
        return f"demo-{digest[:20]}"

    def collect(self, *, user_id: int, amount: int, key: str) -> str:
        return self._receipt("collect", user_id, amount, key)

    def pay_out(self, *, user_id: int, amount: int, key: str) -> str:
        return self._receipt("pay_out", user_id, amount, key)


def get_provider() -> PaymentProvider:
    """The configured provider (``settings.TRIX_PAYMENT_PROVIDER``), a new instance."""
    path = settings.TRIX_PAYMENT_PROVIDER
    return import_string(path)()
