"""What the Celery application and the Redis transport keep per process (issue 15): found once,
not for every message or every thread."""

from __future__ import annotations

import threading

from celery.app import backends
from kombu import Connection

from trix_site.broker import RedisTransport
from trix_site.celery import app


def test_a_new_threads_result_backend_does_not_search_the_entry_points_again(monkeypatch):
    calls = []
    found = backends.by_url

    def counting(*args, **kwargs):
        calls.append(args)
        return found(*args, **kwargs)

    monkeypatch.setattr(backends, "by_url", counting)
    monkeypatch.setattr(app, "_backend_class", None)  # found by an earlier test: found again
    # As the settings have it (no result backend), whatever an earlier test set up.
    monkeypatch.setitem(app.conf, "result_backend", None)
    monkeypatch.setattr(app, "_backend_cache", None)
    seen = []
    for _ in range(3):  # each request under the ASGI server runs in a new thread
        thread = threading.Thread(target=lambda: seen.append(app.backend))
        thread.start()
        thread.join()
    assert len(calls) == 1
    assert len({id(b) for b in seen}) == 3  # still one backend instance per thread


def test_the_redis_channel_keeps_its_client_until_its_pool_changes(settings):
    with Connection(settings.CELERY_BROKER_URL, transport=RedisTransport) as conn:
        channel = conn.default_channel
        first = channel._create_client()
        assert channel._create_client() is first
        assert first.ping()
        channel._pool = None  # made again (as after a reconnection): a new client with it
        assert channel._create_client() is not first
