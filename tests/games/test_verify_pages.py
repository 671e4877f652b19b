"""The public verification pages (``/verify/deals/<id>/``, ``/verify/matches/<id>/``) speak the
table's language (issue 14): seats numbered 1-4 as on the table page (the raw record and
``trix verify`` number them 0-3, and the page says so), hands as card glyphs grouped by suit,
the raw record still downloadable as it is; in English and in Arabic."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.auth import get_user_model

from games import services as tables
from games.models import Deal
from tests.games.fairness_helpers import simulated_records

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture
def deal_row():
    """A table with its first deal finished (a record the engine played, with its shuffle)."""
    user = User.objects.create_user("vera", "vera@example.com", "pw-Vera-12345")
    table = tables.create_table(user=user, variant="complex")
    record = simulated_records("complex", 1)[0]
    return Deal.objects.create(
        table=table, number=1, contract=record["contract"], record=record
    ), record


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_the_deal_page_numbers_seats_1_to_4_and_says_the_record_uses_0_to_3(client, deal_row):
    deal, _ = deal_row
    html = client.get(f"/verify/deals/{deal.pk}/").content.decode()
    text = _text(html)
    for n in (1, 2, 3, 4):
        assert f"Seat {n}" in text
    assert "Seat 0" not in text
    assert "Client seed, seat 0" not in text and "Client seed, seat 4" in text
    assert "0–3" in text  # the note: the raw record numbers seats 0-3


def test_the_deal_page_shows_hands_as_glyphs_grouped_by_suit(client, deal_row):
    deal, record = deal_row
    html = client.get(f"/verify/deals/{deal.pk}/").content.decode()
    # No raw code list such as "4C 9C 5D" any more.
    raw = " ".join(record["hands"]["0"])
    assert raw not in html
    rows = re.findall(r'<tr data-testid="hand-(\d)".*?</tr>', html, re.S)
    assert rows == ["1", "2", "3", "4"]
    first = re.search(r'<tr data-testid="hand-1".*?</tr>', html, re.S).group(0)
    suits = re.findall(r'data-suit="([CDHS])"', first)
    assert suits == [s for s in "SHCD" if any(c[1] == s for c in record["hands"]["0"])]
    # Every card of seat 1 (record seat 0) shown, ranks low to high within a suit, 10 not T.
    ranks_by_suit = {
        s: re.sub(r"<[^>]+>", " ", m).split()
        for s, m in re.findall(r'data-suit="([CDHS])"[^>]*>(.*?)</span>\s*</span>', first, re.S)
    }
    for suit, shown in ranks_by_suit.items():
        symbol, *ranks = shown
        assert symbol == {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[suit]
        want = [c[0] for c in record["hands"]["0"] if c[1] == suit]
        want.sort(key="23456789TJQKA".index)
        assert ranks == [("10" if r == "T" else r) for r in want]
    # The raw record is still there to download, unchanged.
    body = client.get(f"/api/deals/{deal.pk}/record.json").content
    assert json.loads(body)["hands"] == record["hands"]
    assert f'href="/api/deals/{deal.pk}/record.json"' in html


def test_the_deal_page_in_arabic(client, deal_row):
    deal, _ = deal_row
    r = client.get(f"/verify/deals/{deal.pk}/", HTTP_ACCEPT_LANGUAGE="ar")
    text = _text(r.content.decode())
    assert r.status_code == 200
    assert "♠" in text and "Seat 0" not in text


def test_the_match_page_says_how_seats_are_numbered(client, deal_row):
    deal, _ = deal_row
    text = _text(client.get(f"/verify/matches/{deal.table_id}/").content.decode())
    assert "0–3" in text and "1–4" in text


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "ar"])
def test_the_deal_page_on_a_phone(new_page, artifacts, language):
    """The hands fit a phone's width (no page-wide horizontal scroll; long seeds scroll inside
    their table); screenshots are artifacts."""
    user = User.objects.create_user("vera", "vera@example.com", "pw-Vera-12345")
    table = tables.create_table(user=user, variant="complex")
    record = simulated_records("complex", 1)[0]
    deal = Deal.objects.create(table=table, number=1, contract=record["contract"], record=record)
    page = new_page(width=390, height=844)
    page.set_extra_http_headers({"Accept-Language": language})
    page.goto(f"/verify/deals/{deal.pk}/")
    hands = page.locator("[data-testid^=hand-]")
    assert hands.count() == 4
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    row = page.locator("[data-testid=hand-1]")
    assert row.locator("[data-suit=H]").evaluate("(n) => getComputedStyle(n).color") != (
        row.locator("[data-suit=S]").evaluate("(n) => getComputedStyle(n).color")
    )  # red suits in red
    page.locator("h2").first.scroll_into_view_if_needed()
    page.screenshot(path=artifacts / f"verify-deal-{language}-390.png")
    page.screenshot(path=artifacts / f"verify-deal-{language}-390-full.png", full_page=True)
