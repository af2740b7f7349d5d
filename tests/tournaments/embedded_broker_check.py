"""Run by test_clocks_embedded_broker: in a fresh process whose settings select the
embedded (filesystem) broker, start a real worker, give a match a deadline two seconds
out and let the worker enforce it through the eta task. Prints the outcome as one JSON line."""

import datetime
import json
import os
import sys
import time

import django


def main(match_id: int) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    from celery.contrib.testing.worker import start_worker
    from celery.signals import task_postrun

    from config.celery import app
    from config.dbtime import db_now
    from tournaments import clocks
    from tournaments.models import AuditEntry, Match

    assert app.conf.broker_url.startswith("filesystem"), app.conf.broker_url
    match = Match.objects.get(pk=match_id)
    runs = []  # the worker's runs of the match's deadline task: (eta, outcome)
    task_postrun.connect(
        lambda sender=None, args=(), retval=None, **kw: (
            sender.name == "tournaments.enforce_match_deadline"
            and args[0] == match_id
            and runs.append((args[2], retval))
        ),
        weak=False,
    )
    with start_worker(app, perform_ping_check=False, pool="solo", shutdown_timeout=10):
        # Set once the worker is up, so a slow start on a busy machine is not counted as
        # the eta task's lateness.
        clocks.set_deadline(match, db_now() + datetime.timedelta(seconds=2))
        match.refresh_from_db()
        queued = match.deadline_task_eta.isoformat()
        deadline = time.monotonic() + 20
        # Until the task queued for the deadline has acted (not re-queued itself).
        while time.monotonic() < deadline:
            if any(eta == queued and outcome != "requeued" for eta, outcome in runs):
                break
            time.sleep(0.05)
    match.refresh_from_db()
    print(
        json.dumps(
            {
                "called": match.time_called_at is not None,
                "late_seconds": (match.time_called_at - match.deadline_at).total_seconds()
                if match.time_called_at
                else None,
                "entries": AuditEntry.objects.filter(
                    action="clock.time_called", object_id=match_id
                ).count(),
            }
        )
    )


if __name__ == "__main__":
    main(int(sys.argv[1]))
