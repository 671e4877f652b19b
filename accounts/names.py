"""The rules for a display name that are about what it looks like (issue 13): it must show
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
"""

from __future__ import annotations

import unicodedata

from disarm import skeleton_key

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


def name_key(name: str) -> str:
    """The confusable key of a display name or username (see the module docstring)."""
    return skeleton_key(name, digit_policy="tr39").replace("i", "l")
