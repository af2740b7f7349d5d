"""Clocks enforced by a real Celery worker on the configured broker (Redis in CI).

Deadlines are set a few seconds out; the checks read the audit log, where each
enforcement leaves exactly one "clock.time_called" entry.
"""

import datetime
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from celery.contrib.testing.worker import start_worker
from django.core.exceptions import ValidationError
from django.db import connection, connections

from config import deadlines
from config.celery import app as celery_app
from config.dbtime import db_now
from tests.waiting import wait_for
from tournaments import clocks, services
from tournaments.models import AuditEntry, Match

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def running_round(tournament, register_players, organiser, judge):
    register_players(tournament, 4)
    round_ = services.pair_next_round(tournament=tournament, by=organiser, seed="clock")
    services.publish_round(round_=round_, by=organiser)
    return services.start_round(round_=round_, by=judge)


def _match(round_) -> Match:
    return round_.matches.order_by("table").first()


def _due_in(match, seconds: float) -> Match:
    clocks.set_deadline(match, db_now() + datetime.timedelta(seconds=seconds))
    match.refresh_from_db()
    return match


def _time_called(match) -> int:
    return AuditEntry.objects.filter(action="clock.time_called", object_id=match.pk).count()


MATCH_TASK = "tournaments.enforce_match_deadline"


def _runs(events, match, eta) -> list:
    """What the worker's runs of the match's deadline task queued for ``eta`` returned."""
    eta = eta.isoformat()
    return [value for args, value in events.ran(MATCH_TASK) if args[::2] == (match.pk, eta)]


def _outcome(events, match, eta) -> list:
    """``_runs`` once the task has acted rather than re-queued itself; until then, nothing."""
    runs = _runs(events, match, eta)
    return runs if runs and runs[-1] != "requeued" else []


def _held_tasks_do_nothing(events, match) -> bool:
    """Every other deadline task for the match the worker took and has not run (an eta
    task it holds, e.g. the round end's), delivered now, changes nothing."""
    ran = {args for args, _ in events.ran(MATCH_TASK)}
    held = [args for name, args in events.received if name == MATCH_TASK and args not in ran]
    outcomes = [clocks.enforce_match_deadline(*args) for args in held if args[0] == match.pk]
    return "time called" not in outcomes


def test_round_start_gives_every_match_its_deadline(running_round, tournament):
    match = _match(running_round)
    limit = datetime.timedelta(minutes=tournament.match_minutes)
    assert match.deadline_at == running_round.started_at + limit == running_round.ends_at
    clock = clocks.match_clock(match, db_now())
    assert clock["state"] == "running" and 44 * 60 < clock["remaining_seconds"] <= 45 * 60
    assert clock["server_time"] and clock["deadline_at"]


def test_deadline_is_enforced_by_the_worker_through_eta(running_round, settings, worker_events):
    settings.CLOCKS_WORKER_SWEEP = False  # the eta task alone
    match = _due_in(_match(running_round), 2)
    queued = match.deadline_task_eta
    with start_worker(celery_app, perform_ping_check=False, pool="solo", shutdown_timeout=10):
        # The task has run, and the worker holds no other task for the match.
        assert wait_for(lambda: _outcome(worker_events, match, queued))
    assert _outcome(worker_events, match, queued)[-1] == "time called"
    assert _held_tasks_do_nothing(worker_events, match)
    match.refresh_from_db()
    assert match.time_called_at is not None and match.time_called_at >= match.deadline_at
    assert _time_called(match) == 1
    entry = AuditEntry.objects.get(action="clock.time_called", object_id=match.pk)
    assert entry.after["late_seconds"] >= 0


def test_enforced_once_when_eta_task_and_sweeper_both_fire(running_round, worker_events):
    match = _due_in(_match(running_round), 1.5)
    queued = match.deadline_task_eta
    outcomes = []

    def sweep_repeatedly():
        # Across the deadline until the eta task has run, then three sweeps more.
        deadline = time.monotonic() + 30
        while not _outcome(worker_events, match, queued) and time.monotonic() < deadline:
            outcomes.append(clocks.sweep()["time_called"])
            time.sleep(0.1)
        for _ in range(3):
            outcomes.append(clocks.sweep()["time_called"])
        connections.close_all()

    with start_worker(celery_app, perform_ping_check=False, pool="solo", shutdown_timeout=10):
        sweeper = threading.Thread(target=sweep_repeatedly)
        sweeper.start()
        sweeper.join()
        assert _outcome(worker_events, match, queued)
    assert sum(outcomes) <= 1
    assert _held_tasks_do_nothing(worker_events, match)
    assert _time_called(match) == 1
    assert clocks.enforce_match_deadline(match.pk) == "already called"


def test_extension_or_pause_before_the_deadline_prevents_enforcement(
    running_round, judge, worker_events
):
    first, second = list(running_round.matches.filter(player_b__isnull=False).order_by("table"))[:2]
    first = _due_in(first, 2)
    second = _due_in(second, 2)
    first_queued, second_queued = first.deadline_task_eta, second.deadline_task_eta
    clocks.extend_match(match=first, minutes=5, reason="judge call at table 1", by=judge)
    clocks.pause_match(match=second, by=judge, reason="judge call at table 2")
    with start_worker(celery_app, perform_ping_check=False, pool="solo", shutdown_timeout=10):
        # The eta tasks for the old deadlines run and find a newer clock version: the
        # extended match's re-queues itself for its new deadline.
        assert wait_for(
            lambda: (
                _runs(worker_events, first, first_queued) == ["requeued"]
                and _outcome(worker_events, second, second_queued)
            )
        )
    assert "time called" not in _outcome(worker_events, second, second_queued)
    assert _held_tasks_do_nothing(worker_events, second)
    assert clocks.sweep() == {"time_called": 0, "sudden_death": 0, "pod_time_called": 0}
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.time_called_at is None and first.deadline_at > db_now() + datetime.timedelta(
        minutes=4
    )
    assert second.time_called_at is None and second.deadline_at is None
    assert datetime.timedelta(0) < second.deadline_remaining <= datetime.timedelta(seconds=2)
    assert _time_called(first) == _time_called(second) == 0


def test_without_beat_or_eta_tasks_the_worker_itself_enforces_every_deadline(
    running_round, judge, settings, worker_events
):
    """Beat is not running and no eta task is queued: the worker's own sweep
    (config/worker.py) calls time and starts sudden death within the sweep interval."""
    settings.CLOCKS_USE_ETA = False
    matches = list(running_round.matches.filter(player_b__isnull=False).order_by("table"))
    timed = [_due_in(m, 1) for m in matches[:-1]]
    game = matches[-1]
    services.start_game(match=game, number=1, by=judge)
    Match.objects.filter(pk=game.pk).update(
        game_deadline_at=db_now() + datetime.timedelta(seconds=1)
    )
    with start_worker(celery_app, perform_ping_check=False, pool="solo", shutdown_timeout=10):
        assert wait_for(
            lambda: (
                all(_time_called(m) == 1 for m in timed)
                and AuditEntry.objects.filter(
                    action="clock.sudden_death", object_id=game.pk
                ).exists()
            ),
            timeout=15,
        )
        assert worker_events.wait_for_sweeps(1)  # another whole sweep: nothing twice
    for match in timed:
        assert _time_called(match) == 1
        entry = AuditEntry.objects.get(action="clock.time_called", object_id=match.pk)
        assert 0 <= entry.after["late_seconds"] <= settings.CLOCK_SWEEP_SECONDS + 1.0
    assert AuditEntry.objects.filter(action="clock.sudden_death", object_id=game.pk).count() == 1


def test_result_entered_just_before_the_deadline_wins(running_round, judge, worker_events):
    match = _due_in(_match(running_round), 1.5)
    queued = match.deadline_task_eta
    services.report_result(match=match, by=judge, games=["a", "b", "a"])
    with start_worker(celery_app, perform_ping_check=False, pool="solo", shutdown_timeout=10):
        # The eta task for the deadline has run; a sweep after it finds nothing either.
        assert wait_for(lambda: _outcome(worker_events, match, queued))
    assert db_now() > match.deadline_at
    assert clocks.sweep()["time_called"] == 0
    match.refresh_from_db()
    assert match.time_called_at is None and match.winner_id == match.player_a_id
    assert _time_called(match) == 0


def test_pause_and_resume_the_whole_round(running_round, judge):
    running_round.refresh_from_db()
    clocks.pause_round(round_=running_round, by=judge, reason="fire alarm")
    running_round.refresh_from_db()
    assert running_round.ends_at is None and running_round.paused_remaining is not None
    assert all(m.deadline_at is None for m in running_round.matches.filter(player_b__isnull=False))
    with pytest.raises(ValidationError, match="whole round is paused"):
        clocks.resume_match(match=_match(running_round), by=judge)
    clocks.resume_round(round_=running_round, by=judge)
    running_round.refresh_from_db()
    assert running_round.ends_at is not None
    assert all(
        m.deadline_at is not None for m in running_round.matches.filter(player_b__isnull=False)
    )


def test_time_called_stops_the_match_no_new_game_in_swiss(running_round, judge):
    match = _match(running_round)
    services.start_game(match=match, number=1, by=judge)
    match = _due_in(Match.objects.get(pk=match.pk), -1)
    assert clocks.enforce_match_deadline(match.pk) == "time called"
    match.refresh_from_db()
    clock = clocks.match_clock(match, db_now())
    assert clock["state"] == "time_called" and match.game_deadline_at is None
    with pytest.raises(ValidationError, match="no new game starts"):
        services.start_game(match=match, number=2, by=judge)
    # The unfinished game does not count: a 0-0 match at time is a draw in Swiss.
    services.report_result(match=match, by=judge, games=[])
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED and match.winner_id is None


def test_game_limit_switches_to_sudden_death(running_round, judge):
    match = _match(running_round)
    services.start_game(match=match, number=1, by=judge)
    match = Match.objects.get(pk=match.pk)
    assert match.game_deadline_at is not None
    Match.objects.filter(pk=match.pk).update(
        game_deadline_at=db_now() - datetime.timedelta(seconds=1)
    )
    assert clocks.sweep()["sudden_death"] == 1
    assert clocks.sweep()["sudden_death"] == 0
    match.refresh_from_db()
    assert match.sudden_death_game == 1
    assert AuditEntry.objects.filter(action="clock.sudden_death", object_id=match.pk).count() == 1


def _worker_process(extra_args, env):
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--pool",
            "solo",
            "--loglevel",
            "INFO",
            "--without-mingle",
            "--without-gossip",
            *extra_args,
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )


@pytest.mark.slow
def test_worker_killed_while_waiting_still_enforces_once_after_restart(
    running_round, tmp_path, monkeypatch
):
    if connection.vendor != "postgresql":
        pytest.skip("the worker process needs the PostgreSQL test database")
    settings_dict = connection.settings_dict
    env = dict(
        os.environ,
        DATABASE_URL=f"postgres://{settings_dict['USER']}@{settings_dict['HOST']}:{settings_dict['PORT']}/{settings_dict['NAME']}",
        CLOCK_SWEEP_SECONDS="1",
        VAR_DIR=str(tmp_path),
    )
    sent = []  # the ids of the tasks queued, each sent as deadlines._publish sends it
    monkeypatch.setattr(
        deadlines,
        "_publish",
        lambda task, args, eta: sent.append(celery_app.send_task(task, args=args, eta=eta).id),
    )
    worker = _worker_process([], env)
    log = []
    threading.Thread(target=lambda: log.extend(worker.stdout), daemon=True).start()
    try:
        # The deadline is set once the worker is up, so its start-up is not raced.
        assert wait_for(lambda: any(" ready." in line for line in log))
        match = _due_in(_match(running_round), 3)
        (task_id,) = sent
        # The worker has taken the eta task and holds it, waiting.
        assert wait_for(lambda: any(f"[{task_id}] received" in line for line in log))
    finally:
        os.killpg(worker.pid, signal.SIGKILL)
        worker.wait(timeout=10)
    assert db_now() < match.deadline_at  # killed before it was due
    assert wait_for(lambda: db_now() > match.deadline_at + datetime.timedelta(seconds=1))
    match.refresh_from_db()
    assert match.time_called_at is None
    # Beat never runs here: the restarted worker's own sweep enforces the deadline.
    restarted = _worker_process([], env)
    try:
        assert wait_for(lambda: _time_called(match) >= 1, timeout=30)
        time.sleep(3)  # a few more sweeps
    finally:
        os.killpg(restarted.pid, signal.SIGTERM)
        restarted.wait(timeout=20)
    assert _time_called(match) == 1
    match.refresh_from_db()
    assert match.time_called_at > match.deadline_at


def test_one_queued_task_per_deadline_which_requeues_itself_when_early(
    tournament, register_players, organiser, judge, monkeypatch
):
    """config/deadlines.py: a deadline column of a match has at most one queued task. The
    round start queues one per match; a game start only the game limit's; an extension,
    a pause and a resume (later deadlines) nothing: the queued task fires early and
    re-queues itself. So the end of a round fires one match-deadline task per match,
    however many games and extensions there were."""
    queued = []
    monkeypatch.setattr(
        deadlines, "_publish", lambda task, args, eta: queued.append((task, args, eta))
    )
    register_players(tournament, 4)
    round_ = services.pair_next_round(tournament=tournament, by=organiser, seed="clock")
    services.publish_round(round_=round_, by=organiser)
    round_ = services.start_round(round_=round_, by=judge)
    matches = list(round_.matches.order_by("table"))
    assert [task for task, _, _ in queued] == ["tournaments.enforce_match_deadline"] * 2
    for match in matches:
        assert match.deadline_task_eta == match.deadline_at == round_.ends_at
    match = matches[0]
    (_, first_args, first_eta) = next(q for q in queued if q[1][0] == match.pk)
    assert first_eta == match.deadline_at and first_args[2] == first_eta.isoformat()
    queued.clear()
    services.start_game(match=match, number=1, by=judge)
    assert [task for task, _, _ in queued] == ["tournaments.enforce_game_deadline"]
    game_task = queued.pop()
    clocks.extend_match(match=match, minutes=1, reason="judge call", by=judge)
    clocks.pause_match(match=match, by=judge, reason="judge call")
    clocks.resume_match(match=match, by=judge)
    assert queued == []
    match.refresh_from_db()
    assert match.deadline_at > first_eta and match.deadline_task_eta == first_eta
    assert match.game_deadline_task_eta == game_task[2]
    # The queued task fires at the round's end, before the match's own deadline: it
    # re-queues itself for that deadline and changes nothing else.
    version = match.clock_version
    assert clocks.enforce_match_deadline(*first_args) == "requeued"
    ((task, args, eta),) = queued
    match.refresh_from_db()
    assert task == "tournaments.enforce_match_deadline" and eta == match.deadline_at
    assert match.deadline_task_eta == eta and match.clock_version == version
    # A task that is not the queued one, of an older clock version: stale.
    old_task = (match.pk, first_args[1], "2020-01-01T00:00:00+00:00")
    assert clocks.enforce_match_deadline(*old_task) == "stale"
    # The re-queued task acts once the deadline is due.
    Match.objects.filter(pk=match.pk).update(deadline_at=db_now() - datetime.timedelta(seconds=1))
    assert clocks.enforce_match_deadline(*args) == "time called"
    assert clocks.enforce_match_deadline(*args) == "stale"  # delivered twice: nothing
    assert clocks.enforce_match_deadline(match.pk) == "already called"  # the sweep: nothing
    assert _time_called(match) == 1


def test_a_lost_task_is_given_up_so_the_next_deadline_queues_one(running_round, monkeypatch):
    """A queued task more than a minute overdue will not come (its worker died): the next
    handler run clears its mark, so the next deadline queues a task of its own."""
    queued = []
    monkeypatch.setattr(
        deadlines, "_publish", lambda task, args, eta: queued.append((task, args, eta))
    )
    match = _match(running_round)
    lost = db_now() - deadlines.LOST_TASK - datetime.timedelta(seconds=1)
    Match.objects.filter(pk=match.pk).update(deadline_task_eta=lost)
    match = _due_in(Match.objects.get(pk=match.pk), 600)
    assert queued == [] and match.deadline_task_eta == lost  # the lost task still counts
    assert clocks.enforce_match_deadline(match.pk) == "not due"  # e.g. the sweep
    match.refresh_from_db()
    assert match.deadline_task_eta is None
    match = _due_in(match, 660)
    assert [(task, eta) for task, _, eta in queued] == [
        ("tournaments.enforce_match_deadline", match.deadline_at)
    ]
