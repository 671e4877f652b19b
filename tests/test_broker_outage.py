"""The Redis transport when the broker goes away under a consumer (issue 13, item 2: the worker
survives a broker restart). Each test runs a ``redis-server`` of its own, kills it (SIGKILL,
as a crash would) and starts it again, empty, on the same port, on the production transport
options (``CELERY_BROKER_TRANSPORT_OPTIONS``).

Found when ``tests/games/test_broker_restart.py`` failed in CI: the solo worker stayed up but
never took another task after a restart, logging nothing after "Couldn't ack". Two faults
together made it: the failed ack kept the worker's only prefetch slot (so no BRPOP, whose
error would have reported the lost connection) and redis-py reconnected the pub/sub
connection in place, then blocked in a read. Each has a test of its own here; the last test
plays the scenario through a real worker."""

from __future__ import annotations

import contextlib
import threading
import time

import pytest
from django.conf import settings
from kombu import Connection, Exchange, Queue

from tests.outage_app import nap
from tests.redis_server import RedisServer
from tests.worker import Worker, new_queue, sending_to
from trix_site.broker import RedisTransport


@pytest.fixture
def redis_server():
    server = RedisServer()
    yield server
    server.stop()


def _connection(server: RedisServer) -> Connection:
    assert settings.CELERY_BROKER_URL.startswith("redis://"), "the tests run on Redis"
    return Connection(
        server.url(),
        transport=RedisTransport,
        transport_options=settings.CELERY_BROKER_TRANSPORT_OPTIONS,
    )


@pytest.mark.parametrize(
    "settle",
    [lambda m: m.ack(), lambda m: m.reject(requeue=False), lambda m: m.reject(requeue=True)],
    ids=["ack", "reject", "requeue"],
)
def test_a_settlement_lost_with_the_broker_frees_the_prefetch_slot(redis_server, settle):
    """A worker's prefetch count is 1 (CELERY_WORKER_PREFETCH_MULTIPLIER): a task's message
    holds the only slot until it is acknowledged or rejected. kombu 5.7 updates Redis's index
    of unacknowledged messages before it frees the slot, so one that found the broker gone
    left the slot taken for ever: the channel never asked for another message. The error
    still reaches the caller (Celery logs it: "Couldn't ack")."""
    queue = Queue("outage", Exchange("outage"), routing_key="outage")
    received = []
    with _connection(redis_server) as conn:
        conn.Producer().publish({"n": 1}, routing_key="outage", declare=[queue])
        channel = conn.channel()
        with conn.Consumer([queue], channel=channel, callbacks=[lambda _b, m: received.append(m)]):
            channel.basic_qos(0, 1, False)
            conn.drain_events(timeout=5)
            assert len(received) == 1
            assert not channel.qos.can_consume()
            redis_server.stop()
            with pytest.raises(conn.connection_errors):
                settle(received[0])
            assert channel.qos.can_consume()


def test_a_broadcast_read_after_a_restart_raises_instead_of_blocking(redis_server):
    """A worker's event loop reads its broadcast subscriptions (gossip, remote control: Redis
    pub/sub) when their socket is readable. If Redis went away and is back by then, the read
    must report the lost connection (Celery then reconnects and resubscribes), not reconnect
    in place: redis-py's retry (``retry_on_timeout``) did, without resubscribing, and then
    waited for a message (``PubSub.parse_response(block=True)``), blocking the worker's only
    thread for ever."""
    broadcast = Queue("outage-bcast", Exchange("outage-bcast", type="fanout"), auto_delete=True)
    outcome: list[object] = []
    with _connection(redis_server) as conn:
        with conn.Consumer([broadcast], callbacks=[lambda _b, m: m.ack()]):
            with contextlib.suppress(TimeoutError):
                conn.drain_events(timeout=0.5)  # subscribed, its confirmation read
            redis_server.stop()
            redis_server.start()  # back before the loop reads the dead socket
            time.sleep(0.2)

            def drain():
                try:
                    conn.drain_events(timeout=2)
                    outcome.append("returned")
                except conn.connection_errors as exc:
                    outcome.append(exc)
                except TimeoutError:
                    outcome.append("timed out")

            reader = threading.Thread(target=drain, daemon=True)
            reader.start()
            reader.join(10)
            blocked = reader.is_alive()
            if blocked:  # free the thread: its read ends when the server goes
                redis_server.stop()
                reader.join(10)
    assert not blocked, "the read blocked on a connection made again in place"
    assert len(outcome) == 1 and isinstance(outcome[0], Exception), outcome


@pytest.mark.slow
def test_a_worker_takes_tasks_again_after_a_restart_during_one(redis_server, tmp_path):
    """The scenario of the CI failure, through the production recipe's worker (one solo
    process, gossip and remote control on): Redis dies while the worker runs a task, the
    task ends and its ack fails, Redis comes back empty; the worker must take the next
    task. Before the two fixes above it never did (either fix alone avoids it here)."""
    log = tmp_path / "naps"
    log.touch()
    queue = new_queue("trix-outage")
    with sending_to(redis_server.url(), queue):
        worker = Worker(
            queue, broker_url=redis_server.url(), production=True, app="tests.outage_app",
            beat=False,
        )  # fmt: skip
        try:
            nap.delay(5, "first", str(log))
            worker.wait_until(lambda: "start first" in log.read_text(), 30, 0.02)
            redis_server.stop()
            worker.wait_until(lambda: "Couldn't ack" in worker.tail(100_000), 30)
            redis_server.start()
            time.sleep(1)
            nap.delay(0, "second", str(log))
            worker.wait_until(lambda: "end second" in log.read_text(), 60)
            assert worker.proc.poll() is None, "the worker exited:\n" + worker.tail()
        finally:
            worker.stop(kill=True)
