"""Every ``TRIX_*`` setting the code reads is declared in ``trix_site/settings.py`` (with its
default and meaning), read plainly (no hidden ``getattr`` default), and the tests' worker runs
on the tests' settings (issue 10)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from trix_site import env as reader
from trix_site import heap, settings_test
from trix_site import settings as site_settings

ROOT = Path(__file__).resolve().parents[1]
APPS = ("accounts", "games", "wallet", "web", "tournaments", "trix_site")


def _sources():
    for app in APPS:
        yield from (ROOT / app).rglob("*.py")


def test_every_trix_setting_read_is_declared_with_a_default():
    read = set()
    for path in _sources():
        read |= set(re.findall(r"settings\.(TRIX_[A-Z0-9_]+)", path.read_text()))
    assert read, "no TRIX_ setting found: the pattern is wrong"
    missing = sorted(name for name in read if not hasattr(site_settings, name))
    assert not missing, f"read but not declared in trix_site/settings.py: {missing}"


def test_no_setting_is_read_with_a_hidden_default():
    hidden = [
        f"{path.relative_to(ROOT)}: {m}"
        for path in _sources()
        for m in re.findall(r"getattr\(\s*settings\s*,\s*\"[A-Z_]+\"\s*,[^)]*\)", path.read_text())
    ]
    assert not hidden, hidden


def _debug_with(env: dict[str, str]) -> str:
    """``settings.DEBUG`` of the site's settings in a fresh interpreter with ``env``."""
    base = {k: v for k, v in os.environ.items() if k != "DJANGO_DEBUG"}
    # The two keys the site refuses to start without when DEBUG is off (public test values).
    base.update(TRIX_SEED_KEY="5e" * 32, TRIX_SIGNING_KEY="51" * 32)
    base.update(DJANGO_SETTINGS_MODULE="trix_site.settings", **env)
    done = subprocess.run(
        [sys.executable, "-c", "from django.conf import settings; print(settings.DEBUG)"],
        cwd=ROOT, env=base, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip()


def test_debug_is_off_unless_the_environment_turns_it_on():
    assert _debug_with({}) == "False"
    assert _debug_with({"DJANGO_DEBUG": "1"}) == "True"
    # ./dev run turns it on unless the caller set DJANGO_DEBUG.
    assert 'export DJANGO_DEBUG="${DJANGO_DEBUG:-1}"' in (ROOT / "dev").read_text()


def test_the_tests_run_on_the_fast_timers(settings):
    assert settings.SETTINGS_MODULE == "trix_site.settings_test"
    assert settings.TRIX_TIMER_SCALE == settings_test.TRIX_TIMER_SCALE < 1
    assert settings.TRIX_BOT_DELAY == 0.0


def test_a_plain_pip_install_ships_every_app_of_the_site():
    """``pip install .`` (production) packages every local app in INSTALLED_APPS (web and
    accounts were left out once, so the installed site could not start)."""
    import fnmatch
    import tomllib

    include = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
        "packages"
    ]["find"]["include"]
    local = [app.split(".")[0] for app in site_settings.INSTALLED_APPS if (ROOT / app).is_dir()]
    assert local, "no local app found"
    missing = [app for app in local if not any(fnmatch.fnmatch(app, p) for p in include)]
    assert not missing, f"not packaged by pip install .: {missing}"


# The production environment of the recipe in docs/operations.md: deploy/trix.env.example
# (the file the systemd units read), its change-me placeholders kept.
ENV_EXAMPLE = ROOT / "deploy" / "trix.env.example"


def _env_file(path) -> dict[str, str]:
    """``NAME=value`` lines of a systemd EnvironmentFile (comments and blank lines skipped; a
    value in double quotes loses them, as systemd and ``sh`` read it)."""
    lines = path.read_text().splitlines()
    pairs = (line.split("=", 1) for line in lines if line.strip() and not line.startswith("#"))
    return {
        name.strip(): value.strip().removeprefix('"').removesuffix('"') for name, value in pairs
    }


# The two keys' change-me placeholders stop the site at start (on purpose): fill them in.
PRODUCTION_ENV = {
    **_env_file(ENV_EXAMPLE),
    "TRIX_SEED_KEY": "5e" * 32,
    "TRIX_SIGNING_KEY": "51" * 32,
}


def _site(env: dict[str, str], *args: str, code: str | None = None):
    """Run ``manage.py ARGS`` (or ``python -c CODE``) on the site's settings (not the tests')
    in a fresh interpreter whose environment is this process's less every ``DJANGO_*`` and
    ``TRIX_*`` variable, plus ``env``."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "TRIX_"))}
    # The two keys the site refuses to start without when DEBUG is off (public test values).
    base.update(TRIX_SEED_KEY="5e" * 32, TRIX_SIGNING_KEY="51" * 32)
    base.update(DJANGO_SETTINGS_MODULE="trix_site.settings", **env)
    command = [sys.executable, "-c", code] if code else [sys.executable, "manage.py", *args]
    return subprocess.run(command, cwd=ROOT, env=base, capture_output=True, text=True, timeout=120)


def test_check_deploy_is_clean_with_the_documented_production_environment():
    """``manage.py check --deploy`` warned about HSTS, the HTTPS redirect and both cookies,
    and none could be set from the environment (issue 13, item 7)."""
    done = _site(PRODUCTION_ENV, "check", "--deploy", "--fail-level", "WARNING")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "System check identified no issues (0 silenced)." in done.stdout, done.stdout
    for name in ("DJANGO_SECURE_PROXY_SSL_HEADER", "DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS"):
        assert name in PRODUCTION_ENV, f"{name} missing from {ENV_EXAMPLE}"
    recipe = (ROOT / "docs" / "operations.md").read_text()
    assert "deploy/trix.env.example" in recipe and "check --deploy" in recipe


def test_the_environment_example_keeps_demo_payments_off_with_a_warning():
    """An operator reading deploy/trix.env.example finds the demo payment switch, off, with
    the warning above it that it credits money out of nothing."""
    assert PRODUCTION_ENV["TRIX_DEMO_PAYMENTS"] == "0"
    lines = ENV_EXAMPLE.read_text().splitlines()
    at = lines.index("TRIX_DEMO_PAYMENTS=0")
    comment = []
    for line in reversed(lines[:at]):
        if not line.startswith("#"):
            break
        comment.insert(0, line)
    text = " ".join(comment)
    assert comment[0].startswith("# WARNING: TRIX_DEMO_PAYMENTS=1")
    assert "Never 1 on a site with real money" in text
    done = _site(
        PRODUCTION_ENV,
        code="import django; django.setup(); from django.conf import settings; "
        "print(settings.TRIX_DEMO_PAYMENTS)",
    )
    assert done.stdout.strip() == "False", done.stdout + done.stderr


def _issues(env: dict[str, str]) -> set[str]:
    """The ids of the issues ``manage.py check --deploy`` reports with ``env``."""
    done = _site(env, "check", "--deploy")
    return set(re.findall(r"^\?: \(([\w.]+)\)", done.stdout + done.stderr, re.M))


def test_check_deploy_fails_without_a_real_email_backend():
    """With ``DEBUG`` off, sign-up confirmations and password resets went to the console, so
    to the web log: the production recipe's ``check --deploy`` (before ``migrate``) fails
    until mail goes somewhere real, and the example shows the settings."""
    for name in ("EMAIL_HOST", "EMAIL_PORT", "EMAIL_HOST_USER", "EMAIL_HOST_PASSWORD",
                 "EMAIL_USE_TLS", "DEFAULT_FROM_EMAIL", "SERVER_EMAIL"):  # fmt: skip
        assert name in PRODUCTION_ENV, f"{name} missing from {ENV_EXAMPLE}"
    no_mail = {k: v for k, v in PRODUCTION_ENV.items() if not k.startswith("EMAIL_")}
    done = _site(no_mail, "check", "--deploy")
    assert done.returncode != 0 and "(accounts.E001)" in done.stderr, done.stderr[-2000:]
    assert "EMAIL_HOST" in done.stderr
    for backend in ("console", "locmem", "dummy", "filebased"):
        env = {
            **PRODUCTION_ENV,
            "EMAIL_BACKEND": f"django.core.mail.backends.{backend}.EmailBackend",
        }
        done = _site(env, "check", "--deploy")
        assert done.returncode != 0 and "(accounts.E001)" in done.stderr, backend
    # A provider's own backend (not SMTP) needs no EMAIL_HOST.
    env = {**no_mail, "EMAIL_BACKEND": "anymail.backends.amazon_ses.EmailBackend"}
    assert "accounts.E001" not in _issues(env)
    # DEBUG on (./dev run): the console is what a developer wants, and nothing is checked.
    debug = _site({"DJANGO_DEBUG": "1"}, code="from django.conf import settings as s; "
                  "print(s.EMAIL_BACKEND)")  # fmt: skip
    assert debug.stdout.strip() == "django.core.mail.backends.console.EmailBackend"
    off = _site(no_mail, code="from django.conf import settings as s; print(s.EMAIL_BACKEND)")
    assert off.stdout.strip() == "django.core.mail.backends.smtp.EmailBackend", off.stderr


def test_the_plain_http_advice_names_the_warnings_check_deploy_gives():
    """The example's advice for plain ``http://`` (``DJANGO_HTTPS=0``, no proxy:
    ``TRIX_TRUSTED_PROXIES=0``) makes ``check --deploy`` warn of the HTTPS settings it turns
    off: the example names exactly those warnings, and no other issue comes."""
    text = ENV_EXAMPLE.read_text()
    advice = "\n".join(line for line in text.splitlines() if line.startswith("#"))
    named = set(re.findall(r"security\.W\d{3}", advice))
    assert named, "the example names no warning for plain http"
    assert "DJANGO_HTTPS=0" in advice and "TRIX_TRUSTED_PROXIES=0" in advice
    plain = {**PRODUCTION_ENV, "DJANGO_HTTPS": "0", "TRIX_TRUSTED_PROXIES": "0"}
    del plain["DJANGO_SECURE_PROXY_SSL_HEADER"]
    assert _issues(plain) == named
    done = _site(plain, "check", "--deploy")
    assert done.returncode == 0, done.stderr[-2000:]  # warnings, not errors


def test_the_example_says_what_trusted_proxies_is_without_a_proxy():
    text = ENV_EXAMPLE.read_text()
    assert "TRIX_TRUSTED_PROXIES=0" in text and "X-Forwarded-For" in text


SECURITY = (
    "SECURE_SSL_REDIRECT SESSION_COOKIE_SECURE CSRF_COOKIE_SECURE SECURE_HSTS_SECONDS "
    "SECURE_HSTS_INCLUDE_SUBDOMAINS SECURE_HSTS_PRELOAD SECURE_PROXY_SSL_HEADER"
).split()


def _security(env: dict[str, str]) -> dict[str, object]:
    code = (
        "import json; from django.conf import settings as s; "
        f"print(json.dumps({{n: getattr(s, n) for n in {SECURITY!r}}}))"
    )
    done = _site({"DJANGO_SECRET_KEY": "k" * 60, **env}, code=code)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def test_https_settings_are_on_when_debug_is_off_and_each_can_be_set():
    on = _security({"DJANGO_DEBUG": "0"})
    assert on["SECURE_SSL_REDIRECT"] and on["SESSION_COOKIE_SECURE"] and on["CSRF_COOKIE_SECURE"]
    assert on["SECURE_HSTS_SECONDS"] == 31_536_000 and on["SECURE_PROXY_SSL_HEADER"] is None
    dev = _security({"DJANGO_DEBUG": "1"})
    assert not dev["SECURE_SSL_REDIRECT"] and not dev["SESSION_COOKIE_SECURE"]
    assert dev["SECURE_HSTS_SECONDS"] == 0
    plain = _security({"DJANGO_DEBUG": "0", "DJANGO_HTTPS": "0"})  # a benchmark over HTTP
    assert not plain["SECURE_SSL_REDIRECT"] and not plain["CSRF_COOKIE_SECURE"]
    one = _security(
        {
            "DJANGO_DEBUG": "0",
            "DJANGO_SECURE_SSL_REDIRECT": "0",
            "DJANGO_SECURE_HSTS_SECONDS": "3600",
            "DJANGO_SECURE_PROXY_SSL_HEADER": "X-Forwarded-Proto: https",
        }
    )
    assert not one["SECURE_SSL_REDIRECT"] and one["SESSION_COOKIE_SECURE"]
    assert one["SECURE_HSTS_SECONDS"] == 3600
    assert one["SECURE_PROXY_SSL_HEADER"] == ["HTTP_X_FORWARDED_PROTO", "https"]


def test_a_bad_security_value_stops_the_site_with_a_clear_message():
    for env, words in [
        ({"DJANGO_SECURE_HSTS_SECONDS": "a year"}, "DJANGO_SECURE_HSTS_SECONDS"),
        ({"DJANGO_SECURE_PROXY_SSL_HEADER": "https"}, "DJANGO_SECURE_PROXY_SSL_HEADER"),
        ({"DJANGO_LOG_LEVEL": "LOUD"}, "DJANGO_LOG_LEVEL"),
        ({"TRIX_MAX_STAKE": str(2**63)}, "TRIX_MAX_STAKE must be from 1 to 1000000000000"),
        ({"TRIX_DEMO_PAYMENT_LIMIT": str(10**13)}, "TRIX_DEMO_PAYMENT_LIMIT must be"),
    ]:
        done = _site({"DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": "k" * 60, **env}, "check")
        assert done.returncode != 0 and words in done.stderr, done.stderr[-1500:]


def test_each_reader_returns_the_default_when_unset_and_the_typed_value_when_set(monkeypatch):
    for name in ("T_INT", "T_FLOAT", "T_BOOL", "T_LIST", "T_LEVEL", "T_RATE", "T_HEADER"):
        monkeypatch.delenv(name, raising=False)
    assert reader.env_int("T_INT", 7) == 7 and reader.env_float("T_FLOAT", 2) == 2.0
    assert reader.env_bool("T_BOOL", True) is True and reader.env_list("T_LIST", "a, b,") == [
        "a",
        "b",
    ]
    assert reader.env_choice("T_LEVEL", "INFO", {"INFO"}) == "INFO"
    assert (
        reader.env_rate("T_RATE", "6/minute") == "6/minute"
        and reader.env_header("T_HEADER") is None
    )
    monkeypatch.setenv("T_INT", " 12 ")
    monkeypatch.setenv("T_FLOAT", "0.25")
    monkeypatch.setenv("T_BOOL", "Off")
    monkeypatch.setenv("T_LIST", "x,,y ")
    monkeypatch.setenv("T_LEVEL", "debug")
    monkeypatch.setenv("T_HEADER", "X-Forwarded-Proto: https")
    assert reader.env_int("T_INT", 7, minimum=12) == 12 and reader.env_float("T_FLOAT", 2) == 0.25
    assert reader.env_bool("T_BOOL", True) is False and reader.env_list("T_LIST") == ["x", "y"]
    assert reader.env_choice("T_LEVEL", "INFO", {"INFO", "DEBUG"}) == "DEBUG"
    assert reader.env_header("T_HEADER") == ("HTTP_X_FORWARDED_PROTO", "https")


@pytest.mark.parametrize(
    "value, read, message",
    [
        ("ten", lambda: reader.env_int("T_VAR", 1), "T_VAR must be a whole number, not 'ten'"),
        ("1.5", lambda: reader.env_int("T_VAR", 1), "T_VAR must be a whole number, not '1.5'"),
        ("0", lambda: reader.env_int("T_VAR", 1, minimum=1), "T_VAR must be at least 1, not '0'"),
        (
            "11",
            lambda: reader.env_int("T_VAR", 1, minimum=1, maximum=10, unit="tables"),
            "T_VAR must be from 1 to 10 tables, not '11'",
        ),
        (
            "5s",
            lambda: reader.env_seconds("T_VAR", 1),
            "T_VAR must be a number of seconds, not '5s'",
        ),
        (
            "-1",
            lambda: reader.env_seconds("T_VAR", 1),
            "T_VAR must be at least 0 seconds, not '-1'",
        ),
        ("nan", lambda: reader.env_float("T_VAR", 1), "T_VAR must be a finite number, not 'nan'"),
        ("maybe", lambda: reader.env_bool("T_VAR", False), "T_VAR must be 1 or 0"),
        ("LOUD", lambda: reader.env_choice("T_VAR", "A", {"A", "B"}), "T_VAR must be one of A, B"),
        (
            "10 per s",
            lambda: reader.env_rate("T_VAR", "1/s"),
            "T_VAR must be a rate like 10/second",
        ),
        ("https", lambda: reader.env_header("T_VAR"), "T_VAR must be a header and its value"),
        ("ab,cd", lambda: reader.env_keys("T_VAR"), "T_VAR must be 64 hex digits (32 bytes)"),
    ],
)
def test_a_bad_value_raises_an_error_naming_the_variable_and_the_value(
    monkeypatch, value, read, message
):
    monkeypatch.setenv("T_VAR", value)
    with pytest.raises(ImproperlyConfigured) as refused:
        read()
    assert str(refused.value).startswith(message), str(refused.value)


def test_a_key_is_drawn_once_where_debug_is_on_and_required_where_it_is_off(monkeypatch, tmp_path):
    monkeypatch.delenv("T_KEY", raising=False)
    drawn = reader.env_key("T_KEY", tmp_path / "key", draw=True)
    assert len(drawn) == 64 and reader.env_key("T_KEY", tmp_path / "key", draw=True) == drawn
    assert (tmp_path / "key").stat().st_mode & 0o777 == 0o600
    with pytest.raises(ImproperlyConfigured, match="T_KEY must be set when DJANGO_DEBUG is off"):
        reader.env_key("T_KEY", tmp_path / "other", draw=False)
    monkeypatch.setenv("T_KEY", "-----BEGIN PRIVATE KEY-----")
    assert reader.env_key("T_KEY", tmp_path / "key", draw=False, pem=True).startswith("-----BEGIN")
    with pytest.raises(ImproperlyConfigured, match="T_KEY must be 64 hex digits"):
        reader.env_key("T_KEY", tmp_path / "key", draw=False)


def test_a_value_the_settings_cannot_read_stops_the_site_naming_it():
    """Every number, switch and list of the settings is read by ``trix_site/env.py``: a typo
    stops the site with the variable's name and the value found, not a bare ValueError."""
    for env, words in [
        ({"TRIX_BOT_DELAY": "0,6"}, "TRIX_BOT_DELAY must be a number of seconds, not '0,6'"),
        ({"TRIX_MAX_LIVE_SEATS": "one"}, "TRIX_MAX_LIVE_SEATS must be a whole number"),
        ({"TRIX_SWEEP_SECONDS": "-5"}, "TRIX_SWEEP_SECONDS must be at least 0 seconds"),
        ({"TRIX_WORKER_TIMER": "maybe"}, "TRIX_WORKER_TIMER must be 1 or 0"),
        ({"EMAIL_PORT": "70000"}, "EMAIL_PORT must be from 1 to 65535, not '70000'"),
        ({"TRIX_SEED_OLD_KEYS": "ab" * 32 + ",cd"}, "TRIX_SEED_OLD_KEYS must be 64 hex digits"),
    ]:
        done = _site({"DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": "k" * 60, **env}, "check")
        assert done.returncode != 0, env
        assert f"ImproperlyConfigured: {words}" in done.stderr, done.stderr[-1500:]


FAILING_VIEW = """
import sys, types
import django
django.setup()
from django.test import Client, override_settings
from django.urls import path

def boom(request):
    raise ZeroDivisionError("the view's own error")

urls = types.ModuleType("boom_urls")
urls.urlpatterns = [path("boom/", boom)]
sys.modules["boom_urls"] = urls
with override_settings(ROOT_URLCONF="boom_urls", ALLOWED_HOSTS=["testserver"]):
    r = Client(raise_request_exception=False).get("/boom/", secure=True)
print("status", r.status_code)
"""


def test_a_server_error_is_logged_to_stderr_when_debug_is_off():
    """With ``DJANGO_DEBUG=0`` Django's default logging sends request errors only to the
    admins' mail (none configured): a 500 left no trace anywhere (issue 13, item 7)."""
    done = _site({"DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": "k" * 60}, code=FAILING_VIEW)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "status 500" in done.stdout
    assert "ERROR django.request" in done.stderr and "Internal Server Error: /boom/" in done.stderr
    assert "ZeroDivisionError: the view's own error" in done.stderr  # with its traceback
    quiet = _site(
        {"DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": "k" * 60, "DJANGO_LOG_LEVEL": "CRITICAL"},
        code=FAILING_VIEW,
    )
    assert "status 500" in quiet.stdout and "Internal Server Error" not in quiet.stderr


def test_our_apps_log_at_info_unless_the_environment_says_otherwise():
    code = (
        "import logging, django; django.setup(); "
        "print(logging.getLogger('games.live').getEffectiveLevel(), "
        "logging.getLogger('wallet').getEffectiveLevel(), "
        "logging.getLogger('django').getEffectiveLevel())"
    )
    done = _site({"DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": "k" * 60}, code=code)
    assert done.stdout.split() == ["20", "20", "30"], done.stderr[-1500:]
    done = _site(
        {"DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": "k" * 60, "TRIX_LOG_LEVEL": "WARNING"},
        code=code,
    )
    assert done.stdout.split() == ["30", "30", "30"], done.stderr[-1500:]


def _test_database_url(settings) -> str:
    """The URL of the database the tests run on (``test_…``): the probes' own processes."""
    db = settings.DATABASES["default"]
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    host = f"{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}"
    return f"postgres://{db['USER']}{password}@{host}/{db['NAME']}"


@pytest.fixture
def postgresql(settings, db):
    """The tests' PostgreSQL database, created whichever test runs first (the probes connect
    to it from another process: found by a review, run alone they found none)."""
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        pytest.skip("the pool is PostgreSQL's")


def _probe(code: str, settings, **env: str) -> str:
    """What ``code`` prints, run by a fresh interpreter on the site's settings (debug on), on
    the tests' database when it is PostgreSQL, without ``DATABASE_POOL``; ``env`` on top.
    Fails the test when the interpreter fails."""
    base = dict(os.environ, TRIX_SEED_KEY="5e" * 32, TRIX_SIGNING_KEY="51" * 32)
    base.update(DJANGO_SETTINGS_MODULE="trix_site.settings", DJANGO_DEBUG="1")
    base.pop("DATABASE_POOL", None)
    if settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        base["DATABASE_URL"] = _test_database_url(settings)
    base.update(env)
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=base, capture_output=True, text=True,
        timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip()


_POOL_PROBE = """
import threading
import django
django.setup()
from django.conf import settings
from django.db import connection, connections

def pid(out):
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        out.append(cursor.fetchone()[0])
    connections.close_all()  # what Django does at each request's end

pids = []
for _ in range(12):  # twelve requests, each in a thread of its own (as under ASGI)
    t = threading.Thread(target=pid, args=(pids,))
    t.start()
    t.join()
print(settings.DATABASES["default"].get("OPTIONS", {}).get("pool"), len(pids), len(set(pids)))
"""


def test_database_pool_lets_each_requests_thread_reuse_a_connection(settings, postgresql):
    """Under ASGI each request runs in a new thread: with ``DATABASE_POOL`` (set by
    ``trix_site/asgi.py``) the threads borrow one pooled PostgreSQL connection in turn;
    without it each thread connected anew (a persistent connection is per thread)."""
    pooled, requests, backends = _probe(_POOL_PROBE, settings, DATABASE_POOL="4").rsplit(" ", 2)
    assert pooled == "{'min_size': 2, 'max_size': 4, 'timeout': 3}"
    assert requests == "12" and 1 <= int(backends) <= 4  # the pool's four at most, reused
    unpooled = _probe(_POOL_PROBE, settings, DATABASE_CONN_MAX_AGE="60")
    assert unpooled == "None 12 12"


def test_the_asgi_entry_point_turns_the_pool_on_for_its_own_process_only(settings, postgresql):
    """``trix_site/asgi.py`` sets ``DATABASE_POOL`` for its own settings, then takes it out of
    the environment: a process started afterwards (a test run's worker, say) has no pool."""
    probe = (
        "import os; import trix_site.asgi; from django.conf import settings; "
        "print(settings.DATABASES['default']['OPTIONS']['pool']['max_size'], "
        "'DATABASE_POOL' in os.environ)"
    )
    assert _probe(probe, settings).split() == ["16", "False"]


_LONG_POLLS_PROBE = """
import threading, time
import django
django.setup()
from django.db import connection
from games.live import long_poll

waiting = threading.Barrier(4)

def poll(key):  # a long poll: it reads, then waits for its table's notification
    end = time.monotonic() + 3.0
    with long_poll.watch(key) as watch:
        connection.ensure_connection()
        waiting.wait()
        while watch.wait(0, end - time.monotonic()):
            connection.ensure_connection()  # it looks at its table again
    connection.close()

threads = [threading.Thread(target=poll, args=(900_000 + i,)) for i in range(3)]
for t in threads:
    t.start()
waiting.wait()
time.sleep(0.3)
began = time.monotonic()
with connection.cursor() as cursor:  # another request of the process
    cursor.execute("SELECT 1")
took = time.monotonic() - began
connection.close()
for t in threads:
    t.join()
print(f"{took:.2f}")
"""


def test_waiting_long_polls_give_their_pooled_connection_back(settings, postgresql):
    """Found by a review: a long poll held its pooled connection while it waited, so a pool's
    worth of long polls made every other request of the process wait for one (then 503).
    Three long polls waiting in a pool of three: another request gets a connection at once."""
    assert float(_probe(_LONG_POLLS_PROBE, settings, DATABASE_POOL="3")) < 0.5


def test_the_web_process_freezes_what_it_loaded_out_of_the_collectors_way(settings):
    """``trix_site.heap``: the ASGI entry point loads the URLconf and its views, then freezes
    every object tracked (a full collection no longer visits them: it stopped a web process
    for 115-152 ms on the benchmarks' machine), and spaces its collections out (its streams'
    objects made a full collection long and frequent); the workers freeze in each process."""
    probe = (
        "import gc, sys; import trix_site.asgi; "
        "print(gc.get_freeze_count(), 'games.api.views' in sys.modules, *gc.get_threshold())"
    )
    frozen, views_loaded, *thresholds = _probe(probe, settings).split()
    assert int(frozen) > 100_000 and views_loaded == "True"
    # and it collects less often: a full collection of its streams' objects is long (a fresh
    # interpreter has Python's defaults; this one may not, once a live server loaded asgi)
    assert tuple(map(int, thresholds)) == heap.WEB_THRESHOLDS
    assert _probe("import gc; print(*gc.get_threshold())", settings).split() != thresholds
    from celery.signals import worker_init, worker_process_init

    from trix_site import celery as site_celery

    for signal in (worker_init, worker_process_init):
        assert any(r[1]() is site_celery._freeze_loaded for r in signal.receivers)


_POOL_FULL_PROBE = """
import threading
import django
django.setup()
from django.conf import settings
from django.db import connection
from django.test import Client

settings.DATABASES["default"]["OPTIONS"]["pool"]["timeout"] = 1
held = threading.Event()
done = threading.Event()

def hold():  # another request's thread holds the pool's only connection
    connection.ensure_connection()
    held.set()
    done.wait(30)
    connection.close()

t = threading.Thread(target=hold)
t.start()
held.wait(10)
r = Client().get("/api/tables/", secure=True)
done.set()
t.join()
print(r.status_code, r["Retry-After"], r.json()["code"])
"""


def test_a_request_finding_the_pool_full_answers_503_not_500(settings, postgresql):
    """No free connection in the process's pool within its timeout: a clear 503 with
    ``Retry-After`` (``trix_site.middleware``), never a 500."""
    out = _probe(
        _POOL_FULL_PROBE, settings, DATABASE_POOL="1", DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY="x" * 50, DJANGO_ALLOWED_HOSTS="testserver",
    )  # fmt: skip
    assert out.split() == ["503", "5", "unavailable"]


_DEAD_CONNECTION_PROBE = """
import django
django.setup()
import psycopg
from django.db import connection, connections
from django.test import Client

with connection.cursor() as cursor:  # a request borrows the pool's one connection
    cursor.execute("SELECT pg_backend_pid()")
    pid = cursor.fetchone()[0]
connections.close_all()  # and gives it back at its end
with psycopg.connect(**connection.get_connection_params()) as other:
    other.execute("SELECT pg_terminate_backend(%s)", [pid])  # the server drops it meanwhile
print(*(Client(raise_request_exception=False).get("/api/tables/", secure=True).status_code
        for _ in range(3)))
"""


def test_a_pooled_connection_the_server_dropped_is_replaced_not_a_500(settings, postgresql):
    """Found by a review: the pool handed out a connection PostgreSQL had dropped (a restart,
    a failover, an idle timeout), and the request failed with a 500; each borrowed connection
    is now checked first (``CONN_HEALTH_CHECKS``) and a dead one replaced."""
    out = _probe(
        _DEAD_CONNECTION_PROBE, settings, DATABASE_POOL="1", DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY="x" * 50, DJANGO_ALLOWED_HOSTS="testserver",
    )  # fmt: skip
    assert out.split() == ["200", "200", "200"]
