"""Deadlines kept by the server: the one mechanism behind every clock.

The match deadline and a match's game limit (tournaments/clocks.py), and an online
game's decision deadline, start window and practice game limit (games/clocks.py) are
each a ``Deadline``: an indexed datetime column of a row, the row's clock version, and
the column that holds the eta of the one task queued for it. The rules of what happens
when a deadline passes stay in the apps; this module knows neither of them (it imports
no app, docs/architecture.md). It does the rest:

- ``set`` / ``clear`` / ``pause`` / ``resume``: a change of the deadline bumps the clock
  version and queues its eta task after commit (``schedule``); a pause stores the time
  left (``time_left``) and clears the deadline; a resume sets it again from the time left.
- ``enforce`` (an eta task, or the sweep): lock the row, after whatever the caller must
  lock first (the lock order of docs/timing.md: a tournament game's match row before its
  session row); decide whether the task is stale; re-queue it if it fired before the
  deadline; re-read the deadline under the lock and, only if it is due, call the app's
  action. The action acts at most once: it changes the row so that nothing is due any
  more, and a ``finished`` check refuses what was already done.
- ``sweep``: every overdue row, the safety net behind the eta tasks. Each app registers
  its sweep (``register_sweep``, in its AppConfig.ready); every worker runs them all
  every CLOCK_SWEEP_SECONDS (config/worker.py), so no deadline depends on beat.

The queuing policy, one for every deadline: at most one queued eta task per deadline
column of a row, its eta kept in the row. Setting a deadline queues a task (after
commit) only when none is queued or the new deadline is earlier than the queued one; a
task that fires before the current deadline re-queues itself for it. Why this one:
a decision deadline moves on every move of an online game, so a task per change would
publish a message per action (6 % of a worker's time in bench/play_load.py) and leave a
stale one behind each time; match deadlines change rarely, but a whole round's matches
share one moment, and the stale tasks left by every game start and extension used to
fire at that moment ahead of the live ones (bench/soak.py: time called 14 s late). With
one task per column, the end of a round fires one task per match, however many games
and extensions there were. Revoking is never needed.

Which task acts: the queued one (its eta is the row's mark) clears the mark, then acts if
the deadline is due or re-queues itself for it. Any other task (replaced by an earlier
deadline, or given up as lost) is stale once the clock version has moved since it was
queued; otherwise it does what a sweep does. A mark more than ``LOST_TASK`` in the past
belongs to a task that will not come (its worker died; Redis redelivers it only after
the visibility timeout): it is cleared so that the next deadline queues a new task, and
the sweep enforces in the meantime.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass, field

from celery import current_app
from django.conf import settings
from django.db import models, transaction

from config.dbtime import db_now

ZERO = datetime.timedelta(0)
LOST_TASK = datetime.timedelta(seconds=60)  # a queued task this late will not come


def eta_enabled() -> bool:
    """Queue an eta task per deadline (off only to measure the sweep alone)."""
    return getattr(settings, "CLOCKS_USE_ETA", True)


def time_left(deadline: datetime.datetime | None, now) -> datetime.timedelta | None:
    """What a paused clock keeps: the time to its deadline, never negative."""
    return None if deadline is None else max(ZERO, deadline - now)


def parse(value: str | None) -> datetime.datetime | None:
    return datetime.datetime.fromisoformat(value) if value else None


def _publish(task: str, args: tuple, eta: datetime.datetime) -> None:
    current_app.send_task(task, args=args, eta=eta)


@dataclass(frozen=True)
class Deadline:
    """One deadline column of a model and how it is enforced.

    ``task``: the name of the Celery task that calls ``enforce`` for this deadline with
    (pk, version, eta). ``remaining_field``: where a pause keeps the time left (a
    DurationField), if the model keeps it in a column of its own. ``live``: the rows the
    sweep looks at. ``related``: what ``enforce`` reads with the locked row (or a function
    returning it, when what a row links to is known only once the apps are ready)."""

    model: type[models.Model]
    field: str
    task: str
    task_eta_field: str
    version_field: str = "clock_version"
    remaining_field: str | None = None
    related: tuple[str, ...] | Callable[[], tuple[str, ...]] = ()
    live: models.Q = field(default_factory=models.Q)

    @property
    def fields(self) -> list[str]:
        """The columns a change of this deadline writes."""
        names = [self.field, self.version_field, self.task_eta_field]
        return names + [self.remaining_field] if self.remaining_field else names

    def get(self, row) -> datetime.datetime | None:
        return getattr(row, self.field)

    # --- changing the deadline (the caller holds the row and saves ``fields``) --------

    def set(self, row, when: datetime.datetime | None) -> list[str]:
        """A new deadline (None: no deadline); a task queued for the old one is harmless."""
        setattr(row, self.field, when)
        if self.remaining_field:
            setattr(row, self.remaining_field, None)
        self._bump(row)
        self.schedule(row)
        return self.fields

    def clear(self, row) -> list[str]:
        return self.set(row, None)

    def set_paused(self, row, remaining: datetime.timedelta) -> list[str]:
        """A clock that is paused with ``remaining`` left (e.g. started while paused).
        This and ``pause``/``resume`` need ``remaining_field``; a model that keeps the time
        left otherwise (an online game's seats) uses ``clear``, ``set`` and ``time_left``."""
        setattr(row, self.field, None)
        setattr(row, self.remaining_field, remaining)
        self._bump(row)
        return self.fields

    def pause(self, row, now) -> bool:
        """Keep the time left and stop the clock; False if it was not running."""
        deadline = self.get(row)
        if deadline is None:
            return False
        self.set_paused(row, time_left(deadline, now))
        return True

    def resume(self, row, now) -> bool:
        """Run the clock again for the time it had left; False if it was not paused."""
        remaining = getattr(row, self.remaining_field)
        if self.get(row) is not None or remaining is None:
            return False
        self.set(row, now + remaining)
        return True

    def _bump(self, row) -> None:
        setattr(row, self.version_field, getattr(row, self.version_field) + 1)

    # --- queuing ----------------------------------------------------------------------

    def schedule(self, row) -> bool:
        """Queue the eta task for the row's deadline once the transaction commits, unless
        the queued one fires no later (it re-queues itself when it fires). Marks the row
        (``task_eta_field``): the caller saves it with the row. True if a task was queued."""
        deadline = self.get(row)
        if deadline is None or not eta_enabled():
            return False
        queued = getattr(row, self.task_eta_field)
        if queued is not None and queued <= deadline:
            return False
        setattr(row, self.task_eta_field, deadline)
        args = (row.pk, getattr(row, self.version_field), deadline.isoformat())
        transaction.on_commit(lambda: _publish(self.task, args, deadline))
        return True

    # --- enforcing --------------------------------------------------------------------

    def enforce(
        self,
        pk: int,
        version: int | None = None,
        eta: str | None = None,
        *,
        act: Callable[[models.Model, datetime.datetime], str],
        finished: Callable[[models.Model], str | None] | None = None,
        lock_first: Callable[[int], object] | None = None,
    ) -> str:
        """Enforce the deadline of row ``pk`` if it is due; idempotent, returns what it did.

        ``version`` and ``eta``: from an eta task (the sweep passes neither).
        ``lock_first(pk)``: locks what must be locked before this row (the lock order).
        ``finished(row)``: why nothing is to be done any more (e.g. "already called"), or
        None. ``act(row, now)``: called with the row locked once its deadline is due;
        it must leave the row so that nothing is due any more."""
        with transaction.atomic():
            if lock_first is not None:
                lock_first(pk)
            rows = self.model.objects.select_for_update(of=("self",))
            related = self.related() if callable(self.related) else self.related
            if related:
                rows = rows.select_related(*related)
            row = rows.filter(pk=pk).first()
            if row is None:
                return "gone"
            queued = getattr(row, self.task_eta_field)
            owner = eta is not None and queued is not None and parse(eta) == queued
            if owner:
                setattr(row, self.task_eta_field, None)
                row.save(update_fields=[self.task_eta_field])
            elif version is not None and version != getattr(row, self.version_field):
                return "stale"
            now = db_now()
            if not owner and queued is not None and queued < now - LOST_TASK:
                setattr(row, self.task_eta_field, None)  # lost: let the next one be queued
                row.save(update_fields=[self.task_eta_field])
            if finished is not None:
                reason = finished(row)
                if reason:
                    return reason
            deadline = self.get(row)
            if deadline is None or deadline > now:
                if owner and self.schedule(row):
                    row.save(update_fields=[self.task_eta_field])
                    return "requeued"
                return "not due"
            return act(row, now)

    def sweep(self, enforce: Callable[[int], str]) -> list[str]:
        """Call ``enforce(pk)`` for every live row whose deadline has passed."""
        overdue = self.model.objects.filter(self.live, **{f"{self.field}__lte": db_now()})
        return [enforce(pk) for pk in overdue.order_by().values_list("pk", flat=True)]


# --- the sweeps every worker runs (config/worker.py) ------------------------------------

_sweeps: dict[str, Callable[[], dict]] = {}


def register_sweep(name: str, sweep: Callable[[], dict]) -> None:
    """An app's sweep of all its deadlines, returning counts of what it enforced."""
    _sweeps[name] = sweep


def sweep_all() -> dict:
    """Every registered sweep once: {name: counts}."""
    if not _sweeps:
        raise RuntimeError("No deadline sweep is registered (the apps are not loaded).")
    return {name: sweep() for name, sweep in _sweeps.items()}
