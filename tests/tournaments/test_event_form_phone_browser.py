"""In Chromium on a phone (390 px), in English and in Russian: the event form shows every
choice whole. A select shows its chosen option cut to its width, so a setting whose
choices are sentences ("Losers of the same bracket round share a place") is a set of
radio buttons instead; every select left keeps each of its options within its width, the
page keeps to the screen and every choice can be tapped (32 px)."""

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

# Each select's options, each chosen in turn, against the room the select gives its text.
OPTIONS_CUT = """() => {
  const cut = [];
  for (const select of document.querySelectorAll('main select')) {
    if (!select.getClientRects().length) continue;
    const style = getComputedStyle(select);
    const room = select.clientWidth - parseFloat(style.paddingLeft)
      - parseFloat(style.paddingRight) - 20;  // the arrow
    for (const option of select.options) {
      const probe = document.createElement('span');
      probe.textContent = option.text;
      probe.style.font = style.font;
      probe.style.whiteSpace = 'pre';
      document.body.appendChild(probe);
      if (probe.getBoundingClientRect().width > room) cut.push(select.name + ': ' + option.text);
      probe.remove();
    }
  }
  return cut;
}"""
CHOICES_OFF_SCREEN = """() => [...document.querySelectorAll('main .field label')]
  .filter(e => e.getClientRects().length)
  .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1
            || (e.querySelector('input[type=radio]') && e.getBoundingClientRect().height < 32))
  .map(e => e.textContent.trim())"""
FITS = "document.documentElement.scrollWidth <= window.innerWidth + 1"


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_event_form_shows_every_choice_whole_on_a_phone(live_server, page, organiser, language):
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )
    page.goto(f"{live_server.url}/accounts/login/?next=/tournaments/new/")
    page.fill("input[name=username]", "org")
    page.fill("input[name=password]", "correct-horse-9")
    page.click("main button[type=submit]")
    page.wait_for_url("**/tournaments/new/")
    assert page.locator("html").get_attribute("lang") == language
    assert page.locator("input[type=radio][name=bracket_losers]").count() == 2
    assert page.evaluate(OPTIONS_CUT) == []
    assert page.evaluate(CHOICES_OFF_SCREEN) == []
    assert page.evaluate(FITS)
