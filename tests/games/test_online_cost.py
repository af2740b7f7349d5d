"""What an answer costs the server: a split is described instead of listed, the parsed
state is cached per (session, version) and never outlives its version, reads and writes
take a small constant number of queries, and the poll reads four columns."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import selectors, services
from games.engines.irondie import State, legal_actions, to_act
from games.models import GameSession

from .conftest import token_client

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def empty_state_cache():
    services.forget_states()
    yield
    services.forget_states()


def _open(client, match) -> dict:
    response = client.post("/api/games/", {"match": match.pk}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def test_a_split_is_described_not_listed_and_the_full_list_is_on_request(duo):
    alice = token_client(duo["a"])
    game = _open(alice, duo["match"])
    split = game["split"]
    assert game["view"]["decision"]["kind"] == "split" and len(split["hand"]) == 9
    assert split["count"] == game["legal_count"] == 512
    assert split["choose"] == "any subset of hand"
    assert game["legal_actions"] is None
    listed = alice.get(f"/api/games/{game['id']}/?legal=all").json()
    assert listed["legal_count"] == 512 and len(listed["legal_actions"]) == 512
    # The client-side sequence is the engine's list, in the engine's order.
    state = State.from_dict(GameSession.objects.get(pk=game["id"]).state)
    expanded = selectors.legal_choices(game)
    assert len(expanded) == 512
    assert list(expanded) == legal_actions(state, 0) == listed["legal_actions"]
    assert expanded[-1] == {"kind": "split", "throw": split["hand"]}
    assert {"kind": "split", "throw": split["hand"][:3]} in expanded
    assert {"kind": "split", "throw": [split["hand"][1], split["hand"][0]]} not in expanded
    assert {"kind": "split", "throw": [99]} not in expanded
    assert {"kind": "return", "die": None} not in expanded


def test_a_small_split_is_listed_and_other_decisions_always_are(duo, settings):
    settings.GAMES_SPLIT_LIST_LIMIT = 1024
    alice, bob = token_client(duo["a"]), token_client(duo["b"])
    game = _open(alice, duo["match"])
    assert len(game["legal_actions"]) == game["legal_count"] == 512
    url = f"/api/games/{game['id']}/actions/"
    for client, answer in ((alice, game), (bob, bob.get(f"/api/games/{game['id']}/").json())):
        action = {"kind": "split", "throw": answer["split"]["hand"]}
        response = client.post(url, {"action": action, "expected_version": 0}, format="json")
        assert response.status_code == 200, response.json()
    settings.GAMES_SPLIT_LIST_LIMIT = 16
    for client in (alice, bob):
        answer = client.get(f"/api/games/{game['id']}/").json()
        if answer["split"] is None:
            assert answer["legal_count"] == len(answer["legal_actions"])
        else:
            assert answer["legal_count"] == 1 << len(answer["split"]["hand"])


def test_the_opponent_and_spectators_get_no_split_description(duo, make_user):
    alice, bob = token_client(duo["a"]), token_client(duo["b"])
    game = _open(alice, duo["match"])
    secret = {"kind": "split", "throw": game["split"]["hand"][:2]}
    url = f"/api/games/{game['id']}/actions/"
    assert alice.post(url, {"action": secret}, format="json").status_code == 200
    mine = alice.get(f"/api/games/{game['id']}/").json()
    assert mine["split"] is None and mine["legal_count"] == 0 and mine["legal_actions"] == []
    stranger = token_client(make_user("watcher")).get(f"/api/games/{game['id']}/").json()
    assert stranger["split"] is None and stranger["legal_count"] == 0
    assert bob.get(f"/api/games/{game['id']}/").json()["split"]["count"] == 512


def test_the_state_cache_serves_reads_and_is_keyed_by_the_version(duo):
    alice, bob = token_client(duo["a"]), token_client(duo["b"])
    game = _open(alice, duo["match"])
    session = GameSession.objects.get(pk=game["id"])
    state = services.remember_state(session, State.from_dict(session.state))
    lean = GameSession.objects.defer("state").get(pk=game["id"])
    assert services.cached_state(lean) is state  # same version: no snapshot read
    url = f"/api/games/{game['id']}/actions/"
    action = {"kind": "split", "throw": game["split"]["hand"]}
    assert (
        alice.post(url, {"action": action, "expected_version": 0}, format="json").status_code == 200
    )
    moved = GameSession.objects.defer("state").get(pk=game["id"])
    assert moved.version == 1
    assert services.cached_state(moved) is None  # a newer version is never served old
    fresh = services.state_of(moved)
    assert fresh == State.from_dict(GameSession.objects.get(pk=game["id"]).state)
    assert fresh != state
    # Another game with the same id and version (another commitment) is not confused.
    other = GameSession.objects.defer("state").get(pk=game["id"])
    other.commitment = "0" * 64
    assert services.cached_state(other) is None
    answer = bob.get(f"/api/games/{game['id']}/").json()
    assert answer["version"] == 1 and answer["legal_count"] == 512


def test_a_write_caches_its_state_only_once_committed(duo, django_capture_on_commit_callbacks):
    alice = token_client(duo["a"])
    game = _open(alice, duo["match"])
    url = f"/api/games/{game['id']}/actions/"
    action = {"kind": "split", "throw": game["split"]["hand"]}
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        assert (
            alice.post(url, {"action": action, "expected_version": 0}, format="json").status_code
            == 200
        )
    lean = GameSession.objects.defer("state").get(pk=game["id"])
    assert services.cached_state(lean) is None  # not committed yet: nothing cached
    for callback in callbacks:
        callback()
    cached = services.cached_state(lean)
    assert cached is not None and cached == State.from_dict(
        GameSession.objects.get(pk=game["id"]).state
    )


def test_queries_per_request_are_few_and_constant(duo):
    alice, bob = token_client(duo["a"]), token_client(duo["b"])
    game = _open(alice, duo["match"])
    base = f"/api/games/{game['id']}/"

    def count(call):
        with CaptureQueriesContext(connection) as queries:
            response = call()
        assert response.status_code == 200, response.content[:300]
        return len(queries)

    # A read: the token, the row without the snapshot (+ the snapshot on a cache miss).
    assert count(lambda: bob.get(base)) <= 3
    bob.get(base)
    services.remember_state(
        GameSession.objects.get(pk=game["id"]),
        State.from_dict(GameSession.objects.get(pk=game["id"]).state),
    )
    assert count(lambda: bob.get(base)) == 2
    # The poll: no authentication, one indexed row.
    assert count(lambda: bob.get(base + "poll/")) == 1
    poll = bob.get(base + "poll/").json()
    assert set(poll) == {"id", "version", "status", "clock_version", "server_time"}
    # A write: token, lock, (snapshot on a miss), log row, row update; savepoints aside.
    hands = [game["split"]["hand"], bob.get(base).json()["split"]["hand"]]
    writes = []
    for client, hand in zip((alice, bob), hands, strict=True):
        action = {"kind": "split", "throw": hand}
        with CaptureQueriesContext(connection) as queries:
            response = client.post(
                base + "actions/", {"action": action, "expected_version": 0}, format="json"
            )
        assert response.status_code == 200
        writes.append(
            [q["sql"] for q in queries if not q["sql"].startswith(("SAVEPOINT", "RELEASE"))]
        )
    for sql in writes:
        assert len(sql) <= 6, sql
        assert not any("statement_timestamp" in q and "FOR UPDATE" not in q for q in sql[3:])
        update = next(q for q in sql if q.startswith("UPDATE"))
        assert '"config" =' not in update and '"seed" =' not in update, update


def test_a_missing_game_is_404_for_reads_and_writes(duo):
    alice = token_client(duo["a"])
    assert alice.get("/api/games/999999/").status_code == 404
    assert alice.get("/api/games/999999/poll/").status_code == 404
    response = alice.post("/api/games/999999/actions/", {"action": {"kind": "pass"}}, format="json")
    assert response.status_code == 404
    assert alice.post("/api/games/999999/concede/", {}, format="json").status_code == 404


def test_game_state_of_a_seat_with_a_decision_lists_or_describes_it(duo):
    alice = token_client(duo["a"])
    game = _open(alice, duo["match"])
    session = GameSession.objects.get(pk=game["id"])
    state = State.from_dict(session.state)
    assert to_act(state) == {0, 1}
    answer = selectors.game_state(session, 1, session.created_at, state=state)
    assert answer["legal_actions"] is None and answer["legal_count"] == 512
    answer = selectors.game_state(session, 1, session.created_at, state=state, all_legal=True)
    assert answer["legal_actions"] == legal_actions(state, 1)
