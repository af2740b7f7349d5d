"""One lock order for a pod table's online game: the PodGame row, then the session row,
then the table's seats (docs/timing.md "Lock order"). A seat's decision clock and the
table's time limit fire at the same instant, in two threads on their own PostgreSQL
connections, at each of several tables: neither deadlocks, time is called once and the
table is placed once."""

import datetime

import pytest

from config.dbtime import db_now
from games import enforcement
from games.models import GameAction, GameSession
from tests.games.test_lock_order import _at_once
from tests.tournaments.pod_helpers import make_event, published
from tournaments import clocks
from tournaments import services as t_services
from tournaments.models import AuditEntry, PodGame, PodSeat

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_decision_default_as_time_is_called_at_a_table_never_deadlocks(
    organiser, judge, make_player, settings
):
    settings.GAMES_SWAP_WINDOW_SECONDS = 0  # every table's game starts with the round
    event = make_event(organiser, judge, pods_online=True)
    for i in range(20):
        player = make_player(f"Locks {i:02d}")
        t_services.register(tournament=event, player=player, by=player.user)
    round_ = published(event, organiser, judge)
    pod_games = list(PodGame.objects.filter(table__round=round_).select_related("session"))
    assert len(pod_games) == 5
    for pod_game in pod_games:
        session = pod_game.session
        assert session.status == GameSession.Status.ACTIVE
        past = db_now() - datetime.timedelta(seconds=1)
        PodGame.objects.filter(pk=pod_game.pk).update(deadline_at=past)
        GameSession.objects.filter(pk=session.pk).update(
            deadline_at=past,
            seat_deadlines=[
                past.isoformat() if d is not None else None for d in session.seat_deadlines
            ],
        )
        results, errors = _at_once(
            lambda s=session: enforcement.enforce_deadline(s.pk),
            lambda g=pod_game: clocks.enforce_pod_deadline(g.pk),
        )
        assert errors == [], f"table {pod_game.table_id}: {errors!r}"
        assert results[1] == "time called"
        session.refresh_from_db()
        assert session.status == GameSession.Status.FINISHED
        assert session.end_cause == "match_time"
        assert (
            GameAction.objects.filter(session=session, cause=GameAction.Cause.MATCH_TIME).count()
            == 1
        )
        assert GameAction.objects.filter(session=session, cause=GameAction.Cause.CLOCK).count() in (
            0,
            1,
        )
        placed = list(
            PodSeat.objects.filter(table_id=pod_game.table_id)
            .order_by("seat")
            .values_list("placing", flat=True)
        )
        assert placed == session.placings
        assert (
            AuditEntry.objects.filter(
                action="pod.placings", object_id=pod_game.table_id, object_type="PodTable"
            ).count()
            == 1
        )
