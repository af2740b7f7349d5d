"""Who may see what of an online game: the one rule that the play page (games/views.py)
and the API (games/api.py) both ask. Games know nothing of the events that host them:
who judges a tournament game is answered by ``games.services.can_judge_session``.

- a game: everyone may watch it (the public list of games in play on /games/ links to
  them); what each person sees is their viewer's view of it, which the engine redacts;
- a viewer: the player's seat (a judge who plays sees the game as a player, never the
  opponent's secrets), "judge" for the game's judges, else "spectator";
- the full record and the seed: once the game is finished (before that the seed would
  tell the dice still to come).
"""

from __future__ import annotations

from games.models import GameSession
from games.services import can_judge_session


def can_watch(user, session: GameSession) -> bool:
    """Every game, for everyone: a spectator's view hides every secret choice."""
    return True


def viewer_for(session: GameSession, user):
    """The engine viewer of a user: their seat, "judge" or "spectator"."""
    seat = session.seat_of(user)
    if seat is not None:
        return seat
    if can_judge_session(user, session):
        return "judge"
    return "spectator"


def can_see_record(session: GameSession) -> bool:
    """The full log with every roll and the revealed seed."""
    return session.status == GameSession.Status.FINISHED
