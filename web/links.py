"""Messages written for the API as plain text, shown on the pages with the site's paths they
name made into links (issue 14: "Add money on your wallet page: /wallet/" was not a link).

The API keeps the plain text; a page passes the message through :func:`link_paths` (Django
templates and ``django.contrib.messages``) or ``Trix.messageNodes`` (``web/static/web/api.js``,
the same paths) before showing it.
"""

from __future__ import annotations

import re

from django.urls import reverse
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe

#: URL names of the pages a message may point to by path.
LINKED_PAGES = ("wallet:page", "accounts:verification")


def linked_paths() -> list[str]:
    """The paths :func:`link_paths` makes into links, e.g. ``["/wallet/"]``."""
    return [reverse(name) for name in LINKED_PAGES]


def link_paths(text: str) -> SafeString:
    """``"… wallet page: /wallet/"`` -> ``"… wallet page: <a href="/wallet/">/wallet/</a>"``:
    the text escaped, each path of :func:`linked_paths` it contains (as a whole word) a link."""
    paths = linked_paths()
    pattern = re.compile(r"(?<![\w/])(" + "|".join(re.escape(p) for p in paths) + r")(?![\w/])")
    parts = pattern.split(str(text))
    html = "".join(
        format_html('<a href="{0}">{0}</a>', part) if i % 2 else escape(part)
        for i, part in enumerate(parts)
    )
    return mark_safe(html)  # noqa: S308 - every part escaped above
