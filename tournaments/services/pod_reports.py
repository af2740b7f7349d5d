"""Players report their pod table's placings and their tablemates confirm (docs/operations.md
"Pod tables on event day"), as a two-player result is reported and confirmed:

- a seated player reports the whole table's placings: a pending PodReport, which counts
  as the reporter's own confirmation; reporting again replaces their own pending report;
- every other player at the table confirms it; with the last confirmation the placings
  reach the seats (the table is placed, as if a judge had entered them);
- a tablemate who disagrees disputes it: the table goes to the judges' queue, and a
  judge settles it by entering the placings (services.record_placings, which closes any
  open report) or by accepting the report as it stands.

Every step writes an audit entry. Bad input changes nothing."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from tournaments.audit import audit
from tournaments.models import PodReport, PodSeat, PodTable, Round
from tournaments.services.guards import require_dispute_note, require_judge
from tournaments.services.pods import placings_by_seat, record_placings
from tournaments.services.ratings import record_table_rating
from tournaments.services.results import refresh_round_status

# Players report while the round is under way; a placed table is corrected by a judge.
OPEN_FOR_REPORTS = (Round.Status.PUBLISHED, Round.Status.IN_PROGRESS)


def _locked(table: PodTable) -> tuple[Round, PodTable]:
    """The round locked as record_placings locks it, then the table with its seats."""
    round_ = Round.objects.select_for_update(of=("self",)).select_related("tournament")
    round_ = round_.get(pk=table.round_id)
    table = PodTable.objects.prefetch_related("seats__registration__player").get(pk=table.pk)
    return round_, table


def _own_seat(table: PodTable, by) -> PodSeat:
    user_id = getattr(by, "pk", None)
    for seat in table.seats.all():
        if user_id is not None and seat.registration.player.user_id == user_id:
            return seat
    raise PermissionDenied(_("Only the players at this table may report or confirm its placings."))


def _check_open(round_: Round, table: PodTable) -> None:
    if table.is_bye:
        raise ValidationError(_("A bye has no placings to enter."))
    if round_.status == Round.Status.DRAFT:
        raise ValidationError(_("Publish the pairings before entering placings."))
    if any(seat.placing is not None for seat in table.seats.all()):
        raise ValidationError(_("This table's placings are in; ask a judge to correct them."))
    if round_.status not in OPEN_FOR_REPORTS:
        raise ValidationError(_("This round is closed: its placings can no longer change."))


def _placings_text(table: PodTable, placings: dict) -> dict[str, int]:
    return {
        str(seat.registration_id): placings[str(seat.registration_id)] for seat in table.seats.all()
    }


@transaction.atomic
def report_placings(*, table: PodTable, by, placings: dict, note: str = "") -> PodReport:
    """A seated player reports the table's placings (``placings`` maps every seated
    registration id to its place, as for a judge's entry)."""
    round_, table = _locked(table)
    seat = _own_seat(table, by)
    _check_open(round_, table)
    cleaned = {str(pid): place for pid, place in placings_by_seat(table, placings).items()}
    open_report = PodReport.objects.select_for_update().filter(
        table=table, status__in=PodReport.OPEN
    )
    open_report = open_report.first()
    if open_report is not None and open_report.status == PodReport.Status.DISPUTED:
        raise ValidationError(_("These placings are disputed: a judge will settle them."))
    if open_report is not None and open_report.submitted_for_id != seat.registration_id:
        raise ValidationError(
            _("A tablemate has already reported this table's placings: confirm or dispute them.")
        )
    if open_report is not None:
        open_report.status = PodReport.Status.SUPERSEDED
        open_report.save(update_fields=["status"])
    number = (table.reports.aggregate(n=Max("number"))["n"] or 0) + 1
    report = PodReport.objects.create(
        table=table,
        number=number,
        submitted_by=by,
        submitted_for=seat.registration,
        placings=_placings_text(table, cleaned),
        confirmed_by=[seat.registration_id],
        note=(note or "").strip()[:300],
    )
    audit(
        round_.tournament,
        by,
        "pod.reported",
        table,
        after={
            "round": round_.number,
            "table": table.number,
            "version": number,
            "placings": report.placings,
        },
    )
    return report


def _locked_report(report: PodReport) -> tuple[Round, PodTable, PodReport]:
    round_, table = _locked(report.table)
    report = PodReport.objects.select_for_update().get(pk=report.pk)
    if report.status != PodReport.Status.PENDING:
        raise ValidationError(_("This report is no longer waiting for confirmation."))
    return round_, table, report


@transaction.atomic
def confirm_placings(*, report: PodReport, by) -> PodReport:
    """A tablemate agrees with a pending report; the last one's agreement places the table."""
    round_, table, report = _locked_report(report)
    seat = _own_seat(table, by)
    _check_open(round_, table)
    if seat.registration_id in report.confirmed_by:
        raise ValidationError(_("You have already confirmed these placings."))
    report.confirmed_by = [*report.confirmed_by, seat.registration_id]
    seats = list(table.seats.all())
    waiting = [s.registration_id for s in seats if s.registration_id not in report.confirmed_by]
    after = {"round": round_.number, "table": table.number, "version": report.number}
    if waiting:
        report.save(update_fields=["confirmed_by"])
        audit(round_.tournament, by, "pod.confirmed", table, after={**after, "waiting": waiting})
        return report
    for placed in seats:
        placed.placing = report.placings[str(placed.registration_id)]
    PodSeat.objects.bulk_update(seats, ["placing"])
    record_table_rating(table)  # placings confirmed by the table rate it (docs/ratings.md)
    report.status = PodReport.Status.CONFIRMED
    report.save(update_fields=["confirmed_by", "status"])
    audit(
        round_.tournament,
        by,
        "pod.placings",
        table,
        after={**after, "placings": report.placings, "source": "players"},
    )
    refresh_round_status(round_)
    return report


@transaction.atomic
def dispute_placings(*, report: PodReport, by, note: str = "") -> PodReport:
    """A tablemate disagrees with a pending report: the table goes to the judges."""
    round_, table, report = _locked_report(report)
    seat = _own_seat(table, by)
    _check_open(round_, table)
    if seat.registration_id == report.submitted_for_id:
        raise ValidationError(_("You cannot dispute your own report; report again to change it."))
    note = require_dispute_note(note)
    report.status = PodReport.Status.DISPUTED
    report.disputed_by = seat.registration
    report.note = note[:300]
    report.save(update_fields=["status", "disputed_by", "note"])
    audit(
        round_.tournament,
        by,
        "pod.disputed",
        table,
        after={"round": round_.number, "table": table.number, "version": report.number},
        reason=note,
    )
    return report


@transaction.atomic
def accept_report(*, report: PodReport, by) -> PodTable:
    """A judge settles an open (pending or disputed) report by accepting its placings as
    they stand: the judge's entry, as on the round's page."""
    round_, _table = _locked(report.table)
    require_judge(by, round_.tournament)
    report = PodReport.objects.select_for_update().get(pk=report.pk)
    if report.status not in PodReport.OPEN:
        raise ValidationError(_("This report is no longer waiting for confirmation."))
    return record_placings(table=report.table, placings=report.placings, by=by)
