"""One settings module, read from the environment (docs/operations.md lists every variable).

With nothing set it runs on the embedded defaults: SQLite in var/ and Celery's
filesystem broker in var/, so a fresh clone needs no server.
"""

from datetime import timedelta
from pathlib import Path

from django.utils.translation import gettext_lazy as _

from config.env import (
    env_bool,
    env_database,
    env_int,
    env_list,
    env_proxy_ssl_header,
    env_str,
    env_time_zone,
    env_url,
)
from config.secret_key import load_or_create_secret_key

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("VAR_DIR", str(BASE_DIR / "var")))
VAR_DIR.mkdir(parents=True, exist_ok=True)

# Off unless asked for: the debug pages show local variables, settings and every route.
DEBUG = env_bool("DEBUG", False)
# From the environment in production; otherwise a per-install key generated once and
# kept in VAR_DIR (config/secret_key.py), never a key published with the code.
SECRET_KEY = env_str("SECRET_KEY", "") or load_or_create_secret_key(VAR_DIR)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", ["http://localhost", "http://127.0.0.1"])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI and ReDoc served from here, not from a CDN
    "axes",
    "config",
    "players",
    "tournaments",
    "games",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "config.middleware.RejectNulCharactersMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "players.language.LanguagePreferenceMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes asks: turns a locked-out login into the lockout response.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "players.context_processors.roles",
            ],
        },
    },
]

DATABASES = {"default": env_database("DATABASE_URL", f"sqlite:///{VAR_DIR / 'db.sqlite3'}")}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # The worker, beat and web server share the file: wait for locks instead of failing.
    # A write transaction takes the write lock when it begins (IMMEDIATE): a deferred one
    # that read first and then writes while another writer is active gets "database is
    # locked" at once, without waiting. WAL lets readers go on while one process writes.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        timeout=20,
        transaction_mode="IMMEDIATE",
        init_command="PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    )
else:
    DATABASES["default"]["CONN_MAX_AGE"] = env_int("DATABASE_CONN_MAX_AGE", 60, minimum=0)
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    # PostgreSQL's JIT compiler is for long analytic queries: on an event of thousands of
    # players a join's row estimate passes its threshold and a query of a few
    # milliseconds spent up to two seconds being compiled (docs/benchmarks.md).
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault("options", "-c jit=off")
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env_str("REDIS_URL", "")
if REDIS_URL:
    REDIS_URL = env_url("REDIS_URL", "", schemes={"redis", "rediss"})
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Login throttling (config/lockout.py): django-axes refuses a username from an address
# after LOGIN_FAILURE_LIMIT wrong passwords, for LOGIN_LOCKOUT_MINUTES. Attempts are rows
# in the database, so web workers, SQLite and PostgreSQL all see the same count.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5, minimum=1)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("LOGIN_LOCKOUT_MINUTES", 15, minimum=1))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "config.lockout.lockout_response"
AXES_CLIENT_IP_CALLABLE = "config.lockout.client_ip"
# Proxies in front of the web server that append the client's address to X-Forwarded-For.
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0, minimum=0)
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "players:profile"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("ru", _("Russian"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env_time_zone("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(exist_ok=True)
STATICFILES_DIRS = [BASE_DIR / "templates" / "static"]

# --- Celery --------------------------------------------------------------------------
# Embedded default: a folder of message files in var/broker/, read and written by
# config/broker.py (kombu's filesystem transport with atomic writes and claims that
# survive a killed worker); docs/operations.md explains the choice, bench/broker.py
# measures it against the alternatives.
BROKER_DIR = VAR_DIR / "broker"
CELERY_BROKER_URL = env_url(
    "CELERY_BROKER_URL", "filesystem://", schemes={"filesystem", "redis", "rediss", "amqp"}
)
if CELERY_BROKER_URL.startswith("filesystem"):
    CELERY_BROKER_TRANSPORT = "config.broker:Transport"
    for sub in ("out", "processed", "control", "staging", "claimed", "failed"):
        (BROKER_DIR / sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(BROKER_DIR / "out"),
        "data_folder_out": str(BROKER_DIR / "out"),
        "processed_folder": str(BROKER_DIR / "processed"),
        "control_folder": str(BROKER_DIR / "control"),
        "staging_folder": str(BROKER_DIR / "staging"),
        "claims_folder": str(BROKER_DIR / "claimed"),
        "failed_folder": str(BROKER_DIR / "failed"),
        "store_processed": False,
        # The worker polls the folder; 0.1 s keeps clock tasks prompt at negligible CPU.
        "polling_interval": 0.1,
    }
    _default_results = f"file://{VAR_DIR / 'results'}"
    (VAR_DIR / "results").mkdir(exist_ok=True)
else:
    # Longer than any eta/countdown we schedule, so Redis never redelivers a waiting
    # eta task (clock handlers are idempotent anyway). A worker killed with eta tasks in
    # hand leaves them parked here until then: the clock sweep enforces their deadlines.
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 6 * 3600}
    _default_results = CELERY_BROKER_URL if CELERY_BROKER_URL.startswith("redis") else "rpc://"
CELERY_RESULT_BACKEND = env_str("CELERY_RESULT_BACKEND", _default_results)
CELERY_TIMEZONE = TIME_ZONE
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 4
CELERY_RESULT_EXPIRES = 3600
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Clocks (config/deadlines.py): how often each worker sweeps overdue deadlines, and whether
# each deadline also gets an eta task (off only to measure the sweeper alone).
CLOCK_SWEEP_SECONDS = env_int("CLOCK_SWEEP_SECONDS", 2, minimum=1)
CLOCKS_USE_ETA = env_bool("CLOCKS_USE_ETA", True)
# Every worker sweeps overdue deadlines itself (config/worker.py); off only to measure or
# test the eta path alone.
CLOCKS_WORKER_SWEEP = env_bool("CLOCKS_WORKER_SWEEP", True)
# How many seconds one minute of a tournament's clocks lasts (match and game limits,
# extensions): 60; fewer only to play an event in time lapse (bench/soak.py).
CLOCK_MINUTE_SECONDS = env_int("CLOCK_MINUTE_SECONDS", 60, minimum=1)
# Online games (games/clocks.py, docs/online-play.md).
GAMES_DECISION_SECONDS = env_int("GAMES_DECISION_SECONDS", 60, minimum=5)
GAMES_SWAP_WINDOW_SECONDS = env_int("GAMES_SWAP_WINDOW_SECONDS", 120, minimum=0)
GAMES_PRACTICE_GAME_MINUTES = env_int("GAMES_PRACTICE_GAME_MINUTES", 20, minimum=1)
GAMES_DEMO_BOT_DELAY = float(env_int("GAMES_DEMO_BOT_DELAY_MS", 1500, minimum=0)) / 1000
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
# Swiss pairing (docs/pairing.md "Background pairing"): the most work, in cubed matching
# nodes (tournaments/pairing/work.py), a request may spend pairing a round; a round that
# needs more is paired by a background job. 0.2-0.5 s per million on the shared 2-core
# machine (docs/benchmarks.md).
PAIRING_SYNC_WORK = env_int("PAIRING_SYNC_WORK", 1_500_000, minimum=0)
# A pairing job no worker has started after this long (seconds) is failed when the
# organiser pairs again: its task was lost.
PAIRING_QUEUE_TIMEOUT = env_int("PAIRING_QUEUE_TIMEOUT", 600, minimum=60)

# --- REST framework and OpenAPI -------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_PARSER_CLASSES": [
        "config.parsers.SafeJSONParser",
        "config.parsers.SingleValueFormParser",
        "config.parsers.StrictMultiPartParser",
    ],
    "DEFAULT_PAGINATION_CLASS": "config.pagination.BoundedLimitOffsetPagination",
    "PAGE_SIZE": 100,
    "EXCEPTION_HANDLER": "config.api.exception_handler",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "IRONDIE tournaments API",
    "DESCRIPTION": "Players, dice sets, tournaments, matches and online games of IRONDIE.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # The docs pages load pinned copies of Swagger UI and ReDoc from our own static files
    # (drf-spectacular-sidecar), so they work offline; the defaults load @latest from a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Swagger UI would otherwise send the schema to the online validator at swagger.io.
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "validatorUrl": None},
    # Choice sets that share a field name ("kind", "status", "state"): name each enum.
    "ENUM_NAME_OVERRIDES": {
        "GameKindEnum": "games.models.GameSession.Kind",
        "PenaltyKindEnum": "tournaments.models.Penalty.Kind",
        "MatchStatusEnum": "tournaments.models.Match.Status",
        "RoundStatusEnum": "tournaments.models.Round.Status",
        "RoundStageEnum": "tournaments.models.Round.Stage",
        "TournamentStatusEnum": "tournaments.models.Tournament.Status",
        "GameStatusEnum": "games.models.GameSession.Status",
        "MatchClockStateEnum": "tournaments.serializers.CLOCK_STATES",
        "RoundClockStateEnum": "tournaments.serializers.ROUND_CLOCK_STATES",
        "SideEnum": "tournaments.serializers.SIDES",
        "HostedGameEnum": "tournaments.games.GAME_CHOICES",
    },
    # Requests and answers get separate components, so that answers can be described
    # exactly (config/schema.py) while request bodies stay open.
    "COMPONENT_SPLIT_REQUEST": True,
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "config.schema.document_error_responses",
        "config.schema.close_answer_objects",
    ],
}

# --- Logging: one JSON object per line on stdout ---------------------------------------
LOG_LEVEL = env_str("LOG_LEVEL", "INFO").upper()
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"json": {"()": "config.logging.JsonFormatter"}},
    "handlers": {
        "stdout": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stdout",
            "formatter": "json",
        }
    },
    "root": {"handlers": ["stdout"], "level": LOG_LEVEL},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
        "celery": {"level": LOG_LEVEL},
        # Failures and lockouts are warnings; its INFO lines repeat on every attempt.
        "axes": {"level": "WARNING"},
    },
}

# --- HTTPS (docs/operations.md "Production configuration") -----------------------------
# The zero-setup run is plain http://127.0.0.1, so nothing here is on by default: a
# Secure cookie would never come back over http and nobody could log in. Production
# says HTTPS=true (served over TLS, directly or by a proxy that terminates it), which
# turns on secure cookies, the redirect to https and HSTS; each can still be set alone.
HTTPS = env_bool("HTTPS", False)
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", HTTPS)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", HTTPS)
# Health probes come from inside, over plain http.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_HSTS_SECONDS = env_int("HSTS_SECONDS", 31536000 if HTTPS else 0, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("HSTS_INCLUDE_SUBDOMAINS", HTTPS)
SECURE_HSTS_PRELOAD = env_bool("HSTS_PRELOAD", HTTPS)
# Behind a TLS-terminating proxy: the header it sets to "https", e.g. X-Forwarded-Proto.
# Only set it when the proxy always sets (or strips) that header itself.
SECURE_PROXY_SSL_HEADER = env_proxy_ssl_header("SECURE_PROXY_SSL_HEADER")
