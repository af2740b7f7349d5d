"""Team events on the pages: the event form's setting, registering a team (organiser and
captain) with its errors, accepting, a team's page, team names in pairings, the judges'
queue and the standings, and constant query counts."""

import datetime
import random

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.models import GameSession
from tests.conftest import random_dice_set
from tournaments import services
from tournaments.models import Registration, SetSwap, Team, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(organiser, judge):
    event = services.create_tournament(
        organiser=organiser,
        name="Team Night",
        date=datetime.date(2026, 12, 5),
        head_judge=judge,
        team_size=2,
    )
    return services.change_status(tournament=event, to=Tournament.Status.REGISTRATION, by=organiser)


@pytest.fixture
def people(make_player):
    rng = random.Random(4)
    made = []
    for i in range(12):
        player = make_player(f"Q{i:02d}")
        dice_set = random_dice_set(player, rng)
        made.append((player, dice_set))
    return made


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_event_form_makes_a_team_event(organiser):
    client = _client(organiser)
    page = client.get("/tournaments/new/").content.decode()
    assert 'name="team_size"' in page
    answer = client.post(
        "/tournaments/new/",
        {
            "name": "Teams",
            "date": "2026-12-05",
            "game": "irondie",
            "team_size": "3",
            "top_cut_size": 0,
            "late_entry": "losses",
            "percentage_floor": "1/3",
        },
    )
    assert answer.status_code == 302, answer.content.decode()[:2000]
    assert Tournament.objects.get(name="Teams").team_size == 3
    refused = client.post(
        "/tournaments/new/",
        {
            "name": "Dice teams",
            "date": "2026-12-05",
            "game": "36d6",
            "team_size": "2",
            "top_cut_size": 0,
            "late_entry": "losses",
            "percentage_floor": "1/3",
        },
    )
    assert refused.status_code == 200
    assert "Team events are IRONDIE events" in refused.content.decode()
    assert not Tournament.objects.filter(name="Dice teams").exists()


def test_organiser_registers_a_team_on_the_page(event, people, organiser):
    client = _client(organiser)
    url = f"/tournaments/{event.pk}/teams/"
    page = client.get(url).content.decode()
    assert "Register a team" in page and "Q00 — Main" in page  # the set suggestions
    answer = client.post(
        url, {"name": "Reds", "set_1": f"#{people[0][1].pk}", "set_2": "Q01 — Main"}
    )
    team = Team.objects.get()
    assert answer.status_code == 302 and answer["Location"].endswith(f"/teams/{team.pk}/")
    assert team.unit.player == people[0][0] and team.members.count() == 2
    shown = client.get(url).content.decode()
    assert "Reds" in shown and "Q01" in shown
    home = client.get(f"/tournaments/{event.pk}/").content.decode()
    assert f"teams of {event.team_size}" in home


def test_page_errors_are_shown_and_change_nothing(event, people, organiser):
    client = _client(organiser)
    url = f"/tournaments/{event.pk}/teams/"
    client.post(url, {"name": "Reds", "set_1": people[0][1].pk, "set_2": people[1][1].pk})
    same_player = client.post(
        url, {"name": "Blues", "set_1": people[2][1].pk, "set_2": people[2][1].pk}
    )
    assert "A player is named twice in this team." in same_player.content.decode()
    taken = client.post(url, {"name": "reds", "set_1": people[2][1].pk, "set_2": people[3][1].pk})
    assert "already registered in this event" in taken.content.decode()
    unknown = client.post(url, {"name": "Greens", "set_1": "nobody at all", "set_2": ""})
    assert "Choose a player and set from the suggestions" in unknown.content.decode()
    assert Team.objects.count() == 1 and Registration.objects.count() == 2


def test_captain_registers_teammate_accepts_on_the_page(event, people):
    (cap, cap_set), (mate, mate_set) = people[0], people[1]
    client = _client(cap.user)
    url = f"/tournaments/{event.pk}/teams/"
    page = client.get(url).content.decode()
    assert "Your dice set (you are the captain)" in page
    assert "Q05 — Main" not in page  # a player gets no list of everyone's sets
    answer = client.post(url, {"name": "Ours", "set_1": cap_set.pk, "set_2": f"#{mate_set.pk}"})
    team = Team.objects.get()
    assert answer.status_code == 302
    assert not team.members.get(player=mate).team_accepted
    team_url = f"/tournaments/{event.pk}/teams/{team.pk}/"
    waiting = _client(mate.user).get(team_url).content.decode()
    assert "Accept my place in this team" in waiting and "Waiting for every member" in waiting
    stranger = _client(people[2][0].user)
    assert stranger.post(f"{team_url}do/accept/").status_code == 403
    _client(mate.user).post(f"{team_url}do/accept/")
    assert team.members.get(player=mate).team_accepted
    assert "Waiting for every member" not in client.get(team_url).content.decode()


def test_team_pages_404_in_an_individual_event(tournament, organiser):
    assert _client(organiser).get(f"/tournaments/{tournament.pk}/teams/").status_code == 404


def _register(event, people, organiser, count, first=0):
    for i in range(first, first + count):
        pairs = people[2 * i : 2 * i + 2]
        services.register_team(
            tournament=event, name=f"Team {i}", captain=pairs[0][0], members=pairs, by=organiser
        )


def test_team_names_in_pairings_queue_and_standings(event, people, organiser, judge):
    _register(event, people, organiser, 4)
    round_ = services.pair_next_round(tournament=event, by=organiser, seed="p")
    services.publish_round(round_=round_, by=organiser)
    services.start_round(round_=round_, by=judge)
    match = round_.matches.first()
    captain = match.player_a.player
    submission = services.report_result(match=match, by=captain.user, games=["a", "b", "a"])
    staff = _client(judge)
    pairings = staff.get(f"/tournaments/{event.pk}/rounds/1/").content.decode()
    queue = staff.get(f"/tournaments/{event.pk}/results/").content.decode()
    for page in (pairings, queue):
        assert all(f"Team {i}" in page for i in range(4))
        assert "Q00" not in page  # the captain's own name does not stand for the team
    team = Team.objects.get(unit=match.player_a)
    shown = staff.get(f"/tournaments/{event.pk}/teams/{team.pk}/").content.decode()
    assert "Q00" in shown or captain.display_name in shown
    services.confirm_result(submission=submission, by=match.player_b.player.user)
    standings = staff.get(f"/tournaments/{event.pk}/standings/").content.decode()
    assert all(f"Team {i}" in standings for i in range(4))
    shown = staff.get(f"/tournaments/{event.pk}/teams/{team.pk}/").content.decode()
    assert "2-1" in shown and "Won" in shown


def test_team_pages_load_in_constant_queries(event, people, organiser, judge):
    client = _client(organiser)

    def count(path):
        with CaptureQueriesContext(connection) as queries:
            assert client.get(path).status_code == 200
        return len(queries)

    _register(event, people, organiser, 2)
    listing = count(f"/tournaments/{event.pk}/teams/")
    _register(event, people, organiser, 4, first=2)
    assert count(f"/tournaments/{event.pk}/teams/") == listing
    round_ = services.pair_next_round(tournament=event, by=organiser, seed="c")
    services.publish_round(round_=round_, by=organiser)
    services.start_round(round_=round_, by=judge)
    team = Team.objects.get(unit=round_.matches.first().player_a)
    page = f"/tournaments/{event.pk}/teams/{team.pk}/"
    one = count(page)
    for match in round_.matches.filter(player_b__isnull=False):
        services.report_result(match=match, by=judge, games=["a", "a"])
    services.close_round(round_=round_, by=organiser)
    second = services.pair_next_round(tournament=event, by=organiser, seed="c2")
    services.publish_round(round_=second, by=organiser)
    assert count(page) == one
    # The pairings of a round of 3 team matches and of one of 1 (another event).
    pairings = count(f"/tournaments/{event.pk}/rounds/1/")
    small = services.create_tournament(
        organiser=organiser, name="Small", date=datetime.date(2026, 12, 6), team_size=2
    )
    services.change_status(tournament=small, to=Tournament.Status.REGISTRATION, by=organiser)
    _register(small, people, organiser, 2)
    only = services.pair_next_round(tournament=small, by=organiser, seed="s")
    services.publish_round(round_=only, by=organiser)
    assert count(f"/tournaments/{small.pk}/rounds/1/") == pairings


def test_a_member_sees_the_team_match_and_swaps_their_own_dice(event, people, organiser, judge):
    _register(event, people, organiser, 2)
    round_ = services.pair_next_round(tournament=event, by=organiser, seed="m")
    services.publish_round(round_=round_, by=organiser)
    services.start_round(round_=round_, by=judge)
    match = round_.matches.get()
    team = Team.objects.get(unit=match.player_a)
    member = team.members.exclude(pk=team.unit_id).select_related("player").get()
    client = _client(member.player.user)
    page = client.get(f"/tournaments/{event.pk}/my-match/").content.decode()
    assert "You play for Team" in page and 'id="result-form"' not in page
    # The opponent is the other team, by its name (not its captain's).
    other = Team.objects.get(unit=match.player_b)
    for viewer in (client, _client(team.unit.player.user)):
        mine = viewer.get(f"/tournaments/{event.pk}/my-match/").content.decode()
        assert f'<strong id="opponent">{other.name}</strong>' in mine
    answer = client.post(
        f"/tournaments/{event.pk}/my-match/", {"action": "swap", "swap_out": [2], "swap_in": [1]}
    )
    assert answer.status_code == 302
    swap = SetSwap.objects.get()
    assert swap.registration_id == member.pk and swap.match_id == match.pk
    # The captain's page has the report form; every member may play the match online
    # (one game with all four seated, docs/online-play.md "Team matches").
    captain = _client(team.unit.player.user)
    assert 'id="result-form"' in captain.get(f"/tournaments/{event.pk}/my-match/").content.decode()
    assert 'id="play-online-form"' in page
    opened = client.post(f"/tournaments/{event.pk}/my-match/", {"action": "play_online"})
    session = GameSession.objects.get()
    assert opened.status_code == 302 and opened["Location"] == f"/games/{session.pk}/"
    again = captain.post(f"/tournaments/{event.pk}/my-match/", {"action": "play_online"})
    assert again["Location"] == f"/games/{session.pk}/" and session.seat_count == 4
    waiting = client.get(f"/games/{session.pk}/").content.decode()
    assert "every player of both teams is ready" in waiting and "I am ready" in waiting
    # Teams face teams: the heading names both teams, not their members.
    other = Team.objects.get(unit=match.player_b)
    assert f"<strong>{team.name}</strong> vs <strong>{other.name}</strong>" in waiting
    assert " &amp; " not in waiting


def test_console_and_home_lead_to_the_teams(event, people, organiser):
    _register(event, people, organiser, 1)
    console = _client(organiser).get(f"/tournaments/{event.pk}/console/").content.decode()
    assert 'id="teams-link"' in console and 'id="register-form"' not in console
    assert "captain of Team 0" in console
    home = _client(people[5][0].user).get(f"/tournaments/{event.pk}/").content.decode()
    assert 'id="register-team-link"' in home and 'id="self-register"' not in home


def test_opponent_members_swaps_stay_secret_until_their_game(event, people, organiser, judge):
    _register(event, people, organiser, 2)
    round_ = services.pair_next_round(tournament=event, by=organiser, seed="s")
    services.publish_round(round_=round_, by=organiser)
    services.start_round(round_=round_, by=judge)
    match = round_.matches.get()
    team_a = Team.objects.get(unit=match.player_a)
    team_b = Team.objects.get(unit=match.player_b)
    mate_b = team_b.members.exclude(pk=team_b.unit_id).select_related("player").get()
    swap = services.record_swap(
        registration=mate_b, match=match, swap_out=[3], swap_in=[2], by=mate_b.player.user
    )
    watcher = _client(team_a.unit.player.user)
    url = f"/tournaments/{event.pk}/my-match/"
    assert f'data-swap="{swap.pk}"' not in watcher.get(url).content.decode()
    services.start_game(match=match, by=judge, number=1)
    assert f'data-swap="{swap.pk}"' in watcher.get(url).content.decode()
    # The API's "my match" of a member is the team's match.
    from tests.conftest import api_as

    mine = api_as(mate_b.player.user).get(f"/api/tournaments/{event.pk}/my-match/")
    assert mine.status_code == 200 and mine.json()["id"] == match.pk


@pytest.fixture
def trio_event(organiser, judge):
    event = services.create_tournament(
        organiser=organiser,
        name="Trios",
        date=datetime.date(2026, 12, 5),
        head_judge=judge,
        team_size=3,
    )
    return services.change_status(tournament=event, to=Tournament.Status.REGISTRATION, by=organiser)


def test_a_waiting_team_says_so_once_and_a_complete_one_says_it_is_complete(
    trio_event, people, organiser
):
    captain = people[0][0]
    waiting = services.register_team(
        tournament=trio_event, name="Waiting", captain=captain, members=people[:3], by=captain.user
    )
    services.register_team(
        tournament=trio_event,
        name="Ready",
        captain=people[3][0],
        members=people[3:6],
        by=organiser,
    )
    page = _client(organiser).get(f"/tournaments/{trio_event.pk}/teams/").content.decode()
    rows = {
        name: row
        for row in page.split("<tr>")[2:]
        for name in ("Waiting", "Ready")
        if f">{name}</a>" in row
    }
    # Two members have not accepted: the team's state is said once, not once a member.
    assert rows["Waiting"].count("Waiting for its members") == 1
    assert "Complete" in rows["Ready"] and "Waiting for its members" not in rows["Ready"]
    services.accept_team(
        registration=waiting.members.get(player=people[1][0]), by=people[1][0].user
    )
    page = _client(organiser).get(f"/tournaments/{trio_event.pk}/teams/").content.decode()
    assert page.count("Waiting for its members") == 1


def test_a_player_in_a_team_or_without_a_set_gets_no_unusable_form(
    event, people, organiser, make_player
):
    cap, mate = people[0], people[1]
    team = services.register_team(
        tournament=event, name="Ours", captain=cap[0], members=[cap, mate], by=cap[0].user
    )
    url = f"/tournaments/{event.pk}/teams/"
    for member in (cap[0], mate[0]):
        page = _client(member.user).get(url).content.decode()
        # Their sets are taken: no form with an empty list, but a way to their team.
        assert 'id="team-form"' not in page and 'id="own-team"' in page
        assert f"/teams/{team.pk}/" in page
        refused = _client(member.user).post(url, {"name": "Second", "set_1": cap[1].pk})
        assert refused.status_code == 403
    setless = make_player("Setless")
    page = _client(setless.user).get(url).content.decode()
    assert 'id="team-form"' not in page and 'id="no-set"' in page and "/me/dice-sets/new/" in page
    free = _client(people[4][0].user).get(url).content.decode()
    assert 'id="team-form"' in free and 'id="no-set"' not in free
    assert Team.objects.count() == 1


def test_a_named_teammate_learns_of_the_team_on_the_event_page(event, people):
    cap, mate = people[0], people[1]
    team = services.register_team(
        tournament=event, name="Ours", captain=cap[0], members=[cap, mate], by=cap[0].user
    )
    home = f"/tournaments/{event.pk}/"
    page = _client(mate[0].user).get(home).content.decode()
    assert "You are named in team “Ours”: accept or decline" in page
    assert f'href="/tournaments/{event.pk}/teams/{team.pk}/"' in page
    services.accept_team(registration=team.members.get(player=mate[0]), by=mate[0].user)
    page = _client(mate[0].user).get(home).content.decode()
    assert "You play in team “Ours”." in page and "accept or decline" not in page


def test_registered_sets_show_each_member_s_team_and_a_dropped_team(
    event, people, organiser, judge
):
    _register(event, people, organiser, 4)
    round_ = services.pair_next_round(tournament=event, by=organiser, seed="sets")
    services.publish_round(round_=round_, by=organiser)
    services.start_round(round_=round_, by=judge)
    dropped = Team.objects.get(name="Team 3")
    services.drop(registration=dropped.unit, by=organiser)
    client = _client(judge)
    url = f"/tournaments/{event.pk}/sets/"
    with CaptureQueriesContext(connection) as queries:
        page = client.get(url).content.decode()
    cards = page.split('<li class="card">')[1:]
    assert len(cards) == 8
    # Team by team, the captain first, each member with their team's name.
    assert [c.split("</strong>")[0].removeprefix("<strong>") for c in cards][:2] == ["Q00", "Q01"]
    for i, card in enumerate(cards):
        assert f"(team “Team {i // 2}”)" in card
        assert ('class="badge">dropped' in card) == (i // 2 == 3)
    _register(event, people, organiser, 1, first=4)  # a late team: no more queries
    with CaptureQueriesContext(connection) as more:
        client.get(url)
    assert len(more) == len(queries)


def test_every_member_finds_the_team_table_on_the_pairings_page(event, people, organiser, judge):
    _register(event, people, organiser, 2)
    round_ = services.pair_next_round(tournament=event, by=organiser, seed="m")
    services.publish_round(round_=round_, by=organiser)
    match = round_.matches.get()
    team = Team.objects.get(unit=match.player_a)
    other = Team.objects.get(unit=match.player_b)
    member = team.members.exclude(pk=team.unit_id).select_related("player").get()
    for user in (member.player.user, team.unit.player.user):
        page = _client(user).get(f"/tournaments/{event.pk}/rounds/1/").content.decode()
        card = page.split('id="my-table"', 1)[1].split("</p>", 1)[0]
        # The team's table, against the other team by its name (not its captain's).
        assert f'<strong class="table-no">{match.table}</strong>' in card, card
        assert f"against {other.name}" in card and other.unit.player.display_name not in card
        assert 'class="mine"' in page


def test_pairings_and_standings_of_a_team_event_speak_of_teams(event, people, organiser, judge):
    _register(event, people, organiser, 2)
    round_ = services.pair_next_round(tournament=event, by=organiser, seed="w")
    services.publish_round(round_=round_, by=organiser)
    client = _client(people[0][0].user)
    pairings = client.get(f"/tournaments/{event.pk}/rounds/1/").content.decode()
    assert "<th>Team A</th><th>Team B</th>" in pairings and "Player A" not in pairings
    assert 'placeholder="Find a team by name"' in pairings
    assert "each team's match points" in pairings
    by_name = client.get(f"/tournaments/{event.pk}/rounds/1/?sort=name").content.decode()
    assert "<th>Team</th><th>Table</th><th>Opponent</th>" in by_name
    standings = client.get(f"/tournaments/{event.pk}/standings/").content.decode()
    assert "<th>#</th><th>Team</th><th>Points</th>" in standings
    assert "<th>Player</th>" not in standings
