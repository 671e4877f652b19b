"""The site's Celery app with a query counter, for ``benchmarks/site.py`` only.

Counts the SQL statements each task runs and adds them to the Redis key
``bench:queries`` (and tasks to ``bench:tasks``) on the broker's Redis, at most every
quarter second (a Redis round trip per task would itself be a load on the stack measured).
"""

from __future__ import annotations

import os
import time

import redis
from celery.signals import task_postrun, task_prerun
from django.db import connection

from trix_site.celery import app

_r = redis.Redis.from_url(os.environ["CELERY_BROKER_URL"])
_open: dict[str, object] = {}
_pending = {"queries": 0, "tasks": 0, "flushed": 0.0}


class _Counter:
    def __init__(self):
        self.n = 0

    def __call__(self, execute, sql, params, many, context):
        self.n += 1
        return execute(sql, params, many, context)


@task_prerun.connect
def _start(task_id=None, **_):
    counter = _Counter()
    cm = connection.execute_wrapper(counter)
    cm.__enter__()
    _open[task_id] = (counter, cm)


@task_postrun.connect
def _stop(task_id=None, **_):
    counter, cm = _open.pop(task_id, (None, None))
    if cm is None:
        return
    cm.__exit__(None, None, None)
    _pending["queries"] += counter.n
    _pending["tasks"] += 1
    now = time.monotonic()
    if now - _pending["flushed"] >= 0.25:
        pipe = _r.pipeline(transaction=False)
        pipe.incrby("bench:queries", _pending["queries"]).incrby("bench:tasks", _pending["tasks"])
        pipe.execute()
        _pending.update(queries=0, tasks=0, flushed=now)


__all__ = ["app"]
