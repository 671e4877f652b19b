"""The brokers' transports, named by ``CELERY_BROKER_TRANSPORT`` (``trix_site/settings.py``).

**Redis** (production): kombu's Redis transport keeping one client per connection pool
(:class:`RedisTransport`), whose acknowledgements free their prefetch slot when the broker is
gone (:class:`RedisQoS`). **SQLite** (the embedded default, ``./dev run``): kombu's SQLAlchemy
transport on a SQLite file, polled every ``TRIX_BROKER_POLL`` seconds instead of kombu's once a
second (:class:`SQLiteTransport`).

kombu's virtual transports look for a message, and when every queue is empty sleep their
``polling_interval`` (1 s by default) before looking again: a move waited up to that long for
the worker. The SQLAlchemy transport hands its transport options to SQLAlchemy's
``create_engine`` (which refuses a ``polling_interval``), so the interval is set here, on a
subclass named by ``CELERY_BROKER_TRANSPORT`` (``trix_site/settings.py``). A look is one
indexed ``SELECT`` on the broker file (about 0.1-0.3 ms); at 0.05 s an idle worker spends
well under 1% of a core on it. ``benchmarks/embedded_latency.py`` measures the effect.
"""

from __future__ import annotations

from django.conf import settings
from kombu.transport import redis, sqlalchemy, virtual


class SQLiteTransport(sqlalchemy.Transport):
    """kombu's SQLAlchemy transport, polled every ``TRIX_BROKER_POLL`` seconds."""

    def __init__(self, client, **kwargs):
        super().__init__(client, **kwargs)
        self.polling_interval = settings.TRIX_BROKER_POLL


class RedisQoS(redis.QoS):
    """kombu's Redis QoS (its emulation of acknowledgements), freeing a message's prefetch slot
    when Redis cannot be reached. kombu updates Redis's index of unacknowledged messages
    first (an ack or a reject removes the message from it, a requeue puts it back in its
    queue) and frees the slot after: when Redis was down, the update raised and the slot
    stayed taken for ever. A worker takes one message at a time
    (``CELERY_WORKER_PREFETCH_MULTIPLIER = 1``), so after an ack tried during a broker
    restart its channel never asked Redis for another message
    (``tests/test_broker_outage.py``).

    Here a connection error frees the slot and still reaches the caller (Celery logs
    "Couldn't ack"); any other error from Redis leaves it as kombu does. If Redis kept its
    data, the message stays in the index and is delivered again once, after the visibility
    timeout, as one held by a worker that died is (the tasks are idempotent: acks late); a
    failed requeue waits for that too. kombu used to push such a message back at once when
    the channel closed, running a task that had already run a second time straight away; if
    Redis lost its data, the sweep re-sends what was lost (``TRIX_SWEEP_LATE``)."""

    def ack(self, delivery_tag):
        try:
            super().ack(delivery_tag)
        except self.channel.connection_errors:
            virtual.QoS.ack(self, delivery_tag)
            raise

    def reject(self, delivery_tag, requeue=False):
        try:
            super().reject(delivery_tag, requeue=requeue)
        except self.channel.connection_errors:
            virtual.QoS.ack(self, delivery_tag)
            raise


class RedisChannel(redis.Channel):
    """kombu's Redis channel, keeping its synchronous client: kombu builds a new
    ``redis.Redis`` for every message it sends (``conn_or_acquire``), and that constructor
    (redis-py's table of response callbacks) was about 7% of a worker's CPU at every table's
    change (``benchmarks/site.py``). A client is safe to share between threads and
    after a fork (its connection pool hands out connections and resets itself in a new
    process); it is made again when the channel's pool is."""

    QoS = RedisQoS
    _kept: tuple | None = None  # (the pool, its client)

    def _create_client(self, asynchronous=False):
        if asynchronous:
            return super()._create_client(asynchronous=True)
        pool = self.pool
        kept = self._kept
        if kept is None or kept[0] is not pool:
            kept = self._kept = (pool, super()._create_client())
        return kept[1]


class RedisTransport(redis.Transport):
    """kombu's Redis transport with :class:`RedisChannel`."""

    Channel = RedisChannel
