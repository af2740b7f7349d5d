"""Celery tasks of online games; the deadline mechanism is config/deadlines.py, what
happens when a deadline passes games/enforcement.py, the bots games/services/play.py."""

from celery import shared_task

from games import enforcement, services


@shared_task(name="games.enforce_deadline", acks_late=True)
def enforce_deadline(session_id: int, version: int, eta: str | None = None) -> str:
    return enforcement.enforce_deadline(session_id, version, eta)


@shared_task(name="games.enforce_game_limit", acks_late=True)
def enforce_game_limit(session_id: int, version: int | None = None, eta: str | None = None) -> str:
    return enforcement.enforce_game_limit(session_id, version, eta)


@shared_task(name="games.play_bots", acks_late=True)
def play_bots(session_id: int, version: int) -> str:
    return services.play_bots(session_id, version)
