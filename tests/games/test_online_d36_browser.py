"""In a real browser on a phone-sized screen: start a practice game of 36d6 for three
against two bots, see the board with its dice, and play a few moves by clicking."""

import pytest
from axe_playwright_python.sync_playwright import Axe

from games.models import GameAction, GameSession
from tests.test_accessibility import OWN_CHECKS, SERIOUS

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def test_player_plays_a_few_moves_of_36d6_against_two_bots(live_server, page, make_user):
    make_user("practiser")
    base = live_server.url
    page.goto(f"{base}/accounts/login/?next=/games/")
    page.fill("input[name=username]", "practiser")
    page.fill("input[name=password]", "correct-horse-9")
    page.click("main button[type=submit]")
    page.wait_for_url("**/games/")
    page.select_option("main select[name=game]", "36d6")
    page.select_option("main select[name=seats]", "3")
    page.click("main .start-practice")
    page.wait_for_selector("#game .board.d36")
    session = GameSession.objects.get()
    assert session.engine == "36d6" and session.seat_count == 3
    # The 6x6 board with a die drawn on every occupied square, three seats with clocks.
    assert page.locator("#game .d36-grid td[data-square]").count() == 36
    assert page.locator("#game .d36-grid td[data-die] svg").count() > 20
    assert page.locator("#game .d36-seat").count() == 3
    page.wait_for_function(
        "() => /^\\d+:\\d\\d$/.test(document.querySelector('#game .d36-seat .clock').textContent)"
    )
    for _ in range(4):
        if page.locator("#game .game-result").count():
            break
        version = page.locator("#game .board").get_attribute("data-version")
        # A click on a die that can move picks it: its row of moves, one button each.
        cell = page.locator("#game .d36-grid td.movable").last
        die = cell.get_attribute("data-die")
        cell.click()
        picked = page.locator("#game .die-row.picked")
        assert picked.get_attribute("data-die") == die
        picked.locator(".game-choice").first.click()
        page.wait_for_function(
            "v => document.querySelector('#game .board').dataset.version !== v", arg=version
        )
        assert page.locator("#game .game-error").inner_text() == ""
    assert session.actions.filter(cause=GameAction.Cause.PLAYER).count() >= 1
    assert session.actions.filter(cause=GameAction.Cause.BOT).count() >= 2
    events = page.locator("#game .events").inner_text()
    assert "Player: plays a die to" in events
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    # The page holds to the accessibility checks of the other pages.
    results = Axe().run(page)
    serious = [v["id"] for v in results.response["violations"] if v["impact"] in SERIOUS]
    assert not serious and not page.evaluate(OWN_CHECKS), serious
