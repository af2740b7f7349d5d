"""Destructive and irreversible page actions ask first: a POST without the confirmation
answers with what the action will do and changes nothing; confirmed, it acts. Actions
are offered only when the services would allow them."""

import random

import pytest
from django.urls import reverse

from tests.tournaments.conftest import play_round_by_judge
from tests.tournaments.test_pages_public import play_rounds, url
from tournaments import services
from tournaments.models import AuditEntry, Match, Penalty, Round, Tournament

pytestmark = pytest.mark.django_db

CONFIRM = {"confirmed": "yes"}


def asked(response, *phrases):
    """The confirmation page: a title, what will happen, [Confirm] [Cancel]."""
    body = response.content.decode()
    assert response.status_code == 200
    assert 'id="confirm-step"' in body and "This will:" in body
    assert 'name="confirmed" value="yes"' in body and 'id="confirm-cancel"' in body
    for phrase in phrases:
        assert phrase in body, phrase
    return body


def audit_count():
    return AuditEntry.objects.count()


def test_a_player_drops_only_after_confirming(client, tournament, register_players):
    registration = register_players(tournament, 2)[0]
    client.force_login(registration.player.user)
    home = client.get(url("home", tournament)).content.decode()
    assert "Drop from the tournament" in home
    drop = url("registration_action", tournament, registration.pk, "drop")
    before = audit_count()
    body = asked(client.post(drop), "Drop from Test Open?", "not be paired in any later round")
    assert "Only an organiser can put you back in." in body
    assert f'action="{drop}"' in body and f'href="{url("home", tournament)}"' in body
    registration.refresh_from_db()
    assert not registration.dropped and audit_count() == before
    response = client.post(drop, CONFIRM, follow=True)
    assert "Player 01 dropped." in response.content.decode()
    registration.refresh_from_db()
    assert registration.dropped


def test_nobody_else_is_asked_to_confirm_a_drop(client, tournament, register_players):
    first, second = register_players(tournament, 2)
    client.force_login(second.player.user)
    drop = url("registration_action", tournament, first.pk, "drop")
    assert client.post(drop).status_code == 403
    first.refresh_from_db()
    assert not first.dropped


def test_the_organiser_confirms_a_drop_with_its_reason(
    client, tournament, organiser, register_players
):
    registration = register_players(tournament, 2)[0]
    client.force_login(organiser)
    drop = url("registration_action", tournament, registration.pk, "drop")
    body = asked(client.post(drop, {"reason": "left early"}), "Drop Player 01?")
    assert 'name="reason" value="left early"' in body  # carried to the confirmation
    assert "An organiser can reinstate them later." in body
    registration.refresh_from_db()
    assert not registration.dropped
    client.post(drop, {"reason": "left early", **CONFIRM})
    registration.refresh_from_db()
    assert registration.dropped
    assert AuditEntry.objects.filter(action="registration.dropped", reason="left early").exists()


def test_finish_asks_first_and_is_offered_only_when_allowed(
    client, tournament, organiser, judge, register_players
):
    register_players(tournament, 4)
    Tournament.objects.filter(pk=tournament.pk).update(swiss_rounds=1, top_cut_size=0)
    tournament.refresh_from_db()
    round_ = play_rounds(tournament, organiser, judge, 1, leave_open=True)
    client.force_login(organiser)
    console = client.get(url("console", tournament)).content.decode()
    assert 'id="finish-form"' not in console  # a round is still open
    play_round_by_judge(round_, judge, random.Random(1))
    services.close_round(round_=round_, by=organiser)
    console = client.get(url("console", tournament)).content.decode()
    assert 'id="finish-form"' in console
    asked(
        client.post(url("action", tournament, "finish")),
        "Finish Test Open?",
        "cannot be reopened",
    )
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.SWISS
    client.post(url("action", tournament, "finish"), CONFIRM)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED


def test_no_pair_round_beyond_the_swiss_rounds_and_top_cut_asks(
    client, tournament, organiser, judge, register_players
):
    register_players(tournament, 8)
    Tournament.objects.filter(pk=tournament.pk).update(swiss_rounds=2, top_cut_size=4)
    tournament.refresh_from_db()
    play_rounds(tournament, organiser, judge, 1)
    client.force_login(organiser)
    console = client.get(url("console", tournament)).content.decode()
    assert "Pair round 2" in console and 'id="top-cut-form"' not in console
    play_rounds(tournament, organiser, judge, 1)
    console = client.get(url("console", tournament)).content.decode()
    assert "Pair round 3" not in console and 'id="pair-form"' not in console
    assert "All 2 Swiss rounds have been played." in console
    assert 'id="top-cut-form"' in console and 'id="finish-form"' in console
    asked(
        client.post(url("action", tournament, "top_cut")),
        "Start the top cut of Test Open?",
        "no more Swiss rounds can be paired",
    )
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.SWISS
    client.post(url("action", tournament, "top_cut"), CONFIRM)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.TOP_CUT


@pytest.mark.parametrize(
    "action,status,phrase",
    [
        ("publish", Round.Status.DRAFT, "cannot be paired again"),
        ("repair", Round.Status.DRAFT, "every change made by hand"),
    ],
)
def test_draft_round_actions_ask_first(
    client, tournament, organiser, register_players, action, status, phrase
):
    register_players(tournament, 4)
    round_ = services.pair_next_round(tournament=tournament, by=organiser, seed="s")
    client.force_login(organiser)
    address = url("round_action", tournament, 1, action)
    before = audit_count()
    asked(client.post(address), phrase)
    assert Round.objects.get(tournament=tournament, number=1).pk == round_.pk
    assert Round.objects.get(pk=round_.pk).status == status and audit_count() == before
    client.post(address, CONFIRM)
    assert audit_count() > before


def test_start_and_close_ask_first(client, tournament, organiser, judge, register_players):
    register_players(tournament, 4)
    round_ = services.pair_next_round(tournament=tournament, by=organiser, seed="s")
    services.publish_round(round_=round_, by=organiser)
    client.force_login(organiser)
    start = url("round_action", tournament, 1, "start")
    asked(client.post(start), "Start round 1?", "45 minutes a match")
    round_.refresh_from_db()
    assert round_.status == Round.Status.PUBLISHED
    client.post(start, CONFIRM)
    round_.refresh_from_db()
    assert round_.status == Round.Status.IN_PROGRESS
    play_round_by_judge(round_, judge, random.Random(3))
    close = url("round_action", tournament, 1, "close")
    asked(client.post(close), "Close round 1?", "cannot be reopened")
    round_.refresh_from_db()
    assert round_.status == Round.Status.COMPLETE
    client.post(close, CONFIRM)
    round_.refresh_from_db()
    assert round_.status == Round.Status.CLOSED


def test_a_penalty_asks_first_with_its_effect(
    client, tournament, organiser, judge, register_players
):
    regs = register_players(tournament, 4)
    play_rounds(tournament, organiser, judge, 1, leave_open=True)
    client.force_login(judge)
    data = {"registration": regs[0].pk, "kind": "disqualification", "reason": "cheating"}
    body = asked(
        client.post(url("penalties", tournament), data),
        "Give Player 01 a disqualification?",
        "can never be reinstated",
    )
    assert 'name="reason" value="cheating"' in body
    assert not Penalty.objects.exists()
    regs[0].refresh_from_db()
    assert not regs[0].disqualified
    client.post(url("penalties", tournament), {**data, **CONFIRM})
    regs[0].refresh_from_db()
    assert regs[0].disqualified and Penalty.objects.count() == 1
    # An invalid form is refused inline, without a confirmation step.
    response = client.post(url("penalties", tournament), {**data, "reason": ""})
    assert "This field is required." in response.content.decode()
    assert 'id="confirm-step"' not in response.content.decode()


def test_removing_a_co_organiser_asks_first(client, tournament, organiser, make_user):
    helper = make_user("helper")
    services.add_co_organiser(tournament=tournament, user=helper, by=organiser)
    client.force_login(organiser)
    remove = reverse(
        "tournaments:co_organiser_action", kwargs={"pk": tournament.pk, "action": "remove"}
    )
    asked(client.post(remove, {"username": "helper"}), "Remove helper?")
    assert tournament.co_organisers.count() == 1
    client.post(remove, {"username": "helper", **CONFIRM})
    assert tournament.co_organisers.count() == 0


def test_round_actions_are_offered_only_when_allowed(
    client, tournament, organiser, judge, register_players
):
    register_players(tournament, 4)
    round_ = play_rounds(tournament, organiser, judge, 1, leave_open=True)
    client.force_login(organiser)
    page = client.get(url("round_manage", tournament, 1)).content.decode()
    assert 'id="start-form"' in page and 'id="close-form"' not in page
    for match in round_.matches.exclude(player_b=None):
        services.report_result(match=match, by=judge, games=["a", "a"])
    assert Match.objects.exclude(status=Match.Status.CONFIRMED).count() == 0
    page = client.get(url("round_manage", tournament, 1)).content.decode()
    assert 'id="close-form"' in page
