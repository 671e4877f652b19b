"""Kill the worker (SIGKILL) while a round is being opened and while the prizes are being
paid: a second worker's beat sweep finishes the job, and nothing is opened or paid twice.

The test holds the worker inside the transaction it wants to kill: in a transaction of its own
it locks rows that transaction's next step needs (``SELECT ... FOR UPDATE``: the entrants'
users, which the round's seats reference; the tournament's escrow account, which the prizes
are posted from), waits until PostgreSQL shows the worker's connection waiting on that lock
(``pg_stat_activity``, ``pg_blocking_pids``), and kills the worker there."""

from __future__ import annotations

import uuid

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from games.models import Table
from tests.db_locks import rows_locked
from tests.tournaments.helpers import QUICK, check_finished, run_until
from tests.worker import Worker, use_queue
from tournaments import services
from tournaments.models import Entry, Round, RoundTable, Status, Tournament
from wallet import inputs
from wallet.models import Account, Transaction

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("no_session_worker")]

_CRASHING = "trix-test-crashing-worker"
"""The ``application_name`` of the crashing worker's connections (libpq's ``PGAPPNAME``)."""

_BLOCKED_BY = """
    SELECT count(*) FROM pg_stat_activity AS a
    WHERE a.application_name = %(app)s AND a.wait_event_type = 'Lock' AND (
        %(holder)s = ANY(pg_blocking_pids(a.pid))
        OR EXISTS (
            SELECT 1 FROM unnest(pg_blocking_pids(a.pid)) AS b(pid)
            WHERE %(holder)s = ANY(pg_blocking_pids(b.pid))
        )
    )
"""
"""The crashing worker's connections waiting on a lock ``holder`` holds, directly or behind
another connection waiting on it (the session worker's sweep may have taken the tournament's
row first and wait on the same lock)."""


def _wait_blocked(worker: Worker, holder: int) -> None:
    """Until ``worker`` (started with ``PGAPPNAME`` ``_CRASHING``) waits on ``holder``'s lock."""

    def blocked() -> bool:
        with connection.cursor() as cursor:
            cursor.execute(_BLOCKED_BY, {"app": _CRASHING, "holder": holder})
            return cursor.fetchone()[0] > 0

    worker.wait_until(blocked, 120, 0.05)


@pytest.fixture
def own_queue(worker):
    """Tasks of this test go to a queue of its own (the crashing worker and its successor)."""
    queue = f"trix-tcrash-{uuid.uuid4().hex[:8]}"
    old = use_queue(queue)
    workers: list[Worker] = []
    yield queue, workers
    for w in workers:
        w.stop()
    use_queue(old)


def _event(make_tournament, player, count: int):
    t = make_tournament(options=QUICK, rounds=1, review_seconds=0)
    for i in range(count):
        services.register(tournament_id=t.pk, by=player(f"c{t.pk}-{i}"), client_seed=f"s{i}")
    return t


def test_killed_while_opening_a_round(own_queue, make_tournament, player, staff):
    queue, workers = own_queue
    t = _event(make_tournament, player, 16)
    first = Worker(queue, env={"PGAPPNAME": _CRASHING})
    workers.append(first)
    entrants = Entry.objects.filter(tournament=t).values_list("user_id", flat=True)
    with rows_locked(get_user_model(), entrants) as holder:  # the round's seats wait for them
        services.start(tournament_id=t.pk, by=staff, reason="crash test")
        _wait_blocked(first, holder)
        first.stop(kill=True)
        # Nothing of the round can be there while the lock is held: rolled back.
        assert not Round.objects.filter(tournament=t).exists()
        assert not Table.objects.filter(origin__startswith=f"{t.ref}/").exists()
    second = Worker(queue)  # its beat sweep finds the running tournament with no round
    workers.append(second)
    t = run_until(t.pk, (Status.REVIEW, Status.FINISHED), worker=second)
    assert Round.objects.filter(tournament=t).count() == 1
    assert RoundTable.objects.filter(round__tournament=t).count() == 4
    assert Table.objects.filter(origin__startswith=f"{t.ref}/").count() == 4
    run_until(t.pk, (Status.FINISHED,), worker=second)
    check_finished(t)


def test_killed_while_paying_the_prizes(own_queue, make_tournament, player, staff):
    queue, workers = own_queue
    t = _event(make_tournament, player, 4)
    first = Worker(queue, env={"PGAPPNAME": _CRASHING})
    workers.append(first)
    escrow = Account.objects.filter(reference=inputs.escrow_ref(t.ref, "tournament"))
    with rows_locked(Account, escrow.values_list("pk", flat=True)) as holder:
        services.start(tournament_id=t.pk, by=staff, reason="crash test")
        run_until(t.pk, (Status.REVIEW,), worker=first)
        _wait_blocked(first, holder)  # the prizes' posting waits for the escrow's row
        first.stop(kill=True)
        # Nobody can have paid while the escrow's row is held: rolled back.
        assert Tournament.objects.get(pk=t.pk).status == Status.REVIEW
        assert not Transaction.objects.filter(reference=t.ref, kind="prizes").exists()
    second = Worker(queue)  # its sweep sends the payment again
    workers.append(second)
    run_until(t.pk, (Status.FINISHED,), worker=second)
    check_finished(t)
    assert Transaction.objects.filter(reference=t.ref, kind="prizes").count() == 1
