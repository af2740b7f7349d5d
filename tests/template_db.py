"""One migration run per test run on PostgreSQL: the xdist workers clone their test
databases from a migrated template instead of each running every migration.

Running the migrations costs a worker about 9 CPU seconds of Python plus PostgreSQL's
share, on a machine where the suite is CPU-bound. The first worker to take the lock
builds its test database as usual, copies it to ``<test database>_template`` and marks
the copy with the run's id (``testrunuid``, shared by every worker of one run); the
others wait for the lock, find the mark and let Django create their databases with
``CREATE DATABASE ... TEMPLATE`` (Django's ``TEST["TEMPLATE"]``). Django's ``migrate``
still runs on the copy and finds nothing to apply, so a migration missing from the
template could not go unnoticed. A template left by an earlier run (other migrations,
other code) never carries this run's mark, so it is rebuilt: a clean clone in CI and a
working copy behave the same. If the building worker's set-up fails, it lets the lock go
at once (tests/conftest.py), so the next worker builds it instead of waiting for ever.

Only for xdist workers on PostgreSQL that create their databases (not ``--reuse-db``).
"""

import psycopg
from django.conf import settings
from django.db import connections
from psycopg import sql


class TemplateBuilder:
    def __init__(self, run_id: str):
        self.run_id = run_id
        self.database = settings.DATABASES["default"]
        self.test_name = self.database["TEST"]["NAME"]  # with the worker's suffix: _gwN
        base = self.test_name.rsplit("_gw", 1)[0]
        self.template = f"{base}_template"
        self.lock = None  # the server connection holding the lock while this worker builds
        self.cloned = self.built = False

    def server(self):
        return psycopg.connect(
            host=self.database.get("HOST") or None,
            port=self.database.get("PORT") or None,
            user=self.database.get("USER") or None,
            password=self.database.get("PASSWORD") or None,
            dbname="postgres",
            autocommit=True,
        )

    def mark(self, conn) -> str | None:
        row = conn.execute(
            "SELECT shobj_description(oid, 'pg_database') FROM pg_database WHERE datname = %s",
            [self.template],
        ).fetchone()
        return row[0] if row else None

    def before_setup(self) -> None:
        """Clone from this run's template when there is one; otherwise keep the lock and
        build it after this worker's own migrations (``after_setup``)."""
        conn = self.server()
        conn.execute("SELECT pg_advisory_lock(hashtext(%s))", [self.template])
        if self.mark(conn) == self.run_id:
            conn.execute("SELECT pg_advisory_unlock(hashtext(%s))", [self.template])
            conn.close()
            self.database["TEST"]["TEMPLATE"] = self.template
            self.cloned = True
        else:
            self.lock = conn

    def release(self) -> None:
        """Let the other workers go without a template (this worker's set-up failed):
        each then migrates its own database, or fails the same way."""
        if self.lock is not None:
            conn, self.lock = self.lock, None
            conn.execute("SELECT pg_advisory_unlock(hashtext(%s))", [self.template])
            conn.close()

    def after_setup(self) -> None:
        if self.lock is None:
            return
        conn = self.lock
        try:
            # CREATE DATABASE ... TEMPLATE needs the source database without sessions.
            connections.close_all()
            name = sql.Identifier
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(name(self.template)))
            conn.execute(
                sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(
                    name(self.template), name(self.test_name)
                )
            )
            conn.execute(
                sql.SQL("COMMENT ON DATABASE {} IS {}").format(
                    name(self.template), sql.Literal(self.run_id)
                )
            )
            self.built = True
        finally:
            self.release()
