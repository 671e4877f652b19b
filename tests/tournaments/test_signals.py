"""The wiring: ``games.signals.table_finished`` for a tournament table schedules the task
that records it, after the commit; other tables are ignored. (The whole path, signal to
recorded table to next round, runs on the worker in ``test_events.py``.)"""

from __future__ import annotations

import pytest

from games.signals import table_finished
from tournaments.signals import on_table_finished

pytestmark = pytest.mark.django_db


def test_the_receiver_is_connected_once():
    receivers = [entry[1]() for entry in table_finished.receivers]
    assert receivers.count(on_table_finished) == 1


def test_only_tournament_tables_schedule_a_task(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        on_table_finished(table_id=1, kind="staked", origin="", status="finished")
        on_table_finished(table_id=2, kind="tournament", origin="other:1", status="finished")
    assert callbacks == []
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        table_finished.send(
            sender=None, table_id=3, kind="tournament", origin="tournament:1/round:1/table:0",
            status="finished",
        )  # fmt: skip
    # One of the tournaments' own (the ratings app schedules its task on the same signal).
    ours = [c for c in callbacks if c.__qualname__.startswith("on_table_finished.")]
    assert len(ours) == 1
