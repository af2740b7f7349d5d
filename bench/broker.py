"""Embedded broker against Redis: round-trip latency and throughput of a trivial task.

Run: .venv/bin/python bench/broker.py [--tasks 200]
Each broker is measured in a fresh process (settings are read at start-up) with a real
worker thread (celery.contrib.testing.worker.start_worker).
"""

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def measure(tasks: int) -> dict:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from celery.contrib.testing.worker import start_worker

    from config.celery import app
    from config.tasks import echo

    with start_worker(
        app, perform_ping_check=False, pool="threads", concurrency=4, shutdown_timeout=10
    ):
        echo.delay("warm-up").get(timeout=30)
        latencies = []
        for _ in range(20):  # one at a time: the latency a clock task sees
            start = time.perf_counter()
            echo.delay(1).get(timeout=30, interval=0.01)
            latencies.append(time.perf_counter() - start)
        start = time.perf_counter()
        results = [echo.delay(i) for i in range(tasks)]
        for result in results:
            result.get(timeout=120, interval=0.01)
        elapsed = time.perf_counter() - start
    return {
        "median_latency_ms": round(statistics.median(latencies) * 1000, 1),
        "max_latency_ms": round(max(latencies) * 1000, 1),
        "throughput_per_s": round(tasks / elapsed, 1),
    }


def redis_up() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=1):
            return True
    except OSError:
        return False


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tasks", type=int, default=200)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.tasks)))
        return
    brokers = {"filesystem (embedded default)": "filesystem://"}
    if redis_up():
        brokers["redis"] = "redis://127.0.0.1:6379/13"
    print(f"{'broker':32} {'median ms':>10} {'max ms':>8} {'tasks/s':>9}")
    for label, url in brokers.items():
        with tempfile.TemporaryDirectory() as var_dir:
            env = {
                k: v
                for k, v in os.environ.items()
                if k not in {"REDIS_URL", "CELERY_RESULT_BACKEND"}
            }
            env.update(CELERY_BROKER_URL=url, VAR_DIR=var_dir, LOG_LEVEL="WARNING")
            out = subprocess.run(
                [sys.executable, __file__, "--child", "--tasks", str(args.tasks)],
                env=env,
                capture_output=True,
                text=True,
                check=True,
                cwd=ROOT,
            )
        figures = json.loads(out.stdout.strip().splitlines()[-1])
        print(
            f"{label:32} {figures['median_latency_ms']:>10} {figures['max_latency_ms']:>8} {figures['throughput_per_s']:>9}"
        )


if __name__ == "__main__":
    main()
