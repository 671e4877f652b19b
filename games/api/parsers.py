"""The API's JSON parser: DRF's, with two kinds of body it would let through to a 500
refused as malformed (400 ``malformed``): one nested too deeply for Python's JSON decoder
(a ``RecursionError``), and one holding a lone surrogate escape such as ``"\\ud800"``
(valid JSON syntax, but no character: Python decodes it to a string that PostgreSQL, the
templates and the JSON answer cannot encode)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser


def lone_surrogate(data: Any) -> str | None:
    """The first string (value or object key) of parsed JSON ``data`` that holds a lone
    surrogate (U+D800..U+DFFF not paired into one character), described for an error
    message, or ``None`` when every string is text. Walks without recursion (the decoder
    follows about a thousand levels)."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            strings = (item,)
        elif isinstance(item, dict):
            strings = tuple(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
            continue
        else:
            continue
        for text in strings:
            try:
                text.encode("utf-8")
            except UnicodeEncodeError as exc:
                return _("%(code)s at character %(position)s of %(text)s") % {
                    "code": f"U+{ord(text[exc.start]):04X}",
                    "position": exc.start + 1,
                    "text": ascii(text[:20]),
                }
    return None


class SafeJSONParser(JSONParser):
    """:class:`rest_framework.parsers.JSONParser` that raises :class:`ParseError` when the
    body's arrays or objects nest deeper than the decoder can follow (``RecursionError``) or
    a string holds a lone surrogate (:func:`lone_surrogate`)."""

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(_("JSON parse error - the body is nested too deeply")) from None
        where = lone_surrogate(data)
        if where is not None:
            raise ParseError(
                _(
                    "JSON parse error - a string holds a lone surrogate escape, which is not a "
                    "character (%(where)s); send text as UTF-8 or escape a character outside "
                    "the Basic Multilingual Plane as a surrogate pair"
                )
                % {"where": where}
            )
        return data
