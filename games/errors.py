"""Errors of the tables services, on the site's kinds (``trix_site.errors``: the code and
HTTP status table). Each kind may carry a finer code a client can act on (``not_your_seat``,
``stale_version``, ``illegal_action``: a play the rules refuse; docs/api.md lists them);
raising one changes nothing."""

from __future__ import annotations

from trix_site import errors


class TableError(errors.ServiceError):
    """Base of this app's errors (``trix_site.errors.ServiceError``: ``status``, ``code``,
    ``message``)."""


class BadRequest(TableError, errors.BadRequest):
    """Malformed input or an action the rules refuse (400 ``invalid``)."""


class NotAllowed(TableError, errors.NotAllowed):
    """Not your seat, not the table's creator (403 ``permission_denied``)."""


class NotFound(TableError, errors.NotFound):
    """Unknown table, deal or action (404 ``not_found``)."""


class Conflict(TableError, errors.Conflict):
    """Stale version, seat taken, action id reused (409 ``conflict``)."""


class Unavailable(TableError, errors.Unavailable):
    """The site may not sign now: its log names a key this process lacks (503
    ``unavailable``, code ``signing_unavailable``, with ``Retry-After``)."""

    retry_after = 60
    """Seconds a client waits before asking again (the operator must give the key)."""
