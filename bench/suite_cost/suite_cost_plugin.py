"""pytest plugin for bench/suite_cost.py: each test's CPU seconds (its process and the
subprocesses it waited for) and wall seconds, one JSON line per test and worker."""

import json
import os
import resource
import time
from pathlib import Path

import pytest


def _cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    waited = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + waited.ru_utime + waited.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    cpu, wall = _cpu_seconds(), time.monotonic()
    yield
    row = {"id": item.nodeid, "cpu": _cpu_seconds() - cpu, "wall": time.monotonic() - wall}
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    with open(Path(os.environ["SUITE_COST_DIR"]) / f"{worker}.jsonl", "a") as out:
        out.write(json.dumps(row) + "\n")
