"""Player ratings across events, pure Python (no Django): docs/ratings.md.

The arithmetic is openskill's Plackett-Luce model (Weng-Lin Bayesian ratings: a skill
estimate ``mu`` and its uncertainty ``sigma``; it also rates teams and games of more
than two players). This module decides what a match result means for the ratings
(``rated_outcome``), rates one match (``rate``), orders players for seeding
(``seeding_key``) and replays a whole history (``replay``), which is what the services
do incrementally and what a correction does from the corrected match on.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()  # mu 25, sigma 25/3, beta 25/6, tau 25/300 (openskill's defaults)
START_MU = MODEL.mu
START_SIGMA = MODEL.sigma


@dataclass(frozen=True)
class Rating:
    mu: float = START_MU
    sigma: float = START_SIGMA

    @property
    def ordinal(self) -> float:
        """The displayed rating: mu - 3 sigma, a cautious estimate (0 for a newcomer)."""
        return self.mu - 3 * self.sigma


START = Rating()

# A rated outcome of a two-player match: "a" or "b" won, or "draw". None: not rated.
WIN_A, WIN_B, DRAW = "a", "b", "draw"


def rated_outcome(
    *,
    is_bye: bool,
    games_played: int,
    intentional_draw: bool,
    winner: str | None,
    match_loss_a: bool = False,
    match_loss_b: bool = False,
) -> str | None:
    """What a confirmed result counts as for the ratings (docs/ratings.md):

    - a bye, an intentional draw, and a match in which no game was played (a no-show,
      a match loss or concession before the first game) are not rated: they say nothing
      about skill;
    - a double match loss (both players penalised) is not rated either;
    - otherwise the winner wins (a concession or match-loss penalty after at least one
      game counts like any win), and a match without a winner is a draw.
    """
    if is_bye or intentional_draw or games_played <= 0:
        return None
    if match_loss_a and match_loss_b:
        return None
    if winner in (WIN_A, WIN_B):
        return winner
    return DRAW


def rate(a: Rating, b: Rating, outcome: str | None) -> tuple[Rating, Rating]:
    """The two ratings after a match with this outcome (unchanged when not rated)."""
    if outcome is None:
        return a, b
    if outcome == WIN_A:
        ranks = [1, 2]
    elif outcome == WIN_B:
        ranks = [2, 1]
    elif outcome == DRAW:
        ranks = [1, 1]
    else:
        raise ValueError(f"Unknown outcome {outcome!r}: 'a', 'b', 'draw' or None.")
    [[new_a], [new_b]] = MODEL.rate(
        [[MODEL.rating(mu=a.mu, sigma=a.sigma)], [MODEL.rating(mu=b.mu, sigma=b.sigma)]],
        ranks=ranks,
    )
    return Rating(new_a.mu, new_a.sigma), Rating(new_b.mu, new_b.sigma)


@dataclass(frozen=True)
class RatedMatch:
    """One match of a history, in the order the ratings take them."""

    player_a: int
    player_b: int
    outcome: str | None


@dataclass(frozen=True)
class Step:
    before_a: Rating
    before_b: Rating
    after_a: Rating
    after_b: Rating


def replay(
    matches: Iterable[RatedMatch], start: dict[int, Rating] | None = None
) -> tuple[list[Step], dict[int, Rating]]:
    """Rate the matches in order from ``start`` (players not in it start at START):
    each match's before and after, and every player's final rating. Deterministic: the
    same history gives the same figures, bit for bit."""
    current = dict(start or {})
    steps = []
    for match in matches:
        before_a = current.get(match.player_a, START)
        before_b = current.get(match.player_b, START)
        after_a, after_b = rate(before_a, before_b, match.outcome)
        current[match.player_a], current[match.player_b] = after_a, after_b
        steps.append(Step(before_a, before_b, after_a, after_b))
    return steps, current


def seeding_key(rating: Rating | None, tiebreak: int) -> tuple:
    """Sort key for seeding by rating, best first: ordinal, then mu, then ``tiebreak``
    (a number the caller draws from the round's seed). An unrated player has START."""
    rating = rating or START
    return (-rating.ordinal, -rating.mu, tiebreak)
