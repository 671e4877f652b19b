"""The site in Arabic in a real browser (issue 14): at 390×844 (a phone) and 1280×800, in
Arabic and English, the lobby, the wallet, the tournament list, a tournament's page and its
live page lay out right to left with no two visible pieces of text overlapping and nothing
wider than the screen; the scripts' words (the lobby's table cards, the live page) come in
Arabic too. Screenshots of every page, language and width are saved in test-artifacts/
(``i18n-<lang>-<width>-<page>.png``)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from accounts.services import set_display_name
from games import services as tables
from tests.factories import TournamentFactory
from tests.web.conftest import log_in
from tournaments import services as tournaments
from wallet import services as wallet

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
User = get_user_model()

SIZES = [(390, 844), (1280, 800)]

#: In the page: every visible piece of text (a text node's line boxes), and each pair of
#: boxes of different elements that overlap by more than a pixel; and how far the page
#: reaches beyond the viewport's width.
LAYOUT = """() => {
  const boxes = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.textContent.trim()) continue;
    const parent = node.parentElement;
    if (!parent || parent.closest("script, style, template, option, [hidden]")) continue;
    // a closed <details> keeps its content out of the layout (but its summary)
    if (parent.closest("details:not([open]) > :not(summary)")) continue;
    const style = getComputedStyle(parent);
    if (style.visibility === "hidden" || style.opacity === "0") continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const r of range.getClientRects()) {
      if (r.width < 1 || r.height < 1) continue;
      boxes.push({ el: parent, text: node.textContent.trim().slice(0, 40),
                   x1: r.left, y1: r.top, x2: r.right, y2: r.bottom });
    }
  }
  const overlaps = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i], b = boxes[j];
      if (a.el === b.el) continue;
      const w = Math.min(a.x2, b.x2) - Math.max(a.x1, b.x1);
      const h = Math.min(a.y2, b.y2) - Math.max(a.y1, b.y1);
      if (w > 1 && h > 1) overlaps.push([a.text, b.text]);
    }
  }
  const width = document.documentElement.clientWidth;
  const wide = [...document.body.querySelectorAll("*")]
    .filter((el) => { const r = el.getBoundingClientRect();
      return r.width && (r.right > width + 1 || r.left < -1) && !el.closest(".scroll-x"); })
    .map((el) => el.tagName + "." + el.className).slice(0, 5);
  return { texts: boxes.length, overlaps, scroll: document.documentElement.scrollWidth - width,
           wide, lang: document.documentElement.lang, dir: document.documentElement.dir };
}"""


@pytest.fixture
def site(db):
    """A player with money, history and a tournament entry; open tables in the lobby."""
    ana = User.objects.create_user("ana", "ana@example.com", "pw-Ana-12345")
    set_display_name(ana, "أبو فهد")
    wallet.deposit(user=ana, amount=250_00, key="test:ana")
    bo = User.objects.create_user("bo", "bo@example.com", "pw-Bo-123456")
    set_display_name(bo, "Bo")
    wallet.deposit(user=bo, amount=50_00, key="test:bo")
    staked = tables.create_table(user=ana, variant="complex_partner", stake=5_00)
    tables.take_seat(user=ana, table_id=staked.pk, seat=0, client_seed="a" * 16)
    tables.create_table(user=bo, variant="trix", stake=0, options={"doubling": "sequential"})
    staff = User.objects.create_user("boss", is_staff=True)
    cup = TournamentFactory(by=staff, name="كأس الشتاء", rounds=3, entry_fee=10_00)
    tournaments.register(tournament_id=cup.pk, by=ana, client_seed="ana-seed")
    tournaments.register(tournament_id=cup.pk, by=bo, client_seed="bo-seed")
    return {"ana": ana, "cup": cup}


def pages(cup):
    return [
        ("lobby", "/", "#table-list .table-card"),
        ("wallet", "/wallet/", "[data-testid=history]"),
        ("tournaments", "/tournaments/", "[data-testid=tournament-card]"),
        ("tournament", f"/tournaments/{cup.pk}/", "[data-testid=rules]"),
        ("live", f"/tournaments/{cup.pk}/live/", "[data-testid=live-entrant]"),
    ]


@pytest.mark.parametrize("lang", ["ar", "en"])
def test_pages_lay_out_in_both_languages_at_both_widths(
    lang, site, new_page, live_server, client, artifacts
):
    for width, height in SIZES:
        page = new_page(width=width, height=height)
        page.context.add_cookies(
            [{"name": "django_language", "value": lang, "url": live_server.url}]
        )
        log_in(page, live_server.url, client, site["ana"])
        for name, url, ready in pages(site["cup"]):
            page.goto(url)
            page.locator(ready).first.wait_for()
            if name == "lobby":  # the scripts' words, once the list has loaded
                page.locator("[data-testid=options-summary]").first.wait_for()
            page.screenshot(path=str(artifacts / f"i18n-{lang}-{width}-{name}.png"), full_page=True)
            layout = page.evaluate(LAYOUT)
            where = f"{lang} {width}px {name}"
            assert layout["lang"] == lang and layout["dir"] == ("rtl" if lang == "ar" else "ltr")
            assert layout["texts"] > 10, where
            assert not layout["overlaps"], f"{where}: overlapping text {layout['overlaps'][:5]}"
            assert layout["scroll"] <= 0 and not layout["wide"], (
                f"{where}: wider than the screen by {layout['scroll']}px: {layout['wide']}"
            )
            if lang == "ar":
                body = page.locator("body").inner_text()
                if name == "lobby":
                    assert "الطاولات المفتوحة" in body and "مقاعد شاغرة" in body
                    assert "Sit" not in body and "free seat" not in body
                if name == "live":
                    assert "مشتركين" in body or "مشترك" in body
                    assert "entrants" not in body and "Loading" not in body


def test_the_scripts_write_money_and_numbers_as_the_server_does_in_arabic(
    db, new_page, live_server
):
    """``Trix.formatMoney`` and ``formatNumber`` (i18n.js) on an Arabic page: Western digits,
    the server's separators, the amount isolated as ``format_money`` isolates it."""
    from django.utils import translation

    from wallet.selectors import format_money

    amounts = [0, 5, -12345, 123456789]
    page = new_page(width=390, height=844)
    page.context.add_cookies([{"name": "django_language", "value": "ar", "url": live_server.url}])
    page.goto("/")
    written = page.evaluate("(amounts) => amounts.map((a) => Trix.formatMoney(a))", amounts)
    with translation.override("ar"):
        assert written == [format_money(a) for a in amounts]
    numbers = page.evaluate(
        """async () => { const i18n = await import("/static/web/i18n.js");
           return [i18n.language, i18n.formatNumber(1234567.5), i18n.gettext("Sit")]; }"""
    )
    assert numbers == ["ar", "1,234,567.5", "اجلس"]
    # A date and time (the tournament's live page) is isolated as the amounts are: the
    # page's direction put "UTC 20:53 2026-12-02" (a new user's trial, 2026-12-02).
    when = "2026-12-02 20:53 UTC"
    assert page.evaluate("(t) => Trix.ltr(t)", when) == "\u2066" + when + "\u2069"
    page.context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    page.goto("/")
    assert page.evaluate("(t) => Trix.ltr(t)", when) == when
