"""In a real browser on a phone-sized screen: start a practice game of Dice Forge for three
against two bots, see both dice of every player, the reserves, the Sanctuary and the feats,
and play a few decisions by pressing the buttons (a forge by choosing the face, then where
it goes)."""

import pytest
from axe_playwright_python.sync_playwright import Axe

from games.engines.dice_forge.engine import CARD_NAMES
from games.models import GameAction, GameSession
from tests.test_accessibility import OWN_CHECKS, SERIOUS

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def test_player_plays_a_few_decisions_of_dice_forge_against_two_bots(live_server, page, make_user):
    make_user("forger")
    base = live_server.url
    page.goto(f"{base}/accounts/login/?next=/games/")
    page.fill("input[name=username]", "forger")
    page.fill("input[name=password]", "correct-horse-9")
    page.click("main button[type=submit]")
    page.wait_for_url("**/games/")
    page.select_option("main select[name=game]", "dice-forge")
    page.select_option("main select[name=seats]", "3")
    page.click("main .start-practice")
    page.wait_for_selector("#game .board.dice-forge")
    session = GameSession.objects.get()
    assert session.engine == "dice-forge" and session.seat_count == 3
    assert page.locator("#game .df-player").count() == 3
    assert page.locator("#game .df-face svg").count() == 3 * 2 * 6
    assert page.locator("#game .df-pool").count() == 10
    assert page.locator("#game .df-card").count() == len(CARD_NAMES)
    assert "/ 12" in page.locator("#game .df-player .df-reserves").first.inner_text()
    page.wait_for_function(
        "() => /^\\d+:\\d\\d$/.test(document.querySelector('#game .df-player .clock').textContent)"
    )
    for _ in range(5):
        if page.locator("#game .game-result").count():
            break
        version = page.locator("#game .board").get_attribute("data-version")
        plain = page.locator("#game .df-actions > .game-choice")
        forge = page.locator("#game .df-forge")
        if forge.count():  # buying a face: open it, then choose where it goes
            forge.first.locator("summary").click()
            forge.first.locator(".places .game-choice").first.click()
        else:
            plain.first.click()
        page.wait_for_function(
            "v => document.querySelector('#game .board').dataset.version !== v", arg=version
        )
        assert page.locator("#game .game-error").inner_text() == ""
    assert session.actions.filter(cause=GameAction.Cause.PLAYER).count() >= 1
    events = page.locator("#game .events").inner_text()
    assert "rolls the Light die" in events
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    results = Axe().run(page)
    serious = [v["id"] for v in results.response["violations"] if v["impact"] in SERIOUS]
    assert not serious and not page.evaluate(OWN_CHECKS), [
        (v["id"], [n["html"][:200] for n in v["nodes"][:3]])
        for v in results.response["violations"]
        if v["impact"] in SERIOUS
    ]
