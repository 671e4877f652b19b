"""The table page phone first, instant and right to left (issue 14), in Chromium.

The state API is answered from matches the engine drove to each phase (``engine_states``), as in
``test_table_render.py``; the actions POST is held or refused by the test, so the optimistic card
is seen before the server answers and taken back when it refuses. Every test checks boxes, not
just presence: the seats around the trick from the viewer's seat, the hand inside a 390x844
screen, no text over other text, every rank of the Trix layout showing. Screenshots at 1280x800
and 390x844, in English and in Arabic (``lang="ar"``, right to left), go to ``test-artifacts/``.
"""

from __future__ import annotations

import copy
import json
import random
import re

import pytest
from django.contrib.auth import get_user_model

from games.engine import apply
from tests.web.conftest import log_in, no_stream
from tests.web.engine_states import bot_step, match_at, state_answer, table_json

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
NAMES = ["Nour Al-Hashimi", "Bot 2", "سارة الحربي", "Bot 4"]

#: Text boxes of #table-app that overlap (each text node's line boxes, clipped by an ancestor
#: that hides its overflow; the two lines of one card, rank over suit, are one box).
OVERLAPS_JS = """() => {
  const root = document.getElementById("table-app");
  const boxes = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    if (!node.textContent.trim()) continue;
    const parent = node.parentElement;
    if (parent.closest("[hidden], .collect, option")) continue;
    const style = getComputedStyle(parent);
    if (style.visibility === "hidden" || parseFloat(style.opacity) === 0) continue;
    const owner = parent.closest(".card") || parent;
    let clip = null;
    for (let a = parent; a && a !== root; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.overflowX !== "visible" || s.overflowY !== "visible") {
        const r = a.getBoundingClientRect();
        clip = clip ? { l: Math.max(clip.l, r.left), t: Math.max(clip.t, r.top),
          r: Math.min(clip.r, r.right), b: Math.min(clip.b, r.bottom) }
          : { l: r.left, t: r.top, r: r.right, b: r.bottom };
      }
    }
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const r of range.getClientRects()) {
      let box = { l: r.left, t: r.top, r: r.right, b: r.bottom };
      if (clip) box = { l: Math.max(box.l, clip.l), t: Math.max(box.t, clip.t),
        r: Math.min(box.r, clip.r), b: Math.min(box.b, clip.b) };
      if (box.r - box.l < 1 || box.b - box.t < 1) continue;
      boxes.push({ box, owner, node, text: node.textContent.trim().slice(0, 40) });
    }
  }
  const out = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i], b = boxes[j];
      if (a.node === b.node || a.owner === b.owner) continue;
      const w = Math.min(a.box.r, b.box.r) - Math.max(a.box.l, b.box.l);
      const h = Math.min(a.box.b, b.box.b) - Math.max(a.box.t, b.box.t);
      if (w <= 0 || h <= 0) continue;
      const area = (x) => (x.box.r - x.box.l) * (x.box.b - x.box.t);
      const small = Math.min(area(a), area(b));
      if (w * h > 0.15 * small) out.push([a.text, b.text, Math.round(w), Math.round(h)]);
    }
  }
  return out;
}"""


@pytest.fixture
def table_id(django_user_model):
    """A real table row (the page 404s without one); its state answers are the engine's."""
    from games.services import create_table

    owner = django_user_model.objects.create_user("owner")
    return create_table(user=owner, variant="complex_partner", stake=0).pk


@pytest.fixture
def open_page(live_server, client, browser):
    """A logged-in page of its own browser context: size, and ``locale`` for Accept-Language."""
    user = get_user_model().objects.create_user("nour", "nour@example.com", "pw-Nour-12345")
    contexts = []

    def open_as(size=PHONE, locale="en-US", reduced_motion="no-preference"):
        context = browser.new_context(
            base_url=live_server.url,
            viewport=size,
            locale=locale,
            extra_http_headers={"Accept-Language": locale},
            reduced_motion=reduced_motion,
        )
        context.set_default_timeout(15_000)
        contexts.append(context)
        page = context.new_page()
        log_in(page, live_server.url, client, user)
        if locale.startswith("ar"):
            page.route("**/tables/*/", arabic_page)
        return page

    yield open_as
    for context in contexts:
        context.close()


def arabic_page(route):
    """The table page as an Arabic browser gets it: ``<html lang="ar">`` (until base.html sets
    the active language, the page is served ``lang="en"`` whatever the browser asks; the
    i18n work sets it, and ``dir``, from the request). Without ``dir`` the page sets its own."""
    response = route.fetch()
    body = response.text()
    if not re.search(r'<html[^>]*lang="ar', body):
        body = re.sub(r"<html[^>]*>", '<html lang="ar">', body, count=1)
    route.fulfill(response=response, body=body)


class Server:
    """The state API's answer (switchable) and the actions POST (held, accepted or refused)."""

    def __init__(self, page, answer: dict):
        self.answer = answer
        self.posted: list[dict] = []
        self.held: list = []
        self.mode = "accept"  # "hold": keep the POST unanswered; "refuse": 409
        self.applied_version = None  # the 202's applied_version (None: not in the answer)
        table_id = answer["table"]["id"]
        page.route(f"**/api/tables/{table_id}/state/**", self.on_state)
        no_stream(page, table_id)  # these answers come from the long poll (its fallback)
        page.route(f"**/api/tables/{table_id}/actions/", self.on_action)

    def on_state(self, route):
        route.fulfill(status=200, content_type="application/json", body=json.dumps(self.answer))

    def on_action(self, route):
        self.posted.append(json.loads(route.request.post_data))
        if self.mode == "hold":
            self.held.append(route)
        elif self.mode == "refuse":
            route.fulfill(
                status=409,
                content_type="application/json",
                body=json.dumps({"error": "It is not your turn.", "code": "stale_version"}),
            )
        else:
            self.accept(route)

    def accept(self, route):
        body = {"accepted": True, "id": self.posted[-1]["id"], "version": 6}
        if self.applied_version is not None:  # as the API answers an applied action
            body.update(status="applied", applied_version=self.applied_version)
        route.fulfill(status=202, content_type="application/json", body=json.dumps(body))


def answer(table_id, state, variant, seat, version=5, events=()):
    table = table_json(table_id, variant, me=seat, names=NAMES)
    table["seats"][2].update(kind="human", bot=None, user_id=2, staked=table["stake"])  # a partner
    return state_answer(state, table, seat, version=version, events=events)


def box(page, selector: str) -> dict:
    found = page.locator(selector).first.bounding_box()
    assert found, selector
    return found


def assert_seats_around_the_trick(page, me: int) -> None:
    """Own seat below the trick, partner above, the next seat (play goes to the right) on the
    right, the previous on the left: on the screen, whatever the page's direction."""
    trick = box(page, ".trick-area")
    seat = {s: box(page, f".seat-box[data-seat='{s}']") for s in range(4)}
    mine, right, across, left = (seat[(me + k) % 4] for k in range(4))
    assert mine["y"] >= trick["y"] + trick["height"] - 1
    assert across["y"] + across["height"] <= trick["y"] + 1
    assert right["x"] >= trick["x"] + trick["width"] - 1
    assert left["x"] + left["width"] <= trick["x"] + 1
    # Each card of the trick lies on its player's side of the trick's centre.
    cx, cy = trick["x"] + trick["width"] / 2, trick["y"] + trick["height"] / 2
    cards = page.locator("[data-testid=trick] .card")
    for i in range(cards.count()):
        played = int(cards.nth(i).get_attribute("data-seat"))
        b = cards.nth(i).bounding_box()
        x, y = b["x"] + b["width"] / 2, b["y"] + b["height"] / 2
        where = (played - me) % 4
        assert {0: y > cy, 1: x > cx, 2: y < cy, 3: x < cx}[where], (played, me, b, trick)


def assert_hand_on_screen(page, size: dict) -> None:
    """Every card of the hand inside the screen at scroll 0, at least 32 px of it showing, and
    the card itself under the pointer at the middle of that part (so a tap reaches it)."""
    assert page.evaluate("window.scrollY") == 0
    cards = page.locator("#hand .card[data-card]:visible")
    assert cards.count() >= 10
    for i in range(cards.count()):
        b = cards.nth(i).bounding_box()
        assert b["x"] >= 0 and b["x"] + b["width"] <= size["width"], b
        assert b["y"] >= 0 and b["y"] + b["height"] <= size["height"], b
    shown = page.evaluate(
        """() => Array.from(document.querySelectorAll("#hand .card[data-card]"))
          .filter((c) => c.offsetParent !== null).map((c) => {
            const r = c.getBoundingClientRect();
            const next = c.nextElementSibling && c.nextElementSibling.getBoundingClientRect();
            const over = next && next.top < r.bottom && next.bottom > r.top && next.left < r.right;
            const covered = over ? Math.max(0, r.right - next.left) : 0;
            const width = r.width - covered;
            const hit = document.elementFromPoint(r.left + width / 2, r.top + r.height / 2);
            return { card: c.dataset.card, width, hit: Boolean(hit && hit.closest(".card") === c) };
          })"""
    )
    for card in shown:
        assert card["width"] >= 32 and card["hit"], card


def assert_no_overlaps(page) -> None:
    assert page.evaluate(OVERLAPS_JS) == []


def assert_no_sideways_scroll(page, size) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]


def wait_still(page) -> None:
    """The moves' animations (at most ~0.75 s) are over."""
    page.wait_for_timeout(900)


@pytest.mark.parametrize(
    ("size", "locale", "name"),
    [
        (PHONE, "en-US", "phone-en"),
        (DESKTOP, "en-US", "desktop-en"),
        (PHONE, "ar", "phone-ar"),
        (DESKTOP, "ar", "desktop-ar"),
    ],
)
def test_seats_sit_around_the_trick_and_the_hand_fits_the_screen(
    table_id, open_page, artifacts, size, locale, name
):
    state = match_at(contract="complex", plays=6)  # two cards of trick 2 on the table
    me = state.to_act()[0]
    page = open_page(size, locale)
    Server(page, answer(table_id, state, "complex_partner", me))
    page.goto(f"/tables/{table_id}/")
    page.locator("#hand .card.playable").first.wait_for()
    wait_still(page)
    assert page.locator("[data-testid=trick] .card").count() == 2
    rtl = page.evaluate("getComputedStyle(document.getElementById('table-app')).direction")
    assert rtl == ("rtl" if locale == "ar" else "ltr")
    assert page.evaluate("document.documentElement.lang").startswith(locale[:2])
    assert_seats_around_the_trick(page, me)
    assert_hand_on_screen(page, size)
    assert_no_overlaps(page)
    assert_no_sideways_scroll(page, size)
    page.screenshot(path=str(artifacts / f"table-layout-play-{name}.png"))
    # A spectator sees from seat 0.
    if name == "phone-en":
        watcher = open_page(size, locale)
        Server(watcher, answer(table_id, state, "complex_partner", None))
        watcher.goto(f"/tables/{table_id}/")
        watcher.locator("[data-testid=spectating]").wait_for()
        watcher.locator("[data-testid=trick] .card").first.wait_for()
        assert_seats_around_the_trick(watcher, 0)


def test_my_card_lands_in_the_trick_before_the_server_answers_then_is_confirmed(
    table_id, open_page, artifacts
):
    state = match_at(contract="complex", plays=5)
    me = state.to_act()[0]
    page = open_page(PHONE)
    server = Server(page, answer(table_id, state, "complex_partner", me))
    page.goto(f"/tables/{table_id}/")
    playable = page.locator("#hand .card.playable")
    playable.first.wait_for()
    card = playable.first.get_attribute("data-card")
    server.mode = "hold"
    # At once, the server has not answered: the card is in the trick (pending), not in the hand.
    shown_after_ms = page.evaluate(
        """(code) => new Promise((done) => {
          const start = performance.now();
          document.querySelector(`#hand .card[data-card="${code}"]`).click();
          const look = () => document.querySelector("[data-testid=pending-card]")
            ? done(performance.now() - start) : requestAnimationFrame(look);
          look();
        })""",
        card,
    )
    assert shown_after_ms < 50, shown_after_ms  # drawn in the click's own task
    pending = page.locator("[data-testid=pending-card]")
    assert pending.get_attribute("data-card") == card
    assert int(pending.get_attribute("data-seat")) == me
    assert page.locator(f"#hand .card[data-card='{card}']").is_hidden()
    assert len(server.held) == 1 and server.posted[0]["action"] == {"type": "play", "card": card}
    assert_seats_around_the_trick(page, me)  # the pending card lies on my side
    page.screenshot(path=str(artifacts / "table-layout-pending-phone-en.png"))
    # The server takes it, and its next version has the card in the trick: confirmed.
    after = copy.deepcopy(state)
    apply(after, {"type": "play", "seat": me, "card": card})
    server.answer = answer(table_id, after, "complex_partner", me, version=6)
    server.accept(server.held.pop())
    page.wait_for_function("() => document.getElementById('table-app').dataset.version === '6'")
    assert pending.count() == 0
    mine = page.locator(f"[data-testid=trick] .card[data-card='{card}']")
    assert mine.count() == 1 and "pending" not in mine.get_attribute("class")
    assert page.locator(f"#hand .card[data-card='{card}']").count() == 0


def test_a_refused_card_goes_back_to_the_hand_with_the_reason(table_id, open_page):
    state = match_at(contract="complex", plays=5)
    me = state.to_act()[0]
    page = open_page(PHONE)
    server = Server(page, answer(table_id, state, "complex_partner", me))
    page.goto(f"/tables/{table_id}/")
    playable = page.locator("#hand .card.playable")
    playable.first.wait_for()
    card = playable.first.get_attribute("data-card")
    server.mode = "refuse"
    playable.first.click()
    notice = page.locator("#notice")
    notice.wait_for()
    assert "was not played" in notice.inner_text()
    assert "It is not your turn." in notice.inner_text()
    assert page.locator("[data-testid=pending-card]").count() == 0
    assert page.locator(f"#hand .card[data-card='{card}']").is_visible()
    assert page.locator(f"[data-testid=trick] .card[data-card='{card}']").count() == 0


def test_a_tap_after_an_applied_card_waits_for_the_version_it_made(table_id, open_page):
    """The actions POST answers 202 applied with the version the card made before the live
    update brings that version: a second tap meanwhile (the page still offers the cards of
    the version before) sends nothing and shows no error; once the new version arrives, the
    page plays on."""
    state = match_at(contract="complex", plays=5)
    me = state.to_act()[0]
    page = open_page(PHONE)
    server = Server(page, answer(table_id, state, "complex_partner", me))
    server.applied_version = 6
    page.goto(f"/tables/{table_id}/")
    playable = page.locator("#hand .card.playable")
    playable.first.wait_for()
    first = playable.first.get_attribute("data-card")
    playable.first.click()
    page.wait_for_function("() => document.getElementById('table-app').dataset.awaiting === '6'")
    assert page.evaluate("document.getElementById('table-app').dataset.version") == "5"
    # A second card, tapped while the page still shows version 5: no POST leaves the page.
    sent = page.evaluate(
        """() => {
          const app = document.getElementById("table-app");
          const card = document.querySelector("#hand .card.playable");
          let posts = 0;
          const fetch = window.fetch;
          window.fetch = (url, init) => {
            if (init && init.method === "POST") posts += 1;
            return fetch(url, init);
          };
          card.click();  // the page's send() calls fetch in the click's own task, if at all
          window.fetch = fetch;
          return { posts, card: card.dataset.card, sending: app.classList.contains("sending") };
        }"""
    )
    assert sent["posts"] == 0 and not sent["sending"], sent
    assert len(server.posted) == 1 and server.posted[0]["action"]["card"] == first
    assert page.locator("#notice").is_hidden() or page.locator("#notice").inner_text() == ""
    # The version the card made arrives: the page leaves the wait.
    after = copy.deepcopy(state)
    apply(after, {"type": "play", "seat": me, "card": first})
    server.answer = answer(table_id, after, "complex_partner", me, version=6)
    page.wait_for_function("() => document.getElementById('table-app').dataset.version === '6'")
    assert page.evaluate("document.getElementById('table-app').dataset.awaiting") is None


def test_a_taken_trick_goes_to_its_taker_unless_motion_is_reduced(table_id, open_page):
    state = match_at(contract="complex", plays=7)  # three cards of trick 2: the next one takes it
    me = state.to_act()[0]
    for reduced in ("no-preference", "reduce"):
        page = open_page(DESKTOP, reduced_motion=reduced)
        server = Server(page, answer(table_id, state, "complex_partner", me))
        page.goto(f"/tables/{table_id}/")
        playable = page.locator("#hand .card.playable")
        playable.first.wait_for()
        card = playable.first.get_attribute("data-card")
        after = copy.deepcopy(state)
        apply(after, {"type": "play", "seat": me, "card": card})
        server.answer = answer(table_id, after, "complex_partner", me, version=6)
        playable.first.click()
        page.wait_for_function("() => document.getElementById('table-app').dataset.version === '6'")
        taker = after.deal.tricks[-1][2]
        gathering = page.locator(".trick.collect")
        if reduced == "reduce":
            assert gathering.is_hidden()
            continue
        assert gathering.count() == 1
        assert "to-" in gathering.get_attribute("class")
        assert (
            page.evaluate(
                "() => getComputedStyle(document.querySelector('.trick.collect')).animationName"
            )
            == "to-" + ["bottom", "right", "top", "left"][(taker - me) % 4]
        )
        # The felt drawn again meanwhile (the taker leads at once): the gathering goes on
        # where it had got to, it does not start over.
        server.answer = answer(table_id, after, "complex_partner", me, version=7)
        page.wait_for_function("() => document.getElementById('table-app').dataset.version === '7'")
        delay = page.evaluate(
            "() => { const c = document.querySelector('.trick.collect');"
            " return c ? parseFloat(c.style.animationDelay) : null; }"
        )
        assert delay is None or delay < 0.25, delay
        page.locator(".trick.collect").wait_for(state="detached", timeout=3_000)


@pytest.mark.parametrize("locale", ["en-US", "ar"])
def test_the_trix_layout_shows_every_rank_on_a_phone(table_id, open_page, artifacts, locale):
    state = match_at(variant="trix_partner", contract="trix", plays=30, seed=11)
    me = state.to_act()[0]
    page = open_page(PHONE, locale)
    Server(page, answer(table_id, state, "trix_partner", me))
    page.goto(f"/tables/{table_id}/")
    page.locator("[data-testid=layout]").wait_for()
    layout = state.deal
    opened = state_answer(state, {}, me)["view"]["layout"]
    assert sum(1 for row in opened.values() if row) >= 3
    expected = sum(
        "23456789TJQKA".index(row["high"][0]) - "23456789TJQKA".index(row["low"][0]) + 1
        for row in opened.values()
        if row
    )
    cards = page.locator("[data-testid=layout] .card")
    assert cards.count() == expected >= 12, layout
    # Every rank shows: the rank's middle is the rank itself (nothing over it), inside the
    # screen, and no two cards of the layout overlap.
    ranks = page.evaluate(
        """() => Array.from(document.querySelectorAll("[data-testid=layout] .card")).map((c) => {
          const r = c.querySelector(".rank").getBoundingClientRect();
          const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          return { card: c.dataset.card, ok: Boolean(hit && c.contains(hit)),
            box: [r.left, r.right, r.top, r.bottom], card_box: c.getBoundingClientRect().toJSON() };
        })"""
    )
    for rank in ranks:
        assert rank["ok"] and rank["box"][0] >= 0 and rank["box"][1] <= PHONE["width"], rank
    boxes = [r["card_box"] for r in ranks]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert not (
                a["left"] < b["right"] - 0.5
                and b["left"] < a["right"] - 0.5
                and a["top"] < b["bottom"] - 0.5
                and b["top"] < a["bottom"] - 0.5
            ), (a, b)
    # The rows are suits, the columns ranks: every jack in one column.
    jacks = page.locator("[data-testid=layout] .card[data-card^=J]")
    xs = {round(jacks.nth(i).bounding_box()["x"]) for i in range(jacks.count())}
    assert len(xs) == 1
    assert_hand_on_screen(page, PHONE) if page.locator("#hand .card.playable").count() else None
    assert_no_overlaps(page)
    assert_no_sideways_scroll(page, PHONE)
    page.screenshot(path=str(artifacts / f"table-layout-trix-phone-{locale[:2]}.png"))


@pytest.mark.parametrize("locale", ["en-US", "ar"])
def test_the_deals_table_reads_on_a_phone(table_id, open_page, artifacts, locale):
    state = match_at(contract="complex", plays=9)
    me = state.to_act()[0]
    scores = [
        {"0": -150, "1": 25, "2": -35, "3": -340},
        {"0": 200, "1": 150, "2": 100, "3": 50},
        {"0": -75, "1": -100, "2": -130, "3": -195},
    ]
    events = [
        {"type": "deal_ended", "deal": n + 1, "contract": c, "scores": s, "totals": s}
        for n, (c, s) in enumerate(zip(["complex", "trix", "complex"], scores, strict=True))
    ]
    page = open_page(PHONE, locale)
    server = Server(page, answer(table_id, state, "complex_partner", me, events=events))
    page.goto(f"/tables/{table_id}/")
    table = page.locator("[data-testid=deals]")
    table.wait_for()
    server.answer = answer(table_id, state, "complex_partner", me)  # nothing new: a still page
    page.wait_for_timeout(600)
    assert table.locator("tbody tr").count() == 3
    table.scroll_into_view_if_needed()
    shot = artifacts / f"table-layout-deals-phone-{locale[:2]}.png"
    page.locator("#scores").screenshot(path=str(shot))
    # Every verify link inside the deals' box, whole (not cut off), and no sideways scroll
    # (measured in one go: the panel is drawn again when the browser's deal checks move).
    frame, links, widths = page.evaluate(
        """() => {
          const b = document.querySelector(".deals-box");
          const r = b.getBoundingClientRect();
          const links = Array.from(document.querySelectorAll("[data-testid=verify-deal]"))
            .map((a) => { const x = a.getBoundingClientRect(); return [x.left, x.right]; });
          return [[r.left, r.right], links, [b.scrollWidth, b.clientWidth]];
        }"""
    )
    assert len(links) == 3
    for left, right in links:
        assert frame[0] - 0.5 <= left and right <= frame[1] + 0.5, (links, frame)
    assert widths[0] <= widths[1], widths
    # Short name headers: at most two lines each, the full name in the title.
    heads = page.evaluate(
        """() => Array.from(document.querySelectorAll("[data-testid=deals] thead th")).slice(2)
          .map((th) => [th.title, th.getBoundingClientRect().height])"""
    )
    titles = [title for title, _ in heads]
    assert titles[0] == NAMES[0] and titles[2] == NAMES[2] and all(titles), titles
    assert all(height < 40 for _, height in heads), heads
    assert_no_overlaps(page)
    assert_no_sideways_scroll(page, PHONE)


def doubled_and_played(plays: int, seed: int = 7):
    """A Complex deal where every seat doubled all it could (the doubled cards lie face up in
    their seats' boxes: seat 3 shows three queens), then ``plays`` cards played by the bots."""
    from games.engine import view

    state = match_at(contract="complex", stop="double", seed=seed)
    while state.phase == "double":
        seat = state.to_act()[0]
        cards = view(state, seat)["doubling"]["doublable"]
        apply(state, {"type": "double", "seat": seat, "cards": cards})
    rng = random.Random(seed)
    for _ in range(plays):
        bot_step(state, rng)
    return state


#: Pairs of boxes that intersect: each trick card against each seat box, each seat box
#: against the others, and each seat's shown cards outside their own box.
CLASHES_JS = """() => {
  const rect = (e) => e.getBoundingClientRect();
  const meet = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5
    && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
  const seats = Array.from(document.querySelectorAll(".seat-box"));
  const out = [];
  for (const card of document.querySelectorAll("[data-testid=trick] .card")) {
    for (const s of seats) {
      if (meet(rect(card), rect(s))) out.push(["trick", card.dataset.card, s.dataset.seat]);
    }
  }
  seats.forEach((a, i) => seats.slice(i + 1).forEach((b) => {
    if (meet(rect(a), rect(b))) out.push(["seats", a.dataset.seat, b.dataset.seat]);
  }));
  for (const s of seats) {
    const box = rect(s);
    for (const c of s.querySelectorAll(".shown .card, .badge")) {
      const r = rect(c);
      if (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5
          || r.bottom > box.bottom + 0.5) {
        const widths = [Math.round(r.width), Math.round(box.width)];
        out.push(["outside", s.dataset.seat, c.textContent, ...widths]);
      }
    }
  }
  return out;
}"""


@pytest.mark.parametrize(
    ("size", "locale", "name"),
    [(PHONE, "ar", "phone-ar"), (PHONE, "en-US", "phone-en"), (DESKTOP, "en-US", "desktop-en")],
)
def test_the_trick_keeps_clear_of_the_seats_and_unplayable_cards_are_dimmed(
    table_id, open_page, artifacts, size, locale, name
):
    state = doubled_and_played(plays=3)  # three cards of the first trick on the table
    me = state.to_act()[0]
    page = open_page(size, locale)
    Server(page, answer(table_id, state, "complex_partner", me))
    page.goto(f"/tables/{table_id}/")
    page.locator("#hand .card.playable").first.wait_for()
    wait_still(page)
    page.screenshot(path=str(artifacts / f"table-layout-doubled-{name}.png"))
    assert page.locator("[data-testid=trick] .card").count() == 3
    assert page.locator(".seat-box .shown .card").count() >= 5
    assert page.evaluate(CLASHES_JS) == []
    assert_seats_around_the_trick(page, me)
    assert_no_sideways_scroll(page, size)
    # The cards the rules do not allow now are dimmed; the others are not.
    dims = page.evaluate(
        """() => Array.from(document.querySelectorAll("#hand .card[data-card]")).map((c) => [
          c.classList.contains("playable"), c.classList.contains("unplayable"),
          parseFloat(getComputedStyle(c).opacity)])"""
    )
    assert any(p for p, _, _ in dims) and any(u for _, u, _ in dims), dims
    for playable, unplayable, opacity in dims:
        assert playable != unplayable
        assert opacity == 1 if playable else opacity <= 0.5, dims
    # A doubled card's label is isolated left to right inside Arabic text ("Q♠", not "♠Q").
    badges = page.evaluate(
        "Array.from(document.querySelectorAll('.seat-box .badge.double')).map((b) => b.textContent)"
    )
    labels = "".join(badges)
    assert ("\u2066Q♠\u2069" if locale == "ar" else "Q♠") in labels, badges


@pytest.mark.parametrize(("size", "locale"), [(PHONE, "ar"), (DESKTOP, "en-US")])
def test_seat_boxes_read_right(table_id, open_page, artifacts, size, locale):
    """A seat's facts say "this deal: -15" (not "deal 0", which reads as a deal's number), the
    owner's badge stays on one line in a narrow box, a bot's badge stands apart from its
    name."""
    state = doubled_and_played(plays=7)  # the first trick taken: deal scores to show
    me = state.to_act()[0]
    page = open_page(size, locale)
    Server(page, answer(table_id, state, "complex_partner", me))
    page.goto(f"/tables/{table_id}/")
    page.locator("#hand .card.playable").first.wait_for()
    wait_still(page)
    scores = page.locator(".seat-box .deal-score").all_inner_texts()
    assert len(scores) == 4
    word = "هذه التوزيعة: " if locale == "ar" else "this deal: "
    assert all(s.startswith(word) for s in scores), scores
    assert any(re.search(r"[-\u2212]\d", s) for s in scores), scores  # the taker's -15
    if locale == "ar":  # the sign isolated with its number, read before it
        raw = page.evaluate(
            "Array.from(document.querySelectorAll('.seat-box .deal-score'))"
            ".map((e) => e.textContent)"
        )
        assert any(re.search("\u2066\u200e?-15\u2069", s) for s in raw), raw
    owner = page.locator(".seat-box .badge.owner")
    size_of = owner.evaluate(
        "(b) => [b.getBoundingClientRect().height, getComputedStyle(b).lineHeight]"
    )
    assert size_of[0] < 2 * float(size_of[1].rstrip("px")), size_of  # one line
    gaps = page.evaluate(
        """() => Array.from(document.querySelectorAll(".seat-head .name > .badge")).map((b) => {
          const range = document.createRange();
          range.selectNodeContents(b.parentElement.firstChild);
          const name = range.getBoundingClientRect(), badge = b.getBoundingClientRect();
          return Math.max(badge.left - name.right, name.left - badge.right);
        })"""
    )
    assert gaps and all(gap >= 3 for gap in gaps), gaps
    assert page.evaluate(CLASHES_JS) == []
    page.screenshot(path=str(artifacts / f"table-layout-seats-{locale[:2]}-{size['width']}.png"))


@pytest.mark.parametrize(("size", "locale"), [(PHONE, "ar"), (DESKTOP, "en-US")])
def test_shown_twos_stay_inside_their_seat_boxes(table_id, open_page, artifacts, size, locale):
    state = match_at(variant="trix_partner", contract="trix", plays=2, seed=11)
    me = state.to_act()[0]
    shown = state_answer(state, {}, me)["view"]["shown"]
    assert sum(len(cards) for cards in shown.values()) >= 2, shown
    page = open_page(size, locale)
    Server(page, answer(table_id, state, "trix_partner", me))
    page.goto(f"/tables/{table_id}/")
    page.locator("[data-testid=layout]").wait_for()
    wait_still(page)
    assert page.locator(".seat-box .shown .card").count() >= 2
    assert page.evaluate(CLASHES_JS) == []
    assert_no_overlaps(page)
    assert_no_sideways_scroll(page, size)
    page.screenshot(path=str(artifacts / f"table-layout-twos-{locale[:2]}-{size['width']}.png"))


#: Pairs that meet: each card of the trick (and of a trick being gathered), as far as it shows
#: (clipped by an ancestor that hides its overflow, not counted once it has faded out), against
#: each seat box and against the last trick's box.
TRICK_CLEAR_JS = """() => {
  const rect = (e) => e.getBoundingClientRect();
  const meet = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5
    && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
  const shown = (card) => {
    let r = rect(card), opacity = 1;
    r = { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
    for (let a = card; a; a = a.parentElement) {
      const s = getComputedStyle(a);
      opacity *= parseFloat(s.opacity);
      if (a !== card && (s.overflowX !== "visible" || s.overflowY !== "visible")) {
        const c = rect(a);
        r = { left: Math.max(r.left, c.left), top: Math.max(r.top, c.top),
          right: Math.min(r.right, c.right), bottom: Math.min(r.bottom, c.bottom) };
      }
    }
    return opacity < 0.1 || r.right - r.left < 0.5 || r.bottom - r.top < 0.5 ? null : r;
  };
  const others = [
    ...Array.from(document.querySelectorAll(".seat-box")).map((s) => ["seat " + s.dataset.seat, s]),
    ...Array.from(document.querySelectorAll(".last-trick")).map((e) => ["last-trick", e]),
  ];
  const out = [];
  for (const card of document.querySelectorAll(".trick .card")) {
    const r = shown(card);
    if (!r) continue;
    for (const [name, e] of others) if (meet(r, rect(e))) out.push([card.dataset.card, name]);
  }
  return out;
}"""


@pytest.mark.parametrize(
    ("size", "locale", "name"),
    [
        (PHONE, "ar", "phone-ar"),
        (PHONE, "en-US", "phone-en"),
        (DESKTOP, "ar", "desktop-ar"),
        (DESKTOP, "en-US", "desktop-en"),
    ],
)
def test_the_trick_mid_match_keeps_clear_of_the_seats_and_the_last_trick(
    table_id, open_page, artifacts, size, locale, name
):
    """Mid-match, a trick taken and three cards of the next on the table: no card of the trick
    covers a seat's box or the last trick's label, at rest and while the cards move."""
    state = doubled_and_played(plays=7)  # the first trick taken, three cards of the second
    me = state.to_act()[0]
    page = open_page(size, locale)
    server = Server(page, answer(table_id, state, "complex_partner", me))
    page.goto(f"/tables/{table_id}/")
    page.locator("#hand .card.playable").first.wait_for()
    wait_still(page)
    assert page.locator("[data-testid=trick] .card").count() == 3
    assert page.locator(".last-trick .mini .card").count() == 4
    page.screenshot(path=str(artifacts / f"table-layout-midmatch-{name}.png"))
    assert page.evaluate(TRICK_CLEAR_JS) == []
    assert_seats_around_the_trick(page, me)
    assert_no_sideways_scroll(page, size)
    # The fourth card takes the trick and its taker leads the next: the trick is gathered
    # towards the taker while the new lead slides in. Sampled along the way, paused.
    after = copy.deepcopy(state)
    apply(after, server.answer["view"]["legal"][0])
    bot_step(after, random.Random(1))
    server.answer = answer(table_id, after, "complex_partner", me, version=6)
    page.wait_for_function("() => document.getElementById('table-app').dataset.version === '6'")
    assert page.evaluate("() => document.getAnimations().length") >= 2
    clashes = page.evaluate(
        """(check) => {
          const moves = document.getAnimations();
          moves.forEach((a) => a.pause());
          const out = [];
          for (let ms = 0; ms <= 600; ms += 50) {
            moves.forEach((a) => { a.currentTime = ms; });
            for (const clash of eval(check)()) out.push([ms, ...clash]);
          }
          moves.forEach((a) => { a.currentTime = 420; }); // the trick half way to its taker
          return out;
        }""",
        TRICK_CLEAR_JS,
    )
    page.screenshot(path=str(artifacts / f"table-layout-midmatch-moving-{name}.png"))
    assert clashes == []
