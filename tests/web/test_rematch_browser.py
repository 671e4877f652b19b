"""The rematch on the table page, in Chromium at 390x844 in Arabic, against the real API: a
staked match of two people and two bots really ends (a forfeit, applied as the worker does,
and the pot paid); one player proposes the rematch, the other's page shows it by itself;
Share uses the browser's share sheet where it has one, else copies the invite link; the link
reads left to right on the Arabic page (``<bdi dir="ltr">``, not "/http://…"); Take your
seat sits at the held seat with the browser's own client seed and the stake into escrow, and
the other player's held seat shows as theirs. Screenshots: test-artifacts/rematch-*.png."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from accounts.models import Profile
from games import services
from games.models import Seat, Table
from games.services import money
from tests.games.conftest import tasks_applied_here  # noqa: F401  (a fixture)
from tests.web.conftest import log_in
from wallet import services as ledger
from wallet.payments import DemoProvider
from wallet.selectors import wallet_balance

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

STAKE = 100
TIMERS = {"choose_timer": 3600, "double_timer": 3600, "play_timer": 3600}


FIRST_AND_LAST_CHARACTER = """(bdi) => {
    const text = bdi.querySelector("a").firstChild;
    const at = (i) => {
        const range = document.createRange();
        range.setStart(text, i);
        range.setEnd(text, i + 1);
        const box = range.getClientRects()[0];
        return { left: box.left, top: box.top };
    };
    return { first: at(0), last: at(text.length - 1) };
}"""


def _person(username: str, name: str):
    user = get_user_model().objects.create_user(username, password="pw-x-12345")
    Profile.objects.create(user=user, display_name=name)
    ledger.deposit(user=user, amount=1_000, key=f"fund:{username}", provider=DemoProvider())
    return user


@pytest.fixture
def finished(request):
    """Ana (seat 0) and Ben (seat 2) with two bots at a staked partnership table: the match
    started, Ben left (a forfeit, applied by his leave) and the pot paid (the worker's tasks
    are not sent: this test pays it)."""
    request.getfixturevalue("tasks_applied_here")
    ana, ben = _person("ana", "Ana"), _person("ben", "Ben")
    table = services.create_table(user=ana, variant="complex_partner", stake=STAKE, options=TIMERS)
    services.take_seat(user=ana, table_id=table.pk, seat=0, client_seed="ana-seed")
    services.take_seat(user=ben, table_id=table.pk, seat=2, client_seed="ben-seed")
    for seat in (1, 3):
        services.seat_bot(user=ana, table_id=table.pk, seat=seat, bot="rules")
    table.refresh_from_db()
    services.wake(table_id=table.pk, version=table.version)  # the first deal
    services.leave(user=ben, table_id=table.pk)  # the forfeit, applied at once
    money.pay_pot(table_id=table.pk)
    table.refresh_from_db()
    assert table.status == "finished" and table.settled
    return table, ana, ben


def _open(new_page, live_server, user, table_id, share: str):
    """A phone page in Arabic at the finished table. ``share``: "sheet" (a share sheet that
    records what it was given) or "clipboard" (no Web Share API)."""
    page = new_page(width=390, height=844)
    page.context.add_cookies([{"name": "django_language", "value": "ar", "url": live_server.url}])
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    if share == "sheet":
        page.add_init_script(
            "navigator.share = (data) => { window.__shared = data; return Promise.resolve(); };"
        )
    else:
        page.add_init_script("delete Navigator.prototype.share; delete navigator.share;")
    log_in(page, live_server.url, Client(), user)  # a client each: a login ends the last
    page.goto(f"/tables/{table_id}/")
    return page


def test_a_rematch_proposed_shared_and_accepted_on_a_phone_in_arabic(
    finished, new_page, live_server, artifacts
):
    table, ana, ben = finished
    ben_page = _open(new_page, live_server, ben, table.pk, "clipboard")
    ana_page = _open(new_page, live_server, ana, table.pk, "sheet")
    ben_page.get_by_test_id("rematch-propose").click()
    # Ben's page: the seats' answers, the invite link left to right, Share copies it.
    link = ben_page.get_by_test_id("rematch-link")
    link.wait_for()
    rematch = Table.objects.get(rematch_of=table)
    assert rematch.stake == STAKE and rematch.private
    invite = f"{live_server.url}/invite/{rematch.invite_token}/"
    assert link.get_attribute("dir") == "ltr" and link.inner_text() == invite
    assert ben_page.evaluate("() => document.documentElement.dir") == "rtl"
    assert link.evaluate("(e) => getComputedStyle(e).direction") == "ltr"
    # As drawn: "http" starts at the left of the link's first line, "/" ends its last line on
    # the right (a bare URL in the Arabic line drew "/http://…": the slash first).
    ends = link.evaluate(FIRST_AND_LAST_CHARACTER)
    assert ends["first"]["left"] <= ends["last"]["left"], ends
    assert ends["first"]["top"] <= ends["last"]["top"], ends
    assert ben_page.get_by_test_id("rematch-seat-2").inner_text().startswith("Ben")
    ben_page.get_by_test_id("rematch-share").click()
    ben_page.get_by_test_id("rematch-status").filter(has_text="نُسخ الرابط.").wait_for()
    assert ben_page.evaluate("() => navigator.clipboard.readText()") == invite
    ben_page.get_by_test_id("rematch").screenshot(path=str(artifacts / "rematch-panel-ar.png"))
    ben_page.screenshot(path=str(artifacts / "rematch-finished-ar-390.png"))
    # Ana's page shows the rematch by itself (no click): Share opens the share sheet.
    ana_page.get_by_test_id("rematch-accept").wait_for()
    ana_page.get_by_test_id("rematch-share").click()
    ana_page.wait_for_function("() => window.__shared && window.__shared.url")
    assert ana_page.evaluate("() => window.__shared.url") == invite
    # Ben takes his seat: the new table's page sits him there with its own seed, staking.
    before = wallet_balance(ben)
    ben_page.get_by_test_id("rematch-accept").click()
    ben_page.wait_for_url(re.compile(rf"/tables/{rematch.pk}/"))
    ben_page.get_by_test_id("leave").wait_for()
    seat = Seat.objects.get(table=rematch, seat=2)
    assert seat.user_id == ben.pk and seat.client_seed and seat.client_seed != "ben-seed"
    assert seat.client_seed == ben_page.get_by_test_id("seed-used").inner_text()
    assert wallet_balance(ben) == before - STAKE
    # Ana's seat is held for her: Ben sees her name there, no Sit for him.
    held = ben_page.get_by_test_id("held-0")
    assert "Ana" in held.inner_text()
    assert ben_page.get_by_test_id("sit-0").count() == 0
    assert ben_page.get_by_test_id("bot-0").count() == 0
    ben_page.screenshot(path=str(artifacts / "rematch-table-ar-390.png"), full_page=True)
    # Ana accepts from her page: the match starts with both seeds.
    ana_page.get_by_test_id("rematch-accept").click()
    ana_page.wait_for_url(re.compile(rf"/tables/{rematch.pk}/"))
    ana_page.wait_for_function(
        "() => !['', 'open'].includes(document.getElementById('table-app').dataset.phase || '')"
    )
    rematch.refresh_from_db()
    assert rematch.status == "playing"


def test_a_rematch_refused_for_money_links_to_the_wallet_in_words(
    finished, new_page, live_server, artifacts
):
    """The refusal says "Add money in /wallet/": the page shows a link saying where it goes,
    not the raw path."""
    table, ana, ben = finished
    ledger.withdraw(user=ben, amount=wallet_balance(ben), key="empty:ben", provider=DemoProvider())
    page = _open(new_page, live_server, ben, table.pk, "clipboard")
    page.get_by_test_id("rematch-propose").click()
    status = page.get_by_test_id("rematch-status")
    link = status.locator('a[href="/wallet/"]')
    link.wait_for()
    page.get_by_test_id("rematch").screenshot(path=str(artifacts / "rematch-refused-ar.png"))
    assert link.inner_text() == "محفظتك"
    assert "/wallet/" not in status.inner_text()
    assert not Table.objects.filter(rematch_of=table).exists()


RERENDER = """async () => {
    const { st, redraw } = await import("/static/web/table/state.js");
    st.ratings = { ...(st.ratings || {}), redrawn: (st.ratings?.redrawn || 0) + 1 };
    redraw.result();
}"""
"""The result box drawn again, as it is when something it shows arrives later (the ratings,
the payout, a rematch poll): a new key, a new box."""


def test_a_refusal_survives_the_result_box_drawn_again(finished, new_page, live_server):
    """The refusal's link to the wallet stays when the result box is drawn again after it
    was shown, and shows when the box was drawn again while the proposal was on its way."""
    table, ana, ben = finished
    ledger.withdraw(user=ben, amount=wallet_balance(ben), key="empty:ben", provider=DemoProvider())
    page = _open(new_page, live_server, ben, table.pk, "clipboard")
    status = page.get_by_test_id("rematch-status")
    link = status.locator('a[href="/wallet/"]')
    # Drawn again while the POST is held: the answer goes to the box on the page.
    held = []
    page.route(
        "**/rematch/",
        lambda route: held.append(route) if route.request.method == "POST" else route.continue_(),
    )
    page.get_by_test_id("rematch-propose").click()
    for _ in range(200):  # until Playwright hands the POST to the route (at most 10 s)
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the proposal was not sent"
    page.evaluate(RERENDER)
    held[0].continue_()
    link.wait_for()
    # Drawn again after it was shown: the link is still a link.
    page.evaluate(RERENDER)
    assert link.inner_text() == "محفظتك"
