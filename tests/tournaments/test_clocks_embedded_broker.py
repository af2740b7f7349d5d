"""The clocks work on the embedded broker too (kombu's filesystem transport)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_eta_enforcement_on_the_filesystem_broker(make_running_round, tmp_path):
    if connection.vendor != "postgresql":
        pytest.skip("the child process needs the PostgreSQL test database")
    round_ = make_running_round()
    match = round_.matches.order_by("table").first()
    db = connection.settings_dict
    env = {k: v for k, v in os.environ.items() if k not in {"CELERY_BROKER_URL", "REDIS_URL"}}
    env.update(
        DATABASE_URL=f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        VAR_DIR=str(tmp_path),
        CLOCKS_USE_ETA="true",
        PYTHONPATH=str(ROOT),
    )
    out = subprocess.run(
        [sys.executable, str(Path(__file__).with_name("embedded_broker_check.py")), str(match.pk)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=90,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    outcome = json.loads(out.stdout.strip().splitlines()[-1])
    assert outcome["called"] and outcome["entries"] == 1
    assert 0 <= outcome["late_seconds"] < 1.5
