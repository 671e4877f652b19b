"""The broker (Redis) restarts, losing what it held, while a worker is in the middle of a
staked match (issue 13, item 2): the worker stays up, the match finishes and its pot is paid
exactly once. The worker runs as the production recipe (docs/operations.md) runs it (one
solo process, Celery's heartbeat, gossip and mingle on), on a Redis of the test's own."""

from __future__ import annotations

import time

import pytest

from games.models import Table
from tests.games.helpers import new_table, seat_bots
from tests.redis_server import RedisServer
from tests.worker import Worker, new_queue, sending_to
from wallet import selectors as wallet
from wallet import services as ledger
from wallet.models import Transaction
from wallet.payments import DemoProvider

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
    pytest.mark.usefixtures("no_session_worker"),
]


@pytest.fixture
def redis_server():
    server = RedisServer()
    yield server
    server.stop()


def test_the_match_survives_a_broker_restart(redis_server, api):
    alice, bob = api("alice"), api("bob")
    for client in (alice, bob):
        ledger.deposit(
            user=client.user, amount=1000, key=f"fund:{client.user.pk}", provider=DemoProvider()
        )
    queue = new_queue("trix-restart")
    with sending_to(redis_server.url(), queue):
        worker = Worker(queue, broker_url=redis_server.url(), production=True)
        try:
            # Two stakers who never act (timers x0.01: the timeouts play for them), two bots.
            table = new_table(
                alice, "complex", stake=300, choose_timer=2, double_timer=2, play_timer=2
            )
            table_id = table["id"]
            for client, seat in ((alice, 0), (bob, 1)):
                r = client.post(
                    f"/api/tables/{table_id}/seats/",
                    {"seat": seat, "client_seed": f"seed-{seat}"},
                    format="json",
                )
                assert r.status_code == 200, r.content
            seat_bots(alice, table_id, [2, 3])
            for at in (60, 200):  # twice: the second finds the worker's reconnected state
                worker.wait_until(lambda v=at: Table.objects.get(pk=table_id).version > v, 90)
                redis_server.stop()  # with messages queued and held by the worker
                time.sleep(3)
                assert Table.objects.get(pk=table_id).status == "playing"
                redis_server.start()  # empty: whatever it held is gone
            done = worker.wait_until(
                lambda: Table.objects.filter(pk=table_id, settled=True).first(), 180, 0.2
            )
            assert worker.proc.poll() is None, "the worker exited:\n" + worker.tail()
        finally:
            worker.stop()
    assert done.status == "finished"
    settlements = Transaction.objects.filter(reference=f"table:{table_id}", kind="settlement")
    assert settlements.count() == 1
    assert done.events.filter(type="settled").count() == 1
    assert wallet.wallet_balance(alice.user) + wallet.wallet_balance(bob.user) == 2000
    assert wallet.is_escrow_closed(f"table:{table_id}")
