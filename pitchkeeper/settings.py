"""Pitchkeeper settings: one file, configured from environment variables.

The defaults are for local development; production sets DEBUG=0 and SECRET_KEY.
"""

from __future__ import annotations

import json
import logging
import os
import sys
import tempfile
from datetime import timedelta
from email.utils import getaddresses
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", default=True)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        # Never let a deployment fall back to a key that is published in the repo.
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    SECRET_KEY = "django-insecure-local-development-only-do-not-deploy"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1]")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "csp",
    "axes",
    # The default app config wraps the template loaders so {% partialdef %} partials can be
    # loaded as "template.html#partial"; it replaces APP_DIRS with an explicit loader list.
    "template_partials",
    # Background tasks (the backport of Django 6's django.tasks) and their database
    # backend, whose worker is `manage.py db_worker`: the app's own, which outlives a
    # database restart, since the app comes first (the first app's command wins).
    "django_tasks",
    "pitchkeeper",
    "django_tasks_db",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    # WhiteNoise must come early so static files skip the rest of the stack.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # After WhiteNoise (static files come precompressed, gzip and brotli), before anything
    # that writes the body. Django's GZip pads each response with random bytes in the gzip
    # header against BREACH; CSRF tokens are masked per request as well.
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # After sessions (it may read the language from them), before Common (URL handling).
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Everything needs an account but the pages marked login_not_required: sign-in,
    # sign-up, the live scoreboard link, the health check.
    "django.contrib.auth.middleware.LoginRequiredMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as django-axes asks: it turns a locked-out sign-in into its own answer.
    "axes.middleware.AxesMiddleware",
]

AUTHENTICATION_BACKENDS = [
    # Counts failed sign-ins and refuses more after AXES_FAILURE_LIMIT of them.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
# The browser's address, also behind the proxy (the last X-Forwarded-For entry).
AXES_CLIENT_IP_CALLABLE = "pitchkeeper.clubs.lockout.client_ip"
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"

# How long an invitation link works: a leaked old link must not let a stranger in.
INVITATION_DAYS = os.environ.get("INVITATION_DAYS", "7").strip()
if not (INVITATION_DAYS.isdecimal() and 1 <= int(INVITATION_DAYS) <= 365):
    raise ImproperlyConfigured(
        f"INVITATION_DAYS must be a whole number of days from 1 to 365, not {INVITATION_DAYS!r}."
    )
INVITATION_TTL = timedelta(days=int(INVITATION_DAYS))


def env_int(name: str, default: int, low: int, high: int) -> int:
    value = os.environ.get(name, str(default)).strip()
    if not (value.isdecimal() and low <= int(value) <= high):
        raise ImproperlyConfigured(f"{name} must be a whole number from {low} to {high}.")
    return int(value)


# A game left unfinished this many days is shown on the home screen as abandoned, to
# be finished, deleted or left as it is.
ABANDONED_DAYS = env_int("ABANDONED_DAYS", 30, 1, 3650)


def env_json(name: str) -> dict:
    try:
        value = json.loads(os.environ.get(name) or "{}")
    except json.JSONDecodeError as error:
        raise ImproperlyConfigured(f"{name} must be a JSON object: {error}") from None
    if not isinstance(value, dict):
        raise ImproperlyConfigured(f"{name} must be a JSON object, not {value!r}.")
    return value


def redis_url(name: str, *, required: bool) -> str:
    """A Redis address, redis://[:password@]host[:port][/database] (rediss:// for TLS,
    unix:///path.sock?db=N), or "" when it is not set and not required."""
    value = os.environ.get(name, "").strip()
    if not value:
        if required:
            raise ImproperlyConfigured(f"{name} must be set (redis://host:6379/0).")
        return ""
    if not value.startswith(("redis://", "rediss://", "unix://")):
        raise ImproperlyConfigured(
            f"{name} must be a Redis URL such as redis://127.0.0.1:6379/1, not {value!r}."
        )
    return value


LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"
CONSOLE_EMAIL = "django.core.mail.backends.console.EmailBackend"
EMAIL_BACKEND = os.environ.get(
    "EMAIL_BACKEND", CONSOLE_EMAIL if DEBUG else "django.core.mail.backends.smtp.EmailBackend"
)
if EMAIL_BACKEND == CONSOLE_EMAIL and not DEBUG:
    # It would write every password-reset link, with a working token, into the log.
    raise ImproperlyConfigured(
        "EMAIL_BACKEND must not be the console backend when DEBUG is off: it writes "
        "password-reset links into the server's log. Configure a mail server (EMAIL_HOST...)."
    )
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", default=False)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "pitchkeeper@localhost")
# The sender of the error mails to ADMINS.
SERVER_EMAIL = os.environ.get("SERVER_EMAIL", DEFAULT_FROM_EMAIL)


def env_admins(name: str) -> list[tuple[str, str]]:
    """``"Ann <ann@example.com>, bob@example.com"`` as Django's ADMINS."""
    admins = [pair for pair in getaddresses([os.environ.get(name, "")]) if any(pair)]
    wrong = [address for _name, address in admins if "@" not in address]
    if wrong:
        raise ImproperlyConfigured(f"{name} needs e-mail addresses, not {wrong!r}.")
    return admins


# Who is mailed every server error (with DEBUG off), traceback and request included.
ADMINS = env_admins("ADMINS")

LOG_LEVEL = os.environ.get("LOG_LEVEL", "INFO").strip().upper()
if not isinstance(logging.getLevelName(LOG_LEVEL), int):
    raise ImproperlyConfigured(
        f"LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL, not {LOG_LEVEL!r}."
    )
# Django's own logging prints only with DEBUG on: with it off a server error's traceback
# went nowhere. Everything at LOG_LEVEL and above goes to stderr, where gunicorn, systemd
# or a container keep it; errors are mailed to ADMINS as well.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "{asctime} {levelname} [{name}] {message}", "style": "{"},
    },
    "filters": {
        "debug_off": {"()": "django.utils.log.RequireDebugFalse"},
        "one_line_forbidden": {"()": "pitchkeeper.core.logs.OneLineForbidden"},
    },
    "handlers": {
        "stderr": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stderr",
            "formatter": "plain",
            "filters": ["one_line_forbidden"],
        },
        "mail_admins": {
            "class": "django.utils.log.AdminEmailHandler",
            "level": "ERROR",
            "filters": ["debug_off"],
        },
    },
    "root": {"handlers": ["stderr"], "level": LOG_LEVEL},
    # Replaces Django's "django" logger (console with DEBUG on only); it passes its records
    # on to the root's stderr. django.server (runserver's request lines) stays as it is.
    "loggers": {
        "django": {"handlers": ["mail_admins"], "level": LOG_LEVEL},
        # django-axes says at INFO that it started and every sign-in attempt; its
        # warnings (a lockout) still reach the log.
        "axes": {"level": max(logging.WARNING, logging.getLevelName(LOG_LEVEL))},
    },
}

ROOT_URLCONF = "pitchkeeper.urls"
WSGI_APPLICATION = "pitchkeeper.wsgi.application"

# The folders of pitchkeeper/ that hold a domain's models, views and templates.
DOMAINS = ("core", "clubs", "games", "seasons", "nights")

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        # The site-wide templates (the base page and shared partials), then each domain's
        # own, named after it ("games/game.html").
        "DIRS": [
            BASE_DIR / "templates",
            *(BASE_DIR / "pitchkeeper" / domain / "templates" for domain in DOMAINS),
        ],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=600,
        # A kept connection that the server dropped (a restart) is noticed and replaced.
        conn_health_checks=True,
    ),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several phones write while live scoreboards read: WAL lets readers go on during a
    # write, IMMEDIATE takes the write lock at BEGIN (no upgrade deadlock between two
    # writers), and the timeout makes a writer wait its turn instead of failing.
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
    }
    # Tests use a file as well, not Django's shared in-memory database (which has no WAL
    # and table locks that no busy timeout waits out): the same locking as a real run,
    # so that the concurrency tests mean something. One file per test process.
    DATABASES["default"]["TEST"] = {
        "NAME": str(Path(tempfile.gettempdir()) / f"pitchkeeper-test-{os.getpid()}.sqlite3")
    }

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Production: cookies only over HTTPS, HSTS, and a Content Security Policy that allows
# only the app's own static files (no inline script anywhere, so none is allowed).
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = LANGUAGE_COOKIE_SECURE = not DEBUG
SESSION_COOKIE_HTTPONLY = LANGUAGE_COOKIE_HTTPONLY = True
# Django leaves the language cookie without SameSite; the session and CSRF ones are Lax.
LANGUAGE_COOKIE_SAMESITE = "Lax"
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=not DEBUG)
# A load balancer may ask for the health check over plain HTTP.
SECURE_REDIRECT_EXEMPT = [r"^health/$"]
# Behind a TLS-terminating proxy the app sees plain HTTP; the proxy says what the browser
# used in X-Forwarded-Proto. Trusting that header is only safe when a proxy sets it on
# every request (and drops what the client sent), so it is opt-in.
# The same proxy appends the client's address to X-Forwarded-For, which the sign-in
# lockout then believes (pitchkeeper.clubs.lockout).
BEHIND_HTTPS_PROXY = env_bool("BEHIND_HTTPS_PROXY", default=False)
if BEHIND_HTTPS_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_HSTS_SECONDS = 0 if DEBUG else int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = SECURE_HSTS_PRELOAD = not DEBUG
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")
# A form refused as out of date is told in the app's own page and language.
CSRF_FAILURE_VIEW = "pitchkeeper.core.views.csrf_failure"
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
        "base-uri": [SELF],
        "object-src": [NONE],
    },
}

LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("ru", _("Russian")),
    ("nb", _("Norwegian Bokmål")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
USE_TZ = True
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATICFILES_FINDERS = [
    "django.contrib.staticfiles.finders.FileSystemFinder",
    "django.contrib.staticfiles.finders.AppDirectoriesFinder",
    # The phone's rules engine runtime, from the installed brython package.
    "pitchkeeper.core.brython.RuntimeFinder",
]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))

# Local runs and tests skip `collectstatic`: serve from the finders and don't hash names.
# (Django's test runner forces DEBUG off, so WhiteNoise's DEBUG-based defaults don't cover tests.)
TESTING = "pytest" in sys.modules or sys.argv[1:2] == ["test"]
WHITENOISE_USE_FINDERS = WHITENOISE_AUTOREFRESH = DEBUG or TESTING
# WhiteNoise does not know the web app manifest and would send application/octet-stream.
WHITENOISE_MIMETYPES = {".webmanifest": "application/manifest+json"}
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG or TESTING
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        ),
    },
}

# The task queue that re-rates a club after an older game changed (seasons.tasks), so that
# no request holds the write lock for long. By default the queue is a table of this
# database and `manage.py db_worker` runs it: no other server. Another backend of
# django.tasks (RQ, Celery...) is its class path in TASKS_BACKEND, its options as JSON
# in TASKS_OPTIONS. The tests run tasks as they are queued (the immediate backend) unless
# they say otherwise.
TASKS_BACKEND = os.environ.get(
    "TASKS_BACKEND",
    "django_tasks.backends.immediate.ImmediateBackend"
    if TESTING
    else "django_tasks_db.DatabaseBackend",
)
TASKS = {"default": {"BACKEND": TASKS_BACKEND, "OPTIONS": env_json("TASKS_OPTIONS")}}
# The queue in Redis, through RQ: its worker is `manage.py rqworker --job-class
# django_tasks_rq.Job`, and its Redis database is TASKS_REDIS_URL's.
TASKS_REDIS_URL = redis_url(
    "TASKS_REDIS_URL", required=TASKS_BACKEND == "django_tasks_rq.RQBackend"
)
if TASKS_REDIS_URL:
    INSTALLED_APPS += ["django_rq", "django_tasks_rq"]
    RQ_QUEUES = {"default": {"URL": TASKS_REDIS_URL}}

# Each process keeps its own cache (the replays of games and the plans of "fewest
# payments"), which is right for one machine. Several machines share one in Redis,
# CACHE_URL, in a Redis database of its own: not the queue's, whose keys RQ scans and
# deletes by itself.
CACHE_URL = redis_url("CACHE_URL", required=False)
if CACHE_URL and CACHE_URL == TASKS_REDIS_URL:
    raise ImproperlyConfigured(
        "CACHE_URL and TASKS_REDIS_URL must name different Redis databases "
        "(redis://host:6379/1 and redis://host:6379/0)."
    )
CACHES = {
    "default": (
        {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": CACHE_URL}
        if CACHE_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}
# A change re-rates up to this many later games in its own transaction (under 1 ms each
# on a small machine, bench/bench_edit.py); more are left to the queue, which reads and
# rates RERATE_STEP_GAMES at a time and holds the write lock only to write them.
RERATE_INLINE_GAMES = env_int("RERATE_INLINE_GAMES", 5, 0, 100_000)
RERATE_STEP_GAMES = env_int("RERATE_STEP_GAMES", 50, 1, 100_000)
# The queue's pause between two steps, so that a hand waiting for the lock in SQLite's
# busy wait, which polls for it every few ms at first, is saved before the next step.
RERATE_PAUSE_MS = env_int("RERATE_PAUSE_MS", 50, 0, 60_000)
# A re-rating task queues a check this many seconds on, which carries on should its
# worker die half-way.
RERATE_RETRY_SECONDS = env_int("RERATE_RETRY_SECONDS", 60, 1, 86_400)
# A task worker (manage.py db_worker) that has written no beat for this many seconds is
# taken for dead, and the task it left running is run again (core.worker); a live one
# beats six times as often.
WORKER_DEAD_SECONDS = env_int("WORKER_DEAD_SECONDS", 60, 2, 86_400)
