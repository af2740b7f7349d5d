"""/healthz reports the database, the broker, and the worker's and beat's heartbeats:
200 "ok" when all answer, 200 "degraded" when a heartbeat is stale or missing, 503
"unavailable" naming the database or the broker when either fails."""

import datetime

import pytest

from config import health, liveness
from config.models import Heartbeat


def _beat(name, seconds_ago):
    Heartbeat.objects.update_or_create(
        name=name,
        defaults={"at": liveness.db_now() - datetime.timedelta(seconds=seconds_ago)},
    )


@pytest.mark.django_db
def test_healthy_when_worker_and_beat_have_fresh_heartbeats(client):
    liveness.record("worker")
    _beat("beat", 30)
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["checks"] == {"database": "ok", "broker": "ok", "worker": "ok", "beat": "ok"}
    ages = body["heartbeat_age_seconds"]
    assert 0 <= ages["worker"] < ages["beat"] and ages["beat"] >= 30


@pytest.mark.django_db
def test_stale_or_missing_heartbeat_is_degraded_but_still_200(client):
    _beat("worker", liveness.STALE_SECONDS + 30)
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "degraded"
    assert body["checks"]["worker"] == "stale" and body["checks"]["beat"] == "missing"
    assert body["heartbeat_age_seconds"]["worker"] >= liveness.STALE_SECONDS + 30
    assert body["heartbeat_age_seconds"]["beat"] is None


@pytest.mark.django_db
def test_broker_down_gives_503_naming_the_broker(client, settings):
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:9/0"
    settings.CELERY_BROKER_TRANSPORT = None
    settings.CELERY_BROKER_TRANSPORT_OPTIONS = {}
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable"
    assert body["checks"]["database"] == "ok" and body["checks"]["broker"] == "failed"
    assert body["errors"]["broker"].startswith("broker unreachable")


@pytest.mark.django_db
def test_database_down_gives_503_naming_the_database(client, monkeypatch):
    class BrokenCursor:
        def __enter__(self):
            raise health.connection.OperationalError("connection refused")

        def __exit__(self, *exc):
            return False

    from django.db import OperationalError

    monkeypatch.setattr(health.connection, "OperationalError", OperationalError, raising=False)
    monkeypatch.setattr(health.connection, "cursor", lambda: BrokenCursor())
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["checks"]["database"] == "failed"
    assert body["checks"]["worker"] == body["checks"]["beat"] == "unknown"
    assert "connection refused" in body["errors"]["database"]
