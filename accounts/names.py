"""The rules for a display name that are about what it looks like: it must show
at least one visible character, and its confusable key says which names it could pass for.

The key is the UTS #39 confusable skeleton (Unicode's ``confusables.txt``: a Cyrillic ``а``
and a Latin ``a``, a fullwidth or mathematical letter and the plain one, map to one
prototype) as computed by the ``disarm`` library's ``skeleton_key`` with
``digit_policy="tr39"`` (``0`` is ``O``, ``1`` is ``l``, as TR39's identifier skeleton has
it), lowercased and with spaces collapsed, then with ``i`` read as ``l``: the skeleton folds
a capital ``I`` to ``l`` before it lowercases, so ``KHALID`` would otherwise key as
``khalld`` and ``Khalid`` as ``khalid``; reading both as ``l`` keeps one key whatever the
case (the price: ``Ali`` and ``All`` count as alike). Two names with the same key look
alike. The key
is for comparing only, never shown (Arabic alef, for one, maps to ``l``). Arabic letters and
digits keep their own prototypes, so distinct Arabic names keep distinct keys.

Names a bot is shown by are kept for bots (:func:`looks_like_a_bot`), and the name a closed
account is shown by for closed accounts (:func:`looks_like_a_closed_account`).
"""

from __future__ import annotations

import functools
import re
import unicodedata

from disarm import skeleton_key

from games.engine.bots import BOTS

# Letters and symbols that render as blank space, though not of a space or mark category:
# the Hangul fillers and the blank Braille pattern (UTS #39 and the Unicode FAQ on
# invisible characters list them as used for spoofing).
_BLANK = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def has_visible_character(name: str) -> bool:
    """Whether ``name`` shows anything: at least one character that is not a space,
    a control or format character, a mark (combining, enclosing or spacing: with nothing to
    sit on they show nothing of their own), a default-ignorable character or one of the
    letters that render blank (:data:`_BLANK`)."""
    if not skeleton_key(name).strip():  # only what the key strips: invisibles, fillers
        return False
    return any(
        not ch.isspace() and ch not in _BLANK and unicodedata.category(ch)[0] not in ("M", "C", "Z")
        for ch in name
    )


#: Extended Arabic-Indic digits (Persian, Urdu: U+06F0..U+06F9) read as the Arabic-Indic
#: ones (U+0660..U+0669): ۲ and ٢ are drawn alike, so ``ليلى۲`` may not pass for ``ليلى٢``.
_EXTENDED_DIGITS = str.maketrans("۰۱۲۳۴۵۶۷۸۹", "٠١٢٣٤٥٦٧٨٩")


#: Arabic marks that leave the letters as they are drawn, dropped before the skeleton: the
#: tatweel (U+0640, it stretches the joint: «نـور» is «نور»), the harakat (fathatan to sukun,
#: U+064B..U+0652), the small marks above and below (U+0610..U+061A, U+0656..U+065F), the
#: dagger alif (U+0670) and the combining Quranic marks (U+06D6..U+06ED, those of category
#: Mn). The hamza and the madda (U+0653..U+0655) stay: «أ» and «ا» are two letters.
_ARABIC_MARKS = dict.fromkeys(
    [
        0x0640,
        *range(0x0610, 0x061B),
        *range(0x064B, 0x0653),
        *range(0x0656, 0x0660),
        0x0670,
        *(c for c in range(0x06D6, 0x06EE) if unicodedata.category(chr(c)) == "Mn"),
    ]
)


def name_key(name: str) -> str:
    """The confusable key of a display name or username (see the module docstring), read
    without the Arabic marks of :data:`_ARABIC_MARKS`."""
    plain = name.translate(_EXTENDED_DIGITS).translate(_ARABIC_MARKS)
    return skeleton_key(plain, digit_policy="tr39").replace("i", "l")


#: The words a bot's seat is shown by: ``Bot N`` (the lobby, ``web/static/web/lobby.js``,
#: and the table page, ``web/static/web/table/state.js``), its Arabic ``روبوت N`` and
#: ``بوت`` (the Arabic catalogue), ``bot`` in a tournament's bracket (``tournaments.selectors``),
#: with their plurals.
BOT_WORDS = ("bot", "bots", "روبوت", "روبوتات", "بوت", "بوتات")
#: What may follow the word in a bot-like name's key: separators, ``#``/``№`` and digits
#: (ASCII, Arabic-Indic, Extended Arabic-Indic; the key reads ``0`` as ``o``, ``1`` as ``l``).
_BOT_NUMBER = r"[\s\-_#.:]*(?:no)?[\s\-_#.:]*[0-9ol\u0660-\u0669\u06f0-\u06f9]*"


@functools.cache
def _bot_name() -> re.Pattern:
    words = sorted({name_key(word) for word in BOT_WORDS}, key=len, reverse=True)
    kinds = sorted({name_key(kind) for kind in BOTS})  # the API names a bot's seat by kind
    alternatives = [f"(?:{'|'.join(map(re.escape, words))}){_BOT_NUMBER}", *map(re.escape, kinds)]
    return re.compile("|".join(alternatives))


#: The words a closed account is shown by: ``Closed account N``
#: (``accounts.selectors.CLOSED_MARK``) and its Arabic ``حساب مغلق N`` (the Arabic catalogue).
CLOSED_WORDS = ("closed account", "حساب مغلق")


@functools.cache
def _closed_name() -> re.Pattern:
    words = sorted({" ".join(name_key(word).split()) for word in CLOSED_WORDS}, key=len)
    return re.compile(f"(?:{'|'.join(map(re.escape, words))}){_BOT_NUMBER}")


def looks_like_a_closed_account(name: str) -> bool:
    """Whether ``name`` reads as a closed account's: its confusable key (:func:`name_key`) is
    one of :data:`CLOSED_WORDS` with or without a number (``Closed account 12``,
    ``CL0SED ACCOUNT #3``, ``حساب مغلق ١٢``). Names that only contain one of the words
    (``Closed Doors``) do not."""
    return _closed_name().fullmatch(" ".join(name_key(name).split())) is not None


def looks_like_a_bot(name: str) -> bool:
    """Whether ``name`` reads as a bot's seat: its confusable key (:func:`name_key`) is one
    of :data:`BOT_WORDS` with or without a number (``Bot 2``, ``B0t2``, Cyrillic ``Вот 2``,
    ``روبوت ٣``), or a bot's kind (``rules``, ``random``: the API's name of a bot's seat).
    Names that only contain such a word (``Bottle``, ``Abbot``) do not."""
    return _bot_name().fullmatch(" ".join(name_key(name).split())) is not None
