"""Settings of the test suite (pyproject's ``DJANGO_SETTINGS_MODULE``): the site's settings
with the tests' short timers. The worker subprocess of ``tests/worker.py`` runs on this module
too, so the tests and their worker share one definition of the fast values.

Changes from ``trix_site.settings``:

- a fixed, public secret key when ``DJANGO_SECRET_KEY`` is not set, and fixed public
  ``TRIX_SEED_KEY`` / ``TRIX_SIGNING_KEY`` likewise (DEBUG is off, as it is in production,
  and the site refuses to start without them then);
- plain HTTP (``DJANGO_HTTPS=0`` unless set): no HTTPS redirect, HSTS or secure-only cookies;
- static files served unhashed from the apps (no ``collectstatic`` run needed);
- timers x0.01 (a 12 s timer is 0.12 s), bots and deals without pause, the sweep every second;
- a fast password hasher (MD5: test users only);
- two seats from one address allowed at a staked table, and API reads not limited (every
  client is 127.0.0.1);
- under pytest-xdist, a Redis broker database per worker (``_broker_of_xdist_worker``).
"""

import os

os.environ.setdefault("DJANGO_SECRET_KEY", "tests-only-not-a-secret")
os.environ.setdefault("DJANGO_HTTPS", "0")  # the test client and live server speak HTTP
# Fixed, public keys (the site refuses to start without them when DEBUG is off).
os.environ.setdefault("TRIX_SEED_KEY", "5e" * 32)
os.environ.setdefault("TRIX_SIGNING_KEY", "51" * 32)


def _broker_of_xdist_worker(url: str, worker: str) -> str:
    """The broker database of one pytest-xdist worker (``gw0``, ``gw1``, ...): a Redis URL's
    database number plus the worker's index (``redis://h:6379/14`` is 14 for ``gw0``, 15 for
    ``gw1``), so two workers never share a broker database; other URLs are kept."""
    scheme, _, rest = url.partition("://")
    address, slash, db = rest.partition("/")
    if scheme not in ("redis", "rediss") or not worker.startswith("gw"):
        return url
    return f"{scheme}://{address}/{int(db or 0) + int(worker[2:])}"


# Under pytest-xdist each worker process moves its tasks on a broker database of its own; once
# per run: the processes the tests start inherit the chosen URL and the marker.
if os.environ.get("PYTEST_XDIST_WORKER") and "TRIX_TEST_BROKER_OF" not in os.environ:
    os.environ["TRIX_TEST_BROKER_OF"] = os.environ["PYTEST_XDIST_WORKER"]
    if os.environ.get("CELERY_BROKER_URL"):
        os.environ["CELERY_BROKER_URL"] = _broker_of_xdist_worker(
            os.environ["CELERY_BROKER_URL"], os.environ["PYTEST_XDIST_WORKER"]
        )

from .env import env_seconds  # noqa: E402
from .settings import *  # noqa: E402,F403
from .settings import STORAGES  # noqa: E402

STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True  # as under DEBUG: the apps' static files, no STATIC_ROOT
WHITENOISE_AUTOREFRESH = True

# A fast password hasher (Django's advice for test suites): the suite's people are made
# by the hundred (tests/factories.py), and a tournament test registers a dozen of them
# inside a registration window of a few seconds. Production keeps Django's default.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# Every test client and the browser tests' live server speak from 127.0.0.1: seats from one
# address are allowed, except in the tests of that rule (tests/accounts/test_seats.py).
TRIX_SAME_ADDRESS_SEATS = True
# Nor are their reads limited, but in the tests of those limits (tests/games/test_read_limits.py):
# the suite's clients and pages read as fast as they can, all from 127.0.0.1.
TRIX_READ_RATE = "100000/second"
TRIX_READ_ADDRESS_RATE = "100000/second"
TRIX_ARCHIVE_RATE = "100000/second"
TRIX_COSIGNATURE_RATE = "100000/second"
# Nor are a seat's actions, but in the tests of that limit (tests/games/test_api_robust.py): a
# test playing a seat through the API answers as fast as the bots (which do not think here),
# and at the production rate (10 a second) it waited out a 429's Retry-After a dozen times a
# match.
TRIX_ACTION_RATE = "100000/second"
# Bots play without pause; a test's own worker may be given a pause (tests/games/
# test_held_wakes.py: a solo worker holding each bot's next turn on its timer that long).
TRIX_BOT_DELAY = env_seconds("TRIX_TEST_BOT_DELAY", 0.0)
TRIX_DEAL_PAUSE = 0.0
TRIX_TIMER_SCALE = 0.01
TRIX_FORCED_DELAY = 0.05
TRIX_AWAY_DELAY = 0.01
TRIX_SWEEP_SECONDS = 1.0
TRIX_SWEEP_LATE = 1.0
_SWEEP = "games-sweep-timers"
CELERY_BEAT_SCHEDULE = {
    **CELERY_BEAT_SCHEDULE,  # noqa: F405
    _SWEEP: {**CELERY_BEAT_SCHEDULE[_SWEEP], "schedule": TRIX_SWEEP_SECONDS},  # noqa: F405
}
