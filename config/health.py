"""/healthz: is the database answering, is the broker reachable."""

import logging
import os

from django.conf import settings
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from kombu import Connection

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
            settings.CELERY_BROKER_URL, transport_options=options, connect_timeout=2
        ) as conn:
            conn.ensure_connection(max_retries=1, interval_start=0, timeout=2)
            if conn.transport_cls == "filesystem":
                _check_folders(conn)
    except Exception as exc:
        return f"broker unreachable: {exc.__class__.__name__}: {exc}".strip()
    return None


def _check_folders(conn) -> None:
    for key in ("data_folder_in", "data_folder_out"):
        folder = conn.transport_options.get(key)
        if not folder or not os.access(folder, os.W_OK):
            raise OSError(f"broker folder {key} is missing or not writable")


@never_cache
def healthz(request):
    failures = {
        name: error
        for name, error in (("database", check_database()), ("broker", check_broker()))
        if error
    }
    checks = {name: ("failed" if name in failures else "ok") for name in ("database", "broker")}
    if failures:
        log.warning("health check failed", extra={"failures": failures})
        return JsonResponse(
            {"status": "unavailable", "checks": checks, "errors": failures}, status=503
        )
    return JsonResponse({"status": "ok", "checks": checks})
