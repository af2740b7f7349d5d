"""In a real browser on a phone-sized screen: log in, start a practice game against the
heuristic bot and play it to its end on the play page (only the offered choices)."""

import pytest

from games.models import GameAction, GameSession

from .conftest import reach_the_game_limit

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def test_player_logs_in_and_plays_a_practice_game_to_its_end(live_server, page, make_user):
    make_user("practiser")
    base = live_server.url
    page.goto(f"{base}/accounts/login/?next=/games/")
    page.fill("input[name=username]", "practiser")
    page.fill("input[name=password]", "correct-horse-9")
    page.click("main button[type=submit]")
    page.wait_for_url("**/games/")
    page.click("main .start-practice")
    page.wait_for_selector("#game .board")
    session = GameSession.objects.get()
    assert page.url.endswith(f"/games/{session.pk}/")
    # The board: both sides with their zones, dice drawn as SVG, a running decision clock.
    assert page.locator("#game .side").count() == 2
    assert page.locator("#game .side.bottom .zone.reserve svg").count() == 9
    assert (
        page.locator("#game .side.top .zone.reserve svg").count()
        + page.locator("#game .side.top .zone.battle svg").count()
        == 9
    )
    page.wait_for_function(
        "() => /^\\d+:\\d\\d$/.test(document.querySelector('#game .side.bottom .clock').textContent)"
    )
    for step in range(600):
        if page.locator("#game .game-result").count():
            break
        if step == 150:  # no time passes here: the game limit comes as the clock would bring it
            reach_the_game_limit(session.pk)
        version = page.locator("#game .board").get_attribute("data-version")
        if page.locator("#game .game-split").count():
            page.click("#game .game-split")  # every die of the hand is ticked
        elif page.locator("#game .game-choice").count():
            page.locator("#game .game-choice").first.click()
        else:
            page.wait_for_timeout(100)
            continue
        page.wait_for_function(
            "v => document.querySelector('#game .board').dataset.version !== v", arg=version
        )
        assert page.locator("#game .game-error").inner_text() == ""
    result = page.locator("#game .game-result").inner_text()
    assert "Game over" in result
    session.refresh_from_db()
    assert session.status == GameSession.Status.FINISHED
    assert session.seed in page.locator("#game .seed").inner_text()
    # Every decision the player made went through the page; how many there were depends on
    # the dice (a strong first throw by the bot can end the game after the first split).
    assert session.actions.filter(cause=GameAction.Cause.PLAYER).count() >= 1
    assert page.locator("#game .events li").count() > 3
    wide = page.evaluate(
        "[...document.querySelectorAll('main *')].filter(e => e.getBoundingClientRect().right > window.innerWidth + 1).map(e => e.tagName + '.' + e.className).slice(0, 8)"
    )
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), wide
