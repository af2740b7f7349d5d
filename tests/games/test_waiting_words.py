"""A game waiting to start says what it waits for, in the words of its own game: only
IRONDIE has a swap window (players may swap dice from their additional set); 36d6 and
Dice Forge have no dice to swap, so their games wait for the players alone."""

import pytest
from django.utils import translation

from games.models import GameSession
from tests.games.conftest import token_client
from tests.tournaments.pod_helpers import make_event, published
from tournaments import services as t_services

pytestmark = pytest.mark.django_db

WAITING = {
    "en": {
        "irondie": "Waiting to start (swap window)",
        "36d6": "Waiting to start (players getting ready)",
        "dice-forge": "Waiting to start (players getting ready)",
    },
    "ru": {
        "irondie": "Ожидание начала (окно замены)",
        "36d6": "Ожидание начала (игроки готовятся)",
        "dice-forge": "Ожидание начала (игроки готовятся)",
    },
}
SWAP_WINDOW = {"en": "swap window", "ru": "окно замены"}


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize("game", ["irondie", "36d6", "dice-forge"])
def test_the_waiting_status_in_each_games_words(game, language):
    session = GameSession(engine=game, kind=GameSession.Kind.POD_TABLE)
    with translation.override(language):
        assert session.status_label == WAITING[language][game]
        # The other statuses are the same for every game.
        session.status = GameSession.Status.ACTIVE
        assert session.status_label == str(GameSession.Status.ACTIVE.label)


def _waiting_pod_game(organiser, judge, make_player, game):
    event = make_event(organiser, judge, game=game, pods_online=True)
    for index in range(3):
        player = make_player(f"{game} waiting {index}")
        t_services.register(tournament=event, player=player, by=player.user)
    round_ = published(event, organiser, judge)
    return GameSession.objects.get(pod_game__table__round=round_)


def _status_on_page(client, session, language) -> str:
    page = client.get(f"/games/{session.pk}/", HTTP_ACCEPT_LANGUAGE=language)
    assert page.status_code == 200
    text = page.content.decode()
    start = text.index('class="game-status">') + len('class="game-status">')
    return text[start : text.index("</span>", start)]


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize("game", ["36d6", "dice-forge"])
def test_a_pod_tables_waiting_game_has_no_swap_window(
    organiser, judge, make_player, client, settings, game, language
):
    settings.GAMES_SWAP_WINDOW_SECONDS = 120  # the start window, as in production
    session = _waiting_pod_game(organiser, judge, make_player, game)
    assert session.status == GameSession.Status.WAITING
    client.force_login(session.user_0)
    shown = _status_on_page(client, session, language)
    assert shown == WAITING[language][game]
    assert SWAP_WINDOW[language] not in shown
    # The list of the player's games says the same.
    listed = client.get("/games/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert WAITING[language][game] in listed and SWAP_WINDOW[language] not in listed


@pytest.mark.parametrize("language", ["en", "ru"])
def test_an_irondie_match_game_waits_for_its_swap_window(duo, client, settings, language):
    settings.GAMES_SWAP_WINDOW_SECONDS = 120
    opened = token_client(duo["a"]).post("/api/games/", {"match": duo["match"].pk}, format="json")
    session = GameSession.objects.get(pk=opened.json()["id"])
    assert session.status == GameSession.Status.WAITING
    client.force_login(duo["a"])
    assert _status_on_page(client, session, language) == WAITING[language]["irondie"]
