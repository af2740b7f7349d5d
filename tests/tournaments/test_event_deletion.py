"""A site administrator can delete a whole event, whatever it holds; a single player's
registration that has matches cannot be deleted on its own (its results would lose a side)."""

import random

import pytest
from django.db.models import RestrictedError

from tournaments.models import Match, Registration, Round, Tournament

from .conftest import play_round_by_judge

pytestmark = pytest.mark.django_db


def test_an_event_with_played_rounds_is_deleted_whole(make_running_round, tournament, judge):
    round_ = make_running_round(players=6)
    play_round_by_judge(round_, judge, random.Random(3))
    assert Match.objects.filter(round__tournament=tournament).exists()

    tournament.delete()

    assert not Tournament.objects.filter(pk=tournament.pk).exists()
    assert not Round.objects.filter(tournament_id=tournament.pk).exists()
    assert not Registration.objects.filter(tournament_id=tournament.pk).exists()


def test_the_admin_deletes_an_event_with_matches(admin_client, make_running_round, tournament):
    make_running_round(players=4)
    url = f"/admin/tournaments/tournament/{tournament.pk}/delete/"
    page = admin_client.get(url)
    assert page.status_code == 200
    assert b"protected" not in page.content.lower()

    answer = admin_client.post(url, {"post": "yes"})

    assert answer.status_code == 302
    assert not Tournament.objects.filter(pk=tournament.pk).exists()


def test_a_registration_with_a_match_cannot_be_deleted_alone(make_running_round, tournament):
    round_ = make_running_round(players=4)
    registration = round_.matches.first().player_a

    with pytest.raises(RestrictedError):
        registration.delete()
    assert Registration.objects.filter(pk=registration.pk).exists()
