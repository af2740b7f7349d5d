"""Every CSV download: one column set per resource (standings, placings, pairings), shared by the
pages and the API, and one writer through which every cell passes, so that no cell can
run as a spreadsheet formula.

A text cell starting with = + - @, a tab or a carriage return is read as a formula by
Excel, LibreOffice and Google Sheets (a display name "=HYPERLINK(...)" would become a
live link in an organiser's spreadsheet). Following OWASP's advice on CSV injection,
such a cell gets a leading single quote, which spreadsheets show as text and which a
reader of the raw file can strip. Values that are numbers (int, float, Decimal,
Fraction) stay as they are, negative ones too: a number is never a formula. Text that
only looks like a number is still text and is escaped.
"""

from __future__ import annotations

import csv
import io
import numbers
from collections.abc import Iterable

from django.http import HttpResponse

from tournaments import selectors
from tournaments.models import Match, Round, Tournament
from tournaments.placings import Placing
from tournaments.standings import Standings, percentage_formatter

FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value):
    kind = type(value)
    if kind is str:  # the common cases first: a table has tens of thousands of cells
        return "'" + value if value.startswith(FORMULA_TRIGGERS) else value
    if kind is int or kind is bool:
        return value
    if value is None:
        return ""
    if isinstance(value, numbers.Number):
        return value
    text = str(value)
    return "'" + text if text.startswith(FORMULA_TRIGGERS) else text


def csv_response(filename: str, header: list[str], rows: Iterable[Iterable]) -> HttpResponse:
    """A CSV attachment with every cell passed through safe_cell, written in one piece
    (a write to the response for each row costs more than the row)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow([safe_cell(cell) for cell in header])
    writer.writerows([safe_cell(cell) for cell in row] for row in rows)
    response = HttpResponse(buffer.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


STANDINGS_COLUMNS = [
    "rank",
    "name",
    "registration",
    "points",
    "record",
    "dropped",
    "phase",
    "did_not_advance_after",
    "mwp",
    "mwp_percent",
    "gwp",
    "gwp_percent",
    "omw",
    "omw_percent",
    "ogw",
    "ogw_percent",
]

PLACINGS_COLUMNS = [
    "place",
    "name",
    "registration",
    "finish",
    "seed",
    "swiss_rank",
    "dropped",
    "disqualified",
]

PAIRINGS_COLUMNS = ["round", "table", "player_a", "points_a", "player_b", "points_b", "result"]


def standings_csv(tournament: Tournament, table: Standings) -> HttpResponse:
    """The standings, each percentage exact and rounded half up to the tournament's
    decimals, then the exact figures of the chosen tiebreakers beyond the MTR set (a
    column each, named as in the order); ``table.as_of_round`` names the round in the
    file name."""
    others = table.other_tiebreakers
    percent = percentage_formatter(table.conventions.decimals - 2)

    rows = (
        (
            row.rank,
            row.name,
            row.player_id,
            row.match_points,
            row.record,
            "yes" if row.dropped else "",
            table.phase(row.player_id),
            row.cut_after_round,
            str(row.match_win),
            percent(row.match_win),
            str(row.game_win),
            percent(row.game_win),
            str(row.opponents_match_win),
            percent(row.opponents_match_win),
            str(row.opponents_game_win),
            percent(row.opponents_game_win),
            *(str(row.tiebreak_values[name]) for name in others),
        )
        for row in table
    )
    suffix = f"-round-{table.as_of_round}" if table.as_of_round is not None else ""
    header = [*STANDINGS_COLUMNS, *others]
    return csv_response(f"standings-{tournament.pk}{suffix}.csv", header, rows)


def placings_csv(tournament: Tournament, placings: Iterable[Placing]) -> HttpResponse:
    """The final placings; a disqualified player's place is empty."""
    rows = (
        (
            line.place,
            line.name,
            line.player_id,
            line.finish,
            line.seed,
            line.swiss_rank,
            "yes" if line.dropped else "",
            "yes" if line.disqualified else "",
        )
        for line in placings
    )
    return csv_response(f"placings-{tournament.pk}.csv", PLACINGS_COLUMNS, rows)


def pairings_csv(
    tournament: Tournament, round_: Round, matches: Iterable[Match], *, show_results: bool
) -> HttpResponse:
    """One round's pairings with each player's points when it was paired
    (selectors.points_at_pairing); the results only when the viewer may see them.
    ``matches`` need their players' Player rows selected."""
    points = selectors.points_at_pairing(tournament, round_.number)
    rows = (
        (
            round_.number,
            match.table or "",
            match.player_a.entry_name,
            points.get(match.player_a_id, 0),
            match.player_b.entry_name if match.player_b_id else "BYE",
            points.get(match.player_b_id, 0) if match.player_b_id else "",
            selectors.match_score(match) if show_results else "",
        )
        for match in matches
    )
    return csv_response(
        f"pairings-{tournament.pk}-round-{round_.number}.csv", PAIRINGS_COLUMNS, rows
    )


POD_STANDINGS_COLUMNS = [
    "rank",
    "player",
    "registration_id",
    "points",
    "points_exact",
    "tables",
    "byes",
    "dropped",
    "opponents_placing",
    "placing",
    "opponents_opponents_placing",
]


def pod_standings_csv(tournament: Tournament, rows: list[dict], as_of_round=None) -> HttpResponse:
    """The pod standings (selectors.pod_standings_rows): points as people write them and
    exact, then the three placing percentages as exact fractions."""
    lines = (
        (
            row["rank"],
            row["player"],
            row["registration"],
            row["points_display"],
            row["points"],
            row["tables"],
            row["byes"],
            "yes" if row["dropped"] else "",
            row["opponents_placing"],
            row["placing"],
            row["opponents_opponents_placing"],
        )
        for row in rows
    )
    suffix = f"-round-{as_of_round}" if as_of_round is not None else ""
    return csv_response(f"pod-standings-{tournament.pk}{suffix}.csv", POD_STANDINGS_COLUMNS, lines)


POD_PAIRINGS_COLUMNS = [
    "round",
    "table",
    "seat",
    "player",
    "registration_id",
    "points_before",
    "placing",
    "points",
]


def pod_pairings_csv(tournament: Tournament, round_: Round, *, show_results: bool) -> HttpResponse:
    """One round of an event in pods: a line per seat, with the player's pod points when
    the round was seated; the placing and its points only when the viewer may see them."""
    answer = selectors.pod_round_answer(round_, show_results=show_results)
    before = selectors.pod_points_at_pairing(tournament, round_.number)
    rows = (
        (
            round_.number,
            "" if table["bye"] else table["number"],
            seat["seat"],
            seat["player"],
            seat["registration"],
            selectors.format_pod_points(before.get(seat["registration"], 0)),
            seat["placing"] if seat["placing"] is not None else "",
            seat["points"] if seat["points"] is not None else "",
        )
        for table in answer["tables"]
        for seat in table["seats"]
    )
    return csv_response(
        f"pairings-{tournament.pk}-round-{round_.number}.csv", POD_PAIRINGS_COLUMNS, rows
    )
