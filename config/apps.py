from django.apps import AppConfig


class ServiceConfig(AppConfig):
    """The service itself: settings, URLs, Celery, and the processes' heartbeats."""

    name = "config"
    label = "config"
    verbose_name = "Service"
