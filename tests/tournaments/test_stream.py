"""A tournament's live stream (``GET /api/tournaments/{id}/stream/``, ``tournaments.live``
on ``games.live``), served by the ASGI site under uvicorn on PostgreSQL: one stream for
the whole page, each message the long poll's answer at a new live version, the same for
every watcher, to the end; with ``?patches=1`` (the page's), every message after the first
is the RFC 6902 patch of the one before, and applied it gives exactly that answer."""

from __future__ import annotations

import jsonpatch
import pytest
from rest_framework.test import APIClient

from tests.sse import Stream, off_the_loop
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def live_answer(tournament_id: int, language: str = "en") -> dict:
    r = APIClient().get(f"/api/tournaments/{tournament_id}/live/", HTTP_ACCEPT_LANGUAGE=language)
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
def test_with_patches_each_message_after_the_first_is_the_change_from_the_one_before(
    live_server, make_tournament, player, staff
):
    t = make_tournament()
    for n in range(12):  # a page worth patching: 12 entrants, ~185 bytes each
        services.register(tournament_id=t.pk, by=player(), client_seed=f"before-{n}")
    path = f"/api/tournaments/{t.pk}/stream/"
    whole, patched = Stream(live_server.url, path), Stream(live_server.url, path + "?patches=1")
    try:
        first = patched.next()
        assert first.event == "state" and first.raw == whole.next().raw  # a whole answer first
        held = first.json()
        for n in range(3):
            services.register(tournament_id=t.pk, by=player(), client_seed=f"seed-{n}")
            version = Tournament.objects.get(pk=t.pk).version
            full = whole.states(until_version=version)[-1]
            m = patched.next()
            assert (m.event, int(m.id)) == ("patch", version)
            message = m.json()
            assert (message["version"], message["since"]) == (version, held["version"])
            held = jsonpatch.apply_patch(held, message["patch"])
            assert held == full.json() == live_answer(t.pk)
            assert len(m.raw) < min(1024, len(full.raw) / 3)  # an entrant more, the prizes
        services.cancel(tournament_id=t.pk, by=staff, reason="test")
        final = Tournament.objects.get(pk=t.pk).version
        m = patched.next()
        held = jsonpatch.apply_patch(held, m.json()["patch"])
        assert int(m.id) == final and held == live_answer(t.pk)
        assert patched.next().event == "end"
    finally:
        whole.close()
        patched.close()


@off_the_loop
def test_a_watcher_joining_does_not_stop_the_others_patches(
    live_server, make_tournament, player, monkeypatch
):
    """Each page opens its stream from nothing (a whole answer, computed anew): the watchers
    already there still get patches of what they hold (found by a review: one answer was
    remembered per tournament, and a newcomer's replaced it, so everyone else got whole
    answers again at the next version; then each newcomer held its own copy of the same
    answer, and past four copies the rest got whole answers)."""
    from tournaments import live

    monkeypatch.setattr(live, "MAX_BASES", 1)  # one patch per version: every watcher shares it
    t = make_tournament()
    path = f"/api/tournaments/{t.pk}/stream/?patches=1"
    first = Stream(live_server.url, path)
    later = []
    try:
        held = first.next().json()
        services.register(tournament_id=t.pk, by=player(), client_seed="one")
        m = first.next()
        assert m.event == "patch"
        held = jsonpatch.apply_patch(held, m.json()["patch"])
        for _ in range(2):  # one after another: each first answer computed on its own
            later.append(Stream(live_server.url, path))
            joined = later[-1].next()
            assert joined.event == "state" and joined.json() == held
        services.register(tournament_id=t.pk, by=player(), client_seed="two")
        for watcher in [first, *later]:  # more bases than MAX_BASES, unless shared
            m = watcher.next()
            assert m.event == "patch"
            assert jsonpatch.apply_patch(held, m.json()["patch"]) == live_answer(t.pk)
    finally:
        for watcher in [first, *later]:
            watcher.close()


@off_the_loop
def test_a_reconnection_with_patches_starts_with_a_whole_answer(
    live_server, make_tournament, player
):
    """A new stream holds nothing to patch: its first message is the whole answer, even
    after a ``Last-Event-ID`` (the answer the client holds may not be the one the server
    would patch: its names, its money texts)."""
    t = make_tournament()
    path = f"/api/tournaments/{t.pk}/stream/?patches=1"
    watcher = Stream(live_server.url, path)
    try:
        seen = int(watcher.next().id)
        services.register(tournament_id=t.pk, by=player(), client_seed="one")
        assert watcher.next().event == "patch"
    finally:
        watcher.close()
    services.register(tournament_id=t.pk, by=player(), client_seed="two")
    again = Stream(live_server.url, path, headers={"Last-Event-ID": str(seen)})
    try:
        m = again.next()
        version = Tournament.objects.get(pk=t.pk).version
        assert (m.event, int(m.id)) == ("state", version) and m.json() == live_answer(t.pk)
    finally:
        again.close()


@off_the_loop
def test_each_watcher_gets_the_page_in_its_own_language(live_server, make_tournament, player):
    """The answer carries words (``status_name``): an Arabic watcher's stream and long poll
    answer in Arabic, an English one's in English, whoever asked first (the stream computed
    one answer for everyone in the site's default language, and the long poll's per-process
    cache answered the second language in the first one's words)."""
    t = make_tournament()
    path = f"/api/tournaments/{t.pk}/stream/?patches=1"
    english = Stream(live_server.url, path, headers={"Accept-Language": "en"})
    arabic = Stream(live_server.url, path, headers={"Accept-Language": "ar"})
    try:
        held = {"en": english.next().json(), "ar": arabic.next().json()}
        assert held["en"]["status_name"] == "registration"
        assert held["ar"]["status_name"] == "التسجيل مفتوح"
        services.register(tournament_id=t.pk, by=player(), client_seed="one")
        for language, watcher in (("en", english), ("ar", arabic)):
            m = watcher.next()
            assert m.event == "patch"
            held[language] = jsonpatch.apply_patch(held[language], m.json()["patch"])
            assert held[language] == live_answer(t.pk, language)
        assert held["ar"]["status_name"] == "التسجيل مفتوح"
    finally:
        english.close()
        arabic.close()


def test_the_long_poll_answers_in_the_callers_language_whoever_asked_first(make_tournament):
    t = make_tournament()
    assert live_answer(t.pk, "en")["status_name"] == "registration"
    assert live_answer(t.pk, "ar")["status_name"] == "التسجيل مفتوح"
    assert live_answer(t.pk, "en")["status_name"] == "registration"


@off_the_loop
def test_bad_input_is_a_clear_4xx(client, make_tournament):
    t = make_tournament()
    r = client.get(f"/api/tournaments/{t.pk}/stream/?since=x")
    assert r.status_code == 400 and r.json()["code"] == "invalid"
    r = client.get(f"/api/tournaments/{t.pk}/stream/?patches=yes")
    assert r.status_code == 400 and r.json() == {
        "error": "patches must be 0 or 1",
        "code": "invalid",
    }
    r = client.get(f"/api/tournaments/{t.pk}/stream/?patches=2", HTTP_ACCEPT_LANGUAGE="ar")
    assert r.status_code == 400 and r.json()["error"] == "يجب أن تكون patches إما 0 أو 1"
    assert "يجب".encode() in r.content  # UTF-8, as the rest of the API (no \\u escapes)
    r = client.get("/api/tournaments/999999/stream/")
    assert r.status_code == 404 and r.json() == {
        "error": "no tournament 999999",
        "code": "not_found",
    }
    assert client.post(f"/api/tournaments/{t.pk}/stream/").status_code == 405


@off_the_loop
def test_a_drafts_stream_is_staffs_alone(live_server, make_tournament, player, staff):
    """A draft's stream answers a player or a visitor the 404 of a missing id, and staff
    its stream (docs/tournaments-api.md)."""
    t = make_tournament(draft=True)
    missing = APIClient().get("/api/tournaments/999999/stream/").json()
    for who in (None, player()):
        client = APIClient()
        if who is not None:
            client.force_login(who)
        r = client.get(f"/api/tournaments/{t.pk}/stream/")
        assert r.status_code == 404 and r.json()["code"] == missing["code"], who
    client = APIClient()
    client.force_login(staff)
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    stream = Stream(live_server.url, f"/api/tournaments/{t.pk}/stream/", headers={"Cookie": cookie})
    try:
        assert stream.status == 200 and int(stream.next().id) == t.version
    finally:
        stream.close()
