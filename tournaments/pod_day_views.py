"""Event-day pages of an event in pods (docs/operations.md "Pod tables on event day"):
"my match" as the player's table with its report and confirmation, the judges' queue of
tables, the judges' clocks over the tables and the printable table slips. The views of
tournaments/views.py and clock_views.py hand an event in pods to these; each page reads in
a constant number of queries."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from config.dbtime import db_now
from tournaments import clocks, pod_selectors, services
from tournaments.forms import ClockExtensionForm, PodPlacingsForm, RejectForm, form_error_text
from tournaments.models import PodReport, PodTable, Round


def my_table(request, tournament, registration, context):
    """The player's table this round: seat, tablemates, the round clock, the report form,
    a tablemate's report to confirm or dispute, and the state of their own report."""
    table = pod_selectors.current_pod_table(tournament.pk, registration.pk)
    report_form = reject_form = None
    if table is not None and request.method == "POST":
        answer = _my_table_post(request, table, tournament)
        if not isinstance(answer, dict):
            return answer
        report_form, reject_form = answer.get("report_form"), answer.get("reject_form")
    context.update(registration=registration, table=table)
    if table is not None:
        seats = list(table.seats.all())
        mine = next(seat for seat in seats if seat.registration_id == registration.pk)
        report = table.open_report
        placed = all(seat.placing is not None for seat in seats)
        now = db_now()
        context.update(
            round=table.round,
            seat=mine,
            tablemates=[seat for seat in seats if seat.pk != mine.pk],
            seats=seats,
            placed=placed,
            report=report,
            report_rows=pod_selectors.report_rows(table),
            report_mine=report is not None and report.submitted_for_id == registration.pk,
            i_confirmed=report is not None and registration.pk in report.confirmed_by,
            open=not table.is_bye
            and not placed
            and table.round.status in (Round.Status.PUBLISHED, Round.Status.IN_PROGRESS),
            clock=clocks.round_clock(table.round, now),
            # The table's own time: the round's end plus a judge's extensions.
            table_clock=pod_selectors.table_clock(table, now),
            # The table's online game (tournaments/pod_online.py), when the event plays online.
            table_game=getattr(table, "online_game", None),
            report_form=report_form or PodPlacingsForm(table=table),
            reject_form=reject_form or RejectForm(),
        )
    return render(request, "tournaments/my_pod_table.html", context)


def _my_table_post(request, table, tournament):
    user = request.user
    action = request.POST.get("action")
    here = redirect("tournaments:my_table", pk=tournament.pk)
    try:
        if action == "report":
            form = PodPlacingsForm(request.POST, table=table)
            if not form.is_valid():
                return {"report_form": form}
            try:
                services.report_placings(
                    table=table, by=user, placings=form.placings(), note=form.cleaned_data["note"]
                )
            except ValidationError as exc:
                for error in exc.messages:
                    form.add_error(None, error)
                return {"report_form": form}
            messages.success(request, _("Placings reported: your tablemates confirm them."))
        elif action in ("confirm", "dispute"):
            raw = request.POST.get("report", "")
            if not (raw.isascii() and raw.isdigit()):
                raise ValidationError(_("That request was not understood."))
            report = get_object_or_404(PodReport, pk=int(raw), table=table)
            if action == "confirm":
                report = services.confirm_placings(report=report, by=user)
                if report.status == PodReport.Status.CONFIRMED:
                    messages.success(request, _("Placings confirmed: the table is placed."))
                else:
                    messages.success(request, _("Placings confirmed."))
            else:
                form = RejectForm(request.POST)
                if not form.is_valid():
                    return {"reject_form": form}
                services.dispute_placings(report=report, by=user, note=form.cleaned_data["note"])
                messages.success(request, _("Placings disputed: a judge will come to your table."))
        else:
            raise Http404
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    return here


def results_queue(request, tournament, context, rounds, round_):
    """The judges' queue of a round's tables: at time without placings, disputed,
    reported, not reported; placed last."""
    rows = pod_selectors.pod_queue(round_, db_now()) if round_ is not None else []
    context.update(
        rounds=rounds,
        round=round_,
        rows=rows,
        open_count=sum(row["state"] != "placed" for row in rows),
    )
    return render(request, "tournaments/pod_results_queue.html", context)


def accept_report(request, tournament, number, report_id):
    """A judge accepts a table's open report as it stands (from the queue)."""
    report = get_object_or_404(
        PodReport.objects.select_related("table"),
        pk=report_id,
        table__round__tournament=tournament,
        table__round__number=number,
    )
    try:
        services.accept_report(report=report, by=request.user)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, _("Table %(n)s: placings saved.") % {"n": report.table.number})
    return redirect(f"{reverse('tournaments:results', args=[tournament.pk])}?round={number}")


def judges_clocks(request, round_):
    """The round clock and every table of the round, most urgent first."""
    now = db_now()
    return render(
        request,
        "clocks/pod_judges.html",
        {
            "round": round_,
            "tournament": round_.tournament,
            "clock": clocks.round_clock(round_, now),
            "at_time": pod_selectors.at_time(round_, now),
            "rows": pod_selectors.pod_queue(round_, now),
            "can_judge": True,  # the event's menu (tournaments/_nav.html)
        },
    )


def extend_table(request, round_, number):
    """A judge gives one table more time (from the judges' clocks)."""
    table = get_object_or_404(PodTable.objects.select_related("round"), round=round_, number=number)
    form = ClockExtensionForm(request.POST)
    if not form.is_valid():
        messages.error(request, form_error_text(form))
    else:
        try:
            clocks.extend_pod_table(
                table=table,
                minutes=form.cleaned_data["minutes"],
                reason=form.cleaned_data["reason"],
                by=request.user,
            )
        except ValidationError as exc:
            messages.error(request, " ".join(exc.messages))
        else:
            messages.success(
                request,
                _("Table %(n)s: %(m)s more minutes.")
                % {"n": table.number, "m": form.cleaned_data["minutes"]},
            )
    return redirect("tournaments:clocks", pk=round_.tournament_id, number=round_.number)


def slips(request, tournament, round_, context):
    """One slip a table: seats in order, a box for each player's place and a signature."""
    context.update(round=round_, tables=pod_selectors.slip_tables(round_))
    return render(request, "tournaments/pod_slips.html", context)
