"""A player conceding, and the judges' controls: award a game, pause and resume it
(the host's clock pauses with it). Every ruling goes to the host's audit log."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from config.dbtime import db_now
from games import clocks, hosts
from games.engines import engine_for
from games.models import GameAction, GameSession
from games.services.play import run_bots_inline
from games.services.rows import Write, audit, lock, now_of, require_judge
from games.services.sessions import cancel_waiting
from games.services.state import state_of


@transaction.atomic
def concede(*, session: GameSession, by, whole_match: bool = False) -> GameSession:
    """A player concedes the game (or, in a tournament, the whole match)."""
    session = lock(session)
    seat = session.seat_of(by)
    if seat is None:
        raise PermissionDenied(_("Only the players of this game may concede it."))
    host = hosts.host_of(session)
    if whole_match:
        host.check_concede_match(session)
    side = host.conceding_side(session, seat, whole_match=whole_match)
    if session.status == GameSession.Status.WAITING and whole_match:
        cancel_waiting(session, end_cause="conceded")
        host.on_game_over(session, db_now(), conceded_by=side)
        return session
    if session.is_over or session.status == GameSession.Status.WAITING:
        raise ValidationError(_("There is no game in play to concede."))
    write = Write(session, state_of(session), now_of(session))
    try:
        write.apply(
            "system",
            {"kind": "forfeit", "player": seat},
            cause=GameAction.Cause.CONCEDE,
            user=by,
            note="conceded the match" if whole_match else "conceded the game",
        )
    except ValidationError:
        # The seat is the player's own and the game is in play, so the engine refuses
        # the forfeit only for a seat already out (conceded before, or its team went
        # out). Its message names the seat by the engine's 0-based number, which is
        # nobody's name for it: say it to the player instead.
        raise ValidationError(_("You are already out of this game.")) from None
    if write.state.over:
        session.end_cause = "conceded"
    run_bots_inline(write)  # a game of more seats goes on between the others
    write.save(conceded_by=side if whole_match else "")
    return session


@transaction.atomic
def forfeit_seat(*, session: GameSession, seat: int, by, note: str) -> bool:
    """The host puts one seat of a game in play out (a pod table's player who left the
    event): the engine's forfeit, as if the seat had conceded; the others play on (the
    bots at once). False when there is no game in play or the seat is out already."""
    session = lock(session)
    if session.status not in (GameSession.Status.ACTIVE, GameSession.Status.PAUSED):
        return False
    write = Write(session, state_of(session), now_of(session))
    try:
        write.apply(
            "system",
            {"kind": "forfeit", "player": seat},
            cause=GameAction.Cause.CONCEDE,
            user=by if by is not None and by.is_authenticated else None,
            note=note,
        )
    except ValidationError:
        return False
    if write.state.over:
        session.end_cause = "conceded"
    run_bots_inline(write)
    write.save()
    return True


@transaction.atomic
def award_game(*, session: GameSession, by, winner: int, reason: str) -> GameSession:
    """A judge's ruling: the game goes to ``winner`` (logged in the game and the audit)."""
    session = lock(session)
    require_judge(by, session)
    if isinstance(winner, bool) or winner not in session.seats:
        last = session.seat_count - 1
        raise ValidationError(
            {"winner": [_("The winner is a seat from 0 to %(last)s.") % {"last": last}]}
        )
    if not (reason or "").strip():
        raise ValidationError({"reason": [_("Say why the game is awarded.")]})
    if session.status not in (GameSession.Status.ACTIVE, GameSession.Status.PAUSED):
        raise ValidationError(_("Only a game in play can be awarded."))
    write = Write(session, state_of(session), db_now())
    # Every seat of another team forfeits (one seat in a game of two) until the game is
    # over; a seat already out (its team went out with a team-mate) is skipped.
    teams = engine_for(session.engine).teams(session.config)
    for seat in session.seats:
        if teams[seat] == teams[winner] or write.state.over:
            continue
        try:
            write.apply(
                "system",
                {"kind": "forfeit", "player": seat},
                cause=GameAction.Cause.RULING,
                user=by,
                note=reason,
            )
        except ValidationError:
            continue
    session.end_cause = "ruling"
    audit(session, by, "game.awarded", after={"winner_seat": winner}, reason=reason)
    write.save()
    return session


@transaction.atomic
def pause_game(*, session: GameSession, by, reason: str = "") -> GameSession:
    """A judge stops the decision clocks (and, in a tournament, the match clock)."""
    session = lock(session)
    require_judge(by, session)
    if session.status != GameSession.Status.ACTIVE:
        raise ValidationError(_("Only a game in play can be paused."))
    clocks.pause(session, db_now())
    audit(session, by, "game.paused", reason=reason)
    hosts.host_of(session).pause_clock(session, by, reason=reason)
    return session


@transaction.atomic
def resume_game(*, session: GameSession, by) -> GameSession:
    session = lock(session)
    require_judge(by, session)
    if session.status != GameSession.Status.PAUSED:
        raise ValidationError(_("This game is not paused."))
    clocks.resume(session, db_now())
    audit(session, by, "game.resumed")
    hosts.host_of(session).resume_clock(session, by)
    return session
