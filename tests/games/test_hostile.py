"""Hostile input: each refused with a clear JSON error, and the table unchanged."""

from __future__ import annotations

import uuid

import pytest
from rest_framework.test import APIClient

from games import state_store
from games.models import MatchRecord, Table, TableAction, TableEvent
from tests.games.helpers import new_table, seat_bots, wait_until

pytestmark = pytest.mark.django_db(transaction=True)


def _snapshot(table_id: int):
    table = Table.objects.get(pk=table_id)
    return (
        table.version,
        table.status,
        MatchRecord.objects.get(table_id=table_id).state,
        state_store.stored_json(table),
        TableEvent.objects.filter(table_id=table_id).count(),
    )


def _post(client, table_id, body, fmt="json"):
    return client.post(f"/api/tables/{table_id}/actions/", body, format=fmt)


def _my_turn(client, table_id):
    def ready():
        body = client.get(f"/api/tables/{table_id}/state/").json()
        view = body["view"]
        # Alice alone to act (no timers): the table waits for her and nothing else moves.
        return body if view and view["legal"] and view["to_act"] == [0] else None

    return wait_until(ready, 30)


@pytest.fixture
def seated(worker, api):
    """Alice at seat 0 against three bots, no timers, waiting for her first action."""
    alice = api("alice")
    table = new_table(alice, choose_timer=0, double_timer=0, play_timer=0)
    r = alice.post(f"/api/tables/{table['id']}/seats/", {"seat": 0}, format="json")
    assert r.status_code == 200
    seat_bots(alice, table["id"], [1, 2, 3])
    return alice, table["id"], _my_turn(alice, table["id"])


def _act(body):
    return {k: v for k, v in body["view"]["legal"][0].items() if k != "seat"}


def test_refusals_leave_the_table_unchanged(seated, api):
    alice, table_id, body = seated
    before = _snapshot(table_id)
    version = body["version"]
    legal = body["view"]["legal"]
    mallory = api("mallory")

    cases = []
    # Logged out.
    cases.append(
        (
            APIClient(),
            {"id": str(uuid.uuid4()), "version": version, "action": _act(body)},
            401,
            "not_authenticated",
        )
    )
    # Another user acting for a seat that is not theirs.
    cases.append(
        (
            mallory,
            {"id": str(uuid.uuid4()), "version": version, "action": _act(body)},
            403,
            "not_your_seat",
        )
    )
    # Stale version (from before the match started).
    cases.append(
        (
            alice,
            {"id": str(uuid.uuid4()), "version": 1, "action": _act(body)},
            409,
            "stale_version",
        )
    )
    # Malformed bodies.
    cases.append((alice, {"version": version, "action": _act(body)}, 400, "invalid"))
    cases.append(
        (alice, {"id": "not-a-uuid", "version": version, "action": _act(body)}, 400, "invalid")
    )
    cases.append(
        (
            alice,
            {"id": str(uuid.uuid4()), "version": version, "action": {"type": "dance"}},
            400,
            "invalid",
        )
    )
    cases.append(
        (
            alice,
            {"id": str(uuid.uuid4()), "version": version, "action": {"type": "play"}},
            400,
            "invalid",
        )
    )
    cases.append(
        (
            alice,
            {"id": str(uuid.uuid4()), "version": version, "action": {"type": "pass", "seat": 3}},
            400,
            "invalid",
        )
    )
    # An illegal action: a card not in hand, or the wrong kind of action for the phase.
    hand = set(body["view"]["hand"] or [])
    stranger = next(c for c in ("2C", "3C", "4C", "5C", "6C") if c not in hand)
    wrong = {"type": "play", "card": stranger}
    if legal[0]["type"] == "play":
        wrong = {"type": "contract", "contract": "king"}
    cases.append(
        (
            alice,
            {"id": str(uuid.uuid4()), "version": version, "action": wrong},
            400,
            "illegal_action",
        )
    )
    for client, payload, status, code in cases:
        r = _post(client, table_id, payload)
        assert r.status_code == status, (payload, r.content)
        assert r.json()["code"] == code and r.json()["error"], r.content
        assert _snapshot(table_id) == before
    r = alice.post(f"/api/tables/{table_id}/actions/", "{not json", content_type="application/json")
    assert r.status_code == 400 and r.json()["code"] == "malformed"
    r = _post(alice, 999999, {"id": str(uuid.uuid4()), "version": 1, "action": _act(body)})
    assert r.status_code == 404 and r.json()["code"] == "not_found"
    assert _snapshot(table_id) == before
    assert not TableAction.objects.filter(table_id=table_id, source="user").exists()


def test_out_of_turn_is_refused(worker, api):
    alice, bob = api("alice"), api("bob")
    table = new_table(alice, choose_timer=0, double_timer=0, play_timer=0)
    tid = table["id"]
    alice.post(f"/api/tables/{tid}/seats/", {"seat": 0}, format="json")
    bob.post(f"/api/tables/{tid}/seats/", {"seat": 1}, format="json")
    seat_bots(alice, tid, [2, 3])
    # Play until it is bob's turn alone; with no timers the table then waits for him.
    for _ in range(200):
        body = wait_until(lambda: _waiting_for_a_human(alice, tid), 30)
        if body["view"]["to_act"] == [1]:
            break
        if 0 in body["view"]["to_act"]:
            assert (
                _post(
                    alice,
                    tid,
                    {"id": str(uuid.uuid4()), "version": body["version"], "action": _act(body)},
                ).status_code
                == 202
            )
        else:
            bob_body = bob.get(f"/api/tables/{tid}/state/").json()
            assert (
                _post(
                    bob,
                    tid,
                    {
                        "id": str(uuid.uuid4()),
                        "version": bob_body["version"],
                        "action": _act(bob_body),
                    },
                ).status_code
                == 202
            )
        wait_until(lambda v=body["version"]: Table.objects.get(pk=tid).version > v, 10)
    before = _snapshot(tid)
    hand = body["view"]["hand"] or ["2C"]
    action = {"type": "play", "card": hand[0]}
    if body["view"]["phase"] == "choose":
        action = {"type": "contract", "contract": "trix"}
    elif body["view"]["phase"] == "double":
        action = {"type": "double", "cards": []}
    r = _post(alice, tid, {"id": str(uuid.uuid4()), "version": body["version"], "action": action})
    assert r.status_code == 400, r.content
    assert "not your turn" in r.json()["error"]
    assert _snapshot(tid) == before


def _waiting_for_a_human(client, tid):
    body = client.get(f"/api/tables/{tid}/state/").json()
    view = body["view"]
    if view and view["phase"] in ("choose", "play", "double") and view["to_act"]:
        if set(view["to_act"]) <= {0, 1}:
            return body
    return None


def test_duplicate_id_answers_the_first_result(seated):
    alice, table_id, body = seated
    action_id = str(uuid.uuid4())
    payload = {"id": action_id, "version": body["version"], "action": _act(body)}
    first = _post(alice, table_id, payload)
    assert first.status_code == 202, first.content
    applied = wait_until(
        lambda: TableAction.objects.filter(pk=action_id, status="applied").first(), 20
    )
    after = _snapshot(Table.objects.get(pk=table_id).pk)
    again = _post(alice, table_id, payload)
    assert again.status_code == 202
    assert again.json()["id"] == action_id
    assert again.json()["applied_version"] == applied.applied_version
    assert TableAction.objects.filter(pk=action_id).count() == 1
    # Applied once: the duplicate changed nothing the bots did not.
    assert _snapshot(table_id)[0] >= after[0]
    plays = TableAction.objects.filter(table_id=table_id, source="user").count()
    assert plays == 1
    # The same id with another version is a different action: a conflict.
    other = _post(alice, table_id, {**payload, "version": 0})
    assert other.status_code == 409 and other.json()["code"] == "duplicate_id"


def test_finished_table_refuses_actions_and_seats(worker, api):
    alice = api("alice")
    table = new_table(alice)
    seat_bots(alice, table["id"], range(4))
    wait_until(lambda: Table.objects.filter(pk=table["id"], status="finished").exists(), 90, 0.2)
    before = _snapshot(table["id"])
    r = alice.post(f"/api/tables/{table['id']}/seats/", {"seat": 0}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "not_open"
    r = alice.post(f"/api/tables/{table['id']}/leave/")
    assert r.status_code == 403
    assert _snapshot(table["id"]) == before


def test_duplicate_id_with_other_content_is_a_conflict(seated):
    alice, table_id, body = seated
    action_id = str(uuid.uuid4())
    payload = {"id": action_id, "version": body["version"], "action": _act(body)}
    first = _post(alice, table_id, payload)
    assert first.status_code == 202, first.content
    # Another action (legal or not: the id is checked first), or another version.
    other_action = {"type": "play", "card": "2C"}
    if _act(body) == other_action:
        other_action = {"type": "play", "card": "3C"}
    for other in (
        {**payload, "action": other_action},
        {**payload, "version": body["version"] + 1},
    ):
        r = _post(alice, table_id, other)
        assert r.status_code == 409, r.content
        assert r.json()["code"] == "duplicate_id"
        assert "different action" in r.json()["error"]
    again = _post(alice, table_id, payload)
    assert again.status_code == 202 and again.json()["id"] == action_id
    row = TableAction.objects.get(pk=action_id)
    assert {k: v for k, v in row.action.items() if k != "seat"} == _act(body)
