"""ASGI entry point: ``uvicorn trix_site.asgi:application`` (production: docs/operations.md).
Django's ASGI application, which serves every page and API as the WSGI one does, and the
live streams (:mod:`games.live.streams`: Server-Sent Events, async views) without holding a
thread per watcher; plus the ASGI lifespan's shutdown, which closes this process's stream
listener and its threads' database connections."""

import os
import warnings

from django.core.asgi import get_asgi_application

# WhiteNoise's static files are file iterators, which Django's ASGI handler reads in a thread
# (as it should) with this warning on every file: expected here, not a fault.
warnings.filterwarnings(
    "ignore", message="StreamingHttpResponse must consume synchronous iterators", category=Warning
)

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "trix_site.settings")
# A pool of connections per process (settings.DATABASE_POOL): under ASGI a request's thread
# is new each time, so persistent connections were never reused. For this process's settings
# only: a process started from here (or from a test run that imported this) does not inherit it.
_pool_set_here = "DATABASE_POOL" not in os.environ
os.environ.setdefault("DATABASE_POOL", "16")
django_application = get_asgi_application()
if _pool_set_here:
    del os.environ["DATABASE_POOL"]

from trix_site import heap  # noqa: E402 (settings are configured just above)

heap.load_site()
heap.freeze_loaded()  # what is loaded now is never visited by a full collection again
heap.space_collections()  # and the streams' objects make a full collection rare


async def application(scope, receive, send):
    if scope["type"] != "lifespan":
        await django_application(scope, receive, send)
        return
    from games.live import hub

    while True:
        event = await receive()
        if event["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif event["type"] == "lifespan.shutdown":
            await hub.shutdown()
            await send({"type": "lifespan.shutdown.complete"})
            return
