"""Decision clocks of online games, kept by the server (the pattern of tournaments/clocks.py).

- Every pending decision of a human seat has a deadline: the moment the decision became
  theirs plus the per-decision limit (``GAMES_DECISION_SECONDS``, 60 s by default). The
  two secret choices of a simultaneous decision each keep their own deadline, so one
  player committing does not give the other more time.
- When a deadline passes, the engine's ``default_action`` is applied for that seat
  (a bot seat plays its own move), logged with cause "clock".
- A waiting game (the swap window between games) starts when its deadline passes.
- Practice and demo games have a game limit (``GAMES_PRACTICE_GAME_MINUTES``, 20): past
  it, sudden death from the next turn. Tournament games get theirs from the match clock
  (tournaments/clocks.py calls ``tournaments.online.on_match_clock_event``).

Enforcement: the earliest deadline is the indexed column ``deadline_at``; setting it
bumps ``clock_version``. A session has at most one queued eta task, whose eta is
``clock_task_eta``: a new deadline publishes a task (after commit) only when none is
queued or the new deadline is earlier than the queued one; a task that fires before the
current deadline (the decision was made, the deadline moved later) re-queues itself for
it. The worker's own sweep (config/worker.py) covers overdue sessions every few seconds. Both call
``enforce_deadline``, which locks the row (a tournament game's match row first, the
lock order of docs/timing.md), checks the database's clock and acts at most
once: an action that makes the decision moves the deadline, so nothing is due when the
old task fires.
"""

from __future__ import annotations

import datetime
import logging

from django.conf import settings
from django.db import transaction

from config.dbtime import db_now
from games import hosts
from games.engines.irondie import to_act
from games.models import GameSession

log = logging.getLogger(__name__)
SEATS = (0, 1)
LOST_TASK = datetime.timedelta(seconds=60)  # a queued task this late will not come


def _eta_enabled() -> bool:
    return getattr(settings, "CLOCKS_USE_ETA", True)


def _parse(value):
    return datetime.datetime.fromisoformat(value) if value else None


def seat_deadlines(session: GameSession) -> list:
    deadlines = list(session.seat_deadlines or [None, None])
    return [_parse(d) for d in deadlines]


# --- setting deadlines (called by games/services.py with the row locked) --------------


def update_deadlines(session: GameSession, state, now, fresh: set) -> None:
    """After a change: a new deadline for every seat whose decision is new, none for
    seats with nothing to decide. Paused games keep their remaining time instead."""
    if session.status != GameSession.Status.ACTIVE or state.over:
        changed = session.deadline_at is not None or any(session.seat_deadlines or [])
        session.seat_deadlines = [None, None]
        session.deadline_at = None
        if state.over:
            session.game_deadline_at = None
            session.paused_remaining = None
        if changed:
            session.clock_version += 1
        return
    pending = to_act(state)
    old = seat_deadlines(session)
    new = []
    limit = datetime.timedelta(seconds=session.decision_seconds)
    for seat in SEATS:
        if seat not in pending:
            new.append(None)
        elif seat in fresh or old[seat] is None:
            new.append(now + limit)
        else:
            new.append(old[seat])
    if new != old:
        session.seat_deadlines = [d.isoformat() if d else None for d in new]
        session.deadline_at = min((d for d in new if d is not None), default=None)
        session.clock_version += 1
        schedule(session)


def schedule(session: GameSession) -> None:
    """Queue the eta task for the session's earliest deadline once the transaction
    commits, unless the queued one fires no later. Sets ``clock_task_eta``: the caller
    saves it with the row."""
    if session.deadline_at is None or not _eta_enabled():
        return
    queued = session.clock_task_eta
    if queued is not None and queued <= session.deadline_at:
        return  # that task re-queues itself for this deadline when it fires
    from games import tasks

    eta = session.deadline_at
    session.clock_task_eta = eta
    args = (session.pk, session.clock_version, eta.isoformat())
    transaction.on_commit(lambda: tasks.enforce_deadline.apply_async(args, eta=eta))


def schedule_game_limit(session: GameSession) -> None:
    if session.game_deadline_at is None or not _eta_enabled():
        return
    from games import tasks

    pk, eta = session.pk, session.game_deadline_at
    transaction.on_commit(lambda: tasks.enforce_game_limit.apply_async((pk,), eta=eta))


def queue_bots(session: GameSession, state) -> None:
    """Demo games: the bots' next move as a task after commit (practice bots move inline)."""
    if session.bot_delay <= 0 or session.status != GameSession.Status.ACTIVE:
        return
    if not any(session.seat_bot(seat) for seat in to_act(state)):
        return
    from games import tasks

    args, delay = (session.pk, session.version), session.bot_delay
    transaction.on_commit(lambda: tasks.play_bots.apply_async(args, countdown=delay))


def pause(session: GameSession, now) -> None:
    remaining = [
        max(0.0, (d - now).total_seconds()) if d is not None else None
        for d in seat_deadlines(session)
    ]
    game_left = (
        max(0.0, (session.game_deadline_at - now).total_seconds())
        if session.game_deadline_at
        else None
    )
    session.paused_remaining = {"seats": remaining, "game": game_left}
    session.seat_deadlines = [None, None]
    session.deadline_at = None
    session.game_deadline_at = None
    session.status = GameSession.Status.PAUSED
    session.clock_version += 1
    session.save()


def resume(session: GameSession, now) -> None:
    left = session.paused_remaining or {"seats": [None, None], "game": None}
    new = [now + datetime.timedelta(seconds=s) if s is not None else None for s in left["seats"]]
    session.seat_deadlines = [d.isoformat() if d else None for d in new]
    session.deadline_at = min((d for d in new if d is not None), default=None)
    if left.get("game") is not None:
        session.game_deadline_at = now + datetime.timedelta(seconds=left["game"])
    session.paused_remaining = None
    session.status = GameSession.Status.ACTIVE
    session.clock_version += 1
    schedule(session)
    session.save()
    schedule_game_limit(session)


# --- enforcement (eta tasks and the sweeper) ------------------------------------------


def enforce_deadline(session_id: int, version: int | None = None, eta: str | None = None) -> str:
    """Apply the default action for every overdue decision, or start a waiting game
    whose swap window closed. Idempotent; returns what it did.

    ``version`` and ``eta``: from an eta task (the sweeper passes neither). The session's
    queued task (``eta`` equal to ``clock_task_eta``) first marks itself as no longer
    queued, then re-queues itself if the deadline moved later; any other task whose
    ``version`` is not the current ``clock_version`` is a no-op."""
    from games import services

    with transaction.atomic():
        services.lock_host_of(session_id)  # the lock order: host (match), then session
        session = (
            GameSession.objects.select_for_update(of=("self",))
            .select_related(*hosts.related())
            .filter(pk=session_id)
            .first()
        )
        if session is None:
            return "gone"
        queued = session.clock_task_eta
        owner = eta is not None and queued is not None and _parse(eta) == queued
        if owner:
            session.clock_task_eta = None
            session.save(update_fields=["clock_task_eta"])
        elif version is not None and version != session.clock_version:
            return "stale"
        now = db_now()
        if not owner and queued is not None and queued < now - LOST_TASK:
            session.clock_task_eta = None  # its task was lost: let the next one be queued
            session.save(update_fields=["clock_task_eta"])
        if session.deadline_at is None or session.deadline_at > now:
            if owner and session.status in (
                GameSession.Status.WAITING,
                GameSession.Status.ACTIVE,
            ):
                schedule(session)
                session.save(update_fields=["clock_task_eta"])
                return "requeued" if session.clock_task_eta is not None else "not due"
            return "not due"
        if session.status == GameSession.Status.WAITING:
            return services.start_waiting(session.pk)
        if session.status != GameSession.Status.ACTIVE:
            return "not running"
        state = services.state_of(session)
        deadlines = seat_deadlines(session)
        overdue = [
            seat
            for seat in sorted(to_act(state))
            if deadlines[seat] is not None and deadlines[seat] <= now
        ]
        if not overdue:
            return "not due"
        late = max((now - deadlines[seat]).total_seconds() for seat in overdue)
        services.apply_defaults(session, state, overdue, now)
    log.info(
        "decision clock ran out",
        extra={"session": session_id, "seats": overdue, "late_seconds": round(late, 3)},
    )
    return "default applied"


def enforce_game_limit(session_id: int) -> str:
    """Practice and demo games past their limit: sudden death from the next turn."""
    from games import services

    with transaction.atomic():
        services.lock_host_of(session_id)  # none for these games; the same order anyway
        session = GameSession.objects.select_for_update(of=("self",)).filter(pk=session_id).first()
        if session is None:
            return "gone"
        now = db_now()
        if session.game_deadline_at is None or session.game_deadline_at > now:
            return "not due"
        if services.switch_to_sudden_death(session, now, note="game time limit"):
            return "sudden death"
        session.game_deadline_at = None
        session.save(update_fields=["game_deadline_at"])
        return "nothing to do"


def sweep() -> dict:
    """Enforce every overdue deadline: the safety net behind the eta tasks."""
    now = db_now()
    running = GameSession.objects.filter(
        status__in=(GameSession.Status.WAITING, GameSession.Status.ACTIVE)
    )
    due = list(running.filter(deadline_at__lte=now).values_list("pk", flat=True))
    limits = list(running.filter(game_deadline_at__lte=now).values_list("pk", flat=True))
    results = {"defaults": 0, "started": 0, "sudden_death": 0}
    for pk in due:
        outcome = enforce_deadline(pk)
        results["defaults"] += outcome == "default applied"
        results["started"] += outcome == "started"
    for pk in limits:
        results["sudden_death"] += enforce_game_limit(pk) == "sudden death"
    return results


# --- reading --------------------------------------------------------------------------


def clock_dict(session: GameSession, now) -> dict:
    """What a page needs to count down without drifting: deadlines and the server time."""
    deadlines = seat_deadlines(session)
    paused = session.paused_remaining if session.status == GameSession.Status.PAUSED else None
    data = {
        "server_time": now.isoformat(),
        "state": session.status,
        "decision_seconds": session.decision_seconds,
        "deadline_at": session.deadline_at.isoformat() if session.deadline_at else None,
        "seat_deadlines": [d.isoformat() if d else None for d in deadlines],
        "seat_remaining_seconds": (
            paused["seats"]
            if paused
            else [max(0.0, (d - now).total_seconds()) if d else None for d in deadlines]
        ),
        "game_deadline_at": session.game_deadline_at.isoformat()
        if session.game_deadline_at
        else None,
        "start_deadline_at": session.deadline_at.isoformat()
        if session.status == GameSession.Status.WAITING and session.deadline_at
        else None,
        "match": hosts.host_of(session).clock(session, now),
    }
    return data
