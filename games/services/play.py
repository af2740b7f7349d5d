"""Playing a game: players' decisions, bots' moves, the engine's defaults when a
decision clock runs out, and the system's actions when time runs out (sudden death,
the host's time called)."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from config.dbtime import db_now
from games import hosts
from games.bots import bot_action
from games.engines import engine_for
from games.models import GameAction, GameSession
from games.services.rows import StaleVersion, Write, lock, lock_host_of, now_of
from games.services.state import state_of


def run_bots_inline(write: Write) -> None:
    """Practice games: the bot answers in the same request (bot_delay 0). A game of two
    bots with no delay is played whole at once, with the game limit at a fixed turn."""
    session, engine = write.session, write.engine
    if session.bot_delay > 0:
        return
    whole_game = all(session.seat_bot(seat) for seat in session.seats)
    moved = True
    while moved and not write.state.over:
        state = write.state
        limit_turn = engine.SIMULATED_LIMIT_TURN
        if whole_game and state.turn >= limit_turn and state.sudden_death_from is None:
            apply_sudden_death(write, "game time limit (bots at once)")
        moved = False
        for seat in sorted(engine.to_act(write.state)):
            kind = session.seat_bot(seat)
            if kind:
                seed = f"{session.pk}-{session.version}"
                action = bot_action(engine, kind, write.state, seat, seed=seed)
                write.apply(seat, action, cause=GameAction.Cause.BOT)
                moved = True


@transaction.atomic
def submit_action(
    *, session: GameSession, by, action, expected_version: int | None = None
) -> GameSession:
    """A player's decision. ``expected_version``: the state version the player decided
    on. It is checked against the version at which *their* pending decision began, so
    the two secret choices of a simultaneous decision never conflict with each other,
    while a duplicate or a decision made on an outdated board is refused."""
    session = lock(session)
    seat = session.seat_of(by)
    if seat is None:
        raise PermissionDenied(_("Only the players of this game may act in it."))
    require_running(session)
    to_act = engine_for(session.engine).to_act
    state = state_of(session)
    if expected_version is not None:
        since = (session.decision_since or [0] * session.seat_count)[seat]
        if (
            seat not in to_act(state)
            or expected_version < since
            or expected_version > session.version
        ):
            raise StaleVersion(session.version)
    if seat not in to_act(state):
        raise ValidationError(
            {"action": [_("It is not your decision now; wait for your opponent.")]}
        )
    if not isinstance(action, dict):
        raise ValidationError({"action": [_("An action is an object with a 'kind'.")]})
    write = Write(session, state, now_of(session))
    write.apply(seat, action, cause=GameAction.Cause.PLAYER, user=by)
    run_bots_inline(write)
    write.save()
    return session


def require_running(session):
    if session.status == GameSession.Status.WAITING:
        raise ValidationError(_("The game has not started yet: both players must be ready."))
    if session.status == GameSession.Status.PAUSED:
        raise ValidationError(_("A judge has paused this game."))
    if session.is_over:
        raise ValidationError(_("The game is over."))


def apply_defaults(session, state, seats, now):
    """The decision clock ran out for ``seats``: the engine's default action (a bot seat
    plays its own move). Caller holds the row lock."""
    write = Write(session, state, now)
    engine = write.engine
    for seat in seats:
        if seat not in engine.to_act(write.state):
            continue
        kind = session.seat_bot(seat)
        if kind:
            seed = f"{session.pk}-{session.version}"
            action = bot_action(engine, kind, write.state, seat, seed=seed)
            cause = GameAction.Cause.BOT
        else:
            action = engine.default_action(write.state, seat)
            cause = GameAction.Cause.CLOCK
        write.apply(seat, action, cause=cause)
    run_bots_inline(write)
    write.save()
    return write.state


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
        engine = engine_for(session.engine)
        seats = [s for s in sorted(engine.to_act(state)) if session.seat_bot(s)]
        if not seats:
            return "no bot to act"
        write = Write(session, state, db_now())
        for seat in seats:
            seed = f"{session.pk}-{session.version}"
            action = bot_action(engine, session.seat_bot(seat), write.state, seat, seed=seed)
            write.apply(seat, action, cause=GameAction.Cause.BOT)
        write.save()
    return "moved"


def switch_to_sudden_death(session, now, *, note: str) -> bool:
    """The game limit: sudden death from the next turn (once). Caller holds the lock."""
    if session.status not in (GameSession.Status.ACTIVE, GameSession.Status.PAUSED):
        return False
    state = state_of(session)
    if state.sudden_death_from is not None and state.sudden_death_from <= state.turn + 1:
        return False
    write = Write(session, state, now)
    apply_sudden_death(write, note)
    session.game_deadline_at = None
    write.save()
    return True


def apply_sudden_death(write: Write, note: str) -> None:
    """The system's sudden-death action in the log: from the next turn."""
    write.apply("system", {"kind": "sudden_death"}, cause=GameAction.Cause.SUDDEN_DEATH, note=note)


def end_for_host_time(session, now, *, action: str = "match_time_over") -> None:
    """The host's time ran out (a match's limit): the engine's system ``action`` ends the
    game in play. IRONDIE's ``match_time_over`` stops it unfinished and it counts for
    nobody (docs/rules.md); a game without such an ending is given its own time limit
    (``sudden_death``: 36d6 and Dice Forge end scored as they stand). Caller holds the
    host's lock and the session's."""
    write = Write(session, state_of(session), now)
    write.apply(
        "system",
        {"kind": action},
        cause=GameAction.Cause.MATCH_TIME,
        note="match time limit",
    )
    session.end_cause = "match_time"
    write.save()
