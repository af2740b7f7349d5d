"""Fixtures shared by the whole suite: users in each role, players and valid dice."""

import pytest
from django.contrib.auth.models import Group
from rest_framework.test import APIClient

from players import services

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


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """Tests create many users; the production hasher is slow on purpose."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


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
