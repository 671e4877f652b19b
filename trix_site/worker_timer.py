"""A task run later by this worker's own timer instead of through the broker.

A table's bots play one after another: each bot turn a worker applies schedules the table's
next wake-up (the next bot's turn, tens of milliseconds later, or a person's deadline). Sent
through the broker, each such wake-up cost the worker a publish, a receipt and an
acknowledgement (five round trips to Redis and a message encoded and decoded: about a third of
a tables' worker's CPU in ``benchmarks/site.py``), only to come back, half the time or more,
to another worker, which read the table's state again. A worker that runs tasks in its main
thread (the solo pool of ``trix-worker@.service``) keeps such a task on the timer of its event
loop (kombu's hub, which also holds the tasks sent with a countdown) and runs it there with
:meth:`celery.app.task.Task.apply`, with the same ``task_prerun``/``task_postrun`` signals
(the database connection check of ``trix_site.celery``) as a task taken from the broker. Held
tasks are not shown by ``celery inspect``.

What is held only here is lost if the process dies (SIGKILL, a crash): the beat's sweep
re-sends a wake-up overdue by ``TRIX_SWEEP_LATE`` (``games.services.wakes.sweep``), as it does
for one lost in the broker. A worker that stops, warm or cold, sends what it still holds
through the broker, each due when it was due (:func:`publish_held`, from :class:`WorkerTimer`).

Anywhere else (the web, a prefork pool's children, a thread pool, or with
``TRIX_WORKER_TIMER`` off) :func:`run_later` declines and the caller sends the task.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import os
import threading
import time

from celery import bootsteps
from celery.concurrency.solo import TaskPool as SoloPool
from django.conf import settings

logger = logging.getLogger(__name__)

BATCH = 0.02
"""Seconds one turn of the event loop may spend on held tasks before it looks at its sockets
(messages from the broker, acknowledgements, a shutdown asked for) again."""

_hub = None  # kombu's hub of this process's solo worker, while it is lent
_owner: tuple[int, int] | None = None  # (process id, thread id) that runs its loop
_held: dict[int, tuple] = {}  # key -> (task, args, due: time.monotonic())
_due: list[tuple[float, int]] = []  # (due, key) of the held tasks, soonest first
_alarm = None  # the hub's timer entry that calls _fire next (None: none armed)
_alarm_at = 0.0  # its due time (time.monotonic())
_keys = itertools.count()


class WorkerTimer(bootsteps.StartStopStep):
    """The worker's step (``app.steps["worker"]``, ``trix_site.celery``): in a solo worker
    on a broker with an event loop (Redis, RabbitMQ; not the embedded SQLite broker), it lends
    this module the loop each time the loop starts (at start, and after every reconnection to
    the broker: Celery then resets the loop, its timer entries included), and sends what is
    held through the broker when the worker stops, warm (SIGTERM) or cold (SIGQUIT)."""

    label = "trix timer"

    def include_if(self, w) -> bool:
        return bool(
            settings.TRIX_WORKER_TIMER
            and w.use_eventloop
            and isinstance(w.pool_cls, type)
            and issubclass(w.pool_cls, SoloPool)
        )

    def register_with_event_loop(self, w, hub) -> None:
        attach(hub)

    def stop(self, w) -> None:
        publish_held()

    def terminate(self, w) -> None:
        publish_held()


def attach(hub) -> None:
    """Hold tasks on ``hub`` (kombu's event loop, run by this thread) from now on, the tasks
    already held included. Called before the loop's first turn (Celery's ``asynloop`` lends
    the hub, then starts its loop)."""
    global _hub, _owner, _alarm
    _wait_no_longer_than_the_next_timer(hub)
    if _alarm is not None:
        _alarm.cancel()  # lent again without a reset: one entry still
    _hub, _owner, _alarm = hub, (os.getpid(), threading.get_ident()), None
    if _due:
        _arm(_due[0][0])


def _wait_no_longer_than_the_next_timer(hub) -> None:
    """kombu's hub runs at most 10 timer entries a turn and, when it stops at that limit,
    waits up to a second on its sockets however soon the next entry is due
    (``Hub.fire_timers`` returns its longest wait then): with few messages coming from the
    broker, as once bot turns no longer go through it, a task due a moment later waited that
    second (``benchmarks/site.py``: p99 0.4-0.9 s from due to applied at 400 actions/s). The
    hub's own ``fire_timers`` is wrapped, on this hub only, so the wait ends when the next
    entry is due. (``timer._queue``, its heap of ``(due, priority, entry)``, is what the hub's
    loop itself reads.)"""
    fire_timers = hub.fire_timers
    if getattr(fire_timers, "trix_bounded", False):
        return

    def bounded(*args, **kwargs):
        wait = fire_timers(*args, **kwargs)
        queue = hub.timer._queue
        return min(wait, max(queue[0][0] - time.monotonic(), 0.0)) if queue else wait

    bounded.trix_bounded = True
    hub.fire_timers = bounded


def run_later(task, args: tuple, delay: float) -> bool:
    """Hold ``task(*args)`` to run in ``delay`` seconds (0 or less: as soon as the worker is
    free) on this worker's timer. Returns False, holding nothing, when this process or thread
    has no such timer: the caller sends the task through the broker instead."""
    if _hub is None or _owner != (os.getpid(), threading.get_ident()):
        return False
    key, due = next(_keys), time.monotonic() + max(delay, 0.0)
    _held[key] = (task, args, due)
    heapq.heappush(_due, (due, key))
    if _alarm is None or due < _alarm_at:
        _arm(due)
    return True


def held() -> int:
    """How many tasks this worker holds on its timer."""
    return len(_held)


def _arm(due: float) -> None:
    """One entry on the hub's timer, at ``due``, however many tasks are held: the one it
    replaces is cancelled (kombu skips cancelled entries without counting them)."""
    global _alarm, _alarm_at
    if _alarm is not None:
        _alarm.cancel()
    _alarm, _alarm_at = _hub.call_later(max(due - time.monotonic(), 0.0), _fire), due


def _fire() -> None:
    """The hub's timer, at the soonest due time: run the held tasks due, soonest first, and
    those falling due meanwhile, for up to :data:`BATCH` seconds (``Task.apply``: the task's
    signals; its errors are logged as a worker logs them), then arm the timer for the next.
    Whatever happens, the timer is armed again."""
    global _alarm
    until = time.monotonic() + BATCH  # while these run, _alarm stays: no new entry
    try:
        while _hub is not None and _due and _due[0][0] <= time.monotonic() < until:
            _, key = heapq.heappop(_due)
            found = _held.pop(key, None)
            if found is not None:
                task, args, _ = found
                task.apply(args=args, throw=False)
    finally:
        _alarm = None
        if _hub is not None and _due:
            # Still due (out of time): a millisecond on, so the hub's turn ends first (its
            # sockets, a shutdown asked for) instead of calling this again at once.
            _arm(max(_due[0][0], time.monotonic() + 0.001))


def publish_held() -> int:
    """Stop holding (the worker stops); send every task still held through the broker, due
    when it was due. Returns how many were sent. The first send that fails ends it (a broker
    that does not answer takes its socket timeout for each): what is left, logged, is the
    beat's sweep's."""
    global _hub, _owner, _alarm
    if _alarm is not None:
        _alarm.cancel()
    _hub = _owner = _alarm = None
    _due.clear()
    sent = 0
    while _held:
        _, (task, args, due) = _held.popitem()
        try:
            task.apply_async(args, countdown=max(due - time.monotonic(), 0.0))
            sent += 1
        except Exception:
            logger.exception(
                "could not send %s%r at shutdown; %d more held task(s) left to the sweep",
                task.name, args, len(_held),
            )  # fmt: skip
            _held.clear()
            break
    if sent:
        logger.info("sent %d held task(s) through the broker", sent)
    return sent
