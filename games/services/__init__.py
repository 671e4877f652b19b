"""Every change of a table: plain functions, each one database transaction, by concern.

- :mod:`~games.services.tables`: a player's table (:func:`create_table`), :func:`take_seat`,
  :func:`seat_bot`, :func:`leave`, :func:`replace_with_bot`, :func:`check_in`;
- :mod:`~games.services.seated_tables`: tables with their seats assigned
  (:func:`create_seated_table`, many at once: :func:`create_seated_tables`);
- :mod:`~games.services.cancellation`: :func:`cancel_table`, :func:`expire_open_tables`;
- :mod:`~games.services.rematch`: a finished match's rematch with the same four
  (:func:`~games.services.rematch.propose`, :func:`~games.services.rematch.decline`);
- :mod:`~games.services.live_seats`: one person, one live seat (``TRIX_MAX_LIVE_SEATS``), the
  rule every way of sitting asks, under the person's row lock;
- :mod:`~games.services.actions`: a person's action, :func:`submit_action` (the web request
  applies it), :func:`apply_action` (a worker, for a row an older release stored pending);
  :func:`come_back`;
- :mod:`~games.services.acting`: a seat's action applied under the table's lock, the one way
  (the staleness rule, the engine's check, one commit);
- :mod:`~games.services.deadlines`: the timer arithmetic: the phase timers
  (``PHASE_TIMER``) and their limits, the deadline and wake-up set after each change
  (``schedule``, which returns what must happen next: a ``Next``);
- :mod:`~games.services.wakes`: the worker's entry points of the timers, :func:`wake` (next
  deal, a bot's turn, timeouts) and the beat's :func:`sweep`;
- :mod:`~games.services.server_turns`: what a wake-up plays for a seat (a bot's action, a
  timeout's default action, a forced card);
- :mod:`~games.services.picks`: a seat's private doubling pick, kept beside the match (it
  takes no version, event or deadline: nobody else can tell it happened);
- :mod:`~games.services.presence`: a seat away after two timeouts in a row, played at once
  until its player acts or says they are back (:func:`come_back`);
- :mod:`~games.services.fast_turn`: a bot's turn in one statement (PostgreSQL);
- :mod:`~games.services.changes`: the one writer of a change (row lock, events, checkpoint,
  the end of a deal); its ``commit`` returns what must happen next and sends nothing;
- :mod:`~games.services.money`: every money movement (stakes, refunds, :func:`pay_pot`),
  the only door to ``wallet.services``;
- :mod:`~games.services.dispatch`: every message to a worker (tasks sent by name: no
  service imports ``games.tasks``, which sits above them), ``follow`` (what a commit
  returned) and the ``table_finished`` and ``deal_ended`` announcements.

Every change locks the table row (``SELECT ... FOR UPDATE``), so one change at a time is
applied per table, each exactly once (an action by its id and the version it was made
against): a person's action and leave in the web request (a refusal is a clear
:class:`~games.errors.TableError`, nothing changed), the timers, bots' turns and payouts in
the workers (``games.tasks``). Tasks are sent only after the transaction commits.

The names below are the public ones; import them from ``games.services``.
"""

from games.errors import TableError
from games.services.actions import apply_action, come_back, submit_action
from games.services.cancellation import cancel_table, expire_open_tables
from games.services.money import pay_pot
from games.services.seated_tables import create_seated_table, create_seated_tables
from games.services.tables import (
    check_in,
    create_table,
    leave,
    replace_with_bot,
    seat_bot,
    take_seat,
)
from games.services.wakes import sweep, wake

__all__ = [
    "TableError",
    "apply_action",
    "cancel_table",
    "check_in",
    "come_back",
    "create_seated_table",
    "create_seated_tables",
    "create_table",
    "expire_open_tables",
    "leave",
    "pay_pot",
    "replace_with_bot",
    "seat_bot",
    "submit_action",
    "sweep",
    "take_seat",
    "wake",
]
