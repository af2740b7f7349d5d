"""Two identical requests at the same moment: one succeeds, the other gets a clear 4xx
(never a 500), and the data stays consistent.

Runs on PostgreSQL with real concurrent connections: each request runs in its own
thread (its own connection and transaction), released together by a barrier.
"""

import threading
from functools import partial

import pytest
from django.db import connection, connections

from players import services as player_services
from players.models import DiceSet, Player
from tests.conftest import VALID_PLAYING, api_as
from tournaments import services
from tournaments.models import AuditEntry, Round

pytestmark = pytest.mark.django_db(transaction=True)

ATTEMPTS = 3  # the race is real, not staged: try a few times to catch both interleavings


@pytest.fixture(autouse=True)
def postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("concurrent transactions need PostgreSQL")


def race(*requests):
    """Run the callables at the same moment; their responses, in the order given."""
    barrier = threading.Barrier(len(requests))
    responses = [None] * len(requests)

    def run(index, request):
        try:
            barrier.wait(timeout=10)
            responses[index] = request()
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=pair) for pair in enumerate(requests)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert all(r is not None for r in responses), "a request did not finish"
    return responses


def one_success_one_clear_refusal(responses, success, refusals):
    codes = sorted(r.status_code for r in responses)
    assert codes[0] == success and codes[1] in refusals, [r.content for r in responses]
    refused = next(r for r in responses if r.status_code != success)
    assert refused.json()["detail"], refused.content
    return refused.json()


def test_two_repairs_of_one_draft_round(tournament, register_players, organiser):
    register_players(tournament, 8)
    round_ = services.pair_next_round(tournament=tournament, by=organiser, seed="r")
    for _ in range(ATTEMPTS):
        url = f"/api/rounds/{round_.pk}/repair/"
        first, second = api_as(organiser), api_as(organiser)
        responses = race(partial(first.post, url, {}), partial(second.post, url, {}))
        body = one_success_one_clear_refusal(responses, 201, {404})
        # Either the repair found the round gone under its lock, or the view did.
        assert any(
            words in body["detail"] for words in ("no longer exists", "Not found", "No Round")
        ), body
        rounds = list(tournament.rounds.all())
        assert len(rounds) == 1 and rounds[0].status == Round.Status.DRAFT
        assert rounds[0].matches.count() == 4
        round_ = rounds[0]
    assert AuditEntry.objects.filter(action="round.unpaired").count() == ATTEMPTS


def test_two_sets_renamed_to_the_same_name(make_player):
    player = make_player("Rena")
    sets = [
        player_services.create_dice_set(
            player=player, name=f"Set {i}", playing_dice=[dict(d) for d in VALID_PLAYING]
        )
        for i in range(2 * ATTEMPTS)
    ]
    for attempt in range(ATTEMPTS):
        one, two = sets[2 * attempt], sets[2 * attempt + 1]
        name = f"Final {attempt}"
        first, second = api_as(player.user), api_as(player.user)
        responses = race(
            partial(first.patch, f"/api/dice-sets/{one.pk}/", {"name": name}, format="json"),
            partial(second.patch, f"/api/dice-sets/{two.pk}/", {"name": name}, format="json"),
        )
        body = one_success_one_clear_refusal(responses, 200, {400})
        assert "already have a set called" in body["detail"]
        assert DiceSet.objects.filter(player=player, name=name).count() == 1
    assert DiceSet.objects.filter(player=player).count() == 2 * ATTEMPTS


def test_creating_ones_player_profile_twice(make_user):
    for attempt in range(ATTEMPTS):
        user = make_user(f"twice{attempt}")
        first, second = api_as(user), api_as(user)
        responses = race(
            partial(first.post, "/api/players/", {"display_name": "Me"}, format="json"),
            partial(second.post, "/api/players/", {"display_name": "Me"}, format="json"),
        )
        body = one_success_one_clear_refusal(responses, 201, {400})
        assert "already has a player profile" in body["detail"]
        assert Player.objects.filter(user=user).count() == 1


def test_deleting_one_dice_set_twice(make_player):
    player = make_player("Dee")
    for attempt in range(ATTEMPTS):
        dice_set = player_services.create_dice_set(
            player=player, name=f"Doomed {attempt}", playing_dice=[dict(d) for d in VALID_PLAYING]
        )
        url = f"/api/dice-sets/{dice_set.pk}/"
        first, second = api_as(player.user), api_as(player.user)
        responses = race(partial(first.delete, url), partial(second.delete, url))
        one_success_one_clear_refusal(responses, 204, {404})
        assert not DiceSet.objects.filter(pk=dice_set.pk).exists()
