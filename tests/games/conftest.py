"""Fixtures for online games: a started round with one match between two users, and
clients that play through the HTTP API the way a bot with a token would."""

import datetime
import random

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.engines.irondie.bots import HeuristicBot, RandomBot
from games.selectors import legal_choices
from players import services as player_services
from players.demo import random_valid_set
from tournaments import services as t_services
from tournaments.models import Tournament


@pytest.fixture(autouse=True)
def online_settings(settings):
    settings.GAMES_SWAP_WINDOW_SECONDS = 0  # games start at once unless a test says otherwise
    settings.CLOCKS_USE_ETA = False  # no broker needed unless a test starts a worker
    settings.GAMES_DEMO_BOT_DELAY = 0
    return settings


def event_with_players(make_player, organiser, judge, *, name, players, seed, top_cut_size=0):
    """A tournament open for registration with the named players registered, each with a
    random valid set drawn from ``seed``; returns the event and the registrations."""
    event = t_services.create_tournament(
        organiser=organiser,
        name=name,
        date=datetime.date(2026, 12, 5),
        top_cut_size=top_cut_size,
        head_judge=judge,
    )
    t_services.change_status(tournament=event, to=Tournament.Status.REGISTRATION, by=organiser)
    rng = random.Random(seed)
    registrations = []
    for player_name in players:
        player = make_player(player_name)
        dice_set = player_services.create_dice_set(
            player=player,
            name="Main",
            playing_dice=[d.to_dict() for d in random_valid_set(rng)],
            additional_dice=[d.to_dict() for d in random_valid_set(rng)[:3]],
        )
        registrations.append(
            t_services.register(tournament=event, player=player, dice_set=dice_set, by=player.user)
        )
    return event, registrations


@pytest.fixture
def duo(make_player, organiser, judge):
    """A Swiss round in progress with one match: Alice (A) against Bob (B)."""
    event, _ = event_with_players(
        make_player, organiser, judge, name="Online Open", players=("Alice", "Bob"), seed=3
    )
    round_ = t_services.pair_next_round(tournament=event, by=organiser, seed="online")
    t_services.publish_round(round_=round_, by=organiser)
    t_services.start_round(round_=round_, by=judge)
    match = round_.matches.get()
    a = match.player_a.player.user
    b = match.player_b.player.user
    return {"match": match, "a": a, "b": b, "tournament": event, "judge": judge}


def token_client(user) -> APIClient:
    """A client authenticated the way a bot program is: with its API token."""
    client = APIClient()
    token, _ = Token.objects.get_or_create(user=user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def login_client(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def bot_for(kind, seed):
    return HeuristicBot(seed=seed) if kind == "heuristic" else RandomBot(seed=seed)


def api_move(client, game_id, bot, *, seen=None):
    """One decision through the API if the client has one; returns the response or None.

    The bot decides from the API's view and legal actions only (HeuristicBot.decide);
    the random bot picks uniformly from the legal actions. A split of many dice is not
    listed but described (``split.hand``, ``legal_count``): ``legal_choices`` turns the
    answer into a sequence of every legal action either way."""
    state = client.get(f"/api/games/{game_id}/").json()
    if seen is not None:
        seen.append(state)
    legal = legal_choices(state)
    if not legal:
        assert state["legal_count"] == 0
        return None
    assert len(legal) == state["legal_count"]
    if isinstance(bot, HeuristicBot):
        action = bot.decide(state["view"], legal, state["seat"])
    else:
        action = bot.rng.choice(legal)
    return client.post(
        f"/api/games/{game_id}/actions/",
        {"action": action, "expected_version": state["version"]},
        format="json",
    )


def reach_the_game_limit(game_id):
    """What the game clock does when the game limit passes: sudden death from the next turn."""
    from django.db import transaction

    from config.dbtime import db_now
    from games import services as game_services
    from games.models import GameSession

    with transaction.atomic():
        session = GameSession.objects.select_for_update().get(pk=game_id)
        game_services.switch_to_sudden_death(session, db_now(), note="game time limit")


def play_to_end(clients, game_id, bots, *, seen=None, limit=4000, sudden_death_after=200):
    """Both clients act whenever they have a legal decision until the game is over.

    Time does not pass in a test, so the game limit never comes: after
    ``sudden_death_after`` rounds of moves the limit is switched on as the clock would
    (about one game in ten between two bots with random sets would otherwise run for
    thousands of turns, since only sudden death forces an end)."""
    for step in range(limit):
        if step == sudden_death_after:
            reach_the_game_limit(game_id)
        moved = False
        for client, bot in zip(clients, bots, strict=True):
            response = api_move(client, game_id, bot, seen=seen)
            if response is not None:
                assert response.status_code == 200, response.json()
                moved = True
        status = clients[0].get(f"/api/games/{game_id}/").json()["status"]
        if status != "active":
            return status
        assert moved, "nobody could act in an active game"
    raise AssertionError("the game did not end")
