"""Seating a pod round in the background when it could run long (docs/pairing.md
"Background pairing"): the work limit of the pure pod core, the service's choice, the
job's page and a real Celery worker seating the round."""

from fractions import Fraction

import pytest
from celery.contrib.testing.worker import start_worker
from django.db import connections
from django.urls import reverse

from config.celery import app as celery_app
from tests.tournaments.pod_helpers import make_event, place_all, published
from tests.waiting import wait_for
from tournaments import services
from tournaments.models import AuditEntry, PairingJob, Round
from tournaments.pairing import PairingDeferred
from tournaments.pairing.pod_windows import WINDOW_NODES
from tournaments.pairing.pods import NODE_WORK, PROGRESS_NODES, PodPlayer, pair_pods
from tournaments.pairing.work import STAGE_EXACT, STAGE_LOWER_BOUND, STAGE_WINDOWS

BATCH = PROGRESS_NODES * NODE_WORK


def _all_met(count: int) -> list[PodPlayer]:
    """Everyone has met everyone: no seating avoids repeats, so the lower bound fails."""
    everyone = frozenset(range(1, count + 1))
    return [
        PodPlayer(id=i, points=Fraction(i % 2), opponents=everyone - {i}, short_tables=0, rank=i)
        for i in range(1, count + 1)
    ]


# --- the pure core ------------------------------------------------------------------------------


def test_the_exhaustive_tier_is_deferred_before_it_runs_past_the_limit():
    with pytest.raises(PairingDeferred) as deferred:
        pair_pods(_all_met(8), 3, "s", work_limit=BATCH - 1)
    assert (deferred.value.stage, deferred.value.estimate) == (STAGE_EXACT, BATCH)
    seen = []
    result = pair_pods(_all_met(8), 3, "s", work_limit=BATCH, progress=lambda *a: seen.append(a))
    assert result.method == "exact"
    assert seen == [(STAGE_LOWER_BOUND, 0, 0), (STAGE_EXACT, 0, BATCH)]
    # Without a limit the same seating, whatever the limit would have been.
    assert pair_pods(_all_met(8), 3, "s").tables == result.tables


def test_the_window_tier_is_charged_its_whole_budget_and_lower_bound_rounds_never_defer():
    with pytest.raises(PairingDeferred) as deferred:
        pair_pods(_all_met(20), 3, "s", work_limit=WINDOW_NODES * NODE_WORK - 1)
    assert deferred.value.stage == STAGE_WINDOWS
    fresh = [
        PodPlayer(id=i, points=Fraction(0), opponents=frozenset(), short_tables=0, rank=i)
        for i in range(1, 41)
    ]
    seen = []
    result = pair_pods(fresh, 1, "s", work_limit=0, progress=lambda *a: seen.append(a))
    assert result.method == "lower_bound" and seen == [(STAGE_LOWER_BOUND, 0, 0)]


# --- the service, the page and a real worker ------------------------------------------------------


@pytest.fixture
def rematch_due(organiser, judge, make_player):
    """Four players who sat together in round 1: round 2 repeats the table, which only the
    exhaustive tier proves (one batch of partial seatings of work)."""
    event = make_event(organiser, judge, swiss_rounds=3)
    for i in range(1, 5):
        player = make_player(f"Pod {i:02d}")
        services.register(tournament=event, player=player, by=player.user)
    round_ = published(event, organiser, judge)
    place_all(round_, judge)
    services.close_round(round_=round_, by=organiser)
    return event


@pytest.mark.django_db
def test_a_costly_pod_round_is_queued_and_the_job_seats_it(rematch_due, organiser, settings):
    settings.PAIRING_SYNC_WORK = BATCH - 1
    job = services.pair_next_round(tournament=rematch_due, by=organiser, seed="r2")
    assert isinstance(job, PairingJob)
    assert (job.number, job.seed, job.status, job.estimate) == (2, "r2", "queued", BATCH)
    assert job.stage == STAGE_EXACT
    assert not Round.objects.filter(tournament=rematch_due, number=2).exists()
    assert services.run_pairing_job(job.pk) == "done"
    job.refresh_from_db()
    round_ = Round.objects.get(tournament=rematch_due, number=2)
    assert job.status == "done" and job.round == round_
    assert round_.pairing_cost["method"] == "exact" and round_.pairing_cost["repeats"] == 6
    assert round_.pod_seats.count() == 4 and not round_.matches.exists()
    assert services.run_pairing_job(job.pk) == "nothing to do"


@pytest.mark.django_db
def test_a_cheap_pod_round_stays_in_the_request(rematch_due, organiser, settings):
    settings.PAIRING_SYNC_WORK = BATCH
    round_ = services.pair_next_round(tournament=rematch_due, by=organiser, seed="r2")
    assert isinstance(round_, Round) and round_.pairing_cost["method"] == "exact"
    assert not PairingJob.objects.exists()


@pytest.mark.django_db
def test_the_console_hands_a_costly_pod_round_to_the_job_page(
    client, rematch_due, organiser, settings
):
    settings.PAIRING_SYNC_WORK = 0
    client.force_login(organiser)
    answer = client.post(reverse("tournaments:action", args=[rematch_due.pk, "pair"]))
    job = PairingJob.objects.get()
    assert answer.url == reverse("tournaments:pairing_job", args=[rematch_due.pk, job.pk])
    page = client.get(answer.url).content.decode()
    assert "search over every seating of the field" in page
    assert 'http-equiv="refresh"' in page


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_seats_the_pod_round(rematch_due, organiser, settings):
    settings.PAIRING_SYNC_WORK = 0
    with start_worker(celery_app, perform_ping_check=False, pool="solo", shutdown_timeout=10):
        job = services.pair_next_round(tournament=rematch_due, by=organiser, seed="w")
        assert isinstance(job, PairingJob)
        assert wait_for(lambda: PairingJob.objects.get(pk=job.pk).status == "done")
    connections.close_all()
    round_ = Round.objects.get(tournament=rematch_due, number=2)
    assert round_.pairing_seed == "w" and round_.pod_tables.count() == 1
    assert AuditEntry.objects.filter(action="round.paired", object_id=round_.pk).exists()
