"""Settings: each malformed environment value stops start-up with a message naming it."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def start_django(**env_overrides) -> subprocess.CompletedProcess:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "CELERY_BROKER_URL", "REDIS_URL"}
    }
    env.update(env_overrides, DJANGO_SETTINGS_MODULE="config.settings")
    return subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); print('started')"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(
    "name,value",
    [
        ("DEBUG", "maybe"),
        ("DATABASE_URL", "mysql-ish://nowhere"),
        ("DATABASE_URL", "postgres://host:notaport/db"),
        ("CELERY_BROKER_URL", "carrier-pigeon://coop"),
        ("REDIS_URL", "redis://:abc"),
        ("TIME_ZONE", "Mars/Olympus_Mons"),
        ("ALLOWED_HOSTS", " , "),
        ("DATABASE_CONN_MAX_AGE", "forever"),
    ],
)
def test_malformed_setting_stops_start_up_naming_it(name, value):
    env = {name: value}
    if name == "DATABASE_CONN_MAX_AGE":
        env["DATABASE_URL"] = "postgres://postgres@127.0.0.1:5432/irondie"
    result = start_django(**env)
    assert result.returncode != 0
    assert f"Setting {name} is malformed" in result.stderr
    assert "started" not in result.stdout


def test_embedded_defaults_need_no_server(tmp_path):
    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.DATABASES['default']['ENGINE'], s.CELERY_BROKER_URL, s.CELERY_RESULT_BACKEND)"
    )
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "CELERY_BROKER_URL", "REDIS_URL"}
    }
    env.update(DJANGO_SETTINGS_MODULE="config.settings", VAR_DIR=str(tmp_path))
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    engine, broker, results = out.stdout.split()
    assert engine == "django.db.backends.sqlite3"
    assert broker == "filesystem://"
    assert results.startswith("file://") and (tmp_path / "broker" / "out").is_dir()


def test_valid_values_are_read(tmp_path):
    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.DEBUG, s.TIME_ZONE, ','.join(s.ALLOWED_HOSTS), s.DATABASES['default']['NAME'])"
    )
    env = dict(
        os.environ,
        DJANGO_SETTINGS_MODULE="config.settings",
        DEBUG="off",
        SECRET_KEY="x" * 50,
        TIME_ZONE="Europe/Rome",
        ALLOWED_HOSTS="irondie.example, localhost",
        DATABASE_URL="postgres://u@db.example:5432/irondie_prod",
        VAR_DIR=str(tmp_path),
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == [
        "False",
        "Europe/Rome",
        "irondie.example,localhost",
        "irondie_prod",
    ]
