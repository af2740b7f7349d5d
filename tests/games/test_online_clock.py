"""The decision clock of online games, enforced by a real Celery worker on the configured
broker (Redis in CI): a player who does not act gets the engine's default action,
exactly once, even with the beat sweeper firing at the same time."""

import threading
import time

import pytest
from celery.contrib.testing.worker import start_worker
from django.db import connections

from config.celery import app as celery_app
from games import clocks, services
from games.engines.irondie import State
from games.models import GameAction, GameSession

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def _wait_for(condition, timeout=20.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


def _clock_actions(session_id):
    return list(
        GameAction.objects.filter(session_id=session_id, cause=GameAction.Cause.CLOCK).order_by(
            "index"
        )
    )


def test_a_player_who_does_not_act_gets_the_default_action_exactly_once(duo, settings):
    settings.CLOCKS_USE_ETA = True
    settings.CLOCKS_WORKER_SWEEP = False  # the eta path under test, not the worker's sweep
    settings.GAMES_DECISION_SECONDS = 2
    session = services.open_match(match=duo["match"], by=duo["a"])
    assert session.status == GameSession.Status.ACTIVE and session.decision_seconds == 2
    state = services.state_of(session)
    hand = [
        d["id"] for d in state_view(state, 0)["dice"] if d["owner"] == 0 and d["zone"] == "hand"
    ]
    services.submit_action(
        session=session, by=duo["a"], action={"kind": "split", "throw": hand}, expected_version=0
    )
    session.refresh_from_db()
    first_version = session.clock_version
    due = clocks._parse(session.seat_deadlines[1])
    assert session.seat_deadlines[0] is None and session.seat_deadlines[1] is not None
    outcomes = []

    def sweep_repeatedly():
        for _ in range(40):
            outcomes.append(clocks.sweep()["defaults"])
            time.sleep(0.05)
        connections.close_all()

    with start_worker(celery_app, perform_ping_check=False, pool="solo", shutdown_timeout=10):
        sweeper = threading.Thread(target=sweep_repeatedly)
        sweeper.start()
        assert _wait_for(lambda: len(_clock_actions(session.pk)) >= 1)
        sweeper.join()
    applied = _clock_actions(session.pk)
    assert len(applied) == 1, [(a.index, a.action) for a in applied]
    default = applied[0]
    assert default.actor == "1" and default.action["kind"] == "split"
    assert sorted(default.action["throw"]) == default.action["throw"]  # every die in hand
    assert len(default.action["throw"]) == 9
    assert default.created_at >= due  # never before the deadline
    # The task queued for the old deadline is a no-op now.
    assert clocks.enforce_deadline(session.pk, first_version) == "stale"
    session = GameSession.objects.get(pk=session.pk)
    assert State.from_dict(session.state) == services.replayed_state(session)


def test_a_decision_made_in_time_cancels_the_clock(duo, settings):
    settings.CLOCKS_USE_ETA = True
    settings.GAMES_DECISION_SECONDS = 2
    session = services.open_match(match=duo["match"], by=duo["a"])
    with start_worker(celery_app, perform_ping_check=False, pool="solo", shutdown_timeout=10):
        for seat, user in ((0, duo["a"]), (1, duo["b"])):
            state = services.state_of(GameSession.objects.get(pk=session.pk))
            hand = [
                d["id"]
                for d in state_view(state, seat)["dice"]
                if d["owner"] == seat and d["zone"] == "hand"
            ]
            services.submit_action(
                session=session, by=user, action={"kind": "split", "throw": hand}
            )
        time.sleep(1.0)  # well inside the 2 s of the next decision
    assert _clock_actions(session.pk) == []
    assert clocks.sweep()["defaults"] == 0


def state_view(state, seat):
    from games.engines.irondie import view

    return view(state, seat)


def test_a_later_deadline_reuses_the_queued_task_which_requeues_itself(duo, settings):
    settings.CLOCKS_USE_ETA = True
    settings.CLOCKS_WORKER_SWEEP = False  # the eta path under test, not the worker's sweep
    settings.GAMES_DECISION_SECONDS = 2
    session = services.open_match(match=duo["match"], by=duo["a"])
    first = GameSession.objects.get(pk=session.pk)
    assert first.clock_task_eta == first.deadline_at is not None
    with start_worker(celery_app, perform_ping_check=False, pool="solo", shutdown_timeout=10):
        time.sleep(0.5)
        for seat, user in ((0, duo["a"]), (1, duo["b"])):
            state = services.state_of(GameSession.objects.get(pk=session.pk))
            hand = [
                d["id"]
                for d in state_view(state, seat)["dice"]
                if d["owner"] == seat and d["zone"] == "hand"
            ]
            services.submit_action(
                session=session, by=user, action={"kind": "split", "throw": hand}
            )
        moved = GameSession.objects.get(pk=session.pk)
        # The deadline moved later: no new task, the queued one still owns the clock.
        assert moved.deadline_at > first.deadline_at
        assert moved.clock_task_eta == first.deadline_at
        # It fires at the old deadline, re-queues itself, and enforces the new one once.
        assert _wait_for(lambda: len(_clock_actions(session.pk)) >= 1)
        time.sleep(0.5)
    applied = _clock_actions(session.pk)
    assert len(applied) == 1, [(a.index, a.action) for a in applied]
    assert applied[0].created_at >= moved.deadline_at
    # The old version's task (had one been queued) would be a no-op.
    assert clocks.enforce_deadline(session.pk, first.clock_version) == "stale"
