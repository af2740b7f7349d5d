"""What happens when a deadline of an online game passes (games/clocks.py sets them).

The eta tasks (games/tasks.py) and the worker's sweep (registered in
``GamesConfig.ready``) call these; the mechanism (row locks, stale tasks, acting at
most once) is config/deadlines.py. A passed decision deadline applies the engine's
default for each overdue seat, a closed start window starts the waiting game, a passed
practice game limit switches to sudden death.
"""

from __future__ import annotations

import logging

from games import services
from games.clocks import DECISION_DEADLINE, GAME_LIMIT, seat_deadlines
from games.engines import engine_for
from games.models import GameSession

log = logging.getLogger(__name__)


def enforce_deadline(session_id: int, version: int | None = None, eta: str | None = None) -> str:
    """Apply the default action for every overdue decision, or start a waiting game
    whose swap window closed. Idempotent; returns what it did.

    ``version`` and ``eta``: from an eta task (the sweep passes neither); which task
    acts, re-queues itself or is stale: config/deadlines.py."""
    return DECISION_DEADLINE.enforce(
        session_id,
        version,
        eta,
        lock_first=services.lock_host_of,  # the lock order: host (match), then session
        finished=_not_running,
        act=_decision_due,
    )


def _not_running(session: GameSession) -> str | None:
    if session.status in (GameSession.Status.WAITING, GameSession.Status.ACTIVE):
        return None
    return "not running"


def _decision_due(session: GameSession, now) -> str:
    """The deadline passed (the row is locked): the start window closed, or defaults."""
    if session.status == GameSession.Status.WAITING:
        return services.start_waiting(session.pk)
    state = services.state_of(session)
    deadlines = seat_deadlines(session)
    overdue = [
        seat
        for seat in sorted(engine_for(session.engine).to_act(state))
        if deadlines[seat] is not None and deadlines[seat] <= now
    ]
    if not overdue:
        return "not due"
    late = max((now - deadlines[seat]).total_seconds() for seat in overdue)
    services.apply_defaults(session, state, overdue, now)
    log.info(
        "decision clock ran out",
        extra={"session": session.pk, "seats": overdue, "late_seconds": round(late, 3)},
    )
    return "default applied"


def enforce_game_limit(session_id: int, version: int | None = None, eta: str | None = None) -> str:
    """Practice and demo games past their limit: sudden death from the next turn."""
    return GAME_LIMIT.enforce(
        session_id,
        version,
        eta,
        lock_first=services.lock_host_of,  # none for these games; the same order anyway
        act=_game_limit_due,
    )


def _game_limit_due(session: GameSession, now) -> str:
    if services.switch_to_sudden_death(session, now, note="game time limit"):
        return "sudden death"
    session.game_deadline_at = None
    session.save(update_fields=["game_deadline_at"])
    return "nothing to do"


def sweep() -> dict:
    """Enforce every overdue deadline: the safety net behind the eta tasks."""
    decisions = DECISION_DEADLINE.sweep(enforce_deadline)
    limits = GAME_LIMIT.sweep(enforce_game_limit)
    return {
        "defaults": decisions.count("default applied"),
        "started": decisions.count("started"),
        "sudden_death": limits.count("sudden death"),
    }
