"""The site's Redis cache (``TRIX_CACHE_URL``; :func:`redis_cache`): django-redis
with ``IGNORE_EXCEPTIONS``, so while Redis does not answer a read is a miss and a write is
dropped (each logged), and the request goes on.

One change: :meth:`RedisCache.add` answers True when Redis did not answer. allauth's rate
limits take a lock with ``cache.add`` and refuse the request (429, after waiting a second)
when they cannot: with django-redis's ``None`` every login and sign-up would be refused during
an outage. Granted, the limits are simply not counted until Redis is back: a cache outage
degrades the rate limits, never the login."""

from __future__ import annotations

from django_redis.cache import RedisCache as _RedisCache


class RedisCache(_RedisCache):
    def add(self, *args, **kwargs) -> bool:
        added = super().add(*args, **kwargs)
        return True if added is None else added  # None: Redis did not answer (ignored)


def redis_cache(url: str, *, timeout: float) -> dict:
    """The ``CACHES`` entry of ``TRIX_CACHE_URL`` (``redis://host:6379/1``): :class:`RedisCache`
    with its errors ignored (and logged), so a cache outage degrades what the cache holds
    (rate-limit counts: DRF's throttles, allauth's login and sign-up limits) instead of failing
    or refusing the request; a dead cache answers within ``timeout`` seconds
    (``TRIX_CACHE_TIMEOUT``)."""
    return {
        "BACKEND": "trix_site.cache.RedisCache",
        "LOCATION": url,
        "OPTIONS": {
            "IGNORE_EXCEPTIONS": True,
            "SOCKET_CONNECT_TIMEOUT": timeout,
            "SOCKET_TIMEOUT": timeout,
        },
    }
