"""Celery tasks that enforce the match clocks; the mechanism is config/deadlines.py, the
rules and the handlers tournaments/clocks.py."""

from celery import shared_task

from tournaments import clocks, services


@shared_task(name="tournaments.enforce_match_deadline", acks_late=True)
def enforce_match_deadline(match_id: int, version: int, eta: str | None = None) -> str:
    return clocks.enforce_match_deadline(match_id, version, eta)


@shared_task(name="tournaments.enforce_game_deadline", acks_late=True)
def enforce_game_deadline(match_id: int, version: int, eta: str | None = None) -> str:
    return clocks.enforce_game_deadline(match_id, version, eta)


@shared_task(name="tournaments.enforce_pod_deadline", acks_late=True)
def enforce_pod_deadline(pod_game_id: int, version: int, eta: str | None = None) -> str:
    return clocks.enforce_pod_deadline(pod_game_id, version, eta)


@shared_task(name="tournaments.run_pairing_job", acks_late=True)
def run_pairing_job(job_id: int) -> str:
    return services.run_pairing_job(job_id)
