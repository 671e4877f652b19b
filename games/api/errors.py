"""JSON errors for the whole API: ``{"error": "<clear message>", "code": "<short_code>"}``.

401 when not logged in (whatever the authentication class), 403 not allowed, 404, 409, 400,
429 ``throttled`` (our message with the wait, ``games.api.throttles.throttled_message``).
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler

from games.api.throttles import throttled_message
from trix_site.errors import ServiceError


def _flatten(detail, prefix: str = "") -> list[str]:
    if isinstance(detail, dict):
        out = []
        for key, value in detail.items():
            name = "" if key == "non_field_errors" else f"{prefix}{key}"
            out += _flatten(value, f"{name}." if name else "")
            if name and out and not out[-1].startswith(name):
                out[-1] = f"{name}: {out[-1]}"
        return out
    if isinstance(detail, list):
        return [m for item in detail for m in _flatten(item, prefix)]
    return [str(detail)]


def api_exception_handler(exc, context):
    """DRF's exception handler with the project's error shape."""
    if isinstance(exc, ServiceError):  # games' and tournaments' services
        return Response({"error": exc.message, "code": exc.code}, status=exc.status)
    if isinstance(exc, exceptions.NotAuthenticated | exceptions.AuthenticationFailed):
        return Response(
            {"error": _("log in first (/accounts/login/)"), "code": "not_authenticated"},
            status=status.HTTP_401_UNAUTHORIZED,
        )
    response = exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        message = "; ".join(_flatten(exc.detail)) or _("invalid input")
        response.data = {"error": message, "code": "invalid", "fields": exc.detail}
    elif isinstance(exc, exceptions.Throttled):  # DRF has set Retry-After
        message = throttled_message(context.get("view"), exc.wait)
        response.data = {"error": message, "code": "throttled"}
    elif isinstance(exc, exceptions.ParseError):
        response.data = {
            "error": _("malformed JSON body: %(detail)s") % {"detail": exc.detail},
            "code": "malformed",
        }
    else:
        detail = getattr(exc, "detail", str(exc))
        code = getattr(exc, "default_code", "error")
        response.data = {"error": str(detail), "code": str(code)}
    return response
