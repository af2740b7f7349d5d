"""The API of pod table reports: a player reports, tablemates confirm or dispute
(POST /api/rounds/{id}/table-report/, table-confirm/, table-dispute/)."""

import pytest

from tests.conftest import api_as
from tests.tournaments.pod_helpers import make_event, published
from tournaments import services
from tournaments.models import AuditEntry, PodReport

pytestmark = pytest.mark.django_db


@pytest.fixture
def table_of_three(organiser, judge, make_player):
    event = make_event(organiser, judge, swiss_rounds=3)
    for i in range(1, 8):
        player = make_player(f"Pod {i:02d}")
        services.register(tournament=event, player=player, by=player.user)
    round_ = published(event, organiser, judge)
    table = round_.pod_tables.get(size=3)
    seats = list(table.seats.select_related("registration__player__user").order_by("seat"))
    return round_, table, seats


def _placings(seats):
    return {str(seat.registration_id): seat.seat for seat in seats}


def test_report_and_confirm_through_the_api(table_of_three):
    round_, table, seats = table_of_three
    base = f"/api/rounds/{round_.pk}"
    first = api_as(seats[0].registration.player.user)
    answer = first.post(
        f"{base}/table-report/",
        {"table": table.number, "placings": _placings(seats)},
        format="json",
    )
    assert answer.status_code == 201, answer.content
    report = answer.json()
    assert report["status"] == "pending" and report["confirmed_by"] == [seats[0].registration_id]
    second = api_as(seats[1].registration.player.user)
    answer = second.post(
        f"{base}/table-confirm/", {"table": table.number, "report": report["id"]}, format="json"
    )
    assert answer.status_code == 200 and answer.json()["status"] == "pending"
    answer = api_as(seats[2].registration.player.user).post(
        f"{base}/table-confirm/", {"table": table.number}, format="json"
    )
    assert answer.status_code == 200 and answer.json()["status"] == "confirmed"
    assert [s.placing for s in table.seats.order_by("seat")] == [1, 2, 3]


def test_a_dispute_and_bad_requests_through_the_api(table_of_three, make_player):
    round_, table, seats = table_of_three
    base = f"/api/rounds/{round_.pk}"
    reporter = api_as(seats[0].registration.player.user)
    report = reporter.post(
        f"{base}/table-report/",
        {"table": table.number, "placings": _placings(seats)},
        format="json",
    ).json()
    before = AuditEntry.objects.count()
    tablemate = api_as(seats[1].registration.player.user)
    stale = tablemate.post(
        f"{base}/table-confirm/", {"table": table.number, "report": report["id"] + 1}, format="json"
    )
    assert stale.status_code == 400 and "no longer waiting" in stale.content.decode()
    nowhere = tablemate.post(f"{base}/table-confirm/", {"table": 99}, format="json")
    assert nowhere.status_code == 400 and "no such table" in nowhere.content.decode()
    outsider = api_as(make_player("Outsider").user)
    refused = outsider.post(f"{base}/table-dispute/", {"table": table.number}, format="json")
    assert refused.status_code == 403
    wrong = reporter.post(
        f"{base}/table-report/",
        {"table": table.number, "placings": {str(seats[0].registration_id): 1}},
        format="json",
    )
    assert wrong.status_code == 400 and "every player" in wrong.content.decode()
    assert AuditEntry.objects.count() == before
    answer = tablemate.post(
        f"{base}/table-dispute/", {"table": table.number, "note": "not so"}, format="json"
    )
    assert answer.status_code == 200 and answer.json()["status"] == "disputed"
    assert answer.json()["disputed_by"] == seats[1].registration_id
    assert PodReport.objects.get().note == "not so"


def test_the_judges_queue_in_the_api_lists_a_disputed_table_first(table_of_three, judge):
    round_, table, seats = table_of_three
    base = f"/api/rounds/{round_.pk}"
    report = api_as(seats[0].registration.player.user).post(
        f"{base}/table-report/",
        {"table": table.number, "placings": _placings(seats)},
        format="json",
    )
    api_as(seats[1].registration.player.user).post(
        f"{base}/table-dispute/",
        {"table": table.number, "report": report.json()["id"], "note": "I was first"},
        format="json",
    )
    queue = api_as(judge).get(f"/api/tournaments/{round_.tournament_id}/queue/")
    assert queue.status_code == 200, queue.content
    tables = queue.json()["tables"]
    assert [(t["table"], t["state"]) for t in tables] == [
        (table.number, "disputed"),
        (1 if table.number != 1 else 2, "waiting"),
    ]
    disputed = tables[0]
    assert disputed["size"] == 3
    assert [s["registration"] for s in disputed["seats"]] == [s.registration_id for s in seats]
    assert disputed["report"]["id"] == report.json()["id"]
    assert disputed["report"]["disputed_by"] == seats[1].registration_id
    assert disputed["report"]["note"] == "I was first"
    assert disputed["report"]["status"] == "disputed"
    assert tables[1]["report"] is None
    services.record_placings(
        table=table, placings={s.registration_id: s.seat for s in seats}, by=judge
    )
    left = api_as(judge).get(f"/api/tournaments/{round_.tournament_id}/queue/").json()["tables"]
    assert [t["state"] for t in left] == ["waiting"]


@pytest.mark.parametrize("note", [None, "", "   \n\t "])
def test_a_dispute_without_saying_what_is_wrong_is_refused(table_of_three, note):
    round_, table, seats = table_of_three
    base = f"/api/rounds/{round_.pk}"
    api_as(seats[0].registration.player.user).post(
        f"{base}/table-report/",
        {"table": table.number, "placings": _placings(seats), "note": "as played"},
        format="json",
    )
    before = AuditEntry.objects.count()
    data = {"table": table.number} | ({} if note is None else {"note": note})
    answer = api_as(seats[1].registration.player.user).post(
        f"{base}/table-dispute/", data, format="json"
    )
    assert answer.status_code == 400, answer.content
    assert "what is wrong" in answer.json()["errors"]["note"][0]
    report = PodReport.objects.get()
    assert (report.status, report.disputed_by_id, report.note) == ("pending", None, "as played")
    assert AuditEntry.objects.count() == before
