"""A task run later by this worker's own timer instead of through the broker (issue 15).

A table's bots play one after another: each bot turn a worker applies schedules the next
one, tens of milliseconds later. Sent through the broker, each such wake-up cost the worker a
publish, a receipt and an acknowledgement (five round trips to Redis and a message encoded and
decoded: about a third of a tables' worker's CPU in ``benchmarks/site.py``), only to come
back, half the time or more, to another worker, which read the table's state again. A worker
that runs tasks in its main thread (the solo pool of ``trix-worker@.service``) keeps such a
task on the timer of its event loop (kombu's hub, which also holds the tasks sent with a
countdown) and runs it there with :meth:`celery.app.task.Task.apply`, with the same signals
(the database connection check of ``trix_site.celery``) as a task taken from the broker.

What is held only here is lost if the process dies (SIGKILL, a crash): the beat's sweep
re-sends a wake-up overdue by ``TRIX_SWEEP_LATE`` (``games.services.clock.sweep``), as it does
for one lost in the broker. A worker that stops cleanly publishes what it still holds, each
at its own time (:func:`publish_held`, on ``worker_shutdown``).

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

_hub = None  # kombu's hub of this process's solo worker, once it is ready
_owner: tuple[int, int] | None = None  # (process id, thread id) that runs its tasks
_held: dict[int, tuple] = {}  # key -> (task, args, due: time.monotonic())
_due: list[tuple[float, int]] = []  # (due, key) of the held tasks, soonest first
_alarm: float | None = None  # when the hub's timer calls _fire next (None: not armed)
_keys = itertools.count()
BATCH = 0.02
"""Seconds one turn of the event loop may spend on held tasks before it looks at its sockets
(messages from the broker, acknowledgements) again."""
_poke: tuple[int, int] | None = None  # a pipe's (read, write) ends, in the hub's poll
_poked = False


class WorkerTimer(bootsteps.StartStopStep):
    """The worker's step (``app.steps["worker"]``, ``trix_site.celery``) that lends this
    module the event loop of a solo worker, each time the loop starts: at start and after
    every reconnection to the broker (Celery then resets the loop: its sockets, and every
    timer entry, held ones included)."""

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


def attach(hub) -> None:
    """Hold tasks on ``hub`` (kombu's event loop, run by this thread) from now on, the tasks
    already held included."""
    global _hub, _owner, _poke, _alarm
    if _poke is None:
        _poke = os.pipe()
        for end in _poke:
            os.set_blocking(end, False)
    if _poke[0] not in hub.readers:
        hub.add_reader(_poke[0], _drain)
    hub.on_tick.add(_wake_if_due)
    _hub, _owner, _alarm = hub, (os.getpid(), threading.get_ident()), None
    if _due:
        _arm(_due[0][0])


def run_later(task, args: tuple, delay: float) -> bool:
    """Hold ``task(*args)`` to run in ``delay`` seconds (0 or less: as soon as the worker is
    free) on this worker's timer. Returns False, holding nothing, when this process or thread
    has no such timer: the caller sends the task through the broker instead."""
    if _hub is None or _owner != (os.getpid(), threading.get_ident()):
        return False
    key, due = next(_keys), time.monotonic() + max(delay, 0.0)
    _held[key] = (task, args, due)
    heapq.heappush(_due, (due, key))
    if _alarm is None or due < _alarm:
        _arm(due)
    return True


def held() -> int:
    """How many tasks this worker holds on its timer."""
    return len(_held)


def _arm(due: float) -> None:
    global _alarm
    _alarm = due
    _hub.call_later(max(due - time.monotonic(), 0.0), _fire, due)


def _fire(armed_for: float) -> None:
    """The hub's timer, at the soonest due time: run the held tasks due, soonest first, and
    those falling due meanwhile, for up to ``BATCH`` seconds (Task.apply: the task's signals;
    its errors logged as a worker logs them, never raised); then wait for the next.

    One entry on the hub's timer, however many tasks are held, that ends only once the next
    task is not due yet: kombu's hub runs at most 10 timer entries a turn and, when it stops
    at that limit, waits up to a second on its sockets before the next turn
    (``Hub.fire_timers`` then returns its longest wait). One entry per task, due a few
    milliseconds apart, reached that limit, and the next, due a moment later, waited that
    second (``benchmarks/site.py``: p99 0.4-0.9 s from due to applied at 400 actions/s)."""
    global _alarm
    if armed_for != _alarm:
        return  # armed again sooner since (or the hub was lent again): that entry runs them
    until = time.monotonic() + BATCH  # while these run, _alarm stays: no new entry
    while _hub is not None and _due and _due[0][0] <= time.monotonic() < until:
        _, key = heapq.heappop(_due)
        found = _held.pop(key, None)
        if found is not None:
            task, args, _ = found
            task.apply(args=args, throw=False)
    _alarm = None
    if _hub is not None and _due:
        # Still due (out of time): a millisecond on, so the hub's turn ends first (its
        # sockets, a shutdown asked for) instead of calling this again at once.
        _arm(max(_due[0][0], time.monotonic() + 0.001))


def _wake_if_due() -> None:
    """The hub's ``on_tick``, just before it waits on its sockets: when a held task is due
    already (the batch ran out of time, or the hub stopped at its limit of timer entries for
    the turn), a byte on the pipe ends that wait at once."""
    global _poked
    if _hub is not None and _due and not _poked and _due[0][0] <= time.monotonic():
        os.write(_poke[1], b"x")
        _poked = True


def _drain() -> None:
    global _poked
    try:
        os.read(_poke[0], 4096)
    except BlockingIOError:
        pass
    _poked = False


def publish_held() -> int:
    """Celery's ``worker_shutdown``: stop holding; send every task still held through the
    broker, due when it was due. Returns how many were sent."""
    global _hub, _owner, _alarm
    _hub = _owner = _alarm = None
    _due.clear()
    sent = 0
    while _held:
        _, (task, args, due) = _held.popitem()
        try:
            task.apply_async(args, countdown=max(due - time.monotonic(), 0.0))
            sent += 1
        except Exception:  # the broker is gone: the beat's sweep finds the wake-up late
            logger.exception("could not send %s%r at shutdown", task.name, args)
    if sent:
        logger.info("sent %d held task(s) through the broker", sent)
    return sent
