"""Server timers: a seat that never acts gets the default actions and the match ends."""

from __future__ import annotations

import pytest

from games.models import TableAction, TableEvent
from tests.games.helpers import new_table, seat_bots, wait_finished

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_seat_that_never_acts_times_out_and_the_match_ends(worker, api):
    alice = api("alice")
    # Timers x0.01 in tests: 3 s -> 30 ms per turn.
    table = new_table(alice, choose_timer=3, double_timer=3, play_timer=3)
    alice.post(f"/api/tables/{table['id']}/seats/", {"seat": 1}, format="json")
    seat_bots(alice, table["id"], [0, 2, 3])
    done = wait_finished(table["id"], 120)
    assert done.result["deals_played"] == 8
    timeouts = TableAction.objects.filter(table_id=table["id"], seat=1, source="timeout")
    assert timeouts.count() >= 8 * 13 * 0.5
    assert not TableAction.objects.filter(table_id=table["id"], seat=1, source="user").exists()
    assert TableEvent.objects.filter(table_id=table["id"], type="timeout").count() == (
        timeouts.count()
    )
