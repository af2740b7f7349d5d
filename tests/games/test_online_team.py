"""Online IRONDIE team game: a practice game of 2 v 2 (or 3 v 3) with bots in the empty
seats, played through the API to the end; the play page draws every player's board;
the player sees their teammate's pending split but not the opponents'; the result
names the winning team."""

import random

import pytest
from django.test import Client

from config.dbtime import db_now
from games import services
from games.engines import engine_for
from games.models import GameSession

from .conftest import login_client

pytestmark = pytest.mark.django_db
IRONDIE = engine_for("irondie")


def _create(client, **body):
    return client.post("/api/games/", {"game": "irondie", **body}, format="json")


def _play_to_end(client, game_id, *, rng, limit=3000):
    for _ in range(limit):
        state = client.get(f"/api/games/{game_id}/?legal=all").json()
        if state["status"] != "active":
            return state
        if state["view"]["turn"] >= IRONDIE.SIMULATED_LIMIT_TURN:
            # The game limit, as the clock would switch it on (random play may not end).
            session = GameSession.objects.get(pk=game_id)
            services.switch_to_sudden_death(session, db_now(), note="game time limit")
        assert state["legal_count"] == len(state["legal_actions"]) > 0, state["view"]["to_act"]
        response = client.post(
            f"/api/games/{game_id}/actions/",
            {"action": rng.choice(state["legal_actions"]), "expected_version": state["version"]},
            format="json",
        )
        assert response.status_code == 200, response.json()
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("seats", [4, 6])
def test_a_team_practice_game_with_bots_is_played_to_the_end(make_user, seats):
    client = login_client(make_user("alice"))
    response = _create(client, seats=seats, bot="random")
    assert response.status_code == 201, response.json()
    game = response.json()
    view = game["view"]
    assert game["seat"] == 0 and view["seats"] == seats
    assert view["teams"] == [s % 2 for s in range(seats)] and view["captains"] == [0, 1]
    assert [bool(p["bot"]) for p in game["players"]] == [False] + [True] * (seats - 1)
    # Every bot has made its secret split at once: the player sees their teammates'
    # splits, never the opponents'.
    assert view["phase"] == "split" and view["to_act"] == [0]
    assert sorted(view["pending"]) == [str(s) for s in range(2, seats, 2)]
    final = _play_to_end(client, game["id"], rng=random.Random(seats))
    assert final["status"] == "finished"
    session = GameSession.objects.get(pk=game["id"])
    outcome = final["view"]["result"]
    assert (
        session.result["placings"]
        == outcome["placings"]
        == IRONDIE.placings(services.state_of(session))
    )
    assert outcome["winning_team"] in (0, 1, None)
    assert IRONDIE.State.from_dict(session.state) == services.replayed_state(session)
    assert client.get(f"/api/games/{game['id']}/verify/").json()["ok"]
    html = client.get(f"/games/{game['id']}/").content.decode()
    names = [p["name"] for p in final["players"]]
    if outcome["winning_team"] is not None:
        team = " &amp; ".join(names[s] for s in range(seats) if s % 2 == outcome["winning_team"])
        assert f"{team} win" in html


def test_the_page_draws_every_board_and_the_opponents_split_stays_hidden(make_user):
    user = make_user("alice")
    client = login_client(user)
    game = _create(client, seats=4, bot="heuristic").json()
    session = GameSession.objects.get(pk=game["id"])
    page = Client()
    page.force_login(user)
    html = page.get(f"/games/{game['id']}/").content.decode()
    assert html.count('<section class="side ') == 4
    assert html.count('data-team="1"') == 2 and "captain" in html
    assert "team game" in html and "Heuristic bot 2" in html
    spectator = Client().get(f"/games/{game['id']}/").content.decode()
    assert spectator.count('<section class="side ') == 4
    for text in (html, spectator):
        assert session.seed not in text
    opponents = client.get(f"/api/games/{game['id']}/").json()["view"]
    state = services.state_of(session)
    for seat in (1, 3):
        secret = state.choices[seat]
        assert secret is not None and str(seat) not in opponents["pending"]
    watcher = Client().get(f"/api/games/{game['id']}/").json()["view"]
    assert watcher["pending"] == {} and watcher["seed"] is None


@pytest.mark.parametrize("seats", [3, 5, 8])
def test_a_team_game_needs_two_equal_teams(make_user, seats):
    client = login_client(make_user("alice"))
    response = _create(client, seats=seats)
    assert response.status_code == 400
    assert "seats" in response.json()["errors"]
    assert not GameSession.objects.exists()


def test_the_practice_form_starts_a_team_game(make_user):
    user = make_user("alice")
    page = Client()
    page.force_login(user)
    response = page.post("/games/practice/", {"game": "irondie", "bot": "random", "seats": "4"})
    session = GameSession.objects.get()
    assert response.status_code == 302 and session.seat_count == 4
    assert len(session.config["sets"]) == 4
