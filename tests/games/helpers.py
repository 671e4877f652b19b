"""Helpers for the tables tests: wait for a table, play a seat through the API, play a
table to its end without a worker."""

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


def waits_on(key: int) -> bool:
    """Whether a long poll of this process has registered its wait on ``key`` with the
    process's listener (``games.live.long_poll.watch``; PostgreSQL only)."""
    from games.live import listener

    return key in listener.running().slots


def waiting(client: str, cap: int = 2) -> int:
    """Long polls ``client`` (``games.waits.client_of``: ``addr:127.0.0.1`` for the test
    client logged out) holds now, of at most ``cap``: its slots in the cache, or in this
    process when the cache is down (``games.waits``)."""
    from django.core.cache import cache

    from games import waits

    try:
        in_cache = sum(cache.get(f"trix:wait:{client}:{n}") is not None for n in range(cap))
    except Exception:  # the cache is down
        in_cache = 0
    return in_cache + waits._local.get(client, 0)


def wait_finished(table_id: int, timeout: float = 90.0) -> Table:
    return wait_until(
        lambda: Table.objects.filter(pk=table_id, status="finished").first(), timeout, 0.1
    )


def play_out(table_id: int) -> Table:
    """Run the table's wake-ups here, no worker, until it stops playing (at most 5,000);
    returns the table. Raises AssertionError if the match did not end."""
    from games import services

    for _ in range(5000):
        table = Table.objects.get(pk=table_id)
        if table.status != "playing":
            return table
        services.wake(table_id=table_id, version=table.version)
    raise AssertionError("the match did not end")


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
    first legal action when it is the seat's turn (after a 429, again once ``Retry-After``
    has passed: a test that lowers ``TRIX_ACTION_RATE`` to the production default).
    Every state response is kept in ``responses``; ``each(body)`` is called with each.
    Returns the last state."""
    since = 0
    rejected: list = []
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
        action_id = str(uuid.uuid4())
        payload = {"id": action_id, "version": body["version"], "action": action}
        r = client.post(f"/api/tables/{table_id}/actions/", payload, format="json")
        if r.status_code == 429:  # faster than TRIX_ACTION_RATE: wait as told, send it again
            time.sleep(int(r["Retry-After"]))
            r = client.post(f"/api/tables/{table_id}/actions/", payload, format="json")
        assert r.status_code in (202, 409), r.content
        last_sent = body["version"]
        if r.status_code == 202:  # applied by the request
            assert r.json()["status"] == "applied", r.content
        else:  # the table moved on since its state was read: look again
            rejected.append((r.status_code, r.json()["error"]))
            last_sent = None
    t = Table.objects.get(pk=table_id)
    from games import state_store
    from games.engine import MatchState

    st = MatchState.from_json(state_store.stored_json(t))
    rejected.append(("db", st.phase, st.to_act(), t.seat_kinds))
    raise AssertionError(
        f"the match did not finish in time (rejected: {rejected[-3:]}; table v{t.version} "
        f"{t.status} wake_at {t.wake_at} deadline {t.deadline}; last_sent {last_sent}; "
        f"to_act {view and view['to_act']} phase {view and view['phase']})"
    )


def forget_log_keys() -> None:
    """For a test that makes the same match id twice on purpose (to replay one match): the
    transparency log admits one commitment and one receipt per match id (games.models.LogKey),
    so the keys of the earlier tables are forgotten first. Never done outside tests."""
    from games.models import LogKey

    LogKey.objects.all().delete()


def staked_table(make_user, names, *, stake: int = 100, variant: str = "complex"):
    """A staked table (``stake`` per seat, every timer an hour) with a person in each of the
    first seats (funds 1,000, client seed ``s<seat>``) and rules bots in the rest;
    ``(table, users)``."""
    from games import services

    timers = {"choose_timer": 3600, "double_timer": 3600, "play_timer": 3600}
    users = [make_user(name, funds=1_000) for name in names]
    table = services.create_table(user=users[0], variant=variant, stake=stake, options=timers)
    for seat, user in enumerate(users):
        services.take_seat(user=user, table_id=table.pk, seat=seat, client_seed=f"s{seat}")
    for seat in range(len(users), 4):
        services.seat_bot(user=users[0], table_id=table.pk, seat=seat, bot="rules")
    table.refresh_from_db()
    return table, users
