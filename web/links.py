"""Messages written for the API as plain text, shown on the pages with the site's paths they
name made into links that say where they go ("your wallet", not "/wallet/").

The API keeps the plain text; a page passes the message through :func:`link_paths` (Django
templates and ``django.contrib.messages``) or ``Trix.messageNodes`` (``web/static/web/api.js``,
the same paths) before showing it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from django.urls import reverse
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, gettext_lazy

#: URL names of the pages a message may point to by path, and what the link says in place
#: of the path (the messages are written so that it reads: "Add money in /wallet/." -> "Add
#: money in your wallet.").
LINKED_PAGES = {
    "wallet:page": gettext_lazy("your wallet"),
    "accounts:verification": gettext_lazy("the identity verification page"),
    "account_login": gettext_lazy("the login page"),
}


def linked_paths() -> list[str]:
    """The paths :func:`link_paths` makes into links, e.g. ``["/wallet/"]``."""
    return [reverse(name) for name in LINKED_PAGES]


def linked_pages() -> list[list[str]]:
    """``[[path, link text], ...]`` in the active language: ``[["/wallet/", "your wallet"],
    ...]`` (the scripts' ``Trix.messageNodes`` reads it)."""
    return [[reverse(name), str(label)] for name, label in LINKED_PAGES.items()]


def table_path_pattern() -> str:
    """A regular expression matching a table page's path (``/tables/12/``), its id the group."""
    sample = reverse("web:table", args=[987654321])
    return re.escape(sample).replace("987654321", r"(\d+)")


def link_paths(text: str, titles: Mapping[str, str] | None = None) -> SafeString:
    """``"… Add money in /wallet/."`` -> ``"… Add money in <a href="/wallet/">your wallet</a>."``:
    the text escaped, each path of :func:`linked_paths` it contains (as a whole word) a link
    saying :data:`LINKED_PAGES`'s words for it, each table page's path (``/tables/12/``)
    a link naming the table ("Table 12"), and each path of ``titles`` (path -> the link's
    words: ``{"/tournaments/7/": "Friday Cup"}``, from the caller, which reads them) a link
    saying them (the pages only: the scripts' ``Trix.messageNodes`` links
    :func:`linked_pages`' paths alone)."""
    pages = {**dict(linked_pages()), **(titles or {})}
    table = re.compile(table_path_pattern())
    alternatives = [re.escape(p) for p in pages] + [table.pattern.replace(r"(\d+)", r"\d+")]
    pattern = re.compile(r"(?<![\w/])(" + "|".join(alternatives) + r")(?![\w/])")
    parts = pattern.split(str(text))

    def link(path: str) -> str:
        if path in pages:
            return format_html('<a href="{}">{}</a>', path, pages[path])
        name = gettext("Table %(table_id)s") % {"table_id": table.fullmatch(path).group(1)}
        return format_html('<a href="{}">{}</a>', path, name)

    html = "".join(link(part) if i % 2 else escape(part) for i, part in enumerate(parts))
    return mark_safe(html)  # noqa: S308 - every part escaped above
