"""Every write to an online game goes through this package.

A game is its config, its seed commitment and an append-only log of actions
(games/models.py). Each function locks the session row (its host's row first, e.g. a
tournament game's match: the one lock order, docs/timing.md), lets the engine validate
the action, appends the engine's logged form to the log with the database's time,
refreshes the snapshot (a cache), resets the decision clocks (games/clocks.py) and, when
the game ends, tells the session's host (games/hosts.py), which decides what follows.
Games knows nothing of what hosts a session: everything about it goes through the host.

Errors are Django ``ValidationError`` (400 in the API), ``PermissionDenied`` (403) and
``StaleVersion`` (409): the request was made against a state that has moved on.

One module per concern, from the bottom: state (the state cache, the snapshot and the
replay), rows (locking, one write: apply an action and save the row, permissions,
limits), play (decisions, bots, defaults, sudden death), sessions (create, start,
practice, demo, hosted), judging (concede, award, pause, resume). This module lists
the public functions, so callers write ``services.submit_action``.
"""

from games.services.judging import award_game, concede, forfeit_seat, pause_game, resume_game
from games.services.play import (
    apply_defaults,
    end_for_host_time,
    play_bots,
    submit_action,
    switch_to_sudden_death,
)
from games.services.rows import (
    OPEN,
    SEATS,
    StaleVersion,
    can_judge_session,
    decision_seconds,
    lock,
    lock_host_of,
    practice_game_minutes,
    swap_window_seconds,
)
from games.services.sessions import (
    cancel_open,
    cancel_waiting,
    create_demo_game,
    create_hosted_session,
    create_practice_game,
    mark_ready,
    open_session,
    start_waiting,
)
from games.services.state import (
    cached_state,
    forget_states,
    remember_state,
    replayed_state,
    state_of,
)

__all__ = [
    "OPEN",
    "SEATS",
    "StaleVersion",
    "can_judge_session",
    "decision_seconds",
    "swap_window_seconds",
    "practice_game_minutes",
    "lock_host_of",
    "lock",
    "state_of",
    "cached_state",
    "remember_state",
    "forget_states",
    "replayed_state",
    "create_practice_game",
    "create_demo_game",
    "create_hosted_session",
    "open_session",
    "mark_ready",
    "start_waiting",
    "cancel_waiting",
    "cancel_open",
    "submit_action",
    "apply_defaults",
    "play_bots",
    "switch_to_sudden_death",
    "end_for_host_time",
    "concede",
    "forfeit_seat",
    "award_game",
    "pause_game",
    "resume_game",
]
