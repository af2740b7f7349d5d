"""In Chromium on a phone (390 px): a pod event's and a team event's pages as their
players see them keep to the screen's width with long names (up to the 80 characters a
name may have): a team's name in the result form's choices ("… won"), a name of one long
word in a heading, a table's seat list and the list of games. Nothing scrolls sideways
and every form control stays on screen; the game's log shows its line numbers whole."""

import random

import pytest

from games import services as game_services
from games.engines import engine_for
from games.models import GameSession
from tests.tournaments.pod_helpers import make_event, published
from tests.tournaments.test_pages_browser import log_in
from tests.tournaments.test_team_online import _team_event
from tournaments import services
from tournaments.models import PodSeat, Team

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

FITS = "document.documentElement.scrollWidth <= window.innerWidth + 1"
# Every form control (select, input, button) within the screen's width.
CONTROLS_ON_SCREEN = """() => [...document.querySelectorAll('main select, main input:not([type=hidden]), main button')]
  .filter(e => e.getClientRects().length)
  .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)
  .map(e => e.id || e.name || e.tagName)"""
ONE_WORD = "Bartholomew" + "Featherstonehaugh" + "Williamson"  # 38 letters, no space


def _fits(page, path):
    assert page.evaluate(FITS), f"{path} scrolls sideways on a phone"
    assert page.evaluate(CONTROLS_ON_SCREEN) == [], f"{path}: controls off screen"


def test_a_team_events_pages_fit_a_phone_with_long_team_names(
    live_server, page, organiser, judge, make_player
):
    event, round_ = _team_event(make_player, organiser, judge)
    match = round_.matches.select_related("player_a__team", "player_b__team").get()
    Team.objects.filter(pk=match.player_a.team_id).update(
        name="The Extraordinarily Long-Named Owls of Wisdom"
    )
    Team.objects.filter(pk=match.player_b.team_id).update(name=f"{ONE_WORD} Dragons")
    base, pk = live_server.url, event.pk
    captain = match.player_a.player.user
    # The captain's report form: each game's choice names a team ("… won").
    log_in(page, base, captain.username, f"/tournaments/{pk}/my-match/")
    assert "Owls of Wisdom won" in page.locator("#id_game_1").inner_text()
    _fits(page, "my-match")
    for path in (
        f"/tournaments/{pk}/teams/{match.player_b.team_id}/",
        f"/tournaments/{pk}/teams/",
        f"/tournaments/{pk}/rounds/1/",
    ):
        page.goto(f"{base}{path}")
        _fits(page, path)


def test_a_pod_events_pages_fit_a_phone_with_a_one_word_name(
    live_server, page, organiser, judge, make_player
):
    event = make_event(organiser, judge, pods_online=True, swiss_rounds=3)
    players = [make_player(name) for name in (ONE_WORD, "Ann", "Bea", "Cid")]
    for player in players:
        services.register(tournament=event, player=player, by=player.user)
    round_ = published(event, organiser, judge)
    table = PodSeat.objects.get(registration__player=players[1], round=round_).table
    session = GameSession.objects.get(pod_game__table=table)
    base, pk = live_server.url, event.pk
    log_in(page, base, players[1].user.username, f"/tournaments/{pk}/my-table/")
    assert ONE_WORD in page.locator("#tablemates").inner_text()
    _fits(page, "my-table")
    for path in (f"/tournaments/{pk}/rounds/1/", f"/games/{session.pk}/", "/games/"):
        page.goto(f"{base}{path}")
        _fits(page, path)


# The widest number the log's list shows (it shows the last 30 lines) and the marker's
# space after it, in the list's own font, against the room the list leaves for it.
MARKER_ROOM = """() => {
  const ol = document.querySelector('#game .events ol');
  const probe = document.createElement('span');
  probe.textContent = '30. ';
  probe.style.font = getComputedStyle(ol).font;
  probe.style.whiteSpace = 'pre';
  document.body.appendChild(probe);
  const wanted = probe.getBoundingClientRect().width;
  probe.remove();
  return {wanted, room: parseFloat(getComputedStyle(ol).paddingLeft), lines: ol.children.length};
}"""


def test_the_game_log_shows_two_digit_line_numbers_whole(
    live_server, page, organiser, judge, make_player
):
    event = make_event(organiser, judge, pods_online=True, swiss_rounds=3)
    players = [make_player(name) for name in ("Ann", "Bea", "Cid")]
    for player in players:
        services.register(tournament=event, player=player, by=player.user)
    round_ = published(event, organiser, judge)
    session = GameSession.objects.get(pod_game__table__round=round_)
    users = {seat: session_user for seat, session_user in _seated(session)}
    for user in users.values():
        game_services.mark_ready(session=session, by=user)
    engine, rng = engine_for(session.engine), random.Random(4)
    for _ in range(12):
        session.refresh_from_db()
        state = game_services.state_of(session)
        seat = min(engine.to_act(state))
        game_services.submit_action(
            session=session,
            by=users[seat],
            action=rng.choice(engine.legal_actions(state, seat)),
            expected_version=session.version,
        )
    log_in(page, live_server.url, users[0].username, f"/games/{session.pk}/")
    room = page.evaluate(MARKER_ROOM)
    assert room["lines"] >= 10, room
    # The list scrolls (overflow), so a marker wider than its room is cut off on the left.
    assert room["wanted"] <= room["room"], room
    _fits(page, "game")


def _seated(session):
    from django.contrib.auth import get_user_model

    ids = [session.user_0_id, session.user_1_id] + [e["user"] for e in session.extra_seats]
    by_id = get_user_model().objects.in_bulk(ids)
    return [(seat, by_id[ids[seat]]) for seat in session.seats]


def test_a_pod_events_judges_pages_fit_a_phone(live_server, page, organiser, judge, make_player):
    """The judges' clocks and the table slips hold their tables in a box that scrolls (as
    the two-player pages do), and a column's hidden name (the results queue's "Actions")
    stays inside its box: none of the judges' pages scrolls sideways as a whole."""
    event = make_event(organiser, judge, pods_online=True, swiss_rounds=3)
    players = [make_player(name) for name in (ONE_WORD, "Ann", "Bea", "Cid", "Dee", "Eve", "Fay")]
    for player in players:
        services.register(tournament=event, player=player, by=player.user)
    published(event, organiser, judge)
    base, pk = live_server.url, event.pk
    log_in(page, base, judge.username, f"/tournaments/{pk}/")
    _fits(page, "home")
    for path in (
        f"/tournaments/{pk}/rounds/1/clocks/",
        f"/tournaments/{pk}/results/",
        f"/tournaments/{pk}/rounds/1/slips/",
        f"/tournaments/{pk}/rounds/1/manage/",
        f"/tournaments/{pk}/console/",
    ):
        page.goto(f"{base}{path}")
        assert page.evaluate(FITS), f"{path} scrolls sideways on a phone"
    # The clocks' extension forms are reachable by scrolling their box.
    page.goto(f"{base}/tournaments/{pk}/rounds/1/clocks/")
    reach = page.evaluate("""() => {
      const box = document.getElementById('pod-clocks').closest('.scroll');
      box.scrollLeft = box.scrollWidth;
      const button = box.querySelector('.table-extend button').getBoundingClientRect();
      return {box: box.getBoundingClientRect().right, button: [button.left, button.right],
              screen: window.innerWidth};
    }""")
    assert reach["box"] <= reach["screen"] + 1, reach
    assert reach["button"][0] >= 0 and reach["button"][1] <= reach["screen"] + 1, reach
