"""Reads of the API are limited per session and per address (``TRIX_READ_RATE``,
``TRIX_READ_ADDRESS_RATE``; ``games.api.middleware.ReadLimitMiddleware``): 64 long polls from
one address answered at once by the long-poll cap re-polled in a tight loop and slowed every
other client. Above a rate: 429 ``throttled`` with ``Retry-After``, nothing read; writes are
not counted (they have their own limits). The cap's instant answer says when to come back
(``Retry-After``), and the pages obey both (``web/static/web/api.js``)."""

from __future__ import annotations

import math

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from games import services
from tests.factories import TournamentFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_counts():
    cache.clear()
    yield
    try:
        cache.clear()
    except Exception:  # the test of a cache that fails: nothing of ours there to clear
        pass


@pytest.fixture
def table(make_user):
    return services.create_table(user=make_user("owner"), variant="trix")


def client(address: str, user=None) -> APIClient:
    c = APIClient(REMOTE_ADDR=address)
    if user is not None:
        c.force_login(user)
    return c


def test_reads_are_limited_per_session(table, make_user, settings):
    settings.TRIX_READ_RATE = "3/minute"
    ana = client("198.51.100.1", make_user("ana"))
    url = f"/api/tables/{table.pk}/"
    assert [ana.get(url).status_code for _ in range(3)] == [200, 200, 200]
    r = ana.get(url)
    assert r.status_code == 429 and r.json()["code"] == "throttled"
    assert 0 < int(r["Retry-After"]) <= 60
    assert r.json()["error"] == f"Too many requests: try again in {r['Retry-After']} s."
    assert ana.get(f"/api/tables/{table.pk}/state/").status_code == 429  # every read counts
    # Another session from the same address reads on (many players share an address).
    assert client("198.51.100.1", make_user("bo")).get(url).status_code == 200
    # A write is not a read: counted by its own limit only.
    r = ana.post(f"/api/tables/{table.pk}/seats/", {"seat": 9}, format="json")
    assert r.status_code == 400
    # Logged out, without a session, a client is its address.
    anon = client("198.51.100.2")
    assert [anon.get(url).status_code for _ in range(4)] == [200, 200, 200, 429]


def test_reads_are_limited_per_address_across_sessions(table, make_user, settings):
    """A client minting a new session for every request is still one address."""
    settings.TRIX_READ_ADDRESS_RATE = "4/minute"
    url = f"/api/tables/{table.pk}/"
    codes = [client("198.51.100.3", make_user(f"u{i}")).get(url).status_code for i in range(5)]
    assert codes == [200, 200, 200, 200, 429]
    assert client("198.51.100.4", make_user("other")).get(url).status_code == 200
    # X-Forwarded-For is not trusted without a proxy (TRIX_TRUSTED_PROXIES 0).
    spoof = APIClient(REMOTE_ADDR="198.51.100.3", HTTP_X_FORWARDED_FOR="203.0.113.9")
    assert spoof.get(url).status_code == 429


def test_the_pages_are_not_counted(table, settings):
    settings.TRIX_READ_RATE = "1/minute"
    anon = client("198.51.100.5")
    assert anon.get(f"/api/tables/{table.pk}/").status_code == 200
    assert anon.get(f"/api/tables/{table.pk}/").status_code == 429
    assert anon.get(f"/tables/{table.pk}/").status_code == 200


def test_the_caps_instant_answer_says_when_to_come_back(table, settings):
    """A poll above ``TRIX_WAITS_PER_CLIENT`` is answered at once, with ``Retry-After``: the
    seconds after which one of the client's held waits has ended."""
    settings.TRIX_WAITS_PER_CLIENT = 0  # every wait is above the cap
    settings.TRIX_STATE_WAIT_MAX = 2.5
    r = client("198.51.100.6").get(f"/api/tables/{table.pk}/state/?since={table.version}&wait=2")
    assert r.status_code == 200 and r.json()["version"] == table.version
    assert r["Retry-After"] == str(math.ceil(2.5))
    # A poll that asks no wait is not capped, and says nothing.
    r = client("198.51.100.6").get(f"/api/tables/{table.pk}/state/?since={table.version}&wait=0")
    assert r.status_code == 200 and "Retry-After" not in r


def test_the_tournaments_live_poll_says_so_too(settings, make_user):
    settings.TRIX_WAITS_PER_CLIENT = 0
    staff = make_user("staff")
    staff.is_staff = True
    staff.save()
    cup = TournamentFactory(by=staff, name="Cup", entry_fee=0, house_fee_bps=0, prize_bps=[10000])
    live = client("198.51.100.7").get(f"/api/tournaments/{cup.pk}/live/").json()
    r = client("198.51.100.7").get(
        f"/api/tournaments/{cup.pk}/live/?since={live['version']}&wait=2"
    )
    assert r.status_code == 200
    assert r["Retry-After"] == str(math.ceil(settings.TRIX_STATE_WAIT_MAX))


def test_a_cache_that_fails_lets_reads_through(table, settings):
    """Counted in the cache: when it raises, a read is answered, not a 500 (nor a 429)."""
    from tests.games.test_wait_cap import DEAD_CACHES

    settings.CACHES = {"default": DEAD_CACHES["raising"]}
    settings.TRIX_READ_RATE = "1/minute"
    anon = client("198.51.100.8")
    assert [anon.get(f"/api/tables/{table.pk}/").status_code for _ in range(2)] == [200, 200]


@pytest.mark.django_db(transaction=True)
def test_reads_at_once_are_each_counted(table, settings):
    """Twelve reads at once from one address, five allowed: exactly five answered (each read
    is one atomic increment of the window's count in Redis, not a history read and written
    back: with Redis' round trips between the two, reads at once overwrote each other's)."""
    import threading
    import uuid

    from django.db import connections

    from trix_site.cache import redis_cache

    url = settings.CELERY_BROKER_URL  # the tests' Redis; keys of this test's own
    shared = redis_cache(url, timeout=settings.TRIX_CACHE_TIMEOUT)
    settings.CACHES = {"default": {**shared, "KEY_PREFIX": f"test-{uuid.uuid4()}"}}
    settings.TRIX_READ_RATE = "5/minute"
    codes, start = [], threading.Barrier(12)

    def read():
        start.wait()
        try:
            codes.append(client("198.51.100.9").get(f"/api/tables/{table.pk}/").status_code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=read) for _ in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(codes) == [200] * 5 + [429] * 7
