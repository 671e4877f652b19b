"""ASGI entry point: ``uvicorn trix_site.asgi:application`` (production: README, "Running
it"). Django's ASGI application, which serves every page and API as the WSGI one does, and
the live streams (``games.stream``: Server-Sent Events, async views) without holding a
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
django_application = get_asgi_application()


async def application(scope, receive, send):
    if scope["type"] != "lifespan":
        await django_application(scope, receive, send)
        return
    from games import stream

    while True:
        event = await receive()
        if event["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif event["type"] == "lifespan.shutdown":
            await stream.shutdown()
            await send({"type": "lifespan.shutdown.complete"})
            return
