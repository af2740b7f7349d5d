"""Emptying the test database after a transactional test, by DELETE rather than TRUNCATE.

Django flushes every table after each ``django_db(transaction=True)`` test with one
``TRUNCATE`` of all of them. On PostgreSQL a TRUNCATE gives each table, index and TOAST
table a new file (over 200 here), which costs far more than deleting the few rows a test
leaves: about 2.5 s against 0.1 s per test on the loaded 2-core machine. Every foreign key
Django creates on PostgreSQL is DEFERRABLE INITIALLY DEFERRED and has no ON DELETE action,
so the tables can be emptied in any order inside the flush's transaction, and the keys are
checked at its commit as before. Sequences are not reset by Django's flush here either.

The content types and permissions are kept: the post_migrate signal that follows the
flush would only write the same rows again (about 60 of its 100 queries), and no test
changes them.
"""

from django.db.backends.postgresql.operations import DatabaseOperations

_truncate_all = DatabaseOperations.sql_flush
KEPT_TABLES = frozenset({"django_content_type", "auth_permission"})


def _delete_all(self, style, tables, *, reset_sequences=False, allow_cascade=False):
    if reset_sequences or allow_cascade or not tables:  # Django's own way for these
        return _truncate_all(
            self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
        )
    return ["SET CONSTRAINTS ALL DEFERRED;"] + [
        f"{style.SQL_KEYWORD('DELETE FROM')} {style.SQL_FIELD(self.quote_name(table))};"
        for table in tables
        if table not in KEPT_TABLES
    ]


def delete_instead_of_truncate() -> None:
    DatabaseOperations.sql_flush = _delete_all
