"""An online match starts its games in the online flow (both players ``ready``): the
paper start-game request cannot start them, reveal swaps or leave the game stuck."""

import pytest

from tests.games.conftest import token_client
from tournaments.models import Match

pytestmark = pytest.mark.django_db


def _open_waiting_game(duo, settings) -> dict:
    settings.GAMES_SWAP_WINDOW_SECONDS = 120
    response = token_client(duo["a"]).post("/api/games/", {"match": duo["match"].pk}, format="json")
    assert response.status_code == 201 and response.json()["status"] == "waiting"
    return response.json()


@pytest.mark.parametrize("who", ["a", "b", "judge"])
def test_start_game_during_the_swap_window_is_refused_and_ready_still_starts_it(duo, settings, who):
    game = _open_waiting_game(duo, settings)
    match = duo["match"]
    alice, bob = token_client(duo["a"]), token_client(duo["b"])
    alice.post(f"/api/games/{game['id']}/ready/")
    refused = token_client(duo[who]).post(
        f"/api/matches/{match.pk}/start-game/", {"number": 1}, format="json"
    )
    assert refused.status_code == 400
    assert "played online" in refused.json()["detail"]
    untouched = Match.objects.get(pk=match.pk)
    assert untouched.current_game_started_at is None and untouched.ready_a_for_game is None
    started = bob.post(f"/api/games/{game['id']}/ready/")
    assert started.status_code == 200, started.json()
    assert started.json()["status"] == "active"
    assert Match.objects.get(pk=match.pk).current_game_started_at is not None


def test_a_paper_word_given_before_the_match_went_online_does_not_get_in_the_way(duo, settings):
    match = duo["match"]
    said = token_client(duo["a"]).post(
        f"/api/matches/{match.pk}/start-game/", {"number": 1}, format="json"
    )
    assert said.status_code == 202
    game = _open_waiting_game(duo, settings)
    token_client(duo["a"]).post(f"/api/games/{game['id']}/ready/")
    started = token_client(duo["b"]).post(f"/api/games/{game['id']}/ready/")
    assert started.json()["status"] == "active"
    match = Match.objects.get(pk=match.pk)
    assert match.current_game == 1 and match.current_game_started_at is not None
    assert (match.ready_a_for_game, match.ready_b_for_game) == (None, None)
