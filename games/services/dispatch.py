"""Every message the table services send. Tasks are sent by name (``games.tasks.*``, with
:func:`celery.signature`: the registered task's own ``apply_async`` where this process has
imported it, else :meth:`celery.Celery.send_task`; the same routes, queues and priorities
either way), so no service imports a task module: :mod:`games.tasks` sits above the
services and calls them.

Sends made inside a change's transaction go out only after it commits
(``transaction.on_commit``), so a worker never looks at a change that was rolled back. They
are ``robust``: a send that fails after the commit (the broker is down) is logged and does not
fail the request, whose change is saved; the beat's sweep re-sends what it finds waiting (a
wake-up overdue by ``TRIX_SWEEP_LATE``, an action pending for 2 s, a finished table not paid):

- :func:`follow`: what a change found must happen next
  (:class:`games.services.deadlines.Next`, returned by
  :func:`games.services.changes.commit` and :func:`games.services.deadlines.schedule`): the
  wake-up, the pot's payment, the end of the match or of a deal announced;
- :func:`send_wake`: look at the table at its ``wake_at`` (a bot's turn, a timeout, the next
  deal; :mod:`games.services.wakes`);
- :func:`send_pay_pot`: pay a finished staked table's pot (:mod:`games.services.money`);
- :func:`announce_end`: :data:`games.signals.table_finished` for a table that ended.
- :func:`announce_deal_end`: :data:`games.signals.deal_ended` for a deal that ended while
  the match goes on.

The sweep (:func:`games.services.wakes.sweep`) re-sends lost messages at once with
:func:`resend_wake`, :func:`resend_action` and :func:`resend_pay_pot`.
"""

from __future__ import annotations

from celery import signature
from django.db import transaction
from django.utils import timezone

from games import signals
from games.models import Table
from games.services.deadlines import Next
from trix_site import worker_timer

WAKE = "games.tasks.wake"
"""The task of a table's wake-up: ``(table id, version)``."""
APPLY_ACTION = "games.tasks.apply_action"
"""The task that applies a seat's action stored pending: ``(action id as a string,)``."""
PAY_POT = "games.tasks.pay_pot"
"""The task that pays a finished table's pot: ``(table id,)``."""


def _send(name: str, *args, countdown: float | None = None) -> None:
    """Now: the task named ``name`` with ``args``, after ``countdown`` seconds if given."""
    signature(name, args=args).apply_async(countdown=countdown)


def follow(table: Table, then: Next, *, on_this_worker: bool = False) -> None:
    """After the commit, do what :func:`games.services.changes.commit` (or
    :func:`games.services.deadlines.schedule`) found must happen next for ``table``, just
    changed and saved: pay the pot (:func:`send_pay_pot`), announce the end
    (:func:`announce_end`), send the wake-up for ``then.wake_at`` (:func:`send_wake`;
    ``on_this_worker`` as there), announce a deal's end (:func:`announce_deal_end`)."""
    if then.pay_pot:
        send_pay_pot(table.pk)
    if then.finished:
        announce_end(table)
    send_wake(table, on_this_worker=on_this_worker)
    if then.deal_ended is not None:
        announce_deal_end(table, then.deal_ended)


def send_wake(table: Table, *, on_this_worker: bool = False) -> None:
    """After commit, ask a worker to look at the table at ``wake_at``. ``on_this_worker``:
    keep it on this worker's own timer where it has one (a solo worker's main thread,
    :mod:`trix_site.worker_timer`), not through the broker: the wake-up a bot's turn sets
    (:func:`games.services.fast_turn.try_bot_turn`: the next bot's turn, or the deadline of a
    person to act), so that the worker that holds the table's state plays on."""
    if table.wake_at is None:
        return

    table_id, version, when = table.pk, table.version, table.wake_at

    def send():
        delay = (when - timezone.now()).total_seconds()
        if on_this_worker and worker_timer.run_later(signature(WAKE), (table_id, version), delay):
            return
        _send(WAKE, table_id, version, countdown=delay if delay > 0.01 else None)

    transaction.on_commit(send, robust=True)


def send_pay_pot(table_id: int) -> None:
    """After commit, ask a worker to pay table ``table_id``'s pot."""
    transaction.on_commit(lambda: _send(PAY_POT, table_id), robust=True)


def announce_end(table: Table) -> None:
    """After the commit, :data:`games.signals.table_finished` for ``table``'s end."""
    table_id, kind, origin, status = table.pk, table.kind, table.origin, table.status
    transaction.on_commit(
        lambda: signals.table_finished.send(
            sender=Table, table_id=table_id, kind=kind, origin=origin, status=status
        ),
        robust=True,
    )


def announce_deal_end(table: Table, deal: int) -> None:
    """After the commit, :data:`games.signals.deal_ended` for deal ``deal`` of ``table``."""
    table_id, kind, origin = table.pk, table.kind, table.origin
    transaction.on_commit(
        lambda: signals.deal_ended.send(
            sender=Table, table_id=table_id, kind=kind, origin=origin, deal=deal
        ),
        robust=True,
    )


def resend_wake(table_id: int, version: int) -> None:
    """Now: a wake-up of table ``table_id`` for ``version`` (the sweep)."""
    _send(WAKE, table_id, version)


def resend_action(action_id) -> None:
    """Now: apply the pending action ``action_id`` (the sweep: a row an older release stored
    ``pending``, :func:`games.services.actions.apply_action`)."""
    _send(APPLY_ACTION, str(action_id))


def resend_pay_pot(table_id: int) -> None:
    """Now: pay table ``table_id``'s pot (the sweep)."""
    _send(PAY_POT, table_id)
