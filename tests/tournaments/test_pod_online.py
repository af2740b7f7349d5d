"""Pod tables played online (docs/online-play.md "Pod tables online"): a game per table
when the round starts, seats in the table's order; the game's placings (ties shared,
conceded seats last) become the table's and the pod standings; time called ends the
game as its game's rules say; judges pause, resume and place a table (which ends its
game); spectators watch and nobody sees the seed while the game runs."""

import datetime
import random

import pytest
from celery.contrib.testing.worker import start_worker
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection, connections, transaction
from django.test.utils import CaptureQueriesContext

from config.celery import app as celery_app
from config.dbtime import db_now
from games import services as game_services
from games.engines import engine_for
from games.models import GameAction, GameSession
from games.selectors import game_state
from tests.tournaments.pod_helpers import make_event, published
from tests.waiting import wait_for
from tournaments import clocks, pod_online, selectors
from tournaments import services as t_services
from tournaments.models import AuditEntry, PodGame, PodSeat, RatingChange, Round
from tournaments.words import audit_rows

pytestmark = pytest.mark.django_db


def _event(organiser, judge, make_player, count, *, game="36d6", online=True, **options):
    event = make_event(organiser, judge, game=game, pods_online=online, **options)
    players = [make_player(f"Pod {event.pk} {i:02d}") for i in range(count)]
    for player in players:
        t_services.register(tournament=event, player=player, by=player.user)
    return event


def _users(session):
    return {seat: _user_of(session, seat) for seat in session.seats}


def _user_of(session, seat):
    from django.contrib.auth import get_user_model

    ids = [session.user_0_id, session.user_1_id] + [e["user"] for e in session.extra_seats]
    return get_user_model().objects.get(pk=ids[seat])


def _ready_all(session):
    for user in _users(session).values():
        game_services.mark_ready(session=session, by=user)
    session.refresh_from_db()
    assert session.status == GameSession.Status.ACTIVE


def _play(session, *, rng, limit=5000, skip=()):
    """Every seated player picks a random legal action through ``submit_action`` (each
    from what the service offers them) until the game is over."""
    engine = engine_for(session.engine)
    users = _users(session)
    for _ in range(limit):
        session.refresh_from_db()
        if session.status != GameSession.Status.ACTIVE:
            return session
        state = game_services.state_of(session)
        seat = min(s for s in engine.to_act(state) if s not in skip)
        action = rng.choice(engine.legal_actions(state, seat))
        game_services.submit_action(
            session=session, by=users[seat], action=action, expected_version=session.version
        )
    raise AssertionError("the game did not end")


def _table_game(round_, number=1) -> GameSession:
    return GameSession.objects.get(pod_game__table__round=round_, pod_game__table__number=number)


def _placings(table) -> list:
    return list(
        PodSeat.objects.filter(table=table).order_by("seat").values_list("placing", flat=True)
    )


# --- opening --------------------------------------------------------------------------


def test_a_started_round_opens_one_game_per_table_in_seat_order(organiser, judge, make_player):
    event = _event(organiser, judge, make_player, 7)
    round_ = t_services.pair_next_round(tournament=event, by=organiser, seed="s1")
    t_services.publish_round(round_=round_, by=organiser)
    assert not PodGame.objects.exists()  # published, not started: no game yet
    round_ = t_services.start_round(round_=round_, by=judge)
    for table in round_.pod_tables.prefetch_related("seats__registration__player"):
        session = table.online_game.session
        seats = list(table.seats.order_by("seat"))
        assert session.kind == GameSession.Kind.POD_TABLE and session.engine == "36d6"
        assert session.status == GameSession.Status.WAITING
        assert session.seat_count == table.size == len(seats)
        assert session.names == [s.registration.player.display_name for s in seats]
        for seat in seats:
            assert session.seat_of(seat.registration.player.user) == seat.seat - 1
        # The table's time limit is the round's end.
        assert table.online_game.deadline_at == round_.ends_at
    entry = AuditEntry.objects.get(action="pod.games_opened")
    assert entry.after["tables"] == [1, 2]
    [row] = audit_rows([entry], organiser)
    assert row["sentence"] == "Opened the online games of round 1 (tables: 1, 2)."


def test_no_game_without_the_option_for_a_bye_or_a_player_without_an_account(
    organiser, judge, make_player
):
    plain = _event(organiser, judge, make_player, 3, online=False)
    published(plain, organiser, judge)
    assert not PodGame.objects.exists()
    event = _event(organiser, judge, make_player, 4, pod_mode="three")
    t_services.register(
        tournament=event, player=make_player("Paper", with_user=False), by=organiser
    )
    round_ = published(event, organiser, judge)
    # 5 players in tables of 3: 3 + 2; the paperless player's table is the judges'.
    tables = {t.number: t for t in round_.pod_tables.prefetch_related("seats__registration")}
    paper = next(
        n
        for n, t in tables.items()
        if any(s.registration.player.user_id is None for s in t.seats.all())
    )
    assert not PodGame.objects.filter(table=tables[paper]).exists()
    assert PodGame.objects.filter(table__round=round_).count() == len(tables) - 1
    entry = AuditEntry.objects.get(action="pod.games_opened", tournament=event)
    assert entry.after["tables_without_accounts"] == [paper]


def test_the_option_needs_pods(organiser, judge):
    with pytest.raises(ValidationError) as refused:
        t_services.create_tournament(
            organiser=organiser, name="X", date=datetime.date(2026, 12, 5), pods_online=True
        )
    assert "pods_online" in refused.value.message_dict


# --- playing to the end ----------------------------------------------------------------


@pytest.mark.parametrize("game", ["36d6", "dice-forge"])
def test_a_three_seat_table_played_to_the_end_places_its_seats(
    organiser, judge, make_player, game, client
):
    event = _event(organiser, judge, make_player, 3, game=game)
    round_ = published(event, organiser, judge)
    table = round_.pod_tables.get()
    session = _table_game(round_)
    # "My match" leads each seated player to the table's game.
    client.force_login(table.seats.first().registration.player.user)
    assert (
        f"/games/{session.pk}/" in client.get(f"/tournaments/{event.pk}/my-match/").content.decode()
    )
    _ready_all(session)
    session = _play(session, rng=random.Random(3))
    assert session.status == GameSession.Status.FINISHED
    # The engine's placings, seat by seat (session seat s is the table's seat s + 1).
    assert _placings(table) == session.placings
    assert sorted(session.placings)[0] == 1
    round_.refresh_from_db()
    assert round_.status == Round.Status.COMPLETE
    entry = AuditEntry.objects.filter(action="pod.placings").latest("pk")
    assert entry.actor is None and entry.after["game_session"] == session.pk
    [row] = audit_rows([entry], organiser)
    assert row["sentence"] == "The online game of table 1 in round 1 placed its players."
    # The pod standings count the table: the winners (ties shared) lead.
    rows = selectors.pod_standings_rows(event, as_of_round=1)
    assert all(row["tables"] == 1 for row in rows)
    winners = {s.registration_id for s in PodSeat.objects.filter(table=table, placing=1)}
    assert {row["registration"] for row in rows if row["rank"] == 1} == winners
    # The table's time limit is over with its game.
    pod_game = PodGame.objects.get(table=table)
    assert pod_game.deadline_at is None and pod_game.time_called_at is None
    assert game_services.replayed_state(session).to_dict() == session.state
    # The placed table rates its players in the event's game (docs/ratings.md).
    rated = RatingChange.objects.filter(pod_table=table)
    assert rated.count() == 3 and {r.game for r in rated} == {event.game}


def test_a_player_who_concedes_is_placed_last_and_the_others_play_on(organiser, judge, make_player):
    event = _event(organiser, judge, make_player, 3)
    round_ = published(event, organiser, judge)
    table = round_.pod_tables.get()
    session = _table_game(round_)
    _ready_all(session)
    users = _users(session)
    game_services.concede(session=session, by=users[1])
    session.refresh_from_db()
    assert session.status == GameSession.Status.ACTIVE  # two play on
    assert _placings(table) == [None, None, None]
    with pytest.raises(ValidationError, match="plays one game"):  # no match to concede
        game_services.concede(session=session, by=users[0], whole_match=True)
    session = _play(session, rng=random.Random(5), skip={1})
    assert _placings(table)[1] == 3
    assert sorted(_placings(table)[::2]) in ([1, 2], [1, 1])


def test_a_player_who_leaves_the_event_is_placed_last_at_their_table(organiser, judge, make_player):
    event = _event(organiser, judge, make_player, 4)
    round_ = published(event, organiser, judge)
    table = round_.pod_tables.prefetch_related("seats__registration").get()
    session = _table_game(round_)
    _ready_all(session)
    leaving = next(s for s in table.seats.all() if s.seat == 3).registration
    t_services.drop(registration=leaving, by=judge, reason="went home")
    session.refresh_from_db()
    assert session.status == GameSession.Status.ACTIVE  # three play on
    out = session.actions.get(cause=GameAction.Cause.CONCEDE)
    assert out.action == {"kind": "forfeit", "player": 2} and out.user == judge
    session = _play(session, rng=random.Random(9), skip={2})
    assert _placings(table)[2] == 4
    assert sorted(_placings(table)[:2] + _placings(table)[3:])[0] == 1


# --- time ------------------------------------------------------------------------------


def _overdue(pod_game):
    PodGame.objects.filter(pk=pod_game.pk).update(
        deadline_at=db_now() - datetime.timedelta(seconds=1)
    )


def test_time_called_ends_the_game_scored_and_places_the_table(organiser, judge, make_player):
    event = _event(organiser, judge, make_player, 3)
    round_ = published(event, organiser, judge)
    table = round_.pod_tables.get()
    session = _table_game(round_)
    _ready_all(session)
    _play_some(session, 6)
    _overdue(table.online_game)
    assert clocks.sweep()["pod_time_called"] == 1
    assert clocks.sweep()["pod_time_called"] == 0  # at most once
    session.refresh_from_db()
    assert session.status == GameSession.Status.FINISHED and session.end_cause == "match_time"
    assert _placings(table) == session.placings
    pod_game = PodGame.objects.get(pk=table.online_game.pk)
    assert pod_game.time_called_at is not None
    called = AuditEntry.objects.get(action="clock.time_called", object_type="PodTable")
    assert called.object_id == table.pk
    assert audit_rows([called], organiser)[0]["sentence"] == "Time was called at table 1."


def test_a_game_still_waiting_at_time_is_not_played(organiser, judge, make_player):
    event = _event(organiser, judge, make_player, 3)
    round_ = published(event, organiser, judge)
    table = round_.pod_tables.get()
    _overdue(table.online_game)
    clocks.sweep()
    session = _table_game(round_)
    assert session.status == GameSession.Status.CANCELLED
    assert _placings(table) == [None, None, None]  # the judges place it


def _play_some(session, count):
    engine = engine_for(session.engine)
    users = _users(session)
    rng = random.Random(1)
    for _ in range(count):
        session.refresh_from_db()
        state = game_services.state_of(session)
        seat = min(engine.to_act(state))
        action = rng.choice(engine.legal_actions(state, seat))
        game_services.submit_action(
            session=session, by=users[seat], action=action, expected_version=session.version
        )


# --- judges ----------------------------------------------------------------------------


def test_judges_pause_the_game_with_its_time_and_place_the_table(organiser, judge, make_player):
    event = _event(organiser, judge, make_player, 3)
    round_ = published(event, organiser, judge)
    table = round_.pod_tables.prefetch_related("seats").get()
    session = _table_game(round_)
    _ready_all(session)
    users = _users(session)
    with pytest.raises(PermissionDenied):
        game_services.pause_game(session=session, by=users[0], reason="no")
    game_services.pause_game(session=session, by=judge, reason="judge call")
    pod_game = PodGame.objects.get(table=table)
    assert pod_game.deadline_at is None and pod_game.deadline_remaining is not None
    assert session.seat_of(judge) is None
    assert game_state(session, "judge", db_now())["clock"]["match"]["state"] == "paused"
    game_services.resume_game(session=session, by=judge)
    pod_game.refresh_from_db()
    assert pod_game.deadline_at is not None and pod_game.deadline_remaining is None
    ids = [s.registration_id for s in table.seats.all()]
    # Bad placings and a player's placings change nothing: the game plays on.
    with pytest.raises(ValidationError):
        pod_online.record_placings(
            table=table, placings=dict(zip(ids, [1, 3, 3], strict=True)), by=judge
        )
    with pytest.raises(PermissionDenied):
        pod_online.record_placings(
            table=table, placings=dict(zip(ids, [1, 2, 3], strict=True)), by=users[0]
        )
    session.refresh_from_db()
    assert session.status == GameSession.Status.ACTIVE and session.deadline_at is not None
    # A judge's placings end the game and stand.
    pod_online.record_placings(
        table=table, placings=dict(zip(ids, [2, 1, 2], strict=True)), by=judge, reason="player ill"
    )
    session.refresh_from_db()
    assert session.status == GameSession.Status.CANCELLED and session.end_cause == "ruling"
    assert session.deadline_at is None
    # The game's status says what happened at a table, which has no match.
    assert session.status_label == "Stopped (the result was settled without this game)"
    assert _placings(table) == [2, 1, 2]
    assert AuditEntry.objects.filter(action="game.placings_awarded", actor=judge).exists()
    sentences = [
        row["sentence"]
        for row in audit_rows(
            AuditEntry.objects.filter(object_type="PodTable").order_by("pk"), organiser
        )
    ]
    assert sentences == [
        "Paused the online game of table 1.",
        "Resumed the online game of table 1.",
        "Entered the placings of table 1 in round 1.",
        "Ended the online game of table 1 with the judge's placings.",
    ]
    with pytest.raises(ValidationError):
        game_services.submit_action(session=session, by=users[0], action={"kind": "pass"})


def test_a_round_pause_stops_every_table_time(organiser, judge, make_player):
    event = _event(organiser, judge, make_player, 7)
    round_ = published(event, organiser, judge)
    clocks.pause_round(round_=round_, by=judge, reason="announcement")
    assert not PodGame.objects.filter(table__round=round_, deadline_at__isnull=False).exists()
    clocks.resume_round(round_=round_, by=judge)
    round_.refresh_from_db()
    for pod_game in PodGame.objects.filter(table__round=round_):
        assert pod_game.deadline_at == round_.ends_at


# --- who sees what -------------------------------------------------------------------------


def test_spectators_watch_the_table_and_nobody_sees_the_seed_while_it_runs(
    organiser, judge, make_player, client
):
    event = _event(organiser, judge, make_player, 3)
    round_ = published(event, organiser, judge)
    session = _table_game(round_)
    _ready_all(session)
    seed = GameSession.objects.values_list("seed", flat=True).get(pk=session.pk)
    page = client.get(f"/games/{session.pk}/")
    assert page.status_code == 200 and seed not in page.content.decode()
    assert "Round time at this table" in page.content.decode()
    for name in session.names:
        assert name in page.content.decode()
    state = client.get(f"/api/games/{session.pk}/").json()
    assert state["viewer"] == "spectator" and seed not in str(state)
    client.force_login(_users(session)[0])
    assert seed not in client.get(f"/api/games/{session.pk}/").content.decode()
    # The player finds their table's game on the round's tables page and on /games/.
    tables = client.get(f"/tournaments/{event.pk}/rounds/1/")
    assert f"/games/{session.pk}/" in tables.content.decode()
    assert f"/games/{session.pk}/" in client.get("/games/").content.decode()


# --- the clocks, enforced by a real Celery worker ----------------------------------------


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_worker_starts_the_table_defaults_a_late_seat_and_calls_time(
    organiser, judge, make_player, settings
):
    """The start window closes, a seat that does not decide gets the engine's default,
    and the round's time ends the game scored and places the table: each by the eta
    task a real worker runs (the sweep off), with nobody acting."""
    settings.CLOCKS_USE_ETA = True
    settings.CLOCKS_WORKER_SWEEP = False
    settings.GAMES_DECISION_SECONDS = 2
    settings.GAMES_SWAP_WINDOW_SECONDS = 1
    event = _event(organiser, judge, make_player, 3)
    round_ = published(event, organiser, judge)
    table = round_.pod_tables.get()
    session = _table_game(round_)
    with start_worker(celery_app, perform_ping_check=False, pool="solo", shutdown_timeout=10):
        assert wait_for(
            lambda: GameAction.objects.filter(
                session=session, cause=GameAction.Cause.CLOCK
            ).exists()
        )
        started = GameSession.objects.get(pk=session.pk)
        assert started.status == GameSession.Status.ACTIVE
        default = GameAction.objects.filter(session=session, cause=GameAction.Cause.CLOCK).first()
        assert default.actor == "0" and default.created_at >= started.started_at + (
            datetime.timedelta(seconds=2)
        )
        # The round's time runs out 2 s from now.
        with transaction.atomic():
            pod_game = PodGame.objects.select_for_update().get(table=table)
            due = db_now() + datetime.timedelta(seconds=2)
            pod_game.save(update_fields=clocks.POD_DEADLINE.set(pod_game, due))
        assert wait_for(lambda: None not in _placings(table))
    session = GameSession.objects.get(pk=session.pk)
    assert session.status == GameSession.Status.FINISHED and session.end_cause == "match_time"
    assert _placings(table) == session.placings
    pod_game = PodGame.objects.get(table=table)
    assert pod_game.time_called_at >= due and pod_game.deadline_at is None
    assert game_services.replayed_state(session).to_dict() == session.state
    connections.close_all()


def test_the_tables_pages_link_each_game_in_a_constant_number_of_queries(
    organiser, judge, make_player, client
):
    counts = []
    for size in (3, 11):
        event = _event(organiser, judge, make_player, size)
        round_ = published(event, organiser, judge)
        games = dict(
            PodGame.objects.filter(table__round=round_).values_list("table__number", "session_id")
        )
        assert len(games) == (1 if size == 3 else 3)
        client.force_login(judge)
        for path in ("", "manage/"):
            with CaptureQueriesContext(connection) as queries:
                page = client.get(f"/tournaments/{event.pk}/rounds/1/{path}")
            assert page.status_code == 200
            for session_id in games.values():
                assert f"/games/{session_id}/" in page.content.decode()
            counts.append((path, len(queries)))
    assert counts[0] == counts[2] and counts[1] == counts[3], counts


@pytest.mark.parametrize("game", ["36d6", "dice-forge"])
def test_a_player_out_of_the_table_game_is_no_longer_offered_to_concede(
    organiser, judge, make_player, client, game
):
    event = _event(organiser, judge, make_player, 3, game=game)
    round_ = published(event, organiser, judge)
    session = _table_game(round_)
    _ready_all(session)
    users = _users(session)
    game_services.concede(session=session, by=users[1])
    session.refresh_from_db()
    assert session.status == GameSession.Status.ACTIVE

    def offered(user):
        client.force_login(user)
        return 'class="game-concede' in client.get(f"/games/{session.pk}/").content.decode()

    assert [offered(users[seat]) for seat in (0, 1, 2)] == [True, False, True]


@pytest.mark.parametrize("game", ["36d6", "dice-forge"])
def test_conceding_again_says_the_player_is_out_in_words_not_a_seat_number(
    organiser, judge, make_player, game
):
    from tests.conftest import api_as

    event = _event(organiser, judge, make_player, 3, game=game)
    round_ = published(event, organiser, judge)
    session = _table_game(round_)
    _ready_all(session)
    users = _users(session)
    client = api_as(users[1])
    assert client.post(f"/api/games/{session.pk}/concede/", {}, format="json").status_code == 200
    session.refresh_from_db()
    version, logged = session.version, session.actions.count()
    again = client.post(f"/api/games/{session.pk}/concede/", {}, format="json")
    assert again.status_code == 400
    said = str(again.json())
    # The seat people see is not the engine's 0-based number: no "Seat 1" for seat 2.
    assert "You are already out of this game" in said and "Seat" not in said, said
    session.refresh_from_db()
    assert (session.version, session.actions.count()) == (version, logged)


WAY_BACK = '<a href="{url}" id="way-back">← {words}</a>'


@pytest.mark.parametrize("game", ["36d6", "dice-forge"])
def test_a_table_games_page_leads_back_to_my_table_or_the_round(
    organiser, judge, make_player, client, game
):
    event = _event(organiser, judge, make_player, 7, game=game)
    round_ = published(event, organiser, judge)
    mine = WAY_BACK.format(url=f"/tournaments/{event.pk}/my-table/", words="My table")
    tables = WAY_BACK.format(url=f"/tournaments/{event.pk}/rounds/1/", words="Tables, round 1")
    counts = {}
    for number in (1, 2):  # a table of 4 and a table of 3
        session = _table_game(round_, number)
        for seat, user in _users(session).items():
            client.force_login(user)
            with CaptureQueriesContext(connection) as queries:
                page = client.get(f"/games/{session.pk}/").content.decode()
            assert mine in page and tables not in page, (number, seat)
            counts.setdefault("player", set()).add(len(queries))
        for who, user in (("judge", judge), ("judge", organiser), ("spectator", None)):
            if user is None:
                client.logout()
            else:
                client.force_login(user)
            with CaptureQueriesContext(connection) as queries:
                page = client.get(f"/games/{session.pk}/").content.decode()
            assert tables in page and mine not in page, (number, user)
            counts.setdefault(f"{who} {user}", set()).add(len(queries))
    # Whatever the table's size, each viewer's page reads the same number of queries.
    assert all(len(found) == 1 for found in counts.values()), counts
