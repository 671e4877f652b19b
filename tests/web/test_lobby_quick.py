"""The lobby in a browser (issue 14): quick play opens a table at once, a creator's invite
link opens the table page at a free seat for someone else, a private table is not listed,
and on a phone the list comes before the create form, which is folded."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from games.fairness_selectors import match_commitment
from games.models import Seat, Table
from tests.web.conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
User = get_user_model()


def test_quick_play_opens_a_table_with_bots(worker, new_page, live_server, client, artifacts):
    ana = User.objects.create_user("ana", password="pw-x-12345")
    page = new_page(width=390, height=844)
    log_in(page, live_server.url, client, ana)
    page.goto("/")
    page.screenshot(path=str(artifacts / "lobby-phone.png"), full_page=True)
    # On a phone quick play, then the open tables, then the create form, folded.
    quick = page.locator("#quick-play").bounding_box()
    create = page.locator("#create").bounding_box()
    tables = page.locator("#table-lists").bounding_box()
    assert quick["y"] < tables["y"] < create["y"], (quick, create, tables)
    assert page.locator("#create-form").is_hidden()
    page.get_by_test_id("quick-play").click()
    page.wait_for_url(re.compile(r"/tables/\d+/"))
    table_id = int(re.search(r"/tables/(\d+)/", page.url).group(1))
    # The table page sits (its Sit path): the match starts, the seat's hand is dealt.
    page.wait_for_function("document.querySelectorAll('#hand .card').length === 13")
    seat = Seat.objects.get(table_id=table_id, user=ana)
    assert seat.seat == 0
    kinds = Table.objects.get(pk=table_id).seat_kinds
    assert kinds == ["human", "rules", "rules", "rules"]
    # The browser kept the table's commitment and the seed it sent (issue 12), so the page
    # can check the deals: not "this browser did not save this match's commitment".
    shown = match_commitment(table_id)
    key = f"trix.fairness/1:{shown['match_id']}:{shown['commitment']}"
    kept = page.evaluate("(key) => JSON.parse(localStorage.getItem(key))", key)
    assert kept is not None, page.evaluate("() => Object.keys(localStorage)")
    assert kept["commitment"] == shown["commitment"]
    assert kept["table_id"] == table_id and kept["seat"] == 0
    assert kept["client_seed"] == seat.client_seed
    assert "#quick-seat" not in page.url  # a reload does not sit again
    page.screenshot(path=str(artifacts / "lobby-quick-play-table.png"))


def test_a_private_table_and_its_invite_link(new_page, live_server, client, artifacts):
    ana = User.objects.create_user("ana", password="pw-x-12345")
    ben = User.objects.create_user("ben", password="pw-x-12345")
    page = new_page()
    log_in(page, live_server.url, client, ana)
    page.goto("/")
    page.get_by_test_id("create-private").check()
    page.get_by_test_id("create-table").click()
    page.wait_for_url(re.compile(r"/tables/\d+/"))
    table_id = int(re.search(r"/tables/(\d+)/", page.url).group(1))
    table = Table.objects.get(pk=table_id)
    assert table.private and table.invite_token
    # The creator sees it in the lobby (marked private) and gets its link there.
    page.goto("/")
    page.get_by_test_id(f"invite-link-{table_id}").click()
    link = page.get_by_test_id(f"invite-url-{table_id}")
    link.wait_for()
    url = link.input_value()
    assert url == f"{live_server.url}/invite/{table.invite_token}/"
    assert link.get_attribute("dir") == "ltr"  # reads left to right on an Arabic page too
    page.get_by_test_id(f"invite-share-{table_id}").wait_for()
    page.screenshot(path=str(artifacts / "lobby-invite-link.png"))
    # Another player: not in their lobby; the link opens the table page at a free seat.
    other = new_page(width=390, height=844)
    log_in(other, live_server.url, client, ben)
    other.goto("/")
    other.get_by_test_id("table-list").locator("p.empty, .table-card").first.wait_for()
    assert other.get_by_test_id(f"table-{table_id}").count() == 0
    other.goto(url)
    other.wait_for_url(re.compile(rf"/tables/{table_id}/#seat-0"))
    other.screenshot(path=str(artifacts / "invite-opened-phone.png"))


def test_quick_play_while_seated_elsewhere_says_so_in_arabic(
    new_page, live_server, client, artifacts
):
    """Quick play from the lobby while the player's match at another table runs: refused
    (one live seat), the lobby says which table in Arabic, and no table is made."""
    from games.services import lobby

    rana = User.objects.create_user("rana", password="pw-x-12345")
    playing, _ = lobby.quick_play(user=rana)
    made = Table.objects.count()
    page = new_page(width=390, height=844)
    page.context.add_cookies([{"name": "django_language", "value": "ar", "url": live_server.url}])
    log_in(page, live_server.url, client, rana)
    page.goto("/")
    page.get_by_test_id("quick-play").click()
    page.wait_for_function(
        "(text) => document.querySelector('#quick-notice').textContent.includes(text)",
        arg=f"لك مقعد على الطاولة {playing.pk}",
    )
    assert page.url.rstrip("/") == live_server.url and Table.objects.count() == made
    page.screenshot(path=str(artifacts / "lobby-quick-play-live-seat-ar.png"))


def test_a_staked_quick_play_says_the_table_waits_before_the_stake_is_held(
    player, new_page, live_server, client, artifacts
):
    """Bots never stake, so the lobby's staked quick play opened a table with three bots and
    held the stake for a match with no pot (a new player's trial). Now it says the table
    waits for players, the stake and when it comes back, before the table page takes the
    seat; "Sit and wait" sits there.

    A later trial: the press made the table at once, so the lobby listed it empty while the
    player read (and it went after 3 minutes as an empty table). No table is made until
    "Sit and wait"; then the lobby shows the player at it, waiting, and quick play says so."""
    from wallet.selectors import wallet_balance

    ana = player("ana", funds=10_00)
    page = new_page(width=390, height=844)
    log_in(page, live_server.url, client, ana)
    page.goto("/")
    page.locator("#quick_stake").fill("5")
    page.get_by_test_id("quick-play").click()
    wait = page.get_by_test_id("quick-wait")
    wait.wait_for()
    assert "Bots never stake" in wait.inner_text() and "3 more players" in wait.inner_text()
    assert "5.00 USD" in wait.inner_text() and page.locator("#quick-notice").is_hidden()
    assert page.url.rstrip("/") == live_server.url and wallet_balance(ana) == 10_00
    assert not Table.objects.filter(created_by=ana).exists()  # nothing listed empty
    page.screenshot(path=str(artifacts / "lobby-quick-play-staked-wait.png"), full_page=True)
    page.get_by_test_id("quick-sit-and-wait").click()
    page.wait_for_url(re.compile(r"/tables/\d+/"))
    page.get_by_test_id("leave").wait_for()  # seated
    table = Table.objects.get(created_by=ana)
    assert table.stake == 5_00 and not Seat.objects.filter(table=table).exclude(bot="").exists()
    assert Seat.objects.get(table=table, seat=0).user == ana
    assert wallet_balance(ana) == 5_00 and Table.objects.get(pk=table.pk).status == "open"
    page.screenshot(path=str(artifacts / "lobby-quick-play-staked-seated.png"))
    # Back in the lobby: their table, with them at it, waiting for three more.
    page.goto("/")
    mine = page.get_by_test_id(f"waiting-{table.pk}")
    mine.wait_for()
    assert mine.inner_text() == "You sit here: the table waits for 3 more players."
    page.locator("#quick_stake").fill("5")
    page.get_by_test_id("quick-play").click()
    page.get_by_test_id("quick-your-table").wait_for()
    assert f"You sit at table {table.pk}" in wait.inner_text()
    assert page.get_by_test_id("quick-sit-and-wait").count() == 0
    assert Table.objects.filter(created_by=ana).count() == 1
    page.screenshot(path=str(artifacts / "lobby-quick-play-staked-waiting.png"), full_page=True)


def test_the_staked_quick_plays_wait_is_told_in_arabic(
    player, new_page, live_server, client, artifacts
):
    rana = player("rana", funds=10_00)
    page = new_page(width=390, height=844)
    page.context.add_cookies([{"name": "django_language", "value": "ar", "url": live_server.url}])
    log_in(page, live_server.url, client, rana)
    page.goto("/")
    page.locator("#quick_stake").fill("٥")
    page.get_by_test_id("quick-play").click()
    wait = page.get_by_test_id("quick-wait")
    wait.wait_for()
    assert "الروبوتات لا تراهن" in wait.inner_text() and "5.00 USD" in wait.inner_text()
    sit = page.get_by_test_id("quick-sit-and-wait")
    assert sit.inner_text() == "اجلس وانتظر · الرهان \u20665.00 USD\u2069"  # the amount isolated
    page.screenshot(path=str(artifacts / "lobby-quick-play-staked-wait-ar.png"), full_page=True)
    sit.click()
    page.wait_for_url(re.compile(r"/tables/\d+/"))
    page.get_by_test_id("leave").wait_for()
    table = Table.objects.get(created_by=rana)
    # The lobby: «مقعدك هنا», not «لا طاولات مفتوحة»; quick play names the table.
    page.goto("/")
    page.get_by_test_id(f"waiting-{table.pk}").wait_for()
    assert "لا طاولات مفتوحة" not in page.get_by_test_id("table-list").inner_text()
    assert page.get_by_test_id(f"waiting-{table.pk}").inner_text() == (
        "مقعدك هنا: تنتظر الطاولة 3 لاعبين آخرين."
    )
    page.locator("#quick_stake").fill("٥")
    page.get_by_test_id("quick-play").click()
    page.get_by_test_id("quick-your-table").wait_for()
    assert f"مقعدك على الطاولة {table.pk}" in wait.inner_text()
    page.screenshot(path=str(artifacts / "lobby-quick-play-staked-waiting-ar.png"), full_page=True)


def test_a_changed_stake_takes_the_sit_and_wait_offer_away(
    player, new_page, live_server, client, artifacts
):
    """The offer «اجلس وانتظر · الرهان 10.00 USD» stayed on screen under the error of an
    invalid amount typed next («0.001», «1e3»): one tap staked 10.00 while the box showed
    another amount. The offer goes as soon as the box changes, and never beside an error."""
    rana = player("rana", funds=100_00)
    page = new_page(width=390, height=844)
    page.context.add_cookies([{"name": "django_language", "value": "ar", "url": live_server.url}])
    log_in(page, live_server.url, client, rana)
    page.goto("/")
    box, wait = page.locator("#quick_stake"), page.get_by_test_id("quick-wait")
    box.fill("١٠")
    page.get_by_test_id("quick-play").click()
    sit = page.get_by_test_id("quick-sit-and-wait")
    sit.wait_for()
    assert "10.00 USD" in sit.inner_text()
    for bad in ("0.001", "1e3"):
        box.fill(bad)
        assert wait.is_hidden() and sit.count() == 0, bad  # gone with the change, not the tap
        page.get_by_test_id("quick-play").click()
        page.locator("#quick-notice").wait_for()
        assert wait.is_hidden() and sit.count() == 0, bad
        page.screenshot(path=str(artifacts / f"lobby-quick-bad-{bad}-ar.png"), full_page=True)
    assert not Table.objects.filter(created_by=rana).exists()


def test_the_stake_box_says_empty_is_free(player, new_page, live_server, client, artifacts):
    """An emptied stake box started a free match without the page saying so: the hint under
    the box says it (0 or empty: a casual table), and the box shows 0 when empty."""
    rana = player("rana")
    page = new_page(width=390, height=844)
    page.context.add_cookies([{"name": "django_language", "value": "ar", "url": live_server.url}])
    log_in(page, live_server.url, client, rana)
    page.goto("/")
    box = page.locator("#quick_stake")
    box.fill("")
    hint = page.get_by_test_id("quick-stake-hint")
    assert hint.is_visible() and hint.inner_text() == "0 أو فارغ: طاولة ودية بلا رهان."
    assert box.get_attribute("placeholder") == "0"
    assert box.get_attribute("aria-describedby") == "quick_stake_hint"
    page.screenshot(path=str(artifacts / "lobby-quick-empty-stake-ar.png"))
