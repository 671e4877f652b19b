"""What happens before an API view runs.

JSON errors (:class:`ApiErrorsMiddleware`): under ``/api/``, an URL that
resolves to nothing (a missing trailing slash included, named in the message when the
path with it exists) answers 404 ``{"error", "code": "not_found"}`` and a body larger than
``DATA_UPLOAD_MAX_MEMORY_SIZE`` answers 413 ``{"error", "code": "too_large"}`` (Django's
HTML pages otherwise: 404, and 400 for ``RequestDataTooBig``). Other paths are untouched.

The read limits (:class:`ReadLimitMiddleware`): reads of ``/api/`` per session and per
address."""

from __future__ import annotations

import logging

from django.conf import settings
from django.http import JsonResponse
from django.urls import Resolver404, resolve
from django.utils.translation import gettext as _

from games.api import throttles
from trix_site.errors import error_response

API_PREFIX = "/api/"
log = logging.getLogger(__name__)


class ApiErrorsMiddleware:
    """Put it before any middleware that reads the body (CSRF reads form posts)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not request.path.startswith(API_PREFIX):
            return self.get_response(request)
        too_large = _too_large(request)
        if too_large:
            return too_large
        if not request.path_info.endswith("/"):
            try:
                resolve(request.path_info)
            except Resolver404:
                # Django's APPEND_SLASH would answer a redirect (or, for a POST under DEBUG,
                # a 500): say where the resource is instead, if it is anywhere.
                return error_response(_not_found(request), "not_found")
        response = self.get_response(request)
        if response.status_code == 404 and not response.get("Content-Type", "").startswith(
            "application/json"
        ):
            return error_response(_no_resource(request.path), "not_found")
        return response


def _no_resource(path: str) -> str:
    return _("no API resource at %(path)s") % {"path": path}


def _not_found(request) -> str:
    """The 404 message for a path without its trailing slash: it names the path with the
    slash only when that path exists (``/api/tables`` -> ``/api/tables/``, but
    ``/api/deals/abc/record.json`` names none)."""
    try:
        resolve(request.path_info + "/")
    except Resolver404:
        return _no_resource(request.path)
    return _("no API resource at %(path)s; API paths end with a slash: %(path)s/") % {
        "path": request.path
    }


def _too_large(request) -> JsonResponse | None:
    """Django's own check of ``request.body`` (``Content-Length`` above the setting), made
    before anything reads the body; the API takes no file uploads, so it applies to all."""
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0
    if limit is None or length <= limit:
        return None
    message = _("the request body is larger than %(limit)s bytes") % {"limit": limit}
    return error_response(message, "too_large")


READS = frozenset({"GET", "HEAD"})


class ReadLimitMiddleware:
    """Reads under ``/api/`` (``GET``, ``HEAD``: the long polls, the streams' connections,
    every other read) at most ``TRIX_READ_ADDRESS_RATE`` per address and ``TRIX_READ_RATE``
    per session (:class:`~games.api.throttles.AddressReadThrottle`,
    :class:`~games.api.throttles.ReadThrottle`: one atomic increment a read in Django's
    cache, shared by the web processes with ``TRIX_CACHE_URL``). Above either: 429
    ``{"error", "code": "throttled"}`` with ``Retry-After`` (whole seconds), before any view
    or database work; a client obeying it costs the site one such answer per wait. Put it
    after ``SessionMiddleware`` (it reads the session cookie, not the session)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method in READS and request.path.startswith(API_PREFIX):
            # Counted in both; a cache that fails lets the read through (logged).
            refused = throttles.refusal(
                request, throttles.AddressReadThrottle(), throttles.ReadThrottle()
            )
            if refused is not None:
                return refused
        return self.get_response(request)
