"""Run the whole service in one terminal: web server, Celery worker and Celery beat.

Used by the README's first command. Ctrl-C stops all three. A process that dies is
logged and restarted with backoff while the others keep running (docs/operations.md).
"""

import contextlib
import logging
import os
import signal
import subprocess
import sys
import time

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand

from players.demo import DEMO_PASSWORD

log = logging.getLogger(__name__)


class Command(BaseCommand):
    help = "Compile translations, migrate, load demo data, then run web + Celery worker + beat until Ctrl-C."

    def add_arguments(self, parser):
        parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
        parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
        parser.add_argument("--no-demo", action="store_true", help="Do not load the demo data.")

    def handle(self, *args, port, host, no_demo, **options):
        database = settings.DATABASES["default"]
        self.stdout.write(
            f"Database: {database['ENGINE'].rsplit('.', 1)[-1]} {database.get('NAME', '')}"
        )
        self.stdout.write(f"Broker:   {settings.CELERY_BROKER_URL.split('@')[-1]}")
        call_command("compiletranslations", verbosity=0)
        call_command("migrate", interactive=False, verbosity=0)
        if not no_demo:
            call_command("load_demo")
        python = sys.executable
        commands = {
            "web": [
                python,
                "-m",
                "gunicorn",
                "config.wsgi",
                "--bind",
                f"{host}:{port}",
                "--workers",
                "2",
                "--threads",
                "4",
                "--access-logfile",
                "-",
            ],
            "worker": [
                python,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "--loglevel",
                "INFO",
                "--concurrency",
                "2",
            ],
            "beat": [python, "-m", "celery", "-A", "config", "beat", "--loglevel", "INFO"],
        }
        # WhiteNoise serves var/static with DEBUG off (the default): collect it every time.
        call_command("collectstatic", interactive=False, verbosity=0)
        children = [Child(name, command) for name, command in commands.items()]
        try:
            for child in children:
                child.start()
        except BaseException:  # never leave a started child behind
            for child in children:
                child.terminate()
            raise
        self.stdout.write(
            self.style.SUCCESS(
                f"\nIRONDIE is running at http://{host}:{port}/\n"
                f"  admin http://{host}:{port}/admin/   API docs http://{host}:{port}/api/docs/\n"
                f"  {self._accounts_line(no_demo)}\n"
                "Press Ctrl-C to stop web, worker and beat.\n"
            )
        )
        stopping = False

        def stop(signum, frame):
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGTERM, stop)
        try:
            while not stopping:
                for child in children:
                    child.supervise()
                time.sleep(0.5)
        finally:
            for child in children:
                child.terminate()
            deadline = time.monotonic() + 15
            for child in children:
                child.wait_or_kill(deadline)
            self.stdout.write("Stopped web, worker and beat.")

    def _accounts_line(self, no_demo: bool) -> str:
        """Who can log in: the demo superuser `admin` exists only with the demo data."""
        if not no_demo:
            return (
                f"demo data loaded: logins (password {DEMO_PASSWORD}) organiser, judge, "
                "admin (superuser), player1 .. player16"
            )
        return "no demo data: create an account with `python manage.py createsuperuser`"


class Child:
    """One supervised process: restarted when it dies, after a backoff that doubles
    (1 s up to 60 s) while it keeps dying and resets once it has run for STABLE_SECONDS."""

    FIRST_BACKOFF, MAX_BACKOFF, STABLE_SECONDS = 1.0, 60.0, 60.0

    def __init__(self, name: str, command: list[str]):
        self.name, self.command = name, command
        self.process: subprocess.Popen | None = None
        self.backoff = self.FIRST_BACKOFF
        self.restart_at: float | None = None
        self.started_at = 0.0
        self.restarts = 0

    def start(self) -> None:
        # Its own session: Ctrl-C reaches serve only, which stops the children in order.
        self.process = subprocess.Popen(self.command, start_new_session=True)
        self.started_at = time.monotonic()
        log.info(
            "serve: started",
            extra={"child": self.name, "pid": self.process.pid, "restarts": self.restarts},
        )

    def supervise(self) -> None:
        now = time.monotonic()
        if self.process is None:
            if now >= self.restart_at:
                self.restarts += 1
                self.start()
            return
        code = self.process.poll()
        if code is None:
            if now - self.started_at >= self.STABLE_SECONDS:
                self.backoff = self.FIRST_BACKOFF
            return
        self._kill_group()  # what it left behind (e.g. pool processes)
        self.process, self.restart_at = None, now + self.backoff
        log.error(
            "serve: process died; restarting",
            extra={
                "child": self.name,
                "exit_code": code,
                "ran_seconds": round(now - self.started_at, 1),
                "restart_in_seconds": self.backoff,
            },
        )
        self.backoff = min(self.backoff * 2, self.MAX_BACKOFF)

    def _kill_group(self, signum=signal.SIGKILL) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signum)

    def terminate(self) -> None:
        """TERM to the child's main process, which stops its own workers: Celery's warm
        shutdown, gunicorn's graceful one. TERM to the whole group killed the Celery
        pool processes under the worker, which then hung until killed."""
        if self.process is not None and self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.send_signal(signal.SIGTERM)

    def wait_or_kill(self, deadline: float) -> None:
        if self.process is None:
            return
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=max(0.1, deadline - time.monotonic()))
        self._kill_group()  # still running past the deadline, or left behind by it
        self.process.wait()
