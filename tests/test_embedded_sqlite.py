"""The embedded default (SQLite, for ``./dev run``): a web process and a worker write at once.

Found by a new user: the worker's tasks failed with "database is locked" while the player
clicked cards. Six threads writing in transactions that read first must all succeed."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SCRIPT = """
import os, threading, django
django.setup()
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection, connections, transaction
call_command("migrate", verbosity=0)
with connection.cursor() as cursor:
    cursor.execute("PRAGMA journal_mode")
    assert cursor.fetchone()[0] == "wal"
errors = []
def work(n):
    try:
        for i in range(30):
            with transaction.atomic():
                list(get_user_model().objects.all()[:5])
                get_user_model().objects.create_user(username=f"u{n}-{i}")
    except Exception as exc:
        errors.append(repr(exc))
    finally:
        connections.close_all()
threads = [threading.Thread(target=work, args=(n,)) for n in range(6)]
for t in threads:
    t.start()
for t in threads:
    t.join()
assert not errors, errors
assert get_user_model().objects.count() == 180
print("ok")
"""


def run_embedded(script: str, tmp_path) -> None:
    """Run ``script`` in a fresh interpreter on the embedded default (SQLite in ``tmp_path``,
    no DATABASE_URL or broker); it must print ``ok``."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL")}
    env.update(TRIX_VAR_DIR=str(tmp_path), DJANGO_SETTINGS_MODULE="trix_site.settings")
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-2000:]


def test_concurrent_writers_on_the_embedded_default(tmp_path):
    run_embedded(SCRIPT, tmp_path)


LONG_POLL = """
import threading, time, django
django.setup()
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connections
call_command("migrate", verbosity=0)
from games import selectors, services
from games.live import listener
user = get_user_model().objects.create_user(username="owner")
table = services.create_table(user=user, variant="complex_partner", stake=0, options={})
def change():
    time.sleep(0.3)
    services.seat_bot(user=user, table_id=table.pk, seat=0, bot="rules")
    connections.close_all()
changer = threading.Thread(target=change)
changer.start()
start = time.monotonic()
body = selectors.table_state(table.pk, None, table.version, wait=4)
elapsed = time.monotonic() - start
changer.join()
assert body["version"] == table.version + 1, body
assert [e["type"] for e in body["events"]] == ["bot_seated"], body["events"]
assert elapsed < 3, elapsed
start = time.monotonic()
body = selectors.table_state(table.pk, None, table.version + 1, wait=0.3)
assert body["version"] == table.version + 1 and body["events"] == [], body
assert time.monotonic() - start >= 0.29
assert not listener.connected()
assert not [t for t in threading.enumerate() if t.name == "trix-table-notifications"]
print("ok")
"""


def test_long_polls_on_the_embedded_default_poll_the_table(tmp_path):
    """SQLite has no NOTIFY: a waiting state poll looks at the table every 50 ms, and still
    returns soon after a change (and after its wait when nothing changes)."""
    run_embedded(LONG_POLL, tmp_path)


BROKER = """
import threading, time, django
django.setup()
from trix_site.celery import app
from trix_site.broker import SQLiteTransport
with app.connection_for_write() as conn:
    assert isinstance(conn.transport, SQLiteTransport), type(conn.transport)
    assert conn.transport.polling_interval == 0.05, conn.transport.polling_interval
    queue = conn.SimpleQueue("embedded-latency")
    def send():
        time.sleep(0.3)
        with app.connection_for_write() as other:
            q = other.SimpleQueue("embedded-latency")
            q.put({"sent": time.monotonic()})
            q.close()
    threading.Thread(target=send).start()
    message = queue.get(block=True, timeout=10)
    waited = time.monotonic() - message.payload["sent"]
    message.ack()
    queue.close()
assert waited < 0.25, waited  # kombu's default polling (1 s) took up to a second
print("ok")
"""


def test_the_embedded_broker_is_polled_often(tmp_path):
    """Issue 14: on ``./dev run`` a move waited up to a second for the worker (kombu's
    SQLAlchemy transport looks once a second); the embedded default now looks every
    ``TRIX_BROKER_POLL`` (0.05 s) seconds."""
    run_embedded(BROKER, tmp_path)
