"""Result versions, confirmations, disputes, corrections and penalties, through the services."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from tournaments import selectors, services
from tournaments.models import AuditEntry, GameResult, Match, Penalty, ResultSubmission, Round
from tournaments.services.penalties import PENALTY_RULES

pytestmark = pytest.mark.django_db


@pytest.fixture
def live_round(tournament, register_players, organiser, judge):
    register_players(tournament, 4)
    round_ = services.pair_next_round(tournament=tournament, by=organiser, seed="fixed")
    services.publish_round(round_=round_, by=organiser)
    services.start_round(round_=round_, by=judge)
    return round_


def players_of(match):
    return match.player_a.player.user, match.player_b.player.user


def seen(match) -> int:
    """The match version a caller reads before replacing a result."""
    match.refresh_from_db()
    return match.version


def test_player_reports_opponent_confirms(live_round):
    match = live_round.matches.first()
    user_a, user_b = players_of(match)
    report = services.report_result(match=match, by=user_a, games=["a", "b", "a"])
    match.refresh_from_db()
    assert (
        match.status == Match.Status.REPORTED and report.status == ResultSubmission.Status.PENDING
    )
    with pytest.raises(PermissionDenied, match="opponent must confirm"):
        services.confirm_result(submission=report, by=user_a)
    services.confirm_result(submission=report, by=user_b)
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED
    assert (match.games_a, match.games_b, match.winner_id) == (2, 1, match.player_a_id)
    assert list(match.games.values_list("outcome", flat=True)) == ["a", "b", "a"]
    with pytest.raises(ValidationError, match="ask a judge"):
        services.report_result(match=match, by=user_b, games=["b", "b"])


def test_same_report_from_both_players_confirms(live_round):
    match = live_round.matches.first()
    user_a, user_b = players_of(match)
    services.report_result(match=match, by=user_a, games=["b", "b"])
    services.report_result(match=match, by=user_b, games=["b", "b"], expected_version=seen(match))
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED and match.winner_id == match.player_b_id
    assert match.submissions.filter(status=ResultSubmission.Status.CONFIRMED).count() == 1


def test_disagreement_makes_a_dispute_for_the_judge(live_round, judge):
    match = live_round.matches.first()
    user_a, user_b = players_of(match)
    services.report_result(match=match, by=user_a, games=["a", "a"])
    services.report_result(match=match, by=user_b, games=["b", "b"], expected_version=seen(match))
    match.refresh_from_db()
    assert match.status == Match.Status.DISPUTED
    services.report_result(
        match=match,
        by=judge,
        games=["a", "b", "b"],
        note="checked the score pad",
        expected_version=seen(match),
    )
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED and match.winner_id == match.player_b_id
    statuses = list(match.submissions.order_by("number").values_list("status", flat=True))
    assert statuses == ["superseded", "superseded", "confirmed"]


def test_rejecting_a_report_disputes_it(live_round):
    match = live_round.matches.first()
    user_a, user_b = players_of(match)
    report = services.report_result(match=match, by=user_a, games=["a", "a"])
    services.reject_result(submission=report, by=user_b, note="I won game 2")
    match.refresh_from_db()
    assert match.status == Match.Status.DISPUTED


def test_outsiders_cannot_report(live_round, make_user):
    match = live_round.matches.first()
    with pytest.raises(PermissionDenied):
        services.report_result(match=match, by=make_user("stranger"), games=["a", "a"])
    assert not match.submissions.exists()


@pytest.mark.parametrize(
    "games,message",
    [
        (["a", "a", "b"], "already won after game 2"),
        (["x"], "got 'x'"),
        (["draw"] * 6, "at most 5 games"),
    ],
)
def test_impossible_results_are_refused_and_write_nothing(live_round, judge, games, message):
    match = live_round.matches.first()
    with pytest.raises(ValidationError, match=message):
        services.report_result(match=match, by=judge, games=games)
    assert not match.submissions.exists() and not GameResult.objects.exists()


def test_draws_intentional_draws_and_concessions(live_round, judge):
    first, second = live_round.matches.filter(player_b__isnull=False)[:2]
    services.report_result(match=first, by=judge, games=["a", "b"])
    first.refresh_from_db()
    assert first.winner_id is None and (first.games_a, first.games_b) == (1, 1)
    services.report_result(
        match=first, by=judge, games=[], intentional_draw=True, expected_version=seen(first)
    )
    first.refresh_from_db()
    assert first.winner_id is None and first.games_a == first.games_b == 0
    services.report_result(match=second, by=judge, games=["b"], conceded_by="b")
    second.refresh_from_db()
    assert second.winner_id == second.player_a_id and (second.games_a, second.games_b) == (2, 1)


def test_judge_corrects_an_earlier_round_later_pairings_stay(
    tournament, live_round, organiser, judge
):
    for match in live_round.matches.filter(player_b__isnull=False):
        services.report_result(match=match, by=judge, games=["a", "a"])
    services.close_round(round_=live_round, by=organiser)
    round_two = services.pair_next_round(tournament=tournament, by=organiser)
    pairs_before = list(round_two.matches.values_list("player_a", "player_b"))
    match = live_round.matches.first()
    leader_before = selectors.standings(tournament).rows[0].player_id
    services.report_result(
        match=match, by=judge, games=["b", "b"], note="slip was wrong", expected_version=seen(match)
    )
    match.refresh_from_db()
    assert match.winner_id == match.player_b_id
    assert list(round_two.matches.values_list("player_a", "player_b")) == pairs_before
    entry = AuditEntry.objects.get(action="result.corrected")
    assert (
        entry.before["winner"] == match.player_a_id and entry.after["winner"] == match.player_b_id
    )
    assert entry.reason == "slip was wrong"
    assert selectors.standings(tournament).row(match.player_b_id).match_points == 3
    assert leader_before is not None


def test_stale_version_is_refused(live_round, judge):
    match = live_round.matches.first()
    seen = match.version
    services.report_result(match=match, by=judge, games=["a", "a"], expected_version=seen)
    with pytest.raises(ValidationError, match="changed while you were entering"):
        services.report_result(match=match, by=judge, games=["b", "b"], expected_version=seen)
    match.refresh_from_db()
    assert match.winner_id == match.player_a_id


def test_byes_are_confirmed_two_nil_on_publish(tournament, register_players, organiser):
    register_players(tournament, 5)
    round_ = services.pair_next_round(tournament=tournament, by=organiser)
    bye = round_.matches.get(player_b__isnull=True)
    assert bye.status == Match.Status.PENDING
    services.publish_round(round_=round_, by=organiser)
    bye.refresh_from_db()
    assert bye.status == Match.Status.CONFIRMED and (bye.games_a, bye.games_b) == (2, 0)
    assert bye.table is None


def test_game_loss_penalty_counts_as_a_game_for_the_opponent(live_round, judge):
    match = live_round.matches.first()
    user_a, user_b = players_of(match)
    services.give_penalty(
        registration=match.player_a,
        kind=Penalty.Kind.GAME_LOSS,
        reason="late",
        by=judge,
        match=match,
    )
    # The players report the games they played; the awarded game is counted first.
    with pytest.raises(ValidationError, match="already won"):
        services.report_result(match=match, by=user_a, games=["b", "b"])
    services.report_result(match=match, by=user_a, games=["a", "b"])
    match.refresh_from_db()
    assert match.status == Match.Status.REPORTED
    services.report_result(match=match, by=user_b, games=["a", "b"], expected_version=seen(match))
    match.refresh_from_db()
    assert (match.games_a, match.games_b, match.winner_id) == (1, 2, match.player_b_id)


def test_match_loss_and_disqualification(tournament, live_round, judge):
    first, second = live_round.matches.filter(player_b__isnull=False)[:2]
    services.give_penalty(
        registration=first.player_b, kind=Penalty.Kind.MATCH_LOSS, reason="marked cards", by=judge
    )
    first.refresh_from_db()
    assert (
        first.status == Match.Status.CONFIRMED
        and first.winner_id == first.player_a_id
        and first.match_loss_b
    )
    services.give_penalty(
        registration=second.player_a,
        kind=Penalty.Kind.DISQUALIFICATION,
        reason="cheating",
        by=judge,
    )
    second.refresh_from_db()
    second.player_a.refresh_from_db()
    assert second.winner_id == second.player_b_id
    assert second.player_a.dropped and second.player_a.disqualified
    rows = {row.player_id: row for row in selectors.standings(tournament).rows}
    assert rows[second.player_a_id].dropped  # stays in the standings
    assert live_round.__class__.objects.get(pk=live_round.pk).status == Round.Status.COMPLETE
    with pytest.raises(ValidationError, match="cannot be reinstated"):
        services.reinstate(registration=second.player_a, by=tournament.organiser)


def test_every_penalty_kind_has_one_rule():
    assert set(PENALTY_RULES) == set(Penalty.Kind.values)


def test_penalties_after_the_result_is_confirmed(live_round, judge):
    """The confirmed-match rows of PENALTY_RULES: a game loss re-decides the result with
    the awarded game, a disqualification leaves it standing, a match loss reverses it."""
    match = live_round.matches.filter(player_b__isnull=False).first()
    services.report_result(match=match, by=judge, games=["a", "a"])
    match.refresh_from_db()
    assert (match.games_a, match.games_b, match.winner_id) == (2, 0, match.player_a_id)

    services.give_penalty(
        registration=match.player_a,
        kind=Penalty.Kind.GAME_LOSS,
        reason="late",
        by=judge,
        match=match,
    )
    match.refresh_from_db()
    assert (match.games_a, match.games_b, match.winner_id) == (2, 1, match.player_a_id)

    services.give_penalty(
        registration=match.player_b,
        kind=Penalty.Kind.DISQUALIFICATION,
        reason="cheating",
        by=judge,
        match=match,
    )
    match.refresh_from_db()
    match.player_b.refresh_from_db()
    assert match.player_b.disqualified and not match.match_loss_b
    assert (match.games_a, match.games_b, match.winner_id) == (2, 1, match.player_a_id)

    services.give_penalty(
        registration=match.player_a,
        kind=Penalty.Kind.MATCH_LOSS,
        reason="marked",
        by=judge,
        match=match,
    )
    match.refresh_from_db()
    assert match.match_loss_a and match.winner_id == match.player_b_id
    assert match.submissions.filter(status=ResultSubmission.Status.CONFIRMED).count() == 1


def test_warning_is_logged_only(live_round, judge):
    match = live_round.matches.first()
    services.give_penalty(
        registration=match.player_a, kind=Penalty.Kind.WARNING, reason="slow play", by=judge
    )
    match.refresh_from_db()
    assert match.status == Match.Status.PENDING
    assert AuditEntry.objects.filter(action="penalty.warning", reason="slow play").exists()


def test_players_cannot_give_penalties(live_round):
    match = live_round.matches.first()
    user_a, _ = players_of(match)
    with pytest.raises(PermissionDenied):
        services.give_penalty(registration=match.player_b, kind="match_loss", reason="x", by=user_a)
    assert not Penalty.objects.exists()


@pytest.mark.parametrize(
    "games,time_called,draws_allowed,over",
    [
        (["a", "a"], False, True, True),
        (["a", "b"], False, True, False),
        (["a", "draw", "b", "draw", "draw"], False, True, True),  # five games
        (["a", "b"], True, True, True),  # Swiss at time: a draw
        (["a", "b"], True, False, False),  # top cut at time, level: one more game
        (["a"], True, False, True),  # top cut at time, A ahead
        ([], True, True, True),
    ],
)
def test_when_a_match_needs_no_further_game(games, time_called, draws_allowed, over):
    from tournaments.match_rules import match_is_over

    assert match_is_over(games, time_called=time_called, draws_allowed=draws_allowed) is over
