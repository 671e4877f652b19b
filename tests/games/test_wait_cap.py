"""Long polls per client (issue 13, item 5): one anonymous client held every web thread with
32-64 long polls (other requests then took 3.4-14.9 s). A client (its user, or its address
when logged out) holds at most ``TRIX_WAITS_PER_CLIENT`` waits at once, the tables' state
polls and the tournaments' live polls together; a poll above that is answered at once with
the current state (200, not an error). The count is kept in Django's cache (shared by every
web process with ``TRIX_CACHE_URL``) and in the process when the cache is down."""

from __future__ import annotations

import threading
import time
from importlib.util import find_spec

import pytest
from django.core.cache import cache
from django.db import connections
from rest_framework.test import APIClient

from games import services
from tests.games.helpers import wait_until, waiting

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def short_waits(settings):
    settings.TRIX_WAITS_PER_CLIENT = 2
    settings.TRIX_STATE_WAIT_MAX = 3
    cache.clear()
    yield
    try:
        cache.clear()
    except Exception:  # the test of a cache that is down: nothing of ours there to clear
        pass


@pytest.fixture
def table(make_user):
    return services.create_table(user=make_user("owner"), variant="trix")


def timed_poll(url: str, client: APIClient | None = None, **headers) -> tuple[float, dict, bool]:
    """Seconds the poll took, its body, and whether it was answered above the cap (the
    answer held no wait: ``Retry-After``, ``games.waits.say_when``)."""
    client = client or APIClient()
    start = time.monotonic()
    try:
        r = client.get(url, **headers)
    finally:
        connections.close_all()
    assert r.status_code == 200, r.content
    return time.monotonic() - start, r.json(), r.has_header("Retry-After")


def hold(
    url: str, count: int, client: APIClient | None = None, who: str = "addr:127.0.0.1"
) -> list[threading.Thread]:
    """``count`` long polls of ``url`` in threads by ``client`` (``who`` to the cap), each
    holding its slot (waiting: nothing changes) when this returns."""
    threads = [
        threading.Thread(target=timed_poll, args=(url, client), daemon=True) for _ in range(count)
    ]
    for t in threads:
        t.start()
    wait_until(lambda: waiting(who) == count, 10, 0.01)
    return threads


def test_a_client_above_the_cap_is_answered_at_once(table):
    url = f"/api/tables/{table.pk}/state/?since={table.version}&wait=3"
    held = hold(url, 2)
    # A third poll of the same address, even with another X-Forwarded-For (not trusted:
    # TRIX_TRUSTED_PROXIES is 0), is answered at once with the current state.
    _, body, capped = timed_poll(url, HTTP_X_FORWARDED_FOR="10.9.8.7")
    assert capped
    assert body["version"] == table.version and body["table"]["status"] == "open"
    # Another client still waits.
    took, _, capped = timed_poll(url.replace("wait=3", "wait=1"), REMOTE_ADDR="10.0.0.2")
    assert took >= 0.9 and not capped, took
    for t in held:
        t.join(5)
    took, _, capped = timed_poll(url.replace("wait=3", "wait=1"))  # the waits ended: it waits
    assert took >= 0.9 and not capped, took


def test_a_user_is_counted_by_account_and_polls_without_wait_are_not_counted(table, make_user):
    ana = APIClient()
    user = make_user("ana")
    ana.force_login(user)
    url = f"/api/tables/{table.pk}/state/?since={table.version}&wait=3"
    held = hold(url, 2, ana, who=f"user:{user.pk}")
    assert timed_poll(url, ana)[2]
    took, _, capped = timed_poll(url)  # logged out, the same address: another client
    assert took >= 2.5 and not capped, took
    # No wait asked: answered as it is, not above the cap (it takes no slot).
    assert not timed_poll(f"/api/tables/{table.pk}/state/", ana)[2]
    for t in held:
        t.join(5)


DEAD_CACHES = {
    "raising": {  # Django's own: every call raises ConnectionError
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens there
    },
    "hiding its errors": {  # django-redis IGNORE_EXCEPTIONS: a miss, add answers None
        "BACKEND": "django_redis.cache.RedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",
        "OPTIONS": {"IGNORE_EXCEPTIONS": True, "SOCKET_CONNECT_TIMEOUT": 0.5},
    },
}


@pytest.mark.parametrize(
    "dead",
    [
        "raising",
        pytest.param(
            "hiding its errors",
            marks=pytest.mark.skipif(
                find_spec("django_redis") is None, reason="django-redis is not installed"
            ),
        ),
    ],
)
def test_the_cap_holds_when_the_cache_is_down(table, settings, dead):
    settings.CACHES = {"default": DEAD_CACHES[dead]}
    url = f"/api/tables/{table.pk}/state/?since={table.version}&wait=3"
    held = hold(url, 2)
    _, body, capped = timed_poll(url)
    assert capped and body["version"] == table.version
    for t in held:
        t.join(5)
    took, _, capped = timed_poll(url.replace("wait=3", "wait=1"))
    assert took >= 0.9 and not capped, took
