"""Beat's scheduler, which also records the "beat" heartbeat (config/liveness.py)."""

import logging
import time

from celery.beat import PersistentScheduler

from config.liveness import WRITE_SECONDS, Throttle

log = logging.getLogger(__name__)


class Scheduler(PersistentScheduler):
    # Wake at least this often, so the heartbeat stays fresh between scheduled tasks.
    max_interval = WRITE_SECONDS

    def tick(self, *args, **kwargs):
        if not hasattr(self, "_heartbeat"):
            self._heartbeat = Throttle("beat", time.monotonic)
        try:
            self._heartbeat.beat()
        except Exception:
            log.exception("beat heartbeat not recorded")
        return min(super().tick(*args, **kwargs), WRITE_SECONDS)
