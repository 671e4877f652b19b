"""Two players leave a paid table at the same moment. The first leave's forfeit ends the
match (applied by its request, under the table's lock); the second leave says what
happened: 409 ``match_over`` naming the seat whose forfeit ended the match, never a 200 for
a leave that did not count. Both leaves run at once in two threads, each with its own
PostgreSQL connection."""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from rest_framework.test import APIClient

from games import services
from games.models import Table, TableAction
from wallet import services as ledger
from wallet.payments import DemoProvider

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def paid_match(tasks_applied_here, make_user):
    """A staked partnership table with four people (seats 0+2 against 1+3), match started."""
    users = [make_user(name) for name in ("alice", "bob", "carol", "dave")]
    for user in users:
        ledger.deposit(user=user, amount=1_000, key=f"fund:{user.pk}", provider=DemoProvider())
    options = {"choose_timer": 3600, "double_timer": 3600, "play_timer": 3600}
    table = services.create_table(
        user=users[0], variant="complex_partner", stake=100, options=options, bot_seed="fixed"
    )
    for seat, user in enumerate(users):
        services.take_seat(user=user, table_id=table.pk, seat=seat, client_seed=f"s{seat}")
    table.refresh_from_db()
    assert table.status == "playing"
    services.wake(table_id=table.pk, version=table.version)  # the first deal
    return table, users


def _leave_at_once(table_id: int, users) -> dict:
    """Each user posts ``leave`` from their own thread, released together; user -> answer."""
    barrier = threading.Barrier(len(users))
    answers: dict = {}

    def leave(user):
        client = APIClient()
        client.force_login(user)
        try:
            barrier.wait(timeout=10)
            answers[user.username] = client.post(f"/api/tables/{table_id}/leave/")
        finally:
            connection.close()

    threads = [threading.Thread(target=leave, args=(u,)) for u in users]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return answers


@pytest.mark.parametrize("leavers", [(0, 1), (0, 2)], ids=["opponents", "partners"])
def test_the_second_of_two_simultaneous_leaves_is_told_it_did_not_count(paid_match, leavers):
    table, users = paid_match
    answers = _leave_at_once(table.pk, [users[s] for s in leavers])
    codes = sorted(r.status_code for r in answers.values())
    assert codes == [200, 409], {k: (r.status_code, r.content[:300]) for k, r in answers.items()}
    first = next(users.index(u) for u in users if answers.get(u.username, 0) and
                 answers[u.username].status_code == 200)  # fmt: skip
    second = next(s for s in leavers if s != first)
    refused = answers[users[second].username].json()
    assert refused["code"] == "match_over"
    # The seat as the table page numbers it (1-4), not the record's 0-3.
    assert f"Seat {first + 1} left first" in refused["error"]
    assert "did not count" in refused["error"]
    # One forfeit was taken: the one that ends the match.
    forfeits = TableAction.objects.filter(table=table, action__type="forfeit")
    assert [(a.seat, a.status) for a in forfeits] == [(first, "applied")]
    done = Table.objects.get(pk=table.pk)
    assert done.status == "finished" and done.result["forfeit"] == first
    assert not TableAction.objects.filter(table=table, status="rejected").exists()


def test_a_player_leaving_twice_is_answered_the_same_both_times(paid_match):
    """The same player's leave sent again (a double click): their own forfeit ended the match,
    so the second answer is 200 too, nothing changes, and one forfeit is stored."""
    table, users = paid_match
    client = APIClient()
    client.force_login(users[0])
    assert client.post(f"/api/tables/{table.pk}/leave/").status_code == 200
    done = Table.objects.get(pk=table.pk)
    assert done.status == "finished" and done.result["forfeit"] == 0
    assert client.post(f"/api/tables/{table.pk}/leave/").status_code == 200
    assert Table.objects.get(pk=table.pk).version == done.version
    assert TableAction.objects.filter(table=table, action__type="forfeit").count() == 1
