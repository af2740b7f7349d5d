"""Heartbeats of the background processes, read by /healthz (docs/operations.md "Health").

The worker records "worker" from its clock sweeper (config/worker.py), beat records
"beat" from its scheduler loop (config/beat.py), both at most every WRITE_SECONDS, in
the database: the one store every process shares, whatever the deployment.
"""

from __future__ import annotations

import os
import socket

from django.db import close_old_connections

from config.dbtime import db_now

WRITE_SECONDS = 10
STALE_SECONDS = 60  # six missed writes: the process is gone or stuck
PROCESSES = ("worker", "beat")


def record(name: str) -> None:
    from config.models import Heartbeat

    Heartbeat.objects.update_or_create(
        name=name, defaults={"at": db_now(), "host": socket.gethostname(), "pid": os.getpid()}
    )


def ages() -> dict[str, float | None]:
    """Seconds since each process's last heartbeat (None: never recorded)."""
    from config.models import Heartbeat

    now = db_now()
    beats = dict(Heartbeat.objects.filter(name__in=PROCESSES).values_list("name", "at"))
    return {
        name: round(max(0.0, (now - beats[name]).total_seconds()), 1) if name in beats else None
        for name in PROCESSES
    }


class Throttle:
    """Calls ``record(name)`` at most every WRITE_SECONDS (a write per tick is wasteful)."""

    def __init__(self, name: str, clock):
        self.name, self.clock, self.next_at = name, clock, 0.0

    def beat(self) -> None:
        now = self.clock()
        if now >= self.next_at:
            close_old_connections()  # a connection the database dropped is replaced
            record(self.name)
            self.next_at = now + WRITE_SECONDS
