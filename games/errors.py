"""Errors of the tables services: each carries the HTTP status and a short code the API
answers with (``{"error": message, "code": code}``); raising one changes nothing."""

from __future__ import annotations

from trix_site.errors import ServiceError


class TableError(ServiceError):
    """Base of this app's errors (``trix_site.errors.ServiceError``: ``status``, ``code``,
    ``message``)."""


class BadRequest(TableError):
    """Malformed input or an action the rules refuse (400)."""

    status = 400
    code = "illegal_action"


class NotAllowed(TableError):
    """Not your seat, not the table's creator (403)."""

    status = 403
    code = "forbidden"


class NotFound(TableError):
    """Unknown table, deal or action (404)."""

    status = 404
    code = "not_found"


class Conflict(TableError):
    """Stale version, seat taken, action id reused (409)."""

    status = 409
    code = "conflict"
