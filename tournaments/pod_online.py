"""Pod tables played online: tournaments hosts one game session per pod table.

In an event in pods with ``pods_online`` (docs/online-play.md "Pod tables online"), each
table of two or more players gets one game of the event's game when its round starts
(``open_pod_games``, told by ``services.start_round``): a seat per player in the table's
seat order (session seat ``s`` is the table's seat ``s + 1``), opening with the start
window like the first game of a match. The table's time limit is the round's end, a
deadline of its ``PodGame`` row (tournaments/clocks.py); when it passes the game ends as
the game's ``time_called_action`` says (``on_pod_time``). When the game ends its
placings (ties shared, conceded seats last) become the table's (``PodHost.on_game_over``);
a judge's placings end the game and stand (``record_placings``). Games calls only
``PodHost``, registered for ``GameSession.Kind.POD_TABLE`` in ``TournamentsConfig.ready``.

Locks: the round row (when a judge places a table), then the PodGame row, then the
session, then the table's seats (docs/timing.md "Lock order").
"""

from __future__ import annotations

import logging

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Prefetch, Q
from django.utils.translation import gettext as _

from config.dbtime import db_now
from games import services as game_services
from games.hosts import GameStart, SessionHost
from games.models import GameSession
from tournaments import clocks, online, permissions
from tournaments import services as t_services
from tournaments.audit import audit
from tournaments.games import rules_for
from tournaments.models import PodGame, PodReport, PodSeat, PodTable, Round, Tournament
from tournaments.services.pods import OPEN_FOR_PLACINGS
from tournaments.services.ratings import record_table_rating
from tournaments.services.results import refresh_round_status

log = logging.getLogger(__name__)
OPEN = game_services.OPEN


# --- opening the tables' games ----------------------------------------------------------


def open_pod_games(round_: Round, by) -> list[PodGame]:
    """A round of an event in pods played online has started (the round row is locked):
    every table of two or more seats, each of whose players has an account and none
    placed yet, gets its game, waiting for every player (or the start window). A table
    with a player without an account is left to the judges' placings (audited)."""
    tournament = round_.tournament
    if not (tournament.pods and tournament.pods_online):
        return []
    seats = PodSeat.objects.select_related("registration__player").order_by("seat")
    tables = (
        PodTable.objects.filter(round=round_, size__gte=2, online_game__isnull=True)
        .prefetch_related(Prefetch("seats", queryset=seats))
        .order_by("number")
    )
    now = db_now()
    opened, on_paper = [], []
    for table in tables:
        players = [seat.registration.player for seat in table.seats.all()]
        if any(seat.placing is not None for seat in table.seats.all()):
            continue  # a judge placed it already
        if any(player.user_id is None for player in players):
            on_paper.append(table.number)
            continue
        session = game_services.create_hosted_session(
            GameSession.Kind.POD_TABLE,
            engine=tournament.game,
            user_0_id=players[0].user_id,
            user_1_id=players[1].user_id,
            name_0=players[0].display_name,
            name_1=players[1].display_name,
            extra_seats=[
                {"user": p.user_id, "bot": "", "name": p.display_name} for p in players[2:]
            ],
        )
        pod_game = PodGame.objects.create(table=table, session=session)
        fields = clocks.start_pod_game_clock(pod_game, round_)
        if fields:
            pod_game.save(update_fields=fields)
        game_services.open_session(session, now, window=True)
        opened.append(pod_game)
    audit(
        tournament,
        by,
        "pod.games_opened",
        round_,
        after={
            "round": round_.number,
            "tables": [g.table.number for g in opened],
            "sessions": [g.session_id for g in opened],
            "tables_without_accounts": on_paper,
        },
    )
    return opened


def on_round_started(round_: Round, by) -> None:
    """Told by ``services.start_round`` (registered in TournamentsConfig.ready)."""
    open_pod_games(round_, by)


# --- the end of a table's game ----------------------------------------------------------


def _record_game_placings(pod_game: PodGame, session: GameSession) -> None:
    """The finished game's placings become the table's, seat by seat, unless a judge
    placed the table meanwhile (theirs stand). Caller holds the PodGame and session."""
    table = pod_game.table
    round_ = table.round
    seats = list(PodSeat.objects.select_for_update().filter(table=table).order_by("seat"))
    placings = session.placings or []
    if any(seat.placing is not None for seat in seats):
        return
    if len(placings) != len(seats) or round_.status not in OPEN_FOR_PLACINGS:
        log.warning("online placings not recorded", extra={"pod_game": pod_game.pk})
        return
    for seat in seats:
        seat.placing = placings[seat.seat - 1]
    PodSeat.objects.bulk_update(seats, ["placing"])
    # The game's placings settle whatever the players reported, as a judge's entry does.
    PodReport.objects.filter(table=table, status__in=PodReport.OPEN).update(
        status=PodReport.Status.SUPERSEDED
    )
    record_table_rating(table)  # docs/ratings.md: a placed table rates its players
    audit(
        round_.tournament,
        None,
        "pod.placings",
        table,
        after={
            "round": round_.number,
            "table": table.number,
            "placings": {str(seat.registration_id): seat.placing for seat in seats},
            "game_session": session.pk,
            "end": session.end_cause or "finished",
        },
    )
    refresh_round_status(round_)


def on_pod_time(pod_game_id: int) -> str:
    """Told by tournaments/clocks.py when the round's time passes at a pod table (the
    PodGame row locked): the game in play ends as its game's rules say
    (``time_called_action``: 36d6 and Dice Forge end scored as they stand); a game still
    waiting for its players is not played, and the judges place the table."""
    session = (
        GameSession.objects.select_for_update(of=("self",))
        .select_related(*PodHost.related)
        .filter(pod_game__pk=pod_game_id, status__in=OPEN)
        .first()
    )
    if session is None:
        return "no online game"
    if session.status == GameSession.Status.WAITING:
        game_services.cancel_waiting(session, end_cause="match_time")
        return "not started"
    action = rules_for(session.engine).time_called_action
    game_services.end_for_host_time(session, db_now(), action=action)
    return "game ended"


def on_player_dropped(registration, by) -> None:
    """A player who drops from the event leaves their pod table's game in play: their
    seat forfeits and is placed last, as if they had conceded (docs/online-play.md).
    Told by ``services.drop`` (registered in TournamentsConfig.ready)."""
    sessions = GameSession.objects.filter(
        pod_game__table__seats__registration=registration,
        status__in=(GameSession.Status.ACTIVE, GameSession.Status.PAUSED),
    ).values_list("pk", "pod_game__table__seats__seat")
    for session_id, table_seat in sessions:
        game_services.forfeit_seat(
            session=GameSession(pk=session_id, kind=GameSession.Kind.POD_TABLE),
            seat=table_seat - 1,
            by=by,
            note="left the event",
        )


# --- a judge's placings -------------------------------------------------------------------


@transaction.atomic
def record_placings(*, table: PodTable, placings: dict, by, reason: str = "") -> PodTable:
    """A judge places a table (``services.record_placings``); if its online game is still
    open, the judge's ruling ends it first (cancelled, unscored, audited), so the
    placings entered stand. Bad input changes nothing."""
    round_ = Round.objects.select_for_update(of=("self",)).get(pk=table.round_id)
    pod_game = (
        PodGame.objects.select_for_update(of=("self",))
        .select_related("session")
        .filter(table_id=table.pk, session__status__in=OPEN)
        .first()
    )
    if pod_game is not None:
        # Refused placings roll this back too: the game plays on.
        session = game_services.lock(pod_game.session)
        game_services.cancel_open(session, db_now(), end_cause="ruling")
        clocks.stop_pod_game_clock(pod_game)
    table = t_services.record_placings(table=table, placings=placings, by=by)
    if pod_game is not None:
        audit(
            round_.tournament,
            by,
            "game.placings_awarded",
            table,
            after={"game_session": pod_game.session_id, "table": table.number},
            reason=reason,
        )
    return table


# --- the host -------------------------------------------------------------------------


def _pod_game(session) -> PodGame:
    """The session's PodGame (read with the session through ``PodHost.related``)."""
    return session.pod_game


class PodHost(SessionHost):
    """The host of pod table sessions: each is the one game of a ``PodTable``."""

    related = ("pod_game__table__round__tournament",)

    def lock(self, session_id: int) -> bool:
        return bool(
            list(
                PodGame.objects.select_for_update(of=("self",))
                .filter(session_id=session_id)
                .order_by()
                .values_list("pk", flat=True)
            )
        )

    def can_judge(self, user, session) -> bool:
        return permissions.can_judge(user, _pod_game(session).table.round.tournament)

    def start(self, session, now) -> GameStart:
        """The table's game starts: the event's game with a seat per player."""
        table = _pod_game(session).table
        config = rules_for(session.engine).table_config(seats=session.seat_count)
        if config is None:  # pods are refused to games of registered sets (IRONDIE)
            raise ValidationError(_("This game is not played at pod tables."))
        return GameStart(None, f"p{table.pk}", config=config)

    def on_game_over(self, session, now, *, conceded_by: str = "") -> None:
        pod_game = _pod_game(session)
        if pod_game.deadline_at is not None or pod_game.deadline_remaining is not None:
            clocks.stop_pod_game_clock(pod_game)
        if session.status == GameSession.Status.FINISHED:
            _record_game_placings(pod_game, session)

    def check_concede_match(self, session) -> None:
        raise ValidationError(
            {"match": [_("A pod table plays one game: concede the game, not a match.")]}
        )

    def audit(self, session, by, action: str, *, after=None, reason: str = "") -> None:
        table = _pod_game(session).table
        audit(
            table.round.tournament,
            by,
            action,
            table,
            after={"game_session": session.pk, "table": table.number, **(after or {})},
            reason=reason,
        )

    def pause_clock(self, session, by, *, reason: str = "") -> None:
        clocks.pause_pod_game(_pod_game(session), db_now())

    def resume_clock(self, session, by) -> None:
        pod_game = _pod_game(session)
        if pod_game.table.round.paused_remaining is None:  # else the round's resume does
            clocks.resume_pod_game(pod_game, db_now())

    def clock(self, session, now) -> dict:
        return clocks.pod_game_clock(_pod_game(session), now)

    def way_back(self, session, user, viewer) -> dict:
        return online.way_back(_pod_game(session).table.round, user, viewer, own_page="my_table")

    def staff_sessions(self, user, path: str = "") -> Q | None:
        if permissions.is_site_staff(user):
            return None
        judged = Tournament.objects.filter(permissions.judged_q(user)).values("pk")
        return Q(**{f"{path}pod_game__table__round__tournament__in": judged})
