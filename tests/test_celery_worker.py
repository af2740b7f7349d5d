"""A real Celery worker on the configured broker (Redis in CI) runs a task sent through it."""

import time

import pytest
from celery import Celery
from celery.contrib.testing.worker import start_worker
from django.core.cache import cache
from django.db import transaction

from config.celery import app as celery_app
from config.tasks import HEARTBEAT_CACHE_KEY, echo, heartbeat


@pytest.mark.django_db(transaction=True)
def test_task_round_trips_through_a_real_worker():
    with start_worker(celery_app, perform_ping_check=False, pool="solo", shutdown_timeout=10):
        result = echo.delay({"hello": "worker"})
        assert result.get(timeout=20) == {"hello": "worker"}
        assert heartbeat.delay().get(timeout=20)


@pytest.mark.django_db(transaction=True)
def test_tasks_queued_on_commit_are_sent_only_after_the_commit(monkeypatch):
    cache.delete(HEARTBEAT_CACHE_KEY)
    sent = []  # every message the app publishes (a send is done when it returns)
    send = Celery.send_task
    monkeypatch.setattr(
        Celery,
        "send_task",
        lambda self, name, *a, **kw: sent.append(name) or send(self, name, *a, **kw),
    )
    with start_worker(celery_app, perform_ping_check=False, pool="solo", shutdown_timeout=10):
        with transaction.atomic():
            heartbeat.delay_on_commit()
            # Not sent while the transaction is open.
            assert sent == [] and cache.get(HEARTBEAT_CACHE_KEY) is None
        assert sent == [heartbeat.name]
        deadline = time.monotonic() + 20
        while cache.get(HEARTBEAT_CACHE_KEY) is None and time.monotonic() < deadline:
            time.sleep(0.1)
        assert cache.get(HEARTBEAT_CACHE_KEY) is not None
