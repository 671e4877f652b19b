"""The table page's end of a deal and of a match, the your-turn signals, Leave, the away mark
and small defects (issue 14), in Chromium.

Most tests answer the state API from matches the real engine drove (``engine_states``), as
``test_table_render`` does; the balance and the wallet go to the real APIs (the rematch that
replaced Play again: ``test_rematch_browser``)."""

from __future__ import annotations

import json
import random
import re

import pytest
from django.contrib.auth import get_user_model

from games.engine import apply, new_match, observe
from games.engine.bots import RulesBot
from games.models import Seat
from games.services import create_table
from tests.web.conftest import log_in, no_stream
from tests.web.engine_states import deal, match_at, state_answer, table_json
from wallet import services as wallet_services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = 1280
PHONE = 390
TIMERS = {"choose_timer": 10, "double_timer": 10, "play_timer": 10}


@pytest.fixture
def user(django_user_model):
    return django_user_model.objects.create_user("ana", "ana@example.com", "pw-Ana-12345")


@pytest.fixture
def table_id(user):
    return create_table(user=user, variant="complex_partner", stake=0, options=TIMERS).pk


@pytest.fixture
def player(live_server, client, user, new_page):
    def open_as(width: int = DESKTOP):
        page = new_page(width=width, height=800 if width == DESKTOP else 844)
        log_in(page, live_server.url, client, user)
        return page

    return open_as


class Server:
    """The page's state polls answered with ``self.answer`` (changeable), the payout with
    ``self.payout``, the leave with ``self.leave`` ((status, body)); posts are recorded."""

    def __init__(self, page, answer: dict, payout: dict | None = None):
        self.answer = answer
        self.payout = payout or {"settled": False, "pot": 0, "house_fee": 0, "payouts": []}
        self.leave = (200, answer["table"])
        self.fail = 0
        self.posted: list[dict] = []
        tid = answer["table"]["id"]
        page.route(f"**/api/tables/{tid}/state/**", self.on_state)
        no_stream(page, tid)  # these answers come from the long poll (its fallback)
        page.route(f"**/tables/{tid}/payout.json", self.on_payout)
        page.route(f"**/api/tables/{tid}/leave/", self.on_leave)
        page.route(f"**/api/tables/{tid}/actions/", self.on_action)

    def on_state(self, route):
        if self.fail:
            self.fail -= 1
            route.abort("connectionrefused")
            return
        route.fulfill(status=200, content_type="application/json", body=json.dumps(self.answer))

    def on_payout(self, route):
        route.fulfill(status=200, content_type="application/json", body=json.dumps(self.payout))

    def on_leave(self, route):
        status, body = self.leave
        route.fulfill(status=status, content_type="application/json", body=json.dumps(body))

    def on_action(self, route):
        self.posted.append(json.loads(route.request.post_data))
        route.fulfill(
            status=202,
            content_type="application/json",
            body=json.dumps({"accepted": True, "id": self.posted[-1]["id"], "version": 5}),
        )


def answer(table_id, state, seat, *, variant="complex_partner", version=5, events=(), **table):
    return state_answer(
        state, table_json(table_id, variant, me=seat, **table), seat, version, events
    )


def play_deal(state, rng) -> None:
    """The owner picks its first contract; the rules bot plays every seat to the deal's end."""
    bot = RulesBot()
    while state.phase not in ("deal", "over"):
        seat = state.to_act()[0]
        apply(state, bot.act(observe(state, seat), rng))


def finished_deal(contract: str, variant: str = "complex_partner", seed: int = 7):
    """A match whose first deal (``contract``, chosen by its owner) was just played out."""
    state = match_at(variant=variant, contract=contract, stop="double", seed=seed)
    play_deal(state, random.Random(seed))
    assert state.phase == "deal" and state.deal_number == 1
    return state


def finished_match(variant: str = "complex_partner", seed: int = 3):
    state = new_match({"variant": variant})
    rng = random.Random(seed)
    while state.phase != "over":
        deal(state, seed + state.deal_number)
        play_deal(state, rng)
    return state


def shot(page, artifacts, name: str) -> None:
    page.screenshot(path=str(artifacts / f"{name}.png"), full_page=False)


def scroll_to(page, testid: str) -> None:
    """Bring an element into view in one step in the page.

    The result panel is rebuilt whenever one of its loads (payout, ratings, rematch) answers,
    so a located element may be replaced between Playwright finding it and scrolling to it;
    finding and scrolling in one script leaves no such gap."""
    page.evaluate(
        "(id) => document.querySelector(`[data-testid=${id}]`).scrollIntoView({block: 'nearest'})",
        testid,
    )


# -- the deal summary -------------------------------------------------------------------------


def test_the_deal_summary_says_who_took_what_and_stays_until_the_next_contract(
    table_id, player, artifacts
):
    state = finished_deal("complex")
    summary = state_answer(state, {}, 0)["view"]["deal_summary"]
    seed_event = {"version": 4, "type": "seed_revealed", "deal": 1, "deal_id": 77}
    page = player()
    page.clock.install()
    server = Server(page, answer(table_id, state, 0, stake=0, events=[seed_event]))
    page.goto(f"/tables/{table_id}/")
    box = page.locator("[data-testid=deal-summary]")
    box.wait_for()
    assert "Deal 1 is over" in box.inner_text() and "Complex" in box.inner_text()
    # Every seat's deal points and running total, and the K♥ in its taker's row.
    taker = next(s for s in range(4) if "KH" in summary["captured"][str(s)])
    row = page.locator(f"[data-testid=summary-seat-{taker}]")
    assert row.locator(".card[data-card=KH]").count() == 1
    for s in range(4):
        cells = page.locator(f"[data-testid=summary-seat-{s}] td").all_inner_texts()
        points = summary["scores"][str(s)]
        assert cells[2] == (f"+{points}" if points > 0 else str(points))
        assert cells[3] == str(summary["totals"][str(s)])
        tricks = summary["tricks"][str(s)]
        assert f"{tricks} trick" in cells[1]  # complex counts tricks too
        assert ("1 tricks" not in cells[1]) and ("1 trick" in cells[1] or tricks != 1)
    teams = page.locator("[data-testid=summary-teams]").inner_text()
    team_a = summary["scores"]["0"] + summary["scores"]["2"]
    assert f"Team A (seats 1 + 3): {'+' if team_a > 0 else ''}{team_a} this deal" in teams
    assert page.locator("[data-testid=summary-verify]").get_attribute("href") == (
        "/verify/deals/77/"
    )
    assert "Contract chosen by" in box.inner_text()
    scroll_to(page, "deal-summary")
    shot(page, artifacts, "table-deal-summary")
    page.set_viewport_size({"width": PHONE, "height": 844})
    scroll_to(page, "deal-summary")
    page.screenshot(path=str(artifacts / "table-deal-summary-phone.png"), full_page=True)

    # The next deal is dealt, its contract announced at once (the kingdom's last, trix): the
    # summary stays 15 s, then goes.
    deal(state, 11)
    assert state.deal.contract == "trix"
    server.answer = answer(table_id, state, 0, stake=0, version=9)
    page.wait_for_function("() => document.getElementById('table-app').dataset.version === '9'")
    assert box.is_visible()
    page.clock.fast_forward("00:10")
    page.wait_for_timeout(300)
    assert box.is_visible()
    page.clock.fast_forward("00:06")
    box.wait_for(state="hidden")


def test_the_summary_writes_signed_points_in_order_in_arabic(
    table_id, player, live_server, artifacts
):
    """In Arabic a deal's points keep their sign before the number ("-330", isolated left to
    right), in the seats' rows and the teams' lines: they read "330-" (a new user's trial)."""
    state = finished_deal("complex")
    summary = state_answer(state, {}, 0)["view"]["deal_summary"]
    page = player(PHONE)
    page.context.add_cookies([{"name": "django_language", "value": "ar", "url": live_server.url}])
    Server(page, answer(table_id, state, 0, stake=0))
    page.goto(f"/tables/{table_id}/")
    box = page.locator("[data-testid=deal-summary]")
    box.wait_for()

    def written(points: int) -> str:  # (Arabic's number format adds a U+200E mark: dropped)
        return "\u2066" + ("+" if points > 0 else "") + f"{points:,}" + "\u2069"

    for s in range(4):
        cells = page.locator(f"[data-testid=summary-seat-{s}] td").all_inner_texts()
        assert cells[2].replace("\u200e", "") == written(summary["scores"][str(s)])
    teams = page.locator("[data-testid=summary-teams]").inner_text().replace("\u200e", "")
    for a, b in ((0, 2), (1, 3)):
        assert written(summary["scores"][str(a)] + summary["scores"][str(b)]) in teams
    scroll_to(page, "deal-summary")
    shot(page, artifacts, "table-deal-summary-arabic-phone")


def test_the_summary_gives_way_at_once_when_the_seat_must_act_in_the_next_deal(table_id, player):
    state = finished_deal("complex")
    nxt = finished_deal("complex")
    deal(nxt, 11)
    me = nxt.to_act()[0]
    page = player()
    server = Server(page, answer(table_id, state, me, stake=0))
    page.goto(f"/tables/{table_id}/")
    box = page.locator("[data-testid=deal-summary]")
    box.wait_for()
    server.answer = answer(table_id, nxt, me, stake=0, version=9)
    box.wait_for(state="hidden")
    page.locator("#hand .card.playable").first.wait_for()


def test_the_layout_summary_gives_the_finishing_order_and_can_be_closed(table_id, player):
    state = finished_deal("trix", variant="trix")
    out = state.deal.out
    page = player(PHONE)
    Server(page, answer(table_id, state, 0, variant="trix", stake=0))
    page.goto(f"/tables/{table_id}/")
    box = page.locator("[data-testid=deal-summary]")
    box.wait_for()
    assert "first out" in page.locator(f"[data-testid=summary-seat-{out[0]}]").inner_text()
    assert "last" in page.locator(f"[data-testid=summary-seat-{out[3]}]").inner_text()
    page.click("[data-testid=summary-close]")
    box.wait_for(state="hidden")


# -- the match result -------------------------------------------------------------------------


def test_the_match_result_is_at_the_top_with_the_payout_reason(table_id, player, artifacts):
    state = finished_match()
    seat = 0
    result = state.result
    page = player()
    ans = answer(table_id, state, seat, status="finished", version=300)
    ans["table"]["result"] = result
    pay = {
        "settled": True,
        "pot": 500,
        "house_fee": 0,
        "payouts": [{"user_id": 1, "name": "Ana", "amount": 500}],
        "nets": [{"user_id": 1, "name": "Ana", "net": 0, "outcome": "refunded"}],
    }
    Server(page, ans, pay)
    page.goto(f"/tables/{table_id}/")
    box = page.locator("[data-testid=result]")
    box.wait_for()
    page.locator("[data-testid=my-net]").wait_for()
    headline = page.locator("[data-testid=match-headline]").inner_text()
    # A staker is told the money (the stake came back); the teams' order is in the scores.
    expected = "Match over — Draw" if result["draw"] else "Match over — Your stake came back"
    assert headline == expected
    reason = page.locator("[data-testid=payout-reason]").first
    reason.wait_for()
    assert reason.inner_text() == (
        "Bots never stake, so there was no pot to win: your stake of 5.00 USD came back."
    )
    # At the top of the page, in view.
    top = box.bounding_box()
    assert top["y"] < 800 and top["y"] < page.locator(".felt").bounding_box()["y"]
    assert page.locator("[data-testid=back-to-lobby]").get_attribute("href") == "/"
    teams = page.locator("[data-testid=final-scores] li").all_inner_texts()
    assert len(teams) == 2 and "Team A (Ana + Bot 3" in "".join(teams)
    shot(page, artifacts, "table-match-result")
    page.set_viewport_size({"width": PHONE, "height": 844})
    page.evaluate("() => window.scrollTo(0, 0)")
    scroll_to(page, "result")
    shot(page, artifacts, "table-match-result-phone")


def test_a_won_pot_says_the_share_and_the_house_fee(table_id, player):
    state = finished_match(variant="complex", seed=5)
    page = player()
    ans = answer(table_id, state, 0, variant="complex", status="finished", version=300)
    for s in ans["table"]["seats"]:
        s["staked"] = 500
        s["kind"], s["user_id"] = "human", s["seat"] + 1
    me_first = {**state.result["placements"]}
    pay = {
        "settled": True,
        "pot": 2000,
        "house_fee": 100,
        "payouts": [{"user_id": 1, "name": "Ana", "amount": 1140}],
    }
    Server(page, ans, pay)
    page.goto(f"/tables/{table_id}/")
    reason = page.locator("[data-testid=payout-reason]").first
    reason.wait_for()
    assert reason.inner_text() == (
        "Your share of the pot of 20.00 USD less the house fee of 1.00 USD: 11.40 USD,"
        " for your stake of 5.00 USD."
    )
    assert page.locator("[data-testid=final-scores] li").count() == 4
    place = page.locator("[data-testid=place-line]").inner_text()
    assert place.startswith("You placed " + ["1st", "2nd", "3rd", "4th"][me_first["0"] - 1])


def four_stakers(table_id, place: int):
    """A finished solo match of four stakers of 5.00 where the viewer (seat 0, user 1) came
    ``place``; the pot of 20.00 paid 60/30/10 by place, with the ledger's nets."""
    state = finished_match(variant="complex", seed=5)
    ans = answer(table_id, state, 0, variant="complex", status="finished", version=300)
    names = ["Ana", "Karim", "Huda", "Sami"]
    for s in ans["table"]["seats"]:
        s.update(staked=500, kind="human", bot=None, user_id=s["seat"] + 1, name=names[s["seat"]])
    others = [1, 2, 3]
    order = others[: place - 1] + [0] + others[place - 1 :]  # seats from first to last
    places = {str(seat): i + 1 for i, seat in enumerate(order)}
    result = dict(state.result, placements=places, forfeit=None)
    result["scores"] = {str(seat): 100 - 10 * i for i, seat in enumerate(order)}
    ans["view"]["result"] = ans["table"]["result"] = result
    paid = dict(zip(order, (1200, 600, 200, 0), strict=True))
    pay = {
        "settled": True,
        "pot": 2000,
        "house_fee": 0,
        "payouts": [
            {"user_id": seat + 1, "name": names[seat], "amount": paid[seat]}
            for seat in order
            if paid[seat]
        ],
        "nets": [
            {
                "user_id": seat + 1,
                "name": names[seat],
                "net": paid[seat] - 500,
                "outcome": "won" if paid[seat] > 500 else "lost",
            }
            for seat in order
        ],
    }
    return ans, pay


@pytest.mark.parametrize(
    ("place", "headline", "tone", "net"),
    [
        (2, "Match over — You won 1.00 USD", "won", "Your net: +1.00 USD"),
        (3, "Match over — You lost 3.00 USD", "lost", "Your net: \u22123.00 USD"),
    ],
)
def test_a_staker_is_told_the_net_whatever_the_place(table_id, player, place, headline, tone, net):
    ans, pay = four_stakers(table_id, place)
    page = player()
    Server(page, ans, pay)
    page.goto(f"/tables/{table_id}/")
    page.locator("[data-testid=my-net]").wait_for()
    assert page.locator("[data-testid=match-headline]").inner_text() == headline
    assert f"tone-{tone}" in page.locator("[data-testid=result]").get_attribute("class")
    assert page.locator("[data-testid=my-net]").inner_text() == net
    paid = ["12.00", "6.00", "2.00"][place - 1]
    assert page.locator("[data-testid=payout-reason]").first.inner_text() == (
        f"Your share of the pot of 20.00 USD: {paid} USD, for your stake of 5.00 USD."
    )
    assert (
        page.locator("[data-testid=place-line]")
        .inner_text()
        .startswith("You placed " + ["1st", "2nd", "3rd", "4th"][place - 1])
    )
    # every staker with what came back and the net, the one paid nothing too
    lines = page.locator(".payouts li").all_inner_texts()
    assert len(lines) == 4
    assert "Sami: 0.00 USD (net \u22125.00 USD)" in lines


def test_a_staker_whose_stake_came_back_is_told_so_not_lost(table_id, player):
    """A net of 0 is labelled by the money alone: the stake came back, whatever the place
    (third of four here), never "You lost" beside it."""
    ans, pay = four_stakers(table_id, 3)
    for line in pay["nets"]:
        if line["user_id"] == 1:
            line.update(net=0, outcome="refunded")
    page = player()
    Server(page, ans, pay)
    page.goto(f"/tables/{table_id}/")
    page.locator("[data-testid=my-net]").wait_for()
    assert page.locator("[data-testid=match-headline]").inner_text() == (
        "Match over — Your stake came back"
    )
    assert "tone-draw" in page.locator("[data-testid=result]").get_attribute("class")


def test_a_staker_reads_the_net_in_arabic_on_a_phone(
    table_id, live_server, client, user, new_page, artifacts
):
    ans, pay = four_stakers(table_id, 3)
    page = new_page(width=PHONE, height=844)
    page.context.add_cookies([{"name": "django_language", "value": "ar", "url": live_server.url}])
    log_in(page, live_server.url, client, user)
    Server(page, ans, pay)
    page.goto(f"/tables/{table_id}/")
    page.locator("[data-testid=my-net]").wait_for()
    headline = page.locator("[data-testid=match-headline]").inner_text()
    assert headline.startswith("انتهت المباراة — خسرت") and "3.00 USD" in headline
    assert headline.count(":") == 0
    net = page.locator("[data-testid=my-net]").inner_text()
    # the sign inside a left-to-right isolate with the amount (not "3.00 USD−")
    assert "\u2066\u2212" in net
    assert re.sub("[\u2066\u2069]", "", net).endswith("\u22123.00 USD")
    reasons = page.locator("[data-testid=payout-reason]").all_inner_texts()
    assert not any("ربحت" in line for line in reasons), reasons
    scroll_to(page, "result")
    shot(page, artifacts, "table-result-net-phone-ar")


# -- your turn --------------------------------------------------------------------------------


def test_your_turn_changes_the_title_and_icon_and_beeps_when_asked(table_id, player):
    state = match_at(contract="complex", plays=0)
    me = state.to_act()[0]
    other = (me + 1) % 4
    page = player()
    server = Server(page, answer(table_id, state, other))
    page.goto(f"/tables/{table_id}/")
    page.locator("[data-testid=turn-sound]").wait_for()
    assert not page.title().startswith("●")
    page.check("[data-testid=turn-sound]")  # plays a sample beep
    assert page.evaluate("() => localStorage.getItem('trix.turn-sound')") == "1"
    beeps = int(page.evaluate("() => document.documentElement.dataset.beeps || '0'"))
    server.answer = answer(table_id, state, me, version=6)
    page.wait_for_function("() => document.title.startsWith('● Your turn · ')")
    assert page.evaluate("() => document.querySelector('link[rel=icon]').href").startswith(
        "data:image/svg+xml"
    )
    page.wait_for_function(f"() => Number(document.documentElement.dataset.beeps) > {beeps}")
    # Remembered: the toggle is on after a reload; off by default in a fresh context.
    page.reload()
    page.locator("[data-testid=turn-sound]").wait_for()
    assert page.is_checked("[data-testid=turn-sound]")
    fresh = player()
    Server(fresh, answer(table_id, state, other))
    fresh.goto(f"/tables/{table_id}/")
    fresh.locator("[data-testid=turn-sound]").wait_for()
    assert not fresh.is_checked("[data-testid=turn-sound]")


HIDDEN_TAB = """
Object.defineProperty(document, "visibilityState",
  {get: () => (window.__hidden ? "hidden" : "visible")});
window.__notes = [];
const Real = window.Notification;
class Counted extends Real {
  constructor(title, options) { window.__notes.push(title); super(title, options); }
}
Object.defineProperty(Counted, "permission", {get: () => Real.permission});
Counted.requestPermission = (...args) => Real.requestPermission(...args);
window.Notification = Counted;
"""


def test_a_notification_on_your_turn_when_the_tab_is_hidden(table_id, player, live_server):
    state = match_at(contract="complex", plays=0)
    me = state.to_act()[0]
    page = player()
    page.context.grant_permissions(["notifications"], origin=live_server.url)
    page.add_init_script(HIDDEN_TAB)  # counts the browser's notifications; a hidden tab
    server = Server(page, answer(table_id, state, (me + 1) % 4))
    page.goto(f"/tables/{table_id}/")
    page.check("[data-testid=turn-notify]")
    assert page.evaluate("() => localStorage.getItem('trix.turn-notify')") == "1"
    # Visible tab: the title changes, no notification.
    server.answer = answer(table_id, state, me, version=6)
    page.wait_for_function("() => document.title.startsWith('● Your turn')")
    assert page.evaluate("() => window.__notes") == []
    # Hidden tab: a notification when the turn comes again.
    server.answer = answer(table_id, state, (me + 1) % 4, version=7)
    page.wait_for_function("() => !document.title.startsWith('●')")
    page.evaluate("() => { window.__hidden = true; }")
    server.answer = answer(table_id, state, me, version=8)
    page.wait_for_function("() => window.__notes.length === 1")
    assert page.evaluate("() => window.__notes") == ["Your turn"]


# -- Leave ------------------------------------------------------------------------------------


def test_leave_states_the_forfeit_and_asks_first(table_id, player, artifacts):
    state = match_at(contract="complex", plays=3)
    page = player()
    ans = answer(table_id, state, 0, stake=500)
    ans["table"]["kind"] = "staked"
    for s in (1, 2):  # two other stakers: the leaver loses the stake
        ans["table"]["seats"][s].update(kind="human", user_id=s + 1, staked=500, bot=None)
    server = Server(page, ans)
    page.goto(f"/tables/{table_id}/")
    page.click("[data-testid=leave-match]")
    words = page.locator("[data-testid=leave-consequence]").inner_text()
    assert words == (
        "Leaving now is a forfeit: the match ends, you and your partner rank last and you "
        "lose your stake of 5.00 USD."
    )
    assert page.locator("[data-testid=leave-confirm]").inner_text() == "Leave and forfeit 5.00 USD"
    scroll_to(page, "leave-dialog")
    shot(page, artifacts, "table-leave-confirm")
    page.set_viewport_size({"width": PHONE, "height": 844})
    scroll_to(page, "leave-dialog")
    shot(page, artifacts, "table-leave-confirm-phone")
    page.click("[data-testid=leave-cancel]")
    assert page.locator("[data-testid=leave-dialog]").count() == 0
    # A simultaneous leave got there first: the answer says this one did not count.
    server.leave = (409, {"error": "seat 1 left first", "code": "match_over"})
    page.click("[data-testid=leave-match]")
    page.click("[data-testid=leave-confirm]")
    page.wait_for_function("() => document.getElementById('notice').textContent.length > 0")
    assert page.locator("#notice").inner_text() == "Your leave did not count: seat 1 left first"
    server.leave = (200, ans["table"])
    page.click("[data-testid=leave-match]")
    page.click("[data-testid=leave-confirm]")
    page.wait_for_function(
        "() => document.getElementById('notice').textContent.startsWith('You left')"
    )
    assert page.locator("#notice").inner_text() == "You left: the match ends with your forfeit."


def test_a_double_click_on_leave_and_forfeit_sends_one_leave(table_id, player):
    """A review's finding beside the trial's: a double-clicked "Leave and forfeit" sent two
    leaves; the second's 409 (the match had ended) said the forfeit did not count."""
    state = match_at(contract="complex", plays=3)
    page = player()
    ans = answer(table_id, state, 0, stake=500)
    ans["table"]["kind"] = "staked"
    Server(page, ans)
    leaves = []
    page.on("request", lambda r: leaves.append(r.url) if r.url.endswith("/leave/") else None)
    page.goto(f"/tables/{table_id}/")
    page.click("[data-testid=leave-match]")
    page.dblclick("[data-testid=leave-confirm]")
    page.wait_for_function(
        "() => document.getElementById('notice').textContent.startsWith('You left')"
    )
    page.wait_for_timeout(300)
    assert len(leaves) == 1, leaves
    assert page.locator("#notice").inner_text() == "You left: the match ends with your forfeit."


def test_leave_at_a_free_table_says_a_bot_takes_over_and_with_bots_the_stake_comes_back(
    table_id, player
):
    state = match_at(contract="complex", plays=3)
    page = player()
    ans = answer(table_id, state, 0, stake=0)
    ans["table"]["kind"] = "casual"
    server = Server(page, ans)
    page.goto(f"/tables/{table_id}/")
    page.click("[data-testid=leave-match]")
    assert (
        "a bot, which plays the rest of the match"
        in page.locator("[data-testid=leave-consequence]").inner_text()
    )
    page.click("[data-testid=leave-cancel]")
    staked = answer(table_id, state, 0, stake=500, version=6)
    staked["table"]["kind"] = "staked"
    server.answer = staked
    page.wait_for_function("() => document.getElementById('table-app').dataset.version === '6'")
    page.click("[data-testid=leave-match]")
    assert (
        "bots never stake), so your stake of 5.00 USD comes back"
        in page.locator("[data-testid=leave-consequence]").inner_text()
    )


# -- away -------------------------------------------------------------------------------------


def test_the_away_mark_and_the_notice_to_the_returning_player(table_id, player, artifacts):
    state = match_at(contract="complex", plays=2)
    page = player()
    ans = answer(table_id, state, 0)
    ans["table"]["seats"][2]["away"] = True
    ans["table"]["seats"][0]["away"] = True
    server = Server(page, ans)
    page.goto(f"/tables/{table_id}/")
    page.locator("[data-testid=away-2]").wait_for()
    assert page.locator("[data-testid=away-2]").inner_text() == "away"
    assert page.locator("[data-testid=away-1]").count() == 0
    assert "marked away" in page.locator("[data-testid=away-notice]").inner_text()
    shot(page, artifacts, "table-away")
    page.set_viewport_size({"width": PHONE, "height": 844})
    scroll_to(page, "away-2")
    shot(page, artifacts, "table-away-phone")
    # "I'm back" tells the server at once (POST .../back/), without waiting for a move.
    page.route(
        f"**/api/tables/{table_id}/back/",
        lambda route: route.fulfill(status=200, content_type="application/json", body="{}"),
    )
    with page.expect_request(f"**/api/tables/{table_id}/back/") as sent:
        page.click("[data-testid=come-back]")
    assert sent.value.method == "POST"
    back = answer(table_id, state, 0, version=6)
    back["table"]["seats"][2]["away"] = True
    server.answer = back
    page.wait_for_function(
        "() => document.querySelector('[data-testid=away-notice]').textContent"
        ".startsWith('Welcome back')"
    )
    assert page.locator("[data-testid=away-2]").is_visible()
    # Marked away again, then the match ends: no mark and no notice stay (the notice asking
    # to come back stayed over the result: a new user's trial, 2026-12-02).
    again = answer(table_id, state, 0, version=7)
    again["table"]["seats"][0]["away"] = again["table"]["seats"][2]["away"] = True
    server.answer = again
    page.locator("[data-testid=come-back]").wait_for()
    over = answer(table_id, finished_match(), 0, status="finished", version=300)
    over["table"]["seats"][0]["away"] = over["table"]["seats"][2]["away"] = True
    server.answer = over
    page.locator("[data-testid=away-notice]").wait_for(state="hidden")
    assert page.locator("[data-testid=away-2]").count() == 0


def test_the_welcome_back_goes_once_the_player_acts(table_id, player, artifacts):
    """A new player's trial: the "Welcome back" notice stayed up over the table while the
    returned player went on playing. It goes with their first action after it."""
    state = match_at(contract="complex", plays=2)
    seat = state.to_act()[0]
    page = player(PHONE)
    away = answer(table_id, state, seat)
    away["table"]["seats"][seat]["away"] = True
    server = Server(page, away)
    page.goto(f"/tables/{table_id}/")
    page.locator("[data-testid=come-back]").wait_for()
    server.answer = answer(table_id, state, seat, version=6)  # back: the mark cleared
    notice = page.locator("[data-testid=away-notice]")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=away-notice]').textContent"
        ".startsWith('Welcome back')"
    )
    assert notice.is_visible()
    shot(page, artifacts, "table-welcome-back-phone")
    page.locator("#hand .card.playable").first.click()
    notice.wait_for(state="hidden", timeout=5_000)  # at once; it used to stay 20 s
    assert server.posted and server.posted[-1]["action"]["type"] == "play"
    shot(page, artifacts, "table-welcome-back-gone-phone")


# -- small defects ----------------------------------------------------------------------------


def test_no_empty_scores_box_before_the_start(table_id, player):
    page = player()
    page.goto(f"/tables/{table_id}/")
    page.locator("[data-testid=sit-0]").wait_for()
    assert page.locator("#scores").is_hidden()


def test_one_card_is_singular(table_id, player):
    state = match_at(contract="complex", plays=48)  # 12 tricks: one card each
    page = player()
    Server(page, answer(table_id, state, state.to_act()[0]))
    page.goto(f"/tables/{table_id}/")
    page.locator(".seat-facts .count").first.wait_for()
    counts = page.locator(".seat-facts .count").all_inner_texts()
    assert counts and all(c == "1 card" for c in counts)


def test_the_unreachable_banner_goes_when_the_server_answers_again(table_id, player):
    state = match_at(contract="complex", plays=1)
    page = player()
    server = Server(page, answer(table_id, state, 0))
    server.fail = 2
    page.goto(f"/tables/{table_id}/")
    page.wait_for_function(
        "() => document.getElementById('notice').textContent.includes('cannot be reached')"
    )
    page.locator("#notice").wait_for(state="hidden", timeout=10_000)
    assert page.locator("[data-testid=trick] .card").count() == 1


def test_a_doubling_pick_made_in_another_tab_shows_here(table_id, player):
    state = match_at(stop="double", contract="complex")
    seat = state.to_act()[0]
    page = player()
    ans = answer(table_id, state, seat)
    doublable = ans["view"]["doubling"]["doublable"]
    assert doublable, "the seed's deal has a doublable card for the first seat"
    ans["view"]["doubling"]["selected"] = []
    server = Server(page, ans)
    page.goto(f"/tables/{table_id}/")
    page.locator("[data-testid=ready]").wait_for()
    assert page.locator("#hand .card.selected").count() == 0
    # The other tab picked a card: the server shows it in this seat's view (same version).
    picked = json.loads(json.dumps(ans))
    picked["view"]["doubling"]["selected"] = [doublable[0]]
    server.answer = picked
    page.locator(f"#hand .card.selected[data-card='{doublable[0]}']").wait_for()
    assert doublable[0][0] in page.locator("[data-testid=ready]").inner_text()


def test_the_top_bar_balance_follows_the_stake(player, user, live_server):
    wallet_services.deposit(user=user, amount=20_00, key="test:summary:ana")
    table = create_table(user=user, variant="complex", stake=500, options=TIMERS)
    page = player()
    page.goto(f"/tables/{table.pk}/")
    balance = page.locator("[data-testid=nav-balance]")
    assert "20.00" in balance.inner_text()
    page.click("[data-testid=sit-0]")
    page.locator("[data-testid=leave]").wait_for()
    page.wait_for_function(
        "() => document.querySelector('[data-testid=nav-balance]').textContent.includes('15.00')"
    )
    assert balance.inner_text().startswith("Wallet · ")
    page.click("[data-testid=leave]")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=nav-balance]').textContent.includes('20.00')"
    )
    assert get_user_model().objects.get(pk=user.pk)


def test_a_double_click_on_leave_leaves_once_without_an_error(player, user, live_server):
    """A new user's trial: a double-clicked Leave left, then showed the second request's
    refusal ("you hold no seat at this table") in red."""
    table = create_table(user=user, variant="complex", options=TIMERS)
    page = player()
    page.goto(f"/tables/{table.pk}/")
    page.click("[data-testid=sit-0]")
    page.locator("[data-testid=leave]").wait_for()
    posts = []
    page.on("request", lambda r: posts.append(r.url) if "/leave/" in r.url else None)
    page.dblclick("[data-testid=leave]")
    page.locator("[data-testid=sit-0]").wait_for()
    page.wait_for_timeout(500)
    assert len(posts) == 1, posts
    assert not Seat.objects.filter(table=table, user=user).exists()
    assert page.locator("#notice").inner_text().strip() == ""


# -- the whole path against the real API and a worker ------------------------------------------


@pytest.mark.slow
def test_a_staked_match_with_bots_ends_with_a_summary_and_the_stake_back(
    player, user, worker, artifacts
):
    """The seated player's turns time out (timers x0.01), the bots play at once; at the end the
    last deal's summary, the result at the top with the real settlement's reason, and the top
    bar's balance back to what it was."""
    wallet_services.deposit(user=user, amount=20_00, key="test:summary:whole")
    table = create_table(user=user, variant="complex", stake=500, options=TIMERS)
    page = player()
    page.goto(f"/tables/{table.pk}/")
    page.click("[data-testid=sit-0]")
    page.locator("[data-testid=leave]").wait_for()
    page.wait_for_function(
        "() => document.querySelector('[data-testid=nav-balance]').textContent.includes('15.00')"
    )
    # The summary goes at once when this seat must act in the next deal (summary.js), which
    # can be within a frame of its showing: every heading it shows is recorded as it is drawn.
    page.evaluate(
        """() => {
            window.summaryHeads = [];
            const box = document.querySelector('[data-testid=deal-summary]');
            new MutationObserver(() => {
                const h = box.querySelector('h2');
                if (h && !box.hidden) window.summaryHeads.push(h.textContent);
            }).observe(box, {childList: true, attributes: true});
        }"""
    )
    for seat in (1, 2, 3):
        page.click(f"[data-testid=bot-{seat}]")
        page.locator(f"[data-testid=bot-{seat}]").wait_for(state="hidden")
    page.wait_for_function("() => window.summaryHeads.length > 0", timeout=120_000)
    assert re.match(r"Deal \d is over", page.evaluate("() => window.summaryHeads[0]"))
    page.wait_for_function(
        "() => document.getElementById('table-app').dataset.phase === 'over'", timeout=180_000
    )
    reason = page.locator("[data-testid=payout-reason]").first
    reason.wait_for(timeout=30_000)
    assert reason.inner_text() == (
        "Bots never stake, so there was no pot to win: your stake of 5.00 USD came back."
    )
    assert "Deal 8 is over" in page.locator("[data-testid=deal-summary]").inner_text()
    page.wait_for_function(
        "() => document.querySelector('[data-testid=nav-balance]').textContent.includes('20.00')"
    )
    page.evaluate("() => window.scrollTo(0, 0)")
    shot(page, artifacts, "table-match-over-real")


def arabic_player(live_server, client, user, new_page):
    page = new_page(width=PHONE, height=844)
    page.context.add_cookies([{"name": "django_language", "value": "ar", "url": live_server.url}])
    log_in(page, live_server.url, client, user)
    return page


def test_the_deal_summary_isolates_signed_points_in_arabic(
    table_id, live_server, client, user, new_page, artifacts
):
    """In Arabic a sign read after its number ("200+", "355-"): the team lines' points and
    totals, and the table's totals, are isolated left to right."""
    state = finished_deal("complex")
    page = arabic_player(live_server, client, user, new_page)
    Server(page, answer(table_id, state, 0, stake=0))
    page.goto(f"/tables/{table_id}/")
    box = page.locator("[data-testid=deal-summary]")
    box.wait_for()
    teams = page.evaluate("document.querySelector('[data-testid=summary-teams]').textContent")
    # every signed or negative number of the team lines sits in an LTR isolate
    bare = re.sub("\u2066[^\u2069]*\u2069", "", teams)
    assert not re.search(r"[-+\u2212]\s*\d|\d\s*[-+\u2212]", bare), teams
    totals = page.evaluate(
        "Array.from(document.querySelectorAll('[data-testid^=summary-seat-] td:last-child'))"
        ".map((td) => td.textContent)"
    )
    for total in totals:
        assert not re.search(r"-", re.sub("\u2066[^\u2069]*\u2069", "", total)), totals
    scroll_to(page, "deal-summary")
    shot(page, artifacts, "table-deal-summary-ar-390")


@pytest.mark.parametrize("language", ["en", "ar"])
def test_the_match_end_shows_each_rating_line_once(
    table_id, live_server, client, user, new_page, artifacts, language
):
    state = finished_match()
    if language == "ar":
        page = arabic_player(live_server, client, user, new_page)
    else:
        page = new_page(width=DESKTOP, height=800)
        log_in(page, live_server.url, client, user)
    ans = answer(table_id, state, 0, status="finished", stake=0, version=300)
    ans["table"]["result"] = state.result
    Server(page, ans)
    changes = [
        {"seat": s, "user_id": s + 1 if s == 0 else None, "name": n, "family": "partnership",
         "place": 1, "before": 1000, "after": 1000 + d, "delta": d}
        for s, n, d in ((0, "Ana", 30), (2, "Bot 3", -30))
    ]  # fmt: skip
    page.route(
        f"**/api/ratings/tables/{table_id}/**",
        lambda route: route.fulfill(
            status=200,
            content_type="application/json",
            body=json.dumps({"table_id": table_id, "rated": True, "changes": changes}),
        ),
    )
    page.goto(f"/tables/{table_id}/")
    mine = page.locator("[data-testid=my-rating-change]")
    mine.wait_for()
    box = page.locator("[data-testid=rating-changes]")
    if language == "ar":  # "(30−)" otherwise: the sign isolated with its number
        assert "(\u2066+30\u2069)" in mine.inner_text()
        assert box.inner_text().count("(\u2066\u221230\u2069)") == 1
        scroll_to(page, "rating-changes")
        shot(page, artifacts, "table-ratings-ar-390")
        return
    assert mine.inner_text() == "Rating 1000 → 1030 (\u2066+30\u2069)"  # the sign isolated
    text = re.sub("[\u2066\u2069]", "", box.inner_text())
    assert text.count("1000 → 1030") == 1, text  # the viewer's own line, once
    assert text.count("1000 → 970 (\u221230)") == 1, text
