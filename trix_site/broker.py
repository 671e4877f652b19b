"""The embedded default's broker (``./dev run``): kombu's SQLAlchemy transport on a SQLite
file, polled every ``TRIX_BROKER_POLL`` seconds instead of kombu's once a second.

kombu's virtual transports look for a message, and when every queue is empty sleep their
``polling_interval`` (1 s by default) before looking again: a move waited up to that long for
the worker (issue 14). The SQLAlchemy transport hands its transport options to SQLAlchemy's
``create_engine`` (which refuses a ``polling_interval``), so the interval is set here, on a
subclass named by ``CELERY_BROKER_TRANSPORT`` (``trix_site/settings.py``). A look is one
indexed ``SELECT`` on the broker file (about 0.1-0.3 ms); at 0.05 s an idle worker spends
well under 1% of a core on it. ``benchmarks/embedded_latency.py`` measures the effect.
"""

from __future__ import annotations

from django.conf import settings
from kombu.transport import sqlalchemy


class SQLiteTransport(sqlalchemy.Transport):
    """kombu's SQLAlchemy transport, polled every ``TRIX_BROKER_POLL`` seconds."""

    def __init__(self, client, **kwargs):
        super().__init__(client, **kwargs)
        self.polling_interval = settings.TRIX_BROKER_POLL
