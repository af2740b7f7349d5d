"""Round, match and game clocks, kept by the server.

The timing rules (IRONDIE Tournament Rules; rulings in docs/rules.md, mechanics in
docs/timing.md):

- A round starts when a judge starts it; every match in it gets a deadline: the
  round's start plus the match limit (45 minutes by default) plus the match's own
  extensions.
- A game's limit (20 minutes by default) runs from the moment the game is marked
  started; past it the game goes to sudden-death turns from the next turn.
- When the match limit is reached, time is called: the game in progress stops
  unfinished and does not count, no new game starts, and the match is decided on games
  won (a draw in Swiss when level; in the top cut one more game under sudden death from
  its first turn).

How it is enforced: the match deadline and the game limit are two ``Deadline`` columns
of the match (config/deadlines.py, the mechanism every clock shares: eta tasks queued
after commit, at most one per column, re-queued when they fire early; the worker's
sweep; the row lock; acting at most once). This module says what happens when each
passes (``enforce_match_deadline``, ``enforce_game_deadline``); who else must know
(the online game of the match) registers with ``listen``.
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from config.dbtime import db_now
from config.deadlines import Deadline, time_left
from tournaments.audit import audit
from tournaments.models import Match, PodGame, PodSeat, PodTable, Round
from tournaments.permissions import can_judge

log = logging.getLogger(__name__)

# A judge's extension: 1-60 minutes at a time, at most 120 minutes in all for one match.
EXTENSION_MINUTES = (1, 60)
TOTAL_EXTENSION_MINUTES = 120
EXTENSION_MESSAGE = gettext_lazy("An extension is between 1 and 60 minutes.")


def clock_minutes(minutes: float) -> datetime.timedelta:
    """A number of the clocks' minutes as a duration: 60 s each, unless the installation
    plays in time lapse (``CLOCK_MINUTE_SECONDS``)."""
    return datetime.timedelta(seconds=float(minutes) * settings.CLOCK_MINUTE_SECONDS)


def in_clock_minutes(duration: datetime.timedelta) -> float:
    return duration.total_seconds() / settings.CLOCK_MINUTE_SECONDS


# The rows whose deadlines can still pass: no confirmed result, time not called.
_LIVE = ~Q(status=Match.Status.CONFIRMED) & Q(time_called_at__isnull=True)

MATCH_DEADLINE = Deadline(
    model=Match,
    field="deadline_at",
    remaining_field="deadline_remaining",
    task="tournaments.enforce_match_deadline",
    task_eta_field="deadline_task_eta",
    related=("round__tournament",),
    live=_LIVE,
)
GAME_DEADLINE = Deadline(
    model=Match,
    field="game_deadline_at",
    remaining_field="game_deadline_remaining",
    task="tournaments.enforce_game_deadline",
    task_eta_field="game_deadline_task_eta",
    related=("round__tournament",),
    live=_LIVE,
)

# A pod table played online (tournaments/pod_online.py) has no match: its time limit is
# the round's end, kept on its PodGame row and enforced the same way.
POD_DEADLINE = Deadline(
    model=PodGame,
    field="deadline_at",
    remaining_field="deadline_remaining",
    task="tournaments.enforce_pod_deadline",
    task_eta_field="deadline_task_eta",
    related=("table__round__tournament",),
    live=Q(time_called_at__isnull=True),
)

# Told "time_called" or "sudden_death" with the match id, inside the transaction that
# holds the match row: the online game of the match follows (tournaments.online, which
# sits above the clocks and registers in TournamentsConfig.ready).
ClockListener = Callable[[int, str], object]
_listeners: list[ClockListener] = []


def listen(listener: ClockListener) -> None:
    """Tell ``listener`` when the clock calls time on a match or starts sudden death."""
    if listener not in _listeners:
        _listeners.append(listener)


def _tell_listeners(match_id: int, event: str) -> None:
    for listener in _listeners:
        listener(match_id, event)


# Told the PodGame id when time is called on a pod table (inside the transaction that
# holds the PodGame row): its online game follows (tournaments.pod_online).
_pod_listeners: list[Callable[[int], object]] = []


def listen_pods(listener: Callable[[int], object]) -> None:
    """Tell ``listener`` when the clock calls time on a pod table played online."""
    if listener not in _pod_listeners:
        _pod_listeners.append(listener)


def _require_judge(user, round_: Round) -> None:
    if not can_judge(user, round_.tournament):
        raise PermissionDenied(_("Only the tournament's judges and organisers may change clocks."))


def _running(match: Match) -> bool:
    return (
        match.status != Match.Status.CONFIRMED and match.time_called_at is None and not match.is_bye
    )


# --- starting clocks (called by the services) -----------------------------------------


def start_round_clocks(round_: Round, now: datetime.datetime) -> None:
    """Give every match of a round that has just started its deadline."""
    limit = clock_minutes(round_.tournament.match_minutes)
    round_.ends_at = now + limit
    round_.paused_remaining = None
    round_.save(update_fields=["ends_at", "paused_remaining"])
    for match in round_.matches.all():
        if _running(match):
            set_deadline(match, round_.ends_at + match.extension)


def set_deadline(match: Match, deadline_at: datetime.datetime) -> None:
    """Give a match a new deadline; whatever was queued for the old one becomes a no-op."""
    match.save(update_fields=MATCH_DEADLINE.set(match, deadline_at))


def start_game_clock(match: Match, now: datetime.datetime) -> None:
    """A game was marked started: its limit runs from now (paused with the match)."""
    limit = clock_minutes(match.round.tournament.game_minutes)
    if match.deadline_at is None and match.deadline_remaining is not None:  # match paused
        fields = GAME_DEADLINE.set_paused(match, limit)
    else:
        fields = GAME_DEADLINE.set(match, now + limit)
    match.save(update_fields=fields)


# --- judges' controls -----------------------------------------------------------------


def _locked(match: Match) -> Match:
    return (
        Match.objects.select_for_update(of=("self",))
        .select_related(
            "round__tournament",
            "player_a__player",
            "player_a__team",
            "player_b__player",
            "player_b__team",
        )
        .get(pk=match.pk)
    )


def _check_extension(*, given: datetime.timedelta, minutes, reason: str, too_much: str) -> None:
    """The limits of one extension, the same for a match and a pod table: 1-60 minutes
    at a time, at most 120 in all, and a reason."""
    low, high = EXTENSION_MINUTES
    if not low <= int(minutes) <= high:
        raise ValidationError({"minutes": [str(EXTENSION_MESSAGE)]})
    given_minutes = int(in_clock_minutes(given))
    if given_minutes + int(minutes) > TOTAL_EXTENSION_MINUTES:
        raise ValidationError(
            {
                "minutes": [
                    too_much
                    % {
                        "TOTAL_EXTENSION_MINUTES": TOTAL_EXTENSION_MINUTES,
                        "given": given_minutes,
                        "value1": TOTAL_EXTENSION_MINUTES - given_minutes,
                    }
                ]
            }
        )
    if not (reason or "").strip():
        raise ValidationError(
            {"reason": [_("Say why the time is extended (e.g. judge call at table 4).")]}
        )


@transaction.atomic
def extend_match(*, match: Match, minutes: int, reason: str, by) -> Match:
    match = _locked(match)
    _require_judge(by, match.round)
    _check_extension(
        given=match.extension,
        minutes=minutes,
        reason=reason,
        too_much=_(
            "A match's extensions add up to at most %(TOTAL_EXTENSION_MINUTES)s minutes; this match has %(given)s already, so at most %(value1)s more."
        ),
    )
    if not _running(match):
        raise ValidationError(
            _("Time has already been called or the match is over; extensions come before time.")
        )
    if match.deadline_at is None and match.deadline_remaining is None:
        raise ValidationError(_("The round has not started yet."))
    extra = clock_minutes(int(minutes))
    before = _clock_dict(match)
    match.extension += extra
    if match.deadline_at is not None:
        fields = MATCH_DEADLINE.set(match, match.deadline_at + extra)
    else:
        fields = MATCH_DEADLINE.set_paused(match, match.deadline_remaining + extra)
    match.save(update_fields=["extension", *fields])
    audit(
        match.round.tournament,
        by,
        "clock.extended",
        match,
        before=before,
        after=_clock_dict(match),
        reason=reason,
    )
    return match


def _pause(match: Match, now) -> bool:
    if not _running(match) or not MATCH_DEADLINE.pause(match, now):
        return False
    GAME_DEADLINE.pause(match, now)  # a game in progress stops with its match
    match.save(update_fields={*MATCH_DEADLINE.fields, *GAME_DEADLINE.fields})
    return True


def _resume(match: Match, now) -> bool:
    if not _running(match) or not MATCH_DEADLINE.resume(match, now):
        return False
    GAME_DEADLINE.resume(match, now)
    match.save(update_fields={*MATCH_DEADLINE.fields, *GAME_DEADLINE.fields})
    return True


@transaction.atomic
def pause_match(*, match: Match, by, reason: str = "") -> Match:
    match = _locked(match)
    _require_judge(by, match.round)
    if not _pause(match, db_now()):
        raise ValidationError(_("This match's clock is not running."))
    audit(
        match.round.tournament, by, "clock.paused", match, after=_clock_dict(match), reason=reason
    )
    return match


@transaction.atomic
def resume_match(*, match: Match, by) -> Match:
    match = _locked(match)
    _require_judge(by, match.round)
    if match.round.paused_remaining is not None:
        raise ValidationError(_("The whole round is paused; resume the round."))
    if not _resume(match, db_now()):
        raise ValidationError(_("This match's clock is not paused."))
    audit(match.round.tournament, by, "clock.resumed", match, after=_clock_dict(match))
    return match


@transaction.atomic
def pause_round(*, round_: Round, by, reason: str = "") -> Round:
    """Stop every running match clock of the round (e.g. a venue announcement)."""
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
    _require_judge(by, round_)
    if round_.ends_at is None:
        raise ValidationError(_("The round clock is not running."))
    now = db_now()
    round_.paused_remaining = time_left(round_.ends_at, now)
    round_.ends_at = None
    round_.save(update_fields=["ends_at", "paused_remaining"])
    paused = [m.pk for m in round_.matches.select_for_update() if _pause(m, now)]
    paused_tables = [g.table_id for g in _round_pod_games(round_) if pause_pod_game(g, now)]
    audit(
        round_.tournament,
        by,
        "clock.round_paused",
        round_,
        after={"matches": paused, "pod_tables": paused_tables},
        reason=reason,
    )
    return round_


@transaction.atomic
def resume_round(*, round_: Round, by) -> Round:
    """Restart the round clock and every paused match clock of the round."""
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
    _require_judge(by, round_)
    if round_.paused_remaining is None:
        raise ValidationError(_("The round clock is not paused."))
    now = db_now()
    round_.ends_at = now + round_.paused_remaining
    round_.paused_remaining = None
    round_.save(update_fields=["ends_at", "paused_remaining"])
    resumed = [m.pk for m in round_.matches.select_for_update() if _resume(m, now)]
    tables = [g.table_id for g in _round_pod_games(round_) if resume_pod_game(g, now)]
    audit(
        round_.tournament,
        by,
        "clock.round_resumed",
        round_,
        after={"matches": resumed, "pod_tables": tables},
    )
    return round_


# --- enforcement (called by the eta tasks and the sweep) ------------------------------


def enforce_match_deadline(
    match_id: int, version: int | None = None, eta: str | None = None
) -> str:
    """Call time on a match whose deadline has passed. Idempotent; returns what it did."""
    return MATCH_DEADLINE.enforce(
        match_id, version, eta, finished=_match_deadline_finished, act=_call_time
    )


def _match_deadline_finished(match: Match) -> str | None:
    if match.time_called_at is not None:
        return "already called"
    if match.status == Match.Status.CONFIRMED:
        return "has a result"
    return None


def _call_time(match: Match, now: datetime.datetime) -> str:
    """The match limit has passed (the match row is locked): time is called."""
    match.time_called_at = now
    match.game_deadline_at = None
    match.clock_version += 1
    match.version += 1
    match.save(update_fields=["time_called_at", "game_deadline_at", "clock_version", "version"])
    late = (now - match.deadline_at).total_seconds()
    audit(
        match.round.tournament,
        None,
        "clock.time_called",
        match,
        after={
            "deadline_at": match.deadline_at.isoformat(),
            "called_at": now.isoformat(),
            "late_seconds": round(late, 3),
            "game_in_progress": match.current_game if match.current_game_started_at else None,
        },
    )
    _tell_listeners(match.pk, "time_called")  # the online game, if any
    log.info("time called", extra={"match": match.pk, "late_seconds": round(late, 3)})
    return "time called"


def enforce_game_deadline(match_id: int, version: int | None = None, eta: str | None = None) -> str:
    """A game passed its limit: sudden-death turns from the next turn. Idempotent."""
    return GAME_DEADLINE.enforce(
        match_id, version, eta, finished=_game_deadline_finished, act=_start_sudden_death
    )


def _game_deadline_finished(match: Match) -> str | None:
    if match.status == Match.Status.CONFIRMED or match.time_called_at is not None:
        return "match over"
    return None


def _start_sudden_death(match: Match, now: datetime.datetime) -> str:
    """The game limit has passed (the match row is locked): sudden death, once a game."""
    if match.sudden_death_game == match.current_game:
        return "already sudden death"
    deadline = match.game_deadline_at
    match.sudden_death_game = match.current_game
    match.game_deadline_at = None
    match.clock_version += 1
    match.version += 1
    match.save(update_fields=["sudden_death_game", "game_deadline_at", "clock_version", "version"])
    audit(
        match.round.tournament,
        None,
        "clock.sudden_death",
        match,
        after={
            "game": match.current_game,
            "deadline_at": deadline.isoformat(),
            "called_at": now.isoformat(),
        },
    )
    _tell_listeners(match.pk, "sudden_death")  # the online game, if any
    return "sudden death"


# --- pod tables played online ---------------------------------------------------------


def _round_pod_games(round_: Round) -> list[PodGame]:
    return list(
        PodGame.objects.select_for_update(of=("self",))
        .filter(table__round=round_, time_called_at__isnull=True)
        .order_by("pk")
    )


def start_pod_game_clock(pod_game: PodGame, round_: Round) -> list[str]:
    """The table's time limit is the round's end plus the table's extensions: running
    with the round's clock, paused with the time the paused round has left, none before
    the round starts. The caller saves the returned fields."""
    extension = pod_game.table.extension
    if round_.ends_at is not None:
        return POD_DEADLINE.set(pod_game, round_.ends_at + extension)
    if round_.paused_remaining is not None:
        return POD_DEADLINE.set_paused(pod_game, round_.paused_remaining + extension)
    return []


@transaction.atomic
def extend_pod_table(*, table: PodTable, minutes: int, reason: str, by) -> PodTable:
    """A judge gives one pod table more time, within a match's limits. The table's time
    is the round's end plus its extensions; played online, its game's limit (the PodGame
    deadline, which the eta task and the sweep enforce) moves with it. Locks the round,
    the table, then the PodGame (the order of a judge's placings, docs/timing.md)."""
    round_ = (
        Round.objects.select_for_update(of=("self",))
        .select_related("tournament")
        .get(pk=table.round_id)
    )
    _require_judge(by, round_)
    table = PodTable.objects.select_for_update(of=("self",)).get(pk=table.pk)
    table.round = round_
    _check_extension(
        given=table.extension,
        minutes=minutes,
        reason=reason,
        too_much=_(
            "A table's extensions add up to at most %(TOTAL_EXTENSION_MINUTES)s minutes; this table has %(given)s already, so at most %(value1)s more."
        ),
    )
    if table.is_bye:
        raise ValidationError(_("A bye has no time to extend."))
    pod_game = PodGame.objects.select_for_update(of=("self",)).filter(table=table).first()
    placed = PodSeat.objects.filter(table=table, placing__isnull=False).exists()
    before = pod_table_clock(table, pod_game, db_now(), placed=placed)
    if before["state"] in ("time_called", "finished"):
        raise ValidationError(
            _("Time has already been called or the table is placed; extensions come before time.")
        )
    if before["state"] == "not_started":
        raise ValidationError(_("The round has not started yet."))
    extra = clock_minutes(int(minutes))
    table.extension += extra
    table.save(update_fields=["extension"])
    if pod_game is not None and pod_game.deadline_at is not None:
        pod_game.save(update_fields=POD_DEADLINE.set(pod_game, pod_game.deadline_at + extra))
    elif pod_game is not None and pod_game.deadline_remaining is not None:
        remaining = pod_game.deadline_remaining + extra
        pod_game.save(update_fields=POD_DEADLINE.set_paused(pod_game, remaining))
    after = pod_table_clock(table, pod_game, db_now(), placed=False)
    audit(
        round_.tournament,
        by,
        "clock.extended",
        table,
        before=_table_clock_record(before),
        after={"round": round_.number, "table": table.number, **_table_clock_record(after)},
        reason=reason,
    )
    return table


def _table_clock_record(clock: dict) -> dict:
    """What the audit keeps of a pod table's clock."""
    return {key: clock[key] for key in ("deadline_at", "remaining_seconds", "extension_minutes")}


def pod_table_clock(table: PodTable, pod_game: PodGame | None, now, *, placed: bool) -> dict:
    """A pod table's time as the judges' page, the table's page and the API show it.
    Played online, its game's limit (the PodGame row, which the clock enforces) is the
    truth; on paper it is the round's end plus the table's extensions, which nothing
    enforces: when it passes the judges see "TIME" and collect the placings."""
    round_ = table.round
    online = pod_game is not None and (
        pod_game.deadline_at is not None
        or pod_game.deadline_remaining is not None
        or pod_game.time_called_at is not None
    )
    if online:
        deadline, remaining = pod_game.deadline_at, pod_game.deadline_remaining
        called = pod_game.time_called_at
    else:
        deadline = round_.ends_at + table.extension if round_.ends_at is not None else None
        remaining = None
        if round_.paused_remaining is not None:
            remaining = round_.paused_remaining + table.extension
        called = deadline if deadline is not None and deadline <= now else None
    if placed:
        state = "finished"
    elif called is not None:
        state = "time_called"
    elif deadline is not None:
        state = "running"
    elif remaining is not None:
        state = "paused"
    else:
        state = "not_started"
    return {
        "pod_table": table.pk,
        "round": round_.number,
        "table": table.number,
        "state": state,
        "server_time": now.isoformat(),
        "deadline_at": deadline.isoformat() if deadline else None,
        "remaining_seconds": _seconds_left(deadline, remaining, now),
        "extension_minutes": in_clock_minutes(table.extension),
        "time_called_at": called.isoformat() if called else None,
        "online": pod_game is not None,
    }


def pause_pod_game(pod_game: PodGame, now) -> bool:
    """Stop a pod table's time limit (a judge's pause of its game, or of the round)."""
    if pod_game.time_called_at is not None or not POD_DEADLINE.pause(pod_game, now):
        return False
    pod_game.save(update_fields=POD_DEADLINE.fields)
    return True


def resume_pod_game(pod_game: PodGame, now) -> bool:
    if pod_game.time_called_at is not None or not POD_DEADLINE.resume(pod_game, now):
        return False
    pod_game.save(update_fields=POD_DEADLINE.fields)
    return True


def stop_pod_game_clock(pod_game: PodGame) -> None:
    """The table's game is over: its time limit has nothing left to enforce."""
    pod_game.save(update_fields=POD_DEADLINE.clear(pod_game))


def enforce_pod_deadline(
    pod_game_id: int, version: int | None = None, eta: str | None = None
) -> str:
    """Call time on a pod table whose round time has passed. Idempotent."""
    return POD_DEADLINE.enforce(
        pod_game_id, version, eta, finished=_pod_time_finished, act=_call_pod_time
    )


def _pod_time_finished(pod_game: PodGame) -> str | None:
    return "already called" if pod_game.time_called_at is not None else None


def _call_pod_time(pod_game: PodGame, now: datetime.datetime) -> str:
    """The round's time has passed at a pod table (its row is locked): time is called,
    and the table's game ends as its game's rules say (the listener)."""
    deadline = pod_game.deadline_at
    pod_game.time_called_at = now
    pod_game.save(update_fields=["time_called_at", *POD_DEADLINE.clear(pod_game)])
    table = pod_game.table
    audit(
        table.round.tournament,
        None,
        "clock.time_called",
        table,
        after={
            "round": table.round.number,
            "table": table.number,
            "deadline_at": deadline.isoformat(),
            "called_at": now.isoformat(),
            "late_seconds": round((now - deadline).total_seconds(), 3),
        },
    )
    for listener in _pod_listeners:
        listener(pod_game.pk)
    log.info("time called at a pod table", extra={"pod_game": pod_game.pk})
    return "time called"


def _deadline_state(clocked, *, finished: bool) -> str:
    """The state of a match's or a pod table's time limit (both keep the same fields)."""
    if clocked.time_called_at is not None:
        return "time_called"
    if finished:
        return "finished"
    if clocked.deadline_at is not None:
        return "running"
    if clocked.deadline_remaining is not None:
        return "paused"
    return "not_started"


def _seconds_left(deadline_at, paused_remaining, now: datetime.datetime) -> float | None:
    """Seconds to a running deadline, or those left when it was paused; None if neither."""
    if deadline_at is not None:
        return (deadline_at - now).total_seconds()
    if paused_remaining is not None:
        return paused_remaining.total_seconds()
    return None


def pod_game_clock(pod_game: PodGame, now: datetime.datetime) -> dict:
    """A pod table's time limit as a game page counts it down (the shape of the match
    clock's main part)."""
    state = _deadline_state(pod_game, finished=False)
    remaining = _seconds_left(pod_game.deadline_at, pod_game.deadline_remaining, now)
    return {
        "pod_table": True,
        "table": pod_game.table.number,
        "state": state,
        "server_time": now.isoformat(),
        "deadline_at": pod_game.deadline_at.isoformat() if pod_game.deadline_at else None,
        "remaining_seconds": remaining,
        "time_called_at": pod_game.time_called_at.isoformat() if pod_game.time_called_at else None,
        "extension_minutes": in_clock_minutes(pod_game.table.extension),
    }


def sweep() -> dict:
    """Enforce every overdue deadline: the safety net behind the eta tasks."""
    called = MATCH_DEADLINE.sweep(enforce_match_deadline)
    sudden = GAME_DEADLINE.sweep(enforce_game_deadline)
    pods = POD_DEADLINE.sweep(enforce_pod_deadline)
    return {
        "time_called": called.count("time called"),
        "sudden_death": sudden.count("sudden death"),
        "pod_time_called": pods.count("time called"),
    }


# --- reading clocks -------------------------------------------------------------------


def _clock_dict(match: Match) -> dict:
    return {
        "deadline_at": match.deadline_at.isoformat() if match.deadline_at else None,
        "remaining_seconds": match.deadline_remaining.total_seconds()
        if match.deadline_remaining is not None
        else None,
        "extension_minutes": in_clock_minutes(match.extension),
    }


def match_clock(match: Match, now: datetime.datetime) -> dict:
    """Everything a page needs to count a match down locally without drifting."""
    state = _deadline_state(match, finished=match.status == Match.Status.CONFIRMED)
    remaining = _seconds_left(match.deadline_at, match.deadline_remaining, now)
    game_remaining = _seconds_left(match.game_deadline_at, match.game_deadline_remaining, now)
    return {
        "match": match.pk,
        "table": match.table,
        "state": state,
        "server_time": now.isoformat(),
        "deadline_at": match.deadline_at.isoformat() if match.deadline_at else None,
        "remaining_seconds": remaining,
        "extension_minutes": in_clock_minutes(match.extension),
        "time_called_at": match.time_called_at.isoformat() if match.time_called_at else None,
        "game": match.current_game if match.current_game_started_at else None,
        "game_deadline_at": match.game_deadline_at.isoformat() if match.game_deadline_at else None,
        "game_remaining_seconds": game_remaining,
        "sudden_death_game": match.sudden_death_game,
        "sudden_death_from_next_turn": match.sudden_death_game is not None
        and match.sudden_death_game == match.current_game,
    }


def round_clock(round_: Round, now: datetime.datetime) -> dict:
    # A closed round keeps its end time, but its clock no longer counts.
    if round_.status == Round.Status.CLOSED:
        state, remaining = "finished", None
    elif round_.ends_at is not None:
        state, remaining = "running", (round_.ends_at - now).total_seconds()
    elif round_.paused_remaining is not None:
        state, remaining = "paused", round_.paused_remaining.total_seconds()
    else:
        state, remaining = "not_started", None
    return {
        "round": round_.number,
        "state": state,
        "server_time": now.isoformat(),
        "ends_at": round_.ends_at.isoformat() if round_.ends_at else None,
        "remaining_seconds": remaining,
    }


def urgency_key(clock: dict) -> tuple:
    """Judges see the most urgent clocks first: time called without a result, then the
    least time left; finished matches last."""
    order = {"time_called": 0, "running": 1, "paused": 2, "not_started": 3, "finished": 4}
    remaining = (
        clock["remaining_seconds"] if clock["remaining_seconds"] is not None else float("inf")
    )
    return (order[clock["state"]], remaining, clock["table"] or 0)
