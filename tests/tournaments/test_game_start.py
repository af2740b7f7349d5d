"""A game of a paper match starts when both players say so (or a judge starts it).

The attacks these tests keep out: one player restarting the game clock, skipping
numbers to close the opponent's swap window, and revealing the opponent's swap alone.
"""

import pytest
from rest_framework.test import APIClient

from games.engines.irondie.dice import Die, playing_set_errors
from tests.conftest import api_as
from tournaments import services
from tournaments.models import AuditEntry, Match, SetSwap

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(make_running_round, judge, make_user):
    """Table 1 of a started round, with API clients for each role."""
    round_ = make_running_round(4)
    match = round_.matches.get(table=1)
    return {
        "match": match,
        "round": round_,
        "a": api_as(match.player_a.player.user),
        "b": api_as(match.player_b.player.user),
        "judge": api_as(judge),
        "other": api_as(round_.matches.get(table=2).player_a.player.user),
        "anonymous": APIClient(),
    }


def start(table, who, number):
    return table[who].post(f"/api/matches/{table['match'].pk}/start-game/", {"number": number})


def fresh(match) -> Match:
    return Match.objects.get(pk=match.pk)


def legal_swap(registration):
    """A one-die swap that keeps the playing set legal: (swap_out, swap_in)."""
    for out_pos in range(9):
        for in_pos in range(len(registration.additional_dice)):
            playing = list(registration.playing_dice)
            playing[out_pos] = registration.additional_dice[in_pos]
            if not playing_set_errors([Die.from_dict(d) for d in playing]):
                return [out_pos], [in_pos]
    raise AssertionError("no legal swap in this set")


def swap_ids_seen_by(table, who) -> list[int]:
    response = table[who].get(f"/api/matches/{table['match'].pk}/swaps/")
    assert response.status_code == 200
    return [swap["id"] for swap in response.json()]


def record_swap_of_b(table) -> int:
    match = table["match"]
    out, into = legal_swap(match.player_b)
    response = table["b"].post(
        f"/api/matches/{match.pk}/swaps/", {"swap_out": out, "swap_in": into}, format="json"
    )
    assert response.status_code == 201, response.json()
    return response.json()["id"]


def test_one_players_word_does_not_start_the_game_and_repeating_it_changes_nothing(table):
    match = table["match"]
    first = start(table, "a", 1)
    assert first.status_code == 202, first.json()
    body = first.json()
    assert body["current_game_started"] is False and body["next_game"] == 1
    assert body["game_start"]["started"] is False
    assert body["game_start"]["ready"] == ["a"] and body["game_start"]["awaiting"] == ["b"]
    assert match.player_b.player.display_name in body["game_start"]["detail"]
    after_first = fresh(match)
    assert after_first.current_game_started_at is None and after_first.game_deadline_at is None
    assert after_first.ready_a_for_game == 1 and after_first.ready_b_for_game is None
    again = start(table, "a", 1)
    assert again.status_code == 202 and again.json()["game_start"]["awaiting"] == ["b"]
    after_again = fresh(match)
    assert after_again.version == after_first.version
    assert AuditEntry.objects.filter(action="game.ready").count() == 1
    assert not AuditEntry.objects.filter(action="game.started").exists()


def test_the_second_players_word_starts_the_game_and_its_clock(table):
    match = table["match"]
    start(table, "b", 1)
    started = start(table, "a", 1)
    assert started.status_code == 200, started.json()
    assert started.json()["game_start"] == {
        "game": 1,
        "started": True,
        "ready": ["a", "b"],
        "awaiting": [],
        "detail": "Game 1 has started.",
    }
    match = fresh(match)
    assert match.current_game == 1 and match.current_game_started_at is not None
    assert match.game_deadline_at is not None
    assert (match.ready_a_for_game, match.ready_b_for_game) == (None, None)
    assert started.json()["next_game"] == 2 and started.json()["next_game_ready"] == []


@pytest.mark.parametrize("number", [2, 3, 4, 5])
def test_one_player_cannot_skip_to_a_later_game(table, number):
    match = table["match"]
    response = start(table, "a", number)
    assert response.status_code == 400
    assert "The next game of this match is game 1." in response.json()["detail"]
    assert fresh(match).ready_a_for_game is None


def test_posting_two_to_five_in_a_row_neither_resets_the_clock_nor_closes_the_swap_window(
    table,
):
    match = table["match"]
    start(table, "a", 1)
    start(table, "b", 1)
    running = fresh(match)
    deadline, version = running.game_deadline_at, running.version
    codes = [start(table, "a", number).status_code for number in (2, 3, 4, 5)]
    assert codes == [202, 400, 400, 400]  # game 2: A's word recorded; 3-5: refused
    now = fresh(match)
    assert now.game_deadline_at == deadline and now.version == version
    assert now.current_game == 1 and now.next_game == 2
    # A player cannot restart the game in progress either.
    restart = start(table, "a", 1)
    assert restart.status_code == 400 and "Game 1 has already started." in restart.json()["detail"]
    assert fresh(match).game_deadline_at == deadline
    # The opponent's swap window for game 2 is still open.
    swap_id = record_swap_of_b(table)
    assert SetSwap.objects.get(pk=swap_id).before_game == 2


def test_the_opponents_swap_stays_secret_until_both_players_start_its_game(table):
    match = table["match"]
    swap_id = record_swap_of_b(table)  # for game 1
    assert swap_id in swap_ids_seen_by(table, "b") and swap_id in swap_ids_seen_by(table, "judge")
    for who in ("a", "other", "anonymous"):
        assert swap_ids_seen_by(table, who) == []
    start(table, "a", 1)  # A alone asks for the start, then reads the swaps
    for who in ("a", "other", "anonymous"):
        assert swap_ids_seen_by(table, who) == []
    for path in (f"/api/matches/{match.pk}/", f"/api/rounds/{table['round'].pk}/"):
        text = table["a"].get(path).content.decode()
        assert "swapped_in" not in text and "playing_after" not in text
    start(table, "b", 1)
    assert swap_ids_seen_by(table, "a") == [swap_id]


def test_a_judge_starts_the_game_at_once(table):
    response = start(table, "judge", 1)
    assert response.status_code == 200 and response.json()["game_start"]["started"] is True
    assert fresh(table["match"]).game_deadline_at is not None


@pytest.mark.parametrize("who", ["other", "anonymous"])
def test_outsiders_cannot_say_a_game_starts(table, who):
    assert start(table, who, 1).status_code in (401, 403)
    match = fresh(table["match"])
    assert (match.ready_a_for_game, match.ready_b_for_game) == (None, None)


def test_no_game_starts_in_a_match_that_is_over(table, judge):
    match = table["match"]
    services.report_result(match=match, by=judge, games=["a", "a"])
    for who in ("a", "judge"):
        response = start(table, who, 1)
        assert response.status_code == 400 and "This match is over." in response.json()["detail"]


def test_players_cannot_start_a_game_once_a_result_is_reported(table):
    match = table["match"]
    services.report_result(match=match, by=match.player_a.player.user, games=["a", "a"])
    response = start(table, "b", 1)
    assert response.status_code == 400 and "result has been reported" in response.json()["detail"]
    assert fresh(match).ready_b_for_game is None
    assert start(table, "judge", 1).status_code == 200  # a judge may let the match go on


def test_my_match_page_follows_the_same_rule(client, table):
    match = table["match"]
    tournament_id = table["round"].tournament_id
    page = f"/tournaments/{tournament_id}/my-match/"
    client.force_login(match.player_a.player.user)
    skipped = client.post(page, {"action": "start_game", "number": 3}, follow=True)
    assert "The next game of this match is game 1." in skipped.content.decode()
    noted = client.post(page, {"action": "start_game", "number": 1}, follow=True).content.decode()
    assert "starts when your opponent says so too" in noted
    assert 'id="start-game-waiting"' in noted
    assert fresh(match).current_game_started_at is None
    client.force_login(match.player_b.player.user)
    body = client.get(page).content.decode()
    assert 'id="start-game-opponent-ready"' in body
    started = client.post(page, {"action": "start_game", "number": 1}, follow=True)
    assert "Game 1 started." in started.content.decode()
    assert fresh(match).current_game_started_at is not None
