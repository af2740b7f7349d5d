"""Online 36d6: practice games of 2 to 4 seats against bots in every other seat, played
through the API to the end; the play page draws the board; nothing hidden leaks (the
seed before the end); placings stored in the result; constant query counts."""

import datetime
import random

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from config.dbtime import db_now
from games import clocks, d36_board, enforcement, services
from games.engines import d36
from games.models import GameAction, GameSession
from games.services import rows
from tests.test_api_schema import answer_validator, errors_of, openapi_schema

from .conftest import login_client

pytestmark = pytest.mark.django_db


def _create(client, **body):
    return client.post("/api/games/", {"game": "36d6", **body}, format="json")


def _play_to_end(client, game_id, *, rng, limit=3000):
    for _ in range(limit):
        state = client.get(f"/api/games/{game_id}/").json()
        if state["status"] != "active":
            return state
        assert state["legal_count"] == len(state["legal_actions"]) > 0, state["view"]["to_act"]
        response = client.post(
            f"/api/games/{game_id}/actions/",
            {"action": rng.choice(state["legal_actions"]), "expected_version": state["version"]},
            format="json",
        )
        assert response.status_code == 200, response.json()
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_a_practice_game_against_bots_is_played_to_the_end_through_the_api(make_user, seats):
    user = make_user("alice")
    client = login_client(user)
    response = _create(client, seats=seats, bot="random")
    assert response.status_code == 201, response.json()
    game = response.json()
    assert game["engine"] == "36d6" and game["seat"] == 0
    assert [p["seat"] for p in game["players"]] == list(range(seats))
    assert [bool(p["bot"]) for p in game["players"]] == [False] + [True] * (seats - 1)
    assert game["view"]["seats"] == seats and game["view"]["size"] == 6
    assert len(game["clock"]["seat_deadlines"]) == seats
    # It is the player's turn (bots before them moved at once) with a deadline for it.
    assert game["view"]["to_act"] == [0] and game["clock"]["seat_deadlines"][0]
    assert all(d is None for d in game["clock"]["seat_deadlines"][1:])
    final = _play_to_end(client, game["id"], rng=random.Random(seats))
    assert final["status"] == "finished" and final["view"]["over"]
    session = GameSession.objects.get(pk=game["id"])
    placings = session.result["placings"]
    assert session.placings == placings == final["view"]["result"]["placings"]
    assert len(placings) == seats and min(placings) == 1
    assert d36.State.from_dict(session.state) == services.replayed_state(session)
    check = client.get(f"/api/games/{game['id']}/verify/").json()
    assert check["ok"] and check["rolls_checked"] > 0
    assert session.decision_since and len(session.decision_since) == seats


def test_variants_and_the_zombie_board(make_user):
    client = login_client(make_user("alice"))
    game = _create(client, seats=4, variants=["team", "stronghold"]).json()
    assert game["view"]["config"]["variants"] == ["stronghold", "team"]
    assert game["view"]["teams"] == [0, 1, 0, 1]
    zombie = _create(client, seats=2, variants=["zombie"]).json()
    assert zombie["view"]["size"] == 7
    page = client.get(f"/games/{zombie['id']}/").content.decode()
    assert page.count("data-square=") == 49


@pytest.mark.parametrize(
    "body, field",
    [
        ({"seats": 9}, "seats"),
        ({"seats": 1}, "seats"),
        ({"seats": 3, "variants": ["team"]}, "variants"),
        ({"variants": ["nope"]}, "variants"),
        ({"game": "chess"}, "game"),
    ],
)
def test_a_bad_practice_request_is_a_400_and_creates_nothing(make_user, body, field):
    client = login_client(make_user("alice"))
    response = client.post("/api/games/", {"game": "36d6", **body}, format="json")
    assert response.status_code == 400, response.json()
    assert field in response.json()["errors"], response.json()
    assert not GameSession.objects.exists()


def test_the_page_draws_the_board_and_the_choices_and_hides_the_seed(make_user):
    user = make_user("alice")
    client = login_client(user)
    game = _create(client, seats=3, bot="heuristic").json()
    session = GameSession.objects.get(pk=game["id"])
    pages = Client()
    pages.force_login(user)
    html = pages.get(f"/games/{game['id']}/").content.decode()
    assert html.count("data-square=") == 36 and "d36-grid" in html
    assert html.count('class="game-choice"') == game["legal_count"] > 0
    assert "Heuristic bot 1" in html and "Heuristic bot 2" in html
    spectator = Client().get(f"/games/{game['id']}/").content.decode()
    assert 'class="game-choice"' not in spectator and "d36-grid" in spectator
    board = Client().get(f"/games/{game['id']}/board/").content.decode()
    for text in (html, spectator, board):
        assert session.seed not in text
    for path in ("", "log/"):
        assert session.seed not in client.get(f"/api/games/{game['id']}/{path}").content.decode()
    assert client.get(f"/api/games/{game['id']}/record/").status_code == 400
    # The log in words after the player's first move (and any extra go a natural 6
    # gives, ended at once) and the bots' answers: the page shows the last lines only.
    state = client.get(f"/api/games/{game['id']}/").json()
    for _ in range(10):
        if state["view"]["to_act"] != [0]:
            break
        kinds = {a["kind"]: a for a in state["legal_actions"]}
        action = kinds.get("end_turn") or kinds["move"]
        answer = client.post(
            f"/api/games/{game['id']}/actions/",
            {"action": action, "expected_version": state["version"]},
            format="json",
        )
        assert answer.status_code == 200, answer.json()
        state = client.get(f"/api/games/{game['id']}/").json()
    html = pages.get(f"/games/{game['id']}/").content.decode()
    assert "Player: plays a die to" in html and "Heuristic bot 1: plays a die to" in html
    assert "Attack on" in html or "A die moves from" in html


def test_an_illegal_or_stale_action_changes_nothing(make_user):
    client = login_client(make_user("alice"))
    game = _create(client).json()
    base = f"/api/games/{game['id']}/actions/"
    bad = client.post(base, {"action": {"kind": "move", "die": 0, "to": [5, 5]}}, format="json")
    assert bad.status_code == 400
    legal = game["legal_actions"][0]
    stale = client.post(base, {"action": legal, "expected_version": 999}, format="json")
    assert stale.status_code == 409
    assert GameSession.objects.get(pk=game["id"]).version == game["version"]


def test_conceding_leaves_the_bots_to_finish_and_a_judge_can_award(make_user, judge):
    client = login_client(make_user("alice"))
    game = _create(client, seats=3).json()
    response = client.post(f"/api/games/{game['id']}/concede/", {}, format="json")
    assert response.status_code == 200
    session = GameSession.objects.get(pk=game["id"])
    assert session.status == "finished" and session.placings[0] == 3
    other = _create(client, seats=4, variants=["team"]).json()
    ruled = login_client(judge).post(
        f"/api/games/{other['id']}/ruling/", {"winner": 2, "reason": "test"}, format="json"
    )
    assert ruled.status_code == 200, ruled.json()
    assert GameSession.objects.get(pk=other["id"]).placings == [1, 2, 1, 2]
    wrong = login_client(judge).post(
        f"/api/games/{other['id']}/ruling/", {"winner": 7, "reason": "x"}, format="json"
    )
    assert wrong.status_code == 400


def test_queries_for_the_game_api_and_page_do_not_grow_with_seats(make_user):
    user = make_user("alice")
    client = login_client(user)
    pages = Client()
    pages.force_login(user)
    counts = []
    for seats in (2, 4):
        game = _create(client, seats=seats).json()
        session = GameSession.objects.get(pk=game["id"])
        services.remember_state(session, d36.State.from_dict(session.state))
        measured = []
        for who, path in (
            (client, f"/api/games/{game['id']}/"),
            (pages, f"/games/{game['id']}/"),
            (pages, f"/games/{game['id']}/board/"),
        ):
            with CaptureQueriesContext(connection) as queries:
                assert who.get(path).status_code == 200
            measured.append(len(queries))
        counts.append(measured)
    assert counts[0] == counts[1], counts
    assert counts[0][0] <= 3, counts


def test_irondie_sessions_keep_two_seats(make_user):
    session = GameSession(name_0="a", name_1="b")
    assert session.seat_count == 2 and list(session.seats) == [0, 1]
    assert rows.SEATS == (0, 1)


def test_the_decision_clock_plays_the_default_for_a_late_seat_and_the_bots_answer(make_user):
    client = login_client(make_user("alice"))
    game = _create(client, seats=3).json()
    session = GameSession.objects.get(pk=game["id"])
    past = db_now() - datetime.timedelta(seconds=5)
    GameSession.objects.filter(pk=session.pk).update(
        seat_deadlines=[past.isoformat(), None, None], deadline_at=past
    )
    assert enforcement.enforce_deadline(session.pk) == "default applied"
    session.refresh_from_db()
    late = session.actions.get(cause=GameAction.Cause.CLOCK)
    assert late.actor == "0" and late.index == game["version"]
    # The bots answered at once (unless the default move earned the player an extra go):
    # it is the player's turn again, or the game is over, and the next decision has a
    # fresh deadline.
    later = session.actions.filter(index__gt=late.index).values_list("cause", flat=True)
    assert set(later) <= {GameAction.Cause.BOT}
    now = client.get(f"/api/games/{game['id']}/").json()
    assert session.status == "finished" or now["legal_actions"]
    if session.status == "active":
        assert clocks.seat_deadlines(session)[0] > db_now()
        assert enforcement.enforce_deadline(session.pk) == "not due"


def test_a_judge_watches_with_the_judge_view_and_a_stranger_as_a_spectator(make_user, judge):
    client = login_client(make_user("alice"))
    game = _create(client, seats=3).json()
    seed = GameSession.objects.get(pk=game["id"]).seed
    as_judge = login_client(judge).get(f"/api/games/{game['id']}/").json()
    assert as_judge["viewer"] == "judge" and as_judge["view"]["seed"] == seed
    assert as_judge["legal_actions"] == [] and as_judge["seat"] is None
    pages = Client()
    pages.force_login(judge)
    assert "judge view" in pages.get(f"/games/{game['id']}/").content.decode()
    stranger = login_client(make_user("eve")).get(f"/api/games/{game['id']}/").json()
    assert stranger["viewer"] == "spectator" and stranger["view"]["seed"] is None
    refused = login_client(make_user("mallory")).post(
        f"/api/games/{game['id']}/actions/",
        {"action": game["legal_actions"][0], "expected_version": game["version"]},
        format="json",
    )
    assert refused.status_code == 403
    assert GameSession.objects.get(pk=game["id"]).version == game["version"]


def test_a_demo_game_of_bots_moves_by_the_bot_task_and_at_once_without_delay(judge, settings):
    watched = services.create_demo_game(by=judge, game="36d6", seats=4, bot_delay=1.0)
    assert [watched.seat_bot(s) for s in watched.seats] == ["heuristic"] * 4
    assert watched.version == 0 and watched.status == "active"
    for _ in range(3000):
        watched.refresh_from_db()
        if watched.status != "active":
            break
        assert services.play_bots(watched.pk, watched.version) != "no bot to act"
        assert services.play_bots(watched.pk, watched.version - 1) == "stale"
    assert watched.status == "finished" and len(watched.placings) == 4
    assert d36.State.from_dict(watched.state) == services.replayed_state(watched)
    judge_client = login_client(judge)
    at_once = judge_client.post(
        "/api/games/", {"kind": "demo", "game": "36d6", "seats": 3}, format="json"
    )
    assert at_once.status_code == 201, at_once.json()
    assert at_once.json()["status"] == "finished"  # GAMES_DEMO_BOT_DELAY is 0 in tests
    assert [p["bot"] for p in at_once.json()["players"]] == ["heuristic", "random", "heuristic"]


def test_36d6_answers_match_the_openapi_schema(make_user):
    client = login_client(make_user("alice"))
    schema = openapi_schema()
    created = _create(client, seats=3, variants=["zombie"])
    problems = errors_of(answer_validator(schema, "/api/games/", "post", 201), created.json())
    game = created.json()
    _play_to_end(client, game["id"], rng=random.Random(5))
    for path in ("/api/games/{id}/", "/api/games/{id}/log/", "/api/games/{id}/record/"):
        response = client.get(path.replace("{id}", str(game["id"])))
        validator = answer_validator(schema, path, "get", response.status_code)
        problems += [f"{path}: {p}" for p in errors_of(validator, response.json())]
    listed = client.get("/api/games/")
    problems += errors_of(answer_validator(schema, "/api/games/", "get", 200), listed.json())
    assert not problems, problems


def test_my_games_lists_a_game_where_i_sit_in_an_extra_seat(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    game = _create(login_client(alice), seats=3).json()
    session = GameSession.objects.get(pk=game["id"])
    seats = list(session.extra_seats)
    seats[0] = {**seats[0], "user": bob.pk, "bot": ""}
    GameSession.objects.filter(pk=session.pk).update(extra_seats=seats)
    session.refresh_from_db()
    assert session.seat_of(bob) == 2 and session.seat_bot(2) == ""
    mine = login_client(bob).get("/api/games/", {"mine": 1}).json()
    rows_ = mine["results"] if isinstance(mine, dict) else mine
    assert [g["id"] for g in rows_] == [game["id"]]
    assert login_client(bob).get(f"/api/games/{game['id']}/").json()["seat"] == 2
    eve = login_client(make_user("eve")).get("/api/games/", {"mine": 1}).json()
    assert (eve["results"] if isinstance(eve, dict) else eve) == []


def test_the_36d6_log_and_moves_read_in_russian():
    board = {"dice": {"d1": {"face": 4, "square": [1, 1]}}, "board": [], "size": 6}
    with translation.override("ru"):
        turn = d36_board.describe_event(board, {"type": "turn", "turn": 3, "seat": 0}, ["Аня"])
        move = d36_board.describe_logged(board, {"kind": "move", "to": [2, 1]})
    assert turn == "Ход 3: ходит Аня."
    assert move == "ходит кубиком на b3"
