"""What a posting asks for and how it is refused: one description for both executors.

A posting (``wallet.posting.post``) hands a :class:`Rule` to one of two executors
(``wallet.executor_pg`` or ``wallet.executor_orm``); a rule that refuses raises a
:class:`Refusal` with a ``code`` and the facts, and :func:`error` turns that into the
``wallet.errors`` exception with its message, the same whichever executor refused.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from wallet.errors import (
    AlreadyReversed,
    EscrowClosed,
    IdempotencyConflict,
    InsufficientFunds,
    InvalidAmount,
    LedgerError,
    NothingToRefund,
    SettlementMismatch,
    UnknownAccount,
)
from wallet.inputs import MAX_AMOUNT
from wallet.models import Transaction, TransactionKind

#: Kinds that put a user's money into an escrow or take it back before the end.
STAKE_KINDS = (
    TransactionKind.STAKE,
    TransactionKind.REFUND,
    TransactionKind.ENTRY_FEE,
    TransactionKind.ENTRY_FEE_REFUND,
)

Legs = list[tuple[str, int]]


@dataclass(frozen=True)
class Rule:
    """What a posting checks under the locks and how its legs are found.

    ``name`` is one of ``legs`` (the legs are given), ``pay_in`` (given legs into an
    open ``escrow``), ``refund`` (``amount``, or all, of ``user``'s net stake in
    ``escrow``), ``refund_all`` (every staker of ``escrow`` back; ``users`` are the
    stakers as read before locking) or ``payout`` (``users`` get ``amounts`` and the
    house ``house_fee`` out of ``escrow``, which must hold exactly that). Both
    executors read this one description: ``_apply_rule`` (ORM) and ``wallet_post`` (SQL).
    """

    name: str
    legs: tuple[tuple[str, int], ...] = ()
    escrow: str | None = None
    user: int | None = None
    amount: int | None = None
    users: tuple[int, ...] = ()
    amounts: tuple[int, ...] = ()
    house_fee: int = 0


class Refusal(Exception):
    """A rule refused the posting: ``code`` and the facts for the message (both executors)."""

    def __init__(self, code: str, **facts: Any) -> None:
        super().__init__(code)
        self.code = code
        self.facts = facts


class StakersChanged(Exception):
    """A stake arrived between reading the stakers and locking the escrow: read again."""


def error(refusal: Refusal, rule: Rule, key: str, reverses: Transaction | None) -> Exception:
    """The ``wallet.errors`` exception for a refusal: every message of the postings lives here."""
    f, escrow = refusal.facts, rule.escrow
    match refusal.code:
        case "conflict":
            return IdempotencyConflict(
                f"idempotency key {key!r} was used for a different request "
                f"({f['kind']} {f['reference']})"
            )
        case "unknown":
            return UnknownAccount(f"no account {f['ref']}")
        case "unknown_user":
            return UnknownAccount(f"no user {f['user']}")
        case "closed" if rule.name == "pay_in":
            return EscrowClosed(f"{escrow} is settled; it takes no more stakes")
        case "closed" if rule.name == "refund":
            return EscrowClosed(f"{escrow} is settled; nothing can be refunded")
        case "closed":
            return EscrowClosed(f"{escrow} is already settled")
        case "reversed":
            original = reverses.idempotency_key if reverses else "?"
            return AlreadyReversed(f"transaction {original!r} is already reversed")
        case "nothing":
            return NothingToRefund(f"user {f['user']} has nothing in {escrow}")
        case "over":
            return InsufficientFunds(
                f"user {f['user']} has {f['staked']} in {escrow}, {f['asked']} asked back"
            )
        case "empty":
            return NothingToRefund(f"{escrow} holds no stakes")
        case "stakers_changed":
            return StakersChanged()
        case "strangers":
            return SettlementMismatch(f"users {list(f['users'])} did not stake in {escrow}")
        case "held_zero":
            return SettlementMismatch(f"{escrow} holds nothing to pay out")
        case "total":
            return SettlementMismatch(
                f"{escrow} holds {f['held']}; payouts and fee total {f['total']}"
            )
        case "insufficient":
            return InsufficientFunds(f"{f['ref']} holds {f['held']}, {f['needed']} needed")
        case "too_much":
            return InvalidAmount(
                f"{f['ref']} would hold {f['balance']} minor units (it holds {f['held']}): an "
                f"account holds at most {MAX_AMOUNT}"
            )
        case "would_keep":
            return SettlementMismatch(f"{f['ref']} would keep {f['balance']} after closing")
    return LedgerError(f"internal error: the ledger refused with {refusal.code} {f}")


def replay(existing: Transaction, request_hash: str) -> Transaction:
    if existing.request_hash != request_hash:
        raise Refusal("conflict", kind=existing.kind, reference=existing.reference)
    return existing
