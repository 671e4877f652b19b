"""The API's JSON parser: DRF's, with a body nested too deeply for Python's JSON decoder
answered as a malformed body (400 ``malformed``) instead of a ``RecursionError`` (500)."""

from __future__ import annotations

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser


class SafeJSONParser(JSONParser):
    """:class:`rest_framework.parsers.JSONParser` that raises :class:`ParseError` when the
    body's arrays or objects nest deeper than the decoder can follow (``RecursionError``)."""

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError("JSON parse error - the body is nested too deeply") from None
