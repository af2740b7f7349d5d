"""Who hosts an online session: the one hook between games and the apps above it.

Games runs sessions and knows nothing of what they belong to. A session of a kind that
belongs to something larger (a tournament game belongs to a match) has a host, registered
for that ``GameSession.kind`` by the app above (tournaments registers its host in
``TournamentsConfig.ready``). Games calls only the methods of ``SessionHost``: the lock
taken before the session row, who may judge, how a game starts, what happens when it
ends, the audit, the host's clock, what pages show of the host and where the play page
leads back to in it. Practice and demo sessions have the default host, ``SessionHost``
itself, which does nothing.
"""

from __future__ import annotations

import dataclasses

from django.core.exceptions import ValidationError
from django.db.models import Q
from django.utils.translation import gettext as _

from players.roles import is_judge


@dataclasses.dataclass(frozen=True)
class GameStart:
    """How a hosted game starts. IRONDIE: both playing sets (seat 0, seat 1) and the turn
    from which sudden death applies (None: none from the start). Another game: its
    engine ``config`` whole (seats, variants), ``sets`` None. Both: the engine's game id."""

    sets: list | None
    game_id: str
    sudden_death_turn: int | None = None
    config: dict | None = None


class SessionHost:
    """What games needs from whoever hosts a session. This base class is the host of
    sessions that belong to nothing (practice and demo games): site judges judge them,
    they start with the sets they were created with, and nothing else happens."""

    # Relations of GameSession that this host reads (select_related with every read of
    # a session row, so that its methods need no further query).
    related: tuple[str, ...] = ()

    def lock(self, session_id: int) -> bool:
        """Lock this host's row of the session, if it has one (the lock order of
        docs/timing.md: the host row before the session row); whether it had one."""
        return False

    def can_judge(self, user, session) -> bool:
        return is_judge(user)

    def start(self, session, now) -> GameStart | None:
        """The start of a hosted game, or None: the session starts with the sets it
        was given and the game limit of practice games."""
        return None

    def on_game_over(self, session, now, *, conceded_by: str = "") -> None:
        """The game ended (finished, or cancelled while waiting); ``conceded_by`` ("a",
        "b") when a player conceded everything the host holds. A finished session's
        ``session.placings`` gives each seat's placing (1 first, ties shared): what a
        host of games of more than two seats records."""

    def conceding_side(self, session, seat: int, *, whole_match: bool) -> str:
        """The side ("a", "b") that concedes when ``seat`` does, or PermissionDenied when
        that seat may not concede for its side. Sessions of no match: nothing to tell."""
        return ""

    def check_concede_match(self, session) -> None:
        """Refuse a concession of the whole match when the session belongs to none."""
        raise ValidationError({"match": [_("Only a tournament game belongs to a match.")]})

    def audit(self, session, by, action: str, *, after=None, reason: str = "") -> None:
        """Record a judge's action on the game in the host's audit log."""

    def pause_clock(self, session, by, *, reason: str = "") -> None:
        """A judge paused the game: pause the host's clock too (if it runs)."""

    def resume_clock(self, session, by) -> None:
        """A judge resumed the game: resume the host's clock too (if it was paused)."""

    def clock(self, session, now) -> dict | None:
        """The host's clock as pages count it down (the "match" part of the clock)."""
        return None

    def describe(self, session) -> dict:
        """What pages and the API show of the host: the match, the game number and, in a
        team game whose teams have names (a team event's match), the names of team 0
        and team 1 (``teams``; None: the teams are named by their players)."""
        return {"match": None, "game_number": None, "teams": None}

    def way_back(self, session, user, viewer) -> dict | None:
        """Where the play page leads back to in the host, for ``user`` seen as ``viewer``
        (a seat, "judge" or "spectator"): ``{"url": ..., "label": ...}``, or None (the
        page has its list of games). Reads nothing beyond ``related``."""
        return None

    def next_session_id(self, session) -> int | None:
        """The session of the host's next game, once this one is over (None: none)."""
        return None

    def filter_sessions(self, queryset, params):
        """The session list filtered by the host's own query parameters."""
        return queryset

    def staff_sessions(self, user, path: str = "") -> Q | None:
        """The sessions a staff account may open in the admin (``path``: the way from
        the admin's model to GameSession); None: every session."""
        return None if user.is_superuser else Q(**{f"{path}pk__in": []})

    def open_session(self, reference, *, by):
        """Open the session that plays ``reference`` (e.g. a match id) online; None
        when there is no such thing to play."""
        return None


DEFAULT_HOST = SessionHost()
_hosts: dict[str, SessionHost] = {}


def register(kind: str, host: SessionHost) -> None:
    """Make ``host`` the host of every session of ``kind`` (once per process)."""
    _hosts[kind] = host


def host_of(session) -> SessionHost:
    return _hosts.get(session.kind, DEFAULT_HOST)


def host_for_kind(kind: str) -> SessionHost:
    return _hosts.get(kind, DEFAULT_HOST)


def registered() -> list[SessionHost]:
    return list(_hosts.values())


def lock_session_hosts(session_id: int) -> None:
    """Lock the host row of a session known only by its id: asks the hosts in the order
    they were registered until one has a row to lock (one query each; a session has one
    host, so a tournament match's game costs one query, as before pod tables had theirs)."""
    for host in _hosts.values():
        if host.lock(session_id):
            return


def related() -> tuple[str, ...]:
    """Every relation any host reads, for reads of sessions of unknown kind."""
    return tuple(path for host in _hosts.values() for path in host.related)


def filter_sessions(queryset, params):
    for host in _hosts.values():
        queryset = host.filter_sessions(queryset, params)
    return queryset


def staff_sessions(user, path: str = "") -> Q | None:
    """Sessions a staff account may see in the admin: what any host lets them see
    (None: every session)."""
    allowed = DEFAULT_HOST.staff_sessions(user, path)
    for host in _hosts.values():
        if allowed is None:
            return None
        mine = host.staff_sessions(user, path)
        allowed = None if mine is None else allowed | mine
    return allowed
