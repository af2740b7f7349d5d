"""The README's first command: demo data, and web + worker + beat started and stopped together."""

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from django.core.management import call_command

from games.models import GameSession
from tournaments.models import Round, Tournament

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.django_db
def test_demo_data_loads_twice_and_has_a_tournament_mid_swiss():
    call_command("load_demo")
    call_command("load_demo")
    tournament = Tournament.objects.get()
    assert tournament.status == Tournament.Status.SWISS
    assert tournament.registrations.count() == 16
    assert list(tournament.rounds.values_list("status", flat=True)) == [
        Round.Status.CLOSED,
        Round.Status.CLOSED,
        Round.Status.IN_PROGRESS,
    ]
    assert tournament.rounds.get(number=3).matches.filter(status="disputed").exists()
    demo_game = GameSession.objects.get(kind=GameSession.Kind.DEMO)
    assert demo_game.status == GameSession.Status.ACTIVE and demo_game.version > 0


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.slow
def test_serve_runs_web_worker_and_beat_on_embedded_defaults_and_stops_on_ctrl_c(tmp_path):
    port = _free_port()
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "CELERY_BROKER_URL", "REDIS_URL"}
    }
    env.update(VAR_DIR=str(tmp_path), PYTHONUNBUFFERED="1")
    process = subprocess.Popen(
        [sys.executable, "manage.py", "serve", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        body, deadline = None, time.monotonic() + 90
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(
                    f"http://127.0.0.1:{port}/healthz", timeout=2
                ) as response:
                    body = response.read().decode()
                    break
            except OSError:
                time.sleep(0.5)
        assert body is not None and '"status": "ok"' in body
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as response:
            assert b"IRONDIE" in response.read()
        # DEBUG is off by default: WhiteNoise serves what serve collected.
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/static/site.css", timeout=5) as css:
            assert css.headers["Content-Type"].startswith("text/css")
        # beat writes its schedule file and the worker answers: both are up
        deadline = time.monotonic() + 30
        while not list(tmp_path.glob("celerybeat-schedule*")) and time.monotonic() < deadline:
            time.sleep(0.5)
        assert list(tmp_path.glob("celerybeat-schedule*"))
    finally:
        os.killpg(process.pid, signal.SIGINT)
        output, _ = process.communicate(timeout=60)
    assert "demo data loaded: logins" in output
    assert "Stopped web, worker and beat." in output
    assert process.returncode == 0
