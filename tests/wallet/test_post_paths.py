"""The two executors of a posting (``wallet_post`` on PostgreSQL, the ORM elsewhere) agree.

Every test here runs once per executor (``ledger_path`` in conftest): the same refusals
with the same messages, nothing written by a refusal, and on PostgreSQL's function path
one statement per posting outside a transaction.
"""

import pytest
from django.core.management import call_command
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from wallet import posting, rules, selectors, services
from wallet.errors import (
    AlreadyReversed,
    EscrowClosed,
    IdempotencyConflict,
    InsufficientFunds,
    LedgerError,
    NothingToRefund,
    SettlementMismatch,
    UnknownAccount,
)
from wallet.models import Account, Entry, Transaction

from .test_concurrency import outcome, run_together


def ledger_size():
    return Transaction.objects.count(), Entry.objects.count(), Account.objects.count()


@pytest.fixture
def two(make_user, immediate_constraints):
    a, b = make_user(), make_user()
    services.deposit(user=a, amount=1_000, key="dep:a")
    services.deposit(user=b, amount=1_000, key="dep:b")
    return a, b


def test_refusals_have_the_same_messages_on_both_paths(two, make_user):
    a, b = two
    services.stake(user=a, table_ref="table:1", amount=300, key="s1a")
    services.stake(user=b, table_ref="table:1", amount=200, key="s1b")
    stranger = make_user()  # no wallet
    outsider = make_user()
    services.deposit(user=outsider, amount=10, key="dep:outsider")
    cases = [
        (lambda: services.stake(user=a, table_ref="table:1", amount=701, key="x1"),
         InsufficientFunds, f"user:{a.pk} holds 700, 701 needed"),
        (lambda: services.refund(user=a, table_ref="table:1", key="x2", amount=301),
         InsufficientFunds, f"user {a.pk} has 300 in table:1, 301 asked back"),
        (lambda: services.refund(user=stranger, table_ref="table:1", key="x3"), UnknownAccount,
         f"no account user:{stranger.pk}"),
        (lambda: services.deposit(user=10**9, amount=5, key="x4"), UnknownAccount,
         f"no user {10**9}"),
        (lambda: services.settle(table_ref="table:1", payouts={a: 400}, key="x5"),
         SettlementMismatch, "table:1 holds 500; payouts and fee total 400"),
        (lambda: services.settle(table_ref="table:1", payouts={a: 400, outsider: 100}, key="x6"),
         SettlementMismatch, f"users [{outsider.pk}] did not stake in table:1"),
        (lambda: services.stake(user=b, table_ref="table:2", amount=5, key="s1a"),
         IdempotencyConflict,
         "idempotency key 's1a' was used for a different request (stake table:1)"),
    ]  # fmt: skip
    size = ledger_size()
    for call, error, message in cases:
        with pytest.raises(error) as excinfo:
            call()
        assert str(excinfo.value) == message
    assert ledger_size() == size  # not even table:2's escrow was created

    services.stake(user=a, table_ref="table:3", amount=100, key="s3a")
    with pytest.raises(NothingToRefund, match=f"^user {b.pk} has nothing in table:3$"):
        services.refund(user=b, table_ref="table:3", key="x7")
    services.settle(table_ref="table:1", payouts={a: 500}, key="settle:1")
    with pytest.raises(EscrowClosed, match="^table:1 is settled; it takes no more stakes$"):
        services.stake(user=b, table_ref="table:1", amount=5, key="x8")
    with pytest.raises(EscrowClosed, match="^table:1 is settled; nothing can be refunded$"):
        services.refund(user=b, table_ref="table:1", key="x9")
    with pytest.raises(EscrowClosed, match="^table:1 is already settled$"):
        services.settle(table_ref="table:1", payouts={a: 0}, key="x10")
    services.reverse(original_key="s3a", key="undo:s3a")
    with pytest.raises(AlreadyReversed, match="^transaction 's3a' is already reversed$"):
        services.reverse(original_key="s3a", key="undo:s3a-again")
    with pytest.raises(NothingToRefund, match="^table:3 holds no stakes$"):
        services.refund_all(escrow_ref="table:3", key="x11")


def test_legs_that_do_not_balance_are_refused_by_either_executor(two):
    a, _ = two
    size = ledger_size()
    rule = rules.Rule("legs", legs=((f"user:{a.pk}", -10), ("system:external", 11)))
    with pytest.raises(LedgerError, match="internal error"):
        posting.post(
            key="bad-legs",
            kind="withdrawal",
            reference="test",
            request={},
            refs=[f"user:{a.pk}", "system:external"],
            rule=rule,
        )
    assert ledger_size() == size


def test_a_refusal_inside_the_callers_transaction_leaves_the_rest_of_it(two):
    a, _ = two
    with transaction.atomic():
        services.stake(user=a, table_ref="table:5", amount=100, key="s5")
        with pytest.raises(InsufficientFunds):
            services.stake(user=a, table_ref="table:6", amount=5_000, key="s6")
        services.stake(user=a, table_ref="table:5", amount=100, key="s5-more")
    assert selectors.escrow_balance("table:5") == 200
    assert not Account.objects.filter(reference="table:6").exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="the function is PostgreSQL's")
def test_outside_a_transaction_a_posting_is_one_statement(make_user, ledger_path):
    a = make_user()
    services.deposit(user=a, amount=1_000, key="dep")
    with CaptureQueriesContext(connection) as stake:
        services.stake(user=a, table_ref="table:1", amount=100, key="s1")
    with CaptureQueriesContext(connection) as again:
        services.stake(user=a, table_ref="table:1", amount=100, key="s1")
    with CaptureQueriesContext(connection) as refund:
        services.refund(user=a, table_ref="table:1", key="r1")
    if ledger_path == "function":
        # A stake asks wallet.gates under the wallet's lock (issue 16), in one transaction:
        # wallet_post checks, the gates read, wallet_post writes. A replay reads the row and
        # asks no gate; a refund asks none either: one statement.
        def posts(queries):
            return sum("wallet_post" in q["sql"] for q in queries)

        assert posts(stake.captured_queries) == 2 and stake[0]["sql"] == "BEGIN"
        assert posts(again.captured_queries) == 1
        assert not [q for q in again.captured_queries if "accounts_" in q["sql"]]
        assert len(refund) == 1 and "wallet_post" in refund[0]["sql"]
    else:
        assert len(stake) >= 6 and len(refund) >= 5
        sql = [q["sql"] for q in [*stake.captured_queries, *refund.captured_queries]]
        assert not [s for s in sql if "wallet_post" in s or "wallet_staked" in s]
    assert selectors.wallet_balance(a) == 1_000
    call_command("ledger_check", verbosity=0)


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="needs real row locks")
@pytest.mark.timeout(120)
def test_the_same_stake_from_ten_threads_moves_money_once(make_user):
    u = make_user()
    services.deposit(user=u, amount=1_000, key="dep")
    results = run_together(
        10, lambda i: services.stake(user=u, table_ref="table:7", amount=300, key="stake:7")
    )
    assert outcome(results) == {"Transaction": 10}
    assert len({r.pk for r in results}) == 1
    assert selectors.wallet_balance(u) == 700

    def stake_or_refund(i):
        if i % 2:
            return services.stake(user=u, table_ref="table:7", amount=100 + i, key=f"more:{i}")
        return services.refund(user=u, table_ref="table:7", key=f"back:{i}", amount=50)

    results = run_together(10, stake_or_refund)
    assert set(outcome(results)) <= {"Transaction", "InsufficientFunds"}
    refunds = sum(1 for i, r in enumerate(results) if i % 2 == 0 and hasattr(r, "pk"))
    stakes = sum(100 + i for i, r in enumerate(results) if i % 2 and hasattr(r, "pk"))
    assert selectors.wallet_balance(u) == 700 - stakes + 50 * refunds
    assert selectors.stakes_in("table:7") == {u.pk: 300 + stakes - 50 * refunds}
    call_command("ledger_check", verbosity=0)
