"""Games after time is called on paper: a further game starts only if the games played
so far leave the match needing one (the top-cut decider while level), never on the
confirmed result's counts, which stay 0-0 until a result is confirmed."""

import datetime

import pytest
from django.core.exceptions import ValidationError

from config.dbtime import db_now
from tests.conftest import api_as
from tournaments import clocks, services
from tournaments.models import Match

pytestmark = pytest.mark.django_db


def _call_time(match) -> Match:
    clocks.set_deadline(match, db_now() - datetime.timedelta(seconds=1))
    assert clocks.enforce_match_deadline(match.pk) == "time called"
    return Match.objects.get(pk=match.pk)


@pytest.fixture
def final_at_time(tournament, register_players, organiser, judge):
    """The top-cut final on paper: games 1 and 2 started, time called during game 2."""
    tournament.swiss_rounds = 1
    tournament.top_cut_size = 2
    tournament.save()
    register_players(tournament, 2)
    swiss = services.pair_next_round(tournament=tournament, by=organiser, seed="t")
    services.publish_round(round_=swiss, by=organiser)
    services.report_result(match=swiss.matches.get(), by=judge, games=["a", "a"])
    services.close_round(round_=swiss, by=organiser)
    top = services.start_top_cut(tournament=tournament, by=organiser)
    services.publish_round(round_=top, by=organiser)
    services.start_round(round_=top, by=judge)
    match = top.matches.get()
    for number in (1, 2):
        services.start_game(match=match, number=number, by=judge)
    return _call_time(match)


def _start(user, match, number, **extra):
    return api_as(user).post(
        f"/api/matches/{match.pk}/start-game/", {"number": number, **extra}, format="json"
    )


def test_no_game_after_time_in_the_top_cut_when_a_player_leads(final_at_time, judge):
    match = final_at_time
    assert (match.games_a, match.games_b) == (0, 0)  # nothing confirmed yet
    # A won game 1; game 2 stopped unfinished at time: A leads, the match is over.
    answer = _start(judge, match, 3, games_so_far=["a"])
    assert answer.status_code == 400, answer.json()
    assert "no new game starts" in str(answer.json())
    assert Match.objects.get(pk=match.pk).current_game == 2
    with pytest.raises(ValidationError, match="no new game starts"):
        services.start_game(match=match, number=3, by=judge, games_so_far=["a", "draw"])


def test_the_games_so_far_are_needed_to_start_a_game_after_time(final_at_time, judge):
    match = final_at_time
    answer = _start(judge, match, 3)
    assert answer.status_code == 400 and "games_so_far" in str(answer.json()), answer.json()
    for wrong in (["a", "b", "b"], ["win"]):  # more games than game 3 allows; not an outcome
        with pytest.raises(ValidationError):
            services.start_game(match=match, number=3, by=judge, games_so_far=wrong)
    assert Match.objects.get(pk=match.pk).current_game_started_at is not None
    assert Match.objects.get(pk=match.pk).current_game == 2


def test_the_decider_after_time_starts_on_both_players_word_when_level(final_at_time):
    match = final_at_time
    alice, bob = match.player_a.player.user, match.player_b.player.user
    # A drawn game and an unfinished one: level, so the top cut plays one more game.
    assert _start(alice, match, 3, games_so_far=["draw"]).status_code == 202
    assert _start(bob, match, 3, games_so_far=["draw"]).status_code == 200
    match = Match.objects.get(pk=match.pk)
    assert match.current_game == 3 and match.current_game_started_at is not None


def test_no_game_after_time_in_swiss_even_when_level(make_running_round, judge):
    match = make_running_round(4).matches.get(table=1)
    services.start_game(match=match, number=1, by=judge)
    match = _call_time(match)
    for games_so_far in (None, [], ["draw"]):
        with pytest.raises(ValidationError, match="no new game starts"):
            services.start_game(match=match, number=2, by=judge, games_so_far=games_so_far)


def test_the_my_match_page_asks_for_the_games_so_far_after_time(client, final_at_time):
    match = final_at_time
    page = f"/tournaments/{match.round.tournament_id}/my-match/"
    client.force_login(match.player_a.player.user)
    assert 'name="games_so_far"' in client.get(page).content.decode()
    refused = client.post(
        page, {"action": "start_game", "number": 3, "games_so_far": "a"}, follow=True
    )
    assert "no new game starts" in refused.content.decode()
    assert Match.objects.get(pk=match.pk).ready_a_for_game is None
    client.post(page, {"action": "start_game", "number": 3, "games_so_far": "a, b"})
    client.force_login(match.player_b.player.user)
    started = client.post(
        page, {"action": "start_game", "number": 3, "games_so_far": "a b"}, follow=True
    )
    assert "Game 3 started." in started.content.decode()
