"""The site's Redis cache (``TRIX_CACHE_URL``; ``trix_site.settings.redis_cache``): django-redis
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
