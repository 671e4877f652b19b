"""Errors of the tournaments services, on the site's kinds (``trix_site.errors``: the
code and HTTP status table); a service that raises one has written nothing (its transaction
is rolled back, or the input was refused before it began).

    TournamentError
    ├── BadRequest        malformed input, a parameter out of range (400, ``invalid``)
    ├── NotAuthenticated  nobody logged in (401, ``not_authenticated``)
    ├── NotAllowed        not staff, not your team, suspended account (403,
    │                     ``permission_denied``)
    ├── NotFound          unknown tournament, team or user (404, ``not_found``)
    └── Conflict          the tournament's state refuses it: registered twice, full, outside
                          the window, not enough funds, already started (409, ``conflict``)
"""

from __future__ import annotations

from trix_site import errors


class TournamentError(errors.ServiceError):
    """Base of this app's errors (``trix_site.errors.ServiceError``: ``status``, ``code``,
    ``message``)."""


class BadRequest(TournamentError, errors.BadRequest):
    """Malformed input or a parameter out of range (400)."""


class NotAuthenticated(TournamentError, errors.NotAuthenticated):
    """Nobody logged in (401), as the API answers before the service."""


class NotAllowed(TournamentError, errors.NotAllowed):
    """Not staff, not the invited player, a suspended account (403)."""


class NotFound(TournamentError, errors.NotFound):
    """Unknown tournament, team, entry or player (404)."""


class Conflict(TournamentError, errors.Conflict):
    """The tournament's state refuses the request (409): registered twice, full, outside the
    registration window, not enough funds, wrong status for the action."""
