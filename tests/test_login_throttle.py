"""Login throttling on the three doors: the login page, the admin login, the API token."""

import datetime
import json
import os
import subprocess
import sys
from pathlib import Path

import axes.attempts
import axes.handlers.proxy
import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "correct-horse-9"


class Door:
    def __init__(self, name, path, wrong_status, ok_status, *, json_body=False):
        self.name, self.path = name, path
        self.wrong_status, self.ok_status, self.json_body = wrong_status, ok_status, json_body

    def attempt(self, client: Client, username: str, password: str, **extra):
        data = {"username": username, "password": password}
        if self.json_body:
            return client.post(
                self.path, json.dumps(data), content_type="application/json", **extra
            )
        return client.post(self.path, data, **extra)


DOORS = [
    Door("login page", "/accounts/login/", 200, 302),
    Door("admin login", "/admin/login/", 200, 302),
    Door("API token", "/api/auth/token/", 400, 200, json_body=True),
]


def assert_locked(door: Door, response):
    assert response.status_code == 429, (door.name, response.status_code)
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    expected = f"this account is locked from your address for {minutes} minutes"
    if door.json_body:
        assert response["Content-Type"] == "application/json"
        assert expected in response.json()["detail"]
    else:
        body = response.content.decode()
        assert expected in body and "site.css" in body
    assert int(response["Retry-After"]) == minutes * 60


@pytest.fixture
def victim(make_user):
    user = make_user("victim", password=PASSWORD)
    user.is_staff = True  # so the admin door lets the right password in
    user.save()
    return user


@pytest.mark.django_db
@pytest.mark.parametrize("door", DOORS, ids=lambda d: d.name)
def test_locked_after_the_limit_even_with_the_right_password(door, victim):
    limit = settings.AXES_FAILURE_LIMIT
    assert limit == 5
    assert settings.AXES_COOLOFF_TIME.total_seconds() == 15 * 60
    client = Client()
    for _ in range(limit - 1):
        assert door.attempt(client, "victim", "wrong-guess").status_code == door.wrong_status
    assert_locked(door, door.attempt(client, "victim", "wrong-guess"))  # the limit is reached
    assert_locked(door, door.attempt(client, "victim", "another-guess"))  # N+1th
    assert_locked(door, door.attempt(client, "victim", PASSWORD))  # right, but locked
    # Another address is not locked out of the same account (a venue shares addresses,
    # an attacker must not lock the organiser out everywhere).
    elsewhere = door.attempt(Client(), "victim", PASSWORD, REMOTE_ADDR="192.0.2.7")
    assert elsewhere.status_code == door.ok_status


@pytest.mark.django_db
@pytest.mark.parametrize("door", DOORS, ids=lambda d: d.name)
def test_unlocked_after_the_cool_off(door, victim, monkeypatch):
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        door.attempt(client, "victim", "wrong-guess")
    assert_locked(door, door.attempt(client, "victim", PASSWORD))
    # Time travel: axes stamps each attempt and measures the cool-off with now().
    later = timezone.now() + settings.AXES_COOLOFF_TIME + datetime.timedelta(seconds=5)
    for module in (axes.attempts, axes.handlers.proxy):
        monkeypatch.setattr(module, "now", lambda: later)
    response = door.attempt(client, "victim", PASSWORD)
    assert response.status_code == door.ok_status
    if door.json_body:
        assert response.json()["token"]


@pytest.mark.django_db
def test_a_success_resets_the_count(victim):
    door, client = DOORS[0], Client()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        door.attempt(client, "victim", "wrong-guess")
    assert door.attempt(client, "victim", PASSWORD).status_code == 302
    client.logout()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert door.attempt(client, "victim", "wrong-guess").status_code == 200


@pytest.mark.django_db
def test_behind_trusted_proxies_the_forwarded_address_counts(victim, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    door = DOORS[0]
    attacker = {"REMOTE_ADDR": "10.0.0.1", "HTTP_X_FORWARDED_FOR": "203.0.113.9"}
    for _ in range(settings.AXES_FAILURE_LIMIT):
        door.attempt(Client(), "victim", "wrong-guess", **attacker)
    assert_locked(door, door.attempt(Client(), "victim", PASSWORD, **attacker))
    # Same proxy, another client: not locked. A forged left-hand entry does not help.
    other = {"REMOTE_ADDR": "10.0.0.1", "HTTP_X_FORWARDED_FOR": "203.0.113.9, 198.51.100.4"}
    assert door.attempt(Client(), "victim", PASSWORD, **other).status_code == 302


EMBEDDED = """
import django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
from django.contrib.auth.models import User
from django.test import Client
User.objects.create_user("victim", password="correct-horse-9")
codes = [Client().post("/accounts/login/", {"username": "victim", "password": "x"}).status_code
         for _ in range(6)]
codes.append(Client().post("/accounts/login/", {"username": "victim",
                                                "password": "correct-horse-9"}).status_code)
print(codes)
"""


@pytest.mark.slow
def test_throttle_works_on_the_embedded_defaults(tmp_path, embedded_database):
    # Migrated (tests/embedded_db.py): the script's migrate finds nothing to do.
    embedded_database(tmp_path)
    embedded = {"DATABASE_URL", "CELERY_BROKER_URL", "REDIS_URL", "CELERY_RESULT_BACKEND"}
    env = {k: v for k, v in os.environ.items() if k not in embedded}
    env.update(DJANGO_SETTINGS_MODULE="config.settings", VAR_DIR=str(tmp_path))
    out = subprocess.run(
        [sys.executable, "-c", EMBEDDED],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == "[200, 200, 200, 200, 429, 429, 429]"
