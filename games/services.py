"""Every write to an online game goes through here.

A game is its config, its seed commitment and an append-only log of actions
(games/models.py). Each function locks the session row (its host's row first, e.g. a
tournament game's match: the one lock order, docs/timing.md), lets the engine validate
the action, appends the engine's logged form to the log with the database's time,
refreshes the snapshot (a cache), resets the decision clocks (games/clocks.py) and, when
the game ends, tells the session's host (games/hosts.py), which decides what follows.
Games knows nothing of what hosts a session: everything about it goes through the host.

Errors are Django ``ValidationError`` (400 in the API), ``PermissionDenied`` (403) and
``StaleVersion`` (409): the request was made against a state that has moved on.
"""

from __future__ import annotations

import datetime
import logging
import threading
from collections import OrderedDict

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection, transaction
from django.db.models import DateTimeField, Func

from config.dbtime import db_now
from games import clocks, hosts
from games.bots import BOT_NAMES, bot_action
from games.engines.irondie import (
    IllegalAction,
    State,
    default_action,
    new_game,
    new_seed,
    replay,
    to_act,
)
from games.engines.irondie import apply as engine_apply
from games.engines.irondie import result as engine_result
from games.engines.irondie.bots import SIMULATED_LIMIT_TURN
from games.models import GameAction, GameSession
from players.people import public_name
from players.roles import is_judge

log = logging.getLogger(__name__)
SEATS = (0, 1)
OPEN = (GameSession.Status.WAITING, GameSession.Status.ACTIVE, GameSession.Status.PAUSED)


class StaleVersion(ValidationError):
    """The caller acted on a state version that is no longer current for their decision."""

    def __init__(self, current: int):
        self.current = current
        super().__init__(
            {
                "expected_version": [
                    f"The game has moved on (it is at version {current}); reload and decide again."
                ]
            }
        )


def _setting(name: str, default):
    return getattr(settings, name, default)


def decision_seconds() -> int:
    return int(_setting("GAMES_DECISION_SECONDS", 60))


def swap_window_seconds() -> float:
    return float(_setting("GAMES_SWAP_WINDOW_SECONDS", 120))


def practice_game_minutes() -> float:
    return float(_setting("GAMES_PRACTICE_GAME_MINUTES", 20))


# --- permissions ----------------------------------------------------------------------


def can_judge_session(user, session: GameSession) -> bool:
    """Whoever the session's host says (a tournament game's judges and organisers; site
    judges for practice and demos)."""
    if user is None or not user.is_authenticated:
        return False
    return hosts.host_of(session).can_judge(user, session)


def _require_judge(user, session):
    if not can_judge_session(user, session):
        raise PermissionDenied("Only the judges of this game may do this.")


# --- the log and the snapshot ---------------------------------------------------------


# Parsed engine states, per process: session id -> (commitment, version, State). The
# state of a game at a version never changes (the version counts the actions applied and
# every write locks the row), and the commitment tells two games apart, so an entry is
# right in any worker for as long as the row has that version. Writes add their new state
# only once their transaction has committed. States are never edited (``apply`` returns a
# new one), so requests may share them.
_states: OrderedDict[int, tuple[str, int, State]] = OrderedDict()
_states_lock = threading.Lock()


def state_cache_size() -> int:
    return int(_setting("GAMES_STATE_CACHE_SIZE", 2000))


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


def remember_state(session: GameSession, state: State) -> State:
    """Keep ``state`` as the session's state at its current version (a committed row)."""
    session._engine_state = (session.version, state)
    _store(session.pk, session.commitment, session.version, state)
    return state


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
    state = State.from_dict(data)
    if connection.in_atomic_block:
        session._engine_state = (session.version, state)  # known committed only later
        return state
    return remember_state(session, state)


def replayed_state(session: GameSession) -> State:
    """The game rebuilt from its config, seed and log alone (the log is the truth)."""
    entries = [(a.engine_actor, a.action) for a in session.actions.order_by("index")]
    return replay(session.config, session.seed, entries)


def lock_host_of(session) -> None:
    """The lock order of an online game (docs/timing.md): the host's row first (a
    tournament game's match), then the session row. Call this before locking a session;
    it locks the session's host row, if it has one, for the rest of the transaction
    (practice and demo games have none).

    ``session``: a GameSession read from the database (its kind, which names its host,
    never changes) or a session id, or an unread GameSession(pk=...) as the API passes
    (each registered host then locks its row through the session in one query; the
    session is not locked by it).

    The match clock (tournaments/clocks.py) locks the match and then the session; a game
    that ends or starts locks the match too. Taken the other way round here, a decision
    default and time called on the same match at the same instant deadlock, and
    PostgreSQL aborts one of them."""
    if isinstance(session, GameSession) and session.kind:
        hosts.host_of(session).lock(session.pk)
    else:
        hosts.lock_session_hosts(session.pk if isinstance(session, GameSession) else session)


def _lock(session) -> GameSession:
    """The session row, locked for the rest of the transaction (its host row first),
    without the snapshot and the config (``state_of`` takes the parsed state from the
    cache or reads the snapshot; the rare paths that need more load it on access)."""
    lock_host_of(session)
    queryset = (
        GameSession.objects.select_for_update(of=("self",))
        .select_related(*hosts.related())
        .defer("state", "config")
    )
    if connection.vendor == "postgresql":  # the database's clock, read with the row
        queryset = queryset.annotate(
            locked_at=Func(function="statement_timestamp", output_field=DateTimeField())
        )
    return queryset.get(pk=session.pk)


def _now(session) -> datetime.datetime:
    """Now by the database's clock: read with the locked row if it was, else asked."""
    return getattr(session, "locked_at", None) or db_now()


def _apply(session, state, actor, action, *, cause, now, user=None, note="") -> State:
    """Apply one action, append it to the log and track whose decision is new."""
    before = to_act(state)
    try:
        new, events = engine_apply(state, actor, action)
    except IllegalAction as exc:
        raise ValidationError({"action": [str(exc)]}) from None
    session.version += 1
    index = len(new.log) - 1
    if index != session.version - 1:  # pragma: no cover - the log and the rows must agree
        raise RuntimeError(f"log index {index} does not match version {session.version}")
    logged_actor, logged = new.log[-1]
    GameAction.objects.create(
        session=session,
        index=index,
        version=session.version,
        actor=str(logged_actor),
        user=user,
        cause=cause,
        action=logged,
        events=events,
        note=note[:300],
        created_at=now,
    )
    since = list(session.decision_since or [0, 0])
    fresh = getattr(session, "_fresh", set())
    for seat in to_act(new):
        if seat == actor or seat not in before:
            since[seat] = session.version
            fresh.add(seat)
    session.decision_since = since
    session._fresh = fresh
    return new


# The columns a played action may change (the rest of the row is written once).
PLAY_FIELDS = (
    "state",
    "version",
    "decision_since",
    "status",
    "result",
    "ended_at",
    "end_cause",
    "seat_deadlines",
    "deadline_at",
    "game_deadline_at",
    "paused_remaining",
    "clock_version",
    "clock_task_eta",
    "game_deadline_task_eta",
)
START_FIELDS = (*PLAY_FIELDS, "config", "seed", "commitment", "started_at")


def _save(session, state, now, *, fields=PLAY_FIELDS) -> None:
    """Store the snapshot, set the clocks, and finish the game if it is over."""
    session.state = state.to_dict()
    if state.over and session.status != GameSession.Status.FINISHED:
        session.status = GameSession.Status.FINISHED
        session.result = engine_result(state)
        session.ended_at = now
    clocks.update_deadlines(session, state, now, getattr(session, "_fresh", set()))
    session._fresh = set()
    session.save(update_fields=fields)
    session._engine_state = (session.version, state)
    session._db_now = now
    _remember_on_commit(session, state)
    if session.status == GameSession.Status.FINISHED:
        _game_over(session, now)
    else:
        clocks.queue_bots(session, state)


def _remember_on_commit(session, state) -> None:
    """Cache the new state once it is the committed state of its version."""
    pk, commitment, version = session.pk, session.commitment, session.version

    transaction.on_commit(lambda: _store(pk, commitment, version, state))


def _run_bots_inline(session, state, now) -> State:
    """Practice games: the bot answers in the same request (bot_delay 0). A game of two
    bots with no delay is played whole at once, with the game limit at a fixed turn."""
    if session.bot_delay > 0:
        return state
    whole_game = all(session.seat_bot(seat) for seat in (0, 1))
    moved = True
    while moved and not state.over:
        if whole_game and state.turn >= SIMULATED_LIMIT_TURN and state.sudden_death_from is None:
            state = _apply_sudden_death(session, state, now, "game time limit (bots at once)")
        moved = False
        for seat in sorted(to_act(state)):
            kind = session.seat_bot(seat)
            if kind:
                action = bot_action(kind, state, seat, seed=f"{session.pk}-{session.version}")
                state = _apply(session, state, seat, action, cause=GameAction.Cause.BOT, now=now)
                moved = True
    return state


# --- creating and starting games ------------------------------------------------------


def _new_session(**fields) -> GameSession:
    fields.setdefault("decision_seconds", decision_seconds())
    return GameSession.objects.create(engine="irondie", engine_version="1", **fields)


@transaction.atomic
def create_practice_game(
    *, by, playing_dice: list[dict], bot: str = "heuristic", bot_dice: list[dict] | None = None
) -> GameSession:
    """A game against a bot outside any tournament; the bot answers at once."""
    if by is None or not by.is_authenticated:
        raise PermissionDenied("Log in to practise.")
    if bot not in BOT_NAMES:
        raise ValidationError({"bot": [f"Choose one of: {', '.join(BOT_NAMES)}."]})
    session = _new_session(
        kind=GameSession.Kind.PRACTICE,
        user_0=by,
        name_0=_user_name(by),
        bot_1=bot,
        name_1=BOT_NAMES[bot],
        created_by=by,
    )
    _start(session, db_now(), sets=[playing_dice, bot_dice or playing_dice])
    return session


@transaction.atomic
def create_demo_game(
    *, by, sets: list[list[dict]], bots=("heuristic", "heuristic"), bot_delay: float | None = None
) -> GameSession:
    """Bot against bot, for watching; each move is a Celery task ``bot_delay`` seconds
    after the previous one (0: the whole game is played at once)."""
    if by is not None and not is_judge(by):
        raise PermissionDenied("Only judges and organisers start demo games.")
    for kind in bots:
        if kind not in BOT_NAMES:
            raise ValidationError({"bots": [f"Choose from: {', '.join(BOT_NAMES)}."]})
    delay = float(_setting("GAMES_DEMO_BOT_DELAY", 1.5)) if bot_delay is None else bot_delay
    session = _new_session(
        kind=GameSession.Kind.DEMO,
        bot_0=bots[0],
        bot_1=bots[1],
        name_0=f"{BOT_NAMES[bots[0]]} A",
        name_1=f"{BOT_NAMES[bots[1]]} B",
        bot_delay=delay,
        created_by=by,
    )
    _start(session, db_now(), sets=sets)
    return session


def _user_name(user) -> str:
    # The seat shows the public name, never the login name (players/people.py).
    return public_name(user) or "Player"


def _start(session, now, *, sets=None) -> None:
    """Create the engine state: a hosted game gets its sets from its host now (for
    tournament games this is the moment their swaps are revealed)."""
    start = hosts.host_of(session).start(session, now)
    if start is not None:
        sets, game_id, sudden_death_turn = start.sets, start.game_id, start.sudden_death_turn
    else:
        game_id, sudden_death_turn = f"s{session.pk}", None
    config = {"game_id": game_id, "sets": sets, "sudden_death_turn": sudden_death_turn}
    seed = new_seed()
    try:
        state = new_game(config, seed)
    except ValueError as exc:
        raise ValidationError({"dice": [str(exc)]}) from None
    session.config = state.config
    session.seed = seed
    session.commitment = state.commitment
    session.status = GameSession.Status.ACTIVE
    session.started_at = now
    session.version = 0
    session.decision_since = [0, 0]
    session._fresh = set(to_act(state))
    state = _run_bots_inline(session, state, now)
    _save(session, state, now, fields=START_FIELDS)
    if start is None and session.status == GameSession.Status.ACTIVE:
        # Practice and demo games have their own game limit (a game played whole at
        # once has none left to keep).
        session.save(update_fields=clocks.start_game_limit(session, now, practice_game_minutes()))


def create_hosted_session(kind: str, **fields) -> GameSession:
    """A session of a hosted ``kind`` (e.g. a tournament game), not yet started: the
    host links it to what it plays, then calls ``open_session``."""
    return _new_session(kind=kind, **fields)


def open_session(session: GameSession, now) -> None:
    """A hosted session opens with the swap window (both players ``ready``, or the window
    closes), or at once when there is no window. Caller holds the host's lock."""
    window = swap_window_seconds()
    if window <= 0:
        _start(session, now)
    else:
        session.save(update_fields=clocks.open_start_window(session, now, window))


@transaction.atomic
def mark_ready(*, session: GameSession, by) -> GameSession:
    """A player is ready for the next game (their swap, if any, is recorded); the game
    starts when both are, or when the swap window closes."""
    session = _lock(session)
    seat = session.seat_of(by)
    if seat is None:
        raise PermissionDenied("Only the two players of this game may start it.")
    if session.status != GameSession.Status.WAITING:
        raise ValidationError("This game has already started.")
    ready = set(session.ready or [])
    ready.add(seat)
    session.ready = sorted(ready)
    session.save(update_fields=["ready"])
    if ready == set(SEATS):
        _start(session, db_now())
    return session


def start_waiting(session_id: int) -> str:
    """The swap window closed (clock handler): start the game. Caller holds the lock."""
    session = GameSession.objects.select_related(*hosts.related()).get(pk=session_id)
    try:
        with transaction.atomic():
            _start(session, db_now())
    except ValidationError as exc:
        cancel_waiting(session, end_cause="not_started")
        log.warning("online game not started", extra={"session": session_id, "why": str(exc)})
        return "cancelled"
    return "started"


# --- playing --------------------------------------------------------------------------


@transaction.atomic
def submit_action(
    *, session: GameSession, by, action, expected_version: int | None = None
) -> GameSession:
    """A player's decision. ``expected_version``: the state version the player decided
    on. It is checked against the version at which *their* pending decision began, so
    the two secret choices of a simultaneous decision never conflict with each other,
    while a duplicate or a decision made on an outdated board is refused."""
    session = _lock(session)
    seat = session.seat_of(by)
    if seat is None:
        raise PermissionDenied("Only the two players of this game may act in it.")
    _require_running(session)
    state = state_of(session)
    if expected_version is not None:
        since = (session.decision_since or [0, 0])[seat]
        if (
            seat not in to_act(state)
            or expected_version < since
            or expected_version > session.version
        ):
            raise StaleVersion(session.version)
    if seat not in to_act(state):
        raise ValidationError({"action": ["It is not your decision now; wait for your opponent."]})
    if not isinstance(action, dict):
        raise ValidationError({"action": ["An action is an object with a 'kind'."]})
    now = _now(session)
    state = _apply(session, state, seat, action, cause=GameAction.Cause.PLAYER, now=now, user=by)
    state = _run_bots_inline(session, state, now)
    _save(session, state, now)
    return session


def _require_running(session):
    if session.status == GameSession.Status.WAITING:
        raise ValidationError("The game has not started yet: both players must be ready.")
    if session.status == GameSession.Status.PAUSED:
        raise ValidationError("A judge has paused this game.")
    if session.is_over:
        raise ValidationError("The game is over.")


@transaction.atomic
def concede(*, session: GameSession, by, whole_match: bool = False) -> GameSession:
    """A player concedes the game (or, in a tournament, the whole match)."""
    session = _lock(session)
    seat = session.seat_of(by)
    if seat is None:
        raise PermissionDenied("Only the two players of this game may concede it.")
    host = hosts.host_of(session)
    if whole_match:
        host.check_concede_match(session)
    if session.status == GameSession.Status.WAITING and whole_match:
        cancel_waiting(session, end_cause="conceded")
        host.on_game_over(session, db_now(), conceded_by="ab"[seat])
        return session
    if session.is_over or session.status == GameSession.Status.WAITING:
        raise ValidationError("There is no game in play to concede.")
    now = _now(session)
    state = _apply(
        session,
        state_of(session),
        "system",
        {"kind": "forfeit", "player": seat},
        cause=GameAction.Cause.CONCEDE,
        now=now,
        user=by,
        note="conceded the match" if whole_match else "conceded the game",
    )
    session.end_cause = "conceded"
    if whole_match:
        session._conceded_by = "ab"[seat]
    _save(session, state, now)
    return session


# --- judges ---------------------------------------------------------------------------


def _audit(session, by, action, *, after=None, reason=""):
    hosts.host_of(session).audit(session, by, action, after=after, reason=reason)


@transaction.atomic
def award_game(*, session: GameSession, by, winner: int, reason: str) -> GameSession:
    """A judge's ruling: the game goes to ``winner`` (logged in the game and the audit)."""
    session = _lock(session)
    _require_judge(by, session)
    if winner not in SEATS or isinstance(winner, bool):
        raise ValidationError({"winner": ["The winner is seat 0 or seat 1."]})
    if not (reason or "").strip():
        raise ValidationError({"reason": ["Say why the game is awarded."]})
    if session.status not in (GameSession.Status.ACTIVE, GameSession.Status.PAUSED):
        raise ValidationError("Only a game in play can be awarded.")
    now = db_now()
    state = _apply(
        session,
        state_of(session),
        "system",
        {"kind": "forfeit", "player": 1 - winner},
        cause=GameAction.Cause.RULING,
        now=now,
        user=by,
        note=reason,
    )
    session.end_cause = "ruling"
    _audit(session, by, "game.awarded", after={"winner_seat": winner}, reason=reason)
    _save(session, state, now)
    return session


@transaction.atomic
def pause_game(*, session: GameSession, by, reason: str = "") -> GameSession:
    """A judge stops the decision clocks (and, in a tournament, the match clock)."""
    session = _lock(session)
    _require_judge(by, session)
    if session.status != GameSession.Status.ACTIVE:
        raise ValidationError("Only a game in play can be paused.")
    clocks.pause(session, db_now())
    _audit(session, by, "game.paused", reason=reason)
    hosts.host_of(session).pause_clock(session, by, reason=reason)
    return session


@transaction.atomic
def resume_game(*, session: GameSession, by) -> GameSession:
    session = _lock(session)
    _require_judge(by, session)
    if session.status != GameSession.Status.PAUSED:
        raise ValidationError("This game is not paused.")
    clocks.resume(session, db_now())
    _audit(session, by, "game.resumed")
    hosts.host_of(session).resume_clock(session, by)
    return session


# --- clocks (called by games/clocks.py and by hosts' clocks) --------------------------


def apply_defaults(session, state, seats, now) -> State:
    """The decision clock ran out for ``seats``: the engine's default action (a bot seat
    plays its own move). Caller holds the row lock."""
    for seat in seats:
        if seat not in to_act(state):
            continue
        kind = session.seat_bot(seat)
        if kind:
            action = bot_action(kind, state, seat, seed=f"{session.pk}-{session.version}")
            cause = GameAction.Cause.BOT
        else:
            action = default_action(state, seat)
            cause = GameAction.Cause.CLOCK
        state = _apply(session, state, seat, action, cause=cause, now=now)
    state = _run_bots_inline(session, state, now)
    _save(session, state, now)
    return state


def play_bots(session_id: int, version: int) -> str:
    """Demo games: the bots to act move (Celery task). Idempotent by the state version."""
    with transaction.atomic():
        lock_host_of(session_id)
        session = (
            GameSession.objects.select_for_update(of=("self",))
            .select_related(*hosts.related())
            .filter(pk=session_id)
            .first()
        )
        if session is None:
            return "gone"
        if session.version != version:
            return "stale"
        if session.status != GameSession.Status.ACTIVE:
            return "not running"
        state = state_of(session)
        seats = [s for s in sorted(to_act(state)) if session.seat_bot(s)]
        if not seats:
            return "no bot to act"
        now = db_now()
        for seat in seats:
            action = bot_action(
                session.seat_bot(seat), state, seat, seed=f"{session.pk}-{session.version}"
            )
            state = _apply(session, state, seat, action, cause=GameAction.Cause.BOT, now=now)
        _save(session, state, now)
    return "moved"


def switch_to_sudden_death(session, now, *, note: str) -> bool:
    """The game limit: sudden death from the next turn (once). Caller holds the lock."""
    if session.status not in (GameSession.Status.ACTIVE, GameSession.Status.PAUSED):
        return False
    state = state_of(session)
    if state.sudden_death_from is not None and state.sudden_death_from <= state.turn + 1:
        return False
    state = _apply_sudden_death(session, state, now, note)
    session.game_deadline_at = None
    _save(session, state, now)
    return True


def _apply_sudden_death(session, state, now, note: str):
    """The system's sudden-death action in the log: from the next turn."""
    return _apply(
        session,
        state,
        "system",
        {"kind": "sudden_death"},
        cause=GameAction.Cause.SUDDEN_DEATH,
        now=now,
        note=note,
    )


def end_for_host_time(session, now) -> None:
    """The host's time ran out (a match's limit): the game in play stops unfinished and
    counts for nobody (docs/rules.md). Caller holds the host's lock and the session's."""
    state = _apply(
        session,
        state_of(session),
        "system",
        {"kind": "match_time_over"},
        cause=GameAction.Cause.MATCH_TIME,
        now=now,
        note="match time limit",
    )
    session.end_cause = "match_time"
    _save(session, state, now)


def cancel_waiting(session, *, end_cause: str) -> None:
    """A session waiting to start will not be played (it could not start, or its host
    was decided meanwhile)."""
    session.status = GameSession.Status.CANCELLED
    session.end_cause = end_cause
    session.deadline_at = None
    session.save(update_fields=["status", "end_cause", "deadline_at"])


# --- the end of a game ----------------------------------------------------------------


def _game_over(session, now) -> None:
    hosts.host_of(session).on_game_over(
        session, now, conceded_by=getattr(session, "_conceded_by", "")
    )
