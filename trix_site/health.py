"""The site's health, for a load balancer, a monitor or the watchdog unit
(``deploy/systemd/trix-watchdog.service``): ``GET /health/`` and ``manage.py health``.

Four checks, each ``{"ok": bool, ...}``:

- ``database``: one ``SELECT 1`` on the default database;
- ``broker``: a new connection to ``CELERY_BROKER_URL`` (on Redis: connect and PING), at most
  ``TRIX_BROKER_TIMEOUT`` seconds;
- ``sweep``: the age in seconds of the beat's last completed sweep
  (:func:`games.selectors.last_sweep`): the beat sent it, the broker carried it and a worker
  consumed it. Older than ``TRIX_HEALTH_SWEEP_MAX_AGE`` seconds (or never run) means no worker
  is consuming, or no beat runs: every table and timer is frozen;
- ``signing``: this process holds the signing key the transparency log names
  (``games.signing.current``); without it no match can start (a rotation logged before the
  new key reached this process, docs/operations.md).

The answer is 200 with ``"status": "ok"`` when all four pass, else 503 with
``"status": "failing"``. Errors are named by their class only (no host names or addresses).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import connection
from django.http import JsonResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from games.selectors import last_sweep


def _database() -> dict[str, Any]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # noqa: BLE001 - any failure is the answer
        return {"ok": False, "error": type(exc).__name__}
    return {"ok": True}


def _broker() -> dict[str, Any]:
    from trix_site.celery import app

    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(
                max_retries=1,
                interval_start=0,
                interval_step=0,
                timeout=settings.TRIX_BROKER_TIMEOUT,
            )
    except Exception as exc:  # noqa: BLE001
        return {"ok": False, "error": type(exc).__name__}
    return {"ok": True}


def _sweep() -> dict[str, Any]:
    limit = settings.TRIX_HEALTH_SWEEP_MAX_AGE
    try:
        last = last_sweep()
    except Exception as exc:  # noqa: BLE001 - the database check says why
        return {"ok": False, "last": None, "age_seconds": None, "max_age_seconds": limit,
                "error": type(exc).__name__}  # fmt: skip
    if last is None:
        return {"ok": False, "last": None, "age_seconds": None, "max_age_seconds": limit}
    age = max(0.0, (timezone.now() - last).total_seconds())
    return {
        "ok": age <= limit,
        "last": last.isoformat(),
        "age_seconds": round(age, 1),
        "max_age_seconds": limit,
    }


def _signing() -> dict[str, Any]:
    from games import signing
    from games.errors import Unavailable

    try:
        key = signing.current()
    except Unavailable:
        return {"ok": False, "error": "signing_unavailable"}
    except Exception as exc:  # noqa: BLE001 - the database check says why
        return {"ok": False, "error": type(exc).__name__}
    return {"ok": True, "key_id": key.key_id}


def report() -> dict[str, Any]:
    """``{"status": "ok"|"failing", "database": {...}, "broker": {...}, "sweep": {...},
    "signing": {...}}``."""
    checks = {
        "database": _database(),
        "broker": _broker(),
        "sweep": _sweep(),
        "signing": _signing(),
    }
    ok = all(check["ok"] for check in checks.values())
    return {"status": "ok" if ok else "failing", **checks}


@never_cache
@require_GET
def health(request):
    """``GET /health/``: :func:`report` as JSON, 200 if every check passes, else 503."""
    body = report()
    return JsonResponse(body, status=200 if body["status"] == "ok" else 503)
