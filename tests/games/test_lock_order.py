"""One lock order for an online tournament game: the match row, then the session row.

The decision clock (games/clocks.py) and the match clock (tournaments/clocks.py) of the
same match fire at the same instant, in two threads on their own PostgreSQL connections,
once for each of 20 matches. Taken in opposite orders the two row locks deadlock and
PostgreSQL aborts one of them (time called late, at the next sweep); in one order the
second simply waits for the first, and each effect happens exactly once.
"""

import datetime
import threading

import pytest
from django.db import connection

from config.dbtime import db_now
from games import enforcement, services
from games.models import GameAction, GameSession
from tournaments import clocks as t_clocks
from tournaments import online
from tournaments import services as t_services
from tournaments.models import AuditEntry, Match

from .conftest import event_with_players

pytestmark = pytest.mark.django_db(transaction=True)
MATCHES = 20


@pytest.fixture
def round_of_matches(make_player, organiser, judge):
    """A Swiss round in progress with MATCHES matches between players with accounts."""
    event, _ = event_with_players(
        make_player,
        organiser,
        judge,
        name="Lock Order Open",
        players=[f"Player {i + 1:02d}" for i in range(2 * MATCHES)],
        seed=11,
    )
    round_ = t_services.pair_next_round(tournament=event, by=organiser, seed="locks")
    t_services.publish_round(round_=round_, by=organiser)
    t_services.start_round(round_=round_, by=judge)
    matches = list(round_.matches.filter(player_b__isnull=False).order_by("table"))
    assert len(matches) == MATCHES
    return matches


def _at_once(*calls):
    """Run the calls in threads released together; their results and errors."""
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)
    errors = []

    def run(index, call):
        try:
            barrier.wait(timeout=10)
            results[index] = call()
        except Exception as exc:
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads), "a clock handler hung"
    return results, errors


def _both_overdue(match, session):
    """The match's time and the session's decision deadline both passed a moment ago."""
    past = db_now() - datetime.timedelta(seconds=1)
    Match.objects.filter(pk=match.pk).update(deadline_at=past)
    updates = {"deadline_at": past}
    if session.status == GameSession.Status.ACTIVE:
        updates["seat_deadlines"] = [
            past.isoformat() if d is not None else None for d in session.seat_deadlines
        ]
    GameSession.objects.filter(pk=session.pk).update(**updates)


def _time_called_once(match):
    match.refresh_from_db()
    assert match.time_called_at is not None
    assert (
        AuditEntry.objects.filter(
            object_type="Match", object_id=match.pk, action="clock.time_called"
        ).count()
        == 1
    )


def test_swap_window_closing_as_time_is_called_never_deadlocks(round_of_matches, settings):
    """The game waiting between games starts (locking its match to mark the game
    started) while time is called on the match (which ends or decides that game)."""
    settings.GAMES_SWAP_WINDOW_SECONDS = 120
    for match in round_of_matches:
        session = online.open_match(match=match, by=match.player_a.player.user)
        assert session.status == GameSession.Status.WAITING
        _both_overdue(match, session)
        results, errors = _at_once(
            lambda s=session: enforcement.enforce_deadline(s.pk),
            lambda m=match: t_clocks.enforce_match_deadline(m.pk),
        )
        assert errors == [], f"match {match.pk}: {errors!r}"
        started, called = results
        assert called == "time called"
        _time_called_once(match)
        session.refresh_from_db()
        if started == "started":  # the game began, then time ended it (once)
            assert session.status == GameSession.Status.FINISHED
            assert session.end_cause == "match_time"
            assert (
                GameAction.objects.filter(
                    session=session, cause=GameAction.Cause.MATCH_TIME
                ).count()
                == 1
            )
        else:  # time came first: the game never started and the match was decided
            assert session.status == GameSession.Status.CANCELLED
            assert session.end_cause == "match_time"
            assert not session.commitment
        assert match.status == Match.Status.CONFIRMED  # the result was written once
        assert match.submissions.count() == 1


def test_decision_default_as_time_is_called_never_deadlocks(round_of_matches, settings):
    """A player's decision clock runs out while time is called on the match: the default
    is applied once (or not at all, if time ended the game first) and time once."""
    settings.GAMES_SWAP_WINDOW_SECONDS = 0
    for match in round_of_matches:
        session = online.open_match(match=match, by=match.player_a.player.user)
        assert session.status == GameSession.Status.ACTIVE
        _both_overdue(match, session)
        pending = [seat for seat, d in enumerate(session.seat_deadlines) if d is not None]
        assert pending
        results, errors = _at_once(
            lambda s=session: enforcement.enforce_deadline(s.pk),
            lambda m=match: t_clocks.enforce_match_deadline(m.pk),
        )
        assert errors == [], f"match {match.pk}: {errors!r}"
        defaulted, called = results
        assert called == "time called"
        _time_called_once(match)
        session.refresh_from_db()
        assert session.status == GameSession.Status.FINISHED
        # Time ends the game in progress once: this one, or the next game of the match
        # when the default (both players throwing their whole hand) ended this one first.
        ended_by_time = GameAction.objects.filter(
            session__match_game__match=match, cause=GameAction.Cause.MATCH_TIME
        )
        assert ended_by_time.count() == 1
        if session.end_cause != "match_time":
            assert ended_by_time.get().session.match_game.number == session.match_game.number + 1
        actions = GameAction.objects.filter(session=session)
        defaults = list(
            actions.filter(cause=GameAction.Cause.CLOCK).values_list("actor", flat=True)
        )
        if defaulted == "default applied":
            assert sorted(defaults) == sorted(str(seat) for seat in pending)
        else:  # time ended the game first: nothing left to default
            assert defaulted in ("not due", "not running") and defaults == []
        assert match.status == Match.Status.CONFIRMED
        assert match.submissions.count() == 1


def test_conceding_the_match_as_time_is_called_never_deadlocks(round_of_matches, settings):
    """A player's own write that ends the game (and decides the match) races time being
    called: one of them decides the match, the other finds it decided; never a deadlock."""
    settings.GAMES_SWAP_WINDOW_SECONDS = 0
    for match in round_of_matches:
        player = match.player_a.player.user
        session = online.open_match(match=match, by=player)
        _both_overdue(match, session)
        results, errors = _at_once(
            lambda s=session, p=player: services.concede(session=s, by=p, whole_match=True),
            lambda m=match: t_clocks.enforce_match_deadline(m.pk),
        )
        conceded, called = results
        session.refresh_from_db()
        match.refresh_from_db()
        assert match.status == Match.Status.CONFIRMED
        assert match.submissions.count() == 1
        if called == "time called":  # time first: nothing was left to concede
            assert [str(e) for e in errors] == ["['There is no game in play to concede.']"]
            assert session.end_cause == "match_time"
            _time_called_once(match)
        else:  # the concession first: the match was over when the clock looked
            assert errors == [], f"match {match.pk}: {errors!r}"
            assert conceded is not None and called == "has a result"
            assert session.end_cause == "conceded"
            assert match.submissions.get().conceded_by == "a"
