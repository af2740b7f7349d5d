"""Service-wide tasks: the heartbeat beat sends, which /healthz and tests can observe."""

import logging

from celery import shared_task
from django.core.cache import cache
from django.utils import timezone

log = logging.getLogger(__name__)

HEARTBEAT_CACHE_KEY = "celery:last-heartbeat"


@shared_task(name="config.tasks.heartbeat")
def heartbeat() -> str:
    now = timezone.now().isoformat()
    cache.set(HEARTBEAT_CACHE_KEY, now, timeout=None)
    log.info("celery heartbeat", extra={"at": now})
    return now


@shared_task(name="config.tasks.echo")
def echo(value):
    """Round-trips a value through the broker and a worker (used by the worker test)."""
    return value
