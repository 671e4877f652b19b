"""A request that finds the broker or a Redis cache down, or no free database connection in
its process's pool, answers a clear 503, never a 500.

Sends after a commit do not get here (``games.services.dispatch``: ``on_commit(...,
robust=True)``, re-sent by the sweep) and the configured cache ignores its errors
(``trix_site.cache.redis_cache``); this catches what is left: a send or a cache call made
before any change was saved, or a cache configured without ``IGNORE_EXCEPTIONS``. Under
``/api/`` the answer is the API's error shape ``{"error", "code": "unavailable"}``, elsewhere
plain text; both with ``Retry-After``."""

from __future__ import annotations

import logging

from django.db import DatabaseError
from django.http import HttpResponse
from django.utils.decorators import sync_only_middleware
from kombu.exceptions import OperationalError
from psycopg_pool import PoolTimeout
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from games.api.middleware import API_PREFIX
from trix_site.errors import error_response

logger = logging.getLogger(__name__)

OUTAGES = (OperationalError, RedisConnectionError, RedisTimeoutError)
"""The exceptions of a broker or a Redis that does not answer."""


def _is_outage(exception: Exception) -> bool:
    """A broker or Redis that does not answer, or a web process whose database pool had no
    free connection in time (``DATABASE_POOL``: psycopg_pool's ``PoolTimeout``, which Django
    raises as its ``OperationalError``)."""
    if isinstance(exception, OUTAGES):
        return True
    return isinstance(exception, DatabaseError) and isinstance(exception.__cause__, PoolTimeout)


RETRY_AFTER = "5"  # seconds
MESSAGE = "the service is briefly unavailable (a backing service is down); try again shortly"


class ServiceUnavailableMiddleware:
    """Put it early in ``MIDDLEWARE`` (exceptions reach the earliest middleware last)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not _is_outage(exception):
            return None
        logger.error("%s %s: %r", request.method, request.path, exception)
        if request.path.startswith(API_PREFIX):
            response = error_response(MESSAGE, "unavailable")
        else:
            response = HttpResponse(MESSAGE, status=503, content_type="text/plain; charset=utf-8")
        response["Retry-After"] = RETRY_AFTER
        return response


@sync_only_middleware
def one_thread_middleware(get_response):
    """The innermost middleware, synchronous only (Django's ``sync_only_middleware``), so
    that under the ASGI server (``trix_site.asgi``) Django runs the whole chain in the
    request's one thread. It adds nothing else: the handler it is given is the middleware.

    Django keeps a middleware that can run both ways (its own ``MiddlewareMixin``, allauth's)
    in async mode while the one inside it is async; each of its hooks (``process_request``,
    ``process_response``) is then a ``sync_to_async`` call, a trip from the event loop to the
    request's thread and back, each waiting for the event loop to be free (Django's docs,
    "Asynchronous support": about a millisecond each). With this one innermost, every
    middleware outside it runs synchronously, and a request crosses 7 times instead of 19
    (``tests/test_middleware.py``): Django's own crossings (the ``request_started`` signal,
    the chain, back to the event loop for the view's lookup, CSRF's ``process_view``, the
    view, DRF's rendering, ``request_finished``). An async view (the live streams) still runs
    on the event loop. Under the WSGI server nothing changes."""
    return get_response
