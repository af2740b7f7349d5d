"""In a real browser on a phone-sized screen: a player reports their pod table's
placings on "my match", and each tablemate confirms them there until the table is placed."""

import pytest

from tests.tournaments.pod_helpers import make_event, published
from tests.tournaments.test_pages_browser import log_in
from tournaments import services
from tournaments.models import PodReport

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

FITS = "document.documentElement.scrollWidth <= window.innerWidth + 1"


def test_a_player_reports_the_placings_and_the_tablemates_confirm(
    live_server, browser, organiser, judge, make_player
):
    event = make_event(organiser, judge, swiss_rounds=3)
    for i in range(1, 8):
        player = make_player(f"Player {i:02d}")
        services.register(tournament=event, player=player, by=player.user)
    round_ = published(event, organiser, judge)
    table = round_.pod_tables.get(size=3)
    seats = list(table.seats.select_related("registration__player__user").order_by("seat"))
    places = {seats[0].registration_id: "2", seats[1].registration_id: "1"}
    places[seats[2].registration_id] = "3"
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(15000)
    try:
        base, address = live_server.url, f"/tournaments/{event.pk}/my-match/"
        log_in(page, base, seats[0].registration.player.user.username, address)
        assert f"Table {table.number}" in page.locator("#my-table").inner_text()
        for registration_id, place in places.items():
            page.select_option(f"#id_pod_place_{registration_id}", place)
        page.click("#pod-report-form button[type=submit]")
        page.wait_for_selector(".messages li.success")
        assert page.locator("#waiting").is_visible()
        assert page.evaluate(FITS)

        for seat in seats[1:]:
            log_in(page, base, seat.registration.player.user.username, address)
            reported = page.locator("#reported-placings").inner_text()
            assert "Player" in reported and seats[0].registration.player.display_name in reported
            page.click("#confirm-form button[type=submit]")
            page.wait_for_selector(".messages li.success")
        assert "the table is placed" in page.locator(".messages").inner_text()
        assert page.locator("#table-state").inner_text().strip() == "Placed"
        assert [s.placing for s in table.seats.order_by("seat")] == [2, 1, 3]
        assert PodReport.objects.get(table=table).status == PodReport.Status.CONFIRMED
        assert page.evaluate(FITS)
    finally:
        context.close()
