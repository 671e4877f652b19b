"""Tournament tasks go ahead of the tables' tasks on the broker (tournaments/dispatch.py and
the priority settings): a worker takes an ``advance`` sent after two wake-ups first."""

from __future__ import annotations

import uuid

import pytest
from django.conf import settings

from games import tasks as table_tasks
from tests.worker import use_queue
from tournaments import dispatch
from trix_site.celery import app


@pytest.fixture
def private_queue():
    """The tasks of this test go to a queue nobody consumes; read here, then deleted."""
    queue = f"trix-prio-{uuid.uuid4().hex[:8]}"
    old = use_queue(queue)
    yield queue
    use_queue(old)
    with app.connection_for_write() as conn:
        conn.SimpleQueue(queue).clear()


def _taken(queue: str, count: int) -> list[tuple[str, str, int]]:
    """The next ``count`` messages a consumer of ``queue`` gets: (task, args, priority)."""
    with app.connection_for_write() as conn:
        q = conn.SimpleQueue(queue, no_ack=True)
        try:
            out = []
            for _ in range(count):
                m = q.get(timeout=5)
                out.append((m.headers["task"], m.headers["argsrepr"], m.properties["priority"]))
            return out
        finally:
            q.close()


@pytest.mark.skipif(
    not settings.CELERY_BROKER_URL.startswith("redis"), reason="priorities are Redis's"
)
def test_a_tournament_task_is_taken_before_the_tables_wake_ups(private_queue):
    table_tasks.wake.delay(1, 5)
    table_tasks.wake.delay(2, 5)
    dispatch.send("advance", 7)
    assert _taken(private_queue, 3) == [
        ("tournaments.tasks.advance", "(7,)", settings.TRIX_TOURNAMENT_TASK_PRIORITY),
        ("games.tasks.wake", "(1, 5)", settings.CELERY_TASK_DEFAULT_PRIORITY),
        ("games.tasks.wake", "(2, 5)", settings.CELERY_TASK_DEFAULT_PRIORITY),
    ]
