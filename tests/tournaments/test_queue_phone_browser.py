"""In Chromium on a phone (390 px): the judges' results queue, of a two-player event and of
an event in pods, shows each status badge on one line ("No report yet", "Reported,
awaiting confirmation" are never broken word by word), every row's links on the screen
without scrolling a box sideways, and the page no wider than the screen. Every button
there and on the console (buttons drawn as links too: "Accept these placings", "Drop",
"Log out") and the console's drop reason are at least 32 px high, to be tapped. The
event page's list of rounds keeps each round's links whole on the screen."""

import pytest

from tests.tournaments.pod_helpers import make_event, published
from tests.tournaments.test_pages_browser import log_in
from tournaments import services

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

FITS = "document.documentElement.scrollWidth <= window.innerWidth + 1"
# A badge taller than one line of its text (and its padding) has broken over lines.
BADGES_OVER_LINES = """() => [...document.querySelectorAll('#queue .badge')].filter(b => {
  const style = getComputedStyle(b);
  const line = parseFloat(style.lineHeight) + parseFloat(style.paddingTop)
    + parseFloat(style.paddingBottom);
  return b.getBoundingClientRect().height > line + 1;
}).map(b => b.textContent)"""
BADGES = "() => [...document.querySelectorAll('#queue .badge')].map(b => b.textContent)"
# A row's links and buttons, each whole within the screen as the page first shows it.
ACTIONS_OFF_SCREEN = """() => [...document.querySelectorAll('#queue a, #queue button')]
  .filter(e => { const r = e.getBoundingClientRect();
                 return r.left < 0 || r.right > window.innerWidth + 1; })
  .map(e => e.textContent)"""
# Buttons (and the text boxes beside them) shorter than a finger can safely tap.
TOO_SMALL_TO_TAP = """() => [...document.querySelectorAll(
    'button, .button, input:not([type=hidden]):not([type=checkbox]):not([type=radio]), select')]
  .filter(e => e.getClientRects().length && !e.closest('.visually-hidden'))
  .filter(e => e.getBoundingClientRect().height < 32)
  .map(e => (e.textContent || e.name).trim())"""
LONG_NAMES = ["Maximiliana Oppenheimer-Castellanos", "Bartholomew Featherstonehaugh"]


def _check_queue(page, path):
    assert page.evaluate(FITS), f"{path} scrolls sideways on a phone"
    assert page.evaluate(BADGES_OVER_LINES) == [], path
    assert page.evaluate(ACTIONS_OFF_SCREEN) == [], path
    assert page.evaluate(TOO_SMALL_TO_TAP) == [], path


def test_a_two_player_queue_keeps_its_badges_whole_on_a_phone(
    live_server, page, tournament, register_players, organiser, judge
):
    registrations = register_players(tournament, 8)
    for registration, name in zip(registrations, LONG_NAMES, strict=False):
        registration.player.display_name = name
        registration.player.save(update_fields=["display_name"])
    round_ = services.pair_next_round(tournament=tournament, by=organiser, seed="c")
    services.publish_round(round_=round_, by=organiser)
    services.start_round(round_=round_, by=judge)
    matches = list(round_.matches.select_related("player_a__player__user").order_by("table"))
    services.report_result(match=matches[0], by=matches[0].player_a.player.user, games=["a", "a"])
    services.report_result(match=matches[1], by=judge, games=["a", "b", "a"])
    path = f"/tournaments/{tournament.pk}/results/"
    log_in(page, live_server.url, judge.username, path)
    shown = page.evaluate(BADGES)
    assert "Reported, awaiting confirmation" in shown and "Awaiting result" in shown, shown
    _check_queue(page, path)


def test_a_pod_queue_keeps_its_badges_whole_on_a_phone(
    live_server, page, organiser, judge, make_player
):
    event = make_event(organiser, judge, swiss_rounds=3)
    names = [*LONG_NAMES, "Ann", "Bea", "Cid", "Dee", "Eve"]
    for name in names:
        player = make_player(name)
        services.register(tournament=event, player=player, by=player.user)
    round_ = published(event, organiser, judge)
    table = round_.pod_tables.get(size=4)
    seats = list(table.seats.select_related("registration__player__user").order_by("seat"))
    services.report_placings(
        table=table,
        by=seats[0].registration.player.user,
        placings={seat.registration_id: seat.seat for seat in seats},
    )
    path = f"/tournaments/{event.pk}/results/"
    log_in(page, live_server.url, judge.username, path)
    shown = page.evaluate(BADGES)
    assert "No report yet" in shown and "Reported" in shown, shown
    assert page.locator("#queue button", has_text="Accept these placings").count() == 1
    _check_queue(page, path)


def test_the_consoles_drop_buttons_are_big_enough_to_tap(
    live_server, page, tournament, register_players, organiser
):
    register_players(tournament, 3)
    path = f"/tournaments/{tournament.pk}/console/"
    log_in(page, live_server.url, organiser.username, path)
    assert page.locator("#registrations .drop-form button").count() == 3
    assert page.evaluate(FITS)
    assert page.evaluate(TOO_SMALL_TO_TAP) == []


def test_the_events_rounds_keep_their_links_on_a_phone(
    live_server, page, tournament, register_players, organiser, judge
):
    """The event's page lists its rounds with four links each for a judge (pairings,
    clock, judges' clocks, manage): on a phone each round's links take a line of their
    own, whole and on the screen, rather than a column squeezed to a word."""
    register_players(tournament, 4)
    round_ = services.pair_next_round(tournament=tournament, by=organiser, seed="c")
    services.publish_round(round_=round_, by=organiser)
    path = f"/tournaments/{tournament.pk}/"
    log_in(page, live_server.url, judge.username, path)
    links = page.locator("#rounds a")
    assert links.count() == 4
    assert page.evaluate(FITS)
    boxes = [links.nth(i).bounding_box() for i in range(4)]
    for box in boxes:
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, boxes
        assert box["height"] < 30, boxes  # one line each: never broken over two
    # The round's number says what it is, its column name being hidden.
    first_cell = page.locator("#rounds tbody td").first.evaluate(
        "e => getComputedStyle(e, '::before').content.replaceAll('\"', '') + e.textContent"
    )
    assert first_cell == "Round 1"
