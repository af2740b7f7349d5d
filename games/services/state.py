"""The engine state of a session: a per-process cache of parsed states, the snapshot,
and the replay of the log (the log is the truth, the snapshot and the cache serve reads).
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from django.conf import settings
from django.db import connection, transaction

from games.engines import engine_for
from games.models import GameSession

# An engine's state (each engine has its own State class, games/engines/__init__.py).
State = object

# Parsed engine states, per process: session id -> (commitment, version, State). The
# state of a game at a version never changes (the version counts the actions applied and
# every write locks the row), and the commitment tells two games apart, so an entry is
# right in any worker for as long as the row has that version. Writes add their new state
# only once their transaction has committed. States are never edited (``apply`` returns a
# new one), so requests may share them.
_states: OrderedDict[int, tuple[str, int, State]] = OrderedDict()
_states_lock = threading.Lock()


def state_cache_size() -> int:
    return int(getattr(settings, "GAMES_STATE_CACHE_SIZE", 2000))


def cached_state(session: GameSession) -> State | None:
    """The session's engine state if this process has it for the session's version."""
    mine = getattr(session, "_engine_state", None)
    if mine is not None and mine[0] == session.version:
        return mine[1]
    with _states_lock:
        entry = _states.get(session.pk)
        if entry is None or entry[0] != session.commitment or entry[1] != session.version:
            return None
        _states.move_to_end(session.pk)
        return entry[2]


def keep_with_row(session: GameSession, state: State) -> None:
    """The state of this instance of the row at its version, also before it is committed
    (the per-process cache takes it only once it is): the memo ``cached_state`` reads."""
    session._engine_state = (session.version, state)


def remember_state(session: GameSession, state: State) -> State:
    """Keep ``state`` as the session's state at its current version (a committed row)."""
    keep_with_row(session, state)
    _store(session.pk, session.commitment, session.version, state)
    return state


def remember_on_commit(session: GameSession, state: State) -> None:
    """Cache the new state once it is the committed state of its version."""
    keep_with_row(session, state)
    pk, commitment, version = session.pk, session.commitment, session.version
    transaction.on_commit(lambda: _store(pk, commitment, version, state))


def _store(pk, commitment, version, state) -> None:
    with _states_lock:
        _states[pk] = (commitment, version, state)
        _states.move_to_end(pk)
        while len(_states) > state_cache_size():
            _states.popitem(last=False)


def forget_states() -> None:
    with _states_lock:
        _states.clear()


def state_of(session: GameSession) -> State | None:
    """The engine state of the session's row: from the cache, else parsed from the
    snapshot (loaded now if the row was read without it)."""
    if not session.commitment:
        return None  # not started: no state yet
    state = cached_state(session)
    if state is not None:
        return state
    data = session.state  # a deferred snapshot is read here, from the same row
    if not data:
        return None
    state = engine_for(session.engine).State.from_dict(data)
    if connection.in_atomic_block:
        keep_with_row(session, state)  # known committed only later
        return state
    return remember_state(session, state)


def replayed_state(session: GameSession) -> State:
    """The game rebuilt from its config, seed and log alone (the log is the truth)."""
    entries = [(a.engine_actor, a.action) for a in session.actions.order_by("index")]
    return engine_for(session.engine).replay(session.config, session.seed, entries)
