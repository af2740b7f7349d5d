"""A result entry that replaces an earlier version names the version it replaces.

The first entry of a match may leave ``expected_version`` out; every later one (a
correction, a judge's decision over players' reports, a second report) without it, or
with a version no longer current, is refused: 409 with ``current_version`` in the API,
an error on the form in the pages, and nothing written.
"""

import threading

import pytest
from django.db import connection, connections
from rest_framework.test import APIClient

from tests.conftest import api_as
from tournaments import services
from tournaments.models import AuditEntry, Match, ResultSubmission


@pytest.fixture
def started(make_running_round):
    return make_running_round(4)


def report(user, match, body):
    return api_as(user).post(f"/api/matches/{match.pk}/report/", body, format="json")


def version(match) -> int:
    return Match.objects.get(pk=match.pk).version


def written(match) -> tuple[int, int]:
    return (
        ResultSubmission.objects.filter(match=match).count(),
        AuditEntry.objects.filter(object_type="Match", object_id=match.pk).count(),
    )


def assert_conflict(response, match, *, mentions: str):
    assert response.status_code == 409, response.json()
    body = response.json()
    assert body["current_version"] == version(match)
    assert mentions in body["detail"] and "non_field_errors" in body["errors"]


@pytest.mark.django_db
def test_the_first_entry_needs_no_version(started, judge):
    match = started.matches.filter(player_b__isnull=False).first()
    assert report(judge, match, {"games": ["a", "a"]}).status_code == 201


@pytest.mark.django_db
def test_a_correction_without_the_version_is_409_and_writes_nothing(started, judge):
    match = started.matches.filter(player_b__isnull=False).first()
    assert report(judge, match, {"games": ["a", "a"]}).status_code == 201
    before = written(match)
    response = report(judge, match, {"games": ["b", "b"]})
    assert_conflict(response, match, mentions="expected_version")
    assert written(match) == before
    assert Match.objects.get(pk=match.pk).winner_id == match.player_a_id
    corrected = report(judge, match, {"games": ["b", "b"], "expected_version": version(match)})
    assert corrected.status_code == 201
    assert Match.objects.get(pk=match.pk).winner_id == match.player_b_id
    assert AuditEntry.objects.filter(action="result.corrected").count() == 1


@pytest.mark.django_db
def test_a_judge_decision_over_a_player_report_names_the_version(started, judge):
    match = started.matches.filter(player_b__isnull=False).first()
    assert report(match.player_a.player.user, match, {"games": ["a", "a"]}).status_code == 201
    before = written(match)
    assert_conflict(report(judge, match, {"games": ["b", "b"]}), match, mentions="already has")
    assert written(match) == before
    assert Match.objects.get(pk=match.pk).status == Match.Status.REPORTED


@pytest.mark.django_db
def test_a_players_later_report_names_the_version(started):
    match = started.matches.filter(player_b__isnull=False).first()
    user_a, user_b = match.player_a.player.user, match.player_b.player.user
    assert report(user_a, match, {"games": ["a", "a"]}).status_code == 201
    before = written(match)
    for user in (user_a, user_b):  # reporting again, or over the opponent's report
        assert_conflict(report(user, match, {"games": ["b", "b"]}), match, mentions="already has")
    assert written(match) == before
    agreed = report(user_b, match, {"games": ["a", "a"], "expected_version": version(match)})
    assert agreed.status_code == 201 and agreed.json()["status"] == "confirmed"


@pytest.mark.django_db
def test_a_stale_version_is_409_with_the_current_one(started, judge):
    match = started.matches.filter(player_b__isnull=False).first()
    seen = version(match)
    assert report(judge, match, {"games": ["a", "a"], "expected_version": seen}).status_code == 201
    response = report(judge, match, {"games": ["b", "b"], "expected_version": seen})
    assert_conflict(response, match, mentions="changed while you were entering")
    assert f"not {seen}" in response.json()["detail"]


@pytest.mark.django_db
def test_the_judges_page_refuses_a_correction_over_a_version_it_did_not_show(
    client, started, judge
):
    match = started.matches.filter(player_b__isnull=False).first()
    page = f"/tournaments/{started.tournament_id}/matches/{match.pk}/"
    client.force_login(judge)
    shown = client.get(page).context["form"]["expected_version"].value()
    services.report_result(match=match, by=judge, games=["a", "a"])  # another judge, meanwhile
    response = client.post(page, {"game_1": "b", "game_2": "b", "expected_version": shown})
    assert response.status_code == 200
    assert "changed while you were entering" in response.content.decode()
    assert Match.objects.get(pk=match.pk).winner_id == match.player_a_id


def _race(match, bodies, users) -> list[int]:
    """Both judges post at the same moment (real connections, real row locks)."""
    barrier = threading.Barrier(len(users))
    codes = [None] * len(users)

    def enter(index):
        client = APIClient()
        client.force_authenticate(users[index])
        try:
            barrier.wait(timeout=10)
            response = client.post(f"/api/matches/{match.pk}/report/", bodies[index], format="json")
            codes[index] = response.status_code
        finally:
            connections.close_all()

    threads = [threading.Thread(target=enter, args=(i,)) for i in range(len(users))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return codes


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("named", [False, True], ids=["no-version", "same-version"])
def test_two_concurrent_judge_entries_exactly_one_wins(
    make_running_round, judge, make_user, tournament, named
):
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL")
    second_judge = make_user("judge2")
    tournament.floor_judges.add(second_judge)
    round_ = make_running_round(20)
    for match in round_.matches.filter(player_b__isnull=False):  # ten trials
        if named:  # both judges saw a player's report at the same version
            services.report_result(match=match, by=match.player_a.player.user, games=["a"])
        bodies = [{"games": ["a", "a"]}, {"games": ["b", "b"]}]
        if named:
            for body in bodies:
                body["expected_version"] = version(match)
        codes = _race(match, bodies, [judge, second_judge])
        assert sorted(codes) == [201, 409], codes
        winner = bodies[codes.index(201)]["games"]
        match = Match.objects.get(pk=match.pk)
        confirmed = match.submissions.get(status=ResultSubmission.Status.CONFIRMED)
        assert confirmed.games == winner
        assert match.winner_id == (match.player_a_id if winner == ["a", "a"] else match.player_b_id)
        assert not AuditEntry.objects.filter(action="result.corrected", object_id=match.pk).exists()
