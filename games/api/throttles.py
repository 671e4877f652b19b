"""The API's rate limits: DRF throttles, per user (per address when logged out, read as
``TRIX_TRUSTED_PROXIES`` says), each at the rate of one ``TRIX_*_RATE`` setting, read when a
request is throttled (so the settings are the one definition, and tests may change them).
Above the rate: 429 ``throttled`` with a ``Retry-After`` header (seconds), nothing done. The
counts live in Django's cache (per process unless ``TRIX_CACHE_URL`` names a shared one)."""

from __future__ import annotations

from django.conf import settings
from rest_framework.throttling import UserRateThrottle


class SettingRateThrottle(UserRateThrottle):
    """A :class:`~rest_framework.throttling.UserRateThrottle` whose rate is the setting named
    by ``rate_setting``; ``scope`` keeps each limit's counts apart."""

    rate_setting = ""

    def get_rate(self) -> str:
        return getattr(settings, self.rate_setting)


class ActionThrottle(SettingRateThrottle):
    """A seat's actions (``POST /api/tables/{id}/actions/``)."""

    scope = "actions"
    rate_setting = "TRIX_ACTION_RATE"


class TableCreateThrottle(SettingRateThrottle):
    """Creating a table (``POST /api/tables/``, the lobby's form)."""

    scope = "tables"
    rate_setting = "TRIX_TABLE_CREATE_RATE"


class SeatThrottle(SettingRateThrottle):
    """Taking and leaving seats, counted together (``…/seats/`` and ``…/leave/``)."""

    scope = "seats"
    rate_setting = "TRIX_SEAT_RATE"
