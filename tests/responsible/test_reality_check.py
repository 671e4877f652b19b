"""The reality check from the ledger: continuous play at staked tables (no pause over 15
minutes), its time and net result, one notice per interval; the API the table page polls."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from rest_framework.test import APIClient

from responsible import selectors, services
from wallet import services as wallet

pytestmark = pytest.mark.django_db
T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
M = timedelta(minutes=1)


def test_continuous_play_time_and_net_result(make_user):
    me, other = make_user(), make_user()
    with time_machine.travel(T0 - 60 * M, tick=False) as clock:
        wallet.deposit(user=me, amount=10_000, key="d1")
        wallet.deposit(user=other, amount=10_000, key="d2")
        wallet.stake(
            user=me, table_ref="table:1", amount=500, key="old"
        )  # an earlier session, over 15 minutes before
        wallet.settle(table_ref="table:1", payouts={me: 500}, key="settle-old")
        clock.move_to(T0)
        wallet.stake(user=me, table_ref="table:2", amount=500, key="s2")
        wallet.stake(user=other, table_ref="table:2", amount=500, key="o2")
        assert selectors.reality_check(me, T0)["minutes_played"] == 0
        clock.move_to(T0 + 40 * M)
        wallet.settle(table_ref="table:2", payouts={me: 1000}, key="settle-2")  # won the pot
        assert selectors.reality_check(me, T0 + 41 * M)["playing"] is False  # between tables
        clock.move_to(T0 + 55 * M)  # 15 minutes later: the same session
        wallet.stake(user=me, table_ref="table:3", amount=300, key="s3")
        check = selectors.reality_check(me, T0 + 59 * M)
        assert check["playing"] and check["due"] == 0
        check = selectors.reality_check(me, T0 + 61 * M)
        assert check["started_at"] == T0 and check["minutes_played"] == 61
        assert (check["staked"], check["returned"], check["net"]) == (800, 1000, 200)
        assert check["due"] == 1 and check["interval_minutes"] == 60
        services.set_reality_check(user=me, minutes=30, by=me)
        assert selectors.reality_check(me, T0 + 61 * M)["due"] == 2

        clock.move_to(T0 + 61 * M)
        client = APIClient()
        client.force_login(me)
        body = client.get("/api/responsible/reality-check/").json()
        assert body["due"] == 2 and body["net"] == 200
        assert body["message"] == (
            "Reality check: you have been playing for 1 h 1 min since 2026-12-01 12:00 UTC. "
            "Net result: 2.00 USD (staked 8.00 USD, paid back 10.00 USD)."
        )


def test_a_pause_over_15_minutes_starts_a_new_session(make_user):
    me = make_user()
    with time_machine.travel(T0, tick=False) as clock:
        wallet.deposit(user=me, amount=10_000, key="d")
        wallet.stake(user=me, table_ref="table:1", amount=500, key="s1")
        wallet.refund(user=me, table_ref="table:1", key="r1")  # left before the start
        clock.move_to(T0 + 16 * M)
        wallet.stake(user=me, table_ref="table:2", amount=500, key="s2")
        check = selectors.reality_check(me, T0 + 80 * M)
        assert check["started_at"] == T0 + 16 * M and check["due"] == 1
        assert check["net"] == -500


def test_not_playing_no_notice(make_user):
    me = make_user()
    client = APIClient()
    client.force_login(me)
    body = client.get("/api/responsible/reality-check/").json()
    assert body["playing"] is False and body["due"] == 0 and body["message"] is None
