"""The Arabic catalogs are complete and their compiled .mo files match them (issue 14).

The .mo files are committed (installing or testing the site needs no gettext tools), so a
.po edited without ``./dev messages`` (docs/i18n.md) must fail here: every entry of each
``trix_site/locale/ar/LC_MESSAGES/*.po`` is translated (no empty msgstr, no ``#, fuzzy``), its
placeholders are those of the English, and the .mo read back with the standard library's
``gettext`` holds exactly the .po's translations. No msgfmt at test time: the .po is read by
the small parser below."""

from __future__ import annotations

import ast
import gettext
import re
from pathlib import Path

import pytest

LOCALE = Path(__file__).resolve().parents[1] / "trix_site" / "locale"
CATALOGS = sorted((LOCALE / "ar" / "LC_MESSAGES").glob("*.po"))
PYTHON_FORMAT = re.compile(r"%\((\w+)\)[sd]|%[sd]")


def read_po(path: Path) -> list[dict]:
    """The entries of a .po file: ``{"flags", "ctx", "id", "plural", "strs"}`` (obsolete
    ``#~`` entries skipped; ``strs`` maps None, or the plural index, to the translation)."""
    entries, entry, key = [], None, None
    for line in path.read_text(encoding="utf-8").splitlines() + [""]:
        if not line.strip():
            if entry:
                entries.append(entry)
            entry = None
            continue
        if line.startswith("#~"):
            continue
        entry = entry or {"flags": set(), "ctx": None, "id": None, "plural": None, "strs": {}}
        if line.startswith("#,"):
            entry["flags"] |= {flag.strip() for flag in line[2:].split(",")}
        elif line.startswith("#"):
            continue
        elif line.startswith('"'):
            value = ast.literal_eval(line)
            if key[0] == "strs":
                entry["strs"][key[1]] += value
            else:
                entry[key[0]] += value
        else:
            word, _, text = line.partition(" ")
            value = ast.literal_eval(text)
            if word == "msgctxt":
                key = ("ctx", None)
            elif word == "msgid":
                key = ("id", None)
            elif word == "msgid_plural":
                key = ("plural", None)
            else:
                index = int(word[7:-1]) if word.startswith("msgstr[") else None
                key = ("strs", index)
                entry["strs"][index] = value
                continue
            entry[key[0]] = value
    return [e for e in entries if e["id"] is not None]


def placeholders(text: str) -> set[str]:
    return {m.group(1) or m.group(0) for m in PYTHON_FORMAT.finditer(text)}


def test_there_are_arabic_catalogs_for_python_and_scripts():
    assert [p.name for p in CATALOGS] == ["django.po", "djangojs.po"]


@pytest.mark.parametrize("po", CATALOGS, ids=lambda p: p.name)
def test_every_entry_is_translated_and_none_is_fuzzy(po):
    entries = read_po(po)
    header = next(e for e in entries if e["id"] == "")
    assert "fuzzy" not in header["flags"] and "Language: ar\n" in header["strs"][None]
    bad = [
        (e["ctx"], e["id"])
        for e in entries
        if e["id"] and ("fuzzy" in e["flags"] or not all(e["strs"].values()))
    ]
    assert not bad, f"{po.name}: untranslated or fuzzy entries (docs/i18n.md): {bad}"
    plural = [e for e in entries if e["plural"] is not None]
    assert all(sorted(e["strs"]) == list(range(6)) for e in plural)  # Arabic's six forms


@pytest.mark.parametrize("po", CATALOGS, ids=lambda p: p.name)
def test_translations_keep_the_named_placeholders(po):
    for e in read_po(po):
        if not e["id"] or "python-format" not in e["flags"]:
            continue
        english = placeholders(e["id"]) | placeholders(e["plural"] or "")
        named = {p for p in english if not p.startswith("%")}
        for text in e["strs"].values():
            # Every named value the code passes must be in the Arabic, but a plural form that
            # spells its number out ("دقيقتان") may drop it: checked for the "other" form.
            if e["plural"] is None or text == e["strs"][5]:
                assert named <= placeholders(text), (e["id"], text)
            assert placeholders(text) <= english, (e["id"], text)


# Plural entries whose number counts no noun after it (the same words fit every number).
UNCOUNTED = {
    "The %(deals)s finished deal is verified.",
    "%(count)s team at the start, below the minimum of %(minimum)s",
    "%(count)s entrant at the start, below the minimum of %(minimum)s",
}


@pytest.mark.parametrize("po", CATALOGS, ids=lambda p: p.name)
def test_plurals_count_their_noun_in_arabic(po):
    """Arabic counts 3 to 10 with a plural noun (form 3: "5 طاولات") and 11 and more with a
    singular one (forms 4 and 5: "11 طاولة"): a plural entry whose forms 3 and 5 are the
    same wrote "5 طاولة" (a trial's finding), unless its number counts no noun."""
    for e in read_po(po):
        if e["plural"] is None or e["id"] in UNCOUNTED:
            continue
        assert e["strs"][3] != e["strs"][5], (e["id"], e["strs"][3])


@pytest.mark.parametrize("po", CATALOGS, ids=lambda p: p.name)
def test_the_compiled_catalog_is_the_po(po):
    """The committed .mo has exactly the .po's translations: a .po changed without running
    ``./dev messages`` (compilemessages) fails here."""
    mo = po.with_suffix(".mo")
    assert mo.exists(), f"{mo.name} is missing: run ./dev messages"
    with mo.open("rb") as fp:
        compiled = gettext.GNUTranslations(fp)._catalog
    expected = {}
    for e in read_po(po):
        msgid = e["id"] if e["ctx"] is None else f"{e['ctx']}\x04{e['id']}"
        if e["plural"] is None:
            expected[msgid] = e["strs"][None]
        else:
            for index, text in e["strs"].items():
                expected[(msgid, index)] = text
    compiled = {k: v for k, v in compiled.items() if k != ""}
    expected.pop("", None)
    assert compiled == expected, f"{mo.name} is out of date with {po.name}: run ./dev messages"


@pytest.mark.parametrize(
    "seconds, arabic",
    [
        (1, "ثانية واحدة"),
        (2, "ثانيتين"),
        (5, "5 ثوانٍ"),
        (45, "45 ثانية"),
        (60, "دقيقة واحدة"),
        (120, "دقيقتين"),
        (600, "10 دقائق"),
        (1800, "30 دقيقة"),
        (3600, "ساعة واحدة"),
        (7200, "ساعتين"),
        (36_000, "10 ساعات"),
    ],
    ids=lambda value: str(value) if isinstance(value, int) else "",
)
def test_arabic_durations_read_after_the_word_after(seconds, arabic):
    """Every duration the site writes follows "بعد" ("after": an open table closes after it,
    prizes are paid after the review window), which takes the genitive: "بعد دقيقتين", not
    "بعد دقيقتان (2)" (a trial's finding); one and two spell their number out."""
    from django.utils import translation

    from tournaments.describe import duration

    with translation.override("ar"):
        assert duration(seconds) == arabic


@pytest.mark.parametrize("po", CATALOGS, ids=lambda p: p.name)
def test_a_bot_is_a_robot_in_arabic(po):
    """The glossary (``docs/i18n.md``): a bot is "روبوت". The table page's scripts said
    "بوت" (the leave dialog, its button, the payout lines), the rest of the site "روبوت" (a
    trial's finding)."""
    stray = re.compile(r"(?<!رو)بوت")
    for e in read_po(po):
        for text in e["strs"].values():
            assert not stray.search(text), (e["id"], text)


DOCS_I18N = Path(__file__).resolve().parents[1] / "docs" / "i18n.md"
RULES_AR = Path(__file__).resolve().parents[1] / "web" / "templates" / "web" / "rules_ar.html"
#: Arabic marks that do not change a word (fatha ... sukun, shadda, dagger alif, tatweel).
DIACRITICS = re.compile("[\u064b-\u0652\u0670\u0640]")
ARABIC_WORD = re.compile("[\u0621-\u064a\u0671-\u06d3]+")
PREFIXES = ("", "و", "ف", "ب", "ل", "ك", "ال", "وال", "فال", "بال", "كال", "لل", "ولل", "وب", "ول")
SUFFIXES = ("", "ه", "ها", "هم", "هما", "ك", "كم", "ي", "نا", "ات", "ان", "ين", "ة", "تها")
BANNED_ITEM = re.compile(r'^(?P<text>.+?)(?: if "(?P<when>[^"]+)"(?: not "(?P<unless>[^"]+)")?)?$')


def plain(text: str) -> str:
    return DIACRITICS.sub("", text)


def glossary() -> list[dict]:
    """The rows of docs/i18n.md's glossary: ``{"english", "arabic": [allowed words],
    "banned": [(text, when, unless)]}``."""
    rows = []
    section = DOCS_I18N.read_text("utf-8").split("## Glossary")[1].split("\n## ")[0]
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 4 or cells[0] in ("English", "---"):
            continue
        english, arabic, banned, _note = cells
        items = [BANNED_ITEM.match(item.strip()) for item in banned.split(", ") if item.strip()]
        rows.append(
            {
                "english": english,
                "arabic": [plain(a.strip()) for a in arabic.split(" / ")],
                "banned": [(plain(m["text"]), m["when"], m["unless"]) for m in items],
            }
        )
    return rows


def uses(text: str, banned: str) -> bool:
    """Does ``text`` (diacritics removed) use ``banned``: a phrase as written (not as the
    start of a longer word: «اطلب منه» is not «اطلب منهم»), a word with any of Arabic's usual
    prefixes and suffixes ("الوعاء", "أيديها")?"""
    if " " in banned or not ARABIC_WORD.fullmatch(banned):  # a phrase: whole words at its ends
        letter = "\u0621-\u064a\u0671-\u06d3"
        return re.search(rf"(?<![{letter}]){re.escape(banned)}(?![{letter}])", text) is not None
    forms = {p + banned + s for p in PREFIXES for s in SUFFIXES}
    return any(word in forms for word in ARABIC_WORD.findall(text))


def has_word(english: str, word: str) -> bool:
    return re.search(rf"\b{re.escape(word)}s?\b", english, re.I) is not None


def glossary_breaches(english: str, arabic: str, rows: list[dict]) -> list[str]:
    """The banned synonyms ``arabic`` (the translation of ``english``) uses."""
    found = []
    for row in rows:
        text = plain(arabic)
        for allowed in row["arabic"]:  # definite or not: «رسم الاشتراك», «رسم اشتراكه»
            for form in (allowed, re.sub(r"(^| )ال", r"\1", allowed)):
                text = text.replace(form, " ")
        for banned, when, unless in row["banned"]:
            if when and (not has_word(english, when) or (unless and has_word(english, unless))):
                continue
            if uses(text, banned):
                found.append(f"{banned!r} for {row['english']!r}")
    return found


def test_the_glossary_bans_synonyms_and_the_check_finds_them():
    """The check itself: each synonym the table bans is found where it stands for the term,
    and the allowed words around it are not."""
    rows = glossary()
    assert {"التزام", "وعاء", "اشتراك", "بالواقع"} <= {b for r in rows for b, *_ in r["banned"]}
    assert glossary_breaches("Commitment", "الالتزام", rows)
    # the verb too (the failing case: «التزم الموقع بكل خلطة»), the glossary's is «تعهّد»
    assert glossary_breaches("The site has committed to every shuffle", "التزم الموقع", rows)
    assert glossary_breaches("The site commits to the shuffle", "يلتزم الموقع بالخلط", rows)
    assert not glossary_breaches("The site has committed to every shuffle", "تعهّد الموقع", rows)
    assert glossary_breaches("the pot is split", "يُقسم الوعاء", rows)
    assert glossary_breaches("Entry:", "الاشتراك:", rows)
    assert not glossary_breaches("Entry fee", "رسم الاشتراك", rows)
    assert glossary_breaches("Deal %(number)s ended", "انتهت اليد %(number)s", rows)
    assert not glossary_breaches("cards in hand", "الأوراق في اليد", rows)
    assert not glossary_breaches("a new table", "طاولة جديدة", rows)  # «جديد» is not «يد»
    assert glossary_breaches("Download the deal record", "تنزيل سجل التوزيعة", rows)
    assert not glossary_breaches("the transparency log", "سجل الشفافية", rows)
    assert glossary_breaches("%s left the table", "غادر %s الطاولة", rows)
    assert glossary_breaches("Reality check", "التذكير بالواقع", rows)
    assert not glossary_breaches("ask them", "اطلب منهم اسمًا", rows)


def test_the_glossary_refuses_a_gendered_verb_beside_a_name():
    """A player's gender is unknown: the words written beside their name (a placeholder, or a
    label the script puts the name after) are a noun phrase, never a verb that picks one
    («طلب %(name)s» reads "he asked", «أكلها» "he took it")."""
    rows = glossary()
    rematch = "%(name)s asked for a rematch. Seats are held until %(time)s."
    assert glossary_breaches(rematch, "طلب %(name)s إعادة المباراة. المقاعد محجوزة", rows)
    assert not glossary_breaches(rematch, "طلبُ إعادة المباراة من %(name)s. المقاعد محجوزة", rows)
    assert glossary_breaches("Contract chosen by", "اختار العقد", rows)
    assert not glossary_breaches("Contract chosen by", "اللعبة باختيار", rows)
    assert glossary_breaches("Last trick, taken by", "آخر أكلة، أكلها", rows)
    assert not glossary_breaches("Last trick, taken by", "آخر أكلة:", rows)
    assert glossary_breaches("first out", "خرج أولًا", rows)
    assert glossary_breaches("out #{place}", "خرج {place}", rows)
    assert not glossary_breaches("first out", "الخروج أولًا", rows)
    assert not glossary_breaches("Log out", "تسجيل الخروج", rows)


def test_the_rules_pages_check_finds_the_lobby_and_records_synonyms():
    """The rules page's check (the bans that hold whatever the English says): the lobby is
    «الصالة», never «الردهة»; a deal's record «محضر», never «سجل التوزيعة» or «السجلات»,
    while the log stays «سجل»."""
    rows = [{**r, "banned": [b for b in r["banned"] if not b[1]]} for r in glossary()]
    assert glossary_breaches("", "في نموذج الردهة", rows)
    assert glossary_breaches("", "نزّل سجل التوزيعة", rows)
    assert glossary_breaches("", "ويحملها سجل كل توزيعة", rows)
    assert glossary_breaches("", "وفي السجلات تُرقَّم المقاعد", rows)
    assert not glossary_breaches("", "نزّل محضر التوزيعة، وفي المحاضر", rows)
    assert not glossary_breaches("", "ويكتبه في سجل عام، سجل الشفافية", rows)


@pytest.mark.parametrize("po", CATALOGS, ids=lambda p: p.name)
def test_translations_use_the_glossarys_one_word(po):
    """One word per idea (docs/i18n.md's glossary): no translation uses a synonym the glossary
    bans for its term (commitment is «التعهّد», never «الالتزام»; a record «محضر», the log
    «سجل»; a deal «توزيعة», never «يد»; the entry fee «رسم الاشتراك», signing up «إنشاء
    حساب»)."""
    rows = glossary()
    bad = [
        (e["id"], text, glossary_breaches(e["id"] + " " + (e["plural"] or ""), text, rows))
        for e in read_po(po)
        if e["id"]
        for text in set(e["strs"].values())
    ]
    bad = [b for b in bad if b[2]]
    assert not bad, "\n".join(f"{i!r}\n  -> {t!r}: {why}" for i, t, why in bad)


def test_the_arabic_rules_page_uses_the_glossarys_one_word():
    """The rules page is written in Arabic (not through the catalog): the same bans, for the
    bans that hold whatever the English says."""
    rows = [{**r, "banned": [b for b in r["banned"] if not b[1]]} for r in glossary()]
    text = re.sub(r"<[^>]+>|\{[%{].*?[%}]\}", " ", RULES_AR.read_text("utf-8"))
    assert not glossary_breaches("", text, rows)


def test_a_bot_kind_reads_as_an_adjective_in_arabic():
    """A bot's kind is an adjective of «روبوت» ("روبوت 3 منهجي"), not a noun beside it
    ("روبوت 3 قواعد" reads "Robot 3 rules")."""
    entries = {(e["ctx"], e["id"]): e["strs"].get(None) for e in read_po(CATALOGS[1])}
    assert entries[("bot kind", "rules")] == "منهجي"
    assert entries[("bot kind", "random")] == "عشوائي"


def test_the_rematch_panels_answers_fit_any_player():
    """The rematch panel writes each player's answer after their name ("Salma: sits"): in
    Arabic no gendered word (docs/i18n.md's glossary: a player's gender is unknown), «جالس»
    read as a man's."""
    gendered = {
        "sits": ("جالس", "جالسة", "جلس", "جلست"),
        "declined": ("اعتذر", "اعتذرت", "رفض", "رفضت"),
        "did not answer": ("لم يرد", "لم ترد", "لم يجب", "لم تجب"),
    }
    entries = {e["id"]: e["strs"].get(None) for e in read_po(LOCALE / "ar/LC_MESSAGES/djangojs.po")}
    for english, words in gendered.items():
        assert entries[english] and not any(
            plain(entries[english]).startswith(word) for word in words
        ), (english, entries[english])
