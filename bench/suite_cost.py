"""What the test suite costs: wall time, CPU seconds, and where they go.

Usage: CI=true python bench/suite_cost.py [--top 25] [pytest arguments ...]

Runs the README's test command (tests/run.py, the same workers and Hypothesis profile)
with a small plugin that records each test's CPU seconds (its process plus the
subprocesses it waited for: servers, workers, pip, Chromium's driver) and wall seconds,
then prints the suite's wall time, the machine's busy CPU seconds over the run (from
/proc/stat: PostgreSQL, Redis and everything else included), the tests' own CPU total,
and the files and tests that cost most. The lower bound on the wall time is the busy
CPU seconds divided by the cores.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def busy_cpu_seconds() -> float:
    """Machine-wide non-idle CPU seconds since boot (/proc/stat)."""
    fields = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    ticks = [int(value) for value in fields]
    idle = ticks[3] + ticks[4]  # idle + iowait
    return (sum(ticks[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=25)
    args, pytest_args = parser.parse_known_args(argv)
    with tempfile.TemporaryDirectory() as out:
        env = dict(
            os.environ,
            SUITE_COST_DIR=out,
            PYTHONPATH=os.pathsep.join(
                [str(ROOT / "bench" / "suite_cost"), os.environ.get("PYTHONPATH", "")]
            ),
        )
        command = [sys.executable, "tests/run.py", "-p", "suite_cost_plugin", *pytest_args]
        busy, started = busy_cpu_seconds(), time.monotonic()
        code = subprocess.call(command, cwd=ROOT, env=env)
        wall, busy = time.monotonic() - started, busy_cpu_seconds() - busy
        rows = [
            json.loads(line)
            for path in Path(out).glob("*.jsonl")
            for line in path.read_text().splitlines()
        ]
    cores = os.cpu_count() or 1
    tests_cpu = sum(row["cpu"] for row in rows)
    print(f"\nexit {code}; {len(rows)} tests; wall {wall:.0f} s on {cores} cores")
    print(
        f"machine busy CPU {busy:.0f} s (lower bound on the wall time: {busy / cores:.0f} s); "
        f"tests' own CPU {tests_cpu:.0f} s; tests' wall summed {sum(r['wall'] for r in rows):.0f} s"
    )
    by_file = collections.defaultdict(lambda: [0.0, 0.0, 0])
    for row in rows:
        entry = by_file[row["id"].split("::")[0]]
        entry[0] += row["cpu"]
        entry[1] += row["wall"]
        entry[2] += 1
    print(f"\n{'CPU s':>7} {'wall s':>7} {'tests':>5}  file")
    for name, (cpu, wall_sum, count) in sorted(by_file.items(), key=lambda kv: -kv[1][0])[
        : args.top
    ]:
        print(f"{cpu:7.1f} {wall_sum:7.1f} {count:5d}  {name}")
    print(f"\n{'CPU s':>7} {'wall s':>7}  test")
    for row in sorted(rows, key=lambda row: -row["cpu"])[: args.top]:
        print(f"{row['cpu']:7.1f} {row['wall']:7.1f}  {row['id'][:110]}")
    return code


if __name__ == "__main__":
    sys.exit(main())
