"""Tournament matches of 36d6 and Dice Forge events played online, as IRONDIE's are:
the match opens, each game opens after the previous one, bots play every decision
through the service functions, and the result reaches the match (draws as the engine
says); time called, concessions, refusals and hidden information (docs/online-play.md,
"Every game of an event")."""

import datetime
import random

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext

from config.dbtime import db_now
from games import services as game_services
from games.bots import bot_action
from games.engines import engine_for
from games.models import GameSession
from games.selectors import game_state
from tournaments import clocks as t_clocks
from tournaments import services as t_services
from tournaments.games import rules_for
from tournaments.match_rules import online_game_outcome
from tournaments.models import Match, ResultSubmission, Tournament
from tournaments.online import open_match

from .conftest import token_client

pytestmark = pytest.mark.django_db

GAMES = ("36d6", "dice-forge")


def _event(make_player, organiser, judge, game, **options):
    event = t_services.create_tournament(
        organiser=organiser,
        name=f"{game} online",
        date=datetime.date(2026, 12, 5),
        game=game,
        head_judge=judge,
        **options,
    )
    t_services.change_status(tournament=event, to=Tournament.Status.REGISTRATION, by=organiser)
    for name in ("Alice", "Bob"):
        player = make_player(name)
        t_services.register(tournament=event, player=player, by=player.user)
    round_ = t_services.pair_next_round(tournament=event, by=organiser, seed="online")
    t_services.publish_round(round_=round_, by=organiser)
    t_services.start_round(round_=round_, by=judge)
    match = round_.matches.get()
    return match, [match.player_a.player.user, match.player_b.player.user]


def _open(match) -> GameSession | None:
    return (
        GameSession.objects.filter(match_game__match=match, status__in=game_services.OPEN)
        .order_by("-match_game__number")
        .first()
    )


def _play_decisions(session, users, *, limit=None) -> int:
    """Heuristic bots decide for both players through ``submit_action`` until the game is
    over (or ``limit`` decisions were made); each decides from its own view only."""
    engine = engine_for(session.engine)
    made = 0
    while limit is None or made < limit:
        session.refresh_from_db()
        if session.status != GameSession.Status.ACTIVE:
            return made
        state = game_services.state_of(session)
        seat = min(engine.to_act(state))
        action = bot_action(engine, "heuristic", state, seat, seed=f"t{session.version}")
        game_services.submit_action(
            session=session, by=users[seat], action=action, expected_version=session.version
        )
        made += 1
    return made


@pytest.mark.parametrize("game", GAMES)
def test_a_match_of_every_game_is_played_online_to_its_result(game, make_player, organiser, judge):
    match, users = _event(make_player, organiser, judge, game, games_to_win=2)
    first = open_match(match=match, by=users[0])
    assert first.engine == game and first.status == GameSession.Status.ACTIVE
    assert first.config == {"game_id": f"m{match.pk}-g1", "seats": 2, "variants": []}
    assert open_match(match=match, by=users[1]).pk == first.pk  # the one open game
    outcomes = []
    for _number in range(1, 6):
        session = _open(match)
        if session is None:
            break
        # Players never see the seed while the game runs; judges do.
        state = game_services.state_of(session)
        now = db_now()
        for seat in (0, 1):
            seen = game_state(session, seat, now)
            assert seen["view"]["seed"] is None and session.seed not in str(seen)
        assert game_state(session, "judge", now)["view"]["seed"] == session.seed
        assert state.config["seats"] == 2
        _play_decisions(session, users)
        session.refresh_from_db()
        assert session.status == GameSession.Status.FINISHED
        assert game_services.replayed_state(session).to_dict() == session.state
        outcomes.append(online_game_outcome(session.result))
        assert outcomes[-1] in ("a", "b", "draw")
        assert session.result["placings"] == engine_for(game).placings(
            game_services.state_of(session)
        )
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED
    sessions = list(GameSession.objects.filter(match_game__match=match).order_by("pk"))
    assert [s.match_game.number for s in sessions] == list(range(1, len(sessions) + 1))
    assert max(outcomes.count("a"), outcomes.count("b")) == 2 or len(outcomes) == 5
    result = ResultSubmission.objects.get(match=match, status=ResultSubmission.Status.CONFIRMED)
    assert result.source == ResultSubmission.Source.SYSTEM
    assert result.games == outcomes
    # After the match: nothing more opens, and the seed of every finished game is public.
    with pytest.raises(ValidationError, match="match is over"):
        open_match(match=match, by=users[0])
    done = game_state(sessions[0], 0, db_now())
    assert done["view"]["seed"] == sessions[0].seed


@pytest.mark.parametrize("game", GAMES)
def test_the_first_game_waits_for_both_players_and_later_games_start_at_once(
    game, make_player, organiser, judge, settings
):
    settings.GAMES_SWAP_WINDOW_SECONDS = 120
    match, users = _event(make_player, organiser, judge, game, games_to_win=2)
    first = open_match(match=match, by=users[0])
    assert first.status == GameSession.Status.WAITING
    game_services.mark_ready(session=first, by=users[0])
    first = game_services.mark_ready(session=first, by=users[1])
    assert first.status == GameSession.Status.ACTIVE
    match.refresh_from_db()
    assert match.current_game == 1 and match.game_deadline_at is not None  # the game clock
    _play_decisions(first, users)
    second = _open(match)
    # No swap window: these events have no dice sets to swap.
    assert second.match_game.number == 2 and second.status == GameSession.Status.ACTIVE
    with pytest.raises(ValidationError, match="no dice sets"):
        t_services.record_swap(
            registration=match.player_a, match=match, swap_out=[0], swap_in=[0], by=users[0]
        )


@pytest.mark.parametrize("game", GAMES)
def test_time_called_ends_the_game_scored_and_it_counts(game, make_player, organiser, judge):
    match, users = _event(make_player, organiser, judge, game)  # best of one
    session = open_match(match=match, by=users[0])
    _play_decisions(session, users, limit=12)
    Match.objects.filter(pk=match.pk).update(deadline_at=db_now() - datetime.timedelta(seconds=1))
    t_clocks.enforce_match_deadline(match.pk)
    session.refresh_from_db()
    assert session.status == GameSession.Status.FINISHED
    assert session.result["reason"] == "time_limit" and session.end_cause == "match_time"
    assert session.actions.order_by("-index").first().cause == "match_time"
    outcome = online_game_outcome(session.result)
    match.refresh_from_db()
    # Swiss: decided on the one game, a draw when glory (or points) were level.
    assert match.status == Match.Status.CONFIRMED
    result = ResultSubmission.objects.get(match=match, status=ResultSubmission.Status.CONFIRMED)
    assert result.games == [outcome]
    assert game_services.replayed_state(session).to_dict() == session.state


@pytest.mark.parametrize("game", GAMES)
def test_a_player_concedes_a_game_and_the_match(game, make_player, organiser, judge):
    match, users = _event(make_player, organiser, judge, game, games_to_win=2)
    session = open_match(match=match, by=users[0])
    _play_decisions(session, users, limit=5)
    game_services.concede(session=session, by=users[0])
    session.refresh_from_db()
    assert session.result["placings"] == [2, 1] and session.end_cause == "conceded"
    second = _open(match)
    assert second.match_game.number == 2
    game_services.concede(session=second, by=users[1], whole_match=True)
    result = ResultSubmission.objects.get(match=match, status=ResultSubmission.Status.CONFIRMED)
    assert result.games[:1] == ["b"] and result.conceded_by == "b"
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED


@pytest.mark.parametrize("game", GAMES)
def test_a_judge_pauses_and_rules_and_a_spectator_watches(game, make_player, organiser, judge):
    match, users = _event(make_player, organiser, judge, game)
    session = open_match(match=match, by=judge)  # a judge may open it too
    game_services.pause_game(session=session, by=judge, reason="table check")
    with pytest.raises(ValidationError, match="paused"):
        _play_decisions(session, users, limit=1) or game_services.submit_action(
            session=session, by=users[0], action={"kind": "pass"}
        )
    game_services.resume_game(session=session, by=judge)
    with pytest.raises(PermissionDenied):
        game_services.award_game(session=session, by=users[0], winner=0, reason="mine")
    game_services.award_game(session=session, by=judge, winner=1, reason="slow play")
    session.refresh_from_db()
    assert session.result["winner"] == 1
    result = ResultSubmission.objects.get(match=match, status=ResultSubmission.Status.CONFIRMED)
    assert result.games == ["b"]
    watched = token_client(organiser).get(f"/api/games/{session.pk}/").json()
    assert watched["match"] == match.pk and watched["game_number"] == 1


def test_opening_is_refused_with_reasons(make_player, organiser, judge):
    match, users = _event(make_player, organiser, judge, "dice-forge")
    stranger = make_player("Carol").user
    with pytest.raises(PermissionDenied, match="players of this match and its judges"):
        open_match(match=match, by=stranger)
    answer = token_client(stranger).post("/api/games/", {"match": match.pk}, format="json")
    assert answer.status_code == 403
    assert not GameSession.objects.exists()
    # A player without an account cannot play online.
    registration = match.player_b
    registration.player.user = None
    registration.player.save(update_fields=["user"])
    answer = token_client(users[0]).post("/api/games/", {"match": match.pk}, format="json")
    assert answer.status_code == 400
    assert "has no account and cannot play online" in str(answer.json())
    assert not GameSession.objects.exists()


@pytest.mark.parametrize("game, board", [("36d6", "d36"), ("dice-forge", "dice-forge")])
def test_my_match_opens_the_game_and_the_play_page_draws_it(
    client, game, board, make_player, organiser, judge
):
    match, users = _event(make_player, organiser, judge, game)
    client.force_login(users[0])
    event = match.round.tournament
    response = client.post(f"/tournaments/{event.pk}/my-match/", {"action": "play_online"})
    session = _open(match)
    assert response.status_code == 302 and response.url == f"/games/{session.pk}/"
    page = client.get(response.url).content.decode()
    assert f'class="board {board}"' in page
    assert f"match {match.pk}, game 1" in page
    assert session.seed not in page
    # The opponent, a spectator and a judge see the same game; only the judge the seed.
    client.force_login(users[1])
    assert session.seed not in client.get(response.url).content.decode()
    client.logout()
    assert session.seed not in client.get(f"/games/{session.pk}/board/").content.decode()
    client.force_login(judge)
    judged = client.get(f"/games/{session.pk}/board/").content.decode()
    assert "judge view (full information)" in judged


def _call_time(match) -> None:
    Match.objects.filter(pk=match.pk).update(deadline_at=db_now() - datetime.timedelta(seconds=1))
    t_clocks.enforce_match_deadline(match.pk)


def test_a_game_level_at_time_is_a_drawn_game_and_a_swiss_match_a_draw(
    make_player, organiser, judge
):
    match, users = _event(make_player, organiser, judge, "36d6")  # best of one
    session = open_match(match=match, by=users[0])
    _call_time(match)  # before any capture: both piles are empty
    session.refresh_from_db()
    assert session.result["placings"] == [1, 1] and session.result["winner"] is None
    assert online_game_outcome(session.result) == "draw"
    result = ResultSubmission.objects.get(match=match, status=ResultSubmission.Status.CONFIRMED)
    assert result.games == ["draw"]
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED
    assert not GameSession.objects.filter(status__in=game_services.OPEN).exists()


def test_a_drawn_game_in_the_top_cut_is_followed_by_another(make_player, organiser, judge):
    event = t_services.create_tournament(
        organiser=organiser,
        name="36d6 cup",
        date=datetime.date(2026, 12, 5),
        game="36d6",
        head_judge=judge,
        top_cut_size=2,
    )
    t_services.change_status(tournament=event, to=Tournament.Status.REGISTRATION, by=organiser)
    for name in ("Alice", "Bob"):
        player = make_player(name)
        t_services.register(tournament=event, player=player, by=player.user)
    Tournament.objects.filter(pk=event.pk).update(swiss_rounds=1)
    swiss = t_services.pair_next_round(tournament=event, by=organiser, seed="cup")
    t_services.publish_round(round_=swiss, by=organiser)
    t_services.report_result(match=swiss.matches.get(), by=judge, games=["a"])
    t_services.close_round(round_=swiss, by=organiser)
    top = t_services.start_top_cut(tournament=event, by=organiser)
    t_services.publish_round(round_=top, by=organiser)
    t_services.start_round(round_=top, by=judge)
    match = top.matches.get()
    users = [match.player_a.player.user, match.player_b.player.user]
    first = open_match(match=match, by=users[0])
    _call_time(match)  # level (a drawn game): the top cut needs a winner
    first.refresh_from_db()
    assert online_game_outcome(first.result) == "draw"
    decider = _open(match)
    assert decider.match_game.number == 2 and decider.status == GameSession.Status.ACTIVE
    _play_decisions(decider, users)
    decider.refresh_from_db()
    outcome = online_game_outcome(decider.result)
    match.refresh_from_db()
    if outcome == "draw":  # level again: a third game, the most best of one allows
        assert _open(match).match_game.number == 3
    else:
        result = ResultSubmission.objects.get(match=match, status=ResultSubmission.Status.CONFIRMED)
        assert result.games == ["draw", outcome] and match.status == Match.Status.CONFIRMED


@pytest.mark.parametrize("game", GAMES)
def test_a_tournament_game_of_every_game_costs_what_irondies_does(
    game, make_player, organiser, judge
):
    match, users = _event(make_player, organiser, judge, game)
    session = open_match(match=match, by=users[0])
    clients = [token_client(user) for user in users]
    base = f"/api/games/{session.pk}/"
    for client in clients:
        client.get(base)  # this process has the state now
    with CaptureQueriesContext(connection) as queries:
        state = clients[1].get(base).json()
    assert len(queries) == 2, [q["sql"] for q in queries]  # the token and the row
    assert state["view"]["seed"] is None and state["match"] == match.pk
    for _ in range(3):
        now = clients[0].get(base).json()
        seat = now["view"]["to_act"][0]
        mine = clients[seat].get(base).json()
        action = mine["legal_actions"][0]
        with CaptureQueriesContext(connection) as queries:
            response = clients[seat].post(
                base + "actions/",
                {"action": action, "expected_version": mine["version"]},
                format="json",
            )
        assert response.status_code == 200, response.json()
        sql = [q["sql"] for q in queries if not q["sql"].startswith(("SAVEPOINT", "RELEASE"))]
        assert len(sql) <= 6, sql


@pytest.mark.parametrize("game", ["irondie", *GAMES])
def test_every_games_online_parts_are_what_its_engine_accepts(game):
    rules = rules_for(game)
    engine = engine_for(game)
    config = rules.table_config(seats=2)
    assert (config is None) == rules.needs_dice_set == rules.swap_window
    if config is None:  # IRONDIE: built from the players' sets
        config = engine.random_config(random.Random(1), seats=2, game_id="t")
    state = engine.new_game({**config, "game_id": "t"}, "seed")
    assert engine.seat_count(state.config) == 2
    ended, _events = engine.apply(state, engine.SYSTEM, {"kind": rules.time_called_action})
    assert engine.is_over(ended)
    outcome = online_game_outcome(engine.result(ended) | {"placings": engine.placings(ended)})
    # IRONDIE's game stopped by time counts for nobody; the others' are scored as they
    # stand (36d6 at the start: empty piles, a draw).
    if game == "irondie":
        assert outcome is None
    else:
        scores = engine.result(ended)["scores"]
        assert outcome == ("draw" if scores[0] == scores[1] else "ab"[scores[1] > scores[0]])
    if game == "36d6":
        assert outcome == "draw"
