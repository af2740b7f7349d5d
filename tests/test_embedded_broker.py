"""The embedded broker (config/broker.py) under concurrent writes, with a real worker.

Several processes publish large messages at once while a real ``celery worker`` (prefork,
as ``manage.py serve`` runs it) consumes: every message arrives whole and exactly once,
the worker never dies on a half-written file, nothing is set aside. Then a worker killed
while it holds eta tasks: its successor runs them (the claims of a dead consumer go back
to the queue). kombu's filesystem transport as shipped fails the first part
(bench/broker.py, docs/operations.md "The embedded broker")."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.waiting import stop_process

ROOT = Path(__file__).resolve().parent.parent
PRODUCERS, MESSAGES, SIZE = 6, 60, 50_000

PRODUCE = """
import datetime, sys
import django
django.setup()
from config.tasks import echo
prefix, count, size, eta = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
when = datetime.datetime.now(datetime.UTC) + datetime.timedelta(seconds=eta) if eta else None
for i in range(count):
    body = f"{prefix}-{i}:" + prefix[-1] * size
    echo.apply_async((body,), task_id=f"{prefix}-{i}", eta=when)
"""


def _embedded_env(var_dir: Path) -> dict:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "CELERY_BROKER_URL", "REDIS_URL", "CELERY_RESULT_BACKEND"}
    }
    env.update(VAR_DIR=str(var_dir), PYTHONUNBUFFERED="1", DJANGO_SETTINGS_MODULE="config.settings")
    return env


def _worker(env, log):
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--concurrency", "2"]
        + ["--loglevel", "WARNING", "--without-mingle", "--without-gossip"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def _produce(env, prefix, count, size, eta=0.0):
    return subprocess.Popen(
        [sys.executable, "-c", PRODUCE, prefix, str(count), str(size), str(eta)],
        cwd=ROOT,
        env=env,
    )


def _results(var_dir: Path, prefix: str) -> dict:
    """Task id -> result, from the file result backend (a file per finished task)."""
    found = {}
    for path in (var_dir / "results").glob(f"celery-task-meta-{prefix}*"):
        try:
            meta = json.loads(path.read_bytes())
        except ValueError:
            continue  # the result backend is still writing it
        found[meta["task_id"]] = meta["result"]
    return found


def _wait_for_results(var_dir, prefix, expected, worker, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and worker.poll() is None:
        if len(_results(var_dir, prefix)) >= expected:
            break
        time.sleep(0.5)
    time.sleep(1)
    return _results(var_dir, prefix)


@pytest.mark.slow
def test_concurrent_writers_never_produce_a_half_read_message_and_a_killed_worker_loses_nothing(
    tmp_path, embedded_database
):
    env = _embedded_env(tmp_path)
    embedded_database(tmp_path)  # migrated: the worker's deadline sweeper reads the database
    log_path = tmp_path / "worker.log"
    with open(log_path, "ab") as log:
        worker = _worker(env, log)
        try:
            producers = [_produce(env, f"p{n}", MESSAGES, SIZE) for n in range(PRODUCERS)]
            assert [p.wait(timeout=180) for p in producers] == [0] * PRODUCERS
            results = _wait_for_results(tmp_path, "p", PRODUCERS * MESSAGES, worker, 180)
            alive = worker.poll() is None
        finally:
            stop_process(worker)
        output = log_path.read_text()
        assert alive, output[-3000:]
        assert "JSONDecodeError" not in output and "Unrecoverable error" not in output
        assert list((tmp_path / "broker" / "failed").iterdir()) == []
        expected = {
            f"p{n}-{i}": f"p{n}-{i}:" + str(n) * SIZE
            for n in range(PRODUCERS)
            for i in range(MESSAGES)
        }
        assert results.keys() == expected.keys()  # none lost
        assert results == expected  # every message whole

        # A worker killed while holding eta tasks: the next worker gets them back.
        worker = _worker(env, log)
        try:
            _produce(env, "k9", 20, 100, eta=8).wait(timeout=60)
            time.sleep(4)  # the worker has taken them and holds them unacknowledged
            claimed = list((tmp_path / "broker" / "claimed").rglob("*.msg"))
            assert len(claimed) == 20
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait(timeout=10)
        finally:
            stop_process(worker)
        worker = _worker(env, log)
        try:
            results = _wait_for_results(tmp_path, "k9", 20, worker, 40)
        finally:
            stop_process(worker)
        assert len(results) == 20
        assert list((tmp_path / "broker" / "claimed").rglob("*.msg")) == []
