"""Template filters of the tournament pages: a stored status code in the reader's language."""

from __future__ import annotations

from django import template
from django.utils.translation import pgettext_lazy

from tournaments.models import EntryStatus

register = template.Library()


@register.filter
def entry_status_name(code: str | None) -> str:
    """``"registered"`` -> the entry status's label, translated (``EntryStatus``); an unknown
    code as it is, None as ""."""
    if not code:
        return ""
    try:
        return str(EntryStatus(code).label)
    except ValueError:
        return code


#: The admin actions the services record (``tournaments.services.common._record``), as the
#: pages name them.
ADMIN_ACTIONS = {
    "create": pgettext_lazy("admin action", "created"),
    "open_registration": pgettext_lazy("admin action", "registration opened"),
    "close_registration": pgettext_lazy("admin action", "registration closed"),
    "start": pgettext_lazy("admin action", "started"),
    "pause": pgettext_lazy("admin action", "paused"),
    "resume": pgettext_lazy("admin action", "resumed"),
    "cancel": pgettext_lazy("admin action", "cancelled"),
    "disqualify": pgettext_lazy("admin action", "disqualified"),
}


@register.filter
def admin_action_name(code: str) -> str:
    """``"create"`` -> "created" in the reader's language; an unknown action as it is."""
    return str(ADMIN_ACTIONS.get(code, code))
