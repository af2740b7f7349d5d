"""Rules of a match and of the event format, pure Python (no Django).

- How many Swiss rounds a field gets.
- What a list of game outcomes means: best of three (first to two game wins) or another
  format (``games_to_win``: best of one is 1; docs/events.md), draws,
  intentional draws, concessions, game-loss and match-loss penalties.
docs/rules.md ("Tournament rules") records the decisions these functions implement.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

GAMES_TO_WIN = 2  # best of three, the default format
MAX_GAMES = 5  # the most games of any format offered (best of three); see max_games()


def max_games(games_to_win: int = GAMES_TO_WIN) -> int:
    """The most games a match can have: drawn games lengthen it (best of three: 5,
    best of one: 3)."""
    return 2 * games_to_win + 1


# (highest player count, rounds), as TCG events do before a top 8.
SWISS_ROUNDS_BY_FIELD = ((32, 5), (64, 6), (128, 7), (226, 8), (409, 9))


def swiss_rounds_for(player_count: int) -> int:
    """17-32 players: 5 rounds, 33-64: 6, 65-128: 7, 129-226: 8, 227-409: 9, 410+: 10.

    Below 17 the field gets enough rounds for one undefeated player: ceil(log2(n)).
    """
    if player_count < 2:
        return 0
    if player_count <= 16:
        return max(1, math.ceil(math.log2(player_count)))
    for limit, rounds in SWISS_ROUNDS_BY_FIELD:
        if player_count <= limit:
            return rounds
    return 10


def match_is_over(
    games: list[str],
    *,
    time_called: bool = False,
    draws_allowed: bool = True,
    games_to_win: int = GAMES_TO_WIN,
) -> bool:
    """Whether a match whose games so far are ``games`` needs no further game.

    Over when a player has two game wins, when the match has had its five games, or when
    time has been called, except in the top cut (no draws) while the games are level:
    then one more game is played under sudden death (docs/rules.md).
    """
    wins_a, wins_b = games.count("a"), games.count("b")
    if max(wins_a, wins_b) >= games_to_win or len(games) >= max_games(games_to_win):
        return True
    if time_called:
        return draws_allowed or wins_a != wins_b
    return False


def online_game_outcome(result: dict | None) -> str | None:
    """What a finished online game counts as in its match: "a" (seat 0 won; a team
    game: team 0, player A's team, won), "b", "draw" (the engine placed every seat
    first: a 36d6 or Dice Forge game tied on points) or None: not counted (IRONDIE's
    game stopped unfinished by the match limit, docs/rules.md)."""
    result = result or {}
    if result.get("reason") == "match_time_over":
        return None
    winner = result.get("winning_team", result.get("winner"))
    if winner in (0, 1) and not isinstance(winner, bool):
        return "ab"[winner]
    placings = result.get("placings")
    if isinstance(placings, list) and len(placings) >= 2 and len(set(placings)) == 1:
        return "draw"
    return None


class ResultError(ValueError):
    """A result that cannot be the outcome of a best-of-three match; the message says why."""


@dataclass(frozen=True)
class MatchOutcome:
    games_a: int
    games_b: int
    games_drawn: int
    match_loss_a: bool
    match_loss_b: bool
    winner: str | None  # "a", "b" or None for a draw

    @property
    def score(self) -> str:
        return format_score(self.games_a, self.games_b, self.games_drawn)


def format_score(games_a: int, games_b: int, games_drawn: int = 0) -> str:
    """A match's games as people read them: "2-1", drawn games last when there are
    any ("1-1-1")."""
    drawn = f"-{games_drawn}" if games_drawn else ""
    return f"{games_a}-{games_b}{drawn}"


def decide_match(
    games: list[str],
    *,
    penalty_games: list[str] = (),
    intentional_draw: bool = False,
    conceded_by: str = "",
    match_loss_a: bool = False,
    match_loss_b: bool = False,
    draws_allowed: bool = True,
    games_to_win: int = GAMES_TO_WIN,
) -> MatchOutcome:
    """The match result from the games played and the judges' decisions.

    ``games``: outcomes in order, each "a", "b" or "draw". ``penalty_games``: game wins
    awarded by game-loss penalties ("a" means A was awarded the game), counted first.
    A concession gives the opponent the match, with the games needed to reach two wins.
    A match loss penalty overrides the games. Raises ResultError on an impossible list.
    """
    for outcome in [*games, *penalty_games]:
        if outcome not in ("a", "b", "draw"):
            raise ResultError(f"A game is won by 'a' or 'b', or is a 'draw'; got {outcome!r}.")
    if conceded_by not in ("", "a", "b"):
        raise ResultError("Only player 'a' or 'b' can concede.")
    if intentional_draw and (games or conceded_by or match_loss_a or match_loss_b):
        raise ResultError(
            "An intentional draw is agreed instead of playing: it has no games and no concession."
        )
    if intentional_draw and not draws_allowed:
        raise ResultError("Top-cut matches cannot end in a draw.")
    wins = {"a": 0, "b": 0, "draw": 0}
    sequence = [*penalty_games, *games]
    for index, outcome in enumerate(sequence, start=1):
        if wins["a"] >= games_to_win or wins["b"] >= games_to_win:
            raise ResultError(
                f"Game {index} cannot have been played: the match was already won after game {index - 1}."
            )
        wins[outcome] += 1
    if len(sequence) > max_games(games_to_win):
        raise ResultError(f"A match has at most {max_games(games_to_win)} games.")
    if conceded_by:
        other = "b" if conceded_by == "a" else "a"
        if wins[conceded_by] >= games_to_win:
            raise ResultError("A player who already won the match cannot concede it.")
        wins[other] = max(wins[other], games_to_win)
        return MatchOutcome(
            wins["a"], wins["b"], wins["draw"], conceded_by == "a", conceded_by == "b", other
        )
    if match_loss_a or match_loss_b:
        winner = None if (match_loss_a and match_loss_b) else ("b" if match_loss_a else "a")
        return MatchOutcome(wins["a"], wins["b"], wins["draw"], match_loss_a, match_loss_b, winner)
    winner = "a" if wins["a"] > wins["b"] else "b" if wins["b"] > wins["a"] else None
    if winner is None and not draws_allowed:
        raise ResultError(
            "Top-cut matches need a winner: play the deciding game under sudden death "
            "(docs/rules.md) and record it."
        )
    return MatchOutcome(wins["a"], wins["b"], wins["draw"], False, False, winner)
