"""ledger_check passes on a sound ledger and names every kind of injected corruption."""

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from wallet import services
from wallet.models import Account

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="corruption is injected past PostgreSQL's guards"
)


@pytest.fixture
def ledger(make_user, immediate_constraints):
    a, b = make_user(), make_user()
    services.deposit(user=a, amount=1_000, key="da")
    services.deposit(user=b, amount=1_000, key="db")
    services.stake(user=a, table_ref="table:1", amount=100, key="s1a")
    services.stake(user=b, table_ref="table:1", amount=100, key="s1b")
    services.settle(table_ref="table:1", payouts={a: 200}, key="settle1")
    services.stake(user=a, table_ref="table:2", amount=50, key="s2a")  # an open table
    services.withdraw(user=b, amount=300, key="wb")
    return a, b


def raw(*statements):
    """Write past the triggers, as a buggy script or a hand edit in psql would."""
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL session_replication_role = replica")
        for sql, params in statements:
            cursor.execute(sql, params)
        cursor.execute("SET LOCAL session_replication_role = origin")


def run_check():
    from io import StringIO

    out = StringIO()
    try:
        call_command("ledger_check", stdout=out)
    except CommandError as exc:
        return False, out.getvalue() + str(exc)
    return True, out.getvalue()


def account_id(ref):
    return Account.objects.get(reference=ref).pk


def test_sound_ledger_passes(ledger):
    ok, out = run_check()
    assert ok, out
    assert "all checks passed" in out


def test_empty_ledger_passes(db):
    assert run_check()[0]


@pytest.mark.ledger_corrupted
def test_unbalanced_transaction_is_found(ledger):
    a, _ = ledger
    wallet = account_id(f"user:{a.pk}")
    raw(
        (
            "INSERT INTO wallet_entry (transaction_id, account_id, amount, balance_after) "
            "SELECT id, %s, 7, 1057 FROM wallet_transaction WHERE idempotency_key = 's2a'",
            [wallet],
        ),
        ("UPDATE wallet_account SET balance = balance + 7 WHERE id = %s", [wallet]),
    )
    ok, out = run_check()
    assert not ok
    assert "FAIL transactions balanced" in out and "'s2a'" in out
    assert "FAIL deposits - withdrawals = money held" in out


@pytest.mark.ledger_corrupted
def test_stored_balance_off_by_one_is_found(ledger):
    a, _ = ledger
    raw(("UPDATE wallet_account SET balance = balance + 1 WHERE reference = %s", [f"user:{a.pk}"]))
    ok, out = run_check()
    assert not ok
    assert f"account user:{a.pk}: stored balance" in out
    assert "exit" not in out
    assert "1 of 7 checks failed" in out or "checks failed" in out


@pytest.mark.ledger_corrupted
def test_negative_wallet_is_found(ledger):
    _, b = ledger
    wallet = account_id(f"user:{b.pk}")
    with connection.cursor() as cursor:
        cursor.execute(
            "ALTER TABLE wallet_account DROP CONSTRAINT wallet_account_balance_not_negative"
        )
    raw(
        ("UPDATE wallet_account SET balance = -5 WHERE id = %s", [wallet]),
    )
    ok, out = run_check()
    assert not ok
    assert f"wallet user:{b.pk} is negative: -5" in out


@pytest.mark.ledger_corrupted
def test_money_left_in_a_closed_escrow_is_found(ledger):
    raw(("UPDATE wallet_account SET closed = true WHERE reference = 'table:2'", []))
    ok, out = run_check()
    assert not ok
    assert "closed escrow table:2 still holds 50" in out


@pytest.mark.ledger_corrupted
def test_money_created_out_of_nothing_is_found(ledger):
    a, _ = ledger
    # a balanced but bogus "stake" that mints money from the outside world
    raw(
        (
            "INSERT INTO wallet_entry (transaction_id, account_id, amount, balance_after) "
            "SELECT id, %s, -500, -500 FROM wallet_transaction WHERE idempotency_key = 's2a'",
            [account_id("system:external")],
        ),
        (
            "INSERT INTO wallet_entry (transaction_id, account_id, amount, balance_after) "
            "SELECT id, %s, 500, 1550 FROM wallet_transaction WHERE idempotency_key = 's2a'",
            [account_id(f"user:{a.pk}")],
        ),
    )
    ok, out = run_check()
    assert not ok
    assert "stake transactions move money to or from the outside world" in out


@pytest.mark.ledger_corrupted
def test_edited_history_is_found(ledger):
    a, _ = ledger
    raw(
        (
            "UPDATE wallet_entry SET amount = 900, balance_after = 900 WHERE transaction_id = "
            "(SELECT id FROM wallet_transaction WHERE idempotency_key = 'da') AND amount > 0",
            [],
        )
    )
    ok, out = run_check()
    assert not ok
    assert "running balance" in out and "entries summing to -100" in out


@pytest.mark.ledger_corrupted
def test_disabled_trigger_is_found(ledger):
    with connection.cursor() as cursor:
        cursor.execute("ALTER TABLE wallet_entry DISABLE TRIGGER wallet_entry_immutable")
    ok, out = run_check()
    assert not ok
    assert "wallet_entry_immutable is missing or disabled" in out
