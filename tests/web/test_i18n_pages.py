"""Every page in English and in Arabic (issue 14, "Arabic first"): the language comes from the
browser (Accept-Language), the header's switch (Django's set_language, a cookie) overrides
it; ``<html lang dir>`` follows; the Arabic pages show their words in Arabic (no English left
in the visible text of the lobby, wallet, profile and tournament pages); money is written
the same way in both; the API answers errors in the request's language."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pytest
from django.contrib.auth import get_user_model
from django.utils import translation

from accounts.services import set_display_name
from games import services as tables
from tests.factories import TournamentFactory
from wallet import services as wallet_services
from wallet.selectors import format_money

pytestmark = pytest.mark.django_db
User = get_user_model()

AR = {"HTTP_ACCEPT_LANGUAGE": "ar"}
EN = {"HTTP_ACCEPT_LANGUAGE": "en-GB,en;q=0.9"}


class _Visible(HTMLParser):
    """The text a reader sees: outside <script>, <style>, <code>, <title> and the JSON data."""

    HIDDEN = {"script", "style", "code", "title", "template"}

    def __init__(self):
        super().__init__()
        self.hidden = 0
        self.parts: list[str] = []
        self.attrs: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in self.HIDDEN:
            self.hidden += 1
        for name, value in attrs:  # words a reader meets in attributes
            if name in ("placeholder", "aria-label", "title", "alt") and value:
                self.attrs.append(value)

    def handle_endtag(self, tag):
        if tag in self.HIDDEN and self.hidden:
            self.hidden -= 1

    def handle_data(self, data):
        if not self.hidden:
            self.parts.append(data)


def visible_words(html: str) -> set[str]:
    """Latin words of two letters or more in a page's visible text and attributes (a
    no-break hyphen, U+2011, as in «SHA‑256», read as the hyphen it shows)."""
    parser = _Visible()
    parser.feed(html)
    text = " ".join(parser.parts + parser.attrs).replace("\u2011", "-")
    return set(re.findall(r"[A-Za-z][A-Za-z'’-]+", text))


#: Latin words an Arabic page may show: the brand beside its Arabic name, the currency code,
#: UTC, the format names of the verifiable records and players' own names (set per test).
ALLOWED = {"Trix", "USD", "UTC", "SHA-", "trix-draw", "English"}


def html_of(client, url, headers, status=200):
    response = client.get(url, **headers)
    assert response.status_code == status, (url, response.status_code)
    return response.content.decode()


def assert_language(html: str, lang: str) -> None:
    direction = "rtl" if lang == "ar" else "ltr"
    assert f'<html lang="{lang}" dir="{direction}">' in html


@pytest.fixture
def ana():
    user = User.objects.create_user("ana", "ana@example.com", "pw-Ana-12345")
    set_display_name(user, "آنا")
    wallet_services.deposit(user=user, amount=9_345_67, key="test:ana")
    return user


@pytest.fixture
def open_table(ana):
    return tables.create_table(user=ana, variant="trix_partner", stake=5_00, options={})


@pytest.fixture
def tournament(db):
    staff = User.objects.create_user("boss", is_staff=True)
    return TournamentFactory(by=staff, name="Cup")


def pages(ana, table, tournament):
    """``(url, Arabic words it must show, logged in)`` for every page of the site but the
    table page (its own helper's tests) and the verify pages (below, with a real deal)."""
    t = tournament.pk
    return [
        ("/", ["الطاولات المفتوحة", "أنشئ طاولة", "الصالة"], True),
        ("/", ["إنشاء حساب", "سجّل الدخول"], False),
        ("/wallet/", ["المحفظة", "الرصيد:", "السجل", "إيداع"], True),
        ("/accounts/profile/", ["ملفك الشخصي", "الاسم الظاهر", "حفظ"], True),
        ("/tournaments/", ["القادمة", "البطولات", "النظام السويسري"], True),
        (f"/tournaments/{t}/", ["تسجيلك", "القواعد والإعدادات", "جدول الجوائز"], True),
        (f"/tournaments/{t}/", ["سجّل الدخول"], False),
        (f"/tournaments/{t}/live/", ["الجولات", "المشتركون", "قرعة الجلوس"], False),
        ("/tournaments/mine/", ["بطولاتي", "لم تشترك في أي بطولة بعد."], True),
        ("/tournaments/new/", ["للمشرفين فقط"], True),  # ana is not staff: the 403 page
        (f"/verify/matches/{table.pk}/", ["لم تنتهِ أي توزيعة بعد"], False),
        ("/accounts/login/", ["تسجيل الدخول"], False),
        ("/accounts/signup/", ["أبو فهد", "الاسم الظاهر"], False),
        ("/no-such-page/", ["الصفحة غير موجودة", "العودة إلى الصالة"], False),
        ("/ratings/solo/", ["لوحة المتصدرين", "لا مباراة محسوبة لك", "لا مباريات محسوبة"], True),
        ("/ratings/partnership/", ["لوحة المتصدرين", "شراكة"], False),
    ]


def test_every_page_in_arabic_and_in_english(client, ana, open_table, tournament):
    for url, words, logged_in in pages(ana, open_table, tournament):
        client.logout()
        if logged_in:
            client.force_login(ana)
        status = {"/tournaments/new/": 403, "/no-such-page/": 404}.get(url, 200)
        arabic = html_of(client, url, AR, status)
        assert_language(arabic, "ar")
        for word in words:
            assert word in arabic, (url, word)
        english = html_of(client, url, EN, status)
        assert_language(english, "en")
        assert words[0] not in english, (url, words[0])
        # the switch to the other language, on every page
        assert 'data-testid="language-en"' in arabic and 'data-testid="language-ar"' in english


#: The pages whose visible text must be Arabic through and through.
WHOLLY_ARABIC = [
    "/", "/wallet/", "/accounts/profile/", "/tournaments/", "/tournaments/mine/",
    "/ratings/solo/", "/ratings/partnership/",
]  # fmt: skip


def test_no_english_left_on_the_main_arabic_pages(client, ana, open_table, tournament):
    from tournaments import services

    # a wallet line and an entry
    services.register(tournament_id=tournament.pk, by=ana, client_seed="ana-seed")
    client.force_login(ana)
    urls = WHOLLY_ARABIC + [f"/tournaments/{tournament.pk}/", f"/tournaments/{tournament.pk}/live/"]
    for url in urls:
        left = visible_words(html_of(client, url, AR)) - ALLOWED - {"Cup", "ana", "boss"}
        # the address of the e-mail and a username are the player's own, not words of the site
        left -= {"example", "com", "demo"}  # and the demo payment provider's name
        assert not left, f"{url}: English left on the Arabic page: {sorted(left)}"


def test_the_same_check_finds_english_on_the_english_pages(client, ana):
    """The check above can fail: the English lobby is full of English words."""
    client.force_login(ana)
    assert {"Open", "tables", "Create"} <= visible_words(html_of(client, "/", EN))


def test_the_language_switch_is_remembered_over_the_browser_language(client, ana):
    response = client.post("/i18n/setlang/", {"language": "ar", "next": "/wallet/"}, **EN)
    assert response.status_code == 302 and response["Location"] == "/wallet/"
    cookie = response.cookies["django_language"]
    assert cookie.value == "ar" and int(cookie["max-age"]) >= 300 * 24 * 3600
    assert_language(html_of(client, "/", EN), "ar")  # the cookie wins over Accept-Language
    client.post("/i18n/setlang/", {"language": "en", "next": "/"}, **AR)
    assert_language(html_of(client, "/", AR), "en")


def test_an_unknown_language_falls_back_to_english(client):
    assert_language(html_of(client, "/", {"HTTP_ACCEPT_LANGUAGE": "xx"}), "en")
    client.post("/i18n/setlang/", {"language": "xx", "next": "/"})
    assert_language(html_of(client, "/", {}), "en")


def test_money_is_written_with_western_digits_in_both_languages(client, ana):
    with translation.override("en"):
        assert format_money(9_345_67) == "9,345.67 USD"
        assert format_money(-5) == "-0.05 USD"
    with translation.override("ar"):
        # the same digits and separators, isolated from the Arabic around them
        assert format_money(9_345_67) == "\u20669,345.67 USD\u2069"
        assert format_money(-5) == "\u2066-0.05 USD\u2069"
    client.force_login(ana)
    arabic = html_of(client, "/wallet/", AR)
    assert "\u20669,345.67 USD\u2069" in arabic
    assert "9,345.67 USD" in html_of(client, "/wallet/", EN)


def test_option_labels_and_contract_names_follow_the_language(client, ana):
    client.force_login(ana)
    arabic = html_of(client, "/", AR)
    assert "كمبلكس شراكة (افتراضي)" in arabic and "Partner" not in visible_words(arabic)
    assert "الدبل" in arabic and "متزامن: اختيار سري" in arabic
    english = html_of(client, "/", EN)
    assert "Trix Complex Partner · كمبلكس شراكة (default)" in english


def test_the_api_answers_in_the_request_language(client, ana, open_table):
    other = User.objects.create_user("bo", "bo@example.com", "pw-Bo-123456")
    wallet_services.deposit(user=other, amount=1_00, key="test:bo")  # less than the stake
    client.force_login(other)
    body = json.dumps({"seat": 1, "client_seed": "x" * 16})
    url = f"/api/tables/{open_table.pk}/seats/"
    arabic = client.post(url, body, content_type="application/json", **AR)
    assert arabic.status_code == 400
    assert arabic.json()["code"] == "insufficient_funds"
    assert "في محفظتك" in arabic.json()["error"] and "/wallet/" in arabic.json()["error"]
    english = client.post(url, body, content_type="application/json", **EN)
    assert english.json()["error"].startswith("Your wallet holds")
    client.logout()
    anonymous = client.post(url, body, content_type="application/json", **AR)
    assert anonymous.status_code in (401, 403) and "سجّل الدخول" in anonymous.json()["error"]


def test_form_errors_and_messages_in_arabic(client, ana, settings):
    settings.TRIX_DEMO_PAYMENTS = True
    client.force_login(ana)
    page = client.post("/wallet/withdraw/", {"withdraw-amount": "", "withdraw-key": "0" * 32}, **AR)
    assert page.status_code == 400 and "أدخل مبلغًا." in page.content.decode()
    page = client.post("/accounts/profile/", {"display_name": "   "}, **AR)
    assert "الاسم الظاهر" in page.content.decode()
    saved = client.post("/accounts/profile/", {"display_name": "أبو فهد"}, follow=True, **AR)
    assert "حُفظ الاسم الظاهر." in saved.content.decode()


def test_the_scripts_catalog_is_arabic_for_an_arabic_browser(client):
    arabic = html_of(client, "/jsi18n/", AR)
    assert "\\u0627\\u062c\\u0644\\u0633" in arabic or "اجلس" in arabic  # "Sit": اجلس
    assert "اجلس" not in html_of(client, "/jsi18n/", EN)


@pytest.mark.django_db(transaction=True)
def test_the_verify_deal_page_in_arabic(worker, client, ana):
    """A real finished deal (four bots on the worker) and its shuffle check, in Arabic."""
    from games.models import Deal
    from tests.games.helpers import wait_until

    table = tables.create_table(user=ana, variant="complex", stake=0, options={})
    for seat in range(4):
        tables.seat_bot(user=ana, table_id=table.pk, seat=seat, bot="rules")
    try:
        deal = wait_until(lambda: Deal.objects.filter(table=table).first(), timeout=120)
    except AssertionError:
        table.refresh_from_db()
        tail = worker.tail(3000)
        raise AssertionError(f"no deal ended (table {table.status}):\n{tail}") from None
    arabic = html_of(client, f"/verify/deals/{deal.pk}/", AR)
    assert_language(arabic, "ar")
    assert "تم التحقق" in arabic and "الأوراق المُعاد حسابها" in arabic
    english = html_of(client, f"/verify/deals/{deal.pk}/", EN)
    assert "Verified" in english and "Recomputed hands" in english
    match = html_of(client, f"/verify/matches/{table.pk}/", AR)
    assert "التوزيعة" in match and "تم التحقق" in match
