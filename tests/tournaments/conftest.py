"""Fixtures for tournament tests: an organiser's event with registered players."""

import datetime
import random

import pytest

from tests.conftest import random_dice_set
from tournaments import services
from tournaments.models import Tournament


@pytest.fixture
def tournament(organiser, judge):
    event = services.create_tournament(
        organiser=organiser,
        name="Test Open",
        date=datetime.date(2026, 12, 5),
        venue="Club",
        top_cut_size=8,
        head_judge=judge,
    )
    return services.change_status(tournament=event, to=Tournament.Status.REGISTRATION, by=organiser)


@pytest.fixture
def register_players(make_player, organiser):
    def register(tournament, count, *, seed=1, prefix="Player"):
        rng = random.Random(seed)
        registrations = []
        for i in range(count):
            player = make_player(f"{prefix} {i + 1:02d}")
            dice_set = random_dice_set(player, rng)
            registrations.append(
                services.register(
                    tournament=tournament, player=player, dice_set=dice_set, by=player.user
                )
            )
        return registrations

    return register


def play_round_by_judge(round_, judge, rng):
    """A judge enters a random legal result for every match of a published round."""
    outcomes = [["a", "a"], ["b", "b"], ["a", "b", "a"], ["b", "a", "b"], ["a", "draw"], ["a", "b"]]
    stage_draws = round_.stage == "swiss"
    for match in round_.matches.filter(player_b__isnull=False):
        games = rng.choice(outcomes if stage_draws else outcomes[:4])
        services.report_result(match=match, by=judge, games=games)


@pytest.fixture
def make_running_round(tournament, register_players, organiser, judge):
    def make(players=4):
        register_players(tournament, players)
        round_ = services.pair_next_round(tournament=tournament, by=organiser, seed="c")
        services.publish_round(round_=round_, by=organiser)
        return services.start_round(round_=round_, by=judge)

    return make
