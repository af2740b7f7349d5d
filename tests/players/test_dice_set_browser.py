"""The dice-set editor in a real browser, on a phone-sized screen."""

import pytest

from players.models import DiceSet

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def _open_new_set(page, live_server) -> None:
    """Alice logged in, on the new dice-set page."""
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", "alice")
    page.fill("input[name=password]", "correct-horse-9")
    page.click("main button[type=submit]")
    page.wait_for_url("**/me/")
    page.goto(f"{live_server.url}/me/dice-sets/new/")


def test_log_in_build_a_set_see_inline_errors_then_save(
    live_server, page, make_player, valid_playing
):
    player = make_player("Alice")
    _open_new_set(page, live_server)
    page.fill("input[name=name]", "Browser set")
    for i, die in enumerate(valid_playing):
        page.select_option(f"select[name=playing_{i}_type]", die["type"])
        page.select_option(f"select[name=playing_{i}_colour]", die["colour"])
    # The live preview follows the selects.
    preview = page.locator(".die-slot").nth(0).locator("img.preview")
    assert "type=crusher" in preview.get_attribute("src")
    # Four rare dice: the page must refuse with the rule's message.
    for i in range(4):
        page.check(f"input[name=playing_{i}_rare]")
    page.click("#dice-set-form button[type=submit]")
    assert (
        page.locator(".errors").inner_text().strip()
        == "A playing set may hold at most 3 rare dice; this one has 4."
    )
    assert not DiceSet.objects.exists()
    page.uncheck("input[name=playing_0_rare]")
    page.click("#dice-set-form button[type=submit]")
    page.wait_for_url("**/me/dice-sets/")
    assert page.locator(".dice-set svg.die").count() == 9
    saved = DiceSet.objects.get(player=player)
    assert saved.name == "Browser set" and sum(d["rare"] for d in saved.playing_dice) == 3
    # Nothing overflows the phone's width.
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


# Every die slot's selects whole inside their fieldset, and the page no wider than the screen.
SLOTS_FIT = """() => {
  const out = [];
  for (const box of document.querySelectorAll('fieldset')) {
    const right = box.getBoundingClientRect().right;
    for (const e of box.querySelectorAll('select')) {
      if (e.getBoundingClientRect().right > right) out.push(e.name);
    }
    if (right > window.innerWidth) out.push('fieldset');
  }
  return {wide: document.documentElement.scrollWidth > window.innerWidth + 1, out};
}"""


def test_the_editor_fits_a_phone_in_russian(live_server, page, make_player):
    """The die types' longest names in Russian (a select is as wide as its longest choice)
    must not widen the page: each slot's selects stay within the set's box."""
    make_player("Alice")
    page.context.add_cookies([{"name": "django_language", "value": "ru", "url": live_server.url}])
    _open_new_set(page, live_server)
    assert page.locator("html").get_attribute("lang") == "ru"
    assert page.locator(".die-slot select").count() >= 18
    assert page.evaluate(SLOTS_FIT) == {"wide": False, "out": []}
