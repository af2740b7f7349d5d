"""Creating and starting sessions: practice games against a bot, demo games of two
bots, and hosted sessions (a tournament's games), which open with a swap window and
start when both players are ready or the window closes."""

from __future__ import annotations

import logging

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from config.dbtime import db_now
from config.errors import in_words
from games import clocks, hosts
from games.bots import BOT_NAMES
from games.engines import engine_for
from games.models import GameSession
from games.services.play import run_bots_inline
from games.services.rows import (
    START_FIELDS,
    Write,
    decision_seconds,
    lock,
    practice_game_minutes,
    setting,
    swap_window_seconds,
)
from players.people import public_name
from players.roles import is_judge

log = logging.getLogger(__name__)


# The game a session plays unless it names another (games/engines/__init__.py: ENGINES).
ENGINE, ENGINE_VERSION = "irondie", "1"


def _new_session(**fields) -> GameSession:
    fields.setdefault("decision_seconds", decision_seconds())
    fields.setdefault("engine", ENGINE)
    fields.setdefault("engine_version", ENGINE_VERSION)
    return GameSession.objects.create(**fields)


@transaction.atomic
def create_practice_game(
    *,
    by,
    playing_dice: list[dict] | None = None,
    bot: str = "heuristic",
    bot_dice: list[dict] | None = None,
    game: str = ENGINE,
    seats: int | None = None,
    variants: list[str] | None = None,
) -> GameSession:
    """A game against bots outside any tournament; the bots answer at once. IRONDIE:
    the player's dice against the bot's. Other games: ``seats`` seats (the engine's
    fewest by default), the player in seat 0 and a bot of kind ``bot`` in every other,
    with the game's ``variants`` (36d6: docs/engine.md)."""
    if by is None or not by.is_authenticated:
        raise PermissionDenied(_("Log in to practise."))
    if bot not in BOT_NAMES:
        raise ValidationError(
            {"bot": [_("Choose one of: %(value1)s.") % {"value1": ", ".join(BOT_NAMES)}]}
        )
    if game != ENGINE:
        return _practice_n_seats(by, bot, game, seats, variants or [])
    if seats not in (None, 2):
        return _practice_team_game(by, bot, seats, playing_dice, bot_dice)
    session = _new_session(
        kind=GameSession.Kind.PRACTICE,
        user_0=by,
        name_0=_user_name(by),
        bot_1=bot,
        name_1=BOT_NAMES[bot],
        created_by=by,
    )
    start(session, db_now(), sets=[playing_dice, bot_dice or playing_dice])
    return session


@transaction.atomic
def create_demo_game(
    *,
    by,
    sets: list[list[dict]] | None = None,
    bots=("heuristic", "heuristic"),
    bot_delay: float | None = None,
    game: str = ENGINE,
    seats: int | None = None,
    variants: list[str] | None = None,
) -> GameSession:
    """Bot against bot, for watching; each move is a Celery task ``bot_delay`` seconds
    after the previous one (0: the whole game is played at once). Another game than
    IRONDIE: ``seats`` bots, taking the kinds of ``bots`` in turn."""
    if by is not None and not is_judge(by):
        raise PermissionDenied(_("Only judges and organisers start demo games."))
    for kind in bots:
        if kind not in BOT_NAMES:
            raise ValidationError(
                {"bots": [_("Choose from: %(value1)s.") % {"value1": ", ".join(BOT_NAMES)}]}
            )
    delay = float(setting("GAMES_DEMO_BOT_DELAY", 1.5)) if bot_delay is None else bot_delay
    if game != ENGINE:
        config = _n_seat_config(game, seats, variants or [])
        kinds = [bots[seat % len(bots)] for seat in range(config["seats"])]
        names = [f"{BOT_NAMES[kind]} {seat + 1}" for seat, kind in enumerate(kinds)]
        session = _new_session(
            engine=game,
            kind=GameSession.Kind.DEMO,
            bot_0=kinds[0],
            bot_1=kinds[1],
            name_0=names[0],
            name_1=names[1],
            extra_seats=[
                {"user": None, "bot": kinds[s], "name": names[s]} for s in range(2, len(kinds))
            ],
            bot_delay=delay,
            created_by=by,
        )
        start(session, db_now(), config=config)
        return session
    session = _new_session(
        kind=GameSession.Kind.DEMO,
        bot_0=bots[0],
        bot_1=bots[1],
        name_0=f"{BOT_NAMES[bots[0]]} A",
        name_1=f"{BOT_NAMES[bots[1]]} B",
        bot_delay=delay,
        created_by=by,
    )
    start(session, db_now(), sets=sets)
    return session


def _n_seat_config(game: str, seats, variants: list[str]) -> dict:
    """The config of a game named by its engine, checked by the engine (400s name the
    field: ``game``, ``seats`` or ``variants``)."""
    try:
        engine = engine_for(game)
    except LookupError:
        raise ValidationError(
            {"game": [_("No engine hosts the game “%(game)s”.") % {"game": game}]}
        ) from None
    fewest, most = engine.SEATS
    seats = fewest if seats is None else seats
    if isinstance(seats, bool) or not isinstance(seats, int) or not fewest <= seats <= most:
        raise ValidationError(
            {
                "seats": [
                    _("%(game)s is played by %(fewest)s to %(most)s players.")
                    % {"game": engine.GAME, "fewest": fewest, "most": most}
                ]
            }
        )
    config = {"game_id": "practice", "seats": seats, "variants": list(variants)}
    try:
        config = engine.new_game(config, engine.new_seed()).config  # checked before saving
    except engine.ConfigError as exc:
        raise ValidationError({"variants": [in_words(exc)]}) from None
    return config


def _practice_n_seats(by, bot: str, game: str, seats, variants: list[str]) -> GameSession:
    config = _n_seat_config(game, seats, variants)
    seats = config["seats"]
    bots = [f"{BOT_NAMES[bot]} {seat}" for seat in range(seats)]
    session = _new_session(
        engine=game,
        kind=GameSession.Kind.PRACTICE,
        user_0=by,
        name_0=_user_name(by),
        bot_1=bot,
        name_1=bots[1],
        extra_seats=[{"user": None, "bot": bot, "name": bots[s]} for s in range(2, seats)],
        created_by=by,
    )
    start(session, db_now(), config=config)
    return session


def _practice_team_game(by, bot: str, seats, playing_dice, bot_dice) -> GameSession:
    """IRONDIE's team game for practice: the player in seat 0 (captain of team 0) with
    their dice, a bot of kind ``bot`` in every other seat with ``bot_dice``: a teammate
    in seat 2 (and 4), the other team in seats 1 and 3 (and 5)."""
    engine = engine_for(ENGINE)
    if isinstance(seats, bool) or seats not in engine.SEAT_COUNTS:
        raise ValidationError(
            {"seats": [_("IRONDIE is played by two players, or by two teams of two or three.")]}
        )
    names = [_user_name(by)] + [f"{BOT_NAMES[bot]} {seat}" for seat in range(1, seats)]
    session = _new_session(
        kind=GameSession.Kind.PRACTICE,
        user_0=by,
        name_0=names[0],
        bot_1=bot,
        name_1=names[1],
        extra_seats=[{"user": None, "bot": bot, "name": names[s]} for s in range(2, seats)],
        created_by=by,
    )
    start(session, db_now(), sets=[playing_dice] + [bot_dice or playing_dice] * (seats - 1))
    return session


def _user_name(user) -> str:
    # The seat shows the public name, never the login name (players/people.py).
    return public_name(user) or "Player"


def start(session, now, *, sets=None, config=None) -> None:
    """Create the engine state: a hosted game gets its sets from its host now (for
    tournament games this is the moment their swaps are revealed). IRONDIE's config is
    built from the two ``sets``; another game's ``config`` is given whole."""
    host_start = hosts.host_of(session).start(session, now)
    if host_start is not None:
        sets, config = host_start.sets, host_start.config or config
        game_id, sudden_death_turn = host_start.game_id, host_start.sudden_death_turn
    else:
        game_id, sudden_death_turn = f"s{session.pk}", None
    if config is not None:
        config = {**config, "game_id": game_id}
    else:
        config = {"game_id": game_id, "sets": sets, "sudden_death_turn": sudden_death_turn}
    engine = engine_for(session.engine)
    seed = engine.new_seed()
    try:
        state = engine.new_game(config, seed)
    except ValueError as exc:
        raise ValidationError({"dice" if sets is not None else "config": [in_words(exc)]}) from None
    session.config = state.config
    session.seed = seed
    session.commitment = state.commitment
    session.status = GameSession.Status.ACTIVE
    session.started_at = now
    session.version = 0
    session.decision_since = [0] * session.seat_count
    write = Write(session, state, now, fresh=set(engine.to_act(state)))
    run_bots_inline(write)
    write.save(fields=START_FIELDS)
    if host_start is None and session.status == GameSession.Status.ACTIVE:
        # Practice and demo games have their own game limit (a game played whole at
        # once has none left to keep).
        session.save(update_fields=clocks.start_game_limit(session, now, practice_game_minutes()))


def create_hosted_session(kind: str, **fields) -> GameSession:
    """A session of a hosted ``kind`` (e.g. a tournament game), not yet started: the
    host links it to what it plays, then calls ``open_session``."""
    return _new_session(kind=kind, **fields)


def open_session(session: GameSession, now, *, window: bool = True) -> None:
    """A hosted session opens with the swap window (both players ``ready``, or the window
    closes), or at once when there is no window (``window=False``: the host has none for
    this game). Caller holds the host's lock."""
    window = swap_window_seconds() if window else 0
    if window <= 0:
        start(session, now)
    else:
        session.save(update_fields=clocks.open_start_window(session, now, window))


@transaction.atomic
def mark_ready(*, session: GameSession, by) -> GameSession:
    """A player is ready for the next game (their swap, if any, is recorded); the game
    starts when both are, or when the swap window closes."""
    session = lock(session)
    seat = session.seat_of(by)
    if seat is None:
        raise PermissionDenied(_("Only the players of this game may start it."))
    if session.status != GameSession.Status.WAITING:
        raise ValidationError(_("This game has already started."))
    ready = set(session.ready or [])
    ready.add(seat)
    session.ready = sorted(ready)
    session.save(update_fields=["ready"])
    if ready == set(session.seats):
        start(session, db_now())
    return session


def start_waiting(session_id: int) -> str:
    """The swap window closed (clock handler): start the game. Caller holds the lock."""
    session = GameSession.objects.select_related(*hosts.related()).get(pk=session_id)
    try:
        with transaction.atomic():
            start(session, db_now())
    except ValidationError as exc:
        cancel_waiting(session, end_cause="not_started")
        log.warning("online game not started", extra={"session": session_id, "why": str(exc)})
        return "cancelled"
    return "started"


def cancel_waiting(session, *, end_cause: str) -> None:
    """A session waiting to start will not be played (it could not start, or its host
    was decided meanwhile)."""
    session.status = GameSession.Status.CANCELLED
    session.end_cause = end_cause
    session.deadline_at = None
    session.save(update_fields=["status", "end_cause", "deadline_at"])


def cancel_open(session, now, *, end_cause: str) -> None:
    """The host settled what a session was for before its game ended (a judge's
    placings for a pod table): the game stops where it is, cancelled and unscored; its
    log stays. Caller holds the host's lock and the session's (``lock``)."""
    session.status = GameSession.Status.CANCELLED
    session.end_cause = end_cause
    session.ended_at = now
    session.seat_deadlines = [None] * session.seat_count
    session.paused_remaining = None
    fields = {"status", "end_cause", "ended_at", "seat_deadlines", "paused_remaining"}
    fields.update(clocks.DECISION_DEADLINE.clear(session))
    fields.update(clocks.GAME_LIMIT.clear(session))
    session.save(update_fields=sorted(fields))
