"""Every CSV download goes through here, so no cell can run as a spreadsheet formula.

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
import numbers
from collections.abc import Iterable

from django.http import HttpResponse

FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value):
    if value is None:
        return ""
    if isinstance(value, numbers.Number):
        return value
    text = str(value)
    return "'" + text if text.startswith(FORMULA_TRIGGERS) else text


def csv_response(filename: str, header: list[str], rows: Iterable[Iterable]) -> HttpResponse:
    """A CSV attachment with every cell passed through safe_cell."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    writer = csv.writer(response)
    writer.writerow([safe_cell(cell) for cell in header])
    for row in rows:
        writer.writerow([safe_cell(cell) for cell in row])
    return response
