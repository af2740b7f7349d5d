"""/healthz reports the database and the broker: 200 when both answer, 503 naming what failed."""

import pytest

from config import health


@pytest.mark.django_db
def test_healthy(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "checks": {"database": "ok", "broker": "ok"}}


@pytest.mark.django_db
def test_broker_down_gives_503_naming_the_broker(client, settings):
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:9/0"
    settings.CELERY_BROKER_TRANSPORT_OPTIONS = {}
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["checks"] == {"database": "ok", "broker": "failed"}
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
    assert "connection refused" in body["errors"]["database"]
