"""Concurrency on real PostgreSQL: row locks keep wallets non-negative and pay each pot once.

Each thread has its own database connection and commits for real
(``transaction=True``), so the deferred balance trigger fires too.
"""

import threading
from collections import Counter

import pytest
from django.core.management import call_command
from django.db import close_old_connections, connection

from wallet import selectors, services
from wallet.errors import EscrowClosed, IdempotencyConflict, InsufficientFunds
from wallet.models import Account, Entry, Transaction

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs real row locks"),
    pytest.mark.timeout(120),
]


def run_together(n, work):
    """Run ``work(i)`` in ``n`` threads released at once; return each result or exception."""
    barrier = threading.Barrier(n)
    results = [None] * n

    def target(i):
        try:
            barrier.wait()
            results[i] = work(i)
        except Exception as exc:  # noqa: BLE001 -- the test inspects it
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=target, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    close_old_connections()
    return results


def outcome(results):
    return Counter(type(r).__name__ for r in results)


def test_twenty_threads_stake_one_wallet_with_funds_for_seven(make_user):
    u = make_user()
    services.deposit(user=u, amount=700, key="dep")

    results = run_together(
        20, lambda i: services.stake(user=u, table_ref="table:1", amount=100, key=f"stake:{i}")
    )

    assert outcome(results) == {"Transaction": 7, "InsufficientFunds": 13}
    for r in results:
        if isinstance(r, InsufficientFunds):
            assert f"user:{u.pk}" in str(r)
    assert selectors.wallet_balance(u) == 0
    assert selectors.escrow_balance("table:1") == 700
    assert Entry.objects.filter(account__reference=f"user:{u.pk}").count() == 8
    call_command("ledger_check", verbosity=0)


def test_twenty_threads_stake_twenty_new_tables(make_user):
    """Escrows created concurrently while the wallet is contended."""
    u = make_user()
    services.deposit(user=u, amount=1_000, key="dep")
    results = run_together(
        20, lambda i: services.stake(user=u, table_ref=f"table:{i}", amount=75, key=f"stake:{i}")
    )
    assert outcome(results) == {"Transaction": 13, "InsufficientFunds": 7}
    assert selectors.wallet_balance(u) == 25
    assert Account.objects.filter(kind="escrow").count() == 13  # refused stakes left none
    call_command("ledger_check", verbosity=0)


@pytest.fixture
def staked_table(make_user):
    users = [make_user() for _ in range(4)]
    for seat, u in enumerate(users):
        services.deposit(user=u, amount=1_000, key=f"dep:{seat}")
        services.stake(user=u, table_ref="table:9", amount=250, key=f"stake:9:{seat}")
    return users


def test_the_same_settlement_from_eight_threads_pays_once(staked_table):
    users = staked_table
    result = {"placements": {"0": 3, "1": 1, "2": 2, "3": 4}, "forfeit": None}
    seats = dict(enumerate(users))

    results = run_together(
        8,
        lambda i: services.settle_match(
            table_ref="table:9",
            seat_users=seats,
            result=result,
            team_mode=False,
            key="settle:table:9",
        ),
    )

    assert outcome(results) == {"Transaction": 8}
    assert len({r.pk for r in results}) == 1
    assert Transaction.objects.filter(kind="settlement").count() == 1
    assert [selectors.wallet_balance(u) for u in users] == [850, 1_350, 1_050, 750]
    assert selectors.escrow_balance("table:9") == 0
    call_command("ledger_check", verbosity=0)


def test_rival_settlements_with_different_keys_pay_once(staked_table):
    users = staked_table
    results = run_together(
        6,
        lambda i: services.settle(
            table_ref="table:9", payouts={users[i % 4]: 1_000}, key=f"settle:{i}"
        ),
    )
    assert outcome(results) == {"Transaction": 1, "EscrowClosed": 5}
    assert all(isinstance(r, EscrowClosed) for r in results if not hasattr(r, "pk"))
    assert sum(selectors.wallet_balance(u) for u in users) == 4_000
    call_command("ledger_check", verbosity=0)


def test_same_key_different_contents_from_many_threads(make_user):
    users = [make_user() for _ in range(6)]
    results = run_together(
        6, lambda i: services.deposit(user=users[i], amount=100 + i, key="shared-key")
    )
    assert outcome(results) == {"Transaction": 1, "IdempotencyConflict": 5}
    assert all(isinstance(r, IdempotencyConflict) for r in results if not hasattr(r, "pk"))
    assert Transaction.objects.count() == 1
    call_command("ledger_check", verbosity=0)


def test_settlements_locking_the_same_wallets_in_any_order_never_deadlock(make_user):
    users = [make_user() for _ in range(4)]
    for u in users:
        services.deposit(user=u, amount=10_000, key=f"dep:{u.pk}")
    tables = range(10)
    for t in tables:
        order = users if t % 2 else list(reversed(users))
        for u in order:
            services.stake(user=u, table_ref=f"table:{t}", amount=100, key=f"stake:{t}:{u.pk}")

    def settle(t):
        seats = dict(enumerate(users if t % 2 else list(reversed(users))))
        result = {"placements": {0: 1, 1: 2, 2: 3, 3: 4}}
        return services.settle_match(
            table_ref=f"table:{t}",
            seat_users=seats,
            result=result,
            team_mode=False,
            key=f"settle:{t}",
        )

    results = run_together(10, settle)
    assert outcome(results) == {"Transaction": 10}
    assert sum(selectors.wallet_balance(u) for u in users) == 40_000
    call_command("ledger_check", verbosity=0)
