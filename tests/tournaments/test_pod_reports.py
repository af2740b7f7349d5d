"""Players report their pod table's placings, tablemates confirm or dispute, judges settle
(tournaments/services/pod_reports.py), against PostgreSQL."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from tests.tournaments.pod_helpers import make_event, published
from tournaments import services
from tournaments.models import AuditEntry, PodReport, PodSeat, RatingChange, Round

pytestmark = pytest.mark.django_db


@pytest.fixture
def table_of_four(organiser, judge, make_player):
    """A running round of 7 players (tables of 4 and 3): the table of four, its seats."""
    event = make_event(organiser, judge, swiss_rounds=3)
    for i in range(1, 8):
        player = make_player(f"Pod {i:02d}")
        services.register(tournament=event, player=player, by=player.user)
    round_ = published(event, organiser, judge)
    table = round_.pod_tables.get(size=4)
    seats = list(table.seats.select_related("registration__player__user").order_by("seat"))
    return table, seats


def _users(seats):
    return [seat.registration.player.user for seat in seats]


def _in_seat_order(seats):
    return {seat.registration_id: seat.seat for seat in seats}


def _placings(table):
    return [seat.placing for seat in table.seats.order_by("seat")]


def test_the_last_tablemate_to_confirm_places_the_table(table_of_four):
    table, seats = table_of_four
    users = _users(seats)
    report = services.report_placings(table=table, by=users[0], placings=_in_seat_order(seats))
    assert report.status == PodReport.Status.PENDING
    assert report.confirmed_by == [seats[0].registration_id]
    for user in users[1:3]:
        report = services.confirm_placings(report=report, by=user)
        assert report.status == PodReport.Status.PENDING and _placings(table) == [None] * 4
    assert not RatingChange.objects.filter(pod_table=table).exists()
    report = services.confirm_placings(report=report, by=users[3])
    assert report.status == PodReport.Status.CONFIRMED
    assert _placings(table) == [1, 2, 3, 4]
    # The confirmed placings rate the table's players, best place first (docs/ratings.md).
    rated = {r.player_id: r for r in RatingChange.objects.filter(pod_table=table)}
    after = [rated[seat.registration.player_id].mu_after for seat in seats]
    assert len(rated) == 4 and after == sorted(after, reverse=True)
    actions = list(
        AuditEntry.objects.filter(object_type="PodTable", object_id=table.pk)
        .order_by("id")
        .values_list("action", flat=True)
    )
    assert actions == ["pod.reported", "pod.confirmed", "pod.confirmed", "pod.placings"]
    assert AuditEntry.objects.get(action="pod.placings").actor == users[3]


def test_a_dispute_goes_to_the_judges_who_settle_it(table_of_four, judge):
    table, seats = table_of_four
    users = _users(seats)
    report = services.report_placings(table=table, by=users[0], placings=_in_seat_order(seats))
    services.dispute_placings(report=report, by=users[2], note="I came second")
    report.refresh_from_db()
    assert report.status == PodReport.Status.DISPUTED
    assert report.disputed_by_id == seats[2].registration_id and report.note == "I came second"
    with pytest.raises(ValidationError, match="disputed"):
        services.report_placings(table=table, by=users[1], placings=_in_seat_order(seats))
    with pytest.raises(ValidationError, match="no longer waiting"):
        services.confirm_placings(report=report, by=users[1])
    corrected = {seats[0].registration_id: 1, seats[1].registration_id: 3}
    corrected |= {seats[2].registration_id: 2, seats[3].registration_id: 4}
    services.record_placings(table=table, placings=corrected, by=judge)
    report.refresh_from_db()
    assert report.status == PodReport.Status.SUPERSEDED
    assert _placings(table) == [1, 3, 2, 4]
    entry = AuditEntry.objects.get(action="pod.placings")
    assert entry.actor == judge and entry.after["settled_reports"] == [report.number]
    assert AuditEntry.objects.get(action="pod.disputed").reason == "I came second"


def test_a_judge_may_accept_a_disputed_report_as_it_stands(table_of_four, judge):
    table, seats = table_of_four
    users = _users(seats)
    report = services.report_placings(table=table, by=users[1], placings=_in_seat_order(seats))
    services.dispute_placings(report=report, by=users[0], note="I came first")
    with pytest.raises(PermissionDenied):
        services.accept_report(report=report, by=users[0])
    services.accept_report(report=report, by=judge)
    assert _placings(table) == [1, 2, 3, 4]
    with pytest.raises(ValidationError, match="no longer waiting"):
        services.accept_report(report=report, by=judge)


def test_the_reporter_may_replace_their_report_but_not_a_tablemates(table_of_four):
    table, seats = table_of_four
    users = _users(seats)
    first = services.report_placings(table=table, by=users[0], placings=_in_seat_order(seats))
    services.confirm_placings(report=first, by=users[1])
    swapped = _in_seat_order(seats) | {seats[0].registration_id: 2, seats[1].registration_id: 1}
    second = services.report_placings(table=table, by=users[0], placings=swapped)
    first.refresh_from_db()
    assert first.status == PodReport.Status.SUPERSEDED and second.number == first.number + 1
    # The earlier confirmation does not carry over to different placings.
    assert second.confirmed_by == [seats[0].registration_id]
    with pytest.raises(ValidationError, match="already reported"):
        services.report_placings(table=table, by=users[2], placings=swapped)
    with pytest.raises(ValidationError, match="no longer waiting"):
        services.confirm_placings(report=first, by=users[2])
    with pytest.raises(ValidationError, match="already confirmed"):
        services.confirm_placings(report=second, by=users[0])
    with pytest.raises(ValidationError, match="your own report"):
        services.dispute_placings(report=second, by=users[0])


def test_bad_reports_change_nothing(table_of_four, make_player, organiser):
    table, seats = table_of_four
    users = _users(seats)
    outsider = make_player("Outsider")
    before = AuditEntry.objects.count()
    with pytest.raises(PermissionDenied):
        services.report_placings(table=table, by=outsider.user, placings=_in_seat_order(seats))
    with pytest.raises(PermissionDenied):
        services.report_placings(table=table, by=organiser, placings=_in_seat_order(seats))
    missing = dict(list(_in_seat_order(seats).items())[:3])
    with pytest.raises(ValidationError, match="every player"):
        services.report_placings(table=table, by=users[0], placings=missing)
    impossible = {seat.registration_id: 2 for seat in seats}
    with pytest.raises(ValidationError):
        services.report_placings(table=table, by=users[0], placings=impossible)
    with pytest.raises(ValidationError, match="whole number"):
        services.report_placings(
            table=table,
            by=users[0],
            placings=_in_seat_order(seats) | {seats[0].registration_id: "x"},
        )
    assert not PodReport.objects.exists() and AuditEntry.objects.count() == before
    report = services.report_placings(table=table, by=users[0], placings=_in_seat_order(seats))
    with pytest.raises(PermissionDenied):
        services.confirm_placings(report=report, by=outsider.user)
    with pytest.raises(PermissionDenied):
        services.dispute_placings(report=report, by=outsider.user)
    report.refresh_from_db()
    assert report.confirmed_by == [seats[0].registration_id]


def test_placed_tables_and_closed_rounds_take_no_reports(table_of_four, judge, organiser):
    table, seats = table_of_four
    users = _users(seats)
    services.record_placings(table=table, placings=_in_seat_order(seats), by=judge)
    with pytest.raises(ValidationError, match="ask a judge"):
        services.report_placings(table=table, by=users[0], placings=_in_seat_order(seats))
    bye_less_round = Round.objects.get(pk=table.round_id)
    other = bye_less_round.pod_tables.exclude(pk=table.pk).get()
    other_seats = list(other.seats.select_related("registration__player__user"))
    services.record_placings(table=other, placings=_in_seat_order(other_seats), by=judge)
    services.close_round(round_=bye_less_round, by=organiser)
    with pytest.raises(ValidationError, match="ask a judge"):
        services.report_placings(
            table=other, by=_users(other_seats)[0], placings=_in_seat_order(other_seats)
        )
    assert PodSeat.objects.filter(round=bye_less_round, placing__isnull=True).count() == 0
