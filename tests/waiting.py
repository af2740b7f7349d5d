"""Waiting in tests for what another process does (a Celery worker, a background job), and
stopping such a process."""

import contextlib
import os
import signal
import subprocess
import time


def wait_for(condition, timeout: float = 30.0) -> bool:
    """Poll ``condition`` until it is true or ``timeout`` seconds pass; whether it came true."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


def stop_process(process: subprocess.Popen) -> None:
    """TERM to the process itself, then SIGKILL to whatever is left of its own process
    group. A Celery worker stops its pool processes itself (warm shutdown); TERM to the
    whole group killed them under it, and the worker then hung until killed 20 s later."""
    try:
        own_group = os.getpgid(process.pid) == process.pid
    except ProcessLookupError:
        own_group = False
    with contextlib.suppress(ProcessLookupError):
        process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    if own_group:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
