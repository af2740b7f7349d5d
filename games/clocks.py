"""Decision clocks, start windows and practice game limits of online games, kept by the server.

- Every pending decision of a human seat has a deadline: the moment the decision became
  theirs plus the per-decision limit (``GAMES_DECISION_SECONDS``, 60 s by default). The
  two secret choices of a simultaneous decision each keep their own deadline, so one
  player committing does not give the other more time.
- When a deadline passes, the engine's ``default_action`` is applied for that seat
  (a bot seat plays its own move), logged with cause "clock".
- A waiting game (the swap window between games) starts when its deadline passes.
- Practice and demo games have a game limit (``GAMES_PRACTICE_GAME_MINUTES``, 20): past
  it, sudden death from the next turn. Tournament games get theirs from the match clock
  (tournaments/clocks.py tells its listener ``tournaments.online.on_match_clock_event``).

Enforcement (games/enforcement.py): the earliest decision deadline (or the end of the start window) is the
``Deadline`` column ``deadline_at``, the practice game limit the ``Deadline`` column
``game_deadline_at`` (config/deadlines.py, the mechanism every clock shares: at most one
queued eta task per column, ``clock_task_eta`` and ``game_deadline_task_eta``, re-queued
when it fires early; the worker's sweep; the row lock, a tournament game's match row
first, the lock order of docs/timing.md; acting at most once). An action that makes the
decision moves the deadline, so nothing is due when an old task fires.
"""

from __future__ import annotations

import datetime

from celery import current_app
from django.db import transaction
from django.db.models import Q

from config.deadlines import Deadline, parse, time_left
from games import hosts
from games.engines import engine_for
from games.models import GameSession

# Sessions whose deadlines can still pass.
_LIVE = Q(status__in=(GameSession.Status.WAITING, GameSession.Status.ACTIVE))

# The earliest decision deadline of the seats, or the end of a waiting game's start window.
DECISION_DEADLINE = Deadline(
    model=GameSession,
    field="deadline_at",
    task="games.enforce_deadline",
    task_eta_field="clock_task_eta",
    related=hosts.related,  # what the session's host reads
    live=_LIVE,
)
# Practice and demo games (tournament games follow their match's game limit).
GAME_LIMIT = Deadline(
    model=GameSession,
    field="game_deadline_at",
    task="games.enforce_game_limit",
    task_eta_field="game_deadline_task_eta",
    live=_LIVE,
)


def seat_deadlines(session: GameSession) -> list:
    deadlines = list(session.seat_deadlines or [None] * session.seat_count)
    return [parse(d) for d in deadlines]


# --- setting deadlines (called by games/services/ with the row locked) ----------------


def update_deadlines(session: GameSession, state, now, fresh: set) -> None:
    """After a change: a new deadline for every seat whose decision is new, none for
    seats with nothing to decide. Paused games keep their remaining time instead."""
    if session.status != GameSession.Status.ACTIVE or state.over:
        changed = session.deadline_at is not None or any(session.seat_deadlines or [])
        session.seat_deadlines = [None] * session.seat_count
        if changed:
            DECISION_DEADLINE.clear(session)
        if state.over:
            session.game_deadline_at = None
            session.paused_remaining = None
        return
    pending = engine_for(session.engine).to_act(state)
    old = seat_deadlines(session)
    new = []
    limit = datetime.timedelta(seconds=session.decision_seconds)
    for seat in session.seats:
        if seat not in pending:
            new.append(None)
        elif seat in fresh or old[seat] is None:
            new.append(now + limit)
        else:
            new.append(old[seat])
    if new != old:
        session.seat_deadlines = [d.isoformat() if d else None for d in new]
        DECISION_DEADLINE.set(session, min((d for d in new if d is not None), default=None))


def open_start_window(session: GameSession, now, seconds: float) -> list[str]:
    """A waiting game starts when its start window closes; the columns to save."""
    return DECISION_DEADLINE.set(session, now + datetime.timedelta(seconds=seconds))


def start_game_limit(session: GameSession, now, minutes: float) -> list[str]:
    """Practice and demo games: sudden death from the next turn after ``minutes``; the
    columns to save."""
    return GAME_LIMIT.set(session, now + datetime.timedelta(minutes=minutes))


def queue_bots(session: GameSession, state) -> None:
    """Demo games: the bots' next move as a task after commit (practice bots move inline)."""
    if session.bot_delay <= 0 or session.status != GameSession.Status.ACTIVE:
        return
    if not any(session.seat_bot(seat) for seat in engine_for(session.engine).to_act(state)):
        return
    args, delay = (session.pk, session.version), session.bot_delay
    # By name: games.tasks imports the services, which import this module.
    transaction.on_commit(
        lambda: current_app.send_task("games.play_bots", args=args, countdown=delay)
    )


def _seconds_left(deadline, now) -> float | None:
    left = time_left(deadline, now)
    return None if left is None else left.total_seconds()


def pause(session: GameSession, now) -> None:
    """Every seat keeps the seconds it had left, and so does the game limit."""
    session.paused_remaining = {
        "seats": [_seconds_left(d, now) for d in seat_deadlines(session)],
        "game": _seconds_left(session.game_deadline_at, now),
    }
    session.seat_deadlines = [None] * session.seat_count
    DECISION_DEADLINE.clear(session)
    GAME_LIMIT.clear(session)
    session.status = GameSession.Status.PAUSED
    session.save()


def resume(session: GameSession, now) -> None:
    left = session.paused_remaining or {"seats": [None] * session.seat_count, "game": None}
    new = [now + datetime.timedelta(seconds=s) if s is not None else None for s in left["seats"]]
    session.seat_deadlines = [d.isoformat() if d else None for d in new]
    DECISION_DEADLINE.set(session, min((d for d in new if d is not None), default=None))
    if left.get("game") is not None:
        GAME_LIMIT.set(session, now + datetime.timedelta(seconds=left["game"]))
    session.paused_remaining = None
    session.status = GameSession.Status.ACTIVE
    session.save()


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
