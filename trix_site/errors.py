"""The API's one vocabulary of errors: every error answers ``{"error": message, "code": code}``
with the HTTP status :data:`STATUS` gives its code (``games.api.errors.api_exception_handler``
for the API views, :func:`error_response` for the middleware and the live streams).

One code per meaning, Django REST framework's own where it has one:

    code                    status  meaning
    invalid                 400     the input breaks a rule: a value out of range, a wrong field
    malformed               400     the body is not JSON the parser reads
    not_authenticated       401     not logged in
    permission_denied       403     logged in, but not the one who may (not your seat, not staff)
    not_found               404     no such table, tournament, player or URL
    method_not_allowed      405     the path takes another HTTP method
    conflict                409     the state refuses it now (taken, full, already done)
    too_large               413     the body is larger than ``DATA_UPLOAD_MAX_MEMORY_SIZE``
    unsupported_media_type  415     the body is not sent as JSON (``Content-Type``)
    throttled               429     too many requests; ``Retry-After`` says when to come back
    unavailable             503     a broker or Redis error reached the request

A service raises one of the six kinds below (each app subclasses them: ``games.errors``,
``tournaments.errors``, ``responsible.errors``), and may name a finer code of its kind that a
client can act on (``stale_version``, ``seat_taken``, ``illegal_action``: docs/api.md lists
them); the status stays the kind's. Raising one means the service wrote nothing; its message
is the player's, translated.
"""

from __future__ import annotations

from django.http import JsonResponse

#: Each generic code of the API and its HTTP status.
STATUS: dict[str, int] = {
    "invalid": 400,
    "malformed": 400,
    "not_authenticated": 401,
    "permission_denied": 403,
    "not_found": 404,
    "method_not_allowed": 405,
    "conflict": 409,
    "too_large": 413,
    "unsupported_media_type": 415,
    "throttled": 429,
    "unavailable": 503,
}


class ServiceError(Exception):
    """Base: ``code`` (a :data:`STATUS` key, or a finer code given to the constructor),
    ``status`` (HTTP, from :data:`STATUS` by the class's code), ``message`` (translated)."""

    code = "invalid"
    status = STATUS[code]

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "code" in cls.__dict__:  # a kind: its status is the table's
            cls.status = STATUS[cls.code]

    def __init__(self, message: str, code: str | None = None):
        super().__init__(message)
        self.message = message
        if code:
            self.code = code


class BadRequest(ServiceError):
    """The input breaks a rule (400 ``invalid``)."""

    code = "invalid"


class NotAuthenticated(ServiceError):
    """Nobody logged in (401 ``not_authenticated``), as the API answers an anonymous caller
    before any service (``games.api.errors``)."""

    code = "not_authenticated"


class NotAllowed(ServiceError):
    """Not the one who may do this (403 ``permission_denied``)."""

    code = "permission_denied"


class NotFound(ServiceError):
    """No such thing (404 ``not_found``)."""

    code = "not_found"


class Conflict(ServiceError):
    """The state refuses it now (409 ``conflict``)."""

    code = "conflict"


class Unavailable(ServiceError):
    """The site cannot do it now, through no fault of the caller's (503 ``unavailable``):
    e.g. it may not sign (``games.signing.current``)."""

    code = "unavailable"


def error_response(message: str, code: str, status: int | None = None) -> JsonResponse:
    """``{"error": message, "code": code}`` with ``status`` (default: :data:`STATUS`'s for
    ``code``), UTF-8 as DRF renders the API's other answers (no ``\\u`` escapes)."""
    body = {"error": str(message), "code": code}
    return JsonResponse(
        body, status=status or STATUS[code], json_dumps_params={"ensure_ascii": False}
    )
