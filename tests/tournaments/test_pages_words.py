"""Plain words where people read: a result from the reader's side, result histories that
name who won each game, the audit log as sentences (never a stored code or a dict)."""

import re

import pytest
from django.urls import reverse

from tests.tournaments.test_pages_public import url
from tournaments import services
from tournaments.models import Match, Penalty

pytestmark = pytest.mark.django_db

RAW = ("{'", "': ", "[{", "None", "battle_bonus", "no_life_dice")


def _one_match(tournament, organiser, register_players):
    register_players(tournament, 2)
    round_ = services.pair_next_round(tournament=tournament, by=organiser, seed="w")
    services.publish_round(round_=round_, by=organiser)
    return round_.matches.select_related("player_a__player", "player_b__player").get()


def test_my_match_reads_the_score_from_my_side(
    client, tournament, organiser, judge, register_players
):
    match = _one_match(tournament, organiser, register_players)
    services.report_result(match=match, by=judge, games=["b", "a", "b"])
    a, b = match.player_a.player, match.player_b.player
    client.force_login(b.user)
    body = client.get(url("my_match", tournament)).content.decode()
    assert f"You won 2-1 against {a.display_name}." in body
    assert f"game 1: {b.display_name}; game 2: {a.display_name}; game 3: {b.display_name}" in body
    assert "b, a, b" not in body and "1-2" not in body
    client.force_login(a.user)
    body = client.get(url("my_match", tournament)).content.decode()
    assert f"You lost 1-2 against {b.display_name}." in body


def test_a_draw_and_a_concession_in_words(client, tournament, organiser, judge, register_players):
    match = _one_match(tournament, organiser, register_players)
    services.report_result(match=match, by=judge, games=["a", "b", "draw"])
    client.force_login(match.player_a.player.user)
    body = client.get(url("my_match", tournament)).content.decode()
    assert f"Drawn 1-1-1 with {match.player_b.player.display_name}." in body
    assert "game 3: drawn" in body
    match = Match.objects.get(pk=match.pk)
    services.report_result(
        match=match, by=judge, games=["a"], conceded_by="b", expected_version=match.version
    )
    client.force_login(judge)
    body = client.get(url("match", tournament, match.pk)).content.decode()
    assert f"{match.player_b.player.display_name} conceded the match." in body
    assert f"{match.player_a.player.display_name} won" in body  # the games table
    assert "Player A won" not in body


def test_the_audit_log_reads_as_sentences(
    client, tournament, organiser, judge, register_players, make_user
):
    regs = register_players(tournament, 4)
    helper = make_user("helper")
    services.add_co_organiser(tournament=tournament, user=helper, by=organiser)
    services.update_tournament(tournament=tournament, by=organiser, venue="Main hall")
    services.drop(registration=regs[3], by=organiser, reason="went home")
    round_ = services.pair_next_round(tournament=tournament, by=organiser, seed="w")
    services.publish_round(round_=round_, by=organiser)
    services.start_round(round_=round_, by=judge)
    match = round_.matches.exclude(player_b=None).select_related("player_a__player").first()
    services.give_penalty(
        registration=match.player_a, kind=Penalty.Kind.WARNING, reason="slow play", by=judge
    )
    services.report_result(match=match, by=judge, games=["a", "a"])
    client.force_login(organiser)
    body = client.get(url("audit", tournament)).content.decode()
    for sentence in (
        "Made helper a co-organiser.",
        "Changed the settings: venue.",
        "venue: Club → Main hall",
        "Dropped Player 04 before the first round.",
        "Started the Swiss rounds: 3 players",
        "Paired round 1 as a draft.",
        "Published the pairings of round 1.",
        "Started round 1.",
        f"Gave {match.player_a.player.display_name} a penalty: warning.",
        f"Confirmed the result of round 1, table {match.table}",
        f"{match.player_a.player.display_name} won 2-0",
    ):
        assert sentence in body, (sentence, "\n".join(re.findall(r"<td>([^<]*)<", body)))
    for raw in RAW:
        assert raw not in body, raw
    # The filter offers kinds of entries in words, and still narrows by prefix.
    filtered = client.get(url("audit", tournament) + "?action=registration.").content.decode()
    assert "Dropped Player 04" in filtered and "Published the pairings" not in filtered
    assert '<option value="registration." selected>Registrations</option>' in filtered


def test_confirmation_pages_carry_no_raw_codes(client, tournament, organiser, register_players):
    registration = register_players(tournament, 2)[0]
    client.force_login(organiser)
    body = client.post(
        reverse(
            "tournaments:registration_action",
            args=[tournament.pk, registration.pk, "drop"],
        )
    ).content.decode()
    for raw in RAW:
        assert raw not in body, raw


def test_no_game_clock_on_my_match_once_the_match_is_confirmed(
    client, tournament, organiser, judge, register_players
):
    match = _one_match(tournament, organiser, register_players)
    services.start_round(round_=match.round, by=judge)
    a, b = match.player_a.player.user, match.player_b.player.user
    services.start_game(match=Match.objects.get(pk=match.pk), number=1, by=a)
    services.start_game(match=Match.objects.get(pk=match.pk), number=1, by=b)
    match = Match.objects.get(pk=match.pk)
    assert match.game_deadline_at is not None
    client.force_login(a)
    clock = re.search(
        r'id="match-clock".*?</div>', client.get(url("my_match", tournament)).content.decode(), re.S
    )
    assert "Game 1" in clock.group(0)
    services.report_result(match=match, by=judge, games=["a", "a"], expected_version=match.version)
    body = client.get(url("my_match", tournament)).content.decode()
    clock = re.search(r'id="match-clock".*?</div>', body, re.S).group(0)
    assert "Game 1" not in clock and "data-deadline" not in clock
    assert "You won 2-0 against" in body
