"""One write to a session row: the lock order, the database's time, applying an action
to the log and saving the row with its snapshot and clocks (``Write``).

Also what every write checks first: who judges a session, whether its version is
current (``StaleVersion``), and the limits read from the settings.
"""

from __future__ import annotations

import dataclasses
import datetime

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection
from django.db.models import DateTimeField, Func
from django.utils.translation import gettext as _

from config.dbtime import db_now
from config.errors import in_words
from games import clocks, hosts
from games.engines import engine_for
from games.models import GameAction, GameSession
from games.services.state import State, remember_on_commit

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


def setting(name: str, default):
    return getattr(settings, name, default)


def decision_seconds() -> int:
    return int(setting("GAMES_DECISION_SECONDS", 60))


def swap_window_seconds() -> float:
    return float(setting("GAMES_SWAP_WINDOW_SECONDS", 120))


def practice_game_minutes() -> float:
    return float(setting("GAMES_PRACTICE_GAME_MINUTES", 20))


# --- permissions ----------------------------------------------------------------------


def can_judge_session(user, session: GameSession) -> bool:
    """Whoever the session's host says (a tournament game's judges and organisers; site
    judges for practice and demos)."""
    if user is None or not user.is_authenticated:
        return False
    return hosts.host_of(session).can_judge(user, session)


def require_judge(user, session):
    if not can_judge_session(user, session):
        raise PermissionDenied(_("Only the judges of this game may do this."))


def audit(session, by, action, *, after=None, reason=""):
    hosts.host_of(session).audit(session, by, action, after=after, reason=reason)


# --- locking --------------------------------------------------------------------------


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


def lock(session) -> GameSession:
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


def now_of(session) -> datetime.datetime:
    """Now by the database's clock: read with the locked row if it was, else asked."""
    return getattr(session, "locked_at", None) or db_now()


# --- one write ------------------------------------------------------------------------

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


@dataclasses.dataclass
class Write:
    """One write to a locked session: the state it has reached, the database's time of
    the write, and the seats whose decision became new since the write began (their
    decision clocks restart when it is saved)."""

    session: GameSession
    state: State
    now: datetime.datetime
    fresh: set[int] = dataclasses.field(default_factory=set)

    @property
    def engine(self):
        return engine_for(self.session.engine)

    def apply(self, actor, action, *, cause, user=None, note="") -> State:
        """Apply one action, append it to the log and track whose decision is new."""
        session, engine = self.session, self.engine
        before = engine.to_act(self.state)
        try:
            new, events = engine.apply(self.state, actor, action)
        except engine.IllegalAction as exc:
            raise ValidationError({"action": [in_words(exc)]}) from None
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
            created_at=self.now,
        )
        since = list(session.decision_since or [0] * session.seat_count)
        for seat in engine.to_act(new):
            if seat == actor or seat not in before:
                since[seat] = session.version
                self.fresh.add(seat)
        session.decision_since = since
        self.state = new
        return new

    def save(self, *, fields=PLAY_FIELDS, conceded_by: str = "") -> None:
        """Store the snapshot, set the clocks, and finish the game if it is over (its
        host is told, with the seat that conceded the whole match, if one did)."""
        session, state, now = self.session, self.state, self.now
        session.state = state.to_dict()
        if state.over and session.status != GameSession.Status.FINISHED:
            session.status = GameSession.Status.FINISHED
            result = dict(self.engine.result(state))
            # Every game's result names each seat's placing (the host reads them,
            # GameSession.placings); 36d6's result has them already.
            result.setdefault("placings", self.engine.placings(state))
            session.result = result
            session.ended_at = now
        clocks.update_deadlines(session, state, now, self.fresh)
        self.fresh = set()
        session.save(update_fields=fields)
        remember_on_commit(session, state)
        if session.status == GameSession.Status.FINISHED:
            hosts.host_of(session).on_game_over(session, now, conceded_by=conceded_by)
        else:
            clocks.queue_bots(session, state)
