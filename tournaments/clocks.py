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

How it is enforced: every deadline is an indexed column, "now" is the database's
clock, and a pause stores the time left. Setting a deadline queues a Celery task with
``eta`` after commit (low latency); every worker also sweeps overdue deadlines every
few seconds (config/worker.py: the safety net when a worker dies with the eta task in
memory, and no deadline depends on beat). Both call the
same handler, which locks the row, re-checks the deadline and the clock version, and
acts at most once. A changed deadline bumps the version, which turns any task already
queued for the old deadline into a no-op: revoking is never needed.
"""

from __future__ import annotations

import datetime
import logging

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction

from config.dbtime import db_now
from tournaments.models import Match, Round
from tournaments.permissions import can_judge

log = logging.getLogger(__name__)
ZERO = datetime.timedelta(0)

# A judge's extension: 1-60 minutes at a time, at most 120 minutes in all for one match.
EXTENSION_MINUTES = (1, 60)
TOTAL_EXTENSION_MINUTES = 120
EXTENSION_MESSAGE = "An extension is between 1 and 60 minutes."


def eta_enabled() -> bool:
    return getattr(settings, "CLOCKS_USE_ETA", True)


# --- scheduling -----------------------------------------------------------------------


def _schedule(match: Match, *, match_deadline: bool = True, game_deadline: bool = True) -> None:
    """Queue an eta task for each deadline that has just changed, once the transaction
    commits. Each task names its deadline, so a change of the other clock does not make
    it stale and it need not be queued again: one task per deadline set, none piling up
    for the moment a whole round's time runs out."""
    if not eta_enabled():
        return
    from tournaments import tasks

    version = match.clock_version
    jobs = []
    if match_deadline and match.deadline_at is not None:
        jobs.append((tasks.enforce_match_deadline, match.deadline_at))
    if game_deadline and match.game_deadline_at is not None:
        jobs.append((tasks.enforce_game_deadline, match.game_deadline_at))
    for task, eta in jobs:
        transaction.on_commit(
            lambda task=task, eta=eta: task.apply_async(
                (match.pk, version, eta.isoformat()), eta=eta
            )
        )


def _stale(version, deadline, current_version, current_deadline) -> bool:
    """A task is stale when the deadline it was queued for is no longer the match's (moved
    or paused); tasks queued without their deadline fall back to the clock version."""
    if deadline is not None:
        return current_deadline is None or datetime.datetime.fromisoformat(deadline) != (
            current_deadline
        )
    return version is not None and version != current_version


def _require_judge(user, round_: Round) -> None:
    if not can_judge(user, round_.tournament):
        raise PermissionDenied("Only the tournament's judges and organisers may change clocks.")


def _running(match: Match) -> bool:
    return (
        match.status != Match.Status.CONFIRMED and match.time_called_at is None and not match.is_bye
    )


# --- starting clocks (called by the services) -----------------------------------------


def start_round_clocks(round_: Round, now: datetime.datetime) -> None:
    """Give every match of a round that has just started its deadline."""
    limit = datetime.timedelta(minutes=round_.tournament.match_minutes)
    round_.ends_at = now + limit
    round_.paused_remaining = None
    round_.save(update_fields=["ends_at", "paused_remaining"])
    for match in round_.matches.all():
        if _running(match):
            set_deadline(match, round_.ends_at + match.extension)


def set_deadline(match: Match, deadline_at: datetime.datetime) -> None:
    """Give a match a new deadline; whatever was queued for the old one becomes a no-op."""
    match.deadline_at = deadline_at
    match.deadline_remaining = None
    match.clock_version += 1
    match.save(update_fields=["deadline_at", "deadline_remaining", "clock_version"])
    _schedule(match, game_deadline=False)


def start_game_clock(match: Match, now: datetime.datetime) -> None:
    """A game was marked started: its limit runs from now (paused with the match)."""
    limit = datetime.timedelta(minutes=match.round.tournament.game_minutes)
    if match.deadline_at is None and match.deadline_remaining is not None:  # match paused
        match.game_deadline_at, match.game_deadline_remaining = None, limit
    else:
        match.game_deadline_at, match.game_deadline_remaining = now + limit, None
    match.clock_version += 1
    match.save(update_fields=["game_deadline_at", "game_deadline_remaining", "clock_version"])
    _schedule(match, match_deadline=False)


# --- judges' controls -----------------------------------------------------------------


def _locked(match: Match) -> Match:
    return (
        Match.objects.select_for_update(of=("self",))
        .select_related("round__tournament", "player_a__player", "player_b__player")
        .get(pk=match.pk)
    )


@transaction.atomic
def extend_match(*, match: Match, minutes: int, reason: str, by) -> Match:
    from tournaments.services import audit

    match = _locked(match)
    _require_judge(by, match.round)
    low, high = EXTENSION_MINUTES
    if not low <= int(minutes) <= high:
        raise ValidationError({"minutes": [EXTENSION_MESSAGE]})
    given = int(match.extension.total_seconds() // 60)
    if given + int(minutes) > TOTAL_EXTENSION_MINUTES:
        raise ValidationError(
            {
                "minutes": [
                    f"A match's extensions add up to at most {TOTAL_EXTENSION_MINUTES} "
                    f"minutes; this match has {given} already, so at most "
                    f"{TOTAL_EXTENSION_MINUTES - given} more."
                ]
            }
        )
    if not (reason or "").strip():
        raise ValidationError(
            {"reason": ["Say why the time is extended (e.g. judge call at table 4)."]}
        )
    if not _running(match):
        raise ValidationError(
            "Time has already been called or the match is over; extensions come before time."
        )
    if match.deadline_at is None and match.deadline_remaining is None:
        raise ValidationError("The round has not started yet.")
    extra = datetime.timedelta(minutes=int(minutes))
    before = _clock_dict(match)
    match.extension += extra
    if match.deadline_at is not None:
        match.deadline_at += extra
    else:
        match.deadline_remaining += extra
    match.clock_version += 1
    match.save(update_fields=["extension", "deadline_at", "deadline_remaining", "clock_version"])
    _schedule(match, game_deadline=False)
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
    if match.deadline_at is None or not _running(match):
        return False
    match.deadline_remaining = max(ZERO, match.deadline_at - now)
    match.deadline_at = None
    if match.game_deadline_at is not None:
        match.game_deadline_remaining = max(ZERO, match.game_deadline_at - now)
        match.game_deadline_at = None
    match.clock_version += 1
    match.save(
        update_fields=[
            "deadline_at",
            "deadline_remaining",
            "game_deadline_at",
            "game_deadline_remaining",
            "clock_version",
        ]
    )
    return True


def _resume(match: Match, now) -> bool:
    if match.deadline_at is not None or match.deadline_remaining is None or not _running(match):
        return False
    match.deadline_at = now + match.deadline_remaining
    match.deadline_remaining = None
    if match.game_deadline_remaining is not None:
        match.game_deadline_at = now + match.game_deadline_remaining
        match.game_deadline_remaining = None
    match.clock_version += 1
    match.save(
        update_fields=[
            "deadline_at",
            "deadline_remaining",
            "game_deadline_at",
            "game_deadline_remaining",
            "clock_version",
        ]
    )
    _schedule(match)
    return True


@transaction.atomic
def pause_match(*, match: Match, by, reason: str = "") -> Match:
    from tournaments.services import audit

    match = _locked(match)
    _require_judge(by, match.round)
    if not _pause(match, db_now()):
        raise ValidationError("This match's clock is not running.")
    audit(
        match.round.tournament, by, "clock.paused", match, after=_clock_dict(match), reason=reason
    )
    return match


@transaction.atomic
def resume_match(*, match: Match, by) -> Match:
    from tournaments.services import audit

    match = _locked(match)
    _require_judge(by, match.round)
    if match.round.paused_remaining is not None:
        raise ValidationError("The whole round is paused; resume the round.")
    if not _resume(match, db_now()):
        raise ValidationError("This match's clock is not paused.")
    audit(match.round.tournament, by, "clock.resumed", match, after=_clock_dict(match))
    return match


@transaction.atomic
def pause_round(*, round_: Round, by, reason: str = "") -> Round:
    """Stop every running match clock of the round (e.g. a venue announcement)."""
    from tournaments.services import audit

    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
    _require_judge(by, round_)
    if round_.ends_at is None:
        raise ValidationError("The round clock is not running.")
    now = db_now()
    round_.paused_remaining = max(ZERO, round_.ends_at - now)
    round_.ends_at = None
    round_.save(update_fields=["ends_at", "paused_remaining"])
    paused = [m.pk for m in round_.matches.select_for_update() if _pause(m, now)]
    audit(
        round_.tournament,
        by,
        "clock.round_paused",
        round_,
        after={"matches": paused},
        reason=reason,
    )
    return round_


@transaction.atomic
def resume_round(*, round_: Round, by) -> Round:
    """Restart the round clock and every paused match clock of the round."""
    from tournaments.services import audit

    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
    _require_judge(by, round_)
    if round_.paused_remaining is None:
        raise ValidationError("The round clock is not paused.")
    now = db_now()
    round_.ends_at = now + round_.paused_remaining
    round_.paused_remaining = None
    round_.save(update_fields=["ends_at", "paused_remaining"])
    resumed = [m.pk for m in round_.matches.select_for_update() if _resume(m, now)]
    audit(round_.tournament, by, "clock.round_resumed", round_, after={"matches": resumed})
    return round_


# --- enforcement (called by the eta tasks and the sweeper) ----------------------------


def enforce_match_deadline(
    match_id: int, version: int | None = None, deadline: str | None = None
) -> str:
    """Call time on a match whose deadline has passed. Idempotent; returns what it did."""
    from tournaments.services import audit

    with transaction.atomic():
        match = (
            Match.objects.select_for_update(of=("self",))
            .select_related("round__tournament")
            .filter(pk=match_id)
            .first()
        )
        if match is None:
            return "gone"
        if _stale(version, deadline, match.clock_version, match.deadline_at):
            return "stale"  # the deadline moved after this task was queued
        if match.time_called_at is not None:
            return "already called"
        if match.status == Match.Status.CONFIRMED:
            return "has a result"
        now = db_now()
        if match.deadline_at is None or match.deadline_at > now:
            return "not due"
        match.time_called_at = now
        match.game_deadline_at = None
        match.clock_version += 1
        match.version += 1
        match.save(
            update_fields=[
                "time_called_at",
                "game_deadline_at",
                "clock_version",
                "version",
            ]
        )
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
        from tournaments.online import on_match_clock_event

        on_match_clock_event(match.pk, "time_called")  # the online game, if any
    log.info("time called", extra={"match": match_id, "late_seconds": round(late, 3)})
    return "time called"


def enforce_game_deadline(
    match_id: int, version: int | None = None, deadline: str | None = None
) -> str:
    """A game passed its limit: sudden-death turns from the next turn. Idempotent."""
    from tournaments.services import audit

    with transaction.atomic():
        match = (
            Match.objects.select_for_update(of=("self",))
            .select_related("round__tournament")
            .filter(pk=match_id)
            .first()
        )
        if match is None:
            return "gone"
        if _stale(version, deadline, match.clock_version, match.game_deadline_at):
            return "stale"
        if match.status == Match.Status.CONFIRMED or match.time_called_at is not None:
            return "match over"
        now = db_now()
        if match.game_deadline_at is None or match.game_deadline_at > now:
            return "not due"
        if match.sudden_death_game == match.current_game:
            return "already sudden death"
        deadline = match.game_deadline_at
        match.sudden_death_game = match.current_game
        match.game_deadline_at = None
        match.clock_version += 1
        match.version += 1
        match.save(
            update_fields=["sudden_death_game", "game_deadline_at", "clock_version", "version"]
        )
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
        from tournaments.online import on_match_clock_event

        on_match_clock_event(match.pk, "sudden_death")  # the online game, if any
    return "sudden death"


def sweep() -> dict:
    """Enforce every overdue deadline: the safety net behind the eta tasks."""
    now = db_now()
    open_matches = Match.objects.exclude(status=Match.Status.CONFIRMED)
    overdue = list(
        open_matches.filter(deadline_at__lte=now, time_called_at__isnull=True).values_list(
            "pk", flat=True
        )
    )
    games = list(
        open_matches.filter(game_deadline_at__lte=now, time_called_at__isnull=True).values_list(
            "pk", flat=True
        )
    )
    results = {"time_called": 0, "sudden_death": 0}
    for match_id in overdue:
        results["time_called"] += enforce_match_deadline(match_id) == "time called"
    for match_id in games:
        results["sudden_death"] += enforce_game_deadline(match_id) == "sudden death"
    return results


# --- reading clocks -------------------------------------------------------------------


def _clock_dict(match: Match) -> dict:
    return {
        "deadline_at": match.deadline_at.isoformat() if match.deadline_at else None,
        "remaining_seconds": match.deadline_remaining.total_seconds()
        if match.deadline_remaining is not None
        else None,
        "extension_minutes": match.extension.total_seconds() / 60,
    }


def match_clock(match: Match, now: datetime.datetime) -> dict:
    """Everything a page needs to count a match down locally without drifting."""
    if match.time_called_at is not None:
        state = "time_called"
    elif match.status == Match.Status.CONFIRMED:
        state = "finished"
    elif match.deadline_at is not None:
        state = "running"
    elif match.deadline_remaining is not None:
        state = "paused"
    else:
        state = "not_started"
    remaining = None
    if match.deadline_at is not None:
        remaining = (match.deadline_at - now).total_seconds()
    elif match.deadline_remaining is not None:
        remaining = match.deadline_remaining.total_seconds()
    game_remaining = None
    if match.game_deadline_at is not None:
        game_remaining = (match.game_deadline_at - now).total_seconds()
    elif match.game_deadline_remaining is not None:
        game_remaining = match.game_deadline_remaining.total_seconds()
    return {
        "match": match.pk,
        "table": match.table,
        "state": state,
        "server_time": now.isoformat(),
        "deadline_at": match.deadline_at.isoformat() if match.deadline_at else None,
        "remaining_seconds": remaining,
        "extension_minutes": match.extension.total_seconds() / 60,
        "time_called_at": match.time_called_at.isoformat() if match.time_called_at else None,
        "game": match.current_game if match.current_game_started_at else None,
        "game_deadline_at": match.game_deadline_at.isoformat() if match.game_deadline_at else None,
        "game_remaining_seconds": game_remaining,
        "sudden_death_game": match.sudden_death_game,
        "sudden_death_from_next_turn": match.sudden_death_game is not None
        and match.sudden_death_game == match.current_game,
    }


def round_clock(round_: Round, now: datetime.datetime) -> dict:
    if round_.ends_at is not None:
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
