"""JSON errors for the whole API: ``{"error": "<clear message>", "code": "<short_code>"}``.

The codes and their statuses are ``trix_site.errors.STATUS``: 401 ``not_authenticated``
(whatever the authentication class), 400 ``invalid`` (with ``"fields"``) and ``malformed``,
415 ``unsupported_media_type`` (a body not sent as JSON),
429 ``throttled`` (our message with the wait, ``games.api.throttles.throttled_message``), a
service's error with its own code and status.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler

from games.api.throttles import throttled_message
from trix_site.errors import STATUS, ServiceError


def _flatten(detail, prefix: str = "", labels: dict | None = None) -> list[str]:
    """Each message of a validation error's ``detail``, after the field it is about: the
    field's label where ``labels`` (a serializer's, translated) has one, else its name."""
    if isinstance(detail, dict):
        out = []
        for key, value in detail.items():
            label = (labels or {}).get(key, key)
            name = "" if key == "non_field_errors" else f"{prefix}{label}"
            out += _flatten(value, f"{name}." if name else "")
            if name and out and not out[-1].startswith(name):
                out[-1] = f"{name}: {out[-1]}"
        return out
    if isinstance(detail, list):
        return [m for item in detail for m in _flatten(item, prefix)]
    return [str(detail)]


#: DRF's exceptions by the site's code (``trix_site.errors.STATUS``); the others keep DRF's
#: ``default_code`` (``permission_denied``, ``not_found``, ``method_not_allowed``...).
_CODES = (
    (exceptions.NotAuthenticated | exceptions.AuthenticationFailed, "not_authenticated"),
    (exceptions.ValidationError, "invalid"),
    (exceptions.ParseError, "malformed"),
    (exceptions.Throttled, "throttled"),
)


def _code(exc) -> str:
    for kinds, code in _CODES:
        if isinstance(exc, kinds):
            return code
    return str(getattr(exc, "default_code", "error"))


def api_exception_handler(exc, context):
    """DRF's exception handler with the project's error shape, each code answered with
    ``trix_site.errors.STATUS``'s status."""
    if isinstance(exc, ServiceError):  # every app's services
        response = Response({"error": exc.message, "code": exc.code}, status=exc.status)
        if getattr(exc, "retry_after", None):
            response["Retry-After"] = str(exc.retry_after)
        return response
    code = _code(exc)
    if code == "not_authenticated":  # whatever the authentication class
        # The path is the one web.links makes a link of on the pages ("the login page").
        body = {"error": _("You are not logged in: log in on /accounts/login/."), "code": code}
        return Response(body, status=STATUS[code])
    response = exception_handler(exc, context)
    if response is None:
        return None
    if code == "invalid":
        # A body serializer's labels (games.api.serializers.BodySerializer): the sentence a
        # page shows names "Stake", not "stake"; ``fields`` keeps the names for programs.
        labels = getattr(exc, "labels", None)
        message = "; ".join(_flatten(exc.detail, labels=labels)) or _("invalid input")
        response.data = {"error": message, "code": code, "fields": exc.detail}
    elif code == "throttled":  # DRF has set Retry-After
        response.data = {"error": throttled_message(context.get("view"), exc.wait), "code": code}
    elif code == "unsupported_media_type":
        message = _("Send the body as JSON (Content-Type: application/json), not %(type)s.")
        sent = getattr(context.get("request"), "content_type", "") or "?"
        response.data = {"error": message % {"type": sent}, "code": code}
    elif code == "malformed":
        message = _("malformed JSON body: %(detail)s") % {"detail": exc.detail}
        response.data = {"error": message, "code": code}
    else:
        response.data = {"error": str(getattr(exc, "detail", exc)), "code": code}
    response.status_code = STATUS.get(code, response.status_code)
    return response
