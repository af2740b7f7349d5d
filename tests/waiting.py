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


class WorkerEvents:
    """What an in-process Celery worker (celery.contrib.testing's ``start_worker``) has
    done, recorded from its own signals and its deadline sweeper (config/worker.py), so
    that a test waits for the event it needs instead of sleeping a fixed time.

    ``received``: (task name, args) of each message the worker took, eta tasks included
    (it holds those until they are due); ``done``: (task name, args, return value) of each
    task it ran to the end; ``sweeps_started`` and ``sweeps``: how many of its deadline
    sweeps have begun and ended.
    """

    def __init__(self):
        self.received: list[tuple[str, tuple]] = []
        self.done: list[tuple[str, tuple, object]] = []
        self.sweeps = 0
        self.sweeps_started = 0

    def on_received(self, sender=None, request=None, **kwargs):
        self.received.append((request.name, tuple(request.args or ())))

    def on_postrun(self, sender=None, args=None, retval=None, **kwargs):
        self.done.append((sender.name, tuple(args or ()), retval))

    def took(self, name: str, args) -> bool:
        """Whether the worker has taken the message of task ``name`` with ``args``."""
        return (name, tuple(args)) in self.received

    def ran(self, name: str) -> list[tuple[tuple, object]]:
        """(args, return value) of each run of task ``name``."""
        return [(args, value) for task, args, value in self.done if task == name]

    def wait_for_sweeps(self, count: int = 1, timeout: float = 30.0) -> bool:
        """Wait until ``count`` more sweeps have ended than have now; a sweep in progress
        does not count, so every one waited for started after this call."""
        target = self.sweeps_started + count
        return wait_for(lambda: self.sweeps >= target, timeout)
