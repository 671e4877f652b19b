"""The API's rate limits: DRF throttles, per user (per address when logged out, read as
``TRIX_TRUSTED_PROXIES`` says), each at the rate of one ``TRIX_*_RATE`` setting, read when a
request is throttled (so the settings are the one definition, and tests may change them).
Above the rate: 429 ``throttled`` with a ``Retry-After`` header (seconds) and the throttle's
own message with the same wait (:func:`throttled_message`), nothing done. The counts live
in Django's cache (per process unless ``TRIX_CACHE_URL`` names a shared one)."""

from __future__ import annotations

import logging
import math

from django.conf import settings
from django.http import JsonResponse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from rest_framework.throttling import BaseThrottle, UserRateThrottle

from trix_site.errors import error_response

log = logging.getLogger(__name__)


def client_address(request) -> str:
    """The client's IP address as the throttles read it: the connection's (``REMOTE_ADDR``),
    or behind ``TRIX_TRUSTED_PROXIES`` reverse proxies the one they appended to
    ``X-Forwarded-For`` (DRF's ``NUM_PROXIES``); a client's own header is never trusted."""
    return BaseThrottle().get_ident(request)


class SettingRateThrottle(UserRateThrottle):
    """A :class:`~rest_framework.throttling.UserRateThrottle` whose rate is the setting named
    by ``rate_setting``; ``scope`` keeps each limit's counts apart."""

    rate_setting = ""
    #: The 429's message, ``%(seconds)s`` the wait (as ``Retry-After``).
    message = _("Too many requests: try again in %(seconds)s s.")

    def get_rate(self) -> str:
        return getattr(settings, self.rate_setting)


class ActionThrottle(SettingRateThrottle):
    """A seat's actions (``POST /api/tables/{id}/actions/``)."""

    scope = "actions"
    rate_setting = "TRIX_ACTION_RATE"
    message = _("Too many actions: try again in %(seconds)s s.")


class TableCreateThrottle(SettingRateThrottle):
    """Creating a table (``POST /api/tables/``, the lobby's form)."""

    scope = "tables"
    rate_setting = "TRIX_TABLE_CREATE_RATE"
    message = _("Too many tables created: try again in %(seconds)s s.")


class SeatThrottle(SettingRateThrottle):
    """Taking and leaving seats, counted together (``…/seats/`` and ``…/leave/``)."""

    scope = "seats"
    rate_setting = "TRIX_SEAT_RATE"
    message = _("Too many seats taken or left: try again in %(seconds)s s.")


class CountingThrottle(SettingRateThrottle):
    """A :class:`SettingRateThrottle` counted atomically: a fixed window of the rate's period
    (a second, a minute...) whose count is one ``cache.add`` and one ``cache.incr`` (Redis'
    ``INCR``), so requests at once in several processes are all counted (DRF's own history
    is read, then written back: concurrent requests overwrite each other's, and a flood of
    64 at once went through at several times its rate). A window may take up to twice the
    rate across its boundary. A count the cache does not keep lets the request through."""

    def allow_request(self, request, view) -> bool:
        if self.rate is None:
            return True
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        self.now = self.timer()
        window = int(self.now // self.duration)
        self.window_end = (window + 1) * self.duration
        key = f"{self.key}:{window}"
        self.cache.add(key, 0, timeout=self.duration + 1)
        try:
            count = self.cache.incr(key)
        except ValueError:  # expired between the two calls, or not kept
            return True
        return count is None or count <= self.num_requests

    def wait(self) -> float:
        return max(0.0, self.window_end - self.now)


class ReadThrottle(CountingThrottle):
    """Reads of the API (``GET``, ``HEAD``) by one session, at ``TRIX_READ_RATE``: the session
    cookie's key, or the address (:func:`client_address`) without one. Read from the cookie,
    so counting a request costs no database query (a made-up key only moves the client to
    a count of its own: :class:`AddressReadThrottle` holds its address)."""

    scope = "reads"
    rate_setting = "TRIX_READ_RATE"

    def get_cache_key(self, request, view) -> str:
        session = request.COOKIES.get(settings.SESSION_COOKIE_NAME, "")[:64]
        ident = f"session:{session}" if session else f"addr:{client_address(request)}"
        return self.cache_format % {"scope": self.scope, "ident": ident}


class AddressThrottle(CountingThrottle):
    """A :class:`CountingThrottle` counted per address (:func:`client_address`), logged in
    or not."""

    def get_cache_key(self, request, view) -> str:
        return self.cache_format % {"scope": self.scope, "ident": client_address(request)}


class AddressReadThrottle(AddressThrottle):
    """Reads of the API from one address, its sessions together, at
    ``TRIX_READ_ADDRESS_RATE``."""

    scope = "reads-address"
    rate_setting = "TRIX_READ_ADDRESS_RATE"


class ArchiveThrottle(AddressThrottle):
    """Days' auditor archives built for one address (``GET /fairness/archive/DAY.zip``, a
    whole day of the log read and proven each), at ``TRIX_ARCHIVE_RATE``."""

    scope = "archives"
    rate_setting = "TRIX_ARCHIVE_RATE"
    message = _("Too many archives asked for: try again in %(seconds)s s.")


class CosignatureThrottle(AddressThrottle):
    """Witnesses' submissions from one address (``POST /fairness/cosignatures``, each parsed
    and its checkpoint rebuilt for its size, valid or not), at ``TRIX_COSIGNATURE_RATE``."""

    scope = "cosignatures"
    rate_setting = "TRIX_COSIGNATURE_RATE"
    message = _("Too many cosignatures sent: try again in %(seconds)s s.")


def refusal(request, *throttles: CountingThrottle) -> JsonResponse | None:
    """A request outside DRF's views counted by each of ``throttles`` in turn: the 429
    ``{"error", "code": "throttled"}`` of the first whose rate it is over, with
    ``Retry-After`` (whole seconds, at least 1) and that throttle's message, or None. A cache
    that fails lets the request through (logged), uncounted by the throttles after it: an
    outage neither fails a request nor refuses everyone."""
    for throttle in throttles:
        try:
            allowed = throttle.allow_request(request, None)
        except Exception as exc:
            log.warning("%s not counted: the cache failed (%s)", throttle.scope, exc)
            return None
        if not allowed:
            seconds = max(1, math.ceil(throttle.wait()))
            response = error_response(throttle.message % {"seconds": seconds}, "throttled")
            response["Retry-After"] = str(seconds)
            return response
    return None


def throttled_message(view, wait: float | None) -> str:
    """The 429's message for ``view``: its throttle's :attr:`SettingRateThrottle.message`
    (each API view has one throttle) with ``wait`` rounded up to whole seconds, as DRF writes
    ``Retry-After``; without a wait, "try again later"."""
    throttles = [t for t in (view.get_throttles() if view else []) if hasattr(t, "message")]
    if wait is None:
        return gettext("Too many requests: try again later.")
    message = throttles[0].message if throttles else SettingRateThrottle.message
    return message % {"seconds": math.ceil(wait)}
