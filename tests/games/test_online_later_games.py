"""Games after the third online: the top-cut decider after time opens with the swap
window like every other game, a swap before it is accepted and used, and it takes the
number of the game it replaces when time cancelled a game still waiting to start."""

import datetime

import pytest

from config.dbtime import db_now
from games.models import GameSession
from tournaments import clocks as t_clocks
from tournaments import selectors as t_selectors
from tournaments import services as t_services
from tournaments.models import Match, SetSwap, Tournament

from .conftest import event_with_players, token_client

pytestmark = pytest.mark.django_db


@pytest.fixture
def final(make_player, organiser, judge, settings):
    """The final of a two-player top cut in progress, Alice (A) against Bob (B), played
    online with the swap window open between games."""
    settings.GAMES_SWAP_WINDOW_SECONDS = 120
    event, _ = event_with_players(
        make_player,
        organiser,
        judge,
        name="Online Final",
        players=("Alice", "Bob"),
        seed=5,
        top_cut_size=2,
    )
    Tournament.objects.filter(pk=event.pk).update(swiss_rounds=1)
    swiss = t_services.pair_next_round(tournament=event, by=organiser, seed="final")
    t_services.publish_round(round_=swiss, by=organiser)
    t_services.report_result(match=swiss.matches.get(), by=judge, games=["a", "a"])
    t_services.close_round(round_=swiss, by=organiser)
    top = t_services.start_top_cut(tournament=event, by=organiser)
    t_services.publish_round(round_=top, by=organiser)
    t_services.start_round(round_=top, by=judge)
    match = top.matches.get()
    alice, bob = match.player_a.player.user, match.player_b.player.user
    return {"match": match, "alice": token_client(alice), "bob": token_client(bob)}


def _both_ready(final, game_id) -> dict:
    final["alice"].post(f"/api/games/{game_id}/ready/")
    started = final["bob"].post(f"/api/games/{game_id}/ready/").json()
    assert started["status"] == "active", started
    return started


def _next_game(final, game_id) -> dict:
    following = final["alice"].get(f"/api/games/{game_id}/").json()["next_game"]
    return final["alice"].get(f"/api/games/{following}/").json()


def _level_at_one_game_each(final) -> dict:
    """Game 1 conceded by Bob, game 2 by Alice; returns game 3, waiting to start."""
    opened = final["alice"].post("/api/games/", {"match": final["match"].pk}, format="json")
    first = opened.json()
    _both_ready(final, first["id"])
    final["bob"].post(f"/api/games/{first['id']}/concede/", {}, format="json")
    second = _next_game(final, first["id"])
    _both_ready(final, second["id"])
    final["alice"].post(f"/api/games/{second['id']}/concede/", {}, format="json")
    third = _next_game(final, second["id"])
    assert third["status"] == "waiting" and third["game_number"] == 3
    return third


def _call_time(match):
    t_clocks.set_deadline(match, db_now() - datetime.timedelta(seconds=1))
    assert t_clocks.enforce_match_deadline(match.pk) == "time called"


def _bob_swaps(final) -> SetSwap:
    match = Match.objects.get(pk=final["match"].pk)
    playing, additional = t_selectors.current_sets(match.player_b)
    out_pos, in_pos = _valid_swap_positions(playing, additional)
    response = final["bob"].post(
        f"/api/matches/{match.pk}/swaps/",
        {"swap_out": [out_pos], "swap_in": [in_pos]},
        format="json",
    )
    assert response.status_code == 201, response.json()
    return SetSwap.objects.get(pk=response.json()["id"])


def _valid_swap_positions(playing, additional):
    from games.engines.irondie.dice import Die, playing_set_errors

    for out_pos in range(len(playing)):
        for in_pos in range(len(additional)):
            trial = list(playing)
            trial[out_pos] = additional[in_pos]
            if not playing_set_errors([Die.from_dict(d) for d in trial]):
                return out_pos, in_pos
    raise AssertionError("fixture sets allow no valid swap")


def test_the_decider_after_time_is_game_four_and_takes_a_swap(final):
    third = _level_at_one_game_each(final)
    _both_ready(final, third["id"])
    _call_time(final["match"])  # game 3 stops unfinished and does not count
    assert GameSession.objects.get(pk=third["id"]).result["reason"] == "match_time_over"
    decider = _next_game(final, third["id"])
    # The decider waits for the players like every game: this is the window to swap.
    assert decider["status"] == "waiting" and decider["game_number"] == 4
    swap = _bob_swaps(final)
    assert swap.before_game == 4
    assert final["alice"].get(f"/api/games/{decider['id']}/").json()["view"] is None
    swaps_seen_by_alice = final["alice"].get(f"/api/matches/{final['match'].pk}/swaps/").json()
    assert swap.pk not in [s["id"] for s in swaps_seen_by_alice]  # secret until game 4 starts
    started = _both_ready(final, decider["id"])
    assert started["view"]["config"]["sets"][1] == swap.playing_after
    assert started["view"]["sudden_death"]["from_turn"] == 1
    swaps_seen_by_alice = final["alice"].get(f"/api/matches/{final['match'].pk}/swaps/").json()
    assert swap.pk in [s["id"] for s in swaps_seen_by_alice]
    final["alice"].post(f"/api/games/{decider['id']}/concede/", {}, format="json")
    match = Match.objects.get(pk=final["match"].pk)
    assert match.status == Match.Status.CONFIRMED and match.winner_id == match.player_b_id


def test_time_called_during_the_swap_window_makes_the_waiting_game_the_decider(final):
    third = _level_at_one_game_each(final)
    swap = _bob_swaps(final)
    assert swap.before_game == 3
    window_closes = GameSession.objects.get(pk=third["id"]).deadline_at
    _call_time(final["match"])
    # Game 3 had not started: it stays waiting, with its swap window, as the decider.
    waiting = GameSession.objects.get(pk=third["id"])
    assert waiting.status == GameSession.Status.WAITING and waiting.deadline_at == window_closes
    assert GameSession.objects.filter(match_game__match=final["match"]).count() == 3
    started = _both_ready(final, third["id"])
    assert started["view"]["config"]["sets"][1] == swap.playing_after
    assert started["view"]["sudden_death"]["from_turn"] == 1


def test_time_called_during_the_swap_window_of_a_decided_match_cancels_the_game(final):
    opened = final["alice"].post("/api/games/", {"match": final["match"].pk}, format="json")
    first = opened.json()
    _both_ready(final, first["id"])
    final["bob"].post(f"/api/games/{first['id']}/concede/", {}, format="json")  # A leads 1-0
    second = _next_game(final, first["id"])
    assert second["status"] == "waiting"
    _call_time(final["match"])
    assert GameSession.objects.get(pk=second["id"]).status == GameSession.Status.CANCELLED
    match = Match.objects.get(pk=final["match"].pk)
    assert match.status == Match.Status.CONFIRMED and match.winner_id == match.player_a_id


def test_the_decider_after_an_unfinished_game_is_recorded_as_game_four_with_its_swap(final):
    third = _level_at_one_game_each(final)
    _both_ready(final, third["id"])
    _call_time(final["match"])  # game 3 stops unfinished: no record of its own
    decider = _next_game(final, third["id"])
    swap = _bob_swaps(final)
    assert swap.before_game == 4
    started = _both_ready(final, decider["id"])
    used_by_bob = started["view"]["config"]["sets"][1]
    assert used_by_bob == swap.playing_after
    final["alice"].post(f"/api/games/{decider['id']}/concede/", {}, format="json")
    match = Match.objects.get(pk=final["match"].pk)
    assert match.status == Match.Status.CONFIRMED
    records = list(match.games.order_by("number"))
    assert [(g.number, g.outcome) for g in records] == [(1, "a"), (2, "b"), (4, "b")]
    assert records[-1].playing_set_b == used_by_bob
    assert records[-1].playing_set_b == t_selectors.playing_set_for_game(match.player_b, match, 4)
    assert records[0].playing_set_b == records[1].playing_set_b != used_by_bob
