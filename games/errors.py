"""Errors of the tables services: each carries the HTTP status and a short code the API
answers with (``{"error": message, "code": code}``); raising one changes nothing."""

from __future__ import annotations


class TableError(Exception):
    """Base: ``status`` (HTTP), ``code`` (short machine name), the message."""

    status = 400
    code = "bad_request"

    def __init__(self, message: str, code: str | None = None):
        super().__init__(message)
        self.message = message
        if code:
            self.code = code


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
