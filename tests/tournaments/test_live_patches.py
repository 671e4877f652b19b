"""The live page takes its stream's patches (``?patches=1``, ``web/static/web/live.js`` with
the vendored fast-json-patch), in Chromium, in Arabic on a phone: after the first whole
answer every registration comes as a patch, and the page shows exactly what the long poll
answers; a patch that does not fit what the page holds is never applied."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tournaments import services
from tournaments.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RECORD_EVENTS = """
const Original = window.EventSource;
window.streamLog = [];
window.EventSource = class extends Original {
  constructor(url, options) {
    super(url, options);
    window.streamLog.push("open " + url);
    for (const type of ["state", "patch", "end"]) {
      this.addEventListener(type, () => window.streamLog.push(type));
    }
  }
};
"""


def test_the_live_page_follows_registrations_by_patches(
    live_server, new_page, artifacts, make_tournament, player
):
    t = make_tournament(name="كأس الخميس")
    for n in range(3):
        services.register(tournament_id=t.pk, by=player(f"early{n}"), client_seed=f"e{n}")
    page = new_page(width=390, height=844)
    page.context.add_cookies([{"name": "django_language", "value": "ar", "url": live_server.url}])
    page.add_init_script(RECORD_EVENTS)
    page.goto(f"/tournaments/{t.pk}/live/")
    page.wait_for_function("document.getElementById('live-app').dataset.version !== ''")
    for n, name in enumerate(("ليلى", "سامر")):
        services.register(tournament_id=t.pk, by=player(name), client_seed=f"late-{n}")
        page.locator("#entrants li", has_text=name).wait_for()
    version = Tournament.objects.get(pk=t.pk).version
    page.wait_for_function(f"document.getElementById('live-app').dataset.version === '{version}'")
    log = page.evaluate("window.streamLog")
    assert log[0] == f"open /api/tournaments/{t.pk}/stream/?patches=1"
    assert log[1:] == ["state", "patch", "patch"]  # no second stream, no whole answer again
    answer = APIClient().get(f"/api/tournaments/{t.pk}/live/").json()
    shown = page.locator("#entrants li .name").all_inner_texts()
    assert shown == [e["name"] for e in answer["entrants"]] and len(shown) == 5
    assert page.locator("#entrant-count").inner_text() == "5"
    assert page.evaluate("document.documentElement.dir") == "rtl"
    assert page.locator("#live-status").inner_text() == "التسجيل مفتوح"  # the stream's words too
    page.screenshot(path=str(artifacts / "tournament-live-patches-ar-390.png"), full_page=True)


def test_a_patch_is_applied_only_to_the_answer_it_was_made_from(live_server, new_page):
    page = new_page()
    page.goto("/")
    got = page.evaluate(
        """async () => {
          const live = await import('/static/web/live.js');
          const held = {version: 4, entrants: [{name: 'a'}, {name: 'c'}]};
          const add = {version: 5, since: 4,
                       patch: [{op: 'replace', path: '/version', value: 5},
                               {op: 'add', path: '/entrants/1', value: {name: 'b'}}]};
          return {
            applied: live.patched(held, add),
            held,
            otherVersion: live.patched({...held, version: 3}, add),
            nothingHeld: live.patched(null, add),
            badPath: live.patched(held, {version: 5, since: 4,
                                         patch: [{op: 'remove', path: '/rounds/0'}]}),
          };
        }"""
    )
    assert got["applied"] == {
        "version": 5,
        "entrants": [{"name": "a"}, {"name": "b"}, {"name": "c"}],
    }
    assert got["held"] == {"version": 4, "entrants": [{"name": "a"}, {"name": "c"}]}  # untouched
    assert got["otherVersion"] is None and got["nothingHeld"] is None and got["badPath"] is None


def test_patches_that_never_fit_send_the_page_to_its_long_poll(live_server, new_page):
    """A patch that does not fit what the page holds reopens the stream from nothing; the
    third within 15 s gives the stream up for the long poll (no reconnection per version)."""
    page = new_page()
    page.goto("/")
    got = page.evaluate(
        """async () => {
          const opened = [];
          class Fake {
            constructor(url) { this.url = url; this.handlers = {}; opened.push(this); }
            addEventListener(type, fn) { this.handlers[type] = fn; }
            close() { this.closed = true; }
            emit(type, data) { this.handlers[type]({data: JSON.stringify(data)}); }
          }
          Fake.CLOSED = 2;
          window.EventSource = Fake;
          const live = await import('/static/web/live.js');
          const seen = [];
          let failed = false;
          live.follow('/s', null, {onState: (a) => seen.push(a.version), onEnd: () => {},
                                   onFail: () => { failed = true; }, patches: true});
          const wrong = {version: 3, since: 1, patch: []};
          for (let i = 0; i < 3; i++) {
            const source = opened[opened.length - 1];
            source.emit('state', {version: 2});
            source.emit('patch', wrong);
          }
          return {urls: opened.map((s) => s.url), seen, failed,
                  lastClosed: opened[opened.length - 1].closed === true};
        }"""
    )
    assert got["urls"] == ["/s?patches=1"] * 3  # reopened from nothing twice, then given up
    assert got["seen"] == [2, 2, 2] and got["failed"] and got["lastClosed"]
