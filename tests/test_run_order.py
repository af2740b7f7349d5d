"""The order the suite runs in (tests/conftest.py ``run_order``): the longest tests first,
without a transactional test's flush ever coming before a test that needs the migrated
rows it deletes."""

import pytest

from tests.conftest import run_order


class Item:
    def __init__(self, nodeid, marker=None, fixtures=()):
        self.nodeid, self.marker, self.fixturenames = nodeid, marker, list(fixtures)

    def get_closest_marker(self, name):
        return self.marker if name == "django_db" else None

    def __repr__(self):
        return self.nodeid


def test_long_tests_go_first_within_the_block_pytest_django_gives_them():
    db, transactional = pytest.mark.django_db.mark, pytest.mark.django_db(transaction=True).mark
    in_pytest_django_order = [
        short_db := Item("tests/a.py::test_db", db),
        long_db := Item("tests/test_api_schema.py::test_every_get_answer_matches_the_schema", db),
        short_flushing := Item("tests/b.py::test_transactional", transactional),
        short_live := Item("tests/c.py::test_page", fixtures=["live_server"]),
        long_flushing := Item("tests/test_user_guide.py::test_organiser_guide", transactional),
        short_plain := Item("tests/d.py::test_pure"),
        long_plain := Item("tests/test_soak.py::test_soak_on_the_embedded_defaults"),
    ]
    run_order(in_pytest_django_order)
    assert in_pytest_django_order == [
        long_plain,
        long_db,
        short_db,
        long_flushing,
        short_flushing,
        short_live,
        short_plain,
    ]
