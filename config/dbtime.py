"""One clock for everybody: "now" comes from the database, so web and worker hosts
with skewed clocks agree on deadlines."""

from django.db import connection
from django.utils import timezone


def db_now():
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT statement_timestamp()")
            return cursor.fetchone()[0]
    return timezone.now()  # SQLite (the zero-setup run) has one host by construction
