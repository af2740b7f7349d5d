"""Team events through the API: registering teams (and its bad input), consent, a team's
answer with its matches, team standings and the CSV, in a constant number of queries."""

import datetime
import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.conftest import api_as, random_dice_set
from tournaments import services
from tournaments.models import Registration, Team, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(organiser, judge):
    event = services.create_tournament(
        organiser=organiser,
        name="Team Cup",
        date=datetime.date(2026, 12, 5),
        head_judge=judge,
        team_size=2,
        swiss_rounds=3,
    )
    return services.change_status(tournament=event, to=Tournament.Status.REGISTRATION, by=organiser)


@pytest.fixture
def people(make_player):
    rng = random.Random(2)
    made = []
    for i in range(12):
        player = make_player(f"P{i:02d}")
        dice_set = random_dice_set(player, rng)
        made.append((player, dice_set))
    return made


def _body(name, pairs, captain=None):
    body = {"name": name, "members": [{"player": p.pk, "dice_set": d.pk} for p, d in pairs]}
    if captain is not None:
        body["captain"] = captain.pk
    return body


def test_organiser_registers_teams_and_lists_them(event, people, organiser, api):
    url = f"/api/tournaments/{event.pk}/teams/"
    answer = api_as(organiser).post(url, _body("Red", people[:2], people[1][0]), format="json")
    assert answer.status_code == 201, answer.json()
    team = answer.json()
    assert team["name"] == "Red" and team["complete"] is True
    assert [m["captain"] for m in team["members"]] == [True, False]
    assert team["members"][0]["player"]["id"] == people[1][0].pk
    assert team["registration"] == Team.objects.get().unit_id
    listed = api.get(url).json()
    assert [t["name"] for t in listed] == ["Red"]


@pytest.mark.parametrize(
    "body, field, words",
    [
        ({"name": "Red", "members": []}, "members", "has 2 players; this one has 0"),
        ({"members": []}, "name", "required"),
        ({"name": "Red", "members": [{"player": 999999, "dice_set": 1}]}, "members", ""),
        ({"name": "Red", "members": "x"}, "members", ""),
    ],
)
def test_bad_team_body_is_a_400_that_changes_nothing(event, people, organiser, body, field, words):
    body = dict(body)
    body.setdefault("captain", people[0][0].pk)
    answer = api_as(organiser).post(f"/api/tournaments/{event.pk}/teams/", body, format="json")
    assert answer.status_code == 400
    assert field in answer.json()["errors"]
    assert words in str(answer.json()["errors"][field])
    assert not Registration.objects.exists() and not Team.objects.exists()


def test_set_of_another_player_and_duplicate_name_are_400(event, people, organiser):
    client = api_as(organiser)
    url = f"/api/tournaments/{event.pk}/teams/"
    assert (
        client.post(url, _body("Red", people[:2], people[0][0]), format="json").status_code == 201
    )
    wrong = {"name": "Blue", "captain": people[2][0].pk, "members": [
        {"player": people[2][0].pk, "dice_set": people[2][1].pk},
        {"player": people[3][0].pk, "dice_set": people[4][1].pk},
    ]}  # fmt: skip
    answer = client.post(url, wrong, format="json")
    assert answer.status_code == 400 and "is not P03's" in str(answer.json()["errors"]["members"])
    again = client.post(url, _body("RED", people[2:4], people[2][0]), format="json")
    assert again.status_code == 400 and "already registered" in str(again.json()["errors"]["name"])
    assert Team.objects.count() == 1 and Registration.objects.count() == 2


def test_captain_registers_teammate_accepts(event, people):
    (cap, cap_set), (mate, mate_set) = people[0], people[1]
    url = f"/api/tournaments/{event.pk}/teams/"
    answer = api_as(cap.user).post(
        url, _body("Ours", [(cap, cap_set), (mate, mate_set)]), format="json"
    )
    assert answer.status_code == 201, answer.json()
    team = answer.json()
    assert team["complete"] is False
    stranger = people[2][0].user
    assert api_as(stranger).post(f"/api/teams/{team['id']}/accept/").status_code == 403
    accepted = api_as(mate.user).post(f"/api/teams/{team['id']}/accept/")
    assert accepted.status_code == 200 and accepted.json()["complete"] is True
    # A player cannot register a team with someone else as its captain.
    other = api_as(stranger).post(url, _body("Theirs", people[4:6], people[4][0]), format="json")
    assert other.status_code == 403


def test_team_answer_matches_standings_and_csv(event, people, organiser, judge, api):
    client = api_as(organiser)
    for i in range(5):
        pairs = people[2 * i : 2 * i + 2]
        body = _body(f"Team {i}", pairs, pairs[0][0])
        assert (
            client.post(f"/api/tournaments/{event.pk}/teams/", body, format="json").status_code
            == 201
        )
    round_ = services.pair_next_round(tournament=event, by=organiser, seed="api")
    services.publish_round(round_=round_, by=organiser)
    services.start_round(round_=round_, by=judge)
    for match in round_.matches.filter(player_b__isnull=False):
        services.report_result(match=match, by=judge, games=["a", "b", "a"])
    played = round_.matches.filter(player_b__isnull=False).first()
    winner = Team.objects.get(unit=played.player_a_id)
    loser = Team.objects.get(unit=played.player_b_id)
    won = api.get(f"/api/teams/{winner.pk}/").json()
    assert won["matches"] == [
        {
            "match": played.pk,
            "round": 1,
            "stage": "swiss",
            "table": played.table,
            "opponent": loser.name,
            "opponent_team": loser.pk,
            "score": "2-1",
            "outcome": "win",
        }
    ]
    assert api.get(f"/api/teams/{loser.pk}/").json()["matches"][0]["outcome"] == "loss"
    rounds = api.get(f"/api/tournaments/{event.pk}/rounds/").json()["results"]
    sides = [m["player_a"] for r in rounds for m in r["matches"]]
    assert {side["name"] for side in sides} <= {f"Team {i}" for i in range(5)}
    assert all(side["team"] is not None for side in sides)
    table = api.get(f"/api/tournaments/{event.pk}/standings/").json()
    assert sorted(row["name"] for row in table["rows"]) == [f"Team {i}" for i in range(5)]
    csv_text = client.get(f"/tournaments/{event.pk}/standings.csv").content.decode()
    assert "Team 0" in csv_text and "P00" not in csv_text


def test_team_lists_load_in_constant_queries(event, people, organiser, api):
    client = api_as(organiser)

    def count(path):
        with CaptureQueriesContext(connection) as queries:
            assert api.get(path).status_code == 200
        return len(queries)

    url = f"/api/tournaments/{event.pk}/teams/"
    client.post(url, _body("Team 0", people[:2], people[0][0]), format="json")
    one = count(url)
    for i in range(1, 6):
        pairs = people[2 * i : 2 * i + 2]
        client.post(url, _body(f"Team {i}", pairs, pairs[0][0]), format="json")
    assert count(url) == one
    round_ = services.pair_next_round(tournament=event, by=organiser, seed="q")
    services.publish_round(round_=round_, by=organiser)
    team = Team.objects.get(unit=round_.matches.first().player_a_id)
    first = count(f"/api/teams/{team.pk}/")
    services.start_round(round_=round_, by=organiser)
    for match in round_.matches.filter(player_b__isnull=False):
        services.report_result(match=match, by=organiser, games=["a", "a"])
    services.close_round(round_=round_, by=organiser)
    second = services.pair_next_round(tournament=event, by=organiser, seed="q2")
    services.publish_round(round_=second, by=organiser)
    assert count(f"/api/teams/{team.pk}/") == first
