"""Errors of the responsible-play services, on the site's kinds (``trix_site.errors``: the
code and HTTP status table); a service that raises one has written nothing."""

from __future__ import annotations

from trix_site import errors


class ResponsibleError(errors.ServiceError):
    """Base of this app's errors."""


class BadRequest(ResponsibleError, errors.BadRequest):
    """An unknown period, an amount not positive, a time-out too long (400 ``invalid``)."""


class NotAllowed(ResponsibleError, errors.NotAllowed):
    """Not the player, or staff raising a limit (403 ``permission_denied``)."""
