"""Rounds that would take long to pair are paired by a background job (docs/pairing.md
"Background pairing"): the work limit of the pure core, the service, the page and the
API (202 and a status URL), and a real Celery worker running the job."""

import datetime

import pytest
from celery.contrib.testing.worker import start_worker
from django.core.exceptions import ValidationError
from django.db import connections
from django.urls import reverse

from config.celery import app as celery_app
from tests.conftest import api_as
from tests.waiting import wait_for
from tournaments import services
from tournaments.models import AuditEntry, PairingJob, Round, Tournament
from tournaments.pairing import PairingDeferred, PairingPlayer, pair_round
from tournaments.pairing.work import STAGE_EXACT, STAGE_LOWER_BOUND, STAGE_WINDOWS

# --- the pure core: a work limit and progress ----------------------------------------


def _met_everyone(count: int) -> list[PairingPlayer]:
    """Every player has met every other, so rematches are certain and only the
    whole-field tier can prove the optimum (a few such players among others are paired by
    the other tiers: forced rematch, barrier)."""
    everyone = frozenset(range(1, count + 1))
    return [
        PairingPlayer(
            id=i, points=3 if i <= count // 2 else 0, opponents=everyone - {i}, byes=0, rank=i
        )
        for i in range(1, count + 1)
    ]


def test_a_round_over_the_work_limit_is_deferred_before_its_matching_runs():
    players = _met_everyone(20)
    with pytest.raises(PairingDeferred) as raised:
        pair_round(players, 21, "s", work_limit=20**3 - 1)
    assert raised.value.stage == STAGE_EXACT
    assert raised.value.estimate == 20**3 and raised.value.limit == 20**3 - 1
    unlimited = pair_round(players, 21, "s")
    assert unlimited.method == "exact"
    # At the limit exactly it runs, with the same answer as without one.
    assert pair_round(players, 21, "s", work_limit=20**3) == unlimited


def test_lower_bound_rounds_never_defer_and_progress_names_each_tier():
    players = [
        PairingPlayer(id=i, points=3 * (i % 3), opponents=frozenset(), byes=0, rank=i)
        for i in range(1, 41)
    ]
    seen = []
    result = pair_round(players, 2, "s", work_limit=0, progress=lambda *a: seen.append(a))
    assert result.method == "lower_bound" and seen == [(STAGE_LOWER_BOUND, 0, 0)]
    seen.clear()
    pair_round(_met_everyone(20), 21, "s", progress=lambda *a: seen.append(a))
    assert seen[0] == (STAGE_LOWER_BOUND, 0, 0) and seen[-1] == (STAGE_EXACT, 0, 20**3)
    assert {stage for stage, _, _ in seen} <= {STAGE_LOWER_BOUND, STAGE_WINDOWS, STAGE_EXACT}


# --- the service, the page and the API ------------------------------------------------


@pytest.fixture
def second_round_due(tournament, register_players, organiser, judge):
    """Two players who met in round 1: round 2 needs a rematch, proved by the whole-field
    matching (8 units of work), so any limit below that sends it to the background."""
    register_players(tournament, 2)
    Tournament.objects.filter(pk=tournament.pk).update(swiss_rounds=3)
    round_ = services.pair_next_round(tournament=tournament, by=organiser, seed="r1")
    services.publish_round(round_=round_, by=organiser)
    services.start_round(round_=round_, by=judge)
    services.report_result(match=round_.matches.get(), by=judge, games=["a", "a"])
    services.close_round(round_=round_, by=organiser)
    return tournament


@pytest.mark.django_db
def test_a_costly_round_is_queued_as_a_job_and_one_job_at_a_time(
    second_round_due, organiser, settings
):
    settings.PAIRING_SYNC_WORK = 7
    job = services.pair_next_round(tournament=second_round_due, by=organiser, seed="r2")
    assert isinstance(job, PairingJob)
    assert (job.number, job.seed, job.status, job.estimate) == (2, "r2", "queued", 8)
    assert not Round.objects.filter(tournament=second_round_due, number=2).exists()
    assert AuditEntry.objects.filter(action="round.pairing_queued", object_id=job.pk).exists()
    with pytest.raises(ValidationError, match="being paired in the background"):
        services.pair_next_round(tournament=second_round_due, by=organiser)
    assert PairingJob.objects.count() == 1
    # The job's body (what the worker runs) stores the round; running it again is a no-op.
    assert services.run_pairing_job(job.pk) == "done"
    job.refresh_from_db()
    round_ = Round.objects.get(tournament=second_round_due, number=2)
    assert job.status == "done" and job.round == round_ and job.finished_at is not None
    assert round_.pairing_seed == "r2" and round_.pairing_cost["rematches"] == 1
    assert services.run_pairing_job(job.pk) == "nothing to do"
    assert Round.objects.filter(tournament=second_round_due).count() == 2


@pytest.mark.django_db
def test_a_job_no_worker_started_is_failed_when_the_organiser_pairs_again(
    second_round_due, organiser, settings
):
    settings.PAIRING_SYNC_WORK = 0
    job = services.pair_next_round(tournament=second_round_due, by=organiser, seed="r2")
    with pytest.raises(ValidationError):
        services.pair_next_round(tournament=second_round_due, by=organiser)
    PairingJob.objects.filter(pk=job.pk).update(
        created_at=job.created_at - datetime.timedelta(seconds=settings.PAIRING_QUEUE_TIMEOUT + 1)
    )
    again = services.pair_next_round(tournament=second_round_due, by=organiser, background=False)
    assert isinstance(again, Round)
    job.refresh_from_db()
    assert job.status == "failed" and "No worker started it" in job.error
    assert services.run_pairing_job(job.pk) == "nothing to do"


@pytest.mark.django_db
def test_small_rounds_stay_synchronous(second_round_due, organiser, settings):
    settings.PAIRING_SYNC_WORK = 8
    round_ = services.pair_next_round(tournament=second_round_due, by=organiser, seed="r2")
    assert isinstance(round_, Round) and round_.number == 2
    assert not PairingJob.objects.exists()


@pytest.mark.django_db
def test_a_failed_job_shows_its_error_and_pairing_is_open_again(
    second_round_due, organiser, client, settings
):
    settings.PAIRING_SYNC_WORK = 0
    job = services.pair_next_round(tournament=second_round_due, by=organiser, seed="r2")
    # Meanwhile the tournament moved on: the round is no longer the next one.
    Tournament.objects.filter(pk=second_round_due.pk).update(status=Tournament.Status.TOP_CUT)
    assert services.run_pairing_job(job.pk) == "failed"
    job.refresh_from_db()
    assert job.status == "failed" and "no longer the next round" in job.error
    client.force_login(organiser)
    page = client.get(reverse("tournaments:pairing_job", args=[second_round_due.pk, job.pk]))
    assert page.status_code == 200 and "no longer the next round" in page.content.decode()
    assert b'http-equiv="refresh"' not in page.content
    console = client.get(reverse("tournaments:console", args=[second_round_due.pk]))
    assert b"pairing-job-note" in console.content
    Tournament.objects.filter(pk=second_round_due.pk).update(status=Tournament.Status.SWISS)
    assert isinstance(
        services.pair_next_round(tournament=second_round_due, by=organiser, background=False),
        Round,
    )


@pytest.mark.django_db
def test_page_and_api_hand_a_costly_round_to_the_job(
    second_round_due, organiser, judge, make_user, client, settings
):
    settings.PAIRING_SYNC_WORK = 0
    client.force_login(organiser)
    answer = client.post(reverse("tournaments:action", args=[second_round_due.pk, "pair"]))
    job = PairingJob.objects.get()
    job_page = reverse("tournaments:pairing_job", args=[second_round_due.pk, job.pk])
    assert answer.status_code == 302 and answer["Location"] == job_page
    page = client.get(job_page)
    assert b'http-equiv="refresh"' in page.content and b'data-status="queued"' in page.content
    console = client.get(reverse("tournaments:console", args=[second_round_due.pk]))
    assert b"pairing-job-note" in console.content and b'id="pair-form"' not in console.content
    # The API refuses a second pairing while the job is queued.
    api = api_as(organiser)
    refused = api.post(f"/api/tournaments/{second_round_due.pk}/pair/", {}, format="json")
    assert refused.status_code == 400
    status_url = f"/api/tournaments/{second_round_due.pk}/pairing-jobs/{job.pk}/"
    seen = api_as(judge).get(status_url)
    assert seen.status_code == 200 and seen.json()["status"] == "queued"
    assert seen.json()["status_url"].endswith(status_url)
    # Hidden from anyone but the event's judges and organisers.
    assert api_as(make_user("nosy")).get(status_url).status_code == 403
    assert api_as(organiser).get(f"{status_url[:-2]}99999/").status_code == 404
    services.run_pairing_job(job.pk)
    done = api.get(status_url).json()
    assert done["status"] == "done" and done["round"] == Round.objects.get(number=2).pk
    assert client.get(job_page)["Location"].endswith("/rounds/2/manage/")


# --- a real worker --------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_the_worker_pairs_the_round_and_the_api_answers_202_then_done(
    second_round_due, organiser, settings
):
    settings.PAIRING_SYNC_WORK = 0
    api = api_as(organiser)
    with start_worker(celery_app, perform_ping_check=False, pool="solo", shutdown_timeout=10):
        answer = api.post(
            f"/api/tournaments/{second_round_due.pk}/pair/", {"seed": "w"}, format="json"
        )
        assert answer.status_code == 202, answer.content
        status_url = answer["Location"]
        assert status_url == answer.json()["status_url"]
        assert wait_for(lambda: api.get(status_url).json()["status"] == "done")
    connections.close_all()
    done = api.get(status_url).json()
    round_ = Round.objects.get(tournament=second_round_due, number=2)
    assert done["round"] == round_.pk and round_.pairing_seed == "w"
    assert round_.matches.count() == 1 and done["stage"] == STAGE_EXACT
    assert AuditEntry.objects.filter(action="round.paired", object_id=round_.pk).exists()
