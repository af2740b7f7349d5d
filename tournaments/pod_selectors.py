"""Reads of pod tables on event day (docs/operations.md "Pod tables on event day"): a
player's own table, the judges' queue of a round's tables and the slips, each in a
constant number of queries. The rest of the pod reads are in tournaments/selectors.py."""

from __future__ import annotations

import datetime

from django.db.models import Prefetch

from tournaments import clocks
from tournaments.models import PodReport, PodSeat, PodTable, Round

# The judges' queue, most urgent first: tables at time without placings, disputed,
# reported (waiting for tablemates), not reported yet; placed tables and byes last.
AT_TIME, DISPUTED, REPORTED, WAITING, PLACED = range(5)
QUEUE_STATES = {
    AT_TIME: "at_time",
    DISPUTED: "disputed",
    REPORTED: "reported",
    WAITING: "waiting",
    PLACED: "placed",
}


def _tables(round_filter: dict):
    seats = PodSeat.objects.select_related("registration__player").order_by("seat")
    reports = PodReport.objects.filter(status__in=PodReport.OPEN).select_related(
        "submitted_for__player", "disputed_by__player"
    )
    return (
        PodTable.objects.filter(**round_filter)
        .select_related("round", "online_game")
        .prefetch_related(
            Prefetch("seats", queryset=seats),
            Prefetch("reports", queryset=reports, to_attr="open_reports"),
        )
        .order_by("number")
    )


def current_pod_table(tournament_id: int, registration_id: int) -> PodTable | None:
    """The player's table in the latest round with published pairings (what "my match"
    shows), with its round, seats and open report (``open_report``): four queries."""
    seat = (
        PodSeat.objects.filter(round__tournament_id=tournament_id, registration_id=registration_id)
        .exclude(round__status=Round.Status.DRAFT)
        .order_by("-round__number")
        .values_list("table_id", flat=True)
        .first()
    )
    if seat is None:
        return None
    table = _tables({"pk": seat}).get()
    table.open_report = table.open_reports[0] if table.open_reports else None
    return table


def at_time(round_: Round, now: datetime.datetime) -> bool:
    """The round clock ran out (a paused or unstarted clock never is)."""
    clock = clocks.round_clock(round_, now)
    return clock["state"] == "running" and clock["remaining_seconds"] <= 0


def is_placed(table: PodTable) -> bool:
    return all(seat.placing is not None for seat in table.seats.all())


def table_clock(table: PodTable, now: datetime.datetime) -> dict:
    """A table's time (the round's end plus its extensions, or its online game's limit),
    read from the rows ``_tables`` loaded."""
    pod_game = getattr(table, "online_game", None)  # None: played on paper
    return clocks.pod_table_clock(table, pod_game, now, placed=is_placed(table))


def queue_state(table: PodTable, at_time: bool) -> int:
    """``at_time``: the table's own time has run out (its extensions counted)."""
    if table.is_bye or is_placed(table):
        return PLACED
    report = table.open_reports[0] if table.open_reports else None
    if at_time:
        return AT_TIME
    if report is not None and report.status == PodReport.Status.DISPUTED:
        return DISPUTED
    return REPORTED if report is not None else WAITING


def pod_queue(round_: Round, now: datetime.datetime) -> list[dict]:
    """The round's tables for the judges, most urgent first (three queries): each with
    its clock (tournaments/clocks.py ``pod_table_clock``), its seats, its open report (placings by name, who reported, who has confirmed, who
    disputed) and its state."""
    rows = []
    for table in _tables({"round": round_}):
        seats = list(table.seats.all())
        report = table.open_reports[0] if table.open_reports else None
        clock = table_clock(table, now)
        state = queue_state(table, clock["state"] == "time_called")
        rows.append(
            {
                "table": table,
                "clock": clock,
                "seats": seats,
                "report": report,
                "reported": _reported_rows(seats, report),
                "state": QUEUE_STATES[state],
                "order": (state, table.number),
                "disputed": report is not None and report.status == PodReport.Status.DISPUTED,
            }
        )
    rows.sort(key=lambda row: row["order"])
    return rows


def _reported_rows(seats, report) -> list[dict]:
    """Each seat with the place the open report gives it and whether its player agrees."""
    if report is None:
        return []
    return [
        {
            "seat": seat,
            "place": report.placings.get(str(seat.registration_id)),
            "confirmed": seat.registration_id in report.confirmed_by,
        }
        for seat in seats
    ]


def report_rows(table: PodTable) -> list[dict]:
    """A table's open report seat by seat (for the player's page)."""
    report = table.open_reports[0] if table.open_reports else None
    return _reported_rows(list(table.seats.all()), report)


def slip_tables(round_: Round) -> list[PodTable]:
    """The round's tables to print, byes left out (two queries)."""
    seats = PodSeat.objects.select_related("registration__player").order_by("seat")
    return list(
        PodTable.objects.filter(round=round_, size__gt=1)
        .order_by("number")
        .prefetch_related(Prefetch("seats", queryset=seats))
    )
