"""The rows of the standings page, built in Python.

A Django template loop costs about 0.1 ms a row here, which a table of 16,384 players
turns into seconds; these rows are plain strings instead. Every cell is a number, a
percentage formatted here or a name passed through ``html.escape`` (what Django's
``escape`` does, without its check for lazy strings, which costs more than the escaping
itself), so the result is safe to mark as such. A row's arithmetic is not in the page: its ``<details>`` holds a link
to the row's own page (tournaments:standings_row), and the page's script replaces the
link with the lines from the API when the row is opened (docs/standings.md).
"""

from __future__ import annotations

from html import escape

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from tournaments.standings import Standings, format_percentage, percentage_formatter
from tournaments.tiebreakers import REGISTRY
from tournaments.words import tiebreak_label


def tiebreak_cell(name: str, value) -> str:
    """A figure of a tiebreaker outside the MTR set as the table shows it: a percentage,
    a whole number, or a number with two decimals, half up."""
    system = REGISTRY[name]
    if system.percentage:
        return format_percentage(value)
    if value.denominator == 1:
        return str(value.numerator)
    return format_percentage(value / 100).removesuffix("%")


def cut_badge(row, phase: int) -> str:
    """The badge of a player who did not make a Swiss phase's cut (tournaments/phases.py)."""
    title = _(
        "Not in the cut after round %(round)s: row as it stood at the end of phase %(phase)s"
    ) % {"round": row.cut_after_round, "phase": phase}
    label = _("did not advance · phase %(phase)s") % {"phase": phase}
    return f' <span class="badge cut" title="{escape(title)}">{escape(label)}</span>'


def rows_html(table: Standings, *, row_url: str, query: str = "") -> SafeString:
    """One ``<tr>`` per row, in standings order. ``row_url`` is the address of a row's
    own page without the registration ("/tournaments/7/standings/"); ``query`` what
    follows it ("?round=3" or "").

    The figures after the points are also written, with their names, on a line under
    the name (``fold``): a phone's stylesheet shows that line instead of their columns
    (``table.folds`` in templates/static/site.css), so the table fits 390 px without
    scrolling sideways."""
    places = table.conventions.decimals - 2
    # Own GW% repeats (points over games), and so do about half of the opponents' MW%
    # in a large event; their GW% hardly ever.
    own_percent = percentage_formatter(places)
    opponents_match_percent = percentage_formatter(places)
    others = table.other_tiebreakers
    labels = [escape(tiebreak_label(name)) for name in others]

    dropped_badge = f' <span class="badge">{escape(_("dropped"))}</span>'
    show = escape(_("Show the arithmetic"))
    record_label = escape(_("Record"))
    prefix, suffix = escape(row_url), escape(query)
    parts = []
    for row in table.rows:
        registration = row.player_id
        if row.dropped:
            opening, badge = '<tr class="dropped">', dropped_badge
        elif row.cut_after_round:
            opening, badge = '<tr class="dropped">', cut_badge(row, table.phase(registration))
        else:
            opening, badge = "<tr>", ""
        record = f"{row.wins}-{row.losses}-{row.draws}"
        omw = opponents_match_percent(row.opponents_match_win)
        gwp = own_percent(row.game_win)
        ogw = format_percentage(row.opponents_game_win, places)
        if others:
            values = [escape(tiebreak_cell(name, row.tiebreak_values[name])) for name in others]
            cells = "".join(f"<td>{value}</td>" for value in values)
            folded = "".join(
                f" · {label} {value}" for label, value in zip(labels, values, strict=True)
            )
        else:
            cells = folded = ""
        parts.append(
            f"{opening}<td>{row.rank}</td>"
            f'<td><details data-row="{registration}"><summary>{escape(row.name)}{badge}'
            f'</summary><a href="{prefix}{registration}/{suffix}">{show}</a></details>'
            f'<span class="fold">{record_label} {record} · OMW {omw} · GWP {gwp}'
            f" · OGW {ogw}{folded}</span></td>"
            f"<td>{row.match_points}</td><td>{record}</td><td>{omw}</td><td>{gwp}</td>"
            f"<td>{ogw}</td>{cells}</tr>"
        )
    return mark_safe("\n".join(parts))  # every text cell is escaped above
