"""In a real browser, on a phone-sized screen: an organiser pairs and publishes a round
(confirming it on the way), a player reports the result and the opponent confirms it;
a player drops after confirming; a standings row opened shows its arithmetic."""

import random

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.tournaments.conftest import play_round_by_judge
from tournaments import selectors, services
from tournaments.models import Match, Round

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def log_in(page, base, username, next_url):
    # Leave the page first: a live page's poll still in flight would answer with the
    # last user's cookies after they are cleared, and the login form's token would no
    # longer match ("Form expired").
    page.goto("about:blank")
    page.context.clear_cookies()
    page.goto(f"{base}/accounts/login/?next={next_url}")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "correct-horse-9")
    # Not the login page itself, whose ?next= ends with the same path.
    arrived = lambda url: "/accounts/login/" not in url and url.endswith(next_url)  # noqa: E731
    page.click("main button[type=submit]")
    try:
        page.wait_for_url(arrived, timeout=20000)
    except PlaywrightTimeout:
        # Still on the login page: say what it shows (a refusal fails here, readably).
        shown = page.locator("main").inner_text()
        assert "correct username" not in shown and "locked" not in shown.lower(), shown[:500]
        # No refusal: the answer may have come while nothing watched. Never submit the
        # form again (a login that went through has rotated its token: "Form expired");
        # open the page instead, which shows whether the login went through.
        page.goto(f"{base}{next_url}")
        assert arrived(page.url), f"not logged in as {username}: {page.url}"


def test_organiser_pairs_and_publishes_player_reports_opponent_confirms(
    live_server, page, tournament, register_players
):
    first, second = register_players(tournament, 2)
    base, pk = live_server.url, tournament.pk

    log_in(page, base, "org", f"/tournaments/{pk}/console/")
    page.click("#pair-form button[type=submit]")
    page.wait_for_url(f"**/tournaments/{pk}/rounds/1/manage/")
    assert "Round paired as a draft" in page.locator(".messages").inner_text()
    assert page.locator("#draft ul.reasons li").count() >= 1
    page.click("#publish-form button[type=submit]")
    # Publishing cannot be undone: the page says what it will do and waits for a yes.
    page.wait_for_selector("#confirm-step")
    assert "cannot be paired again" in page.locator("#confirm-step").inner_text()
    assert Round.objects.get(tournament=tournament, number=1).status == Round.Status.DRAFT
    page.click("#confirm-cancel")
    page.wait_for_url(f"**/tournaments/{pk}/rounds/1/manage/")
    assert Round.objects.get(tournament=tournament, number=1).status == Round.Status.DRAFT
    page.click("#publish-form button[type=submit]")
    page.click("#confirm-button")
    page.wait_for_selector(".messages li.success")
    assert "Pairings published." in page.locator(".messages").inner_text()
    assert Round.objects.get(tournament=tournament, number=1).status == Round.Status.PUBLISHED
    # The published pairings are public.
    page.goto(f"{base}/tournaments/{pk}/rounds/1/")
    assert "Player 01" in page.locator("#pairings").inner_text()

    match = Match.objects.get(round__tournament=tournament)
    winner_side = match.side_of(first.pk)
    log_in(page, base, "player01", f"/tournaments/{pk}/my-match/")
    assert page.locator("#opponent").inner_text() == "Player 02"
    page.select_option("#result-form select[name=game_1]", winner_side)
    page.select_option("#result-form select[name=game_2]", winner_side)
    page.click("#result-form button[type=submit]")
    page.wait_for_selector("#waiting")
    assert Match.objects.get(pk=match.pk).status == Match.Status.REPORTED

    log_in(page, base, "player02", f"/tournaments/{pk}/my-match/")
    assert "Player 01 reported" in page.locator("#pending-report").inner_text()
    page.click("#confirm-form button[type=submit]")
    page.wait_for_selector(".messages li.success")
    assert "Result confirmed." in page.locator(".messages").inner_text()
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED and match.winner_id == first.pk
    wide = page.evaluate(
        "[...document.querySelectorAll('main *')].filter(e => e.getBoundingClientRect().right > window.innerWidth + 1).map(e => e.tagName + '#' + e.id + '.' + e.className).slice(0, 12)"
    )
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), wide
    assert second.pk in (match.player_a_id, match.player_b_id)


def test_a_player_drops_after_confirming_without_javascript(
    live_server, browser, tournament, register_players
):
    """The confirmation step is plain HTML: it works with JavaScript turned off."""
    registration = register_players(tournament, 2)[0]
    context = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(15000)
    try:
        base, pk = live_server.url, tournament.pk
        log_in(page, base, "player01", f"/tournaments/{pk}/")
        page.click("#my-registration button.danger")
        page.wait_for_selector("#confirm-step")
        text = page.locator("#confirm-step").inner_text()
        assert "Drop from Test Open?" in text and "not be paired in any later round" in text
        registration.refresh_from_db()
        assert not registration.dropped
        page.click("#confirm-button")
        page.wait_for_selector(".messages li.success")
        assert "Player 01 dropped." in page.locator(".messages").inner_text()
        registration.refresh_from_db()
        assert registration.dropped
        assert "Drop from the tournament" not in page.content()
    finally:
        context.close()


def test_opening_a_standings_row_shows_its_arithmetic(
    live_server, page, tournament, register_players, organiser, judge
):
    register_players(tournament, 6)
    rng = random.Random(4)
    for _ in range(2):
        round_ = services.pair_next_round(tournament=tournament, by=organiser)
        services.publish_round(round_=round_, by=organiser)
        play_round_by_judge(round_, judge, rng)
        services.close_round(round_=round_, by=organiser)
    table = selectors.standings(tournament)
    second = table.rows[1]
    lines = table.explain(second.player_id).lines()

    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/standings/")
    row = page.locator(f'details[data-row="{second.player_id}"]')
    # Closed, the row holds only the link to its own page (what works without script).
    assert row.locator("ul.explain").count() == 0
    assert row.locator("a").get_attribute("href") == (
        f"/tournaments/{tournament.pk}/standings/{second.player_id}/"
    )
    row.locator("summary").click()
    row.locator("ul.explain li").first.wait_for()
    assert row.locator("ul.explain li").all_inner_texts() == lines
    assert row.locator("a").count() == 0
    # Closing and opening again asks nothing more and keeps the lines.
    row.locator("summary").click()
    row.locator("summary").click()
    assert row.locator("ul.explain li").all_inner_texts() == lines
