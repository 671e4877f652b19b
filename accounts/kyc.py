"""Where an identity-verification (KYC) provider plugs in: a player's identity is checked
before they stake or make a large withdrawal (``accounts.standing``).

``settings.TRIX_KYC_PROVIDER`` (dotted path, default ``accounts.kyc.DemoKycProvider``) names
the class, as ``TRIX_PAYMENT_PROVIDER`` names the payment provider (``wallet.payments``).
``accounts.services.start_verification`` calls :meth:`KycProvider.start` and
``accounts.services.refresh_verification`` calls :meth:`KycProvider.status`; the outcome is
kept in ``accounts.models.Verification``. The documents a player shows stay with the
provider: the site keeps the status, the provider's name and its reference, nothing else.

A real provider (hosted checks: the player is sent to the provider's page, the provider
reports back) answers ``pending`` with the ``url`` to send the player to, and later
``verified`` or ``rejected``. It must be idempotent on ``key``: a retried start returns the
same check.
"""

from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from dataclasses import dataclass

from django.conf import settings
from django.utils.module_loading import import_string

from accounts.models import VerificationStatus


class KycError(Exception):
    """The provider could not be reached or refused the request; nothing was recorded."""


@dataclass(frozen=True)
class KycCheck:
    """A provider's answer: ``status`` (a :class:`VerificationStatus` value), the provider's
    ``reference`` of the check, and for a pending hosted check the ``url`` to send the
    player to (empty otherwise)."""

    status: str
    reference: str
    url: str = ""


class KycProvider(ABC):
    """Checks that a player is who they say they are."""

    name: str = "provider"
    #: Whether the provider only pretends (the pages say so: no identity is checked).
    demo: bool = False

    @abstractmethod
    def start(self, *, user_id: int, key: str) -> KycCheck:
        """Open (or return, for the same ``key``) a check of ``user_id``'s identity.

        Raises :class:`KycError` if the provider cannot be reached.
        """

    @abstractmethod
    def status(self, *, reference: str) -> KycCheck:
        """The current state of the check ``reference``. Raises :class:`KycError`."""


class DemoKycProvider(KycProvider):
    """Stands in for a verification provider on demo sites and in tests: it checks nothing
    and verifies every player at once (the page says it is a demo)."""

    name = "demo"
    demo = True

    def _reference(self, user_id: int, key: str) -> str:
        return "demo-" + hashlib.sha256(f"kyc:{user_id}:{key}".encode()).hexdigest()[:20]

    def start(self, *, user_id: int, key: str) -> KycCheck:
        return KycCheck(status=VerificationStatus.VERIFIED, reference=self._reference(user_id, key))

    def status(self, *, reference: str) -> KycCheck:
        return KycCheck(status=VerificationStatus.VERIFIED, reference=reference)


def get_provider() -> KycProvider:
    """The configured provider (``settings.TRIX_KYC_PROVIDER``), a new instance."""
    return import_string(settings.TRIX_KYC_PROVIDER)()
