"""The README's test command (via `make test`): pick the real services, then run pytest.

With CI=true the suite runs against PostgreSQL and Redis on 127.0.0.1 and stops loudly
if either is missing. Elsewhere it uses them when reachable and says clearly when it
falls back to SQLite and the filesystem broker. Chromium (Debian's package) drives the
page tests; it is installed when missing and we may (root with apt-get).

The tests run in parallel with pytest-xdist: ``TEST_WORKERS`` processes (default: one per
core, at most 4), each with its own test database, Redis databases and VAR_DIR
(tests/parallel.py); ``TEST_WORKERS=1`` runs them in one process, and ``-n`` on the
command line is passed on as it is.
Hypothesis runs its "ci" profile (the full example counts) when CI=true and the quick
"dev" one otherwise (tests/hypothesis_profiles.py).
"""

import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CI = os.environ.get("CI", "").lower() == "true"
POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/irondie"
# xdist worker gwN uses these database numbers plus N (tests/parallel.py): room for 4.
REDIS_BROKER_URL = "redis://127.0.0.1:6379/8"
REDIS_CACHE_URL = "redis://127.0.0.1:6379/12"
MAX_WORKERS = 4


def say(message: str) -> None:
    print(f"[tests] {message}", flush=True)


def postgres_reachable() -> bool:
    try:
        import psycopg

        with psycopg.connect(
            "host=127.0.0.1 port=5432 user=postgres dbname=postgres", connect_timeout=3
        ) as conn:
            conn.autocommit = True
            exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = 'irondie'").fetchone()
            if not exists:
                conn.execute("CREATE DATABASE irondie")
        return True
    except Exception as exc:
        say(f"PostgreSQL on 127.0.0.1:5432 not usable: {exc}")
        return False


def redis_reachable() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=3) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError as exc:
        say(f"Redis on 127.0.0.1:6379 not reachable: {exc}")
        return False


def find_chromium() -> str | None:
    for candidate in (
        os.environ.get("CHROMIUM_PATH"),
        shutil.which("chromium"),
        "/usr/bin/chromium",
    ):
        if candidate and Path(candidate).exists():
            return candidate
    if os.geteuid() == 0 and shutil.which("apt-get"):
        say("Chromium missing: installing Debian's chromium package for the page tests ...")
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        done = subprocess.run(
            ["apt-get", "install", "-y", "-q", "chromium"], env=env, capture_output=True
        )
        if done.returncode != 0:
            subprocess.run(["apt-get", "update", "-q"], env=env, capture_output=True)
            done = subprocess.run(
                ["apt-get", "install", "-y", "-q", "chromium"], env=env, capture_output=True
            )
        if done.returncode == 0 and shutil.which("chromium"):
            return shutil.which("chromium")
        say(done.stderr.decode(errors="replace")[-800:])
    return None


def parallel_workers(args: list[str]) -> int:
    """How many xdist workers to add: none when the command line already decides (``-n``,
    ``--numprocesses``, ``-p no:xdist``, ``--pdb``) or when there would be only one."""
    decided = ("-n", "--numprocesses", "-pno:xdist", "no:xdist", "--pdb")
    if any(arg.startswith(decided) for arg in args):
        return 0
    wanted = os.environ.get("TEST_WORKERS", "auto")
    workers = min(os.cpu_count() or 1, MAX_WORKERS) if wanted == "auto" else int(wanted)
    return workers if workers > 1 else 0


def main() -> int:
    env = dict(os.environ)
    if "DATABASE_URL" not in env:
        if postgres_reachable():
            env["DATABASE_URL"] = POSTGRES_URL
            say("Database: PostgreSQL on 127.0.0.1:5432")
        elif CI:
            say("FAILED: CI=true needs PostgreSQL on 127.0.0.1:5432 (see .ci/run).")
            return 2
        else:
            say("WARNING: falling back to SQLite; PostgreSQL-only tests will be skipped.")
    if "CELERY_BROKER_URL" not in env:
        if redis_reachable():
            env["CELERY_BROKER_URL"] = REDIS_BROKER_URL
            env.setdefault("REDIS_URL", REDIS_CACHE_URL)
            say("Broker and cache: Redis on 127.0.0.1:6379")
        elif CI:
            say("FAILED: CI=true needs Redis on 127.0.0.1:6379 (see .ci/run).")
            return 2
        else:
            say("WARNING: falling back to the filesystem broker and the local-memory cache.")
    chromium = find_chromium()
    if chromium:
        env["CHROMIUM_PATH"] = chromium
        say(f"Browser: {chromium}")
    elif CI:
        say("FAILED: CI=true needs Chromium for the page tests and it could not be installed.")
        return 2
    else:
        say("WARNING: no Chromium; browser tests will be skipped.")
    env.setdefault("VAR_DIR", str(ROOT / "var" / "test"))
    if CI:
        env.setdefault("HYPOTHESIS_PROFILE", "ci")
    say(f"Hypothesis profile: {env.get('HYPOTHESIS_PROFILE', 'dev')}")
    args = sys.argv[1:]
    workers = parallel_workers(args)
    if workers:
        args = ["-n", str(workers), "--dist", "loadgroup", *args]
        say(f"Parallel: {workers} xdist workers, each with its own database, Redis and VAR_DIR")
    # The .mo catalogues are build output (config/translations.py): compile any stale one.
    subprocess.call([sys.executable, "manage.py", "compiletranslations"], cwd=ROOT, env=env)
    command = [sys.executable, "-m", "pytest", *args]
    code = subprocess.call(command, cwd=ROOT, env=env)
    if code == 5:
        say("FAILED: no tests were collected.")
        return 1
    return code


if __name__ == "__main__":
    sys.exit(main())
