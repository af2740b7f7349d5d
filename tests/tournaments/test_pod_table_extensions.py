"""A judge's time extension for one pod table (docs/timing.md "Extensions"): the limits
and words of a match's (1-60 minutes at a time, at most 120 in all, a reason), audited;
the table's time is the round's end plus its extensions, so the judges' queue and
clocks, the table's page and its online game all follow, and the clock (eta task and
sweep) enforces the moved limit of a table played online."""

import datetime

import pytest
from celery.contrib.testing.worker import start_worker
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection, connections, transaction
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from config.celery import app as celery_app
from config.dbtime import db_now
from games.models import GameSession
from tests.tournaments.pod_helpers import make_event, published
from tests.waiting import wait_for
from tournaments import clocks, pod_selectors
from tournaments import services as t_services
from tournaments.models import AuditEntry, PodGame, PodTable, Round
from tournaments.words import audit_rows

pytestmark = pytest.mark.django_db

MINUTE = datetime.timedelta(minutes=1)


def _started(organiser, judge, make_player, count, *, online=False, game="36d6"):
    event = make_event(organiser, judge, game=game, pods_online=online)
    for index in range(count):
        player = make_player(f"Ext {event.pk} {index:02d}")
        t_services.register(tournament=event, player=player, by=player.user)
    return published(event, organiser, judge)


def _table(round_, number=1) -> PodTable:
    return PodTable.objects.select_related("round").get(round=round_, number=number)


def _extended(round_) -> int:
    return AuditEntry.objects.filter(action="clock.extended", object_type="PodTable").count()


# --- the service ------------------------------------------------------------------------


def test_an_extension_adds_to_the_tables_time_and_is_audited(organiser, judge, make_player):
    round_ = _started(organiser, judge, make_player, 7)
    table = _table(round_)
    clocks.extend_pod_table(table=table, minutes=5, reason="judge call at table 1", by=judge)
    table.refresh_from_db()
    assert table.extension == 5 * MINUTE
    assert _table(round_, 2).extension == datetime.timedelta(0)  # one table only
    clock = pod_selectors.table_clock(
        PodTable.objects.select_related("round").prefetch_related("seats").get(pk=table.pk),
        db_now(),
    )
    assert clock["state"] == "running" and clock["extension_minutes"] == 5
    assert clock["deadline_at"] == (round_.ends_at + 5 * MINUTE).isoformat()
    entry = AuditEntry.objects.get(action="clock.extended", object_type="PodTable")
    assert entry.object_id == table.pk and entry.reason == "judge call at table 1"
    assert entry.before["extension_minutes"] == 0 and entry.after["extension_minutes"] == 5
    [row] = audit_rows([entry], organiser)
    assert row["sentence"] == "Gave table 1 5 more minutes."


@pytest.mark.parametrize(
    ("minutes", "reason", "words"),
    [
        (0, "x", "An extension is between 1 and 60 minutes."),
        (61, "x", "An extension is between 1 and 60 minutes."),
        (5, "  ", "Say why the time is extended"),
    ],
)
def test_bad_extensions_are_refused_in_words_and_change_nothing(
    organiser, judge, make_player, minutes, reason, words
):
    round_ = _started(organiser, judge, make_player, 3)
    table = _table(round_)
    with pytest.raises(ValidationError) as refused:
        clocks.extend_pod_table(table=table, minutes=minutes, reason=reason, by=judge)
    assert words in " ".join(refused.value.messages)
    table.refresh_from_db()
    assert table.extension == datetime.timedelta(0) and _extended(round_) == 0


def test_at_most_120_minutes_in_all_and_only_by_the_events_judges(
    organiser, judge, make_player, make_user
):
    round_ = _started(organiser, judge, make_player, 3)
    table = _table(round_)
    clocks.extend_pod_table(table=table, minutes=60, reason="long ruling", by=judge)
    clocks.extend_pod_table(table=table, minutes=55, reason="another", by=judge)
    with pytest.raises(ValidationError) as refused:
        clocks.extend_pod_table(table=table, minutes=6, reason="more", by=judge)
    assert refused.value.messages == [
        "A table's extensions add up to at most 120 minutes; this table has 115 already, "
        "so at most 5 more."
    ]
    with pytest.raises(PermissionDenied):
        clocks.extend_pod_table(table=table, minutes=1, reason="x", by=make_user("someone"))
    table.refresh_from_db()
    assert table.extension == 115 * MINUTE and _extended(round_) == 2


def test_no_extension_before_the_round_starts_or_once_the_table_is_placed(
    organiser, judge, make_player
):
    event = make_event(organiser, judge)
    for index in range(3):
        player = make_player(f"Early {index}")
        t_services.register(tournament=event, player=player, by=player.user)
    round_ = t_services.pair_next_round(tournament=event, by=organiser, seed="s1")
    t_services.publish_round(round_=round_, by=organiser)
    table = _table(round_)
    with pytest.raises(ValidationError) as refused:
        clocks.extend_pod_table(table=table, minutes=5, reason="x", by=judge)
    assert refused.value.messages == ["The round has not started yet."]
    round_ = t_services.start_round(round_=round_, by=judge)
    seats = list(table.seats.order_by("seat"))
    t_services.record_placings(
        table=table, placings={s.registration_id: s.seat for s in seats}, by=judge
    )
    with pytest.raises(ValidationError) as refused:
        clocks.extend_pod_table(table=table, minutes=5, reason="x", by=judge)
    assert "extensions come before time" in refused.value.messages[0]
    assert _extended(round_) == 0


def test_an_extended_table_is_not_at_time_when_the_round_is(organiser, judge, make_player, client):
    round_ = _started(organiser, judge, make_player, 7)
    clocks.extend_pod_table(table=_table(round_, 2), minutes=10, reason="x", by=judge)
    Round.objects.filter(pk=round_.pk).update(ends_at=db_now() - MINUTE)
    round_.refresh_from_db()
    states = {
        row["table"].number: row["state"] for row in pod_selectors.pod_queue(round_, db_now())
    }
    assert states == {1: "at_time", 2: "waiting"}
    # A table at time (its own time passed) takes no more: time is up there.
    with pytest.raises(ValidationError):
        clocks.extend_pod_table(table=_table(round_, 1), minutes=5, reason="x", by=judge)


def test_a_paused_round_keeps_each_tables_extension(organiser, judge, make_player):
    round_ = _started(organiser, judge, make_player, 3)
    clocks.pause_round(round_=round_, by=judge, reason="announcement")
    table = _table(round_)
    clocks.extend_pod_table(table=table, minutes=4, reason="x", by=judge)
    round_.refresh_from_db()
    table = PodTable.objects.select_related("round").prefetch_related("seats").get(pk=table.pk)
    clock = pod_selectors.table_clock(table, db_now())
    assert clock["state"] == "paused"
    expected = (round_.paused_remaining + 4 * MINUTE).total_seconds()
    assert clock["remaining_seconds"] == pytest.approx(expected)


# --- a table played online: the game's limit moves, the clock enforces it --------------


def test_online_the_games_limit_moves_and_the_sweep_honours_it(organiser, judge, make_player):
    round_ = _started(organiser, judge, make_player, 7, online=True)
    extended, other = PodGame.objects.filter(table__round=round_).order_by("table__number")
    assert extended.deadline_at == other.deadline_at == round_.ends_at
    overdue = db_now() - datetime.timedelta(seconds=1)
    PodGame.objects.filter(table__round=round_).update(deadline_at=overdue)
    clocks.extend_pod_table(table=extended.table, minutes=2, reason="x", by=judge)
    extended.refresh_from_db()
    assert extended.deadline_at == overdue + 2 * MINUTE
    # The sweep calls time at the other table only: the extended one has two minutes.
    assert clocks.sweep()["pod_time_called"] == 1
    extended.refresh_from_db()
    other.refresh_from_db()
    assert extended.time_called_at is None and other.time_called_at is not None
    assert clocks.enforce_pod_deadline(extended.pk) == "not due"
    assert GameSession.objects.get(pk=extended.session_id).status == GameSession.Status.WAITING
    # Once the moved limit passes, the sweep calls time there too.
    PodGame.objects.filter(pk=extended.pk).update(deadline_at=db_now() - MINUTE)
    assert clocks.sweep()["pod_time_called"] == 1
    # And time called takes no more extensions.
    with pytest.raises(ValidationError):
        clocks.extend_pod_table(table=extended.table, minutes=2, reason="x", by=judge)


def test_online_a_paused_games_time_left_grows(organiser, judge, make_player):
    round_ = _started(organiser, judge, make_player, 3, online=True)
    clocks.pause_round(round_=round_, by=judge, reason="x")
    pod_game = PodGame.objects.get(table__round=round_)
    left = pod_game.deadline_remaining
    clocks.extend_pod_table(table=pod_game.table, minutes=3, reason="x", by=judge)
    pod_game.refresh_from_db()
    assert pod_game.deadline_at is None and pod_game.deadline_remaining == left + 3 * MINUTE
    clocks.resume_round(round_=round_, by=judge)
    pod_game.refresh_from_db()
    round_.refresh_from_db()
    assert pod_game.deadline_at - round_.ends_at == 3 * MINUTE


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_worker_honours_the_moved_limit(organiser, judge, make_player, settings):
    """A real worker runs the eta tasks (the sweep off): the task queued for the old
    limit finds the table extended, calls nothing and re-queues itself for the new
    limit; the table beside it, not extended, has time called by its own task."""
    settings.CLOCKS_USE_ETA = True
    settings.CLOCKS_WORKER_SWEEP = False
    round_ = _started(organiser, judge, make_player, 7, online=True)
    extended, other = PodGame.objects.filter(table__round=round_).order_by("table__number")
    due = db_now() + datetime.timedelta(seconds=2)
    for pod_game in (extended, other):
        with transaction.atomic():
            locked = PodGame.objects.select_for_update().get(pk=pod_game.pk)
            locked.save(update_fields=clocks.POD_DEADLINE.set(locked, due))
    clocks.extend_pod_table(table=extended.table, minutes=1, reason="judge call", by=judge)
    with start_worker(celery_app, perform_ping_check=False, pool="solo", shutdown_timeout=10):
        assert wait_for(lambda: PodGame.objects.get(pk=other.pk).time_called_at is not None)
        assert wait_for(
            lambda: PodGame.objects.get(pk=extended.pk).deadline_task_eta == due + MINUTE
        )
    extended.refresh_from_db()
    other.refresh_from_db()
    assert other.time_called_at >= due
    assert extended.time_called_at is None and extended.deadline_at == due + MINUTE
    assert GameSession.objects.get(pk=extended.session_id).status == GameSession.Status.WAITING
    connections.close_all()


# --- the API ----------------------------------------------------------------------------


def _api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_the_api_mirrors_the_match_extension(organiser, judge, make_player):
    round_ = _started(organiser, judge, make_player, 3, online=True)
    table = _table(round_)
    url = f"/api/pod-tables/{table.pk}/clock/extend/"
    answer = _api(judge).post(url, {"minutes": 7, "reason": "judge call"}, format="json")
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["extension_minutes"] == 7 and body["state"] == "running"
    assert body["table"] == 1 and body["online"] is True
    pod_game = PodGame.objects.get(table=table)
    assert body["deadline_at"].replace("Z", "+00:00") == pod_game.deadline_at.isoformat()
    for bad, field in (({"minutes": 0, "reason": "x"}, "minutes"), ({"minutes": 5}, "reason")):
        refused = _api(judge).post(url, bad, format="json")
        assert refused.status_code == 400 and field in refused.json()["errors"]
    refused = _api(judge).post(url, {"minutes": 61, "reason": "x"}, format="json")
    assert refused.json()["errors"]["minutes"] == ["An extension is between 1 and 60 minutes."]
    refused = _api(judge).post(url, {"minutes": 60, "reason": "x"}, format="json")
    refused = _api(judge).post(url, {"minutes": 60, "reason": "x"}, format="json")
    assert refused.status_code == 400 and "at most 53 more" in refused.json()["detail"]
    seated = table.seats.select_related("registration__player__user").first()
    player = seated.registration.player.user
    assert _api(player).post(url, {"minutes": 5, "reason": "x"}, format="json").status_code == 403
    mine = _api(player).get(f"/api/pod-tables/{table.pk}/clock/")
    assert mine.status_code == 200 and mine.json()["extension_minutes"] == 67
    table.refresh_from_db()
    assert table.extension == 67 * MINUTE and _extended(round_) == 2


# --- the pages --------------------------------------------------------------------------


def test_the_judges_clocks_extend_a_table_and_show_it(organiser, judge, make_player, client):
    round_ = _started(organiser, judge, make_player, 7)
    event = round_.tournament
    client.force_login(judge)
    url = f"/tournaments/{event.pk}/rounds/1/clocks/"
    page = client.get(url).content.decode()
    assert page.count('class="inline table-extend"') == 2 and "+5 min" not in page
    answer = client.post(
        f"/tournaments/{event.pk}/rounds/1/tables/2/clock/",
        {"action": "extend", "minutes": "5", "reason": "judge call"},
        follow=True,
    )
    text = answer.content.decode()
    assert "Table 2: 5 more minutes." in text
    row = text[text.index('data-table="2"') :]
    assert "+5 min" in row[: row.index("</tr>")]
    assert _table(round_, 2).extension == 5 * MINUTE
    bad = client.post(
        f"/tournaments/{event.pk}/rounds/1/tables/2/clock/",
        {"action": "extend", "minutes": "90", "reason": "x"},
        follow=True,
    )
    assert "Minutes:" in bad.content.decode() and _table(round_, 2).extension == 5 * MINUTE
    # The page still reads in a constant number of queries.
    counts = []
    for _ in range(2):
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        counts.append(len(queries))
        clocks.extend_pod_table(table=_table(round_, 1), minutes=1, reason="x", by=judge)
    assert counts[0] == counts[1]


def test_the_tables_page_and_its_game_show_the_extension(organiser, judge, make_player, client):
    round_ = _started(organiser, judge, make_player, 3, online=True)
    table = _table(round_)
    player = table.seats.select_related("registration__player__user").first()
    client.force_login(player.registration.player.user)
    mine = f"/tournaments/{round_.tournament_id}/my-match/"
    assert "more minutes" not in client.get(mine).content.decode()
    clocks.extend_pod_table(table=table, minutes=6, reason="x", by=judge)
    text = client.get(mine).content.decode()
    assert "A judge gave this table 6 more minutes." in text
    pod_game = PodGame.objects.get(table=table)
    assert f'data-deadline="{pod_game.deadline_at.isoformat()}"' in text
    game_page = client.get(f"/games/{pod_game.session_id}/").content.decode()
    assert "Round time at this table (+6 min)" in game_page


def test_a_tables_clock_is_seen_as_its_round_is_and_always_by_its_players(
    organiser, judge, make_player, make_user
):
    round_ = _started(organiser, judge, make_player, 3)
    event = round_.tournament
    event.publish_pairings = False
    event.save(update_fields=["publish_pairings"])
    table = _table(round_)
    url = f"/api/pod-tables/{table.pk}/clock/"
    assert APIClient().get(url).status_code == 404
    assert _api(make_user("stranger")).get(url).status_code == 404
    seated = table.seats.select_related("registration__player__user").first()
    assert _api(seated.registration.player.user).get(url).status_code == 200
    assert _api(judge).get(url).status_code == 200
