"""Amounts and balances are bounded by ``wallet.inputs.MAX_AMOUNT`` (issue 13, item 7): an
amount of 2**63 reached PostgreSQL's bigint and raised ``DataError`` (a 500) instead of a
``LedgerError``. At the bound it works; one over is refused with ``InvalidAmount`` and
writes nothing, on both executors (the wallet tests' ``ledger_path``)."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from wallet import selectors, services
from wallet.errors import InvalidAmount
from wallet.inputs import MAX_AMOUNT
from wallet.models import Account, Entry, Transaction
from wallet.payments import DemoProvider

pytestmark = pytest.mark.usefixtures("immediate_constraints")
RICH = DemoProvider(limit=2**64)  # declines nothing: the ledger's own bound is under test


def ledger_size():
    return Transaction.objects.count(), Entry.objects.count(), Account.objects.count()


def test_the_bound_is_far_above_any_stake_and_far_below_bigint():
    assert 10**9 <= MAX_AMOUNT and MAX_AMOUNT * 1_000_000 < 2**63


@pytest.mark.parametrize("amount", [MAX_AMOUNT + 1, 2**63, 2**63 + 1, 2**64, 10**30])
def test_an_amount_over_the_bound_is_refused_by_every_service(make_user, amount):
    alice, bob = make_user(), make_user()
    services.deposit(user=alice, amount=1_000, key="seed", provider=RICH)
    before = ledger_size()
    calls = [
        lambda: services.deposit(user=alice, amount=amount, key="dep", provider=RICH),
        lambda: services.withdraw(user=alice, amount=amount, key="wd", provider=RICH),
        lambda: services.stake(user=alice, table_ref="table:1", amount=amount, key="stake"),
        lambda: services.pay_entry_fee(
            user=alice, tournament_ref="tournament:1", amount=amount, key="fee"
        ),
        lambda: services.refund(user=alice, table_ref="table:1", key="refund", amount=amount),
        lambda: services.settle(table_ref="table:1", payouts={alice: amount}, key="settle"),
        lambda: services.settle(
            table_ref="table:1", payouts={alice: 0}, key="settle-fee", house_fee=amount
        ),
        lambda: services.award_prizes(
            tournament_ref="tournament:1", prizes={bob: amount}, key="prizes"
        ),
    ]
    for call in calls:
        with pytest.raises(InvalidAmount, match="at most"):
            call()
    assert ledger_size() == before


def test_an_amount_at_the_bound_moves(make_user):
    alice = make_user()
    services.deposit(user=alice, amount=MAX_AMOUNT, key="dep", provider=RICH)
    assert selectors.wallet_balance(alice) == MAX_AMOUNT
    services.stake(user=alice, table_ref="table:1", amount=MAX_AMOUNT, key="stake")
    services.refund(user=alice, table_ref="table:1", key="refund")
    services.withdraw(user=alice, amount=MAX_AMOUNT, key="wd", provider=RICH)
    assert selectors.wallet_balance(alice) == 0


def test_a_balance_over_the_bound_is_refused_before_the_provider_is_asked(make_user):
    alice = make_user()
    services.deposit(user=alice, amount=MAX_AMOUNT - 5, key="dep-1", provider=RICH)
    services.deposit(user=alice, amount=5, key="dep-2", provider=RICH)  # exactly at the bound
    before = ledger_size()

    class Watching(DemoProvider):
        asked = 0

        def collect(self, **kwargs):
            Watching.asked += 1
            return super().collect(**kwargs)

    with pytest.raises(InvalidAmount, match="would hold"):
        services.deposit(user=alice, amount=1, key="dep-3", provider=Watching(limit=2**64))
    assert Watching.asked == 0  # no money collected for a deposit that cannot be credited
    assert ledger_size() == before and selectors.wallet_balance(alice) == MAX_AMOUNT


def test_an_escrow_over_the_bound_is_refused(make_user):
    alice, bob = make_user(), make_user()
    for user in (alice, bob):
        services.deposit(user=user, amount=MAX_AMOUNT, key=f"dep:{user.pk}", provider=RICH)
    services.stake(user=alice, table_ref="table:1", amount=MAX_AMOUNT, key="stake-a")
    with pytest.raises(InvalidAmount, match="table:1 would hold"):
        services.stake(user=bob, table_ref="table:1", amount=1, key="stake-b")
    assert selectors.wallet_balance(bob) == MAX_AMOUNT


def test_the_database_refuses_a_balance_over_the_bound(make_user):
    alice = make_user()
    services.deposit(user=alice, amount=1, key="dep", provider=RICH)
    with pytest.raises(IntegrityError), transaction.atomic():
        Account.objects.filter(owner=alice).update(balance=MAX_AMOUNT + 1)
