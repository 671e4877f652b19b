"""The ledger's services on PostgreSQL: money moves, idempotency, refusals that write nothing."""

import pytest
from django.db import connection

from wallet import selectors, services
from wallet.errors import (
    AlreadyReversed,
    EscrowClosed,
    IdempotencyConflict,
    ImmutableEntry,
    InsufficientFunds,
    InvalidAmount,
    InvalidReference,
    LedgerError,
    NothingToRefund,
    PaymentDeclined,
    SettlementMismatch,
    UnknownAccount,
)
from wallet.models import EXTERNAL, HOUSE, Account, Entry, Transaction
from wallet.payments import DemoProvider

pytestmark = pytest.mark.usefixtures("immediate_constraints")


def ledger_size():
    return Transaction.objects.count(), Entry.objects.count(), Account.objects.count()


def balances(*users):
    return [selectors.wallet_balance(u) for u in users]


@pytest.fixture
def four(make_user):
    users = [make_user() for _ in range(4)]
    for u in users:
        services.deposit(user=u, amount=1_000, key=f"dep:{u.pk}")
    return users


def test_deposit_and_withdraw_move_money_against_the_external_account(make_user):
    u = make_user()
    txn = services.deposit(user=u, amount=2_500, key="d1")
    assert txn.details["provider"] == "demo" and txn.details["receipt"].startswith("demo-")
    services.withdraw(user=u, amount=1_000, key="w1")
    assert selectors.wallet_balance(u) == 1_500
    assert Account.objects.get(reference=EXTERNAL).balance == -1_500
    assert [e.amount for e in selectors.wallet_history(u)] == [-1_000, 2_500]
    assert [e.balance_after for e in selectors.wallet_history(u)] == [1_500, 2_500]


def test_repeated_key_returns_the_first_transaction_and_moves_nothing(make_user):
    u = make_user()
    first = services.deposit(user=u, amount=100, key="same")
    size = ledger_size()
    assert services.deposit(user=u, amount=100, key="same") == first
    assert ledger_size() == size
    assert selectors.wallet_balance(u) == 100


def test_stake_refund_and_settle_a_table(four):
    a, b, c, d = four
    for seat, u in enumerate(four):
        services.stake(user=u, table_ref="table:7", amount=100, key=f"stake:7:{seat}")
    assert selectors.escrow_balance("table:7") == 400
    assert selectors.stakes_in("table:7") == {u.pk: 100 for u in four}
    result = {"placements": {"0": 2, "1": 1, "2": 4, "3": 3}, "forfeit": None}

    def settle():
        return services.settle_match(
            table_ref="table:7",
            seat_users=dict(enumerate(four)),
            result=result,
            team_mode=False,
            key="settle:7",
        )

    txn = settle()
    assert txn.kind == "settlement"
    assert balances(a, b, c, d) == [1_020, 1_140, 900, 940]
    assert selectors.escrow_balance("table:7") == 0
    assert selectors.is_escrow_closed("table:7")
    # run again (a retried task): the same transaction, nothing paid twice
    assert settle() == txn
    assert balances(a, b, c, d) == [1_020, 1_140, 900, 940]


def test_settle_with_house_fee_pays_the_house(four):
    a, b, c, d = four
    for seat, u in enumerate(four):
        services.stake(user=u, table_ref="table:8", amount=100, key=f"stake:8:{seat}")
    result = {"placements": {0: 1, 1: 2, 2: 3, 3: 4}}
    services.settle_match(
        table_ref="table:8",
        seat_users=dict(enumerate(four)),
        result=result,
        team_mode=False,
        key="settle:8",
        house_fee_bps=250,
    )
    assert balances(a, b, c, d) == [1_134, 1_017, 939, 900]
    assert Account.objects.get(reference=HOUSE).balance == 10


def test_settle_match_with_bots_and_partnership(four):
    a, b, c, _ = four
    services.stake(user=a, table_ref="table:9", amount=100, key="s9a")
    services.stake(user=b, table_ref="table:9", amount=100, key="s9b")
    services.stake(user=c, table_ref="table:9", amount=100, key="s9c")
    seats = {0: a, 1: b, 2: None, 3: c}  # seat 2 is a bot, partner of a
    result = {"placements": {0: 1, 1: 3, 2: 1, 3: 3}}
    services.settle_match(
        table_ref="table:9", seat_users=seats, result=result, team_mode=True, key="settle:9"
    )
    assert balances(a, b, c) == [1_200, 900, 900]


def test_partnership_draw_refunds_every_stake(four):
    for seat, u in enumerate(four):
        services.stake(user=u, table_ref="table:10", amount=100, key=f"s10:{seat}")
    result = {"placements": {0: 1, 1: 1, 2: 1, 3: 1}}
    txn = services.settle_match(
        table_ref="table:10",
        seat_users=dict(enumerate(four)),
        result=result,
        team_mode=True,
        key="settle:10",
    )
    assert balances(*four) == [1_000] * 4
    assert txn.entries.count() == 5
    assert selectors.is_escrow_closed("table:10")


def test_refund_when_leaving_before_the_start(four):
    a, b, *_ = four
    services.stake(user=a, table_ref="table:11", amount=300, key="s11a")
    services.stake(user=b, table_ref="table:11", amount=300, key="s11b")
    services.refund(user=a, table_ref="table:11", key="r11a")
    assert balances(a, b) == [1_000, 700]
    assert selectors.escrow_balance("table:11") == 300
    assert not selectors.is_escrow_closed("table:11")
    with pytest.raises(NothingToRefund):
        services.refund(user=a, table_ref="table:11", key="r11a-again")
    services.refund(user=b, table_ref="table:11", key="r11b-part", amount=100)
    assert selectors.stakes_in("table:11") == {b.pk: 200}


def test_refund_all_closes_the_escrow(four):
    a, b, *_ = four
    services.stake(user=a, table_ref="table:12", amount=100, key="s12a")
    services.stake(user=b, table_ref="table:12", amount=250, key="s12b")
    services.refund_all(escrow_ref="table:12", key="cancel:12")
    assert balances(a, b) == [1_000, 1_000]
    assert selectors.is_escrow_closed("table:12")
    with pytest.raises(EscrowClosed):
        services.stake(user=a, table_ref="table:12", amount=100, key="s12a-late")


def test_second_settlement_with_another_key_is_refused(four):
    a, b, *_ = four
    services.stake(user=a, table_ref="table:13", amount=100, key="s13a")
    services.stake(user=b, table_ref="table:13", amount=100, key="s13b")
    services.settle(table_ref="table:13", payouts={a: 200, b: 0}, key="settle:13")
    size = ledger_size()
    with pytest.raises(EscrowClosed):
        services.settle(table_ref="table:13", payouts={a: 0, b: 200}, key="settle:13-bis")
    assert ledger_size() == size


def test_tournament_entry_fees_and_prizes(four):
    a, b, c, d = four
    for u in four:
        services.pay_entry_fee(
            user=u, tournament_ref="tournament:3", amount=250, key=f"fee:3:{u.pk}"
        )
    services.refund_entry_fee(user=d, tournament_ref="tournament:3", key="fee-back:3")
    fee = services.house_fee_for(750, 1_000)
    services.award_prizes(
        tournament_ref="tournament:3", prizes={a: 500, b: 175}, key="prizes:3", house_fee=fee
    )
    assert balances(a, b, c, d) == [1_250, 925, 750, 1_000]
    assert Account.objects.get(reference=HOUSE).balance == 75
    assert selectors.is_escrow_closed("tournament:3")


def test_reversal_fixes_a_mistake_without_editing(four):
    a, b, *_ = four
    services.stake(user=a, table_ref="table:14", amount=100, key="s14a")
    services.stake(user=b, table_ref="table:14", amount=100, key="s14b")
    services.settle(table_ref="table:14", payouts={a: 200}, key="settle:14")
    services.reverse(original_key="settle:14", key="undo:14")
    assert balances(a, b) == [900, 900]
    assert selectors.escrow_balance("table:14") == 200
    assert not selectors.is_escrow_closed("table:14")
    services.settle(table_ref="table:14", payouts={b: 200}, key="settle:14-fixed")
    assert balances(a, b) == [900, 1_100]
    with pytest.raises(AlreadyReversed):
        services.reverse(original_key="settle:14", key="undo:14-again")


def test_reversal_cannot_take_money_a_wallet_already_spent(make_user):
    u = make_user()
    services.deposit(user=u, amount=100, key="d")
    services.withdraw(user=u, amount=100, key="w")
    with pytest.raises(InsufficientFunds):
        services.reverse(original_key="d", key="undo-d")


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize("amount", [0, -1, -100, 1.5, 100.0, "100", True, None])
@pytest.mark.parametrize("op", ["deposit", "withdraw", "stake", "entry_fee"])
def test_bad_amounts_are_refused_and_write_nothing(four, op, amount):
    u = four[0]
    size = ledger_size()
    with pytest.raises(InvalidAmount):
        if op == "deposit":
            services.deposit(user=u, amount=amount, key="bad")
        elif op == "withdraw":
            services.withdraw(user=u, amount=amount, key="bad")
        elif op == "stake":
            services.stake(user=u, table_ref="table:1", amount=amount, key="bad")
        else:
            services.pay_entry_fee(user=u, tournament_ref="tournament:1", amount=amount, key="bad")
    assert ledger_size() == size


def test_unknown_accounts_are_refused_and_write_nothing(make_user, four):
    stranger = make_user()  # no wallet
    size = ledger_size()
    with pytest.raises(UnknownAccount):
        services.stake(user=stranger, table_ref="table:1", amount=10, key="k1")
    with pytest.raises(UnknownAccount):
        services.withdraw(user=stranger, amount=10, key="k2")
    with pytest.raises(UnknownAccount):
        services.deposit(user=987_654, amount=10, key="k3")  # no such user
    with pytest.raises(UnknownAccount):
        services.settle(table_ref="table:404", payouts={four[0]: 10}, key="k4")
    with pytest.raises(UnknownAccount):
        services.refund(user=four[0], table_ref="table:404", key="k5")
    with pytest.raises(UnknownAccount):
        services.reverse(original_key="no-such-key", key="k6")
    with pytest.raises(UnknownAccount):
        services.stake(user="alice", table_ref="table:1", amount=10, key="k7")
    assert ledger_size() == size


def test_stake_larger_than_the_balance_is_refused(four):
    size = ledger_size()
    with pytest.raises(InsufficientFunds) as excinfo:
        services.stake(user=four[0], table_ref="table:1", amount=1_001, key="too-much")
    assert "user:" in str(excinfo.value)
    assert ledger_size() == size  # not even the escrow account was left behind
    assert selectors.wallet_balance(four[0]) == 1_000


def test_withdrawal_larger_than_the_balance_is_refused(four):
    size = ledger_size()
    with pytest.raises(InsufficientFunds):
        services.withdraw(user=four[0], amount=1_001, key="too-much")
    assert ledger_size() == size


@pytest.mark.parametrize(
    "second",
    [
        lambda u, v: services.deposit(user=u, amount=101, key="k"),
        lambda u, v: services.deposit(user=v, amount=100, key="k"),
        lambda u, v: services.withdraw(user=u, amount=100, key="k"),
        lambda u, v: services.stake(user=u, table_ref="table:1", amount=100, key="k"),
        lambda u, v: services.deposit(user=u, amount=100, key="k", reference="admin:root"),
    ],
    ids=["other amount", "other user", "other kind", "other escrow", "other reference"],
)
def test_repeated_key_with_different_contents_is_refused(four, second):
    u, v, *_ = four
    services.deposit(user=u, amount=100, key="k")
    size = ledger_size()
    with pytest.raises(IdempotencyConflict):
        second(u, v)
    assert ledger_size() == size


def test_bad_references_and_keys(four):
    u = four[0]
    size = ledger_size()
    for ref in ["", "table", "table:", "tables:1", "tournament:1", "table:1; drop", 12]:
        with pytest.raises(InvalidReference):
            services.stake(user=u, table_ref=ref, amount=10, key="k")
    with pytest.raises(InvalidReference):
        services.pay_entry_fee(user=u, tournament_ref="table:1", amount=10, key="k")
    for key in ["", "   ", None, "x" * 201]:
        with pytest.raises(LedgerError):
            services.stake(user=u, table_ref="table:1", amount=10, key=key)
    assert ledger_size() == size


def test_settlement_must_empty_the_escrow_and_pay_only_stakers(four, make_user):
    a, b, c, _ = four
    services.stake(user=a, table_ref="table:20", amount=100, key="s20a")
    services.stake(user=b, table_ref="table:20", amount=100, key="s20b")
    size = ledger_size()
    with pytest.raises(SettlementMismatch):
        services.settle(table_ref="table:20", payouts={a: 150}, key="k1")  # 50 left behind
    with pytest.raises(SettlementMismatch):
        services.settle(table_ref="table:20", payouts={a: 250}, key="k2")  # money created
    with pytest.raises(SettlementMismatch):
        services.settle(table_ref="table:20", payouts={a: 100, c: 100}, key="k3")  # c did not stake
    with pytest.raises(InvalidAmount):
        services.settle(table_ref="table:20", payouts={a: 300, b: -100}, key="k4")
    with pytest.raises(InvalidAmount):
        services.settle(table_ref="table:20", payouts={a: 200}, key="k5", house_fee=-1)
    assert ledger_size() == size
    assert not selectors.is_escrow_closed("table:20")


def test_declined_payment_writes_nothing(make_user):
    u = make_user()
    size = ledger_size()
    with pytest.raises(PaymentDeclined):
        services.deposit(user=u, amount=500, key="big", provider=DemoProvider(limit=100))
    assert ledger_size() == size
    services.deposit(user=u, amount=500, key="ok")
    with pytest.raises(PaymentDeclined):
        services.withdraw(user=u, amount=500, key="big-out", provider=DemoProvider(limit=100))
    assert selectors.wallet_balance(u) == 500


def test_refund_above_the_stake_is_refused(four):
    services.stake(user=four[0], table_ref="table:21", amount=100, key="s21")
    with pytest.raises(InsufficientFunds):
        services.refund(user=four[0], table_ref="table:21", key="r21", amount=101)


# --------------------------------------------------------------------------- immutability


def test_entries_and_transactions_cannot_be_edited_or_deleted(make_user):
    u = make_user()
    txn = services.deposit(user=u, amount=100, key="d")
    entry = txn.entries.first()
    entry.amount = 1_000_000
    with pytest.raises(ImmutableEntry):
        entry.save()
    with pytest.raises(ImmutableEntry):
        entry.delete()
    with pytest.raises(ImmutableEntry):
        Entry.objects.filter(pk=entry.pk).update(amount=5)
    with pytest.raises(ImmutableEntry):
        Entry.objects.all().delete()
    with pytest.raises(ImmutableEntry):
        txn.save()
    with pytest.raises(ImmutableEntry):
        Transaction.objects.all().delete()


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL triggers")
def test_postgresql_refuses_raw_updates_and_deletes_of_entries(make_user):
    from django.db import DatabaseError, transaction

    u = make_user()
    services.deposit(user=u, amount=100, key="d")
    for sql in [
        "UPDATE wallet_entry SET amount = amount * 2",
        "DELETE FROM wallet_entry",
        "UPDATE wallet_transaction SET kind = 'refund'",
    ]:
        with pytest.raises(DatabaseError, match="append-only"):
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute(sql)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL triggers")
def test_postgresql_refuses_an_unbalanced_transaction(make_user):
    from django.db import DatabaseError, transaction

    u = make_user()
    txn = services.deposit(user=u, amount=100, key="d")
    account = Account.objects.get(reference=f"user:{u.pk}")
    with pytest.raises(DatabaseError, match="not balanced"):
        with transaction.atomic():
            Entry.objects.create(transaction=txn, account=account, amount=5, balance_after=105)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL constraint")
def test_the_database_refuses_a_negative_wallet(make_user):
    from django.db import IntegrityError, transaction

    u = make_user()
    services.deposit(user=u, amount=100, key="d")
    with pytest.raises(IntegrityError, match="balance_not_negative"):
        with transaction.atomic():
            Account.objects.filter(reference=f"user:{u.pk}").update(balance=-1)
