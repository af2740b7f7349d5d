"""In Chromium at a phone's width (390 px): the standings of an event in pods and of an
event of pairs fit their box without scrolling sideways and cut no column; the figures
whose columns a phone leaves out are on a line under each name, named, so every figure
is still on the screen. At a desktop's width the columns are back and the line is not."""

import random

import pytest

from players.models import Player
from tests.tournaments.conftest import play_round_by_judge
from tests.tournaments.pod_helpers import make_event, place_all, published
from tests.tournaments.test_phone_pages_browser import ONE_WORD
from tournaments import services

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

LONG_NAME = "Bartholomew Featherstonehaugh-Williamson of the Northern Isles"

# The table against its box and the screen, and every cell that shows more than fits.
MEASURE = """() => {
  const table = document.getElementById('standings');
  const box = table.closest('.scroll');
  const cut = [...table.querySelectorAll('th, td')]
    .filter(c => c.getClientRects().length)
    .filter(c => c.scrollWidth > c.clientWidth + 1
              || c.getBoundingClientRect().right > box.getBoundingClientRect().right + 1)
    .map(c => c.textContent.trim().slice(0, 40));
  // A rank or points that the narrow column breaks over two lines ("1" above "0").
  const broken = [...table.querySelectorAll('tbody td:nth-child(1), tbody td:nth-child(3)')]
    .filter(c => { const r = document.createRange(); r.selectNodeContents(c);
                   return new Set([...r.getClientRects()].map(x => Math.round(x.top))).size > 1; })
    .map(c => c.textContent.trim());
  const shown = [...table.querySelectorAll('thead th')]
    .filter(c => c.getClientRects().length).map(c => c.textContent.trim());
  return {table: [table.scrollWidth, table.clientWidth], box: [box.scrollWidth, box.clientWidth],
          page: [document.documentElement.scrollWidth, window.innerWidth], cut, broken, shown};
}"""
# Each row's text as a reader sees it on the screen (hidden cells and lines left out).
SEEN = """() => [...document.querySelectorAll('#standings tbody tr')].map(tr => tr.innerText)"""
# Each row's cells as a desktop shows them: the name, then every figure by its column.
COLUMNS = """() => {
  const heads = [...document.querySelectorAll('#standings thead th')].map(th => th.textContent.trim());
  return [...document.querySelectorAll('#standings tbody tr')].map(tr => {
    const cells = [...tr.children];
    const row = {name: cells[1].querySelector('summary, .name') ?
                   cells[1].querySelector('summary, .name').innerText.trim() :
                   cells[1].childNodes[0].textContent.trim()};
    heads.forEach((head, i) => { if (i > 1) row[head] = cells[i].innerText.trim(); });
    return row;
  });
}"""


def _fits(page, label):
    measured = page.evaluate(MEASURE)
    table, box, screen = measured["table"], measured["box"], measured["page"]
    assert table[0] <= table[1], (label, measured)
    assert box[0] <= box[1], (label, measured)
    assert screen[0] <= screen[1], (label, measured)
    assert measured["cut"] == [], (label, measured)
    assert measured["broken"] == [], (label, measured)
    return measured


def _desktop_then_phone(page, address, columns: int):
    """Each row's figures read at a desktop's width (every column shown, no line under
    the name), then the page at 390 px: it fits, and shows only #, name and points."""
    page.set_viewport_size({"width": 1200, "height": 800})
    page.goto(address)
    assert len(page.evaluate(MEASURE)["shown"]) == columns
    assert page.locator("#standings .fold").first.is_hidden()
    wide = page.evaluate(COLUMNS)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(address)
    measured = _fits(page, address)
    assert measured["shown"] == ["#", "Player", "Points"], measured
    seen = page.evaluate(SEEN)
    assert len(seen) == len(wide)
    return wide, seen


def test_the_pod_standings_fit_a_phone_and_show_every_figure(
    live_server, page, organiser, judge, make_player
):
    event = make_event(organiser, judge, swiss_rounds=3)
    players = [make_player(name) for name in (LONG_NAME, ONE_WORD, "Ann", "Bea", "Cid")]
    for player in players:
        services.register(tournament=event, player=player, by=player.user)
    for seed in ("s1", "s2"):
        round_ = published(event, organiser, judge, seed=seed)
        place_all(round_, judge)
        services.close_round(round_=round_, by=organiser)
    services.drop(registration=event.registrations.get(player=players[2]), by=organiser)
    address = f"{live_server.url}/tournaments/{event.pk}/standings/"
    wide, seen = _desktop_then_phone(page, address, 7)
    for row, text in zip(wide, seen, strict=True):
        assert row["name"] in text, (row, text)
        # Every figure of the row is on the phone's screen, each after its column's name.
        assert f"Tables {row['Tables']}" in text, (row, text)
        for column in ("Opp. placing", "Placing", "Opp. opp. placing"):
            assert f"{column} {row[column]}" in text, (column, row, text)


def test_the_standings_of_an_event_of_pairs_fit_a_phone_and_show_every_figure(
    live_server, page, tournament, register_players, organiser, judge
):
    order = ["match_points", "opponents_match_win", "game_win", "opponents_game_win"]
    services.update_tournament(
        tournament=tournament,
        by=organiser,
        tiebreakers=[*order, "buchholz", "opponents_opponents_match_win"],
    )
    registrations = register_players(tournament, 12)  # ranks of two digits
    Player.objects.filter(pk=registrations[0].player_id).update(display_name=LONG_NAME)
    Player.objects.filter(pk=registrations[1].player_id).update(display_name=ONE_WORD)
    rng = random.Random(5)
    for _ in range(2):
        round_ = services.pair_next_round(tournament=tournament, by=organiser, seed="p")
        services.publish_round(round_=round_, by=organiser)
        play_round_by_judge(round_, judge, rng)
        services.close_round(round_=round_, by=organiser)
    address = f"{live_server.url}/tournaments/{tournament.pk}/standings/"
    wide, seen = _desktop_then_phone(page, address, 9)
    for row, text in zip(wide, seen, strict=True):
        assert row["name"] in text, (row, text)
        for column in ("Record", "OMW", "GWP", "OGW", "Buchholz", "OOMW"):
            assert f"{column} {row[column]}" in text, (column, row, text)
    # Opening a row shows its arithmetic, and the table still fits.
    page.locator("#standings summary").first.click()
    page.wait_for_function("document.querySelector('#standings details[open]')")
    _fits(page, "standings with a row open")
