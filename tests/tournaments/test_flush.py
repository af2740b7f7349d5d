"""The suite's flush after a transactional test (tests/flush.py) empties every table, rows
that refer to each other included, and keeps only what post_migrate writes again."""

import pytest
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import connection

from tests import flush

pytestmark = pytest.mark.django_db(transaction=True)


def row_counts():
    tables = connection.introspection.django_table_names(only_existing=True)
    with connection.cursor() as cursor:
        counts = {}
        for table in tables:
            cursor.execute(f"SELECT count(*) FROM {connection.ops.quote_name(table)}")
            counts[table] = cursor.fetchone()[0]
    return counts


def test_the_flush_empties_every_table_of_a_running_event(make_running_round):
    round_ = make_running_round(players=6)
    assert round_.matches.count() == 3
    before = row_counts()
    assert sum(1 for count in before.values() if count) >= 10  # rows in many related tables

    # As TransactionTestCase._fixture_teardown calls it, without the post_migrate signal.
    call_command(
        "flush",
        verbosity=0,
        interactive=False,
        reset_sequences=False,
        allow_cascade=False,
        inhibit_post_migrate=True,
    )

    assert {table: count for table, count in row_counts().items() if count} == {
        table: before[table] for table in flush.KEPT_TABLES
    }


def test_the_flush_deletes_rather_than_truncates_on_postgresql():
    if connection.vendor != "postgresql":
        pytest.skip("the TRUNCATE this replaces is PostgreSQL's")
    tables = connection.introspection.django_table_names(only_existing=True)
    statements = connection.ops.sql_flush(no_style(), tables)
    assert not any("TRUNCATE" in statement for statement in statements)
    deleted = [s for s in statements if s.startswith("DELETE FROM")]
    assert len(deleted) == len(set(tables) - flush.KEPT_TABLES)
