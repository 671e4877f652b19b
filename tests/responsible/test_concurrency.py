"""Two stakes at once cannot both pass a limit: the gate runs under the wallet's row lock.

Each thread has its own connection and commits for real (``transaction=True``); a barrier
releases them together. Whatever the interleaving, the second to lock the wallet sees the
first's stake."""

import threading
from datetime import UTC, datetime

import pytest
import time_machine
from django.db import close_old_connections, connection

from responsible import services
from wallet import services as wallet
from wallet.errors import Refused
from wallet.selectors import in_play

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs real row locks"),
    pytest.mark.timeout(120),
    pytest.mark.usefixtures("ledger_path"),
]


def run_together(n, work):
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


def test_two_stakes_at_once_cannot_both_pass_a_limit(make_user):
    user = make_user()
    with time_machine.travel(datetime(2026, 12, 1, 12, 0, tzinfo=UTC), tick=False):
        wallet.deposit(user=user, amount=100_000, key="dep")
        services.set_limit(user=user, kind="stake", period="day", amount=5000, by=user)
        results = run_together(
            2,
            lambda i: wallet.stake(
                user=user, table_ref=f"table:{i + 1}", amount=3000, key=f"stake:{i}"
            ),
        )
    refused = [r for r in results if isinstance(r, Refused)]
    assert len(refused) == 1, results
    assert refused[0].code == "stake_limit"
    assert in_play(user) == 3000
