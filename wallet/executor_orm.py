"""The portable executor of a posting: the ORM, on SQLite (the embedded default) and on demand.

Runs a :class:`~wallet.rules.Rule` under ``SELECT ... FOR UPDATE`` locks taken in id
order: replay or refuse a used key, create the missing escrow/system accounts (a
depositor's wallet once the user exists), apply the rule (``_apply_rule``, the twin of
PostgreSQL's ``wallet_post``: the same checks, listed in ``wallet.executor_pg``) and write
the transaction, its entries and the balances.
``wallet.executor_pg.POSTGRES_FUNCTION = False`` runs it on PostgreSQL too: the wallet
tests run every test on both executors, so the two cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from wallet import staking
from wallet.errors import LedgerError
from wallet.inputs import MAX_AMOUNT
from wallet.models import HOUSE, Account, AccountKind, Entry, Transaction
from wallet.rules import Legs, Refusal, Rule, replay


def _lock(refs: list[str]) -> dict[str, Account]:
    """Lock the existing accounts named by ``refs`` in id order."""
    rows = Account.objects.select_for_update().filter(reference__in=refs).order_by("id")
    return {a.reference: a for a in rows}


def post_with_orm(
    *,
    key: str,
    refs: list[str],
    rule: Rule,
    create: Mapping[str, tuple[str, int | None]],
    before_write: Callable[[], dict] | None,
    close: list[str],
    request_hash: str,
    reverses: Transaction | None,
    **fields: Any,
) -> Transaction:
    with transaction.atomic():
        accounts = _lock(refs)
        existing = Transaction.objects.filter(idempotency_key=key).first()
        if existing is not None:
            return replay(existing, request_hash)
        missing = [ref for ref in refs if ref not in accounts]
        if missing:
            for ref in missing:
                if ref not in create:
                    raise Refusal("unknown", ref=ref)
                _create_account(ref, *create[ref])
            accounts = _lock(refs)
        legs = _apply_rule(rule, accounts, reverses)
        return _write_with_orm(
            legs=legs,
            accounts=accounts,
            close=set(close),
            before_write=before_write,
            fields={
                "idempotency_key": key,
                "request_hash": request_hash,
                "reverses": reverses,
                "created_at": timezone.now(),
                **fields,
            },
        )


def _apply_rule(rule: Rule, accounts: dict[str, Account], reverses: Transaction | None) -> Legs:
    """The legs of ``rule`` from the locked ``accounts``, or a ``Refusal`` (as ``wallet_post``)."""
    escrow = rule.escrow
    if escrow is not None and rule.name != "legs" and accounts[escrow].closed:
        raise Refusal("closed", escrow=escrow)
    if rule.name in ("legs", "pay_in"):
        if reverses is not None and Transaction.objects.filter(reverses=reverses).exists():
            raise Refusal("reversed")
        return list(rule.legs)
    if rule.name == "refund":
        staked = staking.staked(escrow, [rule.user]).get(rule.user, 0)
        if staked <= 0:
            raise Refusal("nothing", user=rule.user)
        give = staked if rule.amount is None else rule.amount
        if give > staked:
            raise Refusal("over", user=rule.user, staked=staked, asked=give)
        return [(escrow, -give), (f"user:{rule.user}", give)]
    if rule.name == "refund_all":
        current = staking.staked(escrow)  # now final: the escrow is locked
        if not current:
            raise Refusal("empty")
        if sorted(current) != list(rule.users):
            raise Refusal("stakers_changed")
        legs: Legs = [(f"user:{uid}", amount) for uid, amount in sorted(current.items())]
        return [*legs, (escrow, -sum(current.values()))]
    if rule.name == "payout":
        stakers = staking.staked(escrow)
        paid = dict(zip(rule.users, rule.amounts, strict=True))
        strangers = sorted(uid for uid, amount in paid.items() if amount and uid not in stakers)
        if strangers:
            raise Refusal("strangers", users=strangers)
        held = accounts[escrow].balance
        if held == 0:
            raise Refusal("held_zero")
        total = sum(rule.amounts) + rule.house_fee
        if total != held:
            raise Refusal("total", held=held, total=total)
        legs = [(f"user:{uid}", amount) for uid, amount in paid.items()]
        if rule.house_fee:
            legs.append((HOUSE, rule.house_fee))
        return [*legs, (escrow, -held)]
    raise LedgerError(f"internal error: unknown rule {rule.name}")


def _write_with_orm(
    *,
    legs: Legs,
    accounts: dict[str, Account],
    close: set[str],
    before_write: Callable[[], dict] | None,
    fields: dict,
) -> Transaction:
    legs = [(ref, amount) for ref, amount in legs if amount != 0]
    if sum(amount for _, amount in legs) != 0 or len(legs) < 2:
        raise Refusal("unbalanced", legs=legs)
    balances = {ref: accounts[ref].balance for ref in accounts}
    entries = []
    for ref, amount in legs:
        balances[ref] += amount
        entries.append(Entry(account=accounts[ref], amount=amount, balance_after=balances[ref]))
    for ref, balance in balances.items():
        account = accounts[ref]
        if account.kind != AccountKind.SYSTEM and balance < 0:
            needed = account.balance - balance
            raise Refusal("insufficient", ref=ref, held=account.balance, needed=needed)
        if account.kind != AccountKind.SYSTEM and balance > MAX_AMOUNT:
            raise Refusal("too_much", ref=ref, held=account.balance, balance=balance)
        if ref in close and balance != 0:
            raise Refusal("would_keep", ref=ref, balance=balance)

    details = before_write() if before_write else {}
    txn = Transaction(**fields, details=details)
    txn.save(force_insert=True)
    for entry in entries:
        entry.transaction = txn
    Entry.objects.bulk_create(entries)
    for ref, account in accounts.items():
        delta = balances[ref] - account.balance
        closed = ref in close or (account.closed and balances[ref] == 0)
        if delta or closed != account.closed:
            Account.objects.filter(pk=account.pk).update(
                balance=F("balance") + delta, closed=closed
            )
    return txn


def _create_account(ref: str, kind: str, owner: int | None) -> None:
    if kind == AccountKind.WALLET:
        open_wallet_account(owner)
    else:
        # INSERT ... ON CONFLICT DO NOTHING: one round trip, no savepoint; a rival
        # creating the same account makes us wait for its commit, then we lock its row.
        Account.objects.bulk_create([Account(reference=ref, kind=kind)], ignore_conflicts=True)


def open_wallet_account(user_id: int) -> Account:
    if not get_user_model().objects.filter(pk=user_id).exists():
        raise Refusal("unknown_user", user=user_id)
    account, _ = Account.objects.get_or_create(
        reference=f"user:{user_id}",
        defaults={"kind": AccountKind.WALLET, "owner_id": user_id},
    )
    return account
