"""The swap window before a tournament game played online, at the production default of
120 seconds: nothing starts the game early, both players ready start it at once, and
when the window runs out the real mechanism starts it (``games.services.start_waiting``):
the worker's own clock sweep, or the eta task queued for the window when it is due.

The window is not shortened: its deadline is moved into the past in the database, as if
the two minutes had gone by, while a real Celery worker (on the configured broker) runs.
"""

import datetime

import pytest
from celery import Celery
from celery.contrib.testing.worker import start_worker

import config.settings as production_settings
from config.celery import app as celery_app
from config.dbtime import db_now
from games.models import GameAction, GameSession
from tests.games.conftest import token_client
from tests.waiting import wait_for
from tournaments.models import Match

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

WINDOW = datetime.timedelta(seconds=120)


@pytest.fixture
def production_clocks(settings):
    """What production runs with (the games conftest starts games at once, without eta
    tasks); only the sweep interval is shorter, so the test waits less for a sweep."""
    assert datetime.timedelta(seconds=production_settings.GAMES_SWAP_WINDOW_SECONDS) == WINDOW
    settings.GAMES_SWAP_WINDOW_SECONDS = production_settings.GAMES_SWAP_WINDOW_SECONDS
    settings.CLOCKS_USE_ETA = True
    settings.CLOCKS_WORKER_SWEEP = True
    settings.CLOCK_SWEEP_SECONDS = 1
    return settings


@pytest.fixture
def published(monkeypatch):
    """Every task the application publishes by name (the deadline mechanism,
    config/deadlines.py), as (name, args, kwargs, options); each is still sent."""
    sent = []
    send = Celery.send_task

    def record(self, name, args=None, kwargs=None, **options):
        sent.append((name, args, kwargs, options))
        return send(self, name, args, kwargs, **options)

    monkeypatch.setattr(Celery, "send_task", record)
    return sent


def _deliver_now(task):
    """The broker delivers a queued eta task when it is due: the same task, sent now."""
    name, args, kwargs, options = task
    due_now = {k: v for k, v in options.items() if k not in ("eta", "countdown")}
    return celery_app.send_task(name, args, kwargs, **due_now).get(timeout=20)


def _open_waiting_game(duo) -> GameSession:
    opened = token_client(duo["a"]).post("/api/games/", {"match": duo["match"].pk}, format="json")
    assert opened.status_code == 201 and opened.json()["status"] == "waiting", opened.json()
    session = GameSession.objects.get(pk=opened.json()["id"])
    assert session.status == GameSession.Status.WAITING and session.started_at is None
    # The window is the production default, counted from when the game was opened.
    assert abs(session.deadline_at - session.created_at - WINDOW) < datetime.timedelta(seconds=2)
    return session


def _ready(user, session) -> dict:
    response = token_client(user).post(f"/api/games/{session.pk}/ready/")
    assert response.status_code == 200, response.json()
    return response.json()


def _window_runs_out(session) -> datetime.datetime:
    """The two minutes go by: the deadline moves into the past, nothing else changes."""
    ended = db_now() - datetime.timedelta(seconds=1)
    GameSession.objects.filter(pk=session.pk).update(deadline_at=ended)
    return ended


def _status(session) -> str:
    return GameSession.objects.get(pk=session.pk).status


def _assert_started_as_a_match_game(session, duo, *, after) -> GameSession:
    started = GameSession.objects.get(pk=session.pk)
    assert started.status == GameSession.Status.ACTIVE and started.end_cause == ""
    assert started.started_at >= after
    assert started.state is not None and started.commitment and started.version == 0
    match = Match.objects.get(pk=duo["match"].pk)
    assert match.current_game == 1 and match.current_game_started_at is not None
    # Both players see the game and one of them has a decision to make.
    views = [token_client(duo[seat]).get(f"/api/games/{session.pk}/").json() for seat in "ab"]
    assert all(v["status"] == "active" and v["view"]["turn"] == 1 for v in views)
    assert sum(v["legal_count"] for v in views) > 0
    return started


def _window_tasks(published, session):
    """The tasks queued for the window: published with an eta at the window's end."""
    return [p for p in published if p[3].get("eta") == session.deadline_at]


def test_nothing_starts_the_game_early_and_the_workers_sweep_starts_it_when_the_window_runs_out(
    duo, production_clocks, published, worker_events
):
    session = _open_waiting_game(duo)
    assert len(_window_tasks(published, session)) == 1  # the window's eta task is queued
    assert _ready(duo["a"], session)["status"] == "waiting"  # one player is not enough
    with start_worker(celery_app, perform_ping_check=False, pool="solo", shutdown_timeout=10):
        # Sweeps (two whole ones after the worker took the window's task) find nothing
        # due; the worker holds the window's task, not yet due.
        (name, args, _, _) = _window_tasks(published, session)[0]
        assert wait_for(lambda: worker_events.took(name, args))
        assert worker_events.wait_for_sweeps(2)
        # (A task left by an earlier test, for a session now gone, may run here: only this
        # window's own task counts.)
        assert not [value for ran, value in worker_events.ran(name) if ran == tuple(args)]
        early = GameSession.objects.get(pk=session.pk)
        assert early.status == GameSession.Status.WAITING and early.started_at is None
        assert early.deadline_at == session.deadline_at and early.ready == [0]
        assert not Match.objects.get(pk=duo["match"].pk).current_game_started_at
        ended = _window_runs_out(session)
        assert wait_for(lambda: _status(session) == GameSession.Status.ACTIVE)
    _assert_started_as_a_match_game(session, duo, after=ended)


def test_the_windows_eta_task_starts_the_game_when_it_is_due(
    duo, production_clocks, published, worker_events
):
    production_clocks.CLOCKS_WORKER_SWEEP = False  # the eta task alone
    session = _open_waiting_game(duo)
    window_task = _window_tasks(published, session)[0]
    with start_worker(celery_app, perform_ping_check=False, pool="solo", shutdown_timeout=10):
        # The worker takes the task and holds it until its eta.
        assert wait_for(lambda: worker_events.took(window_task[0], window_task[1]))
        assert _status(session) == GameSession.Status.WAITING
        ended = _window_runs_out(session)
        assert _deliver_now(window_task) == "started"
        assert _status(session) == GameSession.Status.ACTIVE
    _assert_started_as_a_match_game(session, duo, after=ended)


def test_both_players_ready_start_it_at_once_and_the_window_running_out_changes_nothing(
    duo, production_clocks, published, worker_events
):
    session = _open_waiting_game(duo)
    window_task = _window_tasks(published, session)[0]
    assert _ready(duo["a"], session)["status"] == "waiting"
    opened_at = db_now()
    assert _ready(duo["b"], session)["status"] == "active"
    started = _assert_started_as_a_match_game(session, duo, after=opened_at)
    assert started.started_at < session.deadline_at - WINDOW / 2  # long before the window ends
    with start_worker(celery_app, perform_ping_check=False, pool="solo", shutdown_timeout=10):
        # The window's task comes due, and sweeps run: the game is already under way.
        assert _deliver_now(window_task) == "stale"
        assert worker_events.wait_for_sweeps(1)  # at least one more sweep
    after = GameSession.objects.get(pk=session.pk)
    assert after.status == GameSession.Status.ACTIVE and after.started_at == started.started_at
    assert after.version == started.version and after.state == started.state
    assert not GameAction.objects.filter(session=session).exists()
