"""Kill the worker (SIGKILL) while a round is being opened and while the prizes are being
paid: a second worker's beat sweep finishes the job, and nothing is opened or paid twice.

The crashing worker runs with ``TRIX_TOURNAMENT_TEST_PAUSE``: it sleeps inside the
transaction that opens a round (the pause times its tables, once they are created) and the one
that pays the prizes (after the ledger posting), so the kill lands inside them."""

from __future__ import annotations

import re
import time
import uuid

import pytest

from games.models import Table
from tests.tournaments.helpers import QUICK, check_finished, check_in_everyone, run_until
from tests.worker import Worker, use_queue
from tournaments import services
from tournaments.models import Round, RoundTable, Status, Tournament
from wallet.models import Transaction

pytestmark = pytest.mark.django_db(transaction=True)


def _wait_log(worker: Worker, text: str, timeout: float = 60) -> None:
    end = time.monotonic() + timeout
    while text not in worker.log.read_text(errors="replace"):
        assert time.monotonic() < end, f"{text!r} not in the worker log:\n{worker.tail()}"
        time.sleep(0.05)


def _succeeded(worker: Worker) -> str:
    """The names of the tasks the worker's log says succeeded."""
    lines = worker.log.read_text(errors="replace").splitlines()
    return "\n".join(line for line in lines if " succeeded in " in line)


def _slow_successes(worker: Worker, task: str, at_least: float) -> list[float]:
    """How long each run of ``task`` took that succeeded after ``at_least`` seconds or more
    (a run through the test pause did the work; a quick one found nothing due)."""
    found = re.findall(re.escape(task) + r"\[[^]]*\] succeeded in ([0-9.]+)s", _succeeded(worker))
    return [float(x) for x in found if float(x) >= at_least]


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
    first = Worker(queue, env={"TRIX_TOURNAMENT_TEST_PAUSE": "0.7"})
    workers.append(first)
    services.start(tournament_id=t.pk, by=staff, reason="crash test")
    _wait_log(first, "tournaments.tasks.advance")
    time.sleep(1.6)  # the four tables created, the transaction open (2.8 s of pause)
    first.stop(kill=True)
    assert "tournaments.tasks.advance" not in _succeeded(first)  # killed inside the task
    # Rolled back with the worker (or, if the session worker's own sweep already took over
    # behind the row lock, opened once and whole).
    opened = Round.objects.filter(tournament=t)
    assert opened.count() <= 1
    assert Table.objects.filter(origin__startswith=f"{t.ref}/").count() == 4 * opened.count()
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
    first = Worker(queue, env={"TRIX_TOURNAMENT_TEST_PAUSE": "3"})
    workers.append(first)
    services.start(tournament_id=t.pk, by=staff, reason="crash test")
    end = time.monotonic() + 120
    while Tournament.objects.get(pk=t.pk).status != Status.REVIEW:
        check_in_everyone(t.pk)
        assert time.monotonic() < end, first.tail()
        time.sleep(0.1)
    _wait_log(first, "tournaments.tasks.pay_prizes")
    time.sleep(1.0)  # the prizes are posted, the transaction still open
    first.stop(kill=True)
    # Killed inside the paying run (an earlier quick run may have found the review not over).
    assert _slow_successes(first, "tournaments.tasks.pay_prizes", 2.5) == []
    # Rolled back with the worker (or already paid once by the session worker's own sweep,
    # which waited behind the row lock).
    paid = Transaction.objects.filter(reference=t.ref, kind="prizes").count()
    status = Tournament.objects.get(pk=t.pk).status
    assert (status, paid) in ((Status.REVIEW, 0), (Status.FINISHED, 1))
    second = Worker(queue)  # its sweep sends the payment again
    workers.append(second)
    run_until(t.pk, (Status.FINISHED,), worker=second)
    time.sleep(2)  # further sweeps pay nothing more
    check_finished(t)
    assert Transaction.objects.filter(reference=t.ref, kind="prizes").count() == 1
