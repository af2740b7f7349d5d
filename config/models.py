from django.db import models


class Heartbeat(models.Model):
    """The last sign of life of one background process kind ("worker", "beat").

    Kept in the database because it is the one store every process shares, whatever
    the deployment (the embedded default cache is local to each process)."""

    name = models.CharField(max_length=40, primary_key=True)
    at = models.DateTimeField()
    host = models.CharField(max_length=255, blank=True)
    pid = models.PositiveIntegerField(null=True)

    def __str__(self):
        return f"{self.name} at {self.at:%Y-%m-%d %H:%M:%S}"
