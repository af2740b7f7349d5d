"""Two judges confirm conflicting results of one match at the same moment: exactly one wins.

Runs on PostgreSQL with real concurrent connections (threads); the row lock serialises
the confirmations and the partial unique index backs it up.
"""

import threading

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, connections, transaction

from tournaments import services
from tournaments.models import Match, ResultSubmission

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def disputed_match(tournament, register_players, organiser, judge):
    register_players(tournament, 2)
    round_ = services.pair_next_round(tournament=tournament, by=organiser, seed="s")
    services.publish_round(round_=round_, by=organiser)
    match = round_.matches.get()
    services.report_result(match=match, by=match.player_a.player.user, games=["a", "a"])
    match.refresh_from_db()
    services.report_result(
        match=match, by=match.player_b.player.user, games=["b", "b"], expected_version=match.version
    )
    match.refresh_from_db()
    assert match.status == Match.Status.DISPUTED
    return match


def test_two_judges_confirming_conflicting_reports_exactly_one_wins(
    disputed_match, judge, make_user, tournament
):
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL")
    second_judge = make_user("judge2")
    tournament.floor_judges.add(second_judge)
    report_a, report_b = disputed_match.submissions.filter(
        status=ResultSubmission.Status.PENDING
    ).order_by("number")
    barrier = threading.Barrier(2)
    outcomes = {}

    def confirm(name, submission, user):
        try:
            barrier.wait(timeout=10)
            services.confirm_result(submission=submission, by=user)
            outcomes[name] = "confirmed"
        except ValidationError as exc:
            outcomes[name] = f"refused: {exc.messages[0]}"
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=confirm, args=("first", report_a, judge)),
        threading.Thread(target=confirm, args=("second", report_b, second_judge)),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(outcomes.values())[0] == "confirmed"
    assert sorted(outcomes.values())[1].startswith("refused")
    assert disputed_match.submissions.filter(status=ResultSubmission.Status.CONFIRMED).count() == 1
    disputed_match.refresh_from_db()
    confirmed = disputed_match.submissions.get(status=ResultSubmission.Status.CONFIRMED)
    expected_winner = (
        disputed_match.player_a_id if confirmed.games == ["a", "a"] else disputed_match.player_b_id
    )
    assert disputed_match.winner_id == expected_winner


def test_database_refuses_a_second_confirmed_version(disputed_match):
    report_a, report_b = disputed_match.submissions.filter(
        status=ResultSubmission.Status.PENDING
    ).order_by("number")
    ResultSubmission.objects.filter(pk=report_a.pk).update(status=ResultSubmission.Status.CONFIRMED)
    with pytest.raises(IntegrityError), transaction.atomic():
        ResultSubmission.objects.filter(pk=report_b.pk).update(
            status=ResultSubmission.Status.CONFIRMED
        )
