"""The Celery app: settings from Django (CELERY_*), tasks autodiscovered, beat schedule here."""

import os

from celery import Celery

from config.worker import DeadlineSweeper

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("irondie")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()  # every app's tasks module, config's (the heartbeat) included

# Deadlines are the worker's own job (config/worker.py): every worker sweeps overdue
# clocks itself, so no deadline waits for beat.
app.steps["worker"].add(DeadlineSweeper)

# Beat records its own heartbeat as it ticks (config/beat.py; /healthz reads it).
app.conf.beat_scheduler = "config.beat:Scheduler"
# Periodic tasks live in code so every deployment runs the same schedule.
app.conf.beat_schedule = {
    # The whole path beat -> broker -> worker, observable in the cache (config/tasks.py).
    "heartbeat": {"task": "config.tasks.heartbeat", "schedule": 60.0},
}
