"""The README's first command: demo data, and web + worker + beat started and stopped together."""

import http.cookiejar
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
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


@pytest.mark.django_db
def test_the_demo_event_names_its_organiser_and_head_judge_without_login_names(client):
    """The demo staff have public names: the event page showed "Head judge: —"."""
    call_command("load_demo")
    tournament = Tournament.objects.get()
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "Head judge: Anton Belov" in page
    assert "Head judge: —" not in page and ">judge<" not in page


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _get(url: str, timeout: float = 5) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def _started(lines: list[str], name: str) -> list[dict]:
    """serve's "started" log records for one process (JSON lines on stdout)."""
    records = []
    for line in list(lines):
        if line.startswith("{") and '"serve: started"' in line:
            record = json.loads(line)
            if record.get("child") == name:
                records.append(record)
    return records


def _signed_in_pages(base: str, username: str) -> dict[str, int]:
    """Log in as a demo user and read the pages each role starts from: path -> status."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    login = opener.open(f"{base}/accounts/login/", timeout=10).read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', login).group(1)
    form = {"username": username, "password": "irondie-demo", "csrfmiddlewaretoken": token}
    request = urllib.request.Request(
        f"{base}/accounts/login/",
        data=urllib.parse.urlencode(form).encode(),
        headers={"Referer": f"{base}/accounts/login/"},
    )
    assert opener.open(request, timeout=10).geturl() != f"{base}/accounts/login/", username
    statuses = {}
    events = opener.open(f"{base}/tournaments/", timeout=10).read().decode()
    event = re.search(r'href="(/tournaments/\d+/)"', events).group(1)
    for path in ("/", "/games/", "/me/", "/tournaments/", event, f"{event}standings/"):
        try:
            with opener.open(f"{base}{path}", timeout=10) as response:
                statuses[path] = response.status
        except urllib.error.HTTPError as exc:
            statuses[path] = exc.code
    return statuses


@pytest.mark.slow
def test_serve_runs_web_worker_and_beat_restarts_a_dead_worker_and_stops_on_ctrl_c(
    tmp_path, embedded_database
):
    # Migrated (tests/embedded_db.py): serve's migrate finds nothing to do; serve migrating
    # an empty database is the fresh install's part (tests/test_fresh_install.py).
    embedded_database(tmp_path)
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
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
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(process.stdout), daemon=True)
    reader.start()
    try:
        # web, worker (its heartbeat) and beat (its heartbeat) all up
        body, deadline = None, time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                status, text = _get(f"{base}/healthz", timeout=2)
                if status == 200 and json.loads(text)["status"] == "ok":
                    body = json.loads(text)
                    break
            except OSError:
                pass
            time.sleep(0.5)
        assert body is not None, "".join(lines)[-3000:]
        assert body["checks"] == {"database": "ok", "broker": "ok", "worker": "ok", "beat": "ok"}
        status, page = _get(f"{base}/")
        assert status == 200 and "IRONDIE" in page
        # Each role's pages on the embedded defaults (SQLite lacks some JSON lookups).
        for username in ("player1", "organiser", "judge"):
            statuses = _signed_in_pages(base, username)
            assert set(statuses.values()) == {200}, (username, statuses)
        # DEBUG is off by default: WhiteNoise serves what serve collected.
        with urllib.request.urlopen(f"{base}/static/site.css", timeout=5) as css:
            assert css.headers["Content-Type"].startswith("text/css")
        assert list(tmp_path.glob("celerybeat-schedule*"))

        # kill the worker (its whole process group, as a crash or the OOM killer would)
        (first,) = _started(lines, "worker")
        os.killpg(first["pid"], signal.SIGKILL)
        killed_at = time.monotonic()
        answers = []
        while len(_started(lines, "worker")) < 2 and time.monotonic() - killed_at < 30:
            answers.append(_get(f"{base}/healthz")[0])
            answers.append(_get(f"{base}/tournaments/")[0])
            time.sleep(0.3)
        restarted = _started(lines, "worker")
        assert len(restarted) == 2 and restarted[1]["pid"] != first["pid"]
        assert restarted[1]["restarts"] == 1
        assert set(answers) == {200}, answers  # the web server kept answering throughout
        assert any('"serve: process died; restarting"' in line for line in lines)

        # the new worker records its heartbeat: healthy again
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            status, text = _get(f"{base}/healthz")
            body = json.loads(text)
            if body["heartbeat_age_seconds"]["worker"] < time.monotonic() - killed_at:
                break
            time.sleep(0.5)
        assert status == 200 and body["checks"]["worker"] == "ok"
        assert body["heartbeat_age_seconds"]["worker"] < time.monotonic() - killed_at
    finally:
        os.killpg(process.pid, signal.SIGINT)
        process.wait(timeout=60)
        reader.join(timeout=5)
    output = "".join(lines)
    assert "demo data loaded: logins" in output
    assert "Stopped web, worker and beat." in output
    assert process.returncode == 0
