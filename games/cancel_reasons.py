"""Why a table was cancelled, in the reader's language.

A cancelled table's log ends with ``table_cancelled`` whose ``reason`` is stored as written
when it happened: the site's own reasons in English (made by ``games.services``: the open
tables' expiry, a refused creator's seat, a declined rematch) or a staff member's own words.
:func:`reason_text` gives the site's reasons in the active language and a person's words as
they are."""

from __future__ import annotations

import re

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

#: The site's fixed reasons (games.services.lobby, games.services.rematch).
_FIXED = {
    "the creator's seat was refused": lambda: _("the creator's seat was refused"),
    "everyone declined the rematch": lambda: _("everyone declined the rematch"),
}
#: The expiry's reasons (games.services.cancellation.expire_open_tables) with their
#: duration; "sat at the table for" is the empty table's reason as recorded before it read
#: "was seated" (it was false of a table a person had left), shown in the new words.
_EXPIRED = re.compile(
    r"nobody (?P<what>filled the table within|(?:was seated|sat) at the table for) "
    r"(?P<count>[0-9.]+) (?P<unit>minutes?|seconds?)"
)


def _duration(count: str, unit: str) -> str:
    if count.isdigit():
        number = int(count)
        if unit.startswith("minute"):
            return ngettext("%(count)d minute", "%(count)d minutes", number) % {"count": number}
        return ngettext("%(count)d second", "%(count)d seconds", number) % {"count": number}
    return _("%(count)s seconds") % {"count": count}


def reason_text(reason: str) -> str:
    """``reason`` as recorded -> the text to show: the site's own reasons translated
    (``"nobody filled the table within 30 minutes"`` -> Arabic on an Arabic page), any other
    text (a staff member's words) unchanged."""
    if reason in _FIXED:
        return _FIXED[reason]()
    expired = _EXPIRED.fullmatch(reason)
    if expired is None:
        return reason
    time = _duration(expired["count"], expired["unit"])
    if expired["what"].startswith("filled"):
        return _("nobody filled the table within %(time)s") % {"time": time}
    return _("nobody was seated at the table for %(time)s") % {"time": time}
