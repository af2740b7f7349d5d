"""In a real browser: picking another game on the event form fills in its format and
time limits where they still show the previous game's defaults (docs/events.md)."""

import pytest

from tournaments.games import GAMES
from tournaments.models import Tournament

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def test_choosing_a_game_fills_in_its_defaults(live_server, page, organiser):
    base = live_server.url
    page.goto(f"{base}/accounts/login/?next=/tournaments/new/")
    page.fill("input[name=username]", "org")
    page.fill("input[name=password]", "correct-horse-9")
    page.click("main button[type=submit]")
    page.wait_for_url("**/tournaments/new/")
    assert page.input_value("#id_match_minutes") == "45"
    page.fill("#id_game_minutes", "25")  # the organiser's own limit stays
    page.select_option("#id_game", "36d6")
    rules = GAMES["36d6"]
    assert page.input_value("#id_match_minutes") == str(rules.match_minutes)
    assert page.input_value("#id_games_to_win") == str(rules.games_to_win)
    assert page.input_value("#id_game_minutes") == "25"
    page.fill("#id_name", "Dice Night")
    page.fill("#id_date", "2026-12-05")
    page.click("#tournament-form button[type=submit]")
    page.wait_for_url("**/console/")
    event = Tournament.objects.get(name="Dice Night")
    assert (event.game, event.match_minutes, event.game_minutes) == (
        "36d6",
        rules.match_minutes,
        25,
    )
