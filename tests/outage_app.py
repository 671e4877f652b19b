"""The site's Celery application (its broker options: acks late, a prefetch of one, the Redis
transport's options) with tasks of the tests' own: for a worker started by
``tests/test_broker_outage.py`` (``celery -A tests.outage_app``), :func:`nap` lasts as long
as the test needs, so the broker can be killed while a worker runs it; for
``tests/test_worker_timer.py``, :func:`mark` notes when it ran, in this process."""

from __future__ import annotations

import time
from pathlib import Path

from trix_site.celery import app

__all__ = ["MARKS", "app", "mark", "nap"]

MARKS: list[tuple[object, float]] = []
"""(key, ``time.monotonic()``) of each :func:`mark` run in this process."""


@app.task(name="tests.outage_app.nap")
def nap(seconds: float, mark: str, log: str) -> None:
    """Write ``start <mark>`` to the file ``log``, sleep ``seconds``, write ``end <mark>``."""
    with Path(log).open("a") as out:
        out.write(f"start {mark}\n")
    time.sleep(seconds)
    with Path(log).open("a") as out:
        out.write(f"end {mark}\n")


@app.task(name="tests.outage_app.mark")
def mark(key, busy: float = 0.0) -> None:
    """Note ``(key, now)`` in :data:`MARKS`, then keep the process busy ``busy`` seconds."""
    MARKS.append((key, time.monotonic()))
    time.sleep(busy)
