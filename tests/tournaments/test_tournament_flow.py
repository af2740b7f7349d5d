"""A whole tournament through the services: 24 players, Swiss, top 8, finished."""

import random

import pytest
from django.core.exceptions import ValidationError

from tests.tournaments.conftest import play_round_by_judge
from tournaments import selectors, services
from tournaments.models import AuditEntry, Match, Round, Tournament

pytestmark = pytest.mark.django_db


def test_full_24_player_tournament_swiss_then_top_8(tournament, register_players, organiser, judge):
    registrations = register_players(tournament, 24)
    rng = random.Random(7)
    services.drop(
        registration=registrations[5], by=registrations[5].player.user, reason="had to leave"
    )
    round_numbers = []
    while True:
        round_ = services.pair_next_round(tournament=tournament, by=organiser)
        tournament.refresh_from_db()
        assert (
            tournament.status == Tournament.Status.SWISS and tournament.swiss_rounds == 5
        )  # 23 players -> 5
        matches = list(round_.matches.all())
        paired = [m.player_a_id for m in matches] + [
            m.player_b_id for m in matches if m.player_b_id
        ]
        assert (
            len(paired) == len(set(paired)) == 23
        )  # everyone active, once; the dropped player never
        assert registrations[5].pk not in paired
        assert sum(m.is_bye for m in matches) == 1
        assert all(m.reasons for m in matches)
        services.publish_round(round_=round_, by=organiser)
        services.start_round(round_=round_, by=judge)
        play_round_by_judge(round_, judge, rng)
        round_.refresh_from_db()
        assert round_.status == Round.Status.COMPLETE
        services.close_round(round_=round_, by=organiser)
        round_numbers.append(round_.number)
        if round_.number == tournament.swiss_rounds:
            break
    assert round_numbers == [1, 2, 3, 4, 5]
    with pytest.raises(ValidationError, match="All 5 Swiss rounds have been played"):
        services.pair_next_round(tournament=tournament, by=organiser)

    # No rematches and no second bye in five rounds of 23.
    pairs, byes = set(), []
    for match in Match.objects.filter(round__tournament=tournament):
        if match.is_bye:
            byes.append(match.player_a_id)
        else:
            pair = frozenset((match.player_a_id, match.player_b_id))
            assert pair not in pairs
            pairs.add(pair)
    assert len(byes) == len(set(byes)) == 5

    table = selectors.standings(tournament)
    top8 = table.ranked_player_ids(include_dropped=False)[:8]
    quarter = services.start_top_cut(tournament=tournament, by=organiser)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.TOP_CUT and tournament.top_cut_seeds == top8
    first_table = quarter.matches.get(table=1)
    assert (first_table.player_a_id, first_table.player_b_id) == (top8[0], top8[7])  # 1 v 8
    for _ in range(3):  # quarter-finals, semi-finals, final
        current = tournament.rounds.order_by("-number").first()
        services.publish_round(round_=current, by=organiser)
        services.start_round(round_=current, by=judge)
        play_round_by_judge(current, judge, rng)
        services.close_round(round_=current, by=organiser)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert selectors.bracket(tournament).champion in top8
    actions = set(AuditEntry.objects.filter(tournament=tournament).values_list("action", flat=True))
    assert {
        "round.paired",
        "round.published",
        "result.confirmed",
        "registration.dropped",
        "top_cut.started",
        "tournament.finished",
    } <= actions


def test_top_cut_refuses_a_draw(tournament, register_players, organiser, judge):
    tournament.swiss_rounds = 1
    tournament.top_cut_size = 2
    tournament.save()
    register_players(tournament, 4)
    round_ = services.pair_next_round(tournament=tournament, by=organiser)
    services.publish_round(round_=round_, by=organiser)
    for match in round_.matches.all():
        services.report_result(match=match, by=judge, games=["a", "a"])
    services.close_round(round_=round_, by=organiser)
    final = services.start_top_cut(tournament=tournament, by=organiser)
    services.publish_round(round_=final, by=organiser)
    match = final.matches.get()
    with pytest.raises(ValidationError, match="Top-cut matches need a winner"):
        services.report_result(match=match, by=judge, games=["a", "b"])
    with pytest.raises(ValidationError, match="cannot end in a draw"):
        services.report_result(match=match, by=judge, games=[], intentional_draw=True)
    services.report_result(match=match, by=judge, games=["a", "b", "b"])
    services.close_round(round_=final, by=organiser)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
