"""One migrated embedded database (SQLite in VAR_DIR) per test run, copied into the
VAR_DIR of each test that runs the service's processes on the embedded defaults but does
not test the migrations themselves: the prefork worker race, the filesystem broker race,
the login throttle on the embedded defaults and the soak.

Migrating a new SQLite database runs every migration (Django renders the models' state
again after each of its 250 field changes): 7 to 8 CPU seconds on a quiet machine, each
time. The first test to need the database migrates one under the lock, in the folder
the xdist workers of one run share (pytest's base temporary folder, kept for the last
three runs); the others copy it. Their service still runs ``migrate`` as before (`serve`
at its start, the throttle's script) and finds nothing to apply; so does ``serve`` in
tests/test_run_command.py. The migrations from an empty SQLite database are still run
whole by ``serve`` in the fresh install (tests/test_fresh_install.py).
"""

import fcntl
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SERVICES = {"DATABASE_URL", "CELERY_BROKER_URL", "REDIS_URL", "CELERY_RESULT_BACKEND"}
FILES = ("db.sqlite3", "db.sqlite3-wal", "db.sqlite3-shm")


def shared_folder(tmp_path_factory) -> Path:
    """A folder every xdist worker of this run sees (the workers' base folders' parent)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def migrated(folder: Path) -> Path:
    """The VAR_DIR of this run's migrated embedded database, migrated on first use."""
    template = folder / "embedded-db"
    template.mkdir(exist_ok=True)
    var_dir = template / "var"
    with open(template / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # let go when the file is closed
        if not (template / "done").exists():
            shutil.rmtree(var_dir, ignore_errors=True)
            env = {k: v for k, v in os.environ.items() if k not in SERVICES}
            env.update(DJANGO_SETTINGS_MODULE="config.settings", VAR_DIR=str(var_dir))
            subprocess.run(
                [sys.executable, "manage.py", "migrate", "--verbosity", "0"],
                cwd=ROOT,
                env=env,
                check=True,
            )
            (template / "done").touch()
    return var_dir


def copy_into(template_var_dir: Path, var_dir: Path) -> None:
    """The migrated database into ``var_dir`` (no process has it open: the copy is whole)."""
    var_dir.mkdir(parents=True, exist_ok=True)
    for name in FILES:
        if (template_var_dir / name).exists():
            shutil.copy2(template_var_dir / name, var_dir / name)
