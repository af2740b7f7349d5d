"""The Celery app: settings from Django (CELERY_*), tasks autodiscovered, beat schedule here."""

import os

from celery import Celery
from django.conf import settings

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("irondie")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# Periodic tasks live in code so every deployment runs the same schedule.
app.conf.beat_schedule = {
    "heartbeat": {"task": "config.tasks.heartbeat", "schedule": 60.0},
    # The safety net behind the clocks' eta tasks (tournaments/clocks.py).
    "sweep-clocks": {
        "task": "tournaments.sweep_clocks",
        "schedule": float(settings.CLOCK_SWEEP_SECONDS),
        "options": {"expires": float(settings.CLOCK_SWEEP_SECONDS)},
    },
    # The same safety net for the decision clocks of online games (games/clocks.py).
    "sweep-game-clocks": {
        "task": "games.sweep_clocks",
        "schedule": float(settings.CLOCK_SWEEP_SECONDS),
        "options": {"expires": float(settings.CLOCK_SWEEP_SECONDS)},
    },
}
