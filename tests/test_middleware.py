"""The middleware chain as the ASGI server runs it (``trix_site.asgi``; Django's test
``AsyncClient`` builds the chain the same way)."""

from __future__ import annotations

from unittest import mock

import pytest
from asgiref.sync import AsyncToSync, SyncToAsync
from django.test import AsyncClient

from tests.sse import off_the_loop


def _switches(path: str) -> int:
    """How many times one request through the ASGI chain crossed between the event loop and
    a thread (asgiref's ``sync_to_async`` and ``async_to_sync`` calls)."""
    calls = []
    real_s2a, real_a2s = SyncToAsync.__call__, AsyncToSync.__call__

    def s2a(self, *args, **kwargs):
        calls.append("sync_to_async")
        return real_s2a(self, *args, **kwargs)

    def a2s(self, *args, **kwargs):
        calls.append("async_to_sync")
        return real_a2s(self, *args, **kwargs)

    with (
        mock.patch.object(SyncToAsync, "__call__", s2a),
        mock.patch.object(AsyncToSync, "__call__", a2s),
    ):
        from asgiref.sync import async_to_sync

        response = async_to_sync(AsyncClient().get)(path)
    assert response.status_code == 200, response.content
    return len(calls) - 1  # the test's own async_to_sync


@pytest.mark.django_db(transaction=True)
@off_the_loop
def test_a_request_crosses_between_the_event_loop_and_its_thread_a_few_times_not_per_middleware():
    """Every middleware of the site is synchronous or both (Django's ``MiddlewareMixin``); run
    in async mode, each of its hooks is a ``sync_to_async`` call: a trip from the event loop
    to the request's thread and back, 19 per request, each waiting for a busy event loop (a
    person's POST -> stored took 13-16 ms at p50 under the issue's load). The chain runs in
    the request's thread as a whole; what is left is Django's own: the ``request_started``
    signal, the chain, back to the event loop for the view's lookup
    (``_get_response_async``), CSRF's ``process_view``, the view, the rendering of DRF's
    answer and the ``request_finished`` signal."""
    assert _switches("/api/tables/") <= 7
