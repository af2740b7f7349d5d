"""The worker enforces every deadline itself, so no deadline depends on beat.

A bootstep of the Celery worker (registered in config/celery.py) runs both clock sweeps
(tournaments/clocks.py, games/clocks.py) every CLOCK_SWEEP_SECONDS in a thread of the
worker's main process, starting as soon as the worker starts, and records the worker's
heartbeat. With several workers each sweeps; the handlers lock the row and act at most
once, so a deadline is never enforced twice. The sweep also covers eta tasks a killed
worker held: on Redis they stay parked until the 6 h visibility timeout, but their
deadlines are already enforced by then (the late task finds nothing to do).
"""

from __future__ import annotations

import logging
import threading
import time

from celery import bootsteps
from django.conf import settings
from django.db import close_old_connections, connections

log = logging.getLogger(__name__)


def sweep_once() -> dict:
    from games import clocks as game_clocks
    from tournaments import clocks as match_clocks

    return {"matches": match_clocks.sweep(), "games": game_clocks.sweep()}


class DeadlineSweeper(bootsteps.StartStopStep):
    """Sweeps overdue deadlines every CLOCK_SWEEP_SECONDS; records the "worker" heartbeat."""

    label = "deadline sweeper"
    requires = ("celery.worker.components:Pool",)  # start once the pool has forked

    def __init__(self, worker, **kwargs):
        super().__init__(worker, **kwargs)
        self.stopping = threading.Event()
        self.thread: threading.Thread | None = None

    def start(self, worker):
        self.stopping.clear()
        self.thread = threading.Thread(target=self.run, name="deadline-sweeper", daemon=True)
        self.thread.start()

    def stop(self, worker):
        self.stopping.set()
        if self.thread is not None:
            self.thread.join(timeout=30)
            self.thread = None

    # A cold shutdown (and celery.contrib.testing's worker) terminates instead of stopping.
    terminate = shutdown = stop

    def run(self) -> None:
        from config.liveness import Throttle

        interval = float(settings.CLOCK_SWEEP_SECONDS)
        heartbeat = Throttle("worker", time.monotonic)
        try:
            while not self.stopping.is_set():
                started = time.monotonic()
                try:
                    close_old_connections()  # a connection the database dropped is replaced
                    if getattr(settings, "CLOCKS_WORKER_SWEEP", True):
                        done = sweep_once()
                        if any(done["matches"].values()) or any(done["games"].values()):
                            log.info("deadlines enforced by the sweep", extra=done)
                    heartbeat.beat()
                except Exception:
                    log.exception("deadline sweep failed; retrying at the next interval")
                self.stopping.wait(max(0.0, interval - (time.monotonic() - started)))
        finally:
            connections.close_all()  # this thread's connections
