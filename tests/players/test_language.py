"""The reader's language: the switcher on every page, the cookie it sets, the preference
saved on a player's profile and brought back at log-in, and API errors in the language
the client asks for (docs/translation.md)."""

import pytest
from django.conf import settings
from django.test import Client

from players.models import Player

pytestmark = pytest.mark.django_db

COOKIE = settings.LANGUAGE_COOKIE_NAME


def test_every_page_has_the_switcher_to_the_other_language(client):
    english = client.get("/tournaments/").content.decode()
    assert '<html lang="en">' in english
    assert 'name="language" value="ru"' in english and ">Русский<" in english
    russian = client.get("/tournaments/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert '<html lang="ru">' in russian and ">Турниры<" in russian
    assert 'name="language" value="en"' in russian and ">English<" in russian


def test_switching_sets_the_cookie_and_returns_to_the_page(client):
    response = client.post("/i18n/setlang/", {"language": "ru", "next": "/tournaments/"})
    assert response.status_code == 302 and response["Location"] == "/tournaments/"
    assert response.cookies[COOKIE].value == "ru"
    page = client.get("/tournaments/").content.decode()
    assert '<html lang="ru">' in page


def test_an_unknown_language_or_a_get_changes_nothing(client, make_player):
    player = make_player("Alice")
    client.force_login(player.user)
    response = client.post("/i18n/setlang/", {"language": "xx", "next": "/"})
    assert response.status_code == 302 and COOKIE not in response.cookies
    assert client.get("/i18n/setlang/?language=ru").status_code == 405
    player.refresh_from_db()
    assert player.language == ""


def test_a_player_s_choice_is_saved_and_comes_back_at_log_in(make_player):
    player = make_player("Alice")
    browser = Client()
    browser.force_login(player.user)
    browser.post("/i18n/setlang/", {"language": "ru", "next": "/"})
    player.refresh_from_db()
    assert player.language == "ru"

    other = Client()  # another browser: no cookie yet
    response = other.post(
        "/accounts/login/", {"username": "alice", "password": "correct-horse-9", "next": "/me/"}
    )
    assert response.status_code == 302 and response.cookies[COOKIE].value == "ru"
    assert '<html lang="ru">' in other.get("/me/").content.decode()

    browser.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert Player.objects.get(pk=player.pk).language == "en"


def test_a_user_without_a_profile_switches_with_the_cookie_alone(client, organiser):
    client.force_login(organiser)
    response = client.post("/i18n/setlang/", {"language": "ru", "next": "/"})
    assert response.cookies[COOKIE].value == "ru"
    assert not Player.objects.filter(user=organiser).exists()


def test_api_errors_follow_accept_language(api, make_player):
    player = make_player("Alice")
    api.force_authenticate(player.user)
    english = api.delete(f"/api/players/{player.pk}/")
    assert english.status_code == 403
    assert english.json()["detail"] == "Only organisers may delete players."
    russian = api.delete(f"/api/players/{player.pk}/", HTTP_ACCEPT_LANGUAGE="ru")
    assert russian.status_code == 403
    assert russian.json()["detail"] == "Удалять игроков могут только организаторы."
    missing = api.get("/api/no-such-thing/", HTTP_ACCEPT_LANGUAGE="ru")
    assert missing.status_code == 404
    assert missing.json()["detail"] == "Не найдено: по этому пути в API ничего нет."
    assert Player.objects.filter(pk=player.pk).exists()


def test_anonymous_pages_carry_no_csrf_token_and_a_signed_in_switch_needs_one(make_player):
    """Anonymous pages stay shareable by the live cache (no token); a signed-in reader's
    switch writes their profile, so it is refused without the token."""
    anonymous = Client(enforce_csrf_checks=True)
    page = anonymous.get("/tournaments/").content.decode()
    assert "csrfmiddlewaretoken" not in page
    switched = anonymous.post("/i18n/setlang/", {"language": "ru", "next": "/"})
    assert switched.status_code == 302 and switched.cookies[COOKIE].value == "ru"

    player = make_player("Bob")
    signed_in = Client(enforce_csrf_checks=True)
    signed_in.force_login(player.user)
    refused = signed_in.post("/i18n/setlang/", {"language": "ru", "next": "/"})
    assert refused.status_code == 403
    player.refresh_from_db()
    assert player.language == "" and COOKIE not in refused.cookies
