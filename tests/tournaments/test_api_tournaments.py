"""Tournaments, registrations and rounds through the API: roles, switches, 400s, queries."""

import random

import pytest
from rest_framework.test import APIClient

from players import services as player_services
from tests.conftest import VALID_ADDITIONAL, VALID_PLAYING, api_as
from tests.tournaments.conftest import play_round_by_judge
from tournaments import services
from tournaments.models import AuditEntry, Match, Registration, Round, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def anon():
    return APIClient()


def t_url(tournament, tail=""):
    return f"/api/tournaments/{tournament.pk}/{tail}"


# --- tournaments ----------------------------------------------------------------------


def test_only_organisers_create_tournaments(organiser, judge, make_user):
    body = {"name": "Spring Open", "date": "2027-03-01", "top_cut_size": 4, "head_judge": judge.pk}
    assert anon().post("/api/tournaments/", body, format="json").status_code in (401, 403)
    for user in (judge, make_user("someone")):
        assert api_as(user).post("/api/tournaments/", body, format="json").status_code == 403
    assert Tournament.objects.count() == 0
    created = api_as(organiser).post("/api/tournaments/", body, format="json")
    assert created.status_code == 201, created.json()
    data = created.json()
    assert data["status"] == "draft" and data["organiser"] == "org"
    assert data["head_judge_username"] == "judy" and data["players"] == 0


@pytest.mark.parametrize(
    "body,field",
    [
        ({"date": "2027-03-01"}, "name"),
        ({"name": "X", "date": "soon"}, "date"),
        ({"name": "X", "date": "2027-03-01", "top_cut_size": 6}, "top_cut_size"),
        ({"name": "X", "date": "2027-03-01", "late_entry": "maybe"}, "late_entry"),
    ],
)
def test_bad_tournament_is_400_and_writes_nothing(organiser, body, field):
    response = api_as(organiser).post("/api/tournaments/", body, format="json")
    assert response.status_code == 400 and field in response.json()["errors"]
    assert Tournament.objects.count() == 0 and AuditEntry.objects.count() == 0


def test_drafts_are_hidden_from_everyone_but_organisers(organiser, make_user):
    draft = services.create_tournament(organiser=organiser, name="Secret", date="2027-01-01")
    assert anon().get("/api/tournaments/").json()["results"] == []
    assert anon().get(t_url(draft)).status_code == 404
    assert api_as(make_user("x")).get(t_url(draft)).status_code == 404
    assert api_as(organiser).get(t_url(draft)).status_code == 200


def test_status_change_by_organiser_only(tournament, organiser, judge, make_user):
    body = {"status": "check_in"}
    for client in (anon(), api_as(judge), api_as(make_user("x"))):
        assert client.post(t_url(tournament, "status/"), body, format="json").status_code in (
            401,
            403,
        )
    bad = api_as(organiser).post(
        t_url(tournament, "status/"), {"status": "finished"}, format="json"
    )
    assert bad.status_code == 400 and "status" in bad.json()["errors"]
    ok = api_as(organiser).post(t_url(tournament, "status/"), body, format="json")
    assert ok.status_code == 200 and ok.json()["status"] == "check_in"


# --- registrations --------------------------------------------------------------------


def _player_with_set(make_player, name):
    player = make_player(name)
    dice_set = player_services.create_dice_set(
        player=player, name="Main", playing_dice=VALID_PLAYING, additional_dice=VALID_ADDITIONAL
    )
    return player, dice_set


def test_registration_self_and_by_organiser(tournament, make_player, organiser, judge):
    alice, alice_set = _player_with_set(make_player, "Alice")
    bob, bob_set = _player_with_set(make_player, "Bob")
    path = t_url(tournament, "registrations/")
    assert anon().post(path, {"dice_set": alice_set.pk}, format="json").status_code in (401, 403)
    # Someone else's set, someone else's profile, a judge: refused, nothing written.
    assert api_as(alice.user).post(path, {"dice_set": bob_set.pk}, format="json").status_code == 400
    assert (
        api_as(alice.user)
        .post(path, {"player": bob.pk, "dice_set": bob_set.pk}, format="json")
        .status_code
        == 403
    )
    assert (
        api_as(judge)
        .post(path, {"player": bob.pk, "dice_set": bob_set.pk}, format="json")
        .status_code
        == 403
    )
    assert api_as(alice.user).post(path, {}, format="json").status_code == 400
    assert Registration.objects.count() == 0
    own = api_as(alice.user).post(path, {"dice_set": alice_set.pk}, format="json")
    assert own.status_code == 201, own.json()
    assert own.json()["playing_dice"] == VALID_PLAYING
    assert own.json()["additional_dice"] == VALID_ADDITIONAL
    again = api_as(alice.user).post(path, {"dice_set": alice_set.pk}, format="json")
    assert again.status_code == 400 and "already registered" in again.json()["detail"]
    by_org = api_as(organiser).post(path, {"player": bob.pk, "dice_set": bob_set.pk}, format="json")
    assert by_org.status_code == 201
    # The sets are revealed when the Swiss rounds start (as on the sets page); before
    # that the organisers and judges see them.
    assert anon().get(path).status_code == 403
    assert api_as(alice.user).get(path).status_code == 403
    listed = api_as(judge).get(path).json()
    assert [r["player"]["display_name"] for r in listed] == ["Alice", "Bob"]


def test_check_in_drop_reinstate_permissions(
    tournament, register_players, organiser, judge, make_user
):
    first, second = register_players(tournament, 2)
    stranger = make_user("stranger")

    def post(user, registration, tail, body=None):
        client = anon() if user is None else api_as(user)
        return client.post(
            f"/api/registrations/{registration.pk}/{tail}/", body or {}, format="json"
        )

    for user in (None, stranger, second.player.user, judge):
        assert post(user, first, "check-in").status_code in (401, 403)
    assert post(first.player.user, first, "check-in").json()["checked_in"] is True
    assert post(organiser, first, "check-in", {"checked_in": False}).json()["checked_in"] is False
    for user in (None, stranger, second.player.user):
        assert post(user, first, "drop").status_code in (401, 403)
    first.refresh_from_db()
    assert not first.dropped
    assert post(judge, first, "drop", {"reason": "ill"}).json()["dropped"] is True
    assert post(first.player.user, first, "drop").status_code == 400  # already dropped
    for user in (None, stranger, first.player.user, judge):
        assert post(user, first, "reinstate").status_code in (401, 403)
    assert post(organiser, first, "reinstate").json()["dropped"] is False
    assert post(organiser, first, "reinstate").status_code == 400
    assert post(second.player.user, second, "drop").json()["dropped"] is True


# --- rounds ---------------------------------------------------------------------------


def test_round_lifecycle_permissions(tournament, register_players, organiser, judge, make_user):
    registrations = register_players(tournament, 6)
    player = registrations[0].player.user
    others = (None, make_user("stranger"), player)

    def post(user, path, body=None):
        client = anon() if user is None else api_as(user)
        return client.post(path, body or {}, format="json")

    for user in (*others, judge):
        assert post(user, t_url(tournament, "pair/")).status_code in (401, 403)
    assert Round.objects.count() == 0
    paired = post(organiser, t_url(tournament, "pair/"), {"seed": "s1"})
    assert paired.status_code == 201 and len(paired.json()["matches"]) == 3
    round_id = paired.json()["id"]
    # A draft is for staff only.
    assert anon().get(f"/api/rounds/{round_id}/").status_code == 404
    assert api_as(player).get(f"/api/rounds/{round_id}/").status_code == 404
    assert anon().get(t_url(tournament, "rounds/")).json()["results"] == []
    assert api_as(judge).get(f"/api/rounds/{round_id}/").json()["pairing_seed"] == "s1"
    # Swap two players in the draft.
    matches = paired.json()["matches"]
    a, b = matches[0]["player_a"]["registration"], matches[1]["player_a"]["registration"]
    path = f"/api/rounds/{round_id}/swap-players/"
    for user in (*others, judge):
        assert post(user, path, {"first": a, "second": b, "reason": "seat"}).status_code in (
            401,
            403,
        )
    no_reason = post(organiser, path, {"first": a, "second": b, "reason": ""})
    assert no_reason.status_code == 400 and "reason" in no_reason.json()["errors"]
    assert post(organiser, path, {"first": a, "second": b, "reason": "family"}).status_code == 200
    assert Match.objects.get(round_id=round_id, table=1).player_a_id == b
    # Re-pair, publish, start, close.
    for user in (*others, judge):
        assert post(user, f"/api/rounds/{round_id}/repair/").status_code in (401, 403)
    repaired = post(organiser, f"/api/rounds/{round_id}/repair/", {"seed": "s2"})
    assert repaired.status_code == 201
    round_id = repaired.json()["id"]
    for user in (*others, judge):
        assert post(user, f"/api/rounds/{round_id}/publish/").status_code in (401, 403)
    assert post(organiser, f"/api/rounds/{round_id}/publish/").json()["status"] == "published"
    for user in others:
        assert post(user, f"/api/rounds/{round_id}/start/").status_code in (401, 403)
    assert post(judge, f"/api/rounds/{round_id}/start/").json()["status"] == "in_progress"
    early = post(organiser, f"/api/rounds/{round_id}/close/")
    assert early.status_code == 400 and "tables" in early.json()["detail"]
    play_round_by_judge(Round.objects.get(pk=round_id), judge, random.Random(1))
    for user in (*others, judge):
        assert post(user, f"/api/rounds/{round_id}/close/").status_code in (401, 403)
    assert post(organiser, f"/api/rounds/{round_id}/close/").json()["status"] == "closed"


def _swiss_event(tournament, register_players, organiser, judge, count):
    register_players(tournament, count)
    rng = random.Random(count)
    services.change_status(tournament=tournament, to="check_in", by=organiser)
    Registration.objects.filter(tournament=tournament).update(checked_in=True)
    for _ in range(2):
        round_ = services.pair_next_round(tournament=tournament, by=organiser)
        services.publish_round(round_=round_, by=organiser)
        services.start_round(round_=round_, by=judge)
        play_round_by_judge(round_, judge, rng)
        services.close_round(round_=round_, by=organiser)
    round_ = services.pair_next_round(tournament=tournament, by=organiser)
    services.publish_round(round_=round_, by=organiser)
    services.start_round(round_=round_, by=judge)
    first = round_.matches.filter(player_b__isnull=False).first()
    services.report_result(match=first, by=first.player_a.player.user, games=["a", "a"])
    tournament.refresh_from_db()
    return tournament


def test_publish_switches(tournament, register_players, organiser, judge):
    event = _swiss_event(tournament, register_players, organiser, judge, 8)
    player = Registration.objects.filter(tournament=event).first().player.user
    paths = ("rounds/", "standings/", "standings/csv/", "pairings/csv/", "bracket/")
    for path in paths:
        assert anon().get(t_url(event, path)).status_code == 200
    rows = anon().get(t_url(event, "standings/")).json()["rows"]
    assert len(rows) == 8 and rows[0]["rank"] == 1 and "explanation" not in rows[0]
    explained = anon().get(t_url(event, "standings/?explain=1")).json()["rows"]
    assert all(row["explanation"]["lines"] for row in explained)
    first = rows[0]["registration"]
    one = anon().get(t_url(event, f"standings/{first}/"))
    assert one.status_code == 200 and one.json() == explained[0]
    csv_text = anon().get(t_url(event, "standings/csv/"))
    assert csv_text["Content-Type"].startswith("text/csv")
    assert csv_text.content.decode().splitlines()[0].startswith("rank,name")
    assert len(csv_text.content.decode().splitlines()) == 9
    Tournament.objects.filter(pk=event.pk).update(
        publish_pairings=False, publish_standings=False, publish_results=False
    )
    for client in (anon(), api_as(player)):
        rounds = client.get(t_url(event, "rounds/")).json()
        assert rounds["published"] is False and rounds["results"] == []
        assert "not made the pairings public" in rounds["detail"]
        standings = client.get(t_url(event, "standings/")).json()
        assert standings["published"] is False and standings["rows"] == []
        hidden_row = client.get(t_url(event, f"standings/{first}/"))
        assert hidden_row.status_code == 404 and "not made the standings public" in str(
            hidden_row.json()
        )
        assert client.get(t_url(event, "standings/csv/")).status_code == 404
        assert client.get(t_url(event, "pairings/csv/")).status_code == 404
        some_round = Round.objects.filter(tournament=event).first()
        assert client.get(f"/api/rounds/{some_round.pk}/").status_code == 404
    # The player still sees their own match.
    assert api_as(player).get(t_url(event, "my-match/")).status_code == 200
    for user in (organiser, judge):
        assert api_as(user).get(t_url(event, "rounds/")).json()["published"] is True
        assert len(api_as(user).get(t_url(event, "standings/")).json()["rows"]) == 8
        assert api_as(user).get(t_url(event, f"standings/{first}/")).status_code == 200
        assert api_as(user).get(t_url(event, "pairings/csv/")).status_code == 200
    # Pairings public, results not: no scores.
    Tournament.objects.filter(pk=event.pk).update(publish_pairings=True)
    rounds = anon().get(t_url(event, "rounds/")).json()
    assert rounds["published"] is True and "results public" in rounds["detail"]
    assert all(m["result"] is None for r in rounds["results"] for m in r["matches"])


def test_standings_values_are_exact_fractions(tournament, register_players, organiser, judge):
    event = _swiss_event(tournament, register_players, organiser, judge, 8)
    row = api_as(judge).get(t_url(event, "standings/")).json()["rows"][0]
    assert row["match_points"] == 6 and row["record"] == "2-0-0"
    assert row["match_win"] == {"fraction": "1", "percent": "100.00%"}
    assert "/" in row["opponents_match_win"]["fraction"] or row["opponents_match_win"]["fraction"]
    explained = api_as(judge).get(t_url(event, f"standings/{row['registration']}/")).json()
    assert {**explained, "explanation": None} == {**row, "explanation": None}
    assert len(explained["explanation"]["opponents"]) == 2


def test_audit_and_queue_for_judges_only(tournament, register_players, organiser, judge, make_user):
    event = _swiss_event(tournament, register_players, organiser, judge, 8)
    player = Registration.objects.filter(tournament=event).first().player.user
    for client in (anon(), api_as(player), api_as(make_user("x"))):
        assert client.get(t_url(event, "audit/")).status_code in (401, 403)
        assert client.get(t_url(event, "queue/")).status_code in (401, 403)
    audit = api_as(judge).get(t_url(event, "audit/?limit=5")).json()
    assert audit["count"] == AuditEntry.objects.filter(tournament=event).count()
    stamps = [(e["created_at"], e["id"]) for e in audit["results"]]
    assert stamps == sorted(stamps, reverse=True) and len(stamps) == 5
    queue = api_as(organiser).get(t_url(event, "queue/")).json()
    assert queue["round"] == 3 and queue["results"][0]["status"] == "reported"


def test_bracket_after_top_cut(tournament, register_players, organiser, judge):
    register_players(tournament, 8)
    Tournament.objects.filter(pk=tournament.pk).update(swiss_rounds=1, top_cut_size=4)
    tournament.refresh_from_db()
    assert anon().get(t_url(tournament, "bracket/")).json()["started"] is False
    round_ = services.pair_next_round(tournament=tournament, by=organiser)
    services.publish_round(round_=round_, by=organiser)
    play_round_by_judge(round_, judge, random.Random(3))
    services.close_round(round_=round_, by=organiser)
    for user in (None, judge, Registration.objects.first().player.user):
        client = anon() if user is None else api_as(user)
        assert client.post(t_url(tournament, "top-cut/")).status_code in (401, 403)
    started = api_as(organiser).post(t_url(tournament, "top-cut/"))
    assert started.status_code == 201 and len(started.json()["matches"]) == 2
    bracket = anon().get(t_url(tournament, "bracket/")).json()
    assert bracket["started"] and bracket["size"] == 4
    assert [r["name"] for r in bracket["rounds"]] == ["Semifinals", "Final"]
    first = bracket["rounds"][0]["matches"][0]
    assert (first["a"]["seed"], first["b"]["seed"]) == (1, 4)
    early = api_as(organiser).post(t_url(tournament, "finish/"))
    assert early.status_code == 400


# --- query counts ---------------------------------------------------------------------


@pytest.mark.parametrize("count", [8, 32])
def test_list_endpoints_run_in_constant_queries(
    count, tournament, register_players, organiser, judge, django_assert_max_num_queries
):
    event = _swiss_event(tournament, register_players, organiser, judge, count)
    for i in range(count // 8):  # more tournaments for the tournaments list
        services.create_tournament(organiser=organiser, name=f"Other {i}", date="2027-01-01")
    budgets = {
        "/api/tournaments/": 6,
        t_url(event, "registrations/"): 6,
        t_url(event, "rounds/"): 6,
        t_url(event, "standings/"): 6,
        t_url(event, "standings/csv/"): 6,
        # With each player's points: the standings read registrations, rounds, results.
        t_url(event, "pairings/csv/"): 8,
        t_url(event, "audit/"): 8,
        t_url(event, "queue/"): 8,
        t_url(event, "bracket/"): 6,
    }
    for user in (None, judge):
        client = anon() if user is None else api_as(user)
        for path, budget in budgets.items():
            if user is None and path.endswith(("audit/", "queue/")):
                continue
            with django_assert_max_num_queries(budget):
                response = client.get(path)
            assert response.status_code == 200, (path, response.content[:200])


def test_openapi_schema_lists_the_endpoints():
    response = anon().get("/api/schema/")
    assert response.status_code == 200
    text = response.content.decode()
    for path in (
        "/api/tournaments/{id}/standings/",
        "/api/matches/{id}/report/",
        "/api/matches/{id}/swaps/",
        "/api/rounds/{id}/swap-players/",
        "/api/tournaments/{id}/queue/",
    ):
        assert path in text


def test_top_cut_without_a_cut_finishes_the_event(tournament, register_players, organiser, judge):
    register_players(tournament, 4)
    Tournament.objects.filter(pk=tournament.pk).update(swiss_rounds=1, top_cut_size=0)
    round_ = services.pair_next_round(tournament=tournament, by=organiser)
    services.publish_round(round_=round_, by=organiser)
    play_round_by_judge(round_, judge, random.Random(5))
    services.close_round(round_=round_, by=organiser)
    assert api_as(judge).post(t_url(tournament, "top-cut/")).status_code == 403
    response = api_as(organiser).post(t_url(tournament, "top-cut/"))
    assert response.status_code == 200 and response.json()["status"] == "finished"
