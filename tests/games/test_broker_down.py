"""The broker is down while players act (issue 13, item 3): the change is saved and the
request answers as usual (a seat 200 with the stake moved and the match started, an action
202 applied), never a 500; once the broker is back the beat's sweep re-sends what was not
sent (the first deal's wake-up) and the match moves on. An action needs no broker: the
request applies it."""

from __future__ import annotations

import pytest

from games.models import Table, TableAction
from tests.games.helpers import new_table, wait_until
from tests.redis_server import RedisServer
from tests.worker import Worker, new_queue, sending_to
from wallet import selectors as wallet
from wallet import services as ledger
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


def _to_act(clients, table_id):
    """The (client, state) of a seat with a legal action now, or None."""
    for client in clients:
        body = client.get(f"/api/tables/{table_id}/state/").json()
        if body["view"] and body["view"]["legal"]:
            return client, body
    return None


def test_sends_that_find_no_broker_do_not_fail_the_request(redis_server, api):
    clients = [api(name) for name in ("alice", "bob", "carol", "dave")]
    for client in clients:
        ledger.deposit(
            user=client.user, amount=1000, key=f"fund:{client.user.pk}", provider=DemoProvider()
        )
    queue = new_queue("trix-down")
    with sending_to(redis_server.url(), queue):
        worker = Worker(queue, broker_url=redis_server.url())
        try:
            table = new_table(
                clients[0], "complex", stake=100, choose_timer=3600, double_timer=3600,
                play_timer=3600,
            )  # fmt: skip
            table_id = table["id"]
            for seat, client in enumerate(clients[:3]):
                r = client.post(
                    f"/api/tables/{table_id}/seats/",
                    {"seat": seat, "client_seed": f"seed-{seat}"},
                    format="json",
                )
                assert r.status_code == 200, r.content

            redis_server.stop()
            # The fourth seat starts the match: its wake-up cannot be sent.
            r = clients[3].post(
                f"/api/tables/{table_id}/seats/",
                {"seat": 3, "client_seed": "seed-3"},
                format="json",
            )
            assert r.status_code == 200, r.content
            assert r.json()["status"] == "playing"
            assert wallet.wallet_balance(clients[3].user) == 900
            assert Table.objects.get(pk=table_id).seats.get(seat=3).user == clients[3].user

            redis_server.start()  # the sweep re-sends the lost wake-up: the first deal
            client, body = wait_until(lambda: _to_act(clients, table_id), 60, 0.2)

            redis_server.stop()
            action = {k: v for k, v in body["view"]["legal"][0].items() if k != "seat"}
            payload = {"id": "6f1c7a52-0d5e-4c1b-9a57-8d0f3c2b1a00", "version": body["version"]}
            payload["action"] = action
            r = client.post(f"/api/tables/{table_id}/actions/", payload, format="json")
            assert r.status_code == 202, r.content
            assert r.json()["status"] == "applied"
            applied = TableAction.objects.get(pk=payload["id"])
            assert applied.status == "applied"
            assert Table.objects.get(pk=table_id).version == applied.applied_version

            assert worker.proc.poll() is None, worker.tail()
        finally:
            worker.stop()
