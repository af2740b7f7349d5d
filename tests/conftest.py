"""Fixtures shared by the whole suite: users in each role, players and valid dice; the
Hypothesis profile (tests/hypothesis_profiles.py); each xdist worker's own services
(tests/parallel.py)."""

import os

import pytest
from django.contrib.auth.models import Group
from django.utils import translation
from pytest_django.plugin import validate_django_db
from rest_framework.test import APIClient

from players import services
from tests import hypothesis_profiles, parallel
from tests.longest_first import LONGEST_FIRST

# Before any test module is imported: their @settings read the profile's example count.
hypothesis_profiles.load()


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_setupnodes(config, specs):
    """Each xdist worker process starts with its own Redis databases and VAR_DIR."""
    for number, spec in enumerate(specs):
        try:
            spec.env.update(parallel.worker_environment(number))
        except parallel.NotEnoughDatabases as exc:
            raise pytest.UsageError(str(exc)) from None


# Under xdist the longest tests start first, so that none of them is left running alone at
# the end while the other worker has nothing left (tests/longest_first.py). pytest-django
# runs the tests that use the database without transactions first, then the transactional
# ones, whose flush empties the tables (data migrations' rows too), then those without the
# database; that order is kept: a long transactional test goes first among the
# transactional ones, any other long test first of all, and the short tests without the
# database stay at the end, where they fill the last seconds of both workers.
def _transactional(item) -> bool:
    """Whether pytest-django flushes the database after the test (its own rule)."""
    marker = item.get_closest_marker("django_db")
    if marker is not None:
        transaction, reset_sequences, *_ = validate_django_db(marker)
        if transaction or reset_sequences:
            return True
    return bool({"transactional_db", "live_server"} & set(getattr(item, "fixturenames", ())))


def run_order(items) -> None:
    """Sort ``items`` (in pytest-django's order) as the suite runs them (see above)."""
    unlisted = len(LONGEST_FIRST)

    def place(item):
        listed = (i for i, prefix in enumerate(LONGEST_FIRST) if item.nodeid.startswith(prefix))
        position = next(listed, unlisted)
        if _transactional(item):
            return (1, position)
        fixtures = getattr(item, "fixturenames", ())
        uses_database = item.get_closest_marker("django_db") is not None or "db" in fixtures
        if position == unlisted and not uses_database:
            return (2, position)
        return (0, position)

    items.sort(key=place)


@pytest.hookimpl(trylast=True)  # after pytest-django's own ordering
def pytest_collection_modifyitems(config, items):
    run_order(items)


def pytest_configure(config):
    config.pluginmanager.register(TemplateAfterSetup(), "template-after-setup")
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker and parallel.MARKER not in os.environ:
        raise pytest.UsageError(
            f"xdist worker {worker} started without its own services (tests/parallel.py)."
        )


VALID_PLAYING = [
    {"type": "crusher", "colour": "black", "rare": False},
    {"type": "assault", "colour": "red", "rare": True},
    {"type": "shooter", "colour": "purple", "rare": False},
    {"type": "annulator", "colour": "blue", "rare": False},
    {"type": "barrier", "colour": "green", "rare": True},
    {"type": "power_booster", "colour": "white", "rare": False},
    {"type": "absorber", "colour": "orange", "rare": False},
    {"type": "fortress", "colour": "yellow", "rare": True},
    {"type": "regenerator", "colour": "red", "rare": False},
]
VALID_ADDITIONAL = [
    {"type": "shooter", "colour": "red", "rare": True},
    {"type": "fortress", "colour": "green", "rare": False},
]


def random_dice_set(player, rng, name="Main"):
    """A valid random dice set of ``player``'s (9 playing + 3 additional), drawn from ``rng``."""
    from players import services as player_services
    from players.demo import random_valid_set

    return player_services.create_dice_set(
        player=player,
        name=name,
        playing_dice=[d.to_dict() for d in random_valid_set(rng)],
        additional_dice=[d.to_dict() for d in random_valid_set(rng)[:3]],
    )


TEMPLATE_BUILDER = pytest.StashKey()


@pytest.fixture(scope="session")
def django_db_modify_db_settings(request, django_db_modify_db_settings_parallel_suffix):
    """On PostgreSQL: commits of the tests' connections do not wait for the disk, and xdist
    workers clone one migrated template (tests/template_db.py)."""
    from django.conf import settings

    database = settings.DATABASES["default"]
    if not database["ENGINE"].endswith("postgresql"):
        return
    # A commit is visible to every other connection at once either way; only its flush to
    # disk comes later, which matters after a crash of the server, not to a test. On the
    # loaded 2-core machine a commit took 13-16 ms waiting for fdatasync, 3-4 ms without.
    options = database.setdefault("OPTIONS", {})
    options["options"] = f"{options.get('options', '')} -c synchronous_commit=off".strip()
    run_id = getattr(request.config, "workerinput", {}).get("testrunuid")
    creates = request.config.getoption("create_db") or not request.config.getoption("reuse_db")
    if run_id and creates:
        from tests import template_db

        request.config.stash[TEMPLATE_BUILDER] = builder = template_db.TemplateBuilder(run_id)
        builder.before_setup()


class TemplateAfterSetup:
    """Once this worker's test database is set up, the template for the others is built
    from it; if the set-up fails, the others are let go (they wait for the lock).
    Registered as a plugin (``pytest_configure``): a hook in this conftest would not see
    session fixtures, whose node is the session at the root."""

    @pytest.hookimpl(wrapper=True)
    def pytest_fixture_setup(self, fixturedef, request):
        builder = request.config.stash.get(TEMPLATE_BUILDER, None)
        if fixturedef.argname != "django_db_setup" or builder is None:
            return (yield)
        try:
            result = yield
        except BaseException:
            builder.release()
            raise
        builder.after_setup()
        return result


@pytest.fixture(scope="session", autouse=True)
def flush_by_delete():
    """Transactional tests empty PostgreSQL by DELETE, not TRUNCATE (tests/flush.py)."""
    from django.db import connection

    if connection.vendor == "postgresql":
        from tests import flush

        flush.delete_instead_of_truncate()


@pytest.fixture(scope="session")
def embedded_database(tmp_path_factory):
    """``put_into(var_dir)``: copies this run's migrated embedded SQLite database into
    ``var_dir``, for tests whose processes run on the embedded defaults (tests/embedded_db.py)."""
    from tests import embedded_db

    folder = embedded_db.shared_folder(tmp_path_factory)

    def put_into(var_dir):
        embedded_db.copy_into(embedded_db.migrated(folder), var_dir)

    return put_into


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """Tests create many users; the production hasher is slow on purpose."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def default_language():
    """Each test starts in the default language: a request in Russian activates Russian
    for the thread it ran in (LocaleMiddleware), which would follow into the next test."""
    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture
def valid_playing():
    return [dict(d) for d in VALID_PLAYING]


@pytest.fixture
def valid_additional():
    return [dict(d) for d in VALID_ADDITIONAL]


@pytest.fixture
def make_user(django_user_model):
    def make(username, *, groups=(), password="correct-horse-9"):
        user = django_user_model.objects.create_user(username=username, password=password)
        for name in groups:
            user.groups.add(Group.objects.get_or_create(name=name)[0])
        return user

    return make


@pytest.fixture
def organiser(make_user):
    return make_user("org", groups=["organiser"])


@pytest.fixture
def judge(make_user):
    return make_user("judy", groups=["judge"])


@pytest.fixture
def make_player(make_user):
    def make(name="Alice", *, with_user=True):
        user = make_user(name.lower().replace(" ", "")) if with_user else None
        return services.create_player(display_name=name, user=user)

    return make


@pytest.fixture
def api():
    return APIClient()


def api_as(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium driven by Playwright (its own browser download does not work here)."""
    import os

    path = os.environ.get("CHROMIUM_PATH")
    if not path:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("CI needs Chromium for the page tests (CHROMIUM_PATH is not set).")
        pytest.skip("no Chromium on this machine (run the suite through `make test`)")
    # Playwright's sync API runs an event loop in this thread; the ORM calls made by the
    # test itself are still synchronous.
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield instance
        instance.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 390, "height": 844})  # a phone
    page = context.new_page()
    page.set_default_timeout(15000)
    yield page
    context.close()


@pytest.fixture
def worker_events(monkeypatch):
    """tests/waiting.py's WorkerEvents, recording while the test runs."""
    from celery import signals

    import config.worker
    from tests.waiting import WorkerEvents

    events = WorkerEvents()
    sweep_once = config.worker.sweep_once

    def counted_sweep():
        events.sweeps_started += 1
        try:
            return sweep_once()
        finally:
            events.sweeps += 1

    monkeypatch.setattr(config.worker, "sweep_once", counted_sweep)
    signals.task_received.connect(events.on_received, weak=False)
    signals.task_postrun.connect(events.on_postrun, weak=False)
    yield events
    signals.task_received.disconnect(events.on_received)
    signals.task_postrun.disconnect(events.on_postrun)
