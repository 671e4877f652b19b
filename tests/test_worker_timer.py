"""The tasks a solo worker holds on its own event loop (``trix_site.worker_timer``), on a real
kombu hub driven here as the worker drives it, and real Celery tasks (``tests.outage_app``:
``mark`` runs in this process and notes when)."""

from __future__ import annotations

import json
import threading
import time

import pytest
import redis
from django.conf import settings
from kombu.asynchronous import Hub
from kombu.asynchronous.timer import Timer

from tests.outage_app import MARKS, mark
from tests.redis_server import dead_url
from tests.worker import new_queue, sending_to, sending_to_queue
from trix_site import worker_timer


@pytest.fixture
def hub():
    """A hub lent to the module, as the worker's step lends the solo worker's; nothing held
    is left behind."""
    MARKS.clear()
    loop = Hub(Timer())
    worker_timer.attach(loop)
    yield loop
    try:
        assert worker_timer.held() == 0, "the test left tasks held"
    finally:
        with sending_to_queue(new_queue("trix-timer-left")):
            worker_timer.publish_held()  # stops holding
        loop.close()


def run(hub: Hub, until, timeout: float = 5.0) -> None:
    """Turn the hub's loop, as the worker does, until ``until()`` or ``timeout`` seconds."""
    loop = hub.create_loop()
    end = time.monotonic() + timeout
    while not until() and time.monotonic() < end:
        next(loop)


def test_held_tasks_due_one_after_another_run_on_time(hub):
    """Forty tasks due 2 ms apart, each taking 3 ms: the loop never has a moment with none
    due. kombu's hub runs at most 10 timer entries a turn and then waits up to a second on
    its sockets: with one entry per task, the eleventh waited that second (nothing comes from
    a broker here, as little came in the worker once bot turns stopped going through it)."""
    start = time.monotonic()
    for i in range(40):
        assert worker_timer.run_later(mark, (i, 0.003), 0.002 * i)
    run(hub, lambda: len(MARKS) == 40)
    assert [key for key, _ in MARKS] == list(range(40)), "each once, in the order due"
    late = max(at - (start + 0.002 * key) for key, at in MARKS)
    assert late < 0.25, f"a task ran {late:.3f} s after it was due"


def test_a_task_due_just_after_ten_others_is_not_kept_waiting(hub):
    """Ten tasks due now and one due 20 ms later. With one hub entry per task, the hub's turn
    stopped at its limit of 10 entries with the eleventh not due yet, and waited a second on
    its sockets (``benchmarks/site.py``: p99 0.4-0.9 s from due to applied)."""
    start = time.monotonic()
    for i in range(10):
        worker_timer.run_later(mark, (i,), 0)
    worker_timer.run_later(mark, ("after",), 0.02)
    run(hub, lambda: len(MARKS) == 11)
    assert [key for key, _ in MARKS] == [*range(10), "after"]
    late = MARKS[-1][1] - (start + 0.02)
    assert late < 0.25, f"the last task ran {late:.3f} s after it was due"


def test_other_timer_entries_due_together_do_not_hold_up_a_task(hub):
    """Ten of Celery's own entries due at once (tasks sent with a countdown, say) took the
    hub's turn to its limit of 10, and a held task due 30 ms later waited a second (a
    review's finding)."""
    start = time.monotonic()
    for _ in range(10):
        hub.call_later(0, lambda: None)
    worker_timer.run_later(mark, ("after",), 0.03)
    run(hub, lambda: MARKS)
    late = MARKS[0][1] - (start + 0.03)
    assert late < 0.25, f"the task ran {late:.3f} s after it was due"


def test_one_entry_on_the_hubs_timer_however_often_a_sooner_task_comes(hub):
    """Each task due sooner than the soonest held used to add an entry and leave the one
    before on the hub's timer, each counting towards its limit of 10 a turn (a review's
    finding: a task due at +0.63 s ran at +1.6 s). The entry replaced is cancelled."""
    start = time.monotonic()
    worker_timer.run_later(mark, ("last",), 0.6)
    for i in range(11):
        worker_timer.run_later(mark, (i,), 0.5 - 0.04 * i)
    live = [entry for _, _, entry in hub.timer._queue if not entry.canceled]
    assert len(live) == 1
    run(hub, lambda: len(MARKS) == 12)
    assert [key for key, _ in MARKS] == [*reversed(range(11)), "last"]
    late = MARKS[-1][1] - (start + 0.6)
    assert late < 0.25, f"the last task ran {late:.3f} s after it was due"


def test_an_error_out_of_a_held_task_leaves_the_timer_running(hub, monkeypatch, caplog):
    """Task.apply keeps a task's own errors (logged), but Celery's tracer lets its own out;
    such an error left the timer unarmed for good (every later task held and never run) and
    the loop turning without pause (a review's finding)."""
    apply = mark.apply
    calls = []

    def apply_failing_once(*args, **kwargs):
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("the tracer's own error")
        return apply(*args, **kwargs)

    monkeypatch.setattr(mark, "apply", apply_failing_once)
    worker_timer.run_later(mark, ("lost",), 0)
    worker_timer.run_later(mark, ("next",), 0.05)
    run(hub, lambda: MARKS)
    assert [key for key, _ in MARKS] == ["next"]
    assert "the tracer's own error" in caplog.text  # kombu's hub logs it: "Error in timer"
    worker_timer.run_later(mark, ("after",), 0)
    run(hub, lambda: len(MARKS) == 2)
    assert [key for key, _ in MARKS] == ["next", "after"]


def test_a_held_task_runs_after_its_delay_and_not_before(hub):
    start = time.monotonic()
    assert worker_timer.run_later(mark, ("later",), 0.2)
    assert worker_timer.held() == 1
    run(hub, lambda: MARKS)
    assert [key for key, _ in MARKS] == ["later"]
    assert 0.2 <= MARKS[0][1] - start < 0.45
    assert worker_timer.held() == 0


def test_held_tasks_survive_the_loops_reset(hub):
    """When the broker's connection is lost Celery resets the loop (its sockets) and clears
    its timer, then lends the loop again (``register_with_event_loop``): what was held still
    runs, once, however many times the loop is lent."""
    worker_timer.run_later(mark, ("held",), 0.05)
    hub.reset()
    hub.timer.clear()
    worker_timer.attach(hub)
    worker_timer.attach(hub)
    run(hub, lambda: MARKS)
    run(hub, lambda: False, timeout=0.2)
    assert [key for key, _ in MARKS] == ["held"]


def test_only_the_loops_own_thread_holds_tasks(hub):
    """Another thread (a thread pool's, say) is refused: the hub is not safe to touch from
    there. The caller sends the task through the broker."""
    answers: list[bool] = []
    other = threading.Thread(target=lambda: answers.append(worker_timer.run_later(mark, (1,), 0)))
    other.start()
    other.join()
    assert answers == [False]
    assert worker_timer.held() == 0


def test_nothing_is_held_where_no_loop_was_lent():
    """The web process, a prefork pool's child, a worker with TRIX_WORKER_TIMER off."""
    assert worker_timer.run_later(mark, (1,), 0) is False
    assert worker_timer.held() == 0


def test_a_stopping_worker_sends_what_it_holds_through_the_broker(hub):
    """``worker_shutdown``: each held task goes to the broker, due when it was due."""
    worker_timer.run_later(mark, ("soon",), 30)
    queue = new_queue("trix-timer")
    with sending_to_queue(queue):
        sent_at = time.time()
        assert worker_timer.publish_held() == 1
    assert worker_timer.held() == 0
    assert worker_timer.run_later(mark, (1,), 0) is False, "it no longer holds"
    client = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    lists = []
    try:
        # kombu keeps a list per priority: the queue's name, then a separator and the priority.
        lists = list(client.scan_iter(match=f"{queue}*"))
        messages = [json.loads(m) for name in lists for m in client.lrange(name, 0, -1)]
    finally:
        for name in lists:
            client.delete(name)
        client.close()
    assert len(messages) == 1
    headers = messages[0]["headers"]
    assert headers["task"] == "tests.outage_app.mark"
    assert headers["argsrepr"] == "('soon',)"
    from datetime import datetime

    due = datetime.fromisoformat(headers["eta"]).timestamp()
    assert 29 <= due - sent_at <= 31


def test_at_shutdown_a_broker_that_cannot_be_reached_is_tried_once(hub, caplog):
    """Each send to a broker that does not answer costs its retries and timeouts (15 s each
    when it accepts and never answers): systemd's stop timeout would kill the worker part
    way. The first failure ends the sending; the rest is the sweep's, and the log says so."""
    for i in range(3):
        worker_timer.run_later(mark, (i,), 30)
    with sending_to(dead_url(), new_queue("trix-timer")):
        assert worker_timer.publish_held() == 0
    assert worker_timer.held() == 0
    failures = [r for r in caplog.records if "could not send" in r.getMessage()]
    assert len(failures) == 1, [r.getMessage() for r in failures]
    assert "2 more held task(s) left to the sweep" in failures[0].getMessage()
