"""Every money movement of a table: the games app's only door to the ledger
(``wallet.services``).

Stakes are integer minor units. Every call carries an idempotency key derived from the
table, the seat and the join, so a retried task or request moves money once:

- :func:`stake` when a user takes a seat at a staked table;
- :func:`refund` when they leave it before the match starts;
- :func:`refund_all` when a table is cancelled;
- :func:`pay_pot` (a worker) exactly once when the match ends (normally or by forfeit): the
  pot is split by ``wallet.settlement.split_pot`` inside ``wallet.services.settle_match``.

The two that pay the escrow out (:func:`pay_pot`, :func:`refund_all`) append the
``match-payout`` entry of the public log in the same database transaction as the ledger's:
the match id, the ledger transaction's id, per seat the stake and the amount paid, and the
house fee, read back from the ledger transaction itself (``wallet.payouts``; docs/fairness.md,
"Payouts"). ``manage.py ledger_check`` compares every such entry with the ledger
(``games.ledger_checks``).

:func:`format_money` (the ledger's) writes amounts in messages. Free tables (stake 0) never
touch the ledger. Errors come out as :class:`StakeError` with
the ledger's message, or for a short wallet one a player can act on ("Your wallet holds
3.00 USD; this table's stake is 5.00 USD. Add money in /wallet/.").
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engine import Options
from games.errors import NotFound
from games.fairness.errors import FairnessError
from games.models import MatchRecord, Table, TableStatus
from games.services import changes, fairness_log
from wallet import gates, payouts
from wallet import services as _wallet
from wallet.errors import InsufficientFunds, LedgerError, Refused, UnknownAccount
from wallet.selectors import format_money, wallet_balance


class StakeError(Exception):
    """The ledger refused: short balance, closed escrow, no wallet (``code``: the rule, or
    None). Nothing moved."""

    def __init__(self, message: str, code: str | None = None):
        super().__init__(message)
        self.code = code


class StakeRefused(StakeError):
    """The player may not stake now (``wallet.gates``: identity not verified, account
    suspended, a stake limit, a time-out, a self-exclusion): ``code`` names the rule, the
    message says what to do (and when a limit resets). Nothing moved."""

    def __init__(self, message: str, code: str):
        super().__init__(message)
        self.code = code


def _require_wallet():
    return _wallet


def _short_of(balance: int, amount: int) -> StakeError:
    """The refusal of a stake of ``amount`` a wallet holding ``balance`` cannot pay."""
    return StakeError(
        _("Your wallet holds %(balance)s; this table's stake is %(stake)s. Add money in /wallet/.")
        % {"balance": format_money(balance), "stake": format_money(amount)}
    )


def _cannot_stake(amount: int, exc: Exception) -> str:
    """The refusal of a stake of ``amount`` (minor units) the ledger gave as ``exc``."""
    return _("cannot stake %(amount)s: %(reason)s") % {"amount": amount, "reason": exc}


def check_gates(*, user: Any, amount: int) -> None:
    """Whether ``wallet.gates`` lets ``user`` stake ``amount`` (minor units) now: identity,
    suspension, limits, breaks (the door every stake passes). Raises :class:`StakeRefused`;
    moves nothing."""
    if amount <= 0:
        return
    try:
        gates.check_stake(user_id=user.pk, amount=amount, now=timezone.now())
    except Refused as exc:
        raise StakeRefused(str(exc), exc.code) from exc


def check_stake(*, user: Any, amount: int) -> None:
    """Whether ``user`` could stake ``amount`` (minor units) now, asked before anything is
    made for the stake (quick play makes a table only for a player who could sit at it):
    :func:`check_gates`, then the balance. Raises :class:`StakeRefused` or
    :class:`StakeError` as :func:`stake` would; moves nothing (the stake itself asks again,
    in its transaction)."""
    if amount <= 0:
        return
    check_gates(user=user, amount=amount)
    balance = wallet_balance(user)
    if balance < amount:
        raise _short_of(balance, amount)


def stake(*, user: Any, table_ref: str, amount: int, key: str) -> None:
    """Move ``amount`` from the user's wallet into the table's escrow. Raises StakeError
    (:class:`StakeRefused` when ``wallet.gates`` refuses the player)."""
    if amount <= 0:
        return
    try:
        _require_wallet().stake(user=user, table_ref=table_ref, amount=amount, key=key)
    except Refused as exc:
        raise StakeRefused(str(exc), exc.code) from exc
    except InsufficientFunds as exc:
        raise _short_of(wallet_balance(user), amount) from exc
    except UnknownAccount as exc:
        if wallet_balance(user) == 0:  # no wallet yet (never deposited): short, not "no account"
            raise _short_of(0, amount) from exc
        raise StakeError(_cannot_stake(amount, exc)) from exc
    except LedgerError as exc:
        raise StakeError(_cannot_stake(amount, exc)) from exc


def refund(*, user: Any, table_ref: str, amount: int, key: str) -> None:
    """Give the user's stake at this table back (leaving before the start)."""
    if amount <= 0:
        return
    try:
        _require_wallet().refund(user=user, table_ref=table_ref, key=key)
    except LedgerError as exc:
        raise StakeError(_("cannot refund: %(reason)s") % {"reason": exc}) from exc


def refund_all(*, table: Table, key: str) -> None:
    """Give every staker of the locked ``table`` back their stake and close the escrow (table
    cancelled); the refund enters the log as the match's ``match-payout`` (reason
    ``refund``)."""
    try:
        paid = _require_wallet().refund_all(escrow_ref=table.ref, key=key, memo="table cancelled")
    except LedgerError as exc:
        raise StakeError(_("cannot refund the table: %(reason)s") % {"reason": exc}) from exc
    log_payout(table, paid.pk, "refund")


def _match_id(table: Table) -> str | None:
    """The id the log and the receipts name ``table``'s match by (None for a table without a
    match record, which the site never makes)."""
    if table.receipt:
        return table.receipt["match_id"]
    rows = MatchRecord.objects.filter(table=table).values_list("shuffle__match_id", flat=True)
    return rows.first()


def log_payout(table: Table, transaction_id: int, reason: str) -> None:
    """Append the ``match-payout`` entry of ledger transaction ``transaction_id``, which just
    paid the escrow of the locked ``table`` out, in the caller's database transaction: seats
    for accounts (the receipt's names, never a person's). Raises :class:`StakeError` when a
    staker holds no seat or the ledger moved money the entry cannot say (nothing is then
    committed: not the payout either)."""
    mid = _match_id(table)
    if mid is None:
        return
    seat_of = {s.user_id: s.seat for s in changes.seats(table) if s.user_id is not None}
    try:
        stakes, paid, house_fee = payouts.keyed(transaction_id, seat_of, "holding no seat")
        fairness_log.append(
            [
                fairness_log.match_payout(
                    match_id=mid,
                    reason=reason,
                    transaction=transaction_id,
                    stakes=stakes,
                    payouts=paid,
                    house_fee=house_fee,
                )
            ]
        )
    except (payouts.UndescribedPayout, FairnessError) as exc:
        raise StakeError(_("cannot log the payout: %(reason)s") % {"reason": exc}) from exc


def _settle_match(
    table_ref: str, seat_users: dict[int, Any], result: dict[str, Any], team_mode: bool, key: str
) -> int:
    """Pay the pot out by the engine's ``result`` (placements, forfeit) once, and close the
    escrow. ``seat_users`` maps seat -> user (None for a bot). Returns the ledger
    transaction's id. Raises StakeError."""
    try:
        paid = _require_wallet().settle_match(
            table_ref=table_ref, seat_users=seat_users, result=result, team_mode=team_mode, key=key
        )
    except LedgerError as exc:
        raise StakeError(_("cannot settle: %(reason)s") % {"reason": exc}) from exc
    return paid.pk


def pay_pot(*, table_id: int) -> None:
    """Worker: pay a finished staked table's pot by its result, exactly once (idempotency key
    ``settle:table:<id>``; the ``settled`` event records the pot in minor units), and log it
    (``match-payout``, reason ``result``) in the same database transaction. A no-op for an
    unknown, unfinished, free or already paid table. Raises :class:`StakeError` (the task
    retries)."""
    with transaction.atomic():
        try:
            table = changes.lock_table(table_id)
        except NotFound:
            return
        if table.settled or table.status != TableStatus.FINISHED or table.stake <= 0:
            return
        seats = changes.seats(table)
        seat_users = {s.seat: s.user_id for s in seats if s.user_id and s.staked}
        if seat_users:
            paid = _settle_match(
                table.ref,
                seat_users,
                table.result,
                Options(variant=table.variant).partnership,
                f"settle:{table.ref}",
            )
            log_payout(table, paid, "result")
        table.settled = True
        changes.add_events(table, [{"type": "settled", "pot": sum(s.staked for s in seats)}])
        table.save(update_fields=["settled", "version"])
