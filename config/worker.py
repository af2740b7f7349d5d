"""The worker enforces every deadline itself, so no deadline depends on beat.

A bootstep of the Celery worker (registered in config/celery.py) runs every deadline
sweep (config/deadlines.py; the apps register theirs: tournaments/clocks.py,
games/clocks.py) every CLOCK_SWEEP_SECONDS in a thread of the worker's main process,
starting as soon as the worker starts, and records the worker's heartbeat. With several workers each sweeps; the handlers lock the row and act at most
once, so a deadline is never enforced twice. The sweep also covers eta tasks a killed
worker held: on Redis they stay parked until the 6 h visibility timeout, but their
deadlines are already enforced by then (the late task finds nothing to do).

The pool processes are forked from this same process (at start, and whenever the pool
replaces a child), so the sweeper never holds a database connection across a fork: a
fork waits for a sweep in progress to end, and each sweep closes its connection before
it lets go. A child forked in the middle of a SQLite write transaction inherits the
write lock in SQLite's memory, held by a thread that does not exist in the child, and
every write of that child then fails with "database is locked" (SQLite says connections
must not cross a fork, https://www.sqlite.org/howtocorrupt.html section 2.6). Closing
in the child is no cure: it cannot be done safely there (the lock state and SQLite's
mutexes belong to the dead thread), and Celery's Django fixup closes only the
connections of the thread that forked. On PostgreSQL the same rule keeps a child from
sharing (and closing) the sweeper's socket.
"""

from __future__ import annotations

import logging
import os
import threading
import time

from celery import bootsteps
from django.conf import settings
from django.db import connections

from config import deadlines

log = logging.getLogger(__name__)

FORK_WAIT_SECONDS = 60  # a sweep stuck longer than this no longer holds up a fork

# Held for a whole sweep, connection closing included, and by every fork of this process.
_sweeping = threading.RLock()
_fork_waited: list[bool] = []


def _before_fork() -> None:
    _fork_waited.append(_sweeping.acquire(timeout=FORK_WAIT_SECONDS))


def _after_fork_in_parent() -> None:
    if _fork_waited.pop():
        _sweeping.release()


def _after_fork_in_child() -> None:
    global _sweeping
    _sweeping = threading.RLock()  # the parent's, maybe held by a thread the child lacks
    _fork_waited.clear()


os.register_at_fork(
    before=_before_fork,
    after_in_parent=_after_fork_in_parent,
    after_in_child=_after_fork_in_child,
)


def sweep_once() -> dict:
    """Every registered deadline sweep once: {"matches": counts, "games": counts}."""
    return deadlines.sweep_all()


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
                with _sweeping:
                    self.sweep(heartbeat)
                self.stopping.wait(max(0.0, interval - (time.monotonic() - started)))
        finally:
            connections.close_all()  # this thread's connections

    def sweep(self, heartbeat) -> None:
        """One sweep; whatever fails is logged and the next interval tries again."""
        try:
            if getattr(settings, "CLOCKS_WORKER_SWEEP", True):
                done = sweep_once()
                if any(any(counts.values()) for counts in done.values()):
                    log.info("deadlines enforced by the sweep", extra=done)
            heartbeat.beat()
        except Exception:
            log.exception("deadline sweep failed; retrying at the next interval")
        finally:
            # Never hold a connection between sweeps (see above); the next sweep opens a
            # fresh one, which also replaces one the database dropped or never gave.
            try:
                connections.close_all()
            except Exception:
                log.exception("closing the sweeper's database connection failed")
