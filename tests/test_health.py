"""``GET /health/`` and ``manage.py health`` (issue 13, item 2): the database, the broker and
the age of the beat's last sweep; 503 when one fails, so a worker that is not consuming is
noticed."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from games.models import Heartbeat
from tests.games.helpers import wait_until
from tests.redis_server import dead_url
from tests.worker import new_queue, sending_to


def _beat(seconds_ago: float) -> None:
    at = timezone.now() - timedelta(seconds=seconds_ago)
    Heartbeat.objects.update_or_create(name=Heartbeat.SWEEP, defaults={"at": at})


def test_a_running_worker_and_beat_make_the_site_healthy(worker, client):
    # The session worker's beat sweeps every second (test settings) and records it: wait for
    # a sweep recorded since this test began (its age less than the time since then).
    began = time.monotonic()

    def swept_since():
        b = client.get("/health/").json()
        return b["status"] == "ok" and b["sweep"]["age_seconds"] <= time.monotonic() - began and b

    body = wait_until(swept_since, 30)
    assert body["database"] == {"ok": True} and body["broker"] == {"ok": True}
    assert body["sweep"]["ok"]
    assert client.get("/health/").status_code == 200


@pytest.mark.django_db
@pytest.mark.usefixtures("no_session_worker")
def test_no_sweep_or_an_old_one_answers_503(client, settings):
    # No beat of this test's: the session worker (if an earlier test started it) is stopped,
    # and the sweep it last recorded is gone.
    Heartbeat.objects.filter(name=Heartbeat.SWEEP).delete()
    r = client.get("/health/")
    assert r.status_code == 503
    assert r.json()["sweep"] == {
        "ok": False, "last": None, "age_seconds": None,
        "max_age_seconds": settings.TRIX_HEALTH_SWEEP_MAX_AGE,
    }  # fmt: skip
    _beat(settings.TRIX_HEALTH_SWEEP_MAX_AGE + 5)
    body = client.get("/health/").json()
    assert body["status"] == "failing" and not body["sweep"]["ok"]
    assert body["sweep"]["age_seconds"] > settings.TRIX_HEALTH_SWEEP_MAX_AGE
    assert body["database"]["ok"] and body["broker"]["ok"]
    with pytest.raises(CommandError, match="unhealthy: sweep"):
        call_command("health")
    with pytest.raises(CommandError, match="stuck"):  # the watchdog restarts the workers
        call_command("health", "--stuck")
    _beat(1)
    r = client.get("/health/")
    assert r.status_code == 200 and r.json()["status"] == "ok"
    assert r["Cache-Control"].startswith("max-age=0")
    call_command("health")  # exit 0


@pytest.mark.django_db
def test_a_broker_that_is_down_answers_503(client):
    _beat(1)
    with sending_to(dead_url(), new_queue()):
        r = client.get("/health/")
    assert r.status_code == 503
    assert r.json()["broker"] == {"ok": False, "error": "OperationalError"}
    assert r.json()["sweep"]["ok"] and r.json()["database"]["ok"]
    _beat(10_000)
    with sending_to(dead_url(), new_queue()):
        with pytest.raises(CommandError, match="unhealthy: broker, sweep"):
            call_command("health")
        call_command("health", "--stuck")  # the broker is down: not the workers' fault
