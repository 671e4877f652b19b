"""The long-running processes' garbage collector: what they loaded at start-up is frozen out
of its way (``gc.freeze``, Python's own remedy for servers).

Python's full collection visits every object a process tracks. A web process holds Django,
DRF, the URLconf and every view, plus its open streams; on the 2-core machine of the
benchmarks (docs/performance.md) each full collection stopped the web process for 115-152 ms
(a person's POST stored at p99 ~100 ms with the machine 60 % idle, deliveries late by as
much), four times in a 45 s run. Objects loaded before :func:`freeze_loaded` are never visited
again; what requests create later is collected as before (nothing leaks: a frozen object is
only never freed, and these live as long as the process).

Called by ``trix_site/asgi.py`` once the site is loaded, and by the Celery workers
(``trix_site/celery.py``) in the main process before it forks its pool and again in each
child (``worker_process_init``); a solo worker (production's, one process) sends both
signals in its one process, and the second freeze finds little new.

An ASGI web process also collects its young objects less often (:func:`space_collections`):
what its held streams are made of makes every full collection long, so it must come rarely
(``trix_site/wsgi.py`` holds no streams and keeps Python's thresholds).
"""

from __future__ import annotations

import gc


def load_site() -> None:
    """Import what a process's first requests would: the URLconf and every view it names."""
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 (imports every urls module and view)


def freeze_loaded() -> int:
    """Collect once, then freeze every object tracked now out of later collections. Returns
    how many objects were frozen."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()


#: A web process's collector thresholds (``gc.set_threshold``): a young collection once 10,000
#: more objects are tracked than freed (Python's default: 700), a middle one every 5 young
#: ones (10), a full one after 100 middle ones (10) and only once the objects promoted since
#: the last full one are at least a quarter of those it kept (Python's own rule): about one
#: full collection per 600 young ones, as often as with 50 / 10 before 2026-12-02.
WEB_THRESHOLDS = (10_000, 5, 100)


def space_collections(thresholds: tuple[int, int, int] = WEB_THRESHOLDS) -> None:
    """Set the collector's thresholds for a process that holds thousands of live streams.

    Each held stream is about 170 tracked objects (uvicorn's protocol, Django's request and
    response, their tasks and coroutines), so 2,500 streams in a process are some 430,000,
    and one full collection visits them all: 270-285 ms on the benchmarks' idle 2-core machine,
    400-900 ms under the benchmark's load, during which the process delivers nothing. With
    Python's thresholds the objects of the requests in flight at each middle collection
    (every 7,000 objects) were promoted to the oldest generation, and their count reached a
    quarter of it every 20-40 s: a full collection that often. Less frequent young
    collections find most of a request's objects already freed, so few are promoted. A young
    collection visits 10,000 objects or more instead of 700: in the streams' processes at the
    benchmark's load, one every ~10 s of 25-90 ms, the waits of every stream that got a message
    since the last one (four objects a stream since 2026-12-02, eight before:
    ``games.live.streams.LiveStreamResponse`` and ``Mailbox``).

    A middle collection every 5 young ones, not 50 (2026-12-02): when thousands of streams
    open at once (a restart's reconnections, the benchmark's start), their objects pile up in
    the middle generation, and with 50 its first collection came after the storm, 420-510 ms
    of one process delivering nothing, in the middle of play. Every 5, the middle
    generation is collected every few seconds while they arrive (30-120 ms each), and after
    them each is one young collection's leftovers (57-150 ms in the benchmark's 60 s runs).
    A full collection needs 100 middle ones, not 10, so that it stays as rare as before
    (each is 270-900 ms): with 10, the streams' reconnections every
    ``TRIX_STREAM_LIFETIME`` would meet Python's quarter rule about every 13 minutes (a
    review's model of 2,500 streams over 100 minutes: 8 full collections, against 1 with
    50 / 10 and none with 5 / 100). The collector's CPU in all is lower than with Python's
    defaults (``benchmarks/site.py``: docs/performance.md)."""
    gc.set_threshold(*thresholds)
