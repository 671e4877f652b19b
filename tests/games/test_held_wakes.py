"""A table's bot turns on the production recipe's worker (one solo process,
``trix-worker@.service``): the worker keeps each bot's next turn on its own timer instead of
sending it through the broker (``trix_site.worker_timer``, issue 15), and a worker that stops
hands what it holds on through the broker. No beat here: nothing sweeps lost wake-ups, so a
table moves only if every wake-up reached a worker."""

from __future__ import annotations

import re
import signal

import pytest

from games import services
from games.models import Table, TableAction
from tests.worker import Worker, new_queue, sending_to_queue

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
    pytest.mark.usefixtures("no_session_worker"),
]


def _bot_table(user) -> int:
    table = services.create_table(user=user, variant="complex_partner", stake=0, options={})
    for seat in range(4):
        services.seat_bot(user=user, table_id=table.pk, seat=seat, bot="rules")
    return table.pk


def _version(table_id: int) -> int:
    return Table.objects.values_list("version", flat=True).get(pk=table_id)


def _received_wakes(worker: Worker) -> int:
    return len(re.findall(r"Task games\.tasks\.wake\[[^\]]+\] received", worker.tail(10**8)))


def _finished_wakes(worker: Worker) -> int:
    """Wake-ups the worker finished (through the broker or from its own timer: both log)."""
    return len(re.findall(r"Task games\.tasks\.wake\[[^\]]+\] succeeded", worker.tail(10**8)))


def _bot_turns(table_id: int) -> int:
    return TableAction.objects.filter(table_id=table_id, source="bot").count()


def test_a_solo_worker_plays_bot_turns_on_its_own_timer(django_user_model):
    """Before: every bot turn was a message through Redis (a publish, a receipt, an ack);
    now only those the worker cannot keep (a deal's start and end, the first turn after a
    seat's change) are."""
    user = django_user_model.objects.create_user("timer")
    queue = new_queue("trix-held")
    with sending_to_queue(queue):
        worker = Worker(queue, production=True, beat=False)
        try:
            table_id = _bot_table(user)
            worker.wait_until(lambda: _version(table_id) > 150, 120, 0.05)
            received = _received_wakes(worker)
        finally:
            worker.stop()
    bot_turns = TableAction.objects.filter(table_id=table_id, source="bot").count()
    assert bot_turns > 100
    assert received < bot_turns / 4, (received, bot_turns)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGQUIT], ids=["warm", "cold"])
def test_a_stopping_worker_hands_its_tables_on(django_user_model, sig):
    """SIGTERM (a deploy, systemd's stop: Celery's warm shutdown) or SIGQUIT (its cold one):
    the worker sends the turns it holds through the broker, and the next worker plays on at
    once. Without that the table stood still until the beat's sweep (here: for ever)."""
    user = django_user_model.objects.create_user("handover")
    queue = new_queue("trix-held")
    with sending_to_queue(queue):
        table_id = _bot_table(user)
        # Each bot "thinks" 5 s on this worker: from a deal's first bot turn to its end,
        # the worker holds the next bot's turn on its timer, and between two turns it is idle
        # (a cold stop mid-turn would lose the turn being played: the sweep's case). So
        # once a wake-up has finished (its log line) after the deal's first bot turn, the
        # stop finds a turn held.
        first = Worker(queue, {"TRIX_TEST_BOT_DELAY": "5"}, production=True, beat=False)
        try:
            first.wait_until(
                lambda: _finished_wakes(first) >= 2 and _bot_turns(table_id) >= 2, 60, 0.01
            )
        finally:
            first.stop(sig=sig)
        assert "sent 1 held task(s) through the broker" in first.tail(10**6), first.tail()
        stopped = _version(table_id)
        second = Worker(queue, production=True, beat=False)
        try:
            second.wait_until(lambda: _version(table_id) > stopped + 30, 60, 0.05)
        finally:
            second.stop()
