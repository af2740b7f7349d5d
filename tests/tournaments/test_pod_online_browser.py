"""In a real browser on a phone-sized screen: a player of an event whose pod tables are
played online finds their table's game from the round's tables, says they are ready,
plays by clicking while the other two players of the table decide through the service
(one concedes, then the other), sees the placings at the end of the game and on the
standings page."""

import random

import pytest

from games import services as game_services
from games.engines import engine_for
from games.models import GameAction, GameSession
from tests.tournaments.pod_helpers import make_event, published
from tests.tournaments.test_pages_browser import log_in
from tournaments import services
from tournaments.models import PodSeat

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

FITS = "document.documentElement.scrollWidth <= window.innerWidth + 1"
D36 = engine_for("36d6")


def _others_move(session, users, rng):
    """The other seats decide (a random legal action each) until it is seat 0's turn or
    the game is over."""
    while True:
        session.refresh_from_db()
        if session.status != GameSession.Status.ACTIVE:
            return
        state = game_services.state_of(session)
        seat = min(D36.to_act(state))
        if seat == 0:
            return
        game_services.submit_action(
            session=session,
            by=users[seat],
            action=rng.choice(D36.legal_actions(state, seat)),
            expected_version=session.version,
        )


def _click_a_move(page, session):
    """Seat 0's move by clicking, once the page shows the board the others left."""
    session.refresh_from_db()
    version = str(session.version)
    page.wait_for_function(
        "v => document.querySelector('#game .board').dataset.version === v", arg=version
    )
    page.locator("#game .d36-grid td.movable").first.click()
    page.locator("#game .die-row.picked .game-choice").first.click()
    page.wait_for_function(
        "v => document.querySelector('#game .board').dataset.version !== v", arg=version
    )
    assert page.locator("#game .game-error").inner_text() == ""


def test_a_three_seat_table_is_played_online_to_its_placings(
    live_server, browser, organiser, judge, make_player
):
    event = make_event(organiser, judge, pods_online=True)
    players = [make_player(f"Pod {name}") for name in ("Ann", "Bea", "Cid")]
    for player in players:
        services.register(tournament=event, player=player, by=player.user)
    round_ = published(event, organiser, judge)
    table = round_.pod_tables.get()
    session = GameSession.objects.get(pod_game__table=table)
    seats = {
        s.registration.player.user_id: s.seat - 1
        for s in table.seats.select_related("registration__player")
    }
    users = {seats[p.user_id]: p.user for p in players}
    names = {seats[p.user_id]: p.display_name for p in players}
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(15000)
    rng = random.Random(7)
    try:
        base = live_server.url
        log_in(page, base, users[0].username, f"/tournaments/{event.pk}/rounds/1/")
        page.click("#my-table-game")
        page.wait_for_url(f"**/games/{session.pk}/")
        page.wait_for_selector("#game .game-ready")
        page.click("#game .game-ready")
        for seat in (1, 2):
            game_services.mark_ready(session=session, by=users[seat])
        page.wait_for_selector("#game .d36-grid")
        assert page.locator("#game .d36-seat").count() == 3
        # The browser's player sits in seat 0 (the table's seat 1): a few moves by clicking.
        for _ in range(3):
            _others_move(session, users, rng)
            _click_a_move(page, session)
        _others_move(session, users, rng)
        # The table's seat 3 leaves the game; the two others play on.
        game_services.concede(session=session, by=users[2])
        _others_move(session, users, rng)
        _click_a_move(page, session)
        _others_move(session, users, rng)
        game_services.concede(session=session, by=users[1])
        page.wait_for_selector("#game .game-result")
        shown = {
            int(li.get_attribute("data-seat")): int(li.get_attribute("data-placing"))
            for li in page.locator("#game .placings li").all()
        }
        assert shown == {0: 1, 1: 2, 2: 3}  # the later to leave places higher
        assert session.actions.filter(cause=GameAction.Cause.PLAYER, user=users[0]).count() >= 4
        placed = dict(PodSeat.objects.filter(table=table).values_list("seat", "placing"))
        assert placed == {1: 1, 2: 2, 3: 3}
        page.goto(f"{base}/tournaments/{event.pk}/standings/")
        rows = page.locator("main table tbody tr")
        assert rows.count() == 3
        # The name, then (on a phone) the row's other figures on a line under it.
        cells = [rows.nth(i).locator("td").nth(1).inner_text() for i in range(3)]
        assert [cell.splitlines()[0] for cell in cells] == [names[0], names[1], names[2]]
        assert all(cell.splitlines()[1].startswith("Tables 1 · ") for cell in cells), cells
        assert page.evaluate(FITS)
    finally:
        context.close()
