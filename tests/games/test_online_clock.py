"""The decision clock of online games, enforced by a real Celery worker on the configured
broker (Redis in CI): a player who does not act gets the engine's default action,
exactly once, even with the beat sweeper firing at the same time."""

import datetime
import itertools
import threading
import time

import pytest
from celery.contrib.testing.worker import start_worker
from django.db import connections

from config.celery import app as celery_app
from games import clocks, enforcement, services
from games.engines import irondie
from games.engines.irondie import State
from games.models import GameAction, GameSession
from tests.waiting import wait_for
from tournaments import online

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def _clock_actions(session_id):
    return list(
        GameAction.objects.filter(session_id=session_id, cause=GameAction.Cause.CLOCK).order_by(
            "index"
        )
    )


def test_a_player_who_does_not_act_gets_the_default_action_exactly_once(duo, settings, monkeypatch):
    settings.CLOCKS_USE_ETA = True
    settings.CLOCKS_WORKER_SWEEP = False  # the eta path under test, not the worker's sweep
    settings.GAMES_DECISION_SECONDS = 2
    # One decision at a time after B's default, so every later default has its own deadline.
    seed, _ = _seed_with_one_decision_at_a_time(duo["match"])
    monkeypatch.setattr(irondie, "new_seed", lambda: seed)
    session = online.open_match(match=duo["match"], by=duo["a"])
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
    due = clocks.seat_deadlines(session)[1]
    assert session.seat_deadlines[0] is None and session.seat_deadlines[1] is not None
    outcomes = []

    def sweep_repeatedly():
        for _ in range(40):
            outcomes.append(enforcement.sweep()["defaults"])
            time.sleep(0.05)
        connections.close_all()

    with start_worker(celery_app, perform_ping_check=False, pool="solo", shutdown_timeout=10):
        sweeper = threading.Thread(target=sweep_repeatedly)
        sweeper.start()
        assert wait_for(lambda: len(_clock_actions(session.pk)) >= 1)
        sweeper.join()
    applied = _clock_actions(session.pk)
    # Exactly once: a later default (a slow machine may reach the next decision's
    # deadline before the sweeper stops) is for another decision, never before its own.
    limit = datetime.timedelta(seconds=session.decision_seconds)
    for earlier, later in itertools.pairwise(applied):
        assert later.created_at >= earlier.created_at + limit, [(a.index, a.actor) for a in applied]
    default = applied[0]
    assert default.actor == "1" and default.action["kind"] == "split"
    assert sorted(default.action["throw"]) == default.action["throw"]  # every die in hand
    assert len(default.action["throw"]) == 9
    assert default.created_at >= due  # never before the deadline
    # The task queued for the old deadline is a no-op now.
    assert enforcement.enforce_deadline(session.pk, first_version) == "stale"
    session = GameSession.objects.get(pk=session.pk)
    assert State.from_dict(session.state) == services.replayed_state(session)


def test_a_decision_made_in_time_cancels_the_clock(duo, settings, monkeypatch):
    """No step races the wall clock: both players decide while no worker runs, then the
    real worker runs the task queued for the first deadline; whenever that happens, the
    decisions made before it stand and no default is applied for them."""
    settings.CLOCKS_USE_ETA = True
    settings.CLOCKS_WORKER_SWEEP = False  # the eta path under test, not the worker's sweep
    settings.GAMES_DECISION_SECONDS = 2
    seed, waiting_seat = _seed_with_one_decision_at_a_time(duo["match"])
    monkeypatch.setattr(irondie, "new_seed", lambda: seed)
    session = online.open_match(match=duo["match"], by=duo["a"])
    first = GameSession.objects.get(pk=session.pk)
    assert first.seed == seed and first.clock_task_eta == first.deadline_at is not None
    for seat, user in ((0, duo["a"]), (1, duo["b"])):
        _throw_everything(session, seat, user)
    moved = GameSession.objects.get(pk=session.pk)
    assert moved.deadline_at > first.deadline_at  # the next decision's deadline
    with start_worker(celery_app, perform_ping_check=False, pool="solo", shutdown_timeout=10):
        # The task queued for the first deadline has run once it no longer owns the clock.
        assert wait_for(
            lambda: GameSession.objects.get(pk=session.pk).clock_task_eta != first.deadline_at
        )
    actions = list(GameAction.objects.filter(session_id=session.pk).order_by("index"))
    # The two splits stand as the players made them.
    assert [(a.actor, a.cause, a.action["kind"]) for a in actions[:2]] == [
        ("0", GameAction.Cause.PLAYER, "split"),
        ("1", GameAction.Cause.PLAYER, "split"),
    ]
    # Nothing was applied for them: a default (if the worker lived past the next deadline)
    # is for the next decision, by the seat that has it, never before its deadline.
    for default in _clock_actions(session.pk):
        assert default.created_at >= moved.deadline_at
    if _clock_actions(session.pk):
        assert _clock_actions(session.pk)[0].actor == str(waiting_seat)
    # The task of the first clock version is a no-op now.
    assert enforcement.enforce_deadline(session.pk, first.clock_version) == "stale"


def state_view(state, seat):
    from games.engines.irondie import view

    return view(state, seat)


def _throw_everything(session, seat, user):
    state = services.state_of(GameSession.objects.get(pk=session.pk))
    hand = [
        d["id"]
        for d in state_view(state, seat)["dice"]
        if d["owner"] == seat and d["zone"] == "hand"
    ]
    services.submit_action(session=session, by=user, action={"kind": "split", "throw": hand})


def _seed_with_one_decision_at_a_time(match):
    """A fixed game seed (the first of "clock-0", "clock-1", ...) whose rolls leave exactly
    one player to decide after both splits, and after each of the next three defaults.

    The rolls derive from the seed and the game id (m<match>-g1), so the seed is looked up
    for this match; with an unseeded game both players sometimes have a decision at once,
    and both get a default at the same deadline."""
    from games.engines.irondie import apply, default_action, new_game, to_act
    from tournaments import selectors as t_selectors

    sets = [
        t_selectors.playing_set_for_game(match.player_a, match, 1),
        t_selectors.playing_set_for_game(match.player_b, match, 1),
    ]
    for attempt in range(1000):
        seed = f"clock-{attempt}"
        state = new_game({"game_id": f"m{match.pk}-g1", "sets": sets}, seed)
        for seat in (0, 1):
            hand = [
                d["id"]
                for d in state_view(state, seat)["dice"]
                if d["owner"] == seat and d["zone"] == "hand"
            ]
            state, _ = apply(state, seat, {"kind": "split", "throw": hand})
        pending = to_act(state)
        if len(pending) != 1:
            continue
        for _ in range(3):
            (seat,) = to_act(state)
            state, _ = apply(state, seat, default_action(state, seat))
            if len(to_act(state)) != 1:
                break
        else:
            return seed, next(iter(pending))
    raise AssertionError("no seed found")


def test_a_later_deadline_reuses_the_queued_task_which_requeues_itself(duo, settings, monkeypatch):
    """No step races the wall clock: the moves are made while no worker runs, the queued
    task's handler runs at a known point, and the checks hold however late the worker is."""
    settings.CLOCKS_USE_ETA = True
    settings.CLOCKS_WORKER_SWEEP = False  # the eta path under test, not the worker's sweep
    settings.GAMES_DECISION_SECONDS = 3
    seed, waiting_seat = _seed_with_one_decision_at_a_time(duo["match"])
    monkeypatch.setattr(irondie, "new_seed", lambda: seed)
    session = online.open_match(match=duo["match"], by=duo["a"])
    first = GameSession.objects.get(pk=session.pk)
    assert first.seed == seed
    assert first.clock_task_eta == first.deadline_at is not None
    # Both players decide (no worker yet, so no clock can interfere, however slow this is).
    for seat, user in ((0, duo["a"]), (1, duo["b"])):
        _throw_everything(session, seat, user)
    moved = GameSession.objects.get(pk=session.pk)
    # The deadline moved later: no new task, the queued one still owns the clock.
    assert moved.deadline_at > first.deadline_at
    assert moved.clock_task_eta == first.deadline_at
    assert [d is not None for d in clocks.seat_deadlines(moved)] == [
        seat == waiting_seat for seat in (0, 1)
    ]
    # The queued task fires (its handler, as the worker runs it) before the new deadline:
    # it re-queues itself for that deadline and changes nothing else.
    old_task = enforcement.enforce_deadline(
        session.pk, first.clock_version, first.deadline_at.isoformat()
    )
    assert old_task == "requeued"
    requeued = GameSession.objects.get(pk=session.pk)
    assert requeued.clock_task_eta == moved.deadline_at
    assert requeued.clock_version == moved.clock_version and requeued.version == moved.version
    with start_worker(celery_app, perform_ping_check=False, pool="solo", shutdown_timeout=10):
        # The real worker runs the re-queued task at the new deadline (and finds the
        # original message stale).
        assert wait_for(lambda: len(_clock_actions(session.pk)) >= 1)
    applied = _clock_actions(session.pk)
    assert applied[0].actor == str(waiting_seat)
    assert applied[0].created_at >= moved.deadline_at
    # Enforced once: any later default is for a later decision, never earlier than its
    # own deadline (the worker may have lived long enough to reach one).
    limit = datetime.timedelta(seconds=first.decision_seconds)
    for earlier, later in itertools.pairwise(applied):
        assert later.created_at >= earlier.created_at + limit, [(a.index, a.actor) for a in applied]
    # The original version's task is a no-op.
    assert enforcement.enforce_deadline(session.pk, first.clock_version) == "stale"
