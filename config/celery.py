"""The Celery app: settings from Django (CELERY_*), tasks autodiscovered, beat schedule here."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("irondie")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# Periodic tasks live in code so every deployment runs the same schedule.
app.conf.beat_schedule = {
    "heartbeat": {"task": "config.tasks.heartbeat", "schedule": 60.0},
}
