"""The rules and help page ``/rules/`` (issue 14): in English and in Arabic by the request's
language, every contract, doubling, the Trix layout, every table option (each field of
``games.engine.Options``), stakes and pots, checking a shuffle, tournaments; linked from
every page's header."""

from __future__ import annotations

import re
from dataclasses import fields

import pytest
from django.contrib.auth import get_user_model

from games.engine.options import Options, option_choices

pytestmark = pytest.mark.django_db

SECTIONS = [
    "basics",
    "kingdoms",
    "tricks",
    "contracts",
    "contract-king",
    "contract-queens",
    "contract-diamonds",
    "contract-ltoosh",
    "contract-trix",
    "contract-complex",
    "doubling",
    "trix-layout",
    "winning",
    "options",
    "timers",
    "money",
    "verify",
    "tournaments",
]

HEADINGS = {
    "en": [
        "Trix: rules and help",
        "Kingdoms and contracts",
        "The contracts",
        "Doubling",
        "The Trix layout",
        "Winning a match",
        "Table options",
        "Stakes, pots and payouts",
        "Checking a shuffle",
        "Tournaments",
    ],
    "ar": [
        "تركس: القواعد والمساعدة",
        "الممالك والعقود",
        "العقود",
        "الدبل",
        "ترتيب التركس",
        "الفوز بالمباراة",
        "خيارات الطاولة",
        "الرهانات والأوعية والمدفوعات",
        "التحقق من الخلط",
        "البطولات",
    ],
}

# The contract names of docs/rules.md, "Vocabulary" (web/names.py) in the Arabic page.
ARABIC_TERMS = ["شايب الهاص", "البنات", "الديمن", "اللطوش", "تركس", "كمبلكس", "الدبل", "تحقق"]


def _page(client, language: str) -> str:
    r = client.get("/rules/", HTTP_ACCEPT_LANGUAGE=language)
    assert r.status_code == 200
    return r.content.decode()


def _headings(html: str) -> list[str]:
    return [
        re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", h)).strip()
        for h in re.findall(r"<h[12][^>]*>(.*?)</h[12]>", html, re.S)
    ]


@pytest.mark.parametrize("language", ["en", "ar"])
def test_the_rules_page_has_every_section_in_each_language(client, language):
    html = _page(client, language)
    article = re.search(r'<article class="panel rules" dir="(\w+)" lang="(\w+)"', html)
    assert article.groups() == ({"en": "ltr", "ar": "rtl"}[language], language)
    headings = _headings(html)
    for heading in HEADINGS[language]:
        assert any(h.startswith(heading) for h in headings), (heading, headings)
    for section in SECTIONS:
        assert f'id="{section}"' in html, section
        assert html.count(f'id="{section}"') == 1, section
    # Every in-page link points at a section that exists.
    for target in set(re.findall(r'href="#([\w-]+)"', html)):
        assert f'id="{target}"' in html, target


@pytest.mark.parametrize("language", ["en", "ar"])
def test_every_table_option_is_explained(client, language):
    """Each option the engine takes (the lobby's create form lists the same ones) has its own
    entry, naming its field and, for a choice, saying how many values it has."""
    html = _page(client, language)
    for f in fields(Options):
        entry = re.search(rf'<dt id="option-{f.name}">(.*?)</dt>\s*<dd>(.*?)</dd>', html, re.S)
        assert entry, f.name
        assert f"<code>{f.name}</code>" in entry.group(1)
        if f.name in option_choices() and f.name != "variant":
            # one <strong> per value named (the default first)
            assert entry.group(2).count("<strong>") >= len(option_choices()[f.name]), f.name


def test_the_arabic_page_uses_the_seed_pages_terms(client):
    html = _page(client, "ar")
    text = re.sub(r"<[^>]+>", " ", html)
    for term in ARABIC_TERMS:
        assert term in text, term
    # Not the English text with an Arabic title.
    assert "Kingdoms and contracts" not in html and "Stakes, pots and payouts" not in html


def test_an_unsupported_language_gets_the_english_page(client):
    html = _page(client, "fr")
    assert "Trix: rules and help" in html


def test_the_english_page_agrees_with_the_money_rules(client):
    """The shares the page states are the ledger's (wallet.settlement.SOLO_SHARES) and the
    rounding example is split_pot's own answer."""
    from wallet.settlement import SOLO_SHARES, split_pot

    html = _page(client, "en")
    for stakers, shares in SOLO_SHARES.items():
        row = re.search(rf"<tr><td>{stakers}</td>(.*?)</tr>", html, re.S).group(1)
        cells = [c for c in re.findall(r'<td class="num">([^<]*)</td>', row)]
        assert cells == [f"{s}%" if s else "0" for s in shares], (stakers, cells)
    split = split_pot(400, {0: 100, 1: 100, 2: 100, 3: 100}, {0: 1, 1: 2, 2: 2, 3: 2}, False)
    paid = ", ".join(f"{v // 100}.{v % 100:02d}" for v in split.payouts.values())
    assert f"4.00 with one winner above three tied second places: {paid}" in html


@pytest.mark.parametrize(
    "url", ["/", "/rules/", "/tournaments/", "/accounts/login/", "/accounts/signup/"]
)
def test_every_page_links_to_the_rules_from_its_header(client, url):
    html = client.get(url).content.decode()
    header = html[html.index('<header class="site-header">') : html.index("</header>")]
    assert re.search(r'<a href="/rules/" data-testid="nav-rules">[^<]+</a>', header), url


def test_a_logged_in_players_header_links_to_the_rules(client):
    user = get_user_model().objects.create_user("rhea", "rhea@example.com", "pw-Rhea-12345")
    client.force_login(user)
    for url in ("/", "/wallet/"):
        html = client.get(url).content.decode()
        assert 'data-testid="nav-rules"' in html, url


WIDER_THAN_THE_SCREEN = """() => {
    const out = [];
    for (const el of document.querySelectorAll("body *")) {
        const r = el.getBoundingClientRect();
        let clipped = false;  // inside a box that scrolls or clips it
        for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
            if (getComputedStyle(a).overflowX !== "visible") clipped = true;
        }
        if (!clipped && (r.right > window.innerWidth + 1 || r.left < -1)) {
            out.push(el.tagName + "." + el.className + " " + Math.round(r.left) + ".." +
                Math.round(r.right));
        }
    }
    return out.slice(0, 12);
}"""


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "ar"])
@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 800)])
def test_the_rules_page_fits_a_phone_and_a_desktop(new_page, artifacts, language, width, height):
    """Nothing wider than the screen (tables scroll inside their box), the Arabic text right to
    left, the header's Rules link leads to the page; screenshots are artifacts."""
    page = new_page(width=width, height=height)
    page.set_extra_http_headers({"Accept-Language": language})
    page.goto("/")
    page.click("[data-testid=nav-rules]")
    page.wait_for_url("**/rules/")
    article = page.locator("[data-testid=rules]")
    assert article.evaluate("(a) => getComputedStyle(a).direction") == (
        "rtl" if language == "ar" else "ltr"
    )
    overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, page.evaluate(WIDER_THAN_THE_SCREEN)
    page.screenshot(path=artifacts / f"rules-{language}-{width}x{height}.png")
    page.locator("#money").scroll_into_view_if_needed()
    page.screenshot(path=artifacts / f"rules-{language}-{width}x{height}-money.png")
