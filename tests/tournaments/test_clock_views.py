"""Clock API and pages: visible time with the server's clock, judges' controls, urgency order."""

import datetime
import random
import time

import pytest

from config.dbtime import db_now
from tests.conftest import api_as
from tests.tournaments.conftest import play_round_by_judge
from tournaments import clocks, services
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db


def _at(round_, page: str) -> str:
    """A round's clock page: /tournaments/{t}/rounds/{n}/<page>."""
    return f"/tournaments/{round_.tournament_id}/rounds/{round_.number}/{page}"


def test_round_clock_gives_deadlines_and_server_time_most_urgent_first(api, make_running_round):
    round_ = make_running_round(6)
    first, second, third = round_.matches.order_by("table")
    clocks.set_deadline(second, db_now() - datetime.timedelta(seconds=1))
    clocks.enforce_match_deadline(second.pk)
    clocks.set_deadline(third, db_now() + datetime.timedelta(minutes=2))
    body = api.get(f"/api/rounds/{round_.pk}/clock/").json()
    assert (
        body["round"]["state"] == "running"
        and body["round"]["server_time"]
        and body["round"]["ends_at"]
    )
    assert [c["match"] for c in body["matches"]] == [second.pk, third.pk, first.pk]
    assert body["matches"][0]["state"] == "time_called" and body["matches"][0]["time_called_at"]
    one = api.get(f"/api/matches/{first.pk}/clock/").json()
    assert one["deadline_at"] and one["server_time"] and 0 < one["remaining_seconds"] <= 45 * 60


def test_a_closed_rounds_clock_is_finished_not_running(api, make_running_round, organiser, judge):
    round_ = make_running_round(4)
    play_round_by_judge(round_, judge, random.Random(5))
    services.close_round(round_=round_, by=organiser)
    for address in (f"/api/rounds/{round_.pk}/clock/", f"/api/rounds/{round_.pk}/"):
        body = api.get(address).json()
        clock = body["round"] if address.endswith("clock/") else body["clock"]
        assert clock["state"] == "finished" and clock["remaining_seconds"] is None


def test_clocks_follow_the_pairings_release_switch(
    api, make_running_round, tournament, organiser, judge
):
    round_ = make_running_round()
    services.update_tournament(tournament=tournament, by=organiser, publish_pairings=False)
    assert api.get(f"/api/rounds/{round_.pk}/clock/").status_code == 404
    assert api_as(judge).get(f"/api/rounds/{round_.pk}/clock/").status_code == 200


def test_judge_extends_with_a_reason_players_cannot(make_running_round, judge):
    round_ = make_running_round()
    match = round_.matches.order_by("table").first()
    before = match.deadline_at
    player = match.player_a.player.user
    assert (
        api_as(player)
        .post(f"/api/matches/{match.pk}/clock/extend/", {"minutes": 5, "reason": "x"})
        .status_code
        == 403
    )
    bad = api_as(judge).post(
        f"/api/matches/{match.pk}/clock/extend/", {"minutes": 500, "reason": "x"}
    )
    assert bad.status_code == 400 and "minutes" in bad.json()["errors"]
    no_reason = api_as(judge).post(f"/api/matches/{match.pk}/clock/extend/", {"minutes": 5})
    assert no_reason.status_code == 400
    match.refresh_from_db()
    assert match.deadline_at == before
    ok = api_as(judge).post(
        f"/api/matches/{match.pk}/clock/extend/", {"minutes": 5, "reason": "judge call"}
    )
    assert ok.status_code == 200 and ok.json()["extension_minutes"] == 5
    match.refresh_from_db()
    assert match.deadline_at == before + datetime.timedelta(minutes=5)
    assert AuditEntry.objects.get(action="clock.extended").reason == "judge call"


def test_a_time_lapse_minute_shortens_every_limit_and_extension_alike(
    make_running_round, judge, settings
):
    """CLOCK_MINUTE_SECONDS (the soak's time lapse): the match limit, the game limit and
    an extension all last that many seconds a minute, and extensions still read in the
    clocks' minutes (the same counts an organiser set)."""
    settings.CLOCK_MINUTE_SECONDS = 30
    round_ = make_running_round()
    tournament = round_.tournament
    minute = datetime.timedelta(seconds=30)
    assert round_.ends_at == round_.started_at + tournament.match_minutes * minute
    match = round_.matches.order_by("table").first()
    assert match.deadline_at == round_.ends_at
    services.start_game(match=match, number=1, by=judge)
    match.refresh_from_db()
    started = match.current_game_started_at
    assert match.game_deadline_at == started + tournament.game_minutes * minute
    answer = api_as(judge).post(
        f"/api/matches/{match.pk}/clock/extend/", {"minutes": 5, "reason": "judge call"}
    )
    assert answer.status_code == 200 and answer.json()["extension_minutes"] == 5
    match.refresh_from_db()
    assert match.deadline_at == round_.ends_at + 5 * minute
    # The 120 minutes in all count the clocks' minutes too.
    second = api_as(judge).post(
        f"/api/matches/{match.pk}/clock/extend/", {"minutes": 60, "reason": "again"}
    )
    assert second.status_code == 200
    refused = api_as(judge).post(
        f"/api/matches/{match.pk}/clock/extend/", {"minutes": 56, "reason": "once more"}
    )
    assert refused.status_code == 400 and "minutes" in refused.json()["errors"]


def test_pause_and_resume_a_match_through_the_api(make_running_round, judge):
    round_ = make_running_round()
    match = round_.matches.order_by("table").first()
    paused = (
        api_as(judge).post(f"/api/matches/{match.pk}/clock/pause/", {"reason": "judge call"}).json()
    )
    assert (
        paused["state"] == "paused"
        and paused["deadline_at"] is None
        and paused["remaining_seconds"] > 0
    )
    again = api_as(judge).post(f"/api/matches/{match.pk}/clock/pause/", {})
    assert again.status_code == 400 and "not running" in again.json()["detail"]
    time.sleep(0.2)
    resumed = api_as(judge).post(f"/api/matches/{match.pk}/clock/resume/").json()
    assert resumed["state"] == "running"


def test_round_pause_through_the_api(make_running_round, judge):
    round_ = make_running_round()
    body = (
        api_as(judge)
        .post(f"/api/rounds/{round_.pk}/clock/pause/", {"reason": "announcement"})
        .json()
    )
    assert body["round"]["state"] == "paused"
    assert {c["state"] for c in body["matches"]} == {"paused"}
    body = api_as(judge).post(f"/api/rounds/{round_.pk}/clock/resume/").json()
    assert body["round"]["state"] == "running"


@pytest.mark.parametrize("players", [4, 16])
def test_clock_endpoint_and_judges_page_use_a_constant_number_of_queries(
    client, api, make_running_round, judge, players, django_assert_max_num_queries
):
    round_ = make_running_round(players)
    with django_assert_max_num_queries(4):
        assert len(api.get(f"/api/rounds/{round_.pk}/clock/").json()["matches"]) == players // 2
    client.force_login(judge)
    with django_assert_max_num_queries(12):
        response = client.get(_at(round_, "clocks/"))
    assert response.status_code == 200 and response.content.count(b'data-match="') == players // 2


def test_big_screen_and_judges_page(client, make_running_round, judge):
    round_ = make_running_round()
    page = client.get(_at(round_, "clock/")).content.decode()
    assert 'id="round-clock" data-deadline="' in page and "data-server-time" in page
    match = round_.matches.order_by("table").first()
    client.force_login(match.player_a.player.user)
    assert client.get(_at(round_, "clocks/")).status_code == 403
    assert (
        client.post(
            f"/tournaments/{round_.tournament_id}/matches/{match.pk}/clock/", {"action": "pause"}
        ).status_code
        == 403
    )
    client.force_login(judge)
    response = client.post(
        f"/tournaments/{round_.tournament_id}/matches/{match.pk}/clock/",
        {"action": "extend", "minutes": "3", "reason": "judge call"},
    )
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.extension == datetime.timedelta(minutes=3)


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_big_screen_counts_down_in_a_browser(live_server, page, make_running_round):
    round_ = make_running_round()
    page.goto(live_server.url + _at(round_, "clock/"))
    first = page.inner_text("#round-clock")
    time.sleep(1.3)
    second = page.inner_text("#round-clock")
    assert first.startswith(("44:", "45:")) and second != first


def test_match_answers_carry_the_clock_with_the_server_time(make_running_round, judge):
    round_ = make_running_round()
    match = round_.matches.order_by("table").first()
    body = api_as(judge).get(f"/api/matches/{match.pk}/").json()
    assert (
        body["clock"]["state"] == "running"
        and body["clock"]["server_time"]
        and body["clock"]["deadline_at"]
    )
    rounds = api_as(judge).get(f"/api/tournaments/{round_.tournament_id}/rounds/").json()["results"]
    assert rounds[0]["clock"]["ends_at"] and rounds[0]["matches"][0]["clock"]["server_time"]


def test_my_match_page_counts_down_from_the_server_deadline(client, make_running_round):
    round_ = make_running_round()
    match = round_.matches.order_by("table").first()
    client.force_login(match.player_a.player.user)
    page = client.get(f"/tournaments/{round_.tournament_id}/my-match/").content.decode()
    assert f'data-deadline="{match.deadline_at.isoformat()}"' in page and "data-server-time" in page


def test_time_called_without_a_result_tops_the_judges_queue(
    client, make_running_round, judge, tournament
):
    round_ = make_running_round(6)
    first, second, third = round_.matches.order_by("table")
    services.report_result(match=first, by=first.player_a.player.user, games=["a", "a"])
    first.refresh_from_db()
    services.report_result(
        match=first, by=first.player_b.player.user, games=["b", "b"], expected_version=first.version
    )  # disputed
    clocks.set_deadline(third, db_now() - datetime.timedelta(seconds=1))
    clocks.enforce_match_deadline(third.pk)
    queue = api_as(judge).get(f"/api/tournaments/{tournament.pk}/queue/").json()["results"]
    assert [m["id"] for m in queue] == [third.pk, first.pk, second.pk]
    client.force_login(judge)
    page = client.get(f"/tournaments/{tournament.pk}/results/").content.decode()
    assert (
        page.index(f"/matches/{third.pk}/")
        < page.index(f"/matches/{first.pk}/")
        < page.index(f"/matches/{second.pk}/")
    )


def test_the_first_clock_addresses_send_the_browser_on(client, make_running_round, judge):
    """Links and projector tabs of /tournaments/rounds/{id}/clock/ keep working."""
    round_ = make_running_round()
    response = client.get(f"/tournaments/rounds/{round_.pk}/clock/")
    assert response.status_code == 301 and response["Location"] == _at(round_, "clock/")
    assert client.get(response["Location"]).status_code == 200
    client.force_login(judge)
    response = client.get(f"/tournaments/rounds/{round_.pk}/clocks/")
    assert response.status_code == 301 and response["Location"] == _at(round_, "clocks/")
    # A form sent from a page loaded before the move is sent on as it was (308).
    response = client.post(f"/tournaments/rounds/{round_.pk}/clock/pause/", {"reason": "x"})
    assert response.status_code == 308 and response["Location"] == _at(round_, "clock/pause/")
    match = round_.matches.order_by("table").first()
    response = client.post(f"/tournaments/matches/{match.pk}/clock/", {"action": "pause"})
    assert response.status_code == 308
    assert response["Location"] == f"/tournaments/{round_.tournament_id}/matches/{match.pk}/clock/"
    assert not AuditEntry.objects.filter(action__startswith="clock.").exists()


def test_the_first_clock_address_of_a_hidden_round_is_a_404(client, make_running_round, organiser):
    round_ = make_running_round()
    services.update_tournament(tournament=round_.tournament, by=organiser, publish_pairings=False)
    assert client.get(f"/tournaments/rounds/{round_.pk}/clock/").status_code == 404
    assert client.get(_at(round_, "clock/")).status_code == 404
    assert client.get("/tournaments/rounds/999999/clock/").status_code == 404


def test_the_judges_pages_offer_the_one_round_clock_action_that_applies(
    client, make_running_round, judge, organiser, make_player
):
    """A running round clock is offered a pause, a paused one a resume, never both (the
    other would only be refused); the same on the clocks of an event in pods."""
    from tests.tournaments.pod_helpers import make_event, published

    pods = make_event(organiser, judge)
    for name in ("Ann", "Bea", "Cid"):
        player = make_player(name)
        services.register(tournament=pods, player=player, by=player.user)
    for round_ in (make_running_round(), published(pods, organiser, judge)):
        client.force_login(judge)
        pause, resume = _at(round_, "clock/pause/"), _at(round_, "clock/resume/")
        page = client.get(_at(round_, "clocks/")).content.decode()
        assert f'action="{pause}"' in page and f'action="{resume}"' not in page
        assert client.post(pause, {"reason": "announcement"}).status_code == 302
        page = client.get(_at(round_, "clocks/")).content.decode()
        assert f'action="{resume}"' in page and f'action="{pause}"' not in page
