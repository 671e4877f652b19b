"""The limits and exclusions enforced by the wallet (wallet.gates), on both executors, with
time-machine: at the limit, one unit over, raises before and after 24 hours, a week rolling
over, refunds not counted, withdrawals always possible."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from responsible import services
from responsible.models import Exclusion, LimitChange
from wallet import services as wallet
from wallet.errors import Refused
from wallet.selectors import wallet_balance

pytestmark = pytest.mark.usefixtures("ledger_path")

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)  # a Tuesday


@pytest.fixture
def alice(make_user):
    user = make_user()
    with time_machine.travel(T0 - timedelta(days=40), tick=False):
        wallet.deposit(user=user, amount=1_000_000, key="seed")
    return user


def test_exactly_at_the_stake_limit_passes_one_unit_over_is_refused(alice):
    with time_machine.travel(T0, tick=False):
        services.set_limit(user=alice, kind="stake", period="day", amount=5000, by=alice)
        wallet.stake(user=alice, table_ref="table:1", amount=3000, key="s1")
        with pytest.raises(Refused) as refused:
            wallet.stake(user=alice, table_ref="table:2", amount=2001, key="s2")
        assert refused.value.code == "stake_limit"
        assert str(refused.value) == (
            "This stake of 20.01 USD would go over your 24-hour stake limit of 50.00 USD: you "
            "have staked 30.00 USD in that time. It becomes possible at 2026-12-02 12:00 UTC."
        )
        assert refused.value.resets_at == T0 + timedelta(hours=24)
        wallet.stake(user=alice, table_ref="table:2", amount=2000, key="s2b")
    assert wallet_balance(alice) == 1_000_000 - 5000


def test_a_replay_of_an_accepted_stake_is_not_refused(alice):
    with time_machine.travel(T0, tick=False):
        services.set_limit(user=alice, kind="stake", period="day", amount=5000, by=alice)
        first = wallet.stake(user=alice, table_ref="table:1", amount=5000, key="s1")
        assert wallet.stake(user=alice, table_ref="table:1", amount=5000, key="s1").pk == first.pk


def test_a_raise_waits_24_hours_a_lowering_applies_at_once(alice):
    with time_machine.travel(T0, tick=False) as clock:
        services.set_limit(user=alice, kind="stake", period="day", amount=1000, by=alice)
        services.set_limit(user=alice, kind="stake", period="day", amount=9000, by=alice)
        clock.move_to(T0 + timedelta(hours=23, minutes=59))
        with pytest.raises(Refused):
            wallet.stake(user=alice, table_ref="table:1", amount=1001, key="s1")
        clock.move_to(T0 + timedelta(hours=24))
        wallet.stake(user=alice, table_ref="table:1", amount=9000, key="s2")
        services.set_limit(user=alice, kind="stake", period="day", amount=100, by=alice)
        with pytest.raises(Refused) as refused:
            wallet.stake(user=alice, table_ref="table:2", amount=1, key="s3")
        assert "24-hour stake limit of 1.00 USD" in str(refused.value)
    changes = list(LimitChange.objects.filter(user=alice).order_by("asked_at", "id"))
    assert [(c.old_amount, c.new_amount) for c in changes] == [
        (None, 1000),
        (1000, 9000),
        (9000, 100),
    ]
    assert changes[1].effective_at == T0 + timedelta(hours=24)
    assert changes[2].by == alice and not changes[2].by_staff


def test_a_week_rolling_over(alice):
    with time_machine.travel(T0, tick=False) as clock:
        services.set_limit(user=alice, kind="stake", period="week", amount=10_000, by=alice)
        wallet.stake(user=alice, table_ref="table:1", amount=6000, key="s1")
        clock.move_to(T0 + timedelta(days=3))
        wallet.stake(user=alice, table_ref="table:2", amount=4000, key="s2")
        clock.move_to(T0 + timedelta(days=6, hours=23))
        with pytest.raises(Refused) as refused:
            wallet.stake(user=alice, table_ref="table:3", amount=1, key="s3")
        assert refused.value.resets_at == T0 + timedelta(days=7)
        clock.move_to(T0 + timedelta(days=7))
        wallet.stake(user=alice, table_ref="table:3", amount=6000, key="s4")
        with pytest.raises(Refused):
            wallet.stake(user=alice, table_ref="table:4", amount=1, key="s5")


def test_the_lowest_limit_applies_and_entry_fees_count(alice):
    with time_machine.travel(T0, tick=False):
        services.set_limit(user=alice, kind="stake", period="day", amount=10_000, by=alice)
        services.set_limit(user=alice, kind="stake", period="month", amount=3000, by=alice)
        wallet.pay_entry_fee(user=alice, tournament_ref="tournament:1", amount=2000, key="fee")
        with pytest.raises(Refused) as refused:
            wallet.stake(user=alice, table_ref="table:1", amount=1001, key="s1")
        assert "30-day stake limit of 30.00 USD" in str(refused.value)
        wallet.stake(user=alice, table_ref="table:1", amount=1000, key="s2")


def test_a_refunded_stake_does_not_count(alice):
    with time_machine.travel(T0, tick=False):
        services.set_limit(user=alice, kind="stake", period="day", amount=5000, by=alice)
        wallet.stake(user=alice, table_ref="table:1", amount=5000, key="s1")
        wallet.refund(user=alice, table_ref="table:1", key="r1")
        wallet.stake(user=alice, table_ref="table:1", amount=5000, key="s2")  # the same seat again
        wallet.refund_all(escrow_ref="table:1", key="cancel")  # the table is cancelled
        wallet.pay_entry_fee(user=alice, tournament_ref="tournament:1", amount=5000, key="fee")
        wallet.refund_entry_fee(
            user=alice, tournament_ref="tournament:1", key="unreg", amount=4000
        )  # 80% back
        wallet.stake(
            user=alice, table_ref="table:2", amount=4000, key="s3"
        )  # 1000 of the fee was kept: it counts
        with pytest.raises(Refused):
            wallet.stake(user=alice, table_ref="table:3", amount=1, key="s4")


def test_deposit_limit(make_user):
    user = make_user()
    with time_machine.travel(T0, tick=False):
        services.set_limit(user=user, kind="deposit", period="day", amount=10_000, by=user)
        wallet.deposit(user=user, amount=10_000, key="d1")
        with pytest.raises(Refused) as refused:
            wallet.deposit(user=user, amount=1, key="d2")
        assert refused.value.code == "deposit_limit"
        assert "24-hour deposit limit of 100.00 USD" in str(refused.value)
    assert wallet_balance(user) == 10_000


@pytest.mark.parametrize("kind", ["time_out", "self_exclusion"])
def test_excluded_cannot_deposit_or_stake_but_can_withdraw(alice, kind):
    with time_machine.travel(T0, tick=False) as clock:
        if kind == "time_out":
            services.take_time_out(user=alice, days=1, by=alice)
            end = T0 + timedelta(days=1)
        else:
            services.self_exclude(user=alice, months=6, by=alice)
            end = datetime(2027, 6, 1, 12, 0, tzinfo=UTC)
        for door in (
            lambda: wallet.deposit(user=alice, amount=100, key="d"),
            lambda: wallet.stake(user=alice, table_ref="table:1", amount=100, key="s"),
            lambda: wallet.pay_entry_fee(
                user=alice, tournament_ref="tournament:1", amount=100, key="f"
            ),
        ):
            with pytest.raises(Refused) as refused:
                door()
            assert refused.value.resets_at == end
            assert "You can still withdraw." in str(refused.value)
        wallet.withdraw(user=alice, amount=500, key="w")
        assert wallet_balance(alice) == 1_000_000 - 500
        clock.move_to(end - timedelta(seconds=1))
        with pytest.raises(Refused):
            wallet.stake(user=alice, table_ref="table:1", amount=100, key="s")
        clock.move_to(end)
        wallet.stake(user=alice, table_ref="table:1", amount=100, key="s")


def test_a_permanent_self_exclusion(alice):
    with time_machine.travel(T0, tick=False) as clock:
        services.self_exclude(user=alice, months=None, by=alice)
        clock.move_to(T0 + timedelta(days=3650))
        with pytest.raises(Refused) as refused:
            wallet.stake(user=alice, table_ref="table:1", amount=100, key="s")
        assert refused.value.code == "self_excluded" and refused.value.resets_at is None
        assert "permanently" in str(refused.value)


def test_an_exclusion_cannot_be_undone_early(alice, make_user):
    staff = make_user(is_staff=True)
    with time_machine.travel(T0, tick=False):
        services.take_time_out(user=alice, days=7, by=alice)
        # a shorter one asked later does not shorten it
        services.take_time_out(user=alice, days=1, by=alice)
        with time_machine.travel(T0 + timedelta(days=2), tick=False):
            with pytest.raises(Refused) as refused:
                wallet.stake(user=alice, table_ref="table:1", amount=100, key="s")
            assert refused.value.resets_at == T0 + timedelta(days=7)
        # staff cannot impose or lift one through these services; nothing deletes one
        with pytest.raises(services.NotAllowed):
            services.take_time_out(user=alice, days=1, by=staff)
    assert Exclusion.objects.filter(user=alice).count() == 1  # the shorter one made no row
