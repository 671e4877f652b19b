"""Fixtures shared by every test package: one real Celery worker for the session (the tables
tests and the browser tests both use it; see ``tests/worker.py``)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.web import conftest as web_conftest


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup):
    """pytest-django's test database, and before it is dropped, this process's listener of
    table notifications (``games.live.listener``) stopped: its connection would keep the
    database from being dropped."""
    yield
    from games.live import listener

    listener.stop()


@pytest.fixture(autouse=True)
def english_unless_asked():
    """Every test starts in the site's default language (English): a request in Arabic made
    with the test client activates Arabic in this thread (LocaleMiddleware) and would leak
    into the next test's messages."""
    from django.utils import translation

    translation.activate("en")
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def verified_by_default(request):
    """Every user a test creates has a verified identity (``accounts.models.Verification``,
    provider ``tests``), so the tests of staking need no extra step; a test marked
    ``unverified`` gets its users as sign-up leaves them (unverified: no stake, no large
    withdrawal)."""
    if request.node.get_closest_marker("unverified"):
        yield
        return
    from django.contrib.auth import get_user_model
    from django.db.models.signals import post_save

    def verify(sender, instance, created, raw=False, **kwargs):
        if created and not raw:
            from django.utils import timezone

            from accounts.models import Verification

            Verification.objects.get_or_create(
                user=instance,
                defaults={"status": "verified", "provider": "tests", "checked_at": timezone.now()},
            )

    model = get_user_model()
    post_save.connect(verify, sender=model, dispatch_uid="tests-verified-by-default")
    yield
    post_save.disconnect(sender=model, dispatch_uid="tests-verified-by-default")


@pytest.fixture(scope="session")
def worker_queue() -> str:
    from tests.worker import new_queue

    return new_queue()


@pytest.fixture(scope="session")
def session_worker(django_db_setup, django_db_blocker, worker_queue):
    """One worker for the session, on its own queue; tasks this process sends go there."""
    from tests.worker import Worker, use_queue

    with django_db_blocker.unblock():
        old = use_queue(worker_queue)
        worker = Worker(worker_queue)
        _session_workers.append(worker)
        yield worker
        worker.stop()
        use_queue(old)


#: The session worker of this process once a test has started it (``session_worker``).
_session_workers: list = []


@pytest.fixture
def no_session_worker():
    """For a test that runs workers of its own: the session's worker, if an earlier test on
    this process started it, is stopped for the test. Its embedded beat sweeps every table of
    the test database each second (``games.services.wakes.sweep``) and would play the test's
    tables itself, so the test's own worker would never see them. The next test that asks for
    ``worker`` starts it again."""
    for worker in _session_workers:
        if worker.running():
            worker.stop()
    yield


@pytest.fixture(scope="session", autouse=True)
def _flush_by_delete():
    """A transactional test's teardown empties every table (Django's ``flush``). On
    PostgreSQL Django does it with one ``TRUNCATE`` of every table, which makes new files for
    each table and index: about 90 ms for the site's 43 tables, against about 4 ms for a
    ``DELETE`` of each, on the few rows a test leaves. So the flush deletes, in one
    transaction:

    - every table is locked first (``ACCESS EXCLUSIVE``, as ``TRUNCATE`` locks them): the
      flush waits for a transaction still writing to any of them (the session worker's
      wake-up of the test's table) and no new one starts until it commits, so no row that
      transaction writes can outlast the flush;
    - ``session_replication_role = replica`` (a superuser's setting, ``SET LOCAL``: the tests
      connect as ``postgres``) turns the triggers off for it: the foreign keys' checks, and
      the append-only guards of the ledger and the transparency log, which refuse a
      ``DELETE`` anywhere else (``wallet/migrations/0002``, ``games/migrations/0007``);
    - ``deadlock_timeout`` is raised far above the server's 1 s: the session worker may still
      be applying a wake-up of the test's tables, whose locks can deadlock with the flush's
      table locks. PostgreSQL looks for a cycle once a waiter has waited its
      ``deadlock_timeout``: in a cycle of the flush and one other transaction, the other's
      check (after 1 s) finds it first and cancels that transaction, which had nothing left
      to do (its table goes). A cycle that forms only after a third transaction let the flush
      go on, once the other's check has run, is found by the flush's own check 60 s later and
      fails that teardown, as it did with ``TRUNCATE``.
    - the tables are locked in name order, the same in every run.

    A flush that resets sequences (``reset_sequences=True``) is left to Django."""
    from django.db.backends.postgresql.operations import DatabaseOperations

    original = DatabaseOperations.sql_flush

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if reset_sequences or not tables:
            return original(
                self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )
        names = [self.quote_name(table) for table in sorted(tables)]  # one order every run
        return [
            "SET LOCAL deadlock_timeout = '60s'",
            "SET LOCAL session_replication_role = replica",
            f"LOCK TABLE {', '.join(names)} IN ACCESS EXCLUSIVE MODE",
            *(f"DELETE FROM {name}" for name in names),
        ]

    DatabaseOperations.sql_flush = sql_flush
    yield
    DatabaseOperations.sql_flush = original


@pytest.fixture
def worker(session_worker, transactional_db):
    """The shared worker; this process (test code, the live server of browser tests) runs on
    the same settings and so the same short timers (``trix_site.settings_test``). Started
    again if a test with workers of its own stopped it (``no_session_worker``)."""
    if not session_worker.running():
        session_worker.start_again()
    return session_worker


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    """After every test that used the database, the whole ledger passes ``ledger_check``
    (issue 5: every invariant holds after the whole test suite, checked test by test while
    each test's data is still there). Tests that corrupt the ledger on purpose are marked
    ``ledger_corrupted``."""
    outcome = yield
    if outcome.excinfo is not None or item.get_closest_marker("ledger_corrupted"):
        return
    uses_db = {"db", "transactional_db", "django_db_reset_sequences"} & set(item.fixturenames)
    if not uses_db and not item.get_closest_marker("django_db"):
        return
    from wallet.checks import run_checks

    problems = {name: found for name, found in run_checks().items() if found}
    assert not problems, f"ledger_check fails after this test: {problems}"


# -- the live server: the ASGI site under uvicorn, as production serves it ----------------


@pytest.fixture(scope="session")
def live_server(request):
    """pytest-django's ``live_server`` (same name: its helper gives each test that uses it a
    transactional database), but serving ``trix_site.asgi`` under uvicorn, as production
    does, so the pages' live streams (async views) are served as they are there
    (``tests/asgi_server.py``). Its shutdown closes the streams' database connections."""
    from tests.asgi_server import AsgiLiveServer

    server = AsgiLiveServer()
    yield server
    server.stop()


# -- browser tests (Playwright on Debian's Chromium): one browser for the session ---------


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items):
    """Under pytest-xdist's ``--dist loadgroup`` (``./dev test``) every browser test runs in
    one group, so on one worker: one Chromium at a time, as the tests' timeouts assume on two
    cores. Before xdist's own hook, which reads the groups."""
    for item in items:
        if item.get_closest_marker("browser") or {"browser", "new_page"} & set(item.fixturenames):
            item.add_marker(pytest.mark.xdist_group("browser"))


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    if not os.path.exists(web_conftest.CHROMIUM):
        pytest.fail(f"{web_conftest.CHROMIUM} is missing: ./dev test installs Debian's chromium")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=web_conftest.CHROMIUM, headless=True, args=web_conftest.CHROMIUM_ARGS
        )
        yield browser
        browser.close()


@pytest.fixture
def artifacts() -> Path:
    web_conftest.ARTIFACTS.mkdir(exist_ok=True)
    return web_conftest.ARTIFACTS


@pytest.fixture
def new_page(browser, live_server):
    """Open pages in fresh browser contexts (separate cookies); closed after the test."""
    contexts = []

    def open_page(*, width: int = 1280, height: int = 900):
        context = browser.new_context(
            base_url=live_server.url, viewport={"width": width, "height": height}
        )
        context.set_default_timeout(15_000)
        contexts.append(context)
        return context.new_page()

    yield open_page
    for context in contexts:
        # A page's route handlers may still be answering a request the page made as the test
        # ended (a deal's record fetched after its last assertion): they stop with the test,
        # not raise into the next one's setup.
        for page in context.pages:
            page.unroute_all(behavior="ignoreErrors")
        context.close()


# -- people: the factories of tests/factories.py as fixtures -----------------------------


@pytest.fixture
def make_user(db):
    """``make_user(name=None, *, funds=0, password=None, display_name=None, **fields)`` -> a
    new user (``tests.factories.UserFactory``; ``fields`` are the user model's, e.g.
    ``is_staff=True``). No password unless given: no hashing."""
    from tests.factories import UserFactory

    def make(name: str | None = None, /, **fields):
        if name is not None:
            fields["username"] = name
        return UserFactory(**fields)

    return make


@pytest.fixture
def player(make_user):
    """``player(name=None, *, funds=10_000, **fields)`` -> a person with a profile (the
    display name is the login unless ``display_name`` is given), who can log in
    with ``tests.factories.PASSWORD`` and has ``funds`` minor units in the wallet."""
    from tests.factories import PASSWORD

    def make(name: str | None = None, /, *, funds: int = 10_000, **fields):
        user = make_user(name, password=PASSWORD, funds=funds, **fields)
        if "display_name" not in fields:
            from accounts.services import set_display_name

            set_display_name(user, user.username)
        return user

    return make


@pytest.fixture
def staff(db):
    """A member of staff (``is_staff``) who can log in with ``tests.factories.PASSWORD``."""
    from tests.factories import PASSWORD, StaffFactory

    return StaffFactory(password=PASSWORD)
