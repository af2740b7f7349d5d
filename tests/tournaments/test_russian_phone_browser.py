"""In Chromium on a phone (390 px), in Russian, whose words run longer: the audit log's
filter (its select as wide as its longest group name) and a player's answer to their
opponent's report (confirm, or say what is wrong) keep to the screen."""

import pytest

from tests.tournaments.test_pages_browser import log_in
from tournaments import services

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

FITS = "document.documentElement.scrollWidth <= window.innerWidth + 1"
# Every form control within the screen's width.
CONTROLS_OFF_SCREEN = """() => [...document.querySelectorAll(
    'main select, main input:not([type=hidden]), main button')]
  .filter(e => e.getClientRects().length)
  .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)
  .map(e => e.id || e.name || e.textContent)"""


def _in_russian(page, base):
    page.context.add_cookies([{"name": "django_language", "value": "ru", "url": base}])


def _fits(page, path):
    assert page.locator("html").get_attribute("lang") == "ru", path
    assert page.evaluate(FITS), f"{path} scrolls sideways on a phone"
    assert page.evaluate(CONTROLS_OFF_SCREEN) == [], path


def test_the_audit_filter_and_the_answer_to_a_report_fit_a_phone_in_russian(
    live_server, page, make_running_round, judge
):
    round_ = make_running_round(4)
    match = round_.matches.select_related("player_a__player__user", "player_b__player__user")
    match = match.order_by("table").first()
    services.report_result(match=match, by=match.player_a.player.user, games=["a", "a"])
    base, pk = live_server.url, round_.tournament_id
    log_in(page, base, match.player_b.player.user.username, f"/tournaments/{pk}/my-match/")
    _in_russian(page, base)
    page.goto(f"{base}/tournaments/{pk}/my-match/")
    assert page.locator("#reject-form input[name=note]").is_visible()
    _fits(page, "my-match")
    log_in(page, base, judge.username, f"/tournaments/{pk}/audit/")
    _in_russian(page, base)
    page.goto(f"{base}/tournaments/{pk}/audit/")
    assert page.locator("#audit-filter select option").count() > 3
    _fits(page, "audit")
