"""Helpers for the tables tests: wait for a table, play a seat through the API."""

from __future__ import annotations

import time
import uuid

from games.models import Table


def wait_until(predicate, timeout: float = 60.0, step: float = 0.05):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(step)
    raise AssertionError(f"timed out after {timeout}s")


def wait_finished(table_id: int, timeout: float = 90.0) -> Table:
    return wait_until(
        lambda: Table.objects.filter(pk=table_id, status="finished").first(), timeout, 0.1
    )


def new_table(client, variant: str = "complex_partner", stake: int = 0, **options) -> dict:
    r = client.post(
        "/api/tables/", {"variant": variant, "stake": stake, "options": options}, format="json"
    )
    assert r.status_code == 201, r.content
    return r.json()


def seat_bots(client, table_id: int, seats, bot: str = "rules") -> dict:
    r = None
    for seat in seats:
        r = client.post(f"/api/tables/{table_id}/bots/", {"seat": seat, "bot": bot}, format="json")
        assert r.status_code == 200, r.content
    return r.json()


def play_seat(
    client, table_id: int, responses: list | None = None, timeout: float = 120.0, each=None
):
    """Play the client's seat to the end through the API: long-poll the state, submit the
    first legal action when it is the seat's turn. Every state response is kept in
    ``responses``; ``each(body)`` is called with each. Returns the last state."""
    since = 0
    end = time.monotonic() + timeout
    last_sent = None
    while time.monotonic() < end:
        r = client.get(f"/api/tables/{table_id}/state/", {"since": since, "wait": 2})
        assert r.status_code == 200, r.content
        body = r.json()
        if responses is not None:
            responses.append(body)
        if each is not None:
            each(body)
        since = body["version"]
        view = body["view"]
        if body["table"]["status"] == "finished":
            return body
        if view is None or not view["legal"] or last_sent == body["version"]:
            continue
        action = {k: v for k, v in view["legal"][0].items() if k != "seat"}
        r = client.post(
            f"/api/tables/{table_id}/actions/",
            {"id": str(uuid.uuid4()), "version": body["version"], "action": action},
            format="json",
        )
        assert r.status_code in (202, 409), r.content
        last_sent = body["version"]
    raise AssertionError("the match did not finish in time")
