"""Django settings for trix_site.

Everything comes from environment variables with working defaults. The embedded
default (no variables set) keeps data in ``var/``: SQLite for the database and a
SQLite-backed Celery broker, so ``./dev run`` needs no server. Production sets:

- ``DATABASE_URL``: e.g. ``postgres://user:pass@host:5432/trix`` (psycopg 3)
- ``CELERY_BROKER_URL``: e.g. ``redis://host:6379/0`` or ``amqp://guest:guest@host:5672//``
- ``DJANGO_SECRET_KEY`` and ``DJANGO_ALLOWED_HOSTS`` (``DEBUG`` is off unless
  ``DJANGO_DEBUG=1``; ``./dev run`` sets it)
- ``TRIX_SEED_KEY`` and ``TRIX_SIGNING_KEY`` (64 hex digits each; the signing key may be PEM):
  the keys sealing the shuffle secrets and signing the match receipts, kept outside the
  database (the embedded default draws them into ``var/``)
- ``TRIX_CACHE_URL``: e.g. ``redis://host:6379/1``, so every limit counts across processes
  (the login lockout, the API's rate limits, the long polls per client: docs/limits.md); if
  that Redis is down the limits are not counted and requests go on (``redis_cache`` below)
- ``TRIX_VAR_DIR``: a writable directory (the beat's schedule file), e.g. ``/var/lib/trix``
- ``EMAIL_HOST`` and the other ``EMAIL_*`` settings (or ``EMAIL_BACKEND``): where mail goes;
  ``check --deploy`` fails without them when ``DEBUG`` is off (``accounts/checks.py``)

``deploy/trix.env.example`` is such an environment for the systemd units of ``deploy/systemd``
(docs/operations.md). ``/health/`` (``trix_site/health.py``) reports the database, the broker
and the age of the beat's last sweep (``TRIX_HEALTH_SWEEP_MAX_AGE``).

Every ``TRIX_*`` setting is declared here with its default and meaning; code reads them as
``settings.TRIX_…`` (no hidden defaults elsewhere). The tests run on ``settings_test``.
"""

import os
import re
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from kombu import Exchange, Queue

from wallet.inputs import MAX_AMOUNT as _MAX_AMOUNT

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("TRIX_VAR_DIR", BASE_DIR / "var"))
VAR_DIR.mkdir(parents=True, exist_ok=True)


def _env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


# Off unless the environment turns it on (``./dev run`` exports DJANGO_DEBUG=1).
DEBUG = _env_bool("DJANGO_DEBUG", False)
_secret = os.environ.get("DJANGO_SECRET_KEY")
if not _secret:
    if not DEBUG:
        raise RuntimeError("DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off")
    # Development only: a per-checkout key kept out of the repository.
    key_file = VAR_DIR / "secret_key"
    if not key_file.exists():
        import secrets

        key_file.write_text(secrets.token_urlsafe(50))
    _secret = key_file.read_text().strip()
SECRET_KEY = _secret


def _site_key(name: str, file_name: str) -> str:
    """A key held outside the database: the environment variable ``name``; without it the
    embedded default (``DEBUG`` on) draws 32 random bytes once into ``VAR_DIR/file_name``
    (mode 0600, beside the SQLite database) and reads them back; a site with ``DEBUG`` off
    refuses to start without it."""
    value = os.environ.get(name, "").strip()
    if value:
        return value
    if not DEBUG:
        raise ImproperlyConfigured(
            f"{name} must be set when DJANGO_DEBUG is off (64 hex digits; see "
            "docs/operations.md): without it the site would have no key for its shuffle "
            "secrets and receipts"
        )
    path = VAR_DIR / file_name
    if not path.exists():
        import secrets

        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w") as out:
            out.write(secrets.token_hex(32) + "\n")
    return path.read_text().strip()


# The key sealing the shuffle and draw secrets in the database (AES-256-GCM, games/sealing.py):
# 64 hex digits (32 bytes), held outside the database. Keys retired by a rotation stay in
# TRIX_SEED_OLD_KEYS (comma-separated, 64 hex each) until every secret is sealed anew
# (`manage.py reseal_secrets`); each sealed secret names the id of the key that sealed it.
TRIX_SEED_KEY = _site_key("TRIX_SEED_KEY", "seed_key")
TRIX_SEED_OLD_KEYS = [
    k.strip() for k in os.environ.get("TRIX_SEED_OLD_KEYS", "").split(",") if k.strip()
]
for _name, _key in [("TRIX_SEED_KEY", TRIX_SEED_KEY)] + [
    ("TRIX_SEED_OLD_KEYS", k) for k in TRIX_SEED_OLD_KEYS
]:
    if not re.fullmatch(r"[0-9a-fA-F]{64}", _key):
        raise ImproperlyConfigured(f"{_name} must be 64 hex digits (32 bytes)")
# The site's Ed25519 signing key (match receipts, the transparency log's head;
# games/signing.py): PEM (PKCS#8) or 64 hex digits (the raw private key). Its public key is
# published at /fairness/public-key.json.
TRIX_SIGNING_KEY = _site_key("TRIX_SIGNING_KEY", "signing_key")
if not (
    re.fullmatch(r"[0-9a-fA-F]{64}", TRIX_SIGNING_KEY) or TRIX_SIGNING_KEY.startswith("-----BEGIN")
):  # a PEM is parsed by the games app's system check (games/checks.py)
    raise ImproperlyConfigured("TRIX_SIGNING_KEY must be 64 hex digits or a PEM Ed25519 key")
ALLOWED_HOSTS = [
    h.strip()
    for h in os.environ.get("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]").split(",")
    if h.strip()
]
CSRF_TRUSTED_ORIGINS = [
    o.strip() for o in os.environ.get("DJANGO_CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()
]


# HTTPS (issue 13): on by default where DEBUG is off, since production is served over TLS
# (a proxy in front of gunicorn ends TLS). DJANGO_HTTPS=0 turns the defaults off for a
# site served over plain HTTP (the benchmarks, a local DEBUG-off run); each setting is also
# its own DJANGO_<NAME> variable. `manage.py check --deploy` is clean with the
# production environment of docs/operations.md (tests/test_settings.py).
_HTTPS = _env_bool("DJANGO_HTTPS", not DEBUG)
SECURE_SSL_REDIRECT = _env_bool("DJANGO_SECURE_SSL_REDIRECT", _HTTPS)  # http:// -> https://
SESSION_COOKIE_SECURE = _env_bool("DJANGO_SESSION_COOKIE_SECURE", _HTTPS)
CSRF_COOKIE_SECURE = _env_bool("DJANGO_CSRF_COOKIE_SECURE", _HTTPS)
# Strict-Transport-Security max-age in seconds (0: no header); a year where HTTPS is on.
# Subdomains and preload are for the operator to decide (every host under the domain must
# be HTTPS-only; a preload-list entry is hard to undo): off unless set to 1.
_hsts = os.environ.get("DJANGO_SECURE_HSTS_SECONDS", "31536000" if _HTTPS else "0")
if not _hsts.isdigit():
    raise RuntimeError(f"DJANGO_SECURE_HSTS_SECONDS must be whole seconds, not {_hsts!r}")
SECURE_HSTS_SECONDS = int(_hsts)
SECURE_HSTS_INCLUDE_SUBDOMAINS = _env_bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = _env_bool("DJANGO_SECURE_HSTS_PRELOAD", False)
# The header by which the proxy in front says a request came over HTTPS, "Name: value"
# (e.g. "X-Forwarded-Proto: https"); only set it if that proxy always sets or strips it.
# Unset, Django sees the proxy's plain HTTP and SECURE_SSL_REDIRECT would loop.
_proxy = os.environ.get("DJANGO_SECURE_PROXY_SSL_HEADER", "").strip()
SECURE_PROXY_SSL_HEADER = None
if _proxy:
    _name, _sep, _value = (part.strip() for part in _proxy.partition(":"))
    if not (_sep and re.fullmatch(r"[A-Za-z0-9-]+", _name) and _value):
        raise RuntimeError(
            "DJANGO_SECURE_PROXY_SSL_HEADER must look like 'X-Forwarded-Proto: https', "
            f"not {_proxy!r}"
        )
    SECURE_PROXY_SSL_HEADER = ("HTTP_" + _name.upper().replace("-", "_"), _value)

# Logging (issue 13): everything to stderr, where gunicorn, Celery and a service manager
# collect it. Django's default sent request errors (a 500's traceback) only to the admins'
# mail under DEBUG off, so they were logged nowhere. DJANGO_LOG_LEVEL sets Django's loggers
# (WARNING: 4xx answers and every 500 with its traceback), TRIX_LOG_LEVEL the site's apps.
_LEVELS = {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}
DJANGO_LOG_LEVEL = os.environ.get("DJANGO_LOG_LEVEL", "WARNING").upper()
TRIX_LOG_LEVEL = os.environ.get("TRIX_LOG_LEVEL", "INFO").upper()
for _var, _level in (("DJANGO_LOG_LEVEL", DJANGO_LOG_LEVEL), ("TRIX_LOG_LEVEL", TRIX_LOG_LEVEL)):
    if _level not in _LEVELS:
        raise RuntimeError(f"{_var} must be one of {', '.join(sorted(_LEVELS))}, not {_level!r}")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "line": {"format": "{asctime} {levelname} {name} [{process}] {message}", "style": "{"}
    },
    "handlers": {
        "stderr": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stderr",
            "formatter": "line",
        }
    },
    # Our loggers and Django's pass their records up to the root's one handler.
    "root": {"handlers": ["stderr"], "level": "WARNING"},
    "loggers": {
        "django": {"handlers": [], "level": DJANGO_LOG_LEVEL},
        **{
            app: {"handlers": [], "level": TRIX_LOG_LEVEL}
            for app in ("accounts", "games", "tournaments", "wallet", "web", "trix_site")
        },
    },
}

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI's files served as our static files (/api/docs/)
    "allauth",
    "allauth.account",
    "accounts",
    "web",
    "games",
    "wallet",
    "tournaments",
    "ratings",
    "responsible",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "trix_site.middleware.ServiceUnavailableMiddleware",  # broker / Redis down: 503, not 500
    "games.api.middleware.ApiErrorsMiddleware",  # JSON 404 / 413 under /api/
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "games.api.middleware.ReadLimitMiddleware",  # API reads per session and per address
    "django.contrib.messages.middleware.MessageMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "trix_site.middleware.one_thread_middleware",  # last: the chain runs in one thread (ASGI)
]

ROOT_URLCONF = "trix_site.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "trix_site" / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "web.context_processors.site",
            ],
        },
    },
]

WSGI_APPLICATION = "trix_site.wsgi.application"

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{VAR_DIR / 'db.sqlite3'}"),
        conn_max_age=int(os.environ.get("DATABASE_CONN_MAX_AGE", "0")),
    )
}

# DATABASE_POOL=N (PostgreSQL): each process keeps a pool of at most N connections
# (psycopg_pool, Django's "pool" option) and a request borrows one, instead of a persistent
# connection per thread (DATABASE_CONN_MAX_AGE, then ignored). The ASGI server sets it
# (trix_site/asgi.py): there every request's synchronous part runs in a thread of its own, so
# a thread's persistent connection was never used again and each request connected anew
# (Django's docs: "When using ASGI, persistent connections should be disabled. Instead, use
# your database backend's built-in connection pooling"). Web processes only (the workers keep
# theirs): do not put it in the environment the workers share. Size it within max_connections:
# web processes x (N + 2 listeners), plus one per worker process.
DATABASE_POOL = int(os.environ.get("DATABASE_POOL", "0"))
if DATABASE_POOL and DATABASES["default"]["ENGINE"].endswith("postgresql"):
    DATABASES["default"]["CONN_MAX_AGE"] = 0  # Django refuses a pool beside persistent ones
    # Each connection is checked as it is borrowed (one round trip) and replaced if the server
    # dropped it (a restart, a failover, an idle timeout): a dead one was a 500 (a review).
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": min(2, DATABASE_POOL),
        "max_size": DATABASE_POOL,
        "timeout": 3,  # seconds a request waits for a free connection, then a 503
    }

if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # The embedded default has a web process and a worker writing at once: take the write
    # lock when a transaction starts (no "database is locked" when a reader upgrades), let
    # readers go on during a write (WAL), and wait for the lock rather than fail at once.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Accounts (django-allauth): username or email to log in, a display name shown at tables.
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
ACCOUNT_SIGNUP_FORM_CLASS = "accounts.forms.SignupForm"
ACCOUNT_USER_DISPLAY = "accounts.selectors.display_name"  # allauth messages greet by it
ACCOUNT_EMAIL_VERIFICATION = os.environ.get("ACCOUNT_EMAIL_VERIFICATION", "optional")
ACCOUNT_LOGOUT_REDIRECT_URL = "/"
# Reverse proxies in front of the site that append the client's address to X-Forwarded-For
# (0: none, the address is the connection's). Every limit per address reads the address this
# way: the login lockout (allauth) and the API's throttles and long-poll cap (DRF's
# NUM_PROXIES); a client's own X-Forwarded-For is never trusted beyond it.
TRIX_TRUSTED_PROXIES = int(os.environ.get("TRIX_TRUSTED_PROXIES", "0"))
ALLAUTH_TRUSTED_PROXY_COUNT = TRIX_TRUSTED_PROXIES
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "/"
# E-mail (sign-up confirmations, password resets): Django's settings, from the environment.
# With DEBUG on (./dev run) mail is printed to the console; with DEBUG off it is sent by SMTP
# to EMAIL_HOST, or by another EMAIL_BACKEND (a provider's, a dotted path). `check --deploy`
# fails (accounts.E001, accounts/checks.py) while mail would reach nobody: a console, memory,
# file or dummy backend, or SMTP without EMAIL_HOST (deploy/trix.env.example shows them).
EMAIL_BACKEND = os.environ.get(
    "EMAIL_BACKEND",
    "django.core.mail.backends.console.EmailBackend"
    if DEBUG
    else "django.core.mail.backends.smtp.EmailBackend",
)
EMAIL_HOST = os.environ.get("EMAIL_HOST", "").strip()  # empty: none configured
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = _env_bool("EMAIL_USE_TLS", True)  # STARTTLS on port 587
EMAIL_USE_SSL = _env_bool("EMAIL_USE_SSL", False)  # TLS from the start (port 465)
if EMAIL_USE_TLS and EMAIL_USE_SSL:
    raise ImproperlyConfigured("EMAIL_USE_TLS and EMAIL_USE_SSL: set one of them, not both")
# Seconds a send may wait for the mail server (Django's default: for ever, holding a request).
EMAIL_TIMEOUT = float(os.environ.get("EMAIL_TIMEOUT", "10"))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Trix <noreply@localhost>")
SERVER_EMAIL = os.environ.get("SERVER_EMAIL", DEFAULT_FROM_EMAIL)  # mail to the admins

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("ar", "العربية")]
TIME_ZONE = "UTC"
USE_I18N = True
# The site's own translations (trix_site/locale/<lang>/LC_MESSAGES: django.po for Python and
# templates, djangojs.po for the scripts, served by /jsi18n/); shipped as package data.
LOCALE_PATHS = [BASE_DIR / "trix_site" / "locale"]
# The language comes from the cookie set by the header's switch (Django's set_language view at
# /i18n/setlang/), else from the browser's Accept-Language (LocaleMiddleware); kept a year.
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
# Numbers in both languages use Western digits with "." for decimals and "," for thousands
# (trix_site/formats/ar overrides Django's Arabic "," / "."): docs/i18n.md, "Numbers and money".
FORMAT_MODULE_PATH = ["trix_site.formats"]
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "trix_site.storage.StaticStorage"
        )
    },
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"


def _env_rate(name: str, default: str) -> str:
    """A rate of DRF's throttles from the environment: "N/second", "N/minute", "N/hour"..."""
    value = os.environ.get(name, default)
    if not re.fullmatch(r"[0-9]+/(s|m|h|d)[a-z]*", value):
        raise RuntimeError(f"{name} must look like 10/second or 6/minute, not {value!r}")
    return value


# Rate limits per user (per address when logged out), DRF throttles (games/api/throttles.py:
# each reads its rate here; 429 "throttled" with Retry-After above it). Counted in the cache:
# per process unless TRIX_CACHE_URL names a shared Redis.
# The most actions one user may post (far above a person's clicks; stops a client flooding
# the workers); tournaments' writes are counted apart at the same rate.
TRIX_ACTION_RATE = _env_rate("TRIX_ACTION_RATE", "10/second")
# Staff writes of tournaments one staff member may post (create, edit, open, start, pause,
# resume, cancel, disqualify: /api/tournaments/...), counted apart from the players' writes.
TRIX_STAFF_ACTION_RATE = _env_rate("TRIX_STAFF_ACTION_RATE", "60/minute")
# Reads of the API (GET and HEAD under /api/: the long polls, the streams' connections, every
# other read; games/api/middleware.py: ReadLimitMiddleware) one session may make (per address
# when it has none), and one address may make, its sessions together (many players share an
# address behind a carrier's NAT). Writes are not counted here (their own rates below).
TRIX_READ_RATE = _env_rate("TRIX_READ_RATE", "20/second")
TRIX_READ_ADDRESS_RATE = _env_rate("TRIX_READ_ADDRESS_RATE", "100/second")
# Tables one user may create (POST /api/tables/, the lobby's form).
TRIX_TABLE_CREATE_RATE = _env_rate("TRIX_TABLE_CREATE_RATE", "10/minute")
# Seats one user may take or leave, counted together (every sit and leave at a staked table
# writes a ledger transaction).
TRIX_SEAT_RATE = _env_rate("TRIX_SEAT_RATE", "30/minute")
# The most open tables (waiting for players) one creator may have; tournament tables are not
# counted (the tournament creates them, already playing).
TRIX_MAX_OPEN_TABLES = int(os.environ.get("TRIX_MAX_OPEN_TABLES", "5"))
# The most live seats one person holds: seats at tables whose match has not ended (waiting or
# playing; quick play, sit, create and tournament tables alike; games.services.live_seats).
# 1: one absent player spoils a four-seat match for three. 0: no limit.
TRIX_MAX_LIVE_SEATS = int(os.environ.get("TRIX_MAX_LIVE_SEATS", "1"))
# Seconds an open table may wait for its four seats: after that the beat cancels it and
# refunds every stake (games.services.expire_open_tables, every TRIX_EXPIRY_SWEEP_SECONDS).
TRIX_OPEN_TABLE_EXPIRY = float(os.environ.get("TRIX_OPEN_TABLE_EXPIRY", "1800"))
# Seconds an open table may stay empty (no seat taken by a person or a bot; its creator is
# not seated by creating it) before the same beat cancels it.
TRIX_EMPTY_TABLE_EXPIRY = float(os.environ.get("TRIX_EMPTY_TABLE_EXPIRY", "180"))
TRIX_EXPIRY_SWEEP_SECONDS = float(os.environ.get("TRIX_EXPIRY_SWEEP_SECONDS", "60"))
# A rematch (games.services.rematch): seconds after a match ends that its players may propose
# one, and seconds the rematch table holds each person's seat for them to accept (sit).
TRIX_REMATCH_WINDOW = float(os.environ.get("TRIX_REMATCH_WINDOW", "600"))
TRIX_REMATCH_HOLD = float(os.environ.get("TRIX_REMATCH_HOLD", "180"))
# Tables per page of GET /api/tables/ and the lobby (?page=N).
TRIX_TABLES_PAGE_SIZE = int(os.environ.get("TRIX_TABLES_PAGE_SIZE", "50"))


def redis_cache(url: str) -> dict:
    """The cache of ``TRIX_CACHE_URL`` (``redis://host:6379/1``): django-redis with its errors
    ignored (and logged; ``trix_site.cache``), so a cache outage degrades what the cache holds
    (rate-limit counts: DRF's throttles, allauth's login and sign-up limits) instead of failing
    or refusing the request; a dead cache answers within ``TRIX_CACHE_TIMEOUT`` seconds."""
    return {
        "BACKEND": "trix_site.cache.RedisCache",
        "LOCATION": url,
        "OPTIONS": {
            "IGNORE_EXCEPTIONS": True,
            "SOCKET_CONNECT_TIMEOUT": TRIX_CACHE_TIMEOUT,
            "SOCKET_TIMEOUT": TRIX_CACHE_TIMEOUT,
        },
    }


# Seconds a cache operation may wait for a Redis that does not answer (then: a miss).
TRIX_CACHE_TIMEOUT = float(os.environ.get("TRIX_CACHE_TIMEOUT", "0.5"))
DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS = True  # a cache outage is logged, never raised
if os.environ.get("TRIX_CACHE_URL"):  # e.g. redis://host:6379/1; else Django's local memory
    CACHES = {"default": redis_cache(os.environ["TRIX_CACHE_URL"])}
REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # The login form's session only (issue 13): the form is the one place a password is
    # checked, so its lockout (allauth's "login_failed" rate limit, per address and account)
    # covers every login. HTTP Basic checked passwords beside it, never limited, and hashed
    # the password again on every request.
    "DEFAULT_AUTHENTICATION_CLASSES": ["rest_framework.authentication.SessionAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "EXCEPTION_HANDLER": "games.api.errors.api_exception_handler",
    # DRF's default parsers, with JSON nested too deeply or holding a lone surrogate
    # escape answered 400 (not a 500).
    "DEFAULT_PARSER_CLASSES": [
        "games.api.parsers.SafeJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "NUM_PROXIES": TRIX_TRUSTED_PROXIES,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Trix API",
    "DESCRIPTION": "Tables, seats, actions, wallets and deal verification for Trix.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,  # the schema describes the API, not its own endpoint
    # /api/docs/ from the site's own static files (drf-spectacular-sidecar, pinned with the
    # package): no CDN, so it works offline and shows the Swagger UI version we tested.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Swagger UI's default validatorUrl sends the schema to validator.swagger.io: none.
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "validatorUrl": None},
    # A table's status is one enum wherever it is answered (a table, a rematch's table).
    "ENUM_NAME_OVERRIDES": {"TableStatusEnum": ["open", "playing", "finished", "cancelled"]},
}

# The longest timer a table may set, in seconds (a staked table must set all three).
TRIX_MAX_TIMER = int(os.environ.get("TRIX_MAX_TIMER", "3600"))

# Celery: the engine's state changes run in workers.
CELERY_BROKER_URL = os.environ.get(
    "CELERY_BROKER_URL", f"sqla+sqlite:///{VAR_DIR / 'celery-broker.sqlite3'}"
)
# The embedded default (a SQLite file, kombu's SQLAlchemy transport; `sqla+sqlite://` URLs)
# is polled every TRIX_BROKER_POLL seconds by the worker, not kombu's 1 s (trix_site/broker.py):
# a move reaches the worker within that (issue 14; benchmarks/embedded_latency.py).
TRIX_BROKER_POLL = float(os.environ.get("TRIX_BROKER_POLL", "0.05"))
if CELERY_BROKER_URL.startswith("sqla+sqlite://"):
    CELERY_BROKER_URL = CELERY_BROKER_URL.removeprefix("sqla+")
    CELERY_BROKER_TRANSPORT = "trix_site.broker:SQLiteTransport"
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Celery's Django fixup closes the database connection before and after every task unless
# this is set (a new PostgreSQL connection per task). Workers keep theirs instead and
# close it, like a request, when it is older than DATABASE_CONN_MAX_AGE or broken
# (trix_site/celery.py).
CELERY_DB_REUSE_MAX = 1_000_000 if DATABASES["default"].get("CONN_MAX_AGE") else None
CELERY_TASK_ALWAYS_EAGER = _env_bool("CELERY_TASK_ALWAYS_EAGER", False)
# Task priorities: a tournament's tasks (a table's result recorded, the next round opened:
# tournaments/dispatch.py) go ahead of the tables' wake-ups and actions, so a round's advance
# does not wait behind the bots' turns of every table still playing (issue 11: the next round
# open within 1 s of the last table ending; docs/tournaments.md, "Running it"). On Redis,
# kombu keeps one list per priority step of a queue (its key: the queue's name, then `sep`
# and the step, none for step 0) and a worker's BRPOP names them in step order, so it takes
# from the first non-empty list: a lower number goes first, 0 the first of all. A priority
# counts as the highest step at or below it. The steps and `sep` written out are kombu's
# defaults (changing them renames the lists holding queued messages). One queue per worker,
# so no `queue_order_strategy` is needed (it orders a worker's queues, not the priorities
# within one). The options are set for a Redis broker only: the SQLite broker of `./dev run`
# (kombu's SQLAlchemy transport) hands its transport options to `create_engine`, which
# refuses these; it ignores priorities (first in, first out), as RabbitMQ does without
# `x-max-priority` (with it, RabbitMQ's would run the other way: 9 first). A message a worker
# already holds (a wake-up with a countdown waits in the worker) keeps its place: the
# priority orders what is still waiting in the broker.
#
# Surviving a broker restart (issue 13, item 2; docs/operations.md): the worker reconnects for
# ever (Celery's default gives up after 100 attempts and the worker exits), and a connection
# that went silent is found by redis-py's and kombu's health checks (kombu 5.7 checks the
# BRPOP connection too) and by the socket timeouts, then dropped and made anew, instead of a
# consumer waiting on it for ever. The visibility timeout (how long a message taken but not
# acknowledged stays invisible before Redis hands it out again) is longer than the longest
# countdown a wake-up can have (TRIX_MAX_TIMER), so a wake-up held by a live worker is not
# delivered twice; messages lost with a worker or with Redis itself are re-sent sooner by the
# beat's sweep (TRIX_SWEEP_LATE). A send after a commit that finds no broker does not fail the
# request (games/services/dispatch.py: on_commit robust); the sweep re-sends it. redis-py does
# not retry a command itself (no `retry_on_timeout`): a lost connection reaches the worker's
# consumer, which reconnects it. With the retry, a read of the worker's pub/sub connection
# (gossip, remote control) that found Redis restarted reconnected in place and then waited for
# a message that never came, blocking the worker's only thread for ever
# (tests/test_broker_outage.py). Sends are retried by CELERY_TASK_PUBLISH_RETRY_POLICY; an ack
# that finds Redis gone still frees its prefetch slot (trix_site/broker.py: RedisQoS).
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None  # reconnect for ever, never exit
# Seconds one attempt to connect to the broker may take (sends, workers, /health/'s check).
TRIX_BROKER_TIMEOUT = float(os.environ.get("TRIX_BROKER_TIMEOUT", "2"))
CELERY_BROKER_CONNECTION_TIMEOUT = TRIX_BROKER_TIMEOUT
# A send tries three times, 0.3 s apart, then gives up (after a commit: logged, and the sweep
# re-sends): a request waits at most about 3 x TRIX_BROKER_TIMEOUT on a broker that is down
# (a refused connection fails at once).
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 2,
    "interval_start": 0,
    "interval_step": 0.3,
    "interval_max": 0.5,
}
if CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
    CELERY_BROKER_TRANSPORT = "trix_site.broker:RedisTransport"  # its client kept
if CELERY_BROKER_URL.startswith(("redis://", "rediss://", "redis+socket://")):
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "priority_steps": [0, 3, 6, 9],
        "sep": "\x06\x16",
        "visibility_timeout": max(3600, TRIX_MAX_TIMER + 600),
        "health_check_interval": 10,
        "socket_connect_timeout": TRIX_BROKER_TIMEOUT,
        "socket_timeout": 15,  # above the 1 s BRPOP wait and the health check's interval
        "socket_keepalive": True,
    }
CELERY_TASK_DEFAULT_PRIORITY = 6  # every task not sent with its own priority
TRIX_TOURNAMENT_TASK_PRIORITY = 0  # tournaments/dispatch.py: ahead of the tables' tasks

# Money: integer minor units of one currency per deployment.
TRIX_CURRENCY = os.environ.get("TRIX_CURRENCY", "USD")
# Digits after the decimal point of TRIX_CURRENCY (2: 12345 minor units print "123.45 USD").
TRIX_CURRENCY_DECIMALS = int(os.environ.get("TRIX_CURRENCY_DECIMALS", "2"))
# The payment provider's class (wallet.payments.PaymentProvider), a dotted path.
TRIX_PAYMENT_PROVIDER = os.environ.get("TRIX_PAYMENT_PROVIDER", "wallet.payments.DemoProvider")
# The largest amount the demo provider collects or pays out at once (minor units).
TRIX_DEMO_PAYMENT_LIMIT = int(os.environ.get("TRIX_DEMO_PAYMENT_LIMIT", "1000000"))
# The largest stake per seat a table may ask (minor units; default 10,000.00).
TRIX_MAX_STAKE = int(os.environ.get("TRIX_MAX_STAKE", "1000000"))
# Both within what one ledger amount may be (wallet.inputs.MAX_AMOUNT, a plain constant).
for _name in ("TRIX_MAX_STAKE", "TRIX_DEMO_PAYMENT_LIMIT"):
    if not 0 < globals()[_name] <= _MAX_AMOUNT:
        raise RuntimeError(
            f"{_name} must be from 1 to {_MAX_AMOUNT} minor units (wallet.inputs.MAX_AMOUNT)"
        )
# The wallet page's demo deposit/withdraw forms (wallet.payments.DemoProvider: no real money).
# On by default where DEBUG is (./dev run); a production site (DJANGO_DEBUG=0) turns it off.
TRIX_DEMO_PAYMENTS = _env_bool("TRIX_DEMO_PAYMENTS", DEBUG)

# Identity (accounts app, docs/accounts.md). The identity-verification provider's class
# (accounts.kyc.KycProvider), a dotted path; the demo one verifies at once and checks nothing.
TRIX_KYC_PROVIDER = os.environ.get("TRIX_KYC_PROVIDER", "accounts.kyc.DemoKycProvider")
# An unverified account may withdraw up to this many minor units in all over the last
# TRIX_KYC_WITHDRAW_DAYS days, a rolling window (default 2,000.00 in 30 days: the EU's
# anti-money-laundering threshold for gambling transactions, which counts transactions that
# appear linked as one; docs/accounts.md); staking always needs a verified account.
TRIX_KYC_WITHDRAW_ABOVE = int(os.environ.get("TRIX_KYC_WITHDRAW_ABOVE", "200000"))
TRIX_KYC_WITHDRAW_DAYS = int(os.environ.get("TRIX_KYC_WITHDRAW_DAYS", "30"))
# The key of the seats' address hashes (HMAC-SHA256; games.services.tables): set it to keep
# the hashes apart from DJANGO_SECRET_KEY; empty: derived from the secret key under a label
# of its own (django.utils.crypto.salted_hmac). Rotating it only forgets open tables' hashes.
TRIX_ADDRESS_SALT = os.environ.get("TRIX_ADDRESS_SALT", "").strip()
# Two seats at one staked table from one IP address: refused unless this is on (on by
# default where DEBUG is: a local demo's players all share 127.0.0.1).
TRIX_SAME_ADDRESS_SEATS = _env_bool("TRIX_SAME_ADDRESS_SEATS", DEBUG)

# Tables (games app): timers are the server's. Production runs `celery beat` once and any
# number of workers; `./dev run` starts one worker with an embedded beat (-B).
TRIX_BOT_DELAY = float(os.environ.get("TRIX_BOT_DELAY", "0.6"))  # seconds a bot "thinks"
TRIX_DEAL_PAUSE = float(os.environ.get("TRIX_DEAL_PAUSE", "2.0"))  # seconds between deals
TRIX_FORCED_DELAY = float(os.environ.get("TRIX_FORCED_DELAY", "0.8"))  # auto_play_forced
# Seconds an away seat's turn waits before its default action (games/services/presence.py).
TRIX_AWAY_DELAY = float(os.environ.get("TRIX_AWAY_DELAY", "1.0"))
# Timeouts in a row that mark a human seat away (issue 14: "missed two turns in a row");
# 0 never marks anyone away.
TRIX_AWAY_AFTER = int(os.environ.get("TRIX_AWAY_AFTER", "2"))
TRIX_TIMER_SCALE = float(os.environ.get("TRIX_TIMER_SCALE", "1.0"))  # tests shrink timers
TRIX_SWEEP_SECONDS = float(os.environ.get("TRIX_SWEEP_SECONDS", "5"))  # lost-timer sweep
TRIX_SWEEP_LATE = float(os.environ.get("TRIX_SWEEP_LATE", "5"))  # overdue = lost after this
# A solo worker keeps a table's next bot turn on its own timer instead of sending it through
# the broker (trix_site/worker_timer.py: issue 15); what it holds when it dies, the sweep finds.
TRIX_WORKER_TIMER = _env_bool("TRIX_WORKER_TIMER", True)
TRIX_STATE_WAIT_MAX = float(os.environ.get("TRIX_STATE_WAIT_MAX", "5"))  # long poll cap
# Long polls one client (a user, or an address when logged out) may hold at once, over the
# tables' state and the tournaments' live polls; above it a poll is answered at once
# (games/waits.py). Counted in the cache (TRIX_CACHE_URL: across processes).
TRIX_WAITS_PER_CLIENT = int(os.environ.get("TRIX_WAITS_PER_CLIENT", "4"))
# Live streams (Server-Sent Events, games/stream.py; served by an ASGI server): seconds one
# stream stays open before it ends (the browser reconnects with Last-Event-ID, losing
# nothing), and the messages one stream may have waiting to be sent; a stream further behind
# is ended (it reconnects and catches up). Streams per client: TRIX_WAITS_PER_CLIENT, counted
# per web process.
TRIX_STREAM_LIFETIME = float(os.environ.get("TRIX_STREAM_LIFETIME", "600"))
TRIX_STREAM_QUEUE = int(os.environ.get("TRIX_STREAM_QUEUE", "32"))
# /health/ (trix_site/health.py) answers 503 when the beat's last completed sweep is older than
# this many seconds: no worker consumes (or no beat runs), so tables and timers are frozen.
TRIX_HEALTH_SWEEP_MAX_AGE = float(
    os.environ.get("TRIX_HEALTH_SWEEP_MAX_AGE", str(max(60.0, 6 * TRIX_SWEEP_SECONDS)))
)
# Tournaments (tournaments app; rules and running it: docs/tournaments.md).
# Seconds after a round opens by which a seated player must have looked at their table
# (Seat.checked_in_at) or acted; later and never acted = a no-show, last at that table.
TRIX_TOURNAMENT_SHOW_UP = float(os.environ.get("TRIX_TOURNAMENT_SHOW_UP", "120"))
# Default review window, seconds between a tournament's end and the payment of its prizes.
TRIX_TOURNAMENT_REVIEW_SECONDS = int(os.environ.get("TRIX_TOURNAMENT_REVIEW_SECONDS", "600"))
# Seconds an event's play is taken to last from its start (from now while it runs past that),
# for the rule that a player is in one event at a time (tournaments.services.register refuses
# an entry whose play would overlap an event the player is in, unless either allows it).
TRIX_TOURNAMENT_SPAN = float(os.environ.get("TRIX_TOURNAMENT_SPAN", "14400"))
# Seconds between beat runs of the tournament sweep (due starts, lost results, due prizes).
TRIX_TOURNAMENT_SWEEP_SECONDS = float(
    os.environ.get("TRIX_TOURNAMENT_SWEEP_SECONDS", str(TRIX_SWEEP_SECONDS))
)
# The most entrants (solo) or teams a tournament may take, and the most Swiss rounds.
TRIX_TOURNAMENT_MAX_ENTRANTS = int(os.environ.get("TRIX_TOURNAMENT_MAX_ENTRANTS", "65536"))
TRIX_TOURNAMENT_MAX_ROUNDS = int(os.environ.get("TRIX_TOURNAMENT_MAX_ROUNDS", "30"))
# Tests only: seconds a worker sleeps inside open_round (per table of the round, once they
# are all created) and pay_prizes before committing, so a test can kill it there. 0 in
# production.
TRIX_TOURNAMENT_TEST_PAUSE = float(os.environ.get("TRIX_TOURNAMENT_TEST_PAUSE", "0"))
# Seconds between beat runs of the ratings sweep (finished matches whose rating task was lost).
TRIX_RATINGS_SWEEP_SECONDS = float(os.environ.get("TRIX_RATINGS_SWEEP_SECONDS", "60"))
CELERY_BEAT_SCHEDULE = {
    "games-sweep-timers": {
        "task": "games.tasks.sweep_tables",
        "schedule": TRIX_SWEEP_SECONDS,
    },
    "games-expire-open-tables": {
        "task": "games.tasks.expire_open_tables",
        "schedule": TRIX_EXPIRY_SWEEP_SECONDS,
    },
    "tournaments-start-due": {
        "task": "tournaments.tasks.start_due",
        "schedule": TRIX_TOURNAMENT_SWEEP_SECONDS,
    },
    "tournaments-sweep": {
        "task": "tournaments.tasks.sweep",
        "schedule": TRIX_TOURNAMENT_SWEEP_SECONDS,
    },
    "ratings-sweep": {
        "task": "ratings.tasks.sweep",
        "schedule": TRIX_RATINGS_SWEEP_SECONDS,
    },
}
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("CELERY_TASK_DEFAULT_QUEUE", "trix")
# A person's action (games.tasks.apply_action) goes to a queue of its own, the default queue's
# name + TRIX_ACTION_QUEUE_SUFFIX ("trix-actions"; trix_site/celery.py: action_queue,
# route_task), at TRIX_ACTION_TASK_PRIORITY: ahead of the tables' wake-ups (the bots' turns,
# priority 6), behind a tournament's tasks (0). A worker started without -Q consumes both
# queues (CELERY_TASK_QUEUES), and one worker consumes the actions alone (`-Q trix-actions`,
# deploy/systemd/trix-worker-actions.service), so a person's action never waits in a worker
# behind the bot turns it already holds (issue 15; docs/operations.md).
TRIX_ACTION_QUEUE_SUFFIX = "-actions"
TRIX_ACTION_TASK_PRIORITY = 3
CELERY_TASK_ROUTES = ("trix_site.celery.route_task",)
CELERY_TASK_QUEUES = tuple(
    Queue(name, Exchange(name), routing_key=name)  # as Celery makes a queue it is sent to
    for name in (CELERY_TASK_DEFAULT_QUEUE + TRIX_ACTION_QUEUE_SUFFIX, CELERY_TASK_DEFAULT_QUEUE)
)
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
