from django.db import models
from django.utils.translation import gettext_lazy as _


class Heartbeat(models.Model):
    """The last sign of life of one background process kind ("worker", "beat").

    Kept in the database because it is the one store every process shares, whatever
    the deployment (the embedded default cache is local to each process)."""

    name = models.CharField(max_length=40, primary_key=True, verbose_name=_("name"))
    at = models.DateTimeField(verbose_name=_("at"))
    host = models.CharField(max_length=255, blank=True, verbose_name=_("host"))
    pid = models.PositiveIntegerField(null=True, verbose_name=_("pid"))

    class Meta:
        verbose_name = _("heartbeat")
        verbose_name_plural = _("heartbeats")

    def __str__(self):
        return f"{self.name} at {self.at:%Y-%m-%d %H:%M:%S}"
