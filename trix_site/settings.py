"""Django settings for trix_site.

Everything comes from environment variables with working defaults, each read once below by the
typed readers of ``trix_site/env.py`` (a value they cannot read stops the site at start-up with
an error naming the variable). The embedded default (no variables set) keeps data in ``var/``:
SQLite for the database and a SQLite-backed Celery broker, so ``./dev run`` needs no server.
Production sets ``DATABASE_URL`` (``postgres://user:pass@host:5432/trix``, psycopg 3),
``CELERY_BROKER_URL`` (``redis://host:6379/0`` or ``amqp://guest:guest@host:5672//``),
``DJANGO_SECRET_KEY`` and ``DJANGO_ALLOWED_HOSTS`` (``DEBUG`` is off unless ``DJANGO_DEBUG=1``,
as ``./dev run`` sets it), ``TRIX_SEED_KEY`` and ``TRIX_SIGNING_KEY`` (the keys, below),
``TRIX_CACHE_URL`` (``redis://host:6379/1``: every limit counted across processes, and not
counted while that Redis is down; docs/limits.md), ``TRIX_VAR_DIR`` (a writable directory for
the beat's schedule, e.g. ``/var/lib/trix``) and ``EMAIL_HOST`` or ``EMAIL_BACKEND`` (below).
``deploy/trix.env.example`` is such an environment for the units of ``deploy/systemd``
(docs/operations.md). ``/health/`` (``trix_site/health.py``) reports the database, the broker
and the age of the beat's last sweep (``TRIX_HEALTH_SWEEP_MAX_AGE``).

Every ``TRIX_*`` setting is declared here with its default and meaning; code reads them as
``settings.TRIX_…`` (no hidden defaults elsewhere). The tests run on ``settings_test``.
"""

from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from trix_site.cache import redis_cache
from trix_site.env import (
    env_bool,
    env_choice,
    env_float,
    env_header,
    env_int,
    env_key,
    env_keys,
    env_list,
    env_optional_key,
    env_rate,
    env_seconds,
    env_str,
)
from wallet.inputs import MAX_AMOUNT as _MAX_AMOUNT

# ---- The site and its keys -----------------------------------------------------------------------
BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("TRIX_VAR_DIR", str(BASE_DIR / "var")))
VAR_DIR.mkdir(parents=True, exist_ok=True)

# Off unless the environment turns it on (``./dev run`` exports DJANGO_DEBUG=1).
DEBUG = env_bool("DJANGO_DEBUG", False)
_secret = env_str("DJANGO_SECRET_KEY")
if not _secret:
    if not DEBUG:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off")
    # Development only: a per-checkout key kept out of the repository.
    key_file = VAR_DIR / "secret_key"
    if not key_file.exists():
        import secrets

        key_file.write_text(secrets.token_urlsafe(50))
    _secret = key_file.read_text().strip()
SECRET_KEY = _secret

# The key sealing the shuffle and draw secrets in the database (AES-256-GCM, games/sealing.py):
# 64 hex digits (32 bytes), held outside the database. Keys retired by a rotation stay in
# TRIX_SEED_OLD_KEYS (comma-separated, 64 hex each) until every secret is sealed anew
# (`manage.py reseal_secrets`); each sealed secret names the id of the key that sealed it.
# Without it the embedded default (DEBUG on) draws one into VAR_DIR (trix_site/env.py: env_key).
TRIX_SEED_KEY = env_key("TRIX_SEED_KEY", VAR_DIR / "seed_key", draw=DEBUG)
TRIX_SEED_OLD_KEYS = env_keys("TRIX_SEED_OLD_KEYS")
# The site's Ed25519 signing key (match receipts, the transparency log's heads and checkpoints;
# games/signing.py): PEM (PKCS#8, parsed by games/checks.py) or 64 hex digits (the raw
# private key). Its public key is published at /fairness/public-key.json.
TRIX_SIGNING_KEY = env_key("TRIX_SIGNING_KEY", VAR_DIR / "signing_key", draw=DEBUG, pem=True)
# The next signing key, set on every process before `manage.py rotate_signing_key` logs it
# (docs/operations.md): the site signs with whichever of the two keys the log names last.
TRIX_SIGNING_NEW_KEY = env_optional_key("TRIX_SIGNING_NEW_KEY", pem=True)
# The transparency log's origin: the first line of its checkpoints and their signing key's
# name (C2SP tlog-checkpoint: a unique name, conventionally the log's URL without scheme).
TRIX_LOG_ORIGIN = env_str("TRIX_LOG_ORIGIN", "trix.localhost/fairness/log")
# The log's witnesses whose cosignatures the site accepts and publishes (docs/fairness.md
# section 9c), comma-separated "<key name>=<64 hex public key>"; none by default.
TRIX_LOG_WITNESSES = env_list("TRIX_LOG_WITNESSES")
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")

# ---- HTTPS ---------------------------------------------------------------------------------------
# On by default where DEBUG is off, since production is served over TLS (a proxy in front of
# gunicorn ends TLS). DJANGO_HTTPS=0 turns the defaults off for a site served over plain HTTP
# (the benchmarks, a local DEBUG-off run); each setting is also its own DJANGO_<NAME>
# variable. `manage.py check --deploy` is clean with the production environment of
# docs/operations.md (tests/test_settings.py).
_HTTPS = env_bool("DJANGO_HTTPS", not DEBUG)
SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", _HTTPS)  # http:// -> https://
SESSION_COOKIE_SECURE = env_bool("DJANGO_SESSION_COOKIE_SECURE", _HTTPS)
CSRF_COOKIE_SECURE = env_bool("DJANGO_CSRF_COOKIE_SECURE", _HTTPS)
# Strict-Transport-Security max-age in seconds (0: no header); a year where HTTPS is on.
# Subdomains and preload are for the operator to decide (every host under the domain must
# be HTTPS-only; a preload-list entry is hard to undo): off unless set to 1.
SECURE_HSTS_SECONDS = env_int(
    "DJANGO_SECURE_HSTS_SECONDS", 31_536_000 if _HTTPS else 0, minimum=0, unit="seconds"
)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("DJANGO_SECURE_HSTS_PRELOAD", False)
# The header by which the proxy in front says a request came over HTTPS, "Name: value"
# (e.g. "X-Forwarded-Proto: https"); only set it if that proxy always sets or strips it.
# Unset, Django sees the proxy's plain HTTP and SECURE_SSL_REDIRECT would loop.
SECURE_PROXY_SSL_HEADER = env_header("DJANGO_SECURE_PROXY_SSL_HEADER")

# ---- Logging -------------------------------------------------------------------------------------
# Everything to stderr, where gunicorn, Celery and a service manager collect it (Django's
# default sends request errors only to the admins' mail under DEBUG off, so they would be
# logged nowhere). DJANGO_LOG_LEVEL sets Django's loggers (WARNING: 4xx answers and every 500
# with its traceback), TRIX_LOG_LEVEL the site's apps.
_LEVELS = {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}
DJANGO_LOG_LEVEL = env_choice("DJANGO_LOG_LEVEL", "WARNING", _LEVELS)
TRIX_LOG_LEVEL = env_choice("TRIX_LOG_LEVEL", "INFO", _LEVELS)
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

# ---- Django's parts: apps, middleware, templates -------------------------------------------------
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

# ---- Database ------------------------------------------------------------------------------------
DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{VAR_DIR / 'db.sqlite3'}"),
        conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 0, minimum=0, unit="seconds"),
    )
}

# DATABASE_POOL=N (PostgreSQL): each process keeps a pool of at most N connections
# (psycopg_pool, Django's "pool" option) and a request borrows one, instead of a persistent
# connection per thread (DATABASE_CONN_MAX_AGE, then ignored). The ASGI server sets it
# (trix_site/asgi.py), where each request's synchronous part runs in a thread of its own
# (Django's docs: under ASGI, use the backend's pooling, not persistent connections). Web
# processes only: not in the workers' environment. Within max_connections: web processes x
# (N + 1 listener), plus one per worker process.
DATABASE_POOL = env_int("DATABASE_POOL", 0, minimum=0, unit="connections")
if DATABASE_POOL and DATABASES["default"]["ENGINE"].endswith("postgresql"):
    DATABASES["default"]["CONN_MAX_AGE"] = 0  # Django refuses a pool beside persistent ones
    # Each connection is checked as it is borrowed (one round trip) and replaced if the server
    # dropped it (a restart, a failover, an idle timeout): a dead one would answer a 500.
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

# ---- Accounts and e-mail -------------------------------------------------------------------------
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
ACCOUNT_EMAIL_VERIFICATION = env_str("ACCOUNT_EMAIL_VERIFICATION", "optional")
ACCOUNT_LOGOUT_REDIRECT_URL = "/"
# Reverse proxies in front of the site that append the client's address to X-Forwarded-For
# (0: none, the address is the connection's). Every limit per address reads the address this
# way: the login lockout (allauth) and the API's throttles and long-poll cap (DRF's
# NUM_PROXIES); a client's own X-Forwarded-For is never trusted beyond it.
TRIX_TRUSTED_PROXIES = env_int("TRIX_TRUSTED_PROXIES", 0, minimum=0)
ALLAUTH_TRUSTED_PROXY_COUNT = TRIX_TRUSTED_PROXIES
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "/"
# E-mail (sign-up confirmations, password resets): Django's settings, from the environment.
# With DEBUG on (./dev run) mail is printed to the console; with DEBUG off it is sent by SMTP
# to EMAIL_HOST, or by another EMAIL_BACKEND (a provider's, a dotted path). `check --deploy`
# fails (accounts.E001, accounts/checks.py) while mail would reach nobody: a console, memory,
# file or dummy backend, or SMTP without EMAIL_HOST (deploy/trix.env.example shows them).
EMAIL_BACKEND = env_str(
    "EMAIL_BACKEND",
    "django.core.mail.backends.console.EmailBackend"
    if DEBUG
    else "django.core.mail.backends.smtp.EmailBackend",
)
EMAIL_HOST = env_str("EMAIL_HOST").strip()  # empty: none configured
EMAIL_PORT = env_int("EMAIL_PORT", 587, minimum=1, maximum=65535)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)  # STARTTLS on port 587
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)  # TLS from the start (port 465)
if EMAIL_USE_TLS and EMAIL_USE_SSL:
    raise ImproperlyConfigured("EMAIL_USE_TLS and EMAIL_USE_SSL: set one of them, not both")
# Seconds a send may wait for the mail server (Django's default: for ever, holding a request).
EMAIL_TIMEOUT = env_seconds("EMAIL_TIMEOUT", 10)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Trix <noreply@localhost>")
SERVER_EMAIL = env_str("SERVER_EMAIL", DEFAULT_FROM_EMAIL)  # mail to the admins

# ---- Language and static files -------------------------------------------------------------------
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


# ---- Rate limits, the cache that counts them, and the API ----------------------------------------
# Rate limits per user (per address when logged out), DRF throttles (games/api/throttles.py:
# each reads its rate here; 429 "throttled" with Retry-After above it). Counted in the cache:
# per process unless TRIX_CACHE_URL names a shared Redis.
# The most actions one user may post (far above a person's clicks; stops a client flooding
# the workers); tournaments' writes are counted apart at the same rate.
TRIX_ACTION_RATE = env_rate("TRIX_ACTION_RATE", "10/second")
# Staff writes of tournaments one staff member may post (create, edit, open, start, pause,
# resume, cancel, disqualify: /api/tournaments/...), counted apart from the players' writes.
TRIX_STAFF_ACTION_RATE = env_rate("TRIX_STAFF_ACTION_RATE", "60/minute")
# Reads of the API (GET and HEAD under /api/: the long polls, the streams' connections, every
# other read; games/api/middleware.py: ReadLimitMiddleware) one session may make (per address
# when it has none), and one address may make, its sessions together (many players share an
# address behind a carrier's NAT). Writes are not counted here (their own rates below).
TRIX_READ_RATE = env_rate("TRIX_READ_RATE", "20/second")
TRIX_READ_ADDRESS_RATE = env_rate("TRIX_READ_ADDRESS_RATE", "100/second")
# Days' auditor archives (GET /fairness/archive/DAY.zip) one address may have built: each
# reads and proves a whole day of the log (games/api/throttles.py: ArchiveThrottle).
TRIX_ARCHIVE_RATE = env_rate("TRIX_ARCHIVE_RATE", "10/minute")
# Witnesses' cosigned checkpoints one address may submit (POST /fairness/cosignatures: each
# parsed and checked against the checkpoint rebuilt for its size; a witness sends one a run).
TRIX_COSIGNATURE_RATE = env_rate("TRIX_COSIGNATURE_RATE", "30/minute")
# Tables one user may create (POST /api/tables/, the lobby's form).
TRIX_TABLE_CREATE_RATE = env_rate("TRIX_TABLE_CREATE_RATE", "10/minute")
# Seats one user may take or leave, counted together (every sit and leave at a staked table
# writes a ledger transaction).
TRIX_SEAT_RATE = env_rate("TRIX_SEAT_RATE", "30/minute")


# Seconds a cache operation may wait for a Redis that does not answer (then: a miss).
TRIX_CACHE_TIMEOUT = env_seconds("TRIX_CACHE_TIMEOUT", 0.5)
DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS = True  # a cache outage is logged, never raised
if env_str("TRIX_CACHE_URL"):  # e.g. redis://host:6379/1; else Django's local memory
    CACHES = {"default": redis_cache(env_str("TRIX_CACHE_URL"), timeout=TRIX_CACHE_TIMEOUT)}
REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # The login form's session only: the form is the one place a password is checked, so its
    # lockout (allauth's "login_failed" rate limit, per address and account) covers every
    # login. HTTP Basic would check passwords beside it, never limited, and hash the password
    # again on every request.
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


# ---- Money and identity --------------------------------------------------------------------------
# Money: integer minor units of one currency per deployment.
TRIX_CURRENCY = env_str("TRIX_CURRENCY", "USD")
# Digits after the decimal point of TRIX_CURRENCY (2: 12345 minor units print "123.45 USD").
TRIX_CURRENCY_DECIMALS = env_int("TRIX_CURRENCY_DECIMALS", 2, minimum=0)
# The checks asked before money moves (wallet.gates), in this order: classes by dotted path,
# as AUTH_PASSWORD_VALIDATORS; the account's standing (identity, suspension), then
# responsible play's limits and breaks. The ledger imports neither app.
TRIX_WALLET_GATES = ["accounts.standing.AccountGate", "responsible.gates.ResponsiblePlayGate"]
# The draw records a day's auditor archive holds (games.fairness_archive): the dotted path of
# a function from a list of events' names to {event: trix-draw/1 record}.
TRIX_ARCHIVE_DRAWS = "tournaments.selectors.brackets.draw_records"
# What `manage.py ledger_check` checks beyond the ledger itself (wallet.checks): a check's name
# -> the dotted path of a function returning its problems. The payouts the public log tells
# (docs/fairness.md, "Payouts") against the ledger's transactions, both ways.
TRIX_LEDGER_CHECKS = {
    "table payouts logged as the ledger paid them": "games.ledger_checks.table_payouts",
    "tournament payouts logged as the ledger paid them": "tournaments.ledger_checks.event_payouts",
}
# The payment provider's class (wallet.payments.PaymentProvider), a dotted path.
TRIX_PAYMENT_PROVIDER = env_str("TRIX_PAYMENT_PROVIDER", "wallet.payments.DemoProvider")
# The largest amount the demo provider collects or pays out at once, and the largest stake per
# seat a table may ask (minor units; the stake's default is 10,000.00): both within what one
# ledger amount may be (wallet.inputs.MAX_AMOUNT, a plain constant).
_AMOUNT = {"minimum": 1, "maximum": _MAX_AMOUNT, "unit": "minor units (wallet.inputs.MAX_AMOUNT)"}
TRIX_DEMO_PAYMENT_LIMIT = env_int("TRIX_DEMO_PAYMENT_LIMIT", 1_000_000, **_AMOUNT)
TRIX_MAX_STAKE = env_int("TRIX_MAX_STAKE", 1_000_000, **_AMOUNT)
# The wallet page's demo deposit/withdraw forms (wallet.payments.DemoProvider: no real money).
# On by default where DEBUG is (./dev run); a production site (DJANGO_DEBUG=0) turns it off.
TRIX_DEMO_PAYMENTS = env_bool("TRIX_DEMO_PAYMENTS", DEBUG)

# Identity (accounts app, docs/accounts.md). The identity-verification provider's class
# (accounts.kyc.KycProvider), a dotted path; the demo one verifies at once and checks nothing.
TRIX_KYC_PROVIDER = env_str("TRIX_KYC_PROVIDER", "accounts.kyc.DemoKycProvider")
# An unverified account may withdraw up to this many minor units in all over the last
# TRIX_KYC_WITHDRAW_DAYS days, a rolling window (default 2,000.00 in 30 days: the EU's
# anti-money-laundering threshold for gambling transactions, which counts transactions that
# appear linked as one; docs/accounts.md); staking always needs a verified account.
TRIX_KYC_WITHDRAW_ABOVE = env_int("TRIX_KYC_WITHDRAW_ABOVE", 200_000, minimum=0)
TRIX_KYC_WITHDRAW_DAYS = env_int("TRIX_KYC_WITHDRAW_DAYS", 30, minimum=0)
# The key of the seats' address hashes (HMAC-SHA256; games.services.tables): set it to keep
# the hashes apart from DJANGO_SECRET_KEY; empty: derived from the secret key under a label
# of its own (django.utils.crypto.salted_hmac). Rotating it only forgets open tables' hashes.
TRIX_ADDRESS_SALT = env_str("TRIX_ADDRESS_SALT").strip()
# Two seats at one staked table from one IP address: refused unless this is on (on by
# default where DEBUG is: a local demo's players all share 127.0.0.1).
TRIX_SAME_ADDRESS_SEATS = env_bool("TRIX_SAME_ADDRESS_SEATS", DEBUG)

# ---- Tables (games app) --------------------------------------------------------------------------
# Timers are the server's. Production runs `celery beat` once and any number of workers;
# `./dev run` starts one worker with an embedded beat (-B).
# The longest timer a table may set, in seconds (a staked table must set all three).
TRIX_MAX_TIMER = env_int("TRIX_MAX_TIMER", 3600, minimum=1, unit="seconds")
TRIX_BOT_DELAY = env_seconds("TRIX_BOT_DELAY", 0.6)  # seconds a bot "thinks"
TRIX_DEAL_PAUSE = env_seconds("TRIX_DEAL_PAUSE", 2.0)  # seconds between deals
TRIX_FORCED_DELAY = env_seconds("TRIX_FORCED_DELAY", 0.8)  # auto_play_forced
# Seconds an away seat's turn waits before its default action (games/services/presence.py).
TRIX_AWAY_DELAY = env_seconds("TRIX_AWAY_DELAY", 1.0)
# Timeouts in a row that mark a human seat away ("missed two turns in a row"); 0 never marks
# anyone away.
TRIX_AWAY_AFTER = env_int("TRIX_AWAY_AFTER", 2, minimum=0)
TRIX_TIMER_SCALE = env_float("TRIX_TIMER_SCALE", 1.0, minimum=0)  # tests shrink timers
TRIX_SWEEP_SECONDS = env_seconds("TRIX_SWEEP_SECONDS", 5)  # lost-timer sweep
TRIX_SWEEP_LATE = env_seconds("TRIX_SWEEP_LATE", 5)  # overdue = lost after this
# A solo worker keeps a table's next bot turn on its own timer instead of sending it through
# the broker (trix_site/worker_timer.py); what it holds when it dies, the sweep finds.
TRIX_WORKER_TIMER = env_bool("TRIX_WORKER_TIMER", True)
TRIX_STATE_WAIT_MAX = env_seconds("TRIX_STATE_WAIT_MAX", 5)  # long poll cap
# Long polls one client (a user, or an address when logged out) may hold at once, over the
# tables' state and the tournaments' live polls; above it a poll is answered at once
# (games/waits.py). Counted in the cache (TRIX_CACHE_URL: across processes).
TRIX_WAITS_PER_CLIENT = env_int("TRIX_WAITS_PER_CLIENT", 4, minimum=0)
# Live streams (Server-Sent Events, games/live/; served by an ASGI server): seconds one
# stream stays open before it ends (the browser reconnects with Last-Event-ID, losing
# nothing), and the messages one stream may have waiting to be sent; a stream further behind
# is ended (it reconnects and catches up). Streams per client: TRIX_WAITS_PER_CLIENT, counted
# per web process.
TRIX_STREAM_LIFETIME = env_seconds("TRIX_STREAM_LIFETIME", 600)
TRIX_STREAM_QUEUE = env_int("TRIX_STREAM_QUEUE", 32, minimum=1)
# /health/ (trix_site/health.py) answers 503 when the beat's last completed sweep is older than
# this many seconds: no worker consumes (or no beat runs), so tables and timers are frozen.
TRIX_HEALTH_SWEEP_MAX_AGE = env_seconds(
    "TRIX_HEALTH_SWEEP_MAX_AGE", max(60.0, 6 * TRIX_SWEEP_SECONDS)
)
# The most open tables (waiting for players) one creator may have; tournament tables are not
# counted (the tournament creates them, already playing).
TRIX_MAX_OPEN_TABLES = env_int("TRIX_MAX_OPEN_TABLES", 5, minimum=0)
# The most live seats one person holds: seats at tables whose match has not ended (waiting or
# playing; quick play, sit, create and tournament tables alike; games.services.live_seats).
# 1: one absent player spoils a four-seat match for three. 0: no limit.
TRIX_MAX_LIVE_SEATS = env_int("TRIX_MAX_LIVE_SEATS", 1, minimum=0)
# Seconds an open table may wait for its four seats: after that the beat cancels it and
# refunds every stake (games.services.expire_open_tables, every TRIX_EXPIRY_SWEEP_SECONDS).
TRIX_OPEN_TABLE_EXPIRY = env_seconds("TRIX_OPEN_TABLE_EXPIRY", 1800)
# Seconds an open table may stay empty (no seat taken by a person or a bot; its creator is
# not seated by creating it) before the same beat cancels it.
TRIX_EMPTY_TABLE_EXPIRY = env_seconds("TRIX_EMPTY_TABLE_EXPIRY", 180)
TRIX_EXPIRY_SWEEP_SECONDS = env_seconds("TRIX_EXPIRY_SWEEP_SECONDS", 60)
# A rematch (games.services.rematch): seconds after a match ends that its players may propose
# one, and seconds the rematch table holds each person's seat for them to accept (sit).
TRIX_REMATCH_WINDOW = env_seconds("TRIX_REMATCH_WINDOW", 600)
TRIX_REMATCH_HOLD = env_seconds("TRIX_REMATCH_HOLD", 180)
# Tables per page of GET /api/tables/ and the lobby (?page=N).
TRIX_TABLES_PAGE_SIZE = env_int("TRIX_TABLES_PAGE_SIZE", 50, minimum=1)

# ---- Tournaments and ratings ---------------------------------------------------------------------
# Tournaments (tournaments app; rules and running it: docs/tournaments.md).
# Seconds after a round opens by which a seated player must have looked at their table
# (Seat.checked_in_at) or acted; later and never acted = a no-show, last at that table.
TRIX_TOURNAMENT_SHOW_UP = env_seconds("TRIX_TOURNAMENT_SHOW_UP", 120)
# Default review window, seconds between a tournament's end and the payment of its prizes.
TRIX_TOURNAMENT_REVIEW_SECONDS = env_int(
    "TRIX_TOURNAMENT_REVIEW_SECONDS", 600, minimum=0, unit="seconds"
)
# Seconds an event's play is taken to last from its start (from now while it runs past that),
# for the rule that a player is in one event at a time (tournaments.services.register refuses
# an entry whose play would overlap an event the player is in, unless either allows it).
TRIX_TOURNAMENT_SPAN = env_seconds("TRIX_TOURNAMENT_SPAN", 14400)
# Seconds between beat runs of the tournament sweep (due starts, lost results, due prizes).
TRIX_TOURNAMENT_SWEEP_SECONDS = env_seconds("TRIX_TOURNAMENT_SWEEP_SECONDS", TRIX_SWEEP_SECONDS)
# The most entrants (solo) or teams a tournament may take, and the most Swiss rounds.
TRIX_TOURNAMENT_MAX_ENTRANTS = env_int("TRIX_TOURNAMENT_MAX_ENTRANTS", 65536, minimum=1)
TRIX_TOURNAMENT_MAX_ROUNDS = env_int("TRIX_TOURNAMENT_MAX_ROUNDS", 30, minimum=1)
# Seconds between beat runs of the ratings sweep (finished matches whose rating task was lost).
TRIX_RATINGS_SWEEP_SECONDS = env_seconds("TRIX_RATINGS_SWEEP_SECONDS", 60)

# ---- Celery: the engine's state changes run in workers -------------------------------------------
CELERY_BROKER_URL = env_str(
    "CELERY_BROKER_URL", f"sqla+sqlite:///{VAR_DIR / 'celery-broker.sqlite3'}"
)
# The embedded default (a SQLite file, kombu's SQLAlchemy transport; `sqla+sqlite://` URLs)
# is polled every TRIX_BROKER_POLL seconds by the worker, not kombu's 1 s (trix_site/broker.py):
# a move reaches the worker within that (benchmarks/embedded_latency.py).
TRIX_BROKER_POLL = env_seconds("TRIX_BROKER_POLL", 0.05)
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
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
# Task priorities: a tournament's tasks go ahead of the tables' wake-ups and actions, in
# kombu's default priority steps on Redis (the SQLite broker and RabbitMQ: first in, first
# out); docs/tournaments.md, "Task priority". Surviving a broker restart: the worker
# reconnects for ever, silent connections are found by the health checks and socket timeouts,
# the visibility timeout outlasts the longest wake-up, lost messages are re-sent by the beat's
# sweep, and redis-py retries no command itself (docs/operations.md, "A broker restart").
# Sends are retried by CELERY_TASK_PUBLISH_RETRY_POLICY.
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None  # reconnect for ever, never exit
# Seconds one attempt to connect to the broker may take (sends, workers, /health/'s check).
TRIX_BROKER_TIMEOUT = env_seconds("TRIX_BROKER_TIMEOUT", 2)
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

# The beat's schedule: the sweeps of the tables, the open tables, the tournaments, the ratings.
CELERY_BEAT_SCHEDULE = {
    "games-sweep-timers": {"task": "games.tasks.sweep_tables", "schedule": TRIX_SWEEP_SECONDS},
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
    "ratings-sweep": {"task": "ratings.tasks.sweep", "schedule": TRIX_RATINGS_SWEEP_SECONDS},
}
CELERY_TASK_DEFAULT_QUEUE = env_str("CELERY_TASK_DEFAULT_QUEUE", "trix")
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
