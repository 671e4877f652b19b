"""Errors of the responsible-play services (``{"error": message, "code": code}`` in the API);
a service that raises one has written nothing."""

from __future__ import annotations

from trix_site.errors import ServiceError


class ResponsibleError(ServiceError):
    """Base of this app's errors."""


class BadRequest(ResponsibleError):
    """An unknown period, an amount not positive, a time-out too long (400)."""

    status = 400
    code = "invalid"


class NotAllowed(ResponsibleError):
    """Not the player, or staff raising a limit (403)."""

    status = 403
    code = "permission_denied"
