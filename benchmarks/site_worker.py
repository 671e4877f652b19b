"""The site's Celery app with a query counter, for ``benchmarks/site.py`` only.

Counts the SQL statements each task runs and adds them to the Redis key
``bench:queries`` (and tasks to ``bench:tasks``) on the broker's Redis.
"""

from __future__ import annotations

import os

import redis
from celery.signals import task_postrun, task_prerun
from django.db import connection

from trix_site.celery import app

_r = redis.Redis.from_url(os.environ["CELERY_BROKER_URL"])
_open: dict[str, object] = {}


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
    _r.pipeline(transaction=False).incrby("bench:queries", counter.n).incr("bench:tasks").execute()


__all__ = ["app"]
