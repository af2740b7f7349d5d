"""Matches through the API: report, confirm, reject, history, games, swaps, penalties."""

import pytest
from rest_framework.test import APIClient

from tests.conftest import api_as
from tournaments import services
from tournaments.models import AuditEntry, Match, Penalty, ResultSubmission, SetSwap

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def event(tournament, register_players, organiser, judge, make_user):
    """Round 1 of four players, published and started; roles around table 1."""
    registrations = register_players(tournament, 4)
    round_ = services.pair_next_round(tournament=tournament, by=organiser, seed="api")
    services.publish_round(round_=round_, by=organiser)
    services.start_round(round_=round_, by=judge)
    match = round_.matches.get(table=1)
    other = round_.matches.get(table=2)
    users = {
        "organiser": organiser,
        "judge": judge,
        "a": match.player_a.player.user,
        "b": match.player_b.player.user,
        "other": other.player_a.player.user,
        "stranger": make_user("stranger"),
    }
    return {
        "tournament": tournament,
        "round": round_,
        "match": match,
        "users": users,
        "registrations": registrations,
    }


def client(event, who):
    return APIClient() if who == "anonymous" else api_as(event["users"][who])


def url(match, tail=""):
    return f"/api/matches/{match.pk}/{tail}"


@pytest.mark.parametrize(
    "who,code",
    [
        ("a", 201),
        ("b", 201),
        ("judge", 201),
        ("organiser", 201),
        ("other", 403),
        ("stranger", 403),
        ("anonymous", 403),
    ],
)
def test_who_may_report(event, who, code):
    response = client(event, who).post(
        url(event["match"], "report/"), {"games": ["a", "a"]}, format="json"
    )
    assert response.status_code in ((401, 403) if code == 403 else (code,)), response.json()
    written = ResultSubmission.objects.filter(match=event["match"]).count()
    assert written == (1 if code == 201 else 0)
    assert "detail" in response.json() if code != 201 else True


def test_report_confirm_flow_through_http(event):
    match = event["match"]
    reported = client(event, "a").post(
        url(match, "report/"), {"games": ["a", "b", "a"]}, format="json"
    )
    assert reported.status_code == 201 and reported.json()["status"] == "pending"
    match.refresh_from_db()
    assert match.status == Match.Status.REPORTED
    own = client(event, "a").post(url(match, "confirm/"), {}, format="json")
    assert own.status_code == 403  # the reporter cannot confirm their own report
    assert client(event, "other").post(url(match, "confirm/"), {}, format="json").status_code == 403
    confirmed = client(event, "b").post(url(match, "confirm/"), {}, format="json")
    assert confirmed.status_code == 200 and confirmed.json()["status"] == "confirmed"
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED and match.winner_id == match.player_a_id
    detail = client(event, "anonymous").get(url(match)).json()
    assert detail["result"]["score"] == "2-1" and detail["result"]["winner"] == match.player_a_id


def test_reject_disputes_and_the_queue_lists_it_first(event):
    match = event["match"]
    client(event, "a").post(url(match, "report/"), {"games": ["a", "a"]}, format="json")
    assert client(event, "a").post(url(match, "reject/"), {}, format="json").status_code == 403
    rejected = client(event, "b").post(
        url(match, "reject/"), {"note": "I won game 2"}, format="json"
    )
    assert rejected.status_code == 200 and rejected.json()["status"] == "rejected"
    match.refresh_from_db()
    assert match.status == Match.Status.DISPUTED
    other = event["round"].matches.get(table=2)
    client(event, "other").post(url(other, "report/"), {"games": ["b", "b"]}, format="json")
    queue = client(event, "judge").get(f"/api/tournaments/{event['tournament'].pk}/queue/")
    assert queue.status_code == 200
    statuses = [m["status"] for m in queue.json()["results"]]
    assert statuses == ["disputed", "reported"]
    assert queue.json()["results"][0]["submissions"][0]["note"] == "I won game 2"
    for who in ("a", "stranger", "anonymous"):
        response = client(event, who).get(f"/api/tournaments/{event['tournament'].pk}/queue/")
        assert response.status_code in (401, 403)
    # The judge settles it.
    settled = client(event, "judge").post(
        url(match, "report/"),
        {"games": ["a", "b", "b"], "expected_version": match.version},
        format="json",
    )
    assert settled.status_code == 201 and settled.json()["source"] == "judge"
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED and match.winner_id == match.player_b_id


def test_conflicting_reports_make_a_dispute(event):
    match = event["match"]
    client(event, "a").post(url(match, "report/"), {"games": ["a", "a"]}, format="json")
    match.refresh_from_db()
    response = client(event, "b").post(
        url(match, "report/"),
        {"games": ["b", "b"], "expected_version": match.version},
        format="json",
    )
    assert response.status_code == 201
    match.refresh_from_db()
    assert match.status == Match.Status.DISPUTED


@pytest.mark.parametrize(
    "body,field",
    [
        ({"games": ["a", "a", "a"]}, "games"),
        ({"games": ["x"]}, "games"),
        ({"games": "aa"}, "games"),
        ({}, "games"),
        ({"games": ["a"], "intentional_draw": True}, "games"),
        ({"games": ["a", "a"], "conceded_by": "c"}, "conceded_by"),
        ({"games": ["a", "a"], "expected_version": -1}, "expected_version"),
    ],
)
def test_bad_reports_are_400_and_write_nothing(event, body, field):
    match = event["match"]
    before = (ResultSubmission.objects.count(), AuditEntry.objects.count())
    response = client(event, "judge").post(url(match, "report/"), body, format="json")
    assert response.status_code == 400, response.json()
    data = response.json()
    assert data["detail"].startswith("Invalid input") and field in data["errors"]
    assert (ResultSubmission.objects.count(), AuditEntry.objects.count()) == before
    match.refresh_from_db()
    assert match.status == Match.Status.PENDING


def test_confirm_without_a_pending_report_is_400(event):
    response = client(event, "b").post(url(event["match"], "confirm/"), {}, format="json")
    assert response.status_code == 400
    assert "submission" in response.json()["errors"]


def test_result_history_for_judges_and_the_two_players_only(event):
    match = event["match"]
    client(event, "a").post(url(match, "report/"), {"games": ["a", "a"]}, format="json")
    match.refresh_from_db()
    client(event, "judge").post(
        url(match, "report/"),
        {"games": ["b", "b"], "expected_version": match.version},
        format="json",
    )
    for who in ("a", "b", "judge", "organiser"):
        history = client(event, who).get(url(match, "results/"))
        assert history.status_code == 200
        versions = history.json()
        assert [v["number"] for v in versions] == [1, 2]
        # A login name goes to its owner (and site staff); the others see the display name.
        reporter = event["users"]["a"]
        expected = reporter.username if who == "a" else reporter.player.display_name
        assert versions[0]["submitted_by"] == expected
        assert [v["status"] for v in versions] == ["superseded", "confirmed"]
    for who in ("other", "stranger", "anonymous"):
        assert client(event, who).get(url(match, "results/")).status_code in (401, 403)


def test_start_game_permissions(event):
    match = event["match"]
    for who in ("other", "stranger", "anonymous"):
        response = client(event, who).post(url(match, "start-game/"), {"number": 1}, format="json")
        assert response.status_code in (401, 403)
    wrong = client(event, "a").post(url(match, "start-game/"), {"number": 2}, format="json")
    assert wrong.status_code == 400 and "game 1" in wrong.json()["detail"]
    waiting = client(event, "b").post(url(match, "start-game/"), {"number": 1}, format="json")
    assert waiting.status_code == 202 and waiting.json()["current_game_started"] is False
    started = client(event, "a").post(url(match, "start-game/"), {"number": 1}, format="json")
    assert started.status_code == 200 and started.json()["current_game_started"] is True


def _swap_out_in(registration):
    """A legal one-die swap: a playing die for an additional die of the same class."""
    from games.engines.irondie.dice import Die, playing_set_errors

    for out_pos in range(9):
        for in_pos in range(len(registration.additional_dice)):
            playing = list(registration.playing_dice)
            playing[out_pos] = registration.additional_dice[in_pos]
            if not playing_set_errors([Die.from_dict(d) for d in playing]):
                return [out_pos], [in_pos]
    raise AssertionError("no legal swap in this set")


def test_swaps_stay_secret_until_the_game_starts(event):
    match = event["match"]
    reg_a = match.player_a
    out, inn = _swap_out_in(reg_a)
    client(event, "a").post(url(match, "start-game/"), {"number": 1}, format="json")
    client(event, "b").post(url(match, "start-game/"), {"number": 1}, format="json")
    for who in ("b", "other", "stranger", "anonymous"):
        denied = client(event, who).post(
            url(match, "swaps/"),
            {"swap_out": out, "swap_in": inn, "registration": reg_a.pk},
            format="json",
        )
        assert denied.status_code in (401, 403)
    recorded = client(event, "a").post(
        url(match, "swaps/"), {"swap_out": out, "swap_in": inn}, format="json"
    )
    assert recorded.status_code == 201, recorded.json()
    swap_id = recorded.json()["id"]
    assert recorded.json()["before_game"] == 2

    def seen_by(who):
        response = client(event, who).get(url(match, "swaps/"))
        assert response.status_code == 200
        return [s["id"] for s in response.json()]

    assert seen_by("a") == [swap_id]
    assert seen_by("judge") == [swap_id]
    for who in ("b", "other", "stranger", "anonymous"):
        assert seen_by(who) == []
        # Nowhere else either: match, round, registrations, my-match, history.
        tid = event["tournament"].pk
        for path in (
            url(match),
            f"/api/rounds/{event['round'].pk}/",
            f"/api/tournaments/{tid}/rounds/",
            f"/api/tournaments/{tid}/registrations/",
            f"/api/tournaments/{tid}/my-match/",
            url(match, "results/"),
        ):
            text = client(event, who).get(path).content.decode()
            assert "swapped_in" not in text and "playing_after" not in text
            assert f'"id":{swap_id},"registration"' not in text.replace(" ", "")
    reg_b_view = client(event, "b").get(f"/api/tournaments/{event['tournament'].pk}/registrations/")
    shown = {r["id"]: r for r in reg_b_view.json()}[reg_a.pk]
    assert shown["playing_dice"] == reg_a.playing_dice  # the registered set, not the swap
    # The judge's audit log has it; the opponent cannot read the audit log.
    assert (
        client(event, "b").get(f"/api/tournaments/{event['tournament'].pk}/audit/").status_code
        == 403
    )
    # Game 2 starts (both players say so): now the opponent sees it.
    client(event, "a").post(url(match, "start-game/"), {"number": 2}, format="json")
    assert seen_by("b") == []
    started = client(event, "b").post(url(match, "start-game/"), {"number": 2}, format="json")
    assert started.status_code == 200
    assert seen_by("b") == [swap_id]
    assert seen_by("anonymous") == [swap_id]


def test_invalid_swap_is_400_and_writes_nothing(event):
    match = event["match"]
    response = client(event, "a").post(
        url(match, "swaps/"), {"swap_out": [0, 1], "swap_in": [0]}, format="json"
    )
    assert response.status_code == 400
    response = client(event, "a").post(
        url(match, "swaps/"), {"swap_out": [20], "swap_in": [0]}, format="json"
    )
    assert response.status_code == 400 and "positions" in response.json()["detail"]
    assert SetSwap.objects.count() == 0


@pytest.mark.parametrize("who", ["a", "b", "other", "stranger", "anonymous"])
def test_only_judges_give_and_list_penalties(event, who):
    match = event["match"]
    body = {"registration": match.player_a_id, "kind": "warning", "reason": "slow play"}
    assert client(event, who).post(url(match, "penalties/"), body, format="json").status_code in (
        401,
        403,
    )
    assert client(event, who).get(url(match, "penalties/")).status_code in (401, 403)
    assert Penalty.objects.count() == 0


def test_judge_gives_a_match_loss(event):
    match = event["match"]
    bad = client(event, "judge").post(
        url(match, "penalties/"),
        {"registration": match.player_a_id, "kind": "yellow", "reason": "x"},
        format="json",
    )
    assert bad.status_code == 400 and "kind" in bad.json()["errors"]
    elsewhere = client(event, "judge").post(
        url(match, "penalties/"),
        {
            "registration": event["round"].matches.get(table=2).player_a_id,
            "kind": "warning",
            "reason": "x",
        },
        format="json",
    )
    assert elsewhere.status_code == 400 and Penalty.objects.count() == 0
    given = client(event, "organiser").post(
        url(match, "penalties/"),
        {"registration": match.player_a_id, "kind": "match_loss", "reason": "marked dice"},
        format="json",
    )
    assert given.status_code == 201 and given.json()["kind"] == "match_loss"
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED and match.winner_id == match.player_b_id
    listed = client(event, "judge").get(f"/api/tournaments/{event['tournament'].pk}/penalties/")
    assert [p["reason"] for p in listed.json()] == ["marked dice"]
    assert (
        client(event, "b").get(f"/api/tournaments/{event['tournament'].pk}/penalties/").status_code
        == 403
    )


@pytest.mark.parametrize("note", [None, "", "  \n "])
def test_a_reject_without_saying_what_is_wrong_is_refused(event, note):
    match = event["match"]
    client(event, "a").post(url(match, "report/"), {"games": ["a", "a"]}, format="json")
    before = AuditEntry.objects.count()
    data = {} if note is None else {"note": note}
    refused = client(event, "b").post(url(match, "reject/"), data, format="json")
    assert refused.status_code == 400, refused.content
    assert "what is wrong" in refused.json()["errors"]["note"][0]
    match.refresh_from_db()
    assert match.status == Match.Status.REPORTED
    assert match.submissions.get().status == ResultSubmission.Status.PENDING
    assert AuditEntry.objects.count() == before
