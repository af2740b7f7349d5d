"""What a committed write costs on PostgreSQL with and without waiting for the disk.

Usage: DATABASE_URL=postgres://... python bench/commit_wait.py [--commits 500] [--rounds 3]

Runs ``--commits`` one-row INSERTs, each its own transaction, with
``synchronous_commit`` on (PostgreSQL's default: the commit waits for its WAL to reach
the disk) and off (what the test suite's connections use, tests/conftest.py), the two
alternating for ``--rounds`` rounds, and prints the milliseconds per commit of each.
"""

import argparse
import os
import statistics
import time
from urllib.parse import urlsplit

import psycopg


def per_commit_ms(conn, mode: str, commits: int) -> float:
    conn.execute(f"SET synchronous_commit = {mode}")
    started = time.perf_counter()
    for number in range(commits):
        conn.execute("INSERT INTO bench_commit_wait VALUES (%s)", [number])
    return (time.perf_counter() - started) / commits * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commits", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    url = urlsplit(os.environ["DATABASE_URL"])
    with psycopg.connect(
        host=url.hostname,
        port=url.port or 5432,
        user=url.username,
        password=url.password,
        dbname=url.path.lstrip("/"),
        autocommit=True,
    ) as conn:
        conn.execute("CREATE TABLE IF NOT EXISTS bench_commit_wait (n integer)")
        try:
            times = {"on": [], "off": []}
            for _ in range(args.rounds):
                for mode in times:
                    times[mode].append(per_commit_ms(conn, mode, args.commits))
        finally:
            conn.execute("DROP TABLE bench_commit_wait")
    load = os.getloadavg()[0]
    for mode, values in times.items():
        shown = ", ".join(f"{value:.2f}" for value in values)
        print(
            f"synchronous_commit={mode}: median {statistics.median(values):.2f} ms per commit "
            f"({shown}; {args.commits} commits a round, load average {load:.1f})"
        )


if __name__ == "__main__":
    main()
