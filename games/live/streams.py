"""One live stream: its body (:func:`events`) and the view's answer (:func:`response`).

A watcher opens ``GET /api/tables/{id}/stream/?since=V`` (or a tournament's
``GET /api/tournaments/{id}/stream/``) and keeps it open; each message is exactly what ``GET
.../state/?since=<previous>`` would answer that caller (:func:`games.selectors.table_state`):
a contiguous sequence of events with the view, or the full state (the format:
:mod:`games.live.sse`). A dropped connection loses nothing: the new stream starts at the
``Last-Event-ID`` EventSource sends. A stream ends after ``TRIX_STREAM_LIFETIME`` seconds (the
client reconnects) and, with an ``event: end`` message, once nothing will change any more (a
table cancelled, or finished and paid: :func:`games.selectors.table_over`; a tournament
finished or cancelled)."""

from __future__ import annotations

import functools
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from asgiref.sync import SyncToAsync, sync_to_async
from django.conf import settings
from django.db import connections
from django.http import HttpResponse, JsonResponse, StreamingHttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from rest_framework.exceptions import MethodNotAllowed

from games import waits
from games.live.hub import hub
from games.live.sources import Source
from games.live.sse import CONTENT_TYPE, HEADERS, RETRY_MS, BadVersion, requested_version
from games.live.watchers import Mailbox, Watcher


async def events(
    key: int,
    source: Source,
    viewer: Any,
    since: int | None,
    *,
    on_seat: Callable[[int], Any] | None = None,
    client: str | None = None,
    patches: bool = False,
    language: str | None = None,
    session: tuple[str, int, str] | None = None,
) -> AsyncIterator[bytes]:
    """The body of one stream: the messages bringing ``viewer`` up from ``since`` and every
    later version of ``key``, keepalive comments, then ``event: end`` once over (or nothing
    more after ``TRIX_STREAM_LIFETIME`` seconds, or once it fell behind). ``on_seat(seat)``
    (synchronous, run in the hub's threads) is called the first time an answer gives the viewer
    a seat. ``client``
    (:func:`games.waits.client_of`) is counted among its streams while this one is open
    (:func:`games.waits.take_stream`; over the cap the stream ends at once). ``patches``: the
    watcher takes ``event: patch`` messages (where the source sends them); ``language``: the
    one its answers' words are in (where the source has words); ``session``: a logged-in
    viewer's (:attr:`Watcher.session`: the stream is cut once it no longer logs them in)."""
    if client is not None and not waits.take_stream(client):
        return  # opened meanwhile by the same client (the view checked): it reconnects
    watcher = Watcher(
        viewer,
        since,
        Mailbox(settings.TRIX_STREAM_QUEUE),
        ends_at=time.monotonic() + settings.TRIX_STREAM_LIFETIME,
        patches=patches and source.patches,
        language=language,
        session=session,
    )
    the_hub = hub()
    feed = the_hub.subscribe(key, source, watcher)
    seated = False
    try:
        yield b"retry: %d\n\n" % RETRY_MS  # the response starts now (EventSource opens)
        box = watcher.queue
        while True:
            while box.empty():
                await box.wait()
            data, end = box.take()  # everything waiting: one write
            if data is None:  # cut
                return
            if watcher.seat is not None and not seated and on_seat is not None:
                seated = True
                await the_hub.run(on_seat, watcher.seat)  # not the request's thread
            yield data
            if end:
                return
    finally:
        the_hub.unsubscribe(feed, watcher)
        if client is not None:
            waits.give_back_stream(client)


async def response(
    request,
    key: int,
    source: Source,
    *,
    viewer: Any,
    missing: str,
    on_seat: Callable[[int], Any] | None = None,
) -> HttpResponse:
    """A stream's answer to ``request`` (``GET``, ``?since=`` or ``Last-Event-ID``, and
    ``?patches=1`` where the source patches): the
    event stream (200); 204 when nothing will change after the version the caller has (an
    EventSource stops reconnecting); 400 ``invalid`` for a bad version or ``patches`` (``0`` or
    ``1``), 404 ``not_found``
    (``missing``) for an unknown key, 429 ``too_many_streams`` when the caller's client
    already holds ``TRIX_WAITS_PER_CLIENT`` streams in this process; 501 ``unavailable``
    under a WSGI server (``runserver``, gunicorn's sync workers), which would hold a thread
    and send nothing until the stream ends (the pages then long-poll). Errors in the API's
    shape ``{"error", "code"}``."""
    try:
        since = requested_version(request.GET.get("since"), request.headers.get("Last-Event-ID"))
    except BadVersion:
        return _error(_("since (or Last-Event-ID) must be a whole number from 0"), "invalid", 400)
    patches = request.GET.get("patches", "0") if source.patches else "0"  # else not read
    if patches not in ("0", "1"):
        return _error(_("patches must be 0 or 1"), "invalid", 400)
    version = await sync_to_async(source.version)(key)
    if version is None:
        return _error(missing, "not_found", 404)
    if since == version and await sync_to_async(source.final_version)(key) == version:
        return HttpResponse(status=204)
    if "wsgi.version" in request.META:  # a WSGI server would hold a thread and send nothing
        return _error(
            _("Live streams are served by the ASGI server only: follow the state poll."),
            "unavailable",
            501,
        )
    client = waits.client_of(request, viewer)
    if waits.streams_full(client):
        return _error(
            _("Too many live streams open: close a page, or follow it with the state poll."),
            "too_many_streams",
            429,
        )
    body = events(
        key,
        source,
        viewer,
        since,
        on_seat=on_seat,
        client=client,
        patches=patches == "1",
        language=getattr(request, "LANGUAGE_CODE", None),
        session=_session_of(request, viewer),
    )
    await _let_go_of_the_request_thread()
    return LiveStreamResponse(body, content_type=CONTENT_TYPE, headers=HEADERS)


def _session_of(request, viewer) -> tuple[str, int, str] | None:
    """A logged-in viewer's session: its key, the user's id and session auth hash (None:
    anonymous, or no session)."""
    if viewer is None or not getattr(viewer, "is_authenticated", False):
        return None
    key = getattr(getattr(request, "session", None), "session_key", None)
    return None if key is None else (key, viewer.pk, viewer.get_session_auth_hash())


class LiveStreamResponse(StreamingHttpResponse):
    """A stream's response: Django's ASGI handler iterates its body itself (:func:`events`,
    whose messages are bytes already) instead of through the two generators
    ``StreamingHttpResponse`` wraps it in, each of which left an object per message and per
    watcher for the garbage collector to visit (``trix_site.heap``); the handler's
    ``aclosing(aiter(response))`` then closes the body itself when the stream ends or the
    client goes (its ``finally``: the hub lets go of the watcher at once). A synchronous
    body is iterated as Django does."""

    def __aiter__(self):
        return self._iterator if self.is_async else super().__aiter__()


async def _let_go_of_the_request_thread() -> None:
    """Give back what the request's synchronous part holds while its stream is open: Django's
    ASGI handler runs a request's sync middleware and sync calls in one thread of its own,
    with its own database connection, kept until the response ends (``asgiref``'s
    ``ThreadSensitiveContext``), which for a stream is minutes. Its connection is closed now,
    and the thread told to end once the middleware is done (a sync call later in the request,
    ``response.close()`` at the end, gets a new thread then)."""
    await sync_to_async(connections.close_all)()
    context = SyncToAsync.thread_sensitive_context.get(None)
    executor = SyncToAsync.context_to_thread_executor.pop(context, None) if context else None
    if executor is not None:
        executor.shutdown(wait=False)


def get_only(view: Callable) -> Callable:
    """A stream view's guard: ``GET`` only (EventSource's method); any other method answers
    405 ``method_not_allowed`` in the API's shape, with ``Allow: GET`` (Django's
    ``require_GET`` answered an empty 405, and a ``POST`` first met the CSRF check's HTML
    403). Exempt from that check: a stream changes nothing."""

    @csrf_exempt
    @functools.wraps(view)
    async def guarded(request, *args, **kwargs):
        if request.method != "GET":
            response = _error(MethodNotAllowed(request.method).detail, "method_not_allowed", 405)
            response["Allow"] = "GET"
            return response
        return await view(request, *args, **kwargs)

    return guarded


def _error(text: str, code: str, status: int) -> JsonResponse:
    """An error in the API's shape, UTF-8 as DRF renders the others (no ``\\u`` escapes)."""
    body = {"error": str(text), "code": code}
    return JsonResponse(body, status=status, json_dumps_params={"ensure_ascii": False})
