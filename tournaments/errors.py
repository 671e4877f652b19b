"""Errors of the tournaments services: each carries the HTTP status and a short code the API
answers with (``{"error": message, "code": code}``); a service that raises one has written
nothing (its transaction is rolled back, or the input was refused before it began).

    TournamentError (400)
    ├── BadRequest        malformed input, a parameter out of range (400, ``invalid``)
    ├── NotAllowed        not staff, not your team, suspended account (403)
    ├── NotFound          unknown tournament, team or user (404, ``not_found``)
    └── Conflict          the tournament's state refuses it: registered twice, full, outside
                          the window, not enough funds, already started (409)
"""

from __future__ import annotations

from trix_site.errors import ServiceError


class TournamentError(ServiceError):
    """Base of this app's errors (``trix_site.errors.ServiceError``: ``status``, ``code``,
    ``message``)."""


class BadRequest(TournamentError):
    """Malformed input or a parameter out of range (400)."""

    status = 400
    code = "invalid"


class NotAllowed(TournamentError):
    """Not staff, not the invited player, a suspended account (403)."""

    status = 403
    code = "permission_denied"


class NotFound(TournamentError):
    """Unknown tournament, team, entry or player (404)."""

    status = 404
    code = "not_found"


class Conflict(TournamentError):
    """The tournament's state refuses the request (409): registered twice, full, outside the
    registration window, not enough funds, wrong status for the action."""

    status = 409
    code = "conflict"
