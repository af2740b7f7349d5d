"""Services of one pytest-xdist worker: each worker gets its own, so parallel tests never
share a queue, a cache or a folder.

pytest-django gives each worker its own test database (``test_<name>_gw0``, ...). The rest
is set here, in the environment the worker process starts with (tests/conftest.py passes
it to xdist before the workers start, so Django's settings read it):

- Redis: worker ``gwN`` adds N to the database number of ``CELERY_BROKER_URL``,
  ``REDIS_URL`` and ``CELERY_RESULT_BACKEND`` (``redis://host:6379/8`` -> ``/9`` for gw1),
  so a Celery worker started by a test only ever sees the tasks of its own xdist worker;
- ``VAR_DIR`` (the filesystem broker's folders, the secret key, results): a sub-folder
  named after the worker;
- ports are always taken free from the system (port 0), and Celery workers are started
  by the tests that need them, inside their own xdist worker.
"""

import os
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
REDIS_DATABASES = 16  # Redis's default number of databases (0-15)
REDIS_SETTINGS = ("CELERY_BROKER_URL", "REDIS_URL", "CELERY_RESULT_BACKEND")
MARKER = "TEST_WORKER_SERVICES"  # set in every worker's environment, checked there


class NotEnoughDatabases(ValueError):
    pass


def redis_url_for_worker(url: str, number: int) -> str:
    parts = urlsplit(url)
    base = int(parts.path.strip("/") or 0)
    database = base + number
    if database >= REDIS_DATABASES:
        raise NotEnoughDatabases(
            f"xdist worker gw{number} would need Redis database {database} ({url} plus "
            f"{number}); use a lower database number or fewer workers (-n)."
        )
    return urlunsplit(parts._replace(path=f"/{database}"))


def worker_environment(number: int, environ=os.environ) -> dict[str, str]:
    """The variables worker ``gw<number>`` starts with, from the controller's environment."""
    env = {MARKER: f"gw{number}"}
    for name in REDIS_SETTINGS:
        url = environ.get(name, "")
        if urlsplit(url).scheme in ("redis", "rediss"):
            env[name] = redis_url_for_worker(url, number)
    base = Path(environ.get("VAR_DIR") or ROOT / "var" / "test")
    env["VAR_DIR"] = str(base / f"gw{number}")
    return env
