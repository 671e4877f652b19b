"""How many long polls one client holds at once: without a cap one anonymous client can hold
every web thread with 32-64 long polls, and other requests then take 3.4-14.9 s.

A client is its user when logged in, else its address (as DRF's throttles read it: the
connection's, or the one ``TRIX_TRUSTED_PROXIES`` proxies report). It holds at most
``TRIX_WAITS_PER_CLIENT`` waits at once, over every long poll of the site (a table's state,
a tournament's live page); a poll above that is answered at once with the current state, as
if ``wait`` were 0 (200, not an error: the pages then poll again after a pause).

Each wait takes one of the client's numbered slots in Django's cache (``cache.add``, atomic
on Redis and in local memory: the cache is shared by every web process when
``TRIX_CACHE_URL`` names one) and gives it back when it ends; a slot also expires
``TRIX_STATE_WAIT_MAX`` + 10 s after it was taken, so a process killed mid-wait cannot keep
a client's slots (a slot taken is read back: two cache calls per wait). When the cache cannot
be reached (it raises, or, hiding its errors, answers None or keeps nothing) the waits are
counted in this process instead (the same cap, per web process), so an outage neither fails
a poll nor lifts the cap.

Use::

    with waits.held(request, wait) as held:   # 0.0 above the cap
        ...wait up to ``held`` seconds...
    response = Response(...)
    waits.say_when(response, wait, held)      # above the cap: Retry-After

The answer above the cap carries ``Retry-After`` (:func:`say_when`): the whole seconds after
which one of the client's held waits has ended (``TRIX_STATE_WAIT_MAX``), so a page waits
that long before it polls again instead of re-polling at once.

Live streams (:mod:`games.live.streams`) are capped by the same number, counted apart and per web
process (:func:`take_stream`): a stream is held for minutes, not seconds, and costs its
process a queue and a task, not a thread; above the cap a stream is refused (429).
"""

from __future__ import annotations

import logging
import math
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.core.cache import cache
from rest_framework.throttling import BaseThrottle

log = logging.getLogger(__name__)

_MARGIN = 10  # seconds a slot outlives the longest wait
_local_lock = threading.Lock()
_local: dict[str, int] = {}  # client -> waits held in this process (the cache is down)


class _Unreachable(Exception):
    """The cache answered without keeping what it was given."""


def client_of(request, user=None) -> str:
    """``user:<id>`` for a logged-in user (``user``, else ``request.user``), else
    ``addr:<address>``."""
    if user is None:
        user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    return f"addr:{BaseThrottle().get_ident(request)}"


def _take(client: str) -> tuple[str, str] | None:
    """A slot for one more wait of ``client`` (``("cache", key)`` or ``("local", client)``),
    or None when it holds ``TRIX_WAITS_PER_CLIENT`` already."""
    cap = settings.TRIX_WAITS_PER_CLIENT
    ttl = math.ceil(settings.TRIX_STATE_WAIT_MAX) + _MARGIN
    try:
        for number in range(cap):
            key = f"trix:wait:{client}:{number}"
            added = cache.add(key, 1, timeout=ttl)
            # A cache that hides its errors answers None, or True without storing anything
            # (a cache that grants every add while Redis is down): read the slot back.
            if added is None or (added and cache.get(key) is None):
                raise _Unreachable("the cache did not keep a slot")
            if added:
                return ("cache", key)
        return None
    except Exception as exc:  # the cache is down: count in this process
        log.warning("long-poll slots counted per process: the cache failed (%s)", exc)
    with _local_lock:
        held = _local.get(client, 0)
        if held >= cap:
            return None
        _local[client] = held + 1
    return ("local", client)


def _give_back(slot: tuple[str, str]) -> None:
    where, key = slot
    if where == "cache":
        try:
            cache.delete(key)
        except Exception as exc:  # it expires by itself
            log.warning("long-poll slot %s not given back (%s)", key, exc)
        return
    with _local_lock:
        held = _local.get(key, 0) - 1
        if held > 0:
            _local[key] = held
        else:
            _local.pop(key, None)


@contextmanager
def held(request, wait: float) -> Iterator[float]:
    """The seconds a long poll of ``request``'s client may hold: ``wait``, or 0.0 when the
    client already holds ``TRIX_WAITS_PER_CLIENT`` waits (then answer at once). A ``wait``
    of 0 takes no slot."""
    if wait <= 0:
        yield wait
        return
    slot = _take(client_of(request))
    if slot is None:
        yield 0.0
        return
    try:
        yield wait
    finally:
        _give_back(slot)


def come_back_after() -> int:
    """Whole seconds after which a client above the cap holds one wait less:
    ``TRIX_STATE_WAIT_MAX`` rounded up (at least 1)."""
    return max(1, math.ceil(settings.TRIX_STATE_WAIT_MAX))


def say_when(response, asked: float, held: float) -> None:
    """Set ``Retry-After`` (:func:`come_back_after`) on ``response`` when the poll asked to
    wait ``asked`` seconds and was held ``held`` (0.0: above the cap)."""
    if asked > 0 and held < asked:
        response["Retry-After"] = str(come_back_after())


_streams_lock = threading.Lock()
_streams: dict[str, int] = {}  # client -> live streams open in this process


def streams_full(client: str) -> bool:
    """Whether ``client`` holds ``TRIX_WAITS_PER_CLIENT`` live streams in this process (a new
    one is refused before it starts: 429)."""
    with _streams_lock:
        return _streams.get(client, 0) >= settings.TRIX_WAITS_PER_CLIENT


def take_stream(client: str) -> bool:
    """Count one more live stream of ``client`` (:func:`client_of`) in this process: False
    (nothing counted) when it holds ``TRIX_WAITS_PER_CLIENT`` already. Give it back with
    :func:`give_back_stream`."""
    with _streams_lock:
        held = _streams.get(client, 0)
        if held >= settings.TRIX_WAITS_PER_CLIENT:
            return False
        _streams[client] = held + 1
    return True


def give_back_stream(client: str) -> None:
    """The end of a stream counted by :func:`take_stream`."""
    with _streams_lock:
        held = _streams.get(client, 0) - 1
        if held > 0:
            _streams[client] = held
        else:
            _streams.pop(client, None)
