"""Waiting in tests for what another process does (a Celery worker, a background job)."""

import time


def wait_for(condition, timeout: float = 30.0) -> bool:
    """Poll ``condition`` until it is true or ``timeout`` seconds pass; whether it came true."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False
