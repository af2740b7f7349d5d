"""Matches played online: tournaments hosts game sessions (games/hosts.py).

A match played online has one game session per game (``MatchGame`` links them). Its
players or judges open it (``open_match``); every later game opens by itself when the
previous one ends and the match is not decided (``TournamentHost.on_game_over``), and
the decided match gets its result through ``record_system_result``. A team match is
played the same way, each game an IRONDIE team game with every member of both teams
seated (``seat_registrations``; docs/online-play.md "Team matches"). The match clock
(tournaments/clocks.py) tells the game in play when the game limit passes or time is
called (``on_match_clock_event``, a listener of the clock). Games calls only
``TournamentHost``; both are registered in ``TournamentsConfig.ready``.

Locks: the match row first, then the session (docs/timing.md).
"""

from __future__ import annotations

import logging

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext as _

from config.dbtime import db_now
from config.params import int_param
from games import services as game_services
from games.hosts import GameStart, SessionHost
from games.models import GameSession
from tournaments import clocks, permissions, selectors, visibility
from tournaments import services as t_services
from tournaments.games import rules_for
from tournaments.match_rules import match_is_over, max_games
from tournaments.models import Match, MatchGame, Registration, Round, Tournament
from tournaments.services.match_games import match_games, numbered_match_games

log = logging.getLogger(__name__)
OPEN = game_services.OPEN


def _match_of(session) -> Match:
    """The session's match (read with the session through ``TournamentHost.related``)."""
    return session.match_game.match


# --- opening a match online -----------------------------------------------------------


@transaction.atomic
def open_match(*, match: Match, by) -> GameSession:
    """Play a match online: its players (a team match: any member of either team) or a
    judge open it; the first game waits for every seated player (or the swap window)
    and later games follow by themselves."""
    match = (
        Match.objects.select_for_update(of=("self",))
        .select_related("round__tournament", "player_a__player", "player_b__player")
        .get(pk=match.pk)
    )
    tournament = match.round.tournament
    seated = seat_registrations(match)
    mine = any(t_services.is_own_player(r.player, by) for r in seated)
    if not mine and not permissions.can_judge(by, tournament):
        raise PermissionDenied(
            _("Only the players of this match and its judges may open it online.")
        )
    existing = (
        GameSession.objects.filter(match_game__match=match, status__in=OPEN)
        .order_by("-match_game__number")
        .first()
    )
    if existing is not None:
        return existing
    if match.is_bye or match.status == Match.Status.CONFIRMED:
        raise ValidationError(_("This match is over."))
    if match.round.status not in (Round.Status.PUBLISHED, Round.Status.IN_PROGRESS):
        raise ValidationError(_("The round has not started."))
    for registration in seated:
        if registration.player.user_id is None:
            raise ValidationError(
                _("%(display_name)s has no account and cannot play online.")
                % {"display_name": registration.player.display_name}
            )
    return _create_match_game(match, match.next_game, db_now())


def seat_registrations(match: Match) -> list[Registration]:
    """The registrations seated at an online game of ``match``, seat by seat: player A,
    player B. A team match (docs/events.md "Team events"): every member of both teams,
    alternating so that seat ``s`` is on team ``s % 2`` (team 0: player A's team) with
    the captains (the pairing units) on seats 0 and 1, the engine's captain seats; the
    other members follow in the order they were registered."""
    sides = [match.player_a, match.player_b]
    if not match.round.tournament.is_team_event or sides[1] is None:
        return [r for r in sides if r is not None]
    members: dict[int, list[Registration]] = {r.team_id: [] for r in sides}
    for registration in (
        Registration.objects.filter(team_id__in=list(members), pairing_unit=False)
        .select_related("player")
        .order_by("pk")
    ):
        members[registration.team_id].append(registration)
    teams = [[side, *members[side.team_id]] for side in sides]
    return [registration for pair in zip(*teams, strict=True) for registration in pair]


def _create_match_game(match, number, now) -> GameSession:
    """Game ``number`` of the match, as a session of the event's game. The first game
    opens with the start window (both players ready); later games of a game with dice
    sets (IRONDIE) with the swap window, of other games at once."""
    game = match.round.tournament.game
    seated = seat_registrations(match)
    session = game_services.create_hosted_session(
        GameSession.Kind.TOURNAMENT,
        engine=game,
        user_0_id=seated[0].player.user_id,
        user_1_id=seated[1].player.user_id,
        name_0=seated[0].player.display_name,
        name_1=seated[1].player.display_name,
        extra_seats=[
            {"user": r.player.user_id, "bot": "", "name": r.player.display_name} for r in seated[2:]
        ],
    )
    MatchGame.objects.create(match=match, number=number, session=session)
    first = not MatchGame.objects.filter(match=match, number__lt=number).exists()
    game_services.open_session(session, now, window=first or rules_for(game).swap_window)
    return session


# --- the match clock ------------------------------------------------------------------


def on_match_clock_event(match_id: int, event: str) -> str:
    """Told by tournaments/clocks.py (``clocks.listen``) inside its transaction with the
    match row locked (the lock order: match, then session):
    ``"sudden_death"`` when the game limit passes, ``"time_called"`` when the match limit
    does. The online game of the match, if any, follows (docs/online-play.md)."""
    session = (
        GameSession.objects.select_for_update(of=("self",))
        .select_related(*TournamentHost.related)
        .filter(match_game__match_id=match_id, status__in=OPEN)
        .order_by("-match_game__number")
        .first()
    )
    if session is None:
        return "no online game"
    now = db_now()
    if event == "sudden_death":
        done = game_services.switch_to_sudden_death(session, now, note="game time limit")
        return "sudden death" if done else "nothing to do"
    if event != "time_called":
        raise ValueError(f"unknown clock event {event!r}")
    if session.status == GameSession.Status.WAITING:
        match = _match_of(session)
        if not match_is_over(
            match_games(match.pk),
            time_called=True,
            draws_allowed=match.round.stage == Round.Stage.SWISS,
            games_to_win=match.round.tournament.games_to_win,
        ):
            # Top cut, level: the game waiting to start is the decider. It keeps its swap
            # window and starts under sudden death from its first turn.
            return "decider waiting"
        game_services.cancel_waiting(session, end_cause="match_time")
        _decide_match(match.pk, now)
        return "match decided"
    action = rules_for(_match_of(session).round.tournament.game).time_called_action
    game_services.end_for_host_time(session, now, action=action)
    return "game ended"


# --- the end of a game ----------------------------------------------------------------


def _decide_match(match_id: int, now, *, conceded_by: str = "") -> None:
    """After a game: write the match result if it is decided, else open the next game.
    Every caller locked the match before the session (``TournamentHost.lock``), so this
    lock is already held."""
    match = (
        Match.objects.select_for_update(of=("self",))
        .select_related("round__tournament", "player_a__player", "player_b__player")
        .get(pk=match_id)
    )
    if match.status == Match.Status.CONFIRMED:
        return  # a judge entered the result meanwhile; theirs stands
    numbered = numbered_match_games(match.pk)
    games = [outcome for _number, outcome in numbered]
    decided = conceded_by or match_is_over(
        games,
        time_called=match.time_called_at is not None,
        draws_allowed=match.round.stage == Round.Stage.SWISS,
        games_to_win=match.round.tournament.games_to_win,
    )
    if decided:
        note = f"Online games {' '.join(f'#{s}' for s in _session_ids(match))}"
        if conceded_by:
            note += f"; conceded by {'AB'['ab'.index(conceded_by)]}"
        elif match.time_called_at is not None:
            note += "; match time limit"
        try:
            with transaction.atomic():
                t_services.record_system_result(
                    match=match,
                    games=games,
                    game_numbers=[number for number, _outcome in numbered],
                    note=note,
                    conceded_by=conceded_by,
                )
        except ValidationError as exc:
            log.warning("online result not recorded", extra={"match": match.pk, "why": str(exc)})
        return
    number = match.next_game
    if number > max_games(
        match.round.tournament.games_to_win
    ):  # only uncounted (time-limited) games can get here: a judge decides
        return
    # Every game, the top-cut decider after time included, opens with the swap window:
    # players may swap after each game (docs/rules.md, "The additional set").
    _create_match_game(match, number, now)


def _session_ids(match) -> list[int]:
    return list(match.online_games.order_by("number").values_list("session_id", flat=True))


# --- the way back from a game's page ---------------------------------------------------


def way_back(round_: Round, user, viewer, *, own_page: str) -> dict:
    """The play page's link back into the event (``SessionHost.way_back``), for a match's
    game and a pod table's alike: a seated player to their own page of the event
    (``own_page``: "my_match" or "my_table"), anyone else (judges, organisers,
    spectators) to the round's pairings when they may see them, else to the event."""
    tournament = round_.tournament
    if isinstance(viewer, int):
        label = _("My table") if own_page == "my_table" else _("My match")
        return {"url": reverse(f"tournaments:{own_page}", args=[tournament.pk]), "label": label}
    if visibility.can_see_round(user, round_):
        if tournament.pods:
            label = _("Tables, round %(n)s") % {"n": round_.number}
        else:
            label = _("Pairings, round %(n)s") % {"n": round_.number}
        url = reverse("tournaments:pairings", args=[tournament.pk, round_.number])
        return {"url": url, "label": label}
    return {"url": reverse("tournaments:home", args=[tournament.pk]), "label": tournament.name}


# --- the host -------------------------------------------------------------------------


class TournamentHost(SessionHost):
    """The host of tournament sessions: each is one game of a match (``MatchGame``)."""

    # The teams of a team match are read with it: the play page names them.
    related = (
        "match_game__match__round__tournament",
        "match_game__match__player_a__team",
        "match_game__match__player_b__team",
    )

    def lock(self, session_id: int) -> bool:
        return bool(
            list(
                Match.objects.select_for_update(of=("self",))
                .filter(online_games__session_id=session_id)
                .order_by()
                .values_list("pk", flat=True)
            )
        )

    def can_judge(self, user, session) -> bool:
        return permissions.can_judge(user, _match_of(session).round.tournament)

    def start(self, session, now) -> GameStart:
        """The game starts: the match marks it started (its game clock runs). IRONDIE:
        the players' swaps for it are revealed (their playing sets are read now); a
        team match seats every member with their own set (``seat_registrations``).
        Another game: a two-seat game of the event's game, seat 0 player A."""
        link = session.match_game
        match = t_services.start_game(match=link.match, number=link.number, by=None, system=True)
        game_id = f"m{match.pk}-g{link.number}"
        config = rules_for(match.round.tournament.game).table_config(seats=2)
        if config is not None:
            return GameStart(None, game_id, config=config)
        # Each seat's registration (a team match: every member's own) with its swaps.
        sets = [
            selectors.playing_set_for_game(registration, match, link.number)
            for registration in seat_registrations(match)
        ]
        # The top-cut decider after time plays sudden death from its first turn
        # (docs/rules.md).
        sudden_death_turn = 1 if match.time_called_at is not None else None
        return GameStart(sets, game_id, sudden_death_turn)

    def on_game_over(self, session, now, *, conceded_by: str = "") -> None:
        _decide_match(session.match_game.match_id, now, conceded_by=conceded_by)

    def conceding_side(self, session, seat: int, *, whole_match: bool) -> str:
        """Player A's seat or team (seat ``s`` is on team ``s % 2``, seat_registrations)
        concedes for "a". In a team match the game and the match are the team's: only
        its captain (seats 0 and 1) concedes them."""
        if seat >= 2:
            raise PermissionDenied(
                _("In a team match only the team's captain concedes for the team.")
            )
        return "ab"[seat]

    def check_concede_match(self, session) -> None:
        return None  # every tournament game belongs to a match

    def audit(self, session, by, action: str, *, after=None, reason: str = "") -> None:
        link = session.match_game
        t_services.audit(
            link.match.round.tournament,
            by,
            action,
            link.match,
            after={"game_session": session.pk, "game": link.number, **(after or {})},
            reason=reason,
        )

    def pause_clock(self, session, by, *, reason: str = "") -> None:
        try:
            with transaction.atomic():
                clocks.pause_match(match=_match_of(session), by=by, reason=reason)
        except ValidationError:
            pass  # the match clock was not running (or is paused with the whole round)

    def resume_clock(self, session, by) -> None:
        try:
            with transaction.atomic():
                clocks.resume_match(match=_match_of(session), by=by)
        except ValidationError:
            pass  # the match clock was not paused (or is paused with the whole round)

    def clock(self, session, now) -> dict:
        return clocks.match_clock(_match_of(session), now)

    def describe(self, session) -> dict:
        link = session.match_game
        match = link.match
        teams = None
        if match.round.tournament.is_team_event and match.player_b_id is not None:
            # A team match: teams face teams, so pages name them (team 0: A's team).
            teams = [match.player_a.team.name, match.player_b.team.name]
        return {"match": link.match_id, "game_number": link.number, "teams": teams}

    def way_back(self, session, user, viewer) -> dict:
        return way_back(_match_of(session).round, user, viewer, own_page="my_match")

    def next_session_id(self, session) -> int | None:
        link = session.match_game
        return (
            MatchGame.objects.filter(match_id=link.match_id, number__gt=link.number)
            .order_by("number")
            .values_list("session_id", flat=True)
            .first()
        )

    def filter_sessions(self, queryset, params):
        match_id = int_param(params, "match", min_value=1)
        if match_id is None:
            return queryset
        return queryset.filter(match_game__match_id=match_id)

    def staff_sessions(self, user, path: str = "") -> Q | None:
        if permissions.is_site_staff(user):
            return None
        judged = Tournament.objects.filter(permissions.judged_q(user)).values("pk")
        return Q(**{f"{path}match_game__match__round__tournament__in": judged})

    def open_session(self, reference, *, by):
        match = Match.objects.filter(pk=reference).first() if reference is not None else None
        return None if match is None else open_match(match=match, by=by)
