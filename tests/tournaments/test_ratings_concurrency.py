"""One player's matches in two events confirmed at the same moment: the ratings lock
serialises the two updates, so the stored figures are the replay's (docs/ratings.md).

Runs on PostgreSQL with real concurrent connections (threads).
"""

import datetime
import threading

import pytest
from django.db import connection, connections

from players.models import Rating as PlayerRating
from tournaments import services
from tournaments.models import Registration, Tournament
from tournaments.services.ratings import recompute_ratings

pytestmark = pytest.mark.django_db(transaction=True)


def _second_event(organiser, judge):
    event = services.create_tournament(
        organiser=organiser, name="Second Open", date=datetime.date(2026, 12, 6), head_judge=judge
    )
    return services.change_status(tournament=event, to=Tournament.Status.REGISTRATION, by=organiser)


def test_one_players_results_in_two_events_at_once(tournament, register_players, organiser, judge):
    if connection.vendor != "postgresql":
        pytest.skip("the ratings lock needs PostgreSQL")
    shared = register_players(tournament, 2)[0]
    other = _second_event(organiser, judge)
    opponent = register_players(other, 1, prefix="Other")[0]
    dice_set = shared.player.dice_sets.get()
    services.register(tournament=other, player=shared.player, dice_set=dice_set, by=organiser)
    matches = []
    for event in (tournament, other):
        round_ = services.pair_next_round(tournament=event, by=organiser, seed="s")
        services.publish_round(round_=round_, by=organiser)
        matches.append(round_.matches.get())
    assert Registration.objects.filter(player=shared.player).count() == 2
    barrier = threading.Barrier(2)
    errors = []

    def confirm(match, games):
        try:
            barrier.wait(timeout=10)
            services.report_result(match=match, by=judge, games=games)
        except Exception as exc:  # reported below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=confirm, args=(matches[0], ["a", "a"])),
        threading.Thread(target=confirm, args=(matches[1], ["b", "a", "b"])),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert errors == []
    assert PlayerRating.objects.get(player=shared.player).matches == 2
    assert PlayerRating.objects.get(player=opponent.player).matches == 1
    assert recompute_ratings()["changed"] == 0
