"""In a real browser on a phone-sized screen: a player of an event in pods finds their
table highlighted first, and a judge enters a table's placings on the round's page."""

import pytest

from tests.tournaments.pod_helpers import make_event, published
from tests.tournaments.test_pages_browser import log_in
from tournaments import services
from tournaments.models import PodSeat

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

FITS = "document.documentElement.scrollWidth <= window.innerWidth + 1"


def test_a_player_sees_their_table_and_a_judge_enters_placings(
    live_server, browser, organiser, judge, make_player
):
    event = make_event(organiser, judge, swiss_rounds=3)
    entries = [
        services.register(tournament=event, player=(p := make_player(f"Player {i:02d}")), by=p.user)
        for i in range(1, 8)
    ]
    round_ = published(event, organiser, judge)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(15000)
    try:
        base, pk = live_server.url, event.pk
        mine = PodSeat.objects.get(registration=entries[0]).table
        log_in(page, base, "player01", f"/tournaments/{pk}/rounds/1/")
        first_row = page.locator("#pairings tbody tr").first
        assert first_row.get_attribute("data-table") == str(mine.number)
        assert "mine" in first_row.get_attribute("class")
        assert "Player 01" in first_row.inner_text()
        assert page.evaluate(FITS)
        page.fill("#pairings-search", "player 07")
        visible = page.locator("#pairings tbody tr:visible")
        assert visible.count() == 1 and "Player 07" in visible.inner_text()

        log_in(page, base, "judy", f"/tournaments/{pk}/rounds/1/manage/")
        table = round_.pod_tables.get(number=1)
        seats = list(table.seats.order_by("seat"))
        for place, seat in zip((2, 1, 3, 4), seats, strict=True):
            page.fill(f"#place-1-{seat.registration_id}", str(place))
        page.click("#table-1 button[type=submit]")
        page.wait_for_selector(".messages li.success")
        assert "Table 1: placings saved." in page.locator(".messages").inner_text()
        assert [s.placing for s in table.seats.order_by("seat")] == [2, 1, 3, 4]
        assert page.evaluate(FITS)
    finally:
        context.close()
