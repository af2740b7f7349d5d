"""One settings module, read from the environment (docs/operations.md lists every variable).

With nothing set it runs on the embedded defaults: SQLite in var/ and Celery's
filesystem broker in var/, so a fresh clone needs no server.
"""

from pathlib import Path

from django.utils.translation import gettext_lazy as _

from config.env import (
    env_bool,
    env_database,
    env_int,
    env_list,
    env_str,
    env_time_zone,
    env_url,
)

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("VAR_DIR", str(BASE_DIR / "var")))
VAR_DIR.mkdir(parents=True, exist_ok=True)

DEBUG = env_bool("DEBUG", True)
SECRET_KEY = env_str("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        from django.core.exceptions import ImproperlyConfigured

        raise ImproperlyConfigured("Setting SECRET_KEY is required when DEBUG is false.")
    SECRET_KEY = "insecure-development-key-set-SECRET_KEY-in-production"
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
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
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
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20
else:
    DATABASES["default"]["CONN_MAX_AGE"] = env_int("DATABASE_CONN_MAX_AGE", 60, minimum=0)
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
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
# Embedded default: kombu's filesystem transport, a folder of message files in var/
# (docs/operations.md explains the choice and bench/broker.py measures it).
BROKER_DIR = VAR_DIR / "broker"
CELERY_BROKER_URL = env_url(
    "CELERY_BROKER_URL", "filesystem://", schemes={"filesystem", "redis", "rediss", "amqp"}
)
if CELERY_BROKER_URL.startswith("filesystem"):
    for sub in ("out", "processed", "control"):
        (BROKER_DIR / sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(BROKER_DIR / "out"),
        "data_folder_out": str(BROKER_DIR / "out"),
        "processed_folder": str(BROKER_DIR / "processed"),
        "control_folder": str(BROKER_DIR / "control"),
        "store_processed": False,
        # The worker polls the folder; 0.1 s keeps clock tasks prompt at negligible CPU.
        "polling_interval": 0.1,
    }
    _default_results = f"file://{VAR_DIR / 'results'}"
    (VAR_DIR / "results").mkdir(exist_ok=True)
else:
    # Longer than any eta/countdown we schedule, so Redis never redelivers a waiting
    # eta task (clock handlers are idempotent anyway).
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 6 * 3600}
    _default_results = CELERY_BROKER_URL if CELERY_BROKER_URL.startswith("redis") else "rpc://"
CELERY_RESULT_BACKEND = env_str("CELERY_RESULT_BACKEND", _default_results)
CELERY_TIMEZONE = TIME_ZONE
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 4
CELERY_RESULT_EXPIRES = 3600
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Clocks (tournaments/clocks.py): how often beat sweeps overdue deadlines, and whether
# each deadline also gets an eta task (off only to measure the sweeper alone).
CLOCK_SWEEP_SECONDS = env_int("CLOCK_SWEEP_SECONDS", 2, minimum=1)
CLOCKS_USE_ETA = env_bool("CLOCKS_USE_ETA", True)
# Online games (games/clocks.py, docs/online-play.md).
GAMES_DECISION_SECONDS = env_int("GAMES_DECISION_SECONDS", 60, minimum=5)
GAMES_SWAP_WINDOW_SECONDS = env_int("GAMES_SWAP_WINDOW_SECONDS", 120, minimum=0)
GAMES_PRACTICE_GAME_MINUTES = env_int("GAMES_PRACTICE_GAME_MINUTES", 20, minimum=1)
GAMES_DEMO_BOT_DELAY = float(env_int("GAMES_DEMO_BOT_DELAY_MS", 1500, minimum=0)) / 1000
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")

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
        "rest_framework.parsers.FormParser",
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
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "config.schema.document_error_responses",
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
    },
}

if not DEBUG:
    SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
