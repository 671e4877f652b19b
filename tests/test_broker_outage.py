"""The Redis transport when the broker goes away under a consumer (issue 13, item 2: the worker
survives a broker restart). Each test runs a ``redis-server`` of its own, kills it (SIGKILL,
as a crash would) and starts it again, empty, on the same port, and checks the state a
Celery worker's event loop depends on: kombu's Redis channel, on the production transport
options (``CELERY_BROKER_TRANSPORT_OPTIONS``).

Both were found when ``tests/games/test_broker_restart.py`` failed in CI: the solo worker
stopped consuming for good after a restart, with no error after "Couldn't ack"."""

from __future__ import annotations

import logging
import time

import pytest
from django.conf import settings
from kombu import Connection, Exchange, Queue

from tests.games.helpers import wait_until
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


def test_an_ack_lost_with_the_broker_frees_the_prefetch_slot(redis_server):
    """A worker's prefetch count is 1 (CELERY_WORKER_PREFETCH_MULTIPLIER): a task's message
    holds the only slot until it is acknowledged. kombu 5.7 removes the message from Redis's
    unacknowledged index before it frees the slot, so an ack that found the broker gone left
    the slot taken for ever: the channel never asked for another message, even once Redis was
    back, and no error reached the consumer (kombu logs "Couldn't ack" and goes on)."""
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
            # As Celery acknowledges a task's message (celery.worker.request.Request).
            received[0].ack_log_error(logging.getLogger(__name__), conn.connection_errors)
            assert channel.qos.can_consume()
            redis_server.start()  # empty: a new message is sent to it and taken
    with _connection(redis_server) as conn:
        conn.Producer().publish({"n": 2}, routing_key="outage", declare=[queue])
    # The first connection's channel is closed; a fresh one takes the second message.
    with _connection(redis_server) as conn:
        channel = conn.channel()
        with conn.Consumer([queue], channel=channel, callbacks=[lambda _b, m: received.append(m)]):
            conn.drain_events(timeout=5)
    assert [m.payload for m in received] == [{"n": 1}, {"n": 2}]


@pytest.mark.slow
def test_a_worker_consumes_again_after_a_restart_during_its_task(redis_server, tmp_path):
    """The production recipe's worker (one solo process, gossip and remote control on: Redis
    pub/sub) is running a task when Redis dies; the task ends (its ack fails: the broker is
    down) and Redis comes back, empty. The worker must take the next task: before the fix, its
    only thread blocked for ever in a read of the broadcast connection that redis-py had
    reconnected in place, and the prefetch slot of the unacknowledged task stayed taken."""
    log = tmp_path / "naps"
    log.touch()
    queue = new_queue("trix-outage")
    with sending_to(redis_server.url(), queue):
        worker = Worker(
            queue, broker_url=redis_server.url(), production=True, app="tests.outage_app",
            beat=False,
        )  # fmt: skip
        try:
            nap.delay(2, "first", str(log))
            wait_until(lambda: "start first" in log.read_text(), 30, 0.02)
            redis_server.stop()
            wait_until(lambda: "end first" in log.read_text(), 30, 0.02)
            time.sleep(1)  # the ack is tried while the broker is down
            redis_server.start()
            time.sleep(1)
            nap.delay(0, "second", str(log))
            try:
                wait_until(lambda: "end second" in log.read_text(), 60, 0.05)
            except AssertionError:
                raise AssertionError("the worker took nothing more:\n" + worker.tail()) from None
            assert worker.proc.poll() is None, "the worker exited:\n" + worker.tail()
        finally:
            worker.stop(kill=True)
