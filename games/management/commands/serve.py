"""Run the whole service in one terminal: web server, Celery worker and Celery beat.

Used by the README's first command. Ctrl-C stops all three.
"""

import os
import signal
import subprocess
import sys
import time

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand

from players.demo import DEMO_PASSWORD


class Command(BaseCommand):
    help = "Migrate, load demo data, then run web + Celery worker + beat until Ctrl-C."

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
        processes = {
            name: subprocess.Popen(cmd, start_new_session=True) for name, cmd in commands.items()
        }
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
        exit_code = 0
        try:
            while not stopping:
                for name, process in processes.items():
                    if process.poll() is not None:
                        self.stderr.write(
                            f"{name} exited with code {process.returncode}; stopping the rest."
                        )
                        exit_code, stopping = 1, True
                        break
                time.sleep(0.5)
        finally:
            for process in processes.values():
                if process.poll() is None:
                    os.killpg(process.pid, signal.SIGTERM)
            deadline = time.monotonic() + 15
            for process in processes.values():
                try:
                    process.wait(timeout=max(0.1, deadline - time.monotonic()))
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, signal.SIGKILL)
            self.stdout.write("Stopped web, worker and beat.")
        if exit_code:
            raise SystemExit(exit_code)

    def _accounts_line(self, no_demo: bool) -> str:
        """Who can log in: the demo superuser `admin` exists only with the demo data."""
        if not no_demo:
            return (
                f"demo data loaded: logins (password {DEMO_PASSWORD}) organiser, judge, "
                "admin (superuser), player1 .. player16"
            )
        return "no demo data: create an account with `python manage.py createsuperuser`"
