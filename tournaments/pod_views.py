"""The pages of an event in pods (docs/pairing.md "Swiss pods"): a round's tables, the
placings form of the round's page and the pod standings. tournaments/views.py hands an
event in pods to these; each page reads in a constant number of queries."""

from __future__ import annotations

from fractions import Fraction

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from tournaments import csv_exports, pod_online, selectors, visibility
from tournaments.models import PodGame, PodTable, Registration, Round
from tournaments.standings import format_percentage

# The round statuses in which the round's page offers the placings form.
PLACINGS_OPEN = (Round.Status.PUBLISHED, Round.Status.IN_PROGRESS, Round.Status.COMPLETE)


def _own_registration(request, tournament) -> int | None:
    if not request.user.is_authenticated:
        return None
    return (
        Registration.objects.filter(tournament=tournament, player__user=request.user)
        .values_list("pk", flat=True)
        .first()
    )


def _table_rows(tournament, round_, *, show_results: bool, own: int | None = None):
    """The round's tables with each player's pod points when the round was seated."""
    tables = selectors.pod_round_tables(round_)
    answer = selectors.pod_round_answer(round_, show_results=show_results, tables=tables)
    points = selectors.pod_points_at_pairing(tournament, round_.number)
    # Each table's online game (an event whose pod tables are played online), one query.
    games = dict(
        PodGame.objects.filter(table__round=round_).values_list("table__number", "session_id")
    )
    rows = []
    for table in answer["tables"]:
        for seat in table["seats"]:
            seat["points_before"] = selectors.format_pod_points(points.get(seat["registration"], 0))
            if seat["points"] is not None:
                seat["points"] = selectors.format_pod_points(seat["points"])
        names = [seat["player"] for seat in table["seats"]]
        rows.append(
            {
                **table,
                "search": " | ".join(name.lower() for name in names),
                "mine": own is not None and any(s["registration"] == own for s in table["seats"]),
                "game": games.get(table["number"]),
            }
        )
    return rows


def pairings(request, tournament, round_, context):
    """A round's tables, phone first: up to four names a table, the viewer's own table
    highlighted and first, search by name (as the two-player page)."""
    show_results = visibility.can_see_results(request.user, tournament)
    own = _own_registration(request, tournament)
    rows = _table_rows(tournament, round_, show_results=show_results, own=own)
    query = request.GET.get("q", "").strip()[: context["search_max"]]
    if query:
        rows = [row for row in rows if query.lower() in row["search"]]
    mine = next((row for row in rows if row["mine"]), None)
    rows.sort(key=lambda row: not row["mine"])
    context.update(round=round_, rows=rows, query=query, mine=mine, show_results=show_results)
    return render(request, "tournaments/pod_pairings.html", context)


def round_manage(request, tournament, round_, context):
    """The round's page for judges and organisers: the tables and a placings form each."""
    rows = _table_rows(tournament, round_, show_results=True)
    context.update(
        round=round_,
        rows=rows,
        placings_open=round_.status in PLACINGS_OPEN,
        can_close=round_.status in PLACINGS_OPEN and all(row["complete"] for row in rows),
    )
    return render(request, "tournaments/pod_round_manage.html", context)


def record_placings(request, tournament, round_):
    """POST of one table's placings from the round's page: ``table`` (its number) and
    ``place_<registration id>`` for every seat. Refusals are shown in words."""
    back = redirect("tournaments:round_manage", tournament.pk, round_.number)
    raw = request.POST.get("table", "")
    table = None
    if raw.isascii() and raw.isdigit():
        table = PodTable.objects.filter(round=round_, number=int(raw)).first()
    if table is None:
        messages.error(request, _("This round has no such table."))
        return back
    placings = {
        key.removeprefix("place_"): value.strip()
        for key, value in request.POST.items()
        if key.startswith("place_")
    }
    try:
        pod_online.record_placings(table=table, placings=placings, by=request.user)
    except ValidationError as exc:
        messages.error(
            request,
            _("Table %(n)s: %(errors)s") % {"n": table.number, "errors": " ".join(exc.messages)},
        )
        return back
    messages.success(request, _("Table %(n)s: placings saved.") % {"n": table.number})
    return back


def standings(request, tournament, context, as_of_round, played):
    rows = selectors.pod_standings_rows(tournament, as_of_round=as_of_round)
    places = max(tournament.standings_decimals - 2, 0)
    for row in rows:
        for name in ("opponents_placing", "placing", "opponents_opponents_placing"):
            row[f"{name}_percent"] = format_percentage(Fraction(row[name]), places)
    context.update(
        rows=rows,
        as_of_round=as_of_round,
        swiss_rounds=played,
    )
    return render(request, "tournaments/pod_standings.html", context)


def standings_csv(tournament, as_of_round):
    rows = selectors.pod_standings_rows(tournament, as_of_round=as_of_round)
    return csv_exports.pod_standings_csv(tournament, rows, as_of_round)
