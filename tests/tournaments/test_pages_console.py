"""Organiser's console and judges' pages: permissions, forms, service errors shown,
the disputes queue order, result entry with versions, penalties, audit, slips."""

import datetime
import random
import re

import pytest
from django.db.models import Q
from django.urls import reverse

from tests.tournaments.conftest import play_round_by_judge
from tests.tournaments.test_pages_public import play_rounds, url
from tournaments import services
from tournaments.models import AuditEntry, Match, Registration, Round, Tournament

pytestmark = pytest.mark.django_db


CONFIRM = {"confirmed": "yes"}


def messages_of(response):
    return [str(m) for m in response.context["messages"]]


def test_create_tournament_form(client, organiser, judge, make_player):
    player = make_player("Pat")
    client.force_login(player.user)
    assert client.get(reverse("tournaments:create")).status_code == 403
    client.force_login(organiser)
    response = client.post(reverse("tournaments:create"), {"name": "", "date": "2026-05-01"})
    assert response.status_code == 200
    assert "This field is required." in response.content.decode()
    response = client.post(
        reverse("tournaments:create"),
        {
            "name": "Spring Open",
            "date": "2026-05-01",
            "venue": "Hall",
            "head_judge": judge.pk,
            "floor_judges": [judge.pk],
            "top_cut_size": 4,
            "match_minutes": 50,
            "game_minutes": 20,
            "late_entry": "nothing",
            "percentage_floor": "0.33",
            "publish_pairings": "on",
        },
    )
    tournament = Tournament.objects.get(name="Spring Open")
    assert response.status_code == 302
    assert response["Location"] == url("console", tournament)
    assert tournament.organiser == organiser and tournament.top_cut_size == 4
    assert list(tournament.floor_judges.all()) == [judge]
    assert not tournament.publish_standings


def test_edit_tournament_is_audited(client, tournament, organiser, judge):
    client.force_login(judge)
    assert client.get(url("edit", tournament)).status_code == 403
    client.force_login(organiser)
    form = client.get(url("edit", tournament)).context["form"]
    data = {k: v for k, v in form.initial.items() if v is not None}
    data.update(
        name="Renamed Open",
        date="2026-12-06",
        floor_judges=[],
        publish_pairings="on",
        publish_results="on",
    )
    data.pop("publish_standings", None)
    data.pop("tiebreakers", None)
    response = client.post(url("edit", tournament), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    tournament.refresh_from_db()
    assert tournament.name == "Renamed Open" and tournament.date == datetime.date(2026, 12, 6)
    assert not tournament.publish_standings
    entry = AuditEntry.objects.get(action="tournament.updated")
    assert entry.before["name"] == "Test Open" and entry.after["name"] == "Renamed Open"


def test_console_is_for_staff_and_actions_only_for_organisers(
    client, tournament, judge, make_player
):
    assert client.get(url("console", tournament)).status_code == 302  # to the login page
    player = make_player("Pat")
    client.force_login(player.user)
    assert client.get(url("console", tournament)).status_code == 403
    assert client.post(url("action", tournament, "pair")).status_code == 403
    client.force_login(judge)
    assert client.get(url("console", tournament)).status_code == 200
    assert client.post(url("action", tournament, "open_check_in")).status_code == 403
    assert client.get(url("action", tournament, "pair")).status_code == 405  # POST only


def test_registration_check_in_drop_reinstate_from_the_console(
    client, tournament, organiser, make_player, valid_playing, valid_additional
):
    from players import services as player_services

    player = make_player("Newcomer")
    dice_set = player_services.create_dice_set(
        player=player, name="Red", playing_dice=valid_playing, additional_dice=valid_additional
    )
    client.force_login(organiser)
    page = client.get(url("console", tournament)).content.decode()
    assert "Newcomer — Red" in page
    response = client.post(url("register", tournament), {"dice_set": dice_set.pk}, follow=True)
    assert "Newcomer registered." in messages_of(response)
    registration = Registration.objects.get(player=player)
    assert registration.playing_dice == valid_playing
    # Registered players are no longer offered; a stale form is refused inline.
    response = client.post(url("register", tournament), {"dice_set": dice_set.pk}, follow=True)
    assert messages_of(response) == [
        "Player and dice set: Choose a player and set from the suggestions "
        "(start typing the player's name)."
    ]

    client.post(url("action", tournament, "open_check_in"))
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CHECK_IN
    client.post(url("registration_action", tournament, registration.pk, "check_in"))
    registration.refresh_from_db()
    assert registration.checked_in
    # Dropping asks first: nothing changes until it is confirmed.
    response = client.post(
        url("registration_action", tournament, registration.pk, "drop"), {"reason": "ill"}
    )
    assert response.status_code == 200 and "Drop Newcomer?" in response.content.decode()
    registration.refresh_from_db()
    assert not registration.dropped
    response = client.post(
        url("registration_action", tournament, registration.pk, "drop"),
        {"reason": "ill", **CONFIRM},
        follow=True,
    )
    assert "Newcomer dropped." in messages_of(response)
    response = client.post(
        url("registration_action", tournament, registration.pk, "drop"), follow=True
    )
    assert "Newcomer has already dropped." in messages_of(response)
    client.post(url("registration_action", tournament, registration.pk, "reinstate"))
    registration.refresh_from_db()
    assert not registration.dropped
    assert AuditEntry.objects.filter(action="registration.dropped", reason="ill").exists()


def test_late_entry_during_swiss(
    client, tournament, organiser, judge, register_players, make_player, valid_playing
):
    from players import services as player_services

    register_players(tournament, 4)
    play_rounds(tournament, organiser, judge, 1)
    late = make_player("Latecomer")
    dice_set = player_services.create_dice_set(player=late, name="Late", playing_dice=valid_playing)
    client.force_login(organiser)
    page = client.get(url("console", tournament)).content.decode()
    assert "Register late entry" in page and "Missed rounds count as match losses" in page
    client.post(url("register", tournament), {"dice_set": dice_set.pk})
    assert Registration.objects.get(player=late).late_entry_round == 2


def test_pair_swap_repair_publish_start_close(
    client, tournament, organiser, judge, register_players
):
    register_players(tournament, 6)
    client.force_login(organiser)
    response = client.post(url("action", tournament, "pair"))
    assert response["Location"] == url("round_manage", tournament, 1)
    page = client.get(url("round_manage", tournament, 1)).content.decode()
    assert "Publish pairings" in page and 'class="reasons"' in page
    round_ = Round.objects.get(tournament=tournament, number=1)
    m1, m2 = list(round_.matches.order_by("table"))[:2]
    # No reason: refused inline, nothing changed.
    data = {"first": m1.player_a_id, "second": m2.player_a_id, "reason": " "}
    response = client.post(url("round_action", tournament, 1, "swap"), data)
    assert response.status_code == 200
    assert "This field is required." in response.content.decode()
    data["reason"] = "friends from the same club"
    response = client.post(url("round_action", tournament, 1, "swap"), data, follow=True)
    assert "Players swapped." in messages_of(response)
    m1.refresh_from_db()
    assert m1.player_a_id == data["second"]
    assert "changed by hand: friends from the same club" in response.content.decode()
    # Re-pair makes a new draft; publishing then closing too early shows the service error.
    client.post(url("round_action", tournament, 1, "repair"), CONFIRM)
    round_ = Round.objects.get(tournament=tournament, number=1)
    client.post(url("round_action", tournament, 1, "publish"), CONFIRM)
    client.post(url("round_action", tournament, 1, "start"), CONFIRM)
    round_.refresh_from_db()
    assert round_.status == Round.Status.IN_PROGRESS
    # Closing is not offered before every result is confirmed; forced, the service refuses.
    page = client.get(url("round_manage", tournament, 1)).content.decode()
    assert 'id="close-form"' not in page and 'id="close-hint"' in page
    response = client.post(url("round_action", tournament, 1, "close"), CONFIRM, follow=True)
    assert any("still has matches without a confirmed result" in m for m in messages_of(response))
    play_round_by_judge(round_, judge, random.Random(2))
    assert 'id="close-form"' in client.get(url("round_manage", tournament, 1)).content.decode()
    response = client.post(url("round_action", tournament, 1, "close"), CONFIRM, follow=True)
    assert "Round closed." in messages_of(response)
    # The next round is paired from the console.
    assert client.post(url("action", tournament, "pair")).status_code == 302
    assert Round.objects.filter(tournament=tournament, number=2).exists()
    # Judges see the draft but may not publish it.
    client.force_login(judge)
    assert client.get(url("round_manage", tournament, 2)).status_code == 200
    assert client.post(url("round_action", tournament, 2, "publish"), CONFIRM).status_code == 403


def test_disputes_queue_orders_disputed_reported_pending_confirmed(
    client, tournament, organiser, judge, register_players
):
    register_players(tournament, 8)
    round_ = play_rounds(tournament, organiser, judge, 1, leave_open=True)
    m = list(round_.matches.select_related("player_a__player", "player_b__player"))
    services.report_result(match=m[0], by=judge, games=["a", "a"])  # confirmed
    services.report_result(match=m[1], by=m[1].player_a.player.user, games=["a", "a"])  # reported
    report = services.report_result(match=m[2], by=m[2].player_a.player.user, games=["a", "a"])
    services.reject_result(submission=report, by=m[2].player_b.player.user, note="I won")
    client.force_login(judge)
    body = client.get(url("results", tournament)).content.decode()
    order = re.findall(r'<tr class="status-(\w+)">', body)
    assert order == ["disputed", "reported", "pending", "confirmed"]
    client.force_login(m[0].player_a.player.user)
    assert client.get(url("results", tournament)).status_code == 403


def test_judge_result_entry_versions_and_stale_form(
    client, tournament, organiser, judge, register_players
):
    register_players(tournament, 4)
    round_ = play_rounds(tournament, organiser, judge, 1, leave_open=True)
    match = round_.matches.exclude(player_b=None).first()
    client.force_login(judge)
    page = client.get(url("match", tournament, match.pk))
    assert page.status_code == 200
    version = page.context["form"]["expected_version"].value()
    assert version == match.version
    # A gap between games is refused by the form; an impossible result by the service.
    data = {"game_1": "a", "game_3": "a", "expected_version": version}
    response = client.post(url("match", tournament, match.pk), data)
    assert "Fill the games in order" in response.content.decode()
    data = {"game_1": "a", "game_2": "a", "game_3": "a", "expected_version": version}
    response = client.post(url("match", tournament, match.pk), data)
    assert response.status_code == 200 and 'class="errors"' in response.content.decode()
    # Someone else enters a result meanwhile: the stale form is refused.
    services.report_result(match=match, by=organiser, games=["b", "b"])
    data = {"game_1": "a", "game_2": "b", "game_3": "a", "expected_version": version}
    response = client.post(url("match", tournament, match.pk), data)
    assert "This match changed while you were entering the result" in response.content.decode()
    match.refresh_from_db()
    assert match.games_b == 2
    # With the current version the correction goes through and is a new version.
    data["expected_version"] = match.version
    response = client.post(url("match", tournament, match.pk), data)
    assert response.status_code == 302
    match.refresh_from_db()
    assert (match.games_a, match.games_b, match.status) == (2, 1, Match.Status.CONFIRMED)
    body = client.get(url("match", tournament, match.pk)).content.decode()
    assert "v1" in body and "v2" in body and "Superseded" in body
    # The history names who won each game, never the raw "a, b, a".
    a, b = match.player_a.player.display_name, match.player_b.player.display_name
    assert f"game 1: {a}; game 2: {b}; game 3: {a}" in body and "a, b, a" not in body


def test_penalties_form(client, tournament, organiser, judge, register_players):
    regs = register_players(tournament, 4)
    round_ = play_rounds(tournament, organiser, judge, 1, leave_open=True)
    client.force_login(regs[0].player.user)
    assert client.get(url("penalties", tournament)).status_code == 403
    client.force_login(judge)
    response = client.post(
        url("penalties", tournament), {"registration": regs[0].pk, "kind": "warning", "reason": ""}
    )
    assert "This field is required." in response.content.decode()
    response = client.post(
        url("penalties", tournament),
        {
            "registration": regs[0].pk,
            "kind": "match_loss",
            "reason": "slow play, third time",
            **CONFIRM,
        },
        follow=True,
    )
    assert "Penalty recorded." in messages_of(response)
    assert "slow play, third time" in response.content.decode()
    match = round_.matches.get(Q(player_a=regs[0]) | Q(player_b=regs[0]))
    assert match.status == Match.Status.CONFIRMED and match.winner_id != regs[0].pk


def test_audit_log_for_staff_only(client, tournament, organiser, judge, register_players):
    regs = register_players(tournament, 4)
    play_rounds(tournament, organiser, judge, 1)
    client.force_login(regs[0].player.user)
    assert client.get(url("audit", tournament)).status_code == 403
    client.force_login(judge)
    body = client.get(url("audit", tournament)).content.decode()
    assert "Published the pairings of round 1." in body and "Confirmed the result of" in body
    filtered = client.get(url("audit", tournament) + "?action=round.").content.decode()
    assert "Confirmed the result of" not in filtered and "Closed round 1." in filtered


def test_match_slips_one_per_table(client, tournament, organiser, judge, register_players):
    register_players(tournament, 7)
    round_ = play_rounds(tournament, organiser, judge, 1, leave_open=True)
    client.force_login(judge)
    body = client.get(url("slips", tournament, 1)).content.decode()
    assert body.count('<section class="slip">') == round_.matches.exclude(player_b=None).count()
    assert "Signature" in body and "@media print" not in body
    # A box for every game a match can have: drawn games lengthen it to five.
    assert "<th>Game 5</th>" in body and "<th>Game 6</th>" not in body


@pytest.mark.parametrize("players", [8, 32])
def test_staff_list_pages_run_a_constant_number_of_queries(
    client, tournament, organiser, judge, register_players, players, django_assert_max_num_queries
):
    register_players(tournament, players)
    play_rounds(tournament, organiser, judge, 2, leave_open=True)
    client.force_login(organiser)
    pages = [
        (url("console", tournament), 10),
        (url("round_manage", tournament, 2), 10),
        (url("results", tournament), 8),
        # The audit log names what each entry touched: one query per kind of object.
        (url("audit", tournament), 14),
        (url("penalties", tournament), 10),
        (url("slips", tournament, 2), 8),
        (url("standings", tournament), 8),
    ]
    for address, limit in pages:
        with django_assert_max_num_queries(limit):
            assert client.get(address).status_code == 200, address


def test_no_top_cut_finishes_instead(client, tournament, organiser, judge, register_players):
    register_players(tournament, 4)
    Tournament.objects.filter(pk=tournament.pk).update(swiss_rounds=1, top_cut_size=0)
    tournament.refresh_from_db()
    play_rounds(tournament, organiser, judge, 1)
    client.force_login(organiser)
    assert "Start the top cut" not in client.get(url("console", tournament)).content.decode()
    response = client.post(url("action", tournament, "top_cut"), follow=True)
    assert "This tournament has no top cut: finish it instead." in messages_of(response)
    response = client.post(url("action", tournament, "finish"), CONFIRM, follow=True)
    assert "Tournament finished." in messages_of(response)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
