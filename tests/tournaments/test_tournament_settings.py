"""Changing a tournament's settings, walk-in players' protection, finishing without a top cut."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied, ValidationError

from players import services as player_services
from tournaments import services
from tournaments.models import AuditEntry, Tournament

pytestmark = pytest.mark.django_db


def test_update_settings_and_judges_is_logged(tournament, organiser, make_user):
    floor = make_user("floor")
    services.update_tournament(
        tournament=tournament,
        by=organiser,
        publish_standings=False,
        match_minutes=50,
        floor_judges=[floor],
    )
    tournament.refresh_from_db()
    assert not tournament.publish_standings and tournament.match_minutes == 50
    assert list(tournament.floor_judges.all()) == [floor]
    entry = AuditEntry.objects.get(action="tournament.updated")
    assert entry.before["match_minutes"] == 45 and entry.after["match_minutes"] == 50
    assert entry.after["floor_judges"] == [floor.pk]


@pytest.mark.parametrize(
    "changes,message",
    [
        ({"tiebreakers": ["match_points", "luck"]}, "at most once"),
        ({"top_cut_size": 7}, "not a valid choice"),
        ({"status": "finished"}, "cannot be changed"),
    ],
)
def test_bad_settings_change_nothing(tournament, organiser, changes, message):
    with pytest.raises(ValidationError, match=message):
        services.update_tournament(tournament=tournament, by=organiser, **changes)
    tournament.refresh_from_db()
    assert tournament.top_cut_size == 8 and tournament.status == Tournament.Status.REGISTRATION
    assert not AuditEntry.objects.filter(action="tournament.updated").exists()


def test_only_organisers_change_settings(tournament, judge):
    with pytest.raises(PermissionDenied):
        services.update_tournament(tournament=tournament, by=judge, name="Mine now")


def test_anonymous_cannot_act_for_a_walk_in_player(
    tournament, make_player, organiser, valid_playing
):
    walk_in = make_player("Walk In", with_user=False)
    dice_set = player_services.create_dice_set(player=walk_in, name="M", playing_dice=valid_playing)
    registration = services.register(
        tournament=tournament, player=walk_in, dice_set=dice_set, by=organiser
    )
    with pytest.raises(PermissionDenied):
        services.check_in(registration=registration, by=AnonymousUser())
    with pytest.raises(PermissionDenied):
        services.drop(registration=registration, by=AnonymousUser())
    registration.refresh_from_db()
    assert not registration.checked_in and not registration.dropped


def test_no_top_cut_finishes_after_swiss(tournament, register_players, organiser, judge):
    services.update_tournament(tournament=tournament, by=organiser, top_cut_size=0, swiss_rounds=1)
    register_players(tournament, 4)
    round_ = services.pair_next_round(tournament=tournament, by=organiser)
    services.publish_round(round_=round_, by=organiser)
    for match in round_.matches.all():
        services.report_result(match=match, by=judge, games=["a", "a"])
    services.close_round(round_=round_, by=organiser)
    services.start_top_cut(tournament=tournament, by=organiser)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED


def test_settings_change_through_the_api(tournament, organiser, judge, make_user):
    from tests.conftest import api_as

    floor = make_user("floor2")
    url = f"/api/tournaments/{tournament.pk}/"
    assert api_as(judge).patch(url, {"publish_results": False}, format="json").status_code == 403
    bad = api_as(organiser).patch(url, {"tiebreakers": ["luck"]}, format="json")
    assert bad.status_code == 400 and "tiebreakers" in bad.json()["errors"]
    response = api_as(organiser).patch(
        url, {"publish_results": False, "floor_judge_ids": [floor.pk]}, format="json"
    )
    assert response.status_code == 200, response.json()
    assert response.json()["publish_results"] is False and response.json()["floor_judges"] == [
        "floor2"
    ]
    tournament.refresh_from_db()
    assert not tournament.publish_results
