"""How late are deadlines enforced? Many matches, deadlines spread over a minute, a real worker.

Run (PostgreSQL and Redis on 127.0.0.1):
    .venv/bin/python bench/clocks.py [--matches 500] [--spread 60]

Two runs: with the eta tasks (the normal path) and with them disabled (the worker's
own sweep alone, every CLOCK_SWEEP_SECONDS=2; config/worker.py; no beat runs). For each it prints the lateness of
enforcement (time called minus deadline: median, p99, max) and the number of matches
enforced more than once (must be 0). Uses its own database, irondie_bench.
"""

import argparse
import datetime
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATABASE_URL = "postgres://postgres@127.0.0.1:5432/irondie_bench"
BROKER_URL = "redis://127.0.0.1:6379/12"


def setup_django(use_eta: bool):
    sys.path.insert(0, str(ROOT))
    os.environ.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL=DATABASE_URL,
        CELERY_BROKER_URL=BROKER_URL,
        CLOCKS_USE_ETA="true" if use_eta else "false",
        LOG_LEVEL="WARNING",
    )
    import django

    django.setup()


def create_database():
    import psycopg

    with psycopg.connect("host=127.0.0.1 user=postgres dbname=postgres", autocommit=True) as conn:
        conn.execute("DROP DATABASE IF EXISTS irondie_bench")
        conn.execute("CREATE DATABASE irondie_bench")


def build_round(matches: int):
    """A started round with ``matches`` open matches, written in bulk (not what is measured)."""
    from django.contrib.auth.models import User
    from django.core.management import call_command

    from config.dbtime import db_now
    from players.models import Player
    from tournaments.models import Match, Registration, Round, Tournament

    call_command("migrate", verbosity=0)
    organiser = User.objects.create(username="bench-organiser")
    tournament = Tournament.objects.create(
        name="Clock bench",
        date=datetime.date.today(),
        organiser=organiser,
        status=Tournament.Status.SWISS,
        swiss_rounds=1,
    )
    players = Player.objects.bulk_create(
        Player(display_name=f"P{i}", player_number=str(5_000_000_000 + i))
        for i in range(matches * 2)
    )
    registrations = Registration.objects.bulk_create(
        Registration(tournament=tournament, player=p, playing_dice=[], additional_dice=[])
        for p in players
    )
    round_ = Round.objects.create(
        tournament=tournament,
        number=1,
        status=Round.Status.IN_PROGRESS,
        pairing_seed="bench",
        started_at=db_now(),
    )
    return Match.objects.bulk_create(
        Match(
            round=round_,
            table=i + 1,
            player_a=registrations[2 * i],
            player_b=registrations[2 * i + 1],
        )
        for i in range(matches)
    )


def start_worker(use_eta: bool, var_dir: str):
    env = dict(
        os.environ,
        CLOCKS_USE_ETA="true" if use_eta else "false",
        CLOCK_SWEEP_SECONDS="2",
        VAR_DIR=var_dir,
    )
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--pool",
            "threads",
            "--concurrency",
            "8",
            "--loglevel",
            "WARNING",
            "--without-mingle",
            "--without-gossip",
        ],
        cwd=ROOT,
        env=env,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def measure(matches: int, spread: float, use_eta: bool) -> dict:
    from django.db import transaction

    from config.dbtime import db_now
    from tournaments import clocks
    from tournaments.models import AuditEntry, Match

    rows = build_round(matches)
    with tempfile.TemporaryDirectory() as var_dir:
        worker = start_worker(use_eta, var_dir)
        try:
            time.sleep(5)  # worker up (it sweeps deadlines itself: no beat)
            rng = random.Random(1)
            now = db_now()
            with transaction.atomic():
                for match in rows:
                    clocks.set_deadline(
                        match, now + datetime.timedelta(seconds=5 + rng.uniform(0, spread))
                    )
            deadline = time.monotonic() + spread + 60
            while time.monotonic() < deadline:
                if not Match.objects.filter(time_called_at__isnull=True).exists():
                    break
                time.sleep(1)
            time.sleep(5)  # any duplicate would land now
        finally:
            os.killpg(worker.pid, signal.SIGTERM)
            worker.wait(timeout=30)
    done = list(
        Match.objects.exclude(time_called_at__isnull=True).values_list(
            "deadline_at", "time_called_at"
        )
    )
    late = sorted((called - due).total_seconds() for due, called in done)
    counts = {}
    for object_id in AuditEntry.objects.filter(action="clock.time_called").values_list(
        "object_id", flat=True
    ):
        counts[object_id] = counts.get(object_id, 0) + 1
    return {
        "enforced": len(done),
        "missing": matches - len(done),
        "median": statistics.median(late),
        "p99": late[max(0, int(len(late) * 0.99) - 1)],
        "max": late[-1],
        "duplicates": sum(1 for c in counts.values() if c > 1),
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=500)
    parser.add_argument("--spread", type=float, default=60.0)
    parser.add_argument("--mode", choices=["eta", "sweep"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.mode:
        setup_django(args.mode == "eta")
        r = measure(args.matches, args.spread, args.mode == "eta")
        print(
            f"{args.mode:6} {r['enforced']:>8} {r['missing']:>7} {r['median']:>9.3f} {r['p99']:>9.3f} "
            f"{r['max']:>9.3f} {r['duplicates']:>10}",
            flush=True,
        )
        return
    print(
        f"{args.matches} matches, deadlines spread over {args.spread:.0f} s, sweep every 2 s; lateness in seconds"
    )
    print(
        f"{'path':6} {'enforced':>8} {'missing':>7} {'median':>9} {'p99':>9} {'max':>9} {'duplicates':>10}"
    )
    for mode in ("eta", "sweep"):
        create_database()
        subprocess.run(
            [
                sys.executable,
                __file__,
                "--mode",
                mode,
                "--matches",
                str(args.matches),
                "--spread",
                str(args.spread),
            ],
            check=True,
            cwd=ROOT,
        )


if __name__ == "__main__":
    main()
