"""The xdist workers' test databases on PostgreSQL come from one template built by this
run (tests/template_db.py), never from one an earlier run left with other migrations."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests.conftest import TEMPLATE_BUILDER

pytestmark = pytest.mark.django_db


def test_this_workers_database_comes_from_this_runs_template(request):
    builder = request.config.stash.get(TEMPLATE_BUILDER, None)
    if builder is None:
        pytest.skip("one process, --reuse-db or not PostgreSQL: every database is migrated")
    with builder.server() as server:
        assert builder.mark(server) == builder.run_id  # built in this run
    # This worker either cloned the template or built it from its own migrated database.
    assert builder.cloned != builder.built
    assert builder.database["TEST"].get("TEMPLATE") == (
        builder.template if builder.cloned else None
    )
    # Whether it migrated or cloned, this worker's database has every migration on disk.
    executor = MigrationExecutor(connection)
    assert executor.migration_plan(executor.loader.graph.leaf_nodes()) == []
