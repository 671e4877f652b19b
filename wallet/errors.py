"""The ledger's exceptions: every refusal is a ``LedgerError`` subclass.

A service that raises one of these has written nothing: its database transaction
is rolled back (or was never opened, for input validated up front).

    LedgerError
    ├── InvalidAmount          amount not a positive integer of minor units
    ├── InvalidReference       reference not of the form ``table:<id>`` / ``tournament:<id>``
    ├── UnknownAccount         no such user, wallet or escrow
    ├── InsufficientFunds      the wallet (or escrow) holds less than asked
    ├── IdempotencyConflict    key already used for a different request
    ├── EscrowClosed           the escrow was settled or refunded in full
    ├── NothingToRefund        the user has no stake left in this escrow
    ├── SettlementMismatch     payouts do not match the escrow's stakes or balance
    ├── InvalidSplit           split_pot was given inconsistent stakes or placements
    ├── AlreadyReversed        a transaction can be reversed once
    ├── PaymentDeclined        the payment provider refused a deposit or withdrawal
    ├── ImmutableEntry         entries and transactions are never edited or deleted
    └── Refused                a gate refuses the player now (``wallet.gates``): a limit, a
                               break, an unverified or suspended account; also a
                               ``trix_site.errors.NotAllowed`` (403, the rule's code)
"""

from __future__ import annotations

from datetime import datetime

from trix_site import errors


class LedgerError(Exception):
    """Base of every refusal by the wallet app."""


class InvalidAmount(LedgerError, ValueError):
    """An amount is not a positive ``int`` (minor units; never a float or a bool)."""


class InvalidReference(LedgerError, ValueError):
    """A reference does not name a table or a tournament the way the ledger expects."""


class UnknownAccount(LedgerError, LookupError):
    """The user, wallet or escrow named does not exist."""


class InsufficientFunds(LedgerError):
    """The account would go below zero."""


class IdempotencyConflict(LedgerError):
    """The idempotency key was already used for a request with different contents."""


class EscrowClosed(LedgerError):
    """The escrow was closed by a settlement or a full refund; no money moves in or out."""


class NothingToRefund(LedgerError):
    """The user has nothing staked in this escrow."""


class SettlementMismatch(LedgerError, ValueError):
    """Payouts plus house fee differ from the escrow balance, or pay someone who did not stake."""


class InvalidSplit(LedgerError, ValueError):
    """``split_pot`` got stakes or placements that do not describe one finished match."""


class AlreadyReversed(LedgerError):
    """The transaction has already been reversed."""


class PaymentDeclined(LedgerError):
    """The payment provider declined to collect or pay out the money."""


class ImmutableEntry(LedgerError):
    """Ledger rows are append-only: fix a mistake with a reversing transaction."""


class Refused(LedgerError, errors.NotAllowed):
    """The player may not do this now (a check of ``settings.TRIX_WALLET_GATES``). ``code``
    names the rule (``"stake_limit"``, ``"self_excluded"``, ``"kyc_required"``...),
    ``str(self)`` and ``message`` are the player's message (translated: which limit or state,
    and when it ends), ``resets_at`` when it stops applying (None: not by itself). In the API:
    403 with the rule's code."""

    def __init__(self, code: str, message: str, resets_at: datetime | None = None):
        errors.NotAllowed.__init__(self, message, code)
        self.resets_at = resets_at
