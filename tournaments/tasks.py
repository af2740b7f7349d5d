"""Celery tasks that enforce the clocks; the rules and the handler are in tournaments/clocks.py."""

from celery import shared_task

from tournaments import clocks


@shared_task(name="tournaments.enforce_match_deadline", acks_late=True)
def enforce_match_deadline(match_id: int, version: int, deadline: str | None = None) -> str:
    return clocks.enforce_match_deadline(match_id, version, deadline)


@shared_task(name="tournaments.enforce_game_deadline", acks_late=True)
def enforce_game_deadline(match_id: int, version: int, deadline: str | None = None) -> str:
    return clocks.enforce_game_deadline(match_id, version, deadline)
