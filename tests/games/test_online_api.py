"""Online games through the HTTP API: complete matches between two real users, practice
against the bot, stale and duplicate submissions, results into the match, replay."""

import datetime

import pytest
from rest_framework.test import APIClient

from config.dbtime import db_now
from games import services
from games.engines import irondie
from games.engines.irondie import State, to_act
from games.models import GameAction, GameSession
from tournaments import clocks as t_clocks
from tournaments.models import AuditEntry, Match, MatchGame, ResultSubmission

from .conftest import bot_for, login_client, play_to_end, token_client

pytestmark = pytest.mark.django_db


def _open(client, match) -> dict:
    response = client.post("/api/games/", {"match": match.pk}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def test_two_users_play_a_whole_match_through_http_and_the_result_reaches_the_match(duo):
    match = duo["match"]
    alice, bob = token_client(duo["a"]), login_client(duo["b"])
    game = _open(alice, match)
    assert game["status"] == "active" and game["game_number"] == 1 and game["seat"] == 0
    assert bob.get(f"/api/games/{game['id']}/").json()["seat"] == 1
    outcomes = []
    game_id = game["id"]
    for number in range(1, 4):
        status = play_to_end(
            [alice, bob],
            game_id,
            [bot_for("heuristic", f"a{number}"), bot_for("random", f"b{number}")],
        )
        assert status == "finished"
        state = alice.get(f"/api/games/{game_id}/").json()
        result = state["view"]["result"]
        assert result["winner"] in (0, 1)
        outcomes.append("ab"[result["winner"]])
        session = GameSession.objects.get(pk=game_id)
        assert State.from_dict(session.state) == services.replayed_state(session)
        check = alice.get(f"/api/games/{game_id}/verify/").json()
        assert check["ok"] and check["problems"] == [] and check["rolls_checked"] > 0
        if state["next_game"] is None:
            break
        game_id = state["next_game"]
        assert MatchGame.objects.get(session_id=game_id).number == number + 1
    match.refresh_from_db()
    assert max(outcomes.count("a"), outcomes.count("b")) == 2
    assert match.status == Match.Status.CONFIRMED
    assert (match.games_a, match.games_b) == (outcomes.count("a"), outcomes.count("b"))
    submission = match.submissions.get(status=ResultSubmission.Status.CONFIRMED)
    assert submission.source == ResultSubmission.Source.SYSTEM and submission.games == outcomes
    assert list(match.games.values_list("outcome", flat=True)) == outcomes
    assert match.current_game == len(outcomes)
    assert AuditEntry.objects.filter(action="game.started", object_id=match.pk).count() == len(
        outcomes
    )


def test_a_bot_with_a_token_plays_a_practice_game_against_the_server_bot(make_user):
    user = make_user("practiser")
    client = token_client(user)
    created = client.post("/api/games/", {"kind": "practice"}, format="json")
    assert created.status_code == 201, created.json()
    game = created.json()
    assert game["players"][1]["bot"] == "heuristic" and game["seat"] == 0
    assert game["view"]["seed"] is None and game["commitment"]
    status = play_to_end([client], game["id"], [bot_for("heuristic", 1)])
    assert status == "finished"
    session = GameSession.objects.get(pk=game["id"])
    assert session.actions.filter(cause=GameAction.Cause.BOT).exists()
    assert State.from_dict(session.state) == services.replayed_state(session)
    record = client.get(f"/api/games/{game['id']}/record/").json()
    assert record["seed"] == session.seed and record["result"] == session.result
    assert client.get(f"/api/games/{game['id']}/verify/").json()["ok"] is True


def test_a_practice_game_with_a_dice_set_not_ones_own_is_404(make_user):
    client = token_client(make_user("practiser"))
    response = client.post("/api/games/", {"kind": "practice", "dice_set": 999999}, format="json")
    assert response.status_code == 404
    assert "no dice set with that id" in str(response.json())
    assert "no dice set with that id" in response.json()["detail"]


def test_simultaneous_secret_choices_are_both_accepted_on_the_same_version(duo):
    alice, bob = token_client(duo["a"]), token_client(duo["b"])
    game = _open(alice, duo["match"])
    version = game["version"]
    assert game["view"]["decision"]["kind"] == "split"
    first = alice.post(
        f"/api/games/{game['id']}/actions/",
        {"action": {"kind": "split", "throw": game["split"]["hand"]}, "expected_version": version},
        format="json",
    )
    assert first.status_code == 200, first.json()
    bob_state = bob.get(f"/api/games/{game['id']}/").json()
    second = bob.post(
        f"/api/games/{game['id']}/actions/",
        {
            "action": {"kind": "split", "throw": bob_state["split"]["hand"]},
            "expected_version": version,  # what Bob saw before Alice chose
        },
        format="json",
    )
    assert second.status_code == 200, second.json()
    assert second.json()["view"]["turn"] == 1 and second.json()["view"]["phase"] != "split"


def test_stale_and_duplicate_submissions_are_refused_and_change_nothing(duo):
    alice, bob = token_client(duo["a"]), token_client(duo["b"])
    game = _open(alice, duo["match"])
    url = f"/api/games/{game['id']}/actions/"
    split = {"action": {"kind": "split", "throw": game["split"]["hand"]}, "expected_version": 0}
    assert alice.post(url, split, format="json").status_code == 200
    duplicate = alice.post(url, split, format="json")
    assert duplicate.status_code == 409
    body = duplicate.json()
    assert (
        body["version"] == 1
        and "moved on" in body["detail"]
        and "expected_version" in body["errors"]
    )
    no_version = alice.post(url, {"action": split["action"]}, format="json")
    assert no_version.status_code == 400 and "not your decision" in no_version.json()["detail"]
    future = bob.post(
        url, {"action": {"kind": "split", "throw": []}, "expected_version": 7}, format="json"
    )
    assert future.status_code == 409
    illegal = bob.post(
        url, {"action": {"kind": "split", "throw": [0]}, "expected_version": 1}, format="json"
    )
    assert illegal.status_code == 400 and illegal.json()["errors"]["action"]
    garbage = bob.post(url, {"action": "throw everything"}, format="json")
    assert garbage.status_code == 400
    session = GameSession.objects.get(pk=game["id"])
    assert session.version == 1 and session.actions.count() == 1
    # A sequential decision decided on an old board is refused too.
    bob_state = bob.get(f"/api/games/{game['id']}/").json()
    assert (
        bob.post(
            url,
            {
                "action": {"kind": "split", "throw": bob_state["split"]["hand"]},
                "expected_version": 1,
            },
            format="json",
        ).status_code
        == 200
    )
    session.refresh_from_db()
    state = State.from_dict(session.state)
    if not state.over and len(to_act(state)) == 1:
        seat = next(iter(to_act(state)))
        client = (alice, bob)[seat]
        legal = client.get(f"/api/games/{game['id']}/").json()["legal_actions"]
        ok = client.post(
            url, {"action": legal[0], "expected_version": session.version}, format="json"
        )
        assert ok.status_code == 200
        again = client.post(
            url, {"action": legal[0], "expected_version": session.version}, format="json"
        )
        assert again.status_code in (400, 409)
        assert GameSession.objects.get(pk=game["id"]).version == session.version + 1


def test_outsiders_cannot_act_and_anonymous_cannot_write(duo, make_user):
    alice = token_client(duo["a"])
    game = _open(alice, duo["match"])
    stranger = token_client(make_user("stranger"))
    url = f"/api/games/{game['id']}/actions/"
    action = {"action": {"kind": "split", "throw": []}}
    assert stranger.post(url, action, format="json").status_code == 403
    assert stranger.post(f"/api/games/{game['id']}/concede/", {}, format="json").status_code == 403
    assert (
        stranger.post(
            f"/api/games/{game['id']}/ruling/", {"winner": 0, "reason": "x"}, format="json"
        ).status_code
        == 403
    )
    from rest_framework.test import APIClient

    anonymous = APIClient()
    assert anonymous.post(url, action, format="json").status_code in (401, 403)
    assert anonymous.get(f"/api/games/{game['id']}/").json()["viewer"] == "spectator"
    assert (
        stranger.post("/api/games/", {"match": duo["match"].pk}, format="json").status_code == 403
    )


def test_conceding_the_match_writes_the_result(duo):
    alice, bob = token_client(duo["a"]), token_client(duo["b"])
    game = _open(alice, duo["match"])
    response = bob.post(f"/api/games/{game['id']}/concede/", {"match": True}, format="json")
    assert response.status_code == 200
    assert response.json()["view"]["result"]["winner"] == 0
    match = Match.objects.get(pk=duo["match"].pk)
    assert match.status == Match.Status.CONFIRMED and match.winner_id == match.player_a_id
    assert match.match_loss_b and match.submissions.get().conceded_by == "b"


def test_swap_window_waits_for_both_players_and_reveals_the_swap_at_the_start(duo, settings):
    settings.GAMES_SWAP_WINDOW_SECONDS = 120
    alice, bob = token_client(duo["a"]), token_client(duo["b"])
    game = _open(alice, duo["match"])
    assert game["status"] == "waiting" and game["view"] is None
    assert game["clock"]["start_deadline_at"] and game["clock"]["server_time"]
    assert alice.post(f"/api/games/{game['id']}/ready/").json()["status"] == "waiting"
    started = bob.post(f"/api/games/{game['id']}/ready/").json()
    assert started["status"] == "active" and started["view"]["turn"] == 1
    # Game 1 conceded: game 2 waits; a swap made now is in game 2's set once it starts.
    bob.post(f"/api/games/{game['id']}/concede/", {}, format="json")
    second_id = alice.get(f"/api/games/{game['id']}/").json()["next_game"]
    second = alice.get(f"/api/games/{second_id}/").json()
    assert second["status"] == "waiting" and second["game_number"] == 2
    from tournaments import services as t_services

    match = Match.objects.get(pk=duo["match"].pk)
    swap = t_services.record_swap(
        registration=match.player_b, match=match, swap_out=[0], swap_in=[0], by=duo["b"]
    )
    assert alice.get(f"/api/games/{second_id}/").json()["view"] is None  # nothing leaks
    alice.post(f"/api/games/{second_id}/ready/")
    started = bob.post(f"/api/games/{second_id}/ready/").json()
    assert started["view"]["config"]["sets"][1] == swap.playing_after


def test_match_time_ends_the_game_in_progress_and_decides_the_match(duo):
    alice, bob = token_client(duo["a"]), token_client(duo["b"])
    game = _open(alice, duo["match"])
    bob.post(f"/api/games/{game['id']}/concede/", {}, format="json")  # A leads 1-0
    second = alice.get(f"/api/games/{game['id']}/").json()["next_game"]
    match = Match.objects.get(pk=duo["match"].pk)
    t_clocks.set_deadline(match, db_now() - datetime.timedelta(seconds=1))
    assert t_clocks.enforce_match_deadline(match.pk) == "time called"
    session = GameSession.objects.get(pk=second)
    assert session.status == GameSession.Status.FINISHED
    assert session.result["reason"] == "match_time_over" and session.result["winner"] is None
    assert session.actions.last().cause == GameAction.Cause.MATCH_TIME
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED and (match.games_a, match.games_b) == (1, 0)
    assert match.winner_id == match.player_a_id


def test_game_limit_switches_the_online_game_to_sudden_death(duo):
    alice = token_client(duo["a"])
    game = _open(alice, duo["match"])
    match = Match.objects.get(pk=duo["match"].pk)
    Match.objects.filter(pk=match.pk).update(
        game_deadline_at=db_now() - datetime.timedelta(seconds=1)
    )
    assert t_clocks.enforce_game_deadline(match.pk) == "sudden death"
    state = alice.get(f"/api/games/{game['id']}/").json()
    assert state["view"]["sudden_death"]["from_turn"] == 2
    assert state["clock"]["match"]["sudden_death_from_next_turn"] is True
    session = GameSession.objects.get(pk=game["id"])
    assert session.actions.get().cause == GameAction.Cause.SUDDEN_DEATH
    assert State.from_dict(session.state) == services.replayed_state(session)


def test_judge_pauses_and_awards_a_game_with_an_audit_entry(duo):
    alice, judge = token_client(duo["a"]), token_client(duo["judge"])
    game = _open(alice, duo["match"])
    url = f"/api/games/{game['id']}"
    watched = judge.get(f"{url}/").json()
    assert watched["viewer"] == "judge" and watched["view"]["seed"] is not None
    paused = judge.post(f"{url}/pause/", {"reason": "judge call"}, format="json").json()
    assert paused["status"] == "paused" and paused["clock"]["seat_deadlines"] == [None, None]
    assert paused["clock"]["seat_remaining_seconds"][0] > 50
    assert Match.objects.get(pk=duo["match"].pk).deadline_at is None  # match clock paused too
    refused = alice.post(
        f"{url}/actions/", {"action": {"kind": "split", "throw": []}}, format="json"
    )
    assert refused.status_code == 400 and "paused" in refused.json()["detail"]
    resumed = judge.post(f"{url}/resume/").json()
    assert resumed["status"] == "active" and resumed["clock"]["seat_deadlines"][0]
    awarded = judge.post(
        f"{url}/ruling/", {"winner": 1, "reason": "slow play warning upgraded"}, format="json"
    )
    assert awarded.status_code == 200 and awarded.json()["view"]["result"]["winner"] == 1
    entry = AuditEntry.objects.get(action="game.awarded")
    assert entry.reason == "slow play warning upgraded" and entry.after["winner_seat"] == 1
    assert GameSession.objects.get(pk=game["id"]).actions.last().cause == GameAction.Cause.RULING
    assert (
        alice.post(f"{url}/ruling/", {"winner": 0, "reason": "mine"}, format="json").status_code
        == 403
    )


def test_demo_game_between_bots_plays_to_the_end(judge):
    client = token_client(judge)
    created = client.post("/api/games/", {"kind": "demo"}, format="json")
    assert created.status_code == 201
    session = GameSession.objects.get(pk=created.json()["id"])
    assert session.status == GameSession.Status.FINISHED  # bot delay 0 in tests: inline
    assert State.from_dict(session.state) == services.replayed_state(session)
    assert client.get(f"/api/games/{session.pk}/verify/").json()["ok"] is True


def test_bots_playing_a_whole_game_at_once_meet_the_game_limit_at_a_fixed_turn(judge, monkeypatch):
    """No time passes while two bots play a demo game at once (no delay), so the game
    limit comes at a fixed turn: a game still going there gets sudden death and ends.
    (An early limit here, so that every game meets it; 30 in play.)"""
    import random

    from players.demo import random_valid_set

    SIMULATED_LIMIT_TURN = 3
    monkeypatch.setattr(irondie, "SIMULATED_LIMIT_TURN", SIMULATED_LIMIT_TURN)

    long_games = 0
    for index in range(12):
        rng = random.Random(index)
        sets = [[d.to_dict() for d in random_valid_set(rng)] for _ in range(2)]
        session = services.create_demo_game(by=judge, sets=sets, bot_delay=0)
        session.refresh_from_db()
        assert session.status == GameSession.Status.FINISHED
        state = State.from_dict(session.state)
        limit = session.actions.filter(cause=GameAction.Cause.SUDDEN_DEATH)
        if state.turn >= SIMULATED_LIMIT_TURN:
            long_games += 1
            assert limit.count() == 1
        else:
            assert not limit.exists()
    assert long_games  # these sets and seeds include games that reach the limit


def test_the_games_list_marks_the_viewers_own_seat(duo, make_user):
    game = _open(token_client(duo["a"]), duo["match"])

    def seats_marked(user):
        listed = token_client(user).get("/api/games/").json()["results"]
        row = next(g for g in listed if g["id"] == game["id"])
        return [p["you"] for p in row["players"]]

    assert seats_marked(duo["a"]) == [True, False]
    assert seats_marked(duo["b"]) == [False, True]
    assert seats_marked(make_user("onlooker")) == [False, False]
    anonymous = APIClient().get("/api/games/").json()["results"]
    assert [p["you"] for p in next(g for g in anonymous if g["id"] == game["id"])["players"]] == [
        False,
        False,
    ]


def test_a_stranger_at_a_table_of_three_is_refused_in_words_that_fit_it(make_user):
    owner, stranger = make_user("three-owner"), make_user("three-stranger")
    game = token_client(owner).post(
        "/api/games/", {"game": "dice-forge", "seats": 3, "bot": "random"}, format="json"
    )
    assert game.status_code == 201, game.json()
    url = f"/api/games/{game.json()['id']}"
    version = game.json()["version"]
    client = token_client(stranger)
    answers = {
        "act in it": client.post(
            f"{url}/actions/", {"action": {"kind": "pass"}, "expected_version": version}, "json"
        ),
        "start it": client.post(f"{url}/ready/", {}, format="json"),
        "concede it": client.post(f"{url}/concede/", {"match": False}, format="json"),
    }
    for verb, answer in answers.items():
        assert answer.status_code == 403, answer.json()
        assert answer.json()["detail"] == f"Only the players of this game may {verb}."
    assert GameSession.objects.get(pk=game.json()["id"]).version == version
