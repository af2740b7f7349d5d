"""/healthz: the database, the broker, and the heartbeats of the worker and beat.

200 {"status": "ok"} when all answer; 200 {"status": "degraded"} when the web server
can serve but a worker or beat heartbeat is stale or missing (clocks and bots wait, pages
work; docs/operations.md "Health"); 503 {"status": "unavailable"} when the database or
the broker fails.
"""

import logging
import os

from django.conf import settings
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from kombu import Connection
from kombu.transport import filesystem

from config import liveness

log = logging.getLogger(__name__)


def check_database() -> str | None:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:
        return f"database unreachable: {exc.__class__.__name__}: {exc}".strip()
    return None


def check_broker() -> str | None:
    options = getattr(settings, "CELERY_BROKER_TRANSPORT_OPTIONS", {})
    try:
        with Connection(
            settings.CELERY_BROKER_URL,
            transport=getattr(settings, "CELERY_BROKER_TRANSPORT", None),
            transport_options=options,
            connect_timeout=2,
        ) as conn:
            conn.ensure_connection(max_retries=1, interval_start=0, timeout=2)
            if isinstance(conn.transport, filesystem.Transport):
                _check_folders(conn)
    except Exception as exc:
        return f"broker unreachable: {exc.__class__.__name__}: {exc}".strip()
    return None


def _check_folders(conn) -> None:
    for key in ("data_folder_in", "data_folder_out"):
        folder = conn.transport_options.get(key)
        if not folder or not os.access(folder, os.W_OK):
            raise OSError(f"broker folder {key} is missing or not writable")


def check_heartbeats() -> tuple[dict, dict]:
    """Each process: "ok", "stale" (older than STALE_SECONDS), "missing" or "unknown"."""
    try:
        ages = liveness.ages()
    except Exception:
        log.warning("heartbeats unreadable", exc_info=True)  # e.g. not migrated yet
        return dict.fromkeys(liveness.PROCESSES, "unknown"), {}
    states = {
        name: "missing" if age is None else "ok" if age <= liveness.STALE_SECONDS else "stale"
        for name, age in ages.items()
    }
    return states, ages


@never_cache
def healthz(request):
    failures = {
        name: error
        for name, error in (("database", check_database()), ("broker", check_broker()))
        if error
    }
    checks = {name: ("failed" if name in failures else "ok") for name in ("database", "broker")}
    if "database" in failures:
        states, ages = dict.fromkeys(liveness.PROCESSES, "unknown"), {}
    else:
        states, ages = check_heartbeats()
    checks.update(states)
    body = {"status": "ok", "checks": checks, "heartbeat_age_seconds": ages}
    if failures:
        log.warning("health check failed", extra={"failures": failures})
        body.update(status="unavailable", errors=failures)
        return JsonResponse(body, status=503)
    if any(state != "ok" for state in states.values()):
        body["status"] = "degraded"
    return JsonResponse(body)
