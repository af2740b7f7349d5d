"""Reading settings from the environment, with a clear error for every malformed value.

django-environ parses the URLs; the checks here turn a bad value into an
ImproperlyConfigured that names the variable, so start-up stops with a message a
person can act on instead of a traceback from deep inside a driver.
"""

from __future__ import annotations

import os
import zoneinfo
from urllib.parse import urlparse

import environ
from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def _bad(name: str, value: str, expected: str) -> ImproperlyConfigured:
    return ImproperlyConfigured(f"Setting {name} is malformed: got {value!r}, expected {expected}.")


def env_str(name: str, default: str) -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise _bad(name, raw, "true or false (also 1/0, yes/no, on/off)")


def env_int(name: str, default: int, *, minimum: int | None = None) -> int:
    raw = os.environ.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise _bad(name, raw, "a whole number") from None
    if minimum is not None and value < minimum:
        raise _bad(name, raw, f"a whole number of at least {minimum}")
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    items = [item.strip() for item in raw.split(",") if item.strip()]
    if not items:
        raise _bad(name, raw, "a comma-separated list with at least one entry")
    return items


def env_time_zone(name: str, default: str) -> str:
    raw = os.environ.get(name, default)
    try:
        zoneinfo.ZoneInfo(raw)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise _bad(name, raw, "an IANA time zone name such as Europe/Rome or UTC") from None
    return raw


def env_database(name: str, default: str) -> dict:
    raw = os.environ.get(name, default)
    scheme = urlparse(raw).scheme
    if scheme not in {"sqlite", "postgres", "postgresql", "pgsql"}:
        raise _bad(
            name, raw, "a database URL such as postgres://user@host:5432/name or sqlite:///path"
        )
    try:
        config = environ.Env.db_url_config(raw)
    except Exception as exc:  # the parser's own errors do not name the variable
        raise _bad(name, raw, f"a valid database URL ({exc})") from None
    if scheme != "sqlite" and not config.get("NAME"):
        raise _bad(name, raw, "a database URL that names the database after the host")
    return config


def env_url(name: str, default: str, *, schemes: set[str]) -> str:
    raw = os.environ.get(name, default)
    parsed = urlparse(raw)
    if parsed.scheme not in schemes:
        raise _bad(
            name, raw, "a URL starting with " + " or ".join(f"{s}://" for s in sorted(schemes))
        )
    if parsed.scheme in {"redis", "rediss"}:
        try:
            parsed.port  # noqa: B018 - raises ValueError on a malformed port
        except ValueError:
            raise _bad(name, raw, "a redis URL with a numeric port") from None
        if not parsed.hostname:
            raise _bad(name, raw, "a redis URL with a host, e.g. redis://127.0.0.1:6379/0")
    return raw


def env_proxy_ssl_header(name: str) -> tuple[str, str] | None:
    """A header name such as X-Forwarded-Proto -> Django's ("HTTP_X_FORWARDED_PROTO", "https")."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return None
    if not all(part.isalnum() for part in raw.split("-")):
        raise _bad(name, raw, "an HTTP header name such as X-Forwarded-Proto")
    return "HTTP_" + raw.upper().replace("-", "_"), "https"
