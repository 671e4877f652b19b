"""A tournament's live stream (``GET /api/tournaments/{id}/stream/``, ``tournaments.live``
on ``games.stream``), served by the ASGI site under uvicorn on PostgreSQL: one stream for
the whole page, each message the long poll's answer at a new live version, the same for
every watcher, to the end."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.sse import Stream, off_the_loop
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def live_answer(tournament_id: int) -> dict:
    r = APIClient().get(f"/api/tournaments/{tournament_id}/live/")
    assert r.status_code == 200
    return r.json()


@off_the_loop
def test_the_live_page_streams_each_version_to_every_watcher_until_the_end(
    live_server, make_tournament, player, staff
):
    t = make_tournament()
    path = f"/api/tournaments/{t.pk}/stream/"
    first, second = Stream(live_server.url, path), Stream(live_server.url, path)
    try:
        watch(t, first, second, player, staff)
    finally:
        first.close()
        second.close()
    final = Tournament.objects.get(pk=t.pk).version
    done = Stream(live_server.url, path, headers={"Last-Event-ID": str(final)})
    assert done.status == 204
    done.close()


def watch(t, first, second, player, staff):
    assert first.status == 200 and first.headers["Content-Type"] == "text/event-stream"
    a, b = first.next(), second.next()  # no since: the page as it is
    assert a.raw == b.raw and int(a.id) == t.version
    assert a.json() == live_answer(t.pk)
    for _ in range(2):
        services.register(tournament_id=t.pk, by=player(), client_seed="my-seed")
        version = Tournament.objects.get(pk=t.pk).version
        a, b = first.states(until_version=version)[-1], second.states(until_version=version)[-1]
        assert a.raw == b.raw and int(a.id) == version
        assert a.json() == live_answer(t.pk)
    services.cancel(tournament_id=t.pk, by=staff, reason="test")
    final = Tournament.objects.get(pk=t.pk).version
    last = first.states()  # to `event: end`
    assert int(last[-1].id) == final and last[-1].json()["status"] == "cancelled"
    assert last[-1].json() == live_answer(t.pk)


@off_the_loop
def test_bad_input_is_a_clear_4xx(client, make_tournament):
    t = make_tournament()
    r = client.get(f"/api/tournaments/{t.pk}/stream/?since=x")
    assert r.status_code == 400 and r.json()["code"] == "invalid"
    r = client.get("/api/tournaments/999999/stream/")
    assert r.status_code == 404 and r.json() == {
        "error": "no tournament 999999",
        "code": "not_found",
    }
    assert client.post(f"/api/tournaments/{t.pk}/stream/").status_code == 405
