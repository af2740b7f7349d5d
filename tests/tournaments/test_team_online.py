"""Team matches played online (docs/events.md "Team events", docs/online-play.md "Team
matches"): one hosted game per game with every member of both teams seated, captains
first; each member's set with their own swaps; every member ready before a game; bots
decide for each member through the service functions until the match is decided and its
result lands in the match; strangers and other teams refused; the other team never sees
a secret split, and nobody the seed while the game runs."""

import datetime
import random

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from rest_framework.test import APIClient

from config.dbtime import db_now
from games import enforcement
from games import services as game_services
from games.bots import bot_action
from games.clocks import seat_deadlines
from games.engines import engine_for
from games.models import GameSession
from games.selectors import game_state
from tests.conftest import random_dice_set
from tournaments import clocks as t_clocks
from tournaments import selectors
from tournaments import services as t_services
from tournaments.match_rules import online_game_outcome
from tournaments.models import Match, ResultSubmission, Tournament
from tournaments.online import open_match, seat_registrations

pytestmark = pytest.mark.django_db
IRONDIE = engine_for("irondie")


def _team_event(make_player, organiser, judge, teams=2):
    event = t_services.create_tournament(
        organiser=organiser,
        name="Team Online",
        date=datetime.date(2026, 12, 5),
        head_judge=judge,
        team_size=2,
    )
    t_services.change_status(tournament=event, to=Tournament.Status.REGISTRATION, by=organiser)
    rng = random.Random(11)
    for t in range(teams):
        members = []
        for m in range(2):
            player = make_player(f"T{t + 1} M{m + 1}")
            dice_set = random_dice_set(player, rng)
            members.append((player, dice_set))
        t_services.register_team(
            tournament=event,
            name=f"Team {t + 1}",
            captain=members[0][0],
            members=members,
            by=organiser,
        )
    round_ = t_services.pair_next_round(tournament=event, by=organiser, seed="online")
    t_services.publish_round(round_=round_, by=organiser)
    t_services.start_round(round_=round_, by=judge)
    return event, round_


def _open(match) -> GameSession | None:
    return (
        GameSession.objects.filter(match_game__match=match, status__in=game_services.OPEN)
        .order_by("-match_game__number")
        .first()
    )


def _users(match):
    return [r.player.user for r in seat_registrations(match)]


def _play(session, users, *, limit=None) -> int:
    """Heuristic bots decide for every member through ``submit_action`` until the game
    is over (or ``limit`` decisions were made), each from its own seat's view; the game
    limit's sudden death is switched on as the clock would."""
    made = 0
    while limit is None or made < limit:
        session.refresh_from_db()
        if session.status != GameSession.Status.ACTIVE:
            return made
        state = game_services.state_of(session)
        if state.turn >= IRONDIE.SIMULATED_LIMIT_TURN and state.sudden_death_from is None:
            game_services.switch_to_sudden_death(session, db_now(), note="game time limit")
            continue
        seat = min(IRONDIE.to_act(state))
        seen = IRONDIE.alter_hidden(state, seat)
        action = bot_action(IRONDIE, "heuristic", seen, seat, seed=f"t{session.version}")
        game_services.submit_action(
            session=session, by=users[seat], action=action, expected_version=session.version
        )
        made += 1
    return made


def _ready_team_game(make_player, organiser, judge):
    """A team event's match opened online with every member ready (the game has begun)."""
    event, round_ = _team_event(make_player, organiser, judge)
    match = round_.matches.get()
    users = _users(match)
    session = open_match(match=match, by=users[0])
    for user in users:
        game_services.mark_ready(session=session, by=user)
    return event, match, users, session


def test_a_2v2_team_match_is_played_online_to_its_result(make_player, organiser, judge):
    event, round_ = _team_event(make_player, organiser, judge)
    match = round_.matches.select_related("player_a__team", "player_b__team").get()
    seated = seat_registrations(match)
    # Captains on seats 0 and 1, then the members; seat s on team s % 2 (A's team 0).
    assert [r.pk for r in seated[:2]] == [match.player_a_id, match.player_b_id]
    assert [r.team_id for r in seated] == [match.player_a.team_id, match.player_b.team_id] * 2
    users = _users(match)
    mate_a = seated[2]
    # A member who is not the captain may open the match; game 1 waits for all four.
    first = open_match(match=match, by=users[2])
    assert first.status == GameSession.Status.WAITING and first.seat_count == 4
    assert [first.seat_of(u) for u in users] == [0, 1, 2, 3]
    assert first.names == [r.player.display_name for r in seated]
    assert open_match(match=match, by=users[1]).pk == first.pk
    # The member swaps their own set in the window; the game plays the swapped set.
    swap = t_services.record_swap(
        registration=mate_a, match=match, swap_out=[0], swap_in=[0], by=users[2]
    )
    for user in users[:3]:
        game_services.mark_ready(session=first, by=user)
    first.refresh_from_db()
    assert first.status == GameSession.Status.WAITING  # the fourth member is not ready
    game_services.mark_ready(session=first, by=users[3])
    first.refresh_from_db()
    assert first.status == GameSession.Status.ACTIVE
    assert (
        first.config["sets"] == [selectors.playing_set_for_game(r, match, 1) for r in seated]
        and first.config["sets"][2] == swap.playing_after
    )
    assert first.config["game_id"] == f"m{match.pk}-g1"
    outcomes = []
    for number in range(1, 6):
        session = _open(match)
        if session is None:
            break
        assert session.match_game.number == number and session.seat_count == 4
        if session.status == GameSession.Status.WAITING:  # later games: the swap window
            for user in users:
                game_services.mark_ready(session=session, by=user)
            session.refresh_from_db()
        _play(session, users)
        session.refresh_from_db()
        assert session.status == GameSession.Status.FINISHED
        assert game_services.replayed_state(session).to_dict() == session.state
        outcome = online_game_outcome(session.result)
        assert outcome == "ab"[session.result["winning_team"]]
        outcomes.append(outcome)
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED
    assert max(outcomes.count("a"), outcomes.count("b")) == 2
    assert (match.games_a, match.games_b) == (outcomes.count("a"), outcomes.count("b"))
    winner = match.player_a_id if outcomes.count("a") == 2 else match.player_b_id
    assert match.winner_id == winner
    result = ResultSubmission.objects.get(match=match, status=ResultSubmission.Status.CONFIRMED)
    assert result.source == ResultSubmission.Source.SYSTEM and result.games == outcomes
    with pytest.raises(ValidationError, match="match is over"):
        open_match(match=match, by=users[0])


def test_strangers_and_other_teams_are_refused(make_player, organiser, judge):
    event, round_ = _team_event(make_player, organiser, judge, teams=4)
    match, other = list(round_.matches.order_by("table"))
    stranger = make_player("Stranger").user
    for user in (stranger, _users(other)[2], _users(other)[0]):
        with pytest.raises(PermissionDenied):
            open_match(match=match, by=user)
    assert not GameSession.objects.exists()
    session = open_match(match=match, by=judge)  # a judge may open it
    users = _users(match)
    for user in users:
        game_services.mark_ready(session=session, by=user)
    session.refresh_from_db()
    assert session.status == GameSession.Status.ACTIVE
    state = game_services.state_of(session)
    seat = min(IRONDIE.to_act(state))
    action = bot_action(IRONDIE, "heuristic", state, seat, seed="x")
    for user in (stranger, _users(other)[1]):
        with pytest.raises(PermissionDenied):
            game_services.submit_action(session=session, by=user, action=action)
        with pytest.raises(PermissionDenied):
            game_services.mark_ready(session=session, by=user)
    # The game and the match are the team's: a member who is not its captain does not
    # concede them; the captain does, for the whole team.
    for whole_match in (False, True):
        with pytest.raises(PermissionDenied, match="captain"):
            game_services.concede(session=session, by=users[3], whole_match=whole_match)
    game_services.concede(session=session, by=users[1], whole_match=True)
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED and match.winner_id == match.player_a_id


def test_the_other_team_never_sees_a_secret_split_nor_anyone_the_seed(
    make_player, organiser, judge
):
    event, match, users, session = _ready_team_game(make_player, organiser, judge)
    session.refresh_from_db()
    state = game_services.state_of(session)
    assert state.phase == "split" and set(IRONDIE.to_act(state)) == {0, 1, 2, 3}
    # Seat 2 (team A's second member) makes its secret split.
    action = bot_action(IRONDIE, "heuristic", state, 2, seed="split")
    game_services.submit_action(
        session=session, by=users[2], action=action, expected_version=session.version
    )
    session.refresh_from_db()
    secret = game_services.state_of(session).choices[2]
    assert secret is not None
    now = db_now()
    teammate = game_state(session, 0, now)["view"]
    assert "2" in teammate["pending"]
    for viewer in (1, 3, "spectator"):
        seen = game_state(session, viewer, now)
        assert "2" not in seen["view"]["pending"]
        assert seen["view"]["seed"] is None and session.seed not in str(seen)
    assert game_state(session, 0, now)["view"]["seed"] is None
    assert game_state(session, "judge", now)["view"]["seed"] == session.seed


def test_clocks_run_per_decision_and_the_match_limit_ends_the_team_game(
    make_player, organiser, judge
):
    event, round_ = _team_event(make_player, organiser, judge)
    match = round_.matches.get()
    users = _users(match)
    session = open_match(match=match, by=users[0])
    # Nobody readies: the swap window closes and the game starts by itself.
    GameSession.objects.filter(pk=session.pk).update(
        deadline_at=db_now() - datetime.timedelta(seconds=1)
    )
    assert enforcement.enforce_deadline(session.pk) == "started"
    session.refresh_from_db()
    assert session.status == GameSession.Status.ACTIVE
    # Each member has their own decision clock; the overdue ones get the default.
    deadlines = seat_deadlines(session)
    assert len(deadlines) == 4 and all(deadlines)
    late = [(d - datetime.timedelta(hours=1)).isoformat() for d in deadlines]
    late[3] = deadlines[3].isoformat()  # seat 3 still has time
    GameSession.objects.filter(pk=session.pk).update(
        seat_deadlines=late, deadline_at=db_now() - datetime.timedelta(seconds=1)
    )
    assert enforcement.enforce_deadline(session.pk) == "default applied"
    session.refresh_from_db()
    state = game_services.state_of(session)
    assert all(state.choices[seat] is not None for seat in (0, 1, 2))
    assert state.choices[3] is None and IRONDIE.to_act(state) == {3}
    # The game limit: sudden death from the next turn.
    Match.objects.filter(pk=match.pk).update(
        game_deadline_at=db_now() - datetime.timedelta(seconds=1)
    )
    assert t_clocks.enforce_game_deadline(match.pk) == "sudden death"
    # The match limit: the team game ends unfinished and counts for nobody; the Swiss
    # match is decided on the games won (none: a draw).
    t_clocks.set_deadline(match, db_now() - datetime.timedelta(seconds=1))
    assert t_clocks.enforce_match_deadline(match.pk) == "time called"
    session.refresh_from_db()
    assert session.status == GameSession.Status.FINISHED
    assert session.result["reason"] == "match_time_over"
    assert online_game_outcome(session.result) is None
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED and (match.games_a, match.games_b) == (0, 0)
    assert match.winner_id is None


def test_a_judge_pauses_and_awards_a_team_game(make_player, organiser, judge):
    event, match, users, session = _ready_team_game(make_player, organiser, judge)
    with pytest.raises(PermissionDenied):
        game_services.pause_game(session=session, by=users[2])
    game_services.pause_game(session=session, by=judge, reason="a die fell")
    session.refresh_from_db()
    assert session.status == GameSession.Status.PAUSED
    game_services.resume_game(session=session, by=judge)
    # Awarded to seat 3: team B (player B's team) wins game 1; game 2 opens.
    game_services.award_game(session=session, by=judge, winner=3, reason="slow play")
    session.refresh_from_db()
    assert session.result["winning_team"] == 1 and online_game_outcome(session.result) == "b"
    assert session.result["placings"] == [2, 1, 2, 1]
    second = _open(match)
    assert second.match_game.number == 2 and second.seat_count == 4
    assert second.status == GameSession.Status.WAITING


def test_members_open_and_ready_through_the_api(make_player, organiser, judge):
    event, round_ = _team_event(make_player, organiser, judge)
    match = round_.matches.get()
    users = _users(match)
    stranger = APIClient()
    stranger.force_login(make_player("Stranger").user)
    refused = stranger.post("/api/games/", {"match": match.pk}, format="json")
    assert refused.status_code == 403 and not GameSession.objects.exists()
    clients = []
    for user in users:
        client = APIClient()
        client.force_login(user)
        clients.append(client)
    opened = clients[3].post("/api/games/", {"match": match.pk}, format="json")
    assert opened.status_code in (200, 201), opened.json()
    game = opened.json()
    assert game["seat"] == 3 and game["match"] == match.pk and game["status"] == "waiting"
    assert [p["name"] for p in game["players"]] == [
        r.player.display_name for r in seat_registrations(match)
    ]
    assert game["view"] is None  # no sets shown before the start
    assert stranger.post(f"/api/games/{game['id']}/ready/").status_code == 403
    for client in clients:
        answer = client.post(f"/api/games/{game['id']}/ready/")
        assert answer.status_code == 200, answer.json()
    started = clients[2].get(f"/api/games/{game['id']}/").json()
    assert started["status"] == "active" and started["view"]["seats"] == 4
    assert started["view"]["teams"] == [0, 1, 0, 1] and started["view"]["captains"] == [0, 1]
    # The play page draws the four boards for a member and a spectator alike.
    for client in (clients[1], APIClient()):
        html = client.get(f"/games/{game['id']}/").content.decode()
        assert html.count('<section class="side ') == 4
        assert GameSession.objects.get(pk=game["id"]).seed not in html


def test_only_the_captains_are_offered_to_concede_a_team_game(make_player, organiser, judge):
    event, match, users, session = _ready_team_game(make_player, organiser, judge)
    assert GameSession.objects.get(pk=session.pk).status == "active"
    offered = []
    for user in users:
        client = APIClient()
        client.force_login(user)
        html = client.get(f"/games/{session.pk}/").content.decode()
        offered.append('class="game-concede' in html)
    assert offered == [True, True, False, False]  # seats 0 and 1 are the captains


def test_the_play_page_names_the_teams_where_the_team_is_the_subject(make_player, organiser, judge):
    from tournaments.models import Team

    event, round_ = _team_event(make_player, organiser, judge)
    match = round_.matches.select_related("player_a__team", "player_b__team").get()
    Team.objects.filter(pk=match.player_a.team_id).update(name="Red Dragons")
    Team.objects.filter(pk=match.player_b.team_id).update(name="Blue Owls")
    users = _users(match)
    session = open_match(match=match, by=users[0])
    member, spectator = APIClient(), APIClient()
    member.force_login(users[2])
    names = session.names  # seat s on team s % 2; team 0 is player A's (Red Dragons)
    joined = [" &amp; ".join(names[t::2]) for t in (0, 1)]

    def page(client):
        html = client.get(f"/games/{session.pk}/").content.decode()
        head = html.split('class="game-head">', 1)[1].split("</div>", 1)[0]
        return html, head

    # Waiting: the heading already names the two teams.
    for client in (member, spectator):
        html, head = page(client)
        assert "<strong>Red Dragons</strong> vs <strong>Blue Owls</strong>" in head, head
        assert not any(j in html for j in joined)
    for user in users:
        game_services.mark_ready(session=session, by=user)
    api = member.get(f"/api/games/{session.pk}/").json()
    assert api["team_names"] == ["Red Dragons", "Blue Owls"]
    _play(session, users, limit=12)
    for client in (member, spectator):
        html, head = page(client)
        assert "<strong>Red Dragons</strong> vs <strong>Blue Owls</strong>" in head, head
        assert not any(j in html for j in joined), html
        # Each board is headed by its member (who acts) with the member's team by name.
        you = " (you)" if client is member else ""
        assert f'<h2>{names[2]}{you} <small class="team">Red Dragons</small>' in html
        assert f'<h2>{names[1]} <small class="team">Blue Owls, captain</small>' in html
    session.refresh_from_db()
    _play(session, users)
    session.refresh_from_db()
    winner = ["Red Dragons", "Blue Owls"][session.result["winning_team"]]
    for client in (member, spectator):
        html, _head = page(client)
        result = html.split('class="game-result">', 1)[1].split("</p>", 1)[0]
        assert f"{winner} win" in result, result
        assert f"Game over: {winner} win." in html
        assert not any(j in html for j in joined)
