"""Player ratings across events, one per game, pure Python (no Django): docs/ratings.md.

The arithmetic is openskill's Plackett-Luce model (Weng-Lin Bayesian ratings: a skill
estimate ``mu`` and its uncertainty ``sigma``; it rates teams and games of more than
two players natively). This module decides what a match result means for the ratings
(``rated_outcome``), rates one occasion (``rate_sides``: two players, two teams or a
pod table of any size; ``rate`` for two players), orders players and teams for seeding
(``seeding_key``, ``side_rating``) and replays a whole history (``replay``), which is
what the services do incrementally and what a correction does from the corrected
occasion on.
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


# The places of a two-player (or two-team) occasion's sides for each rated outcome.
PLACES = {WIN_A: (1, 2), WIN_B: (2, 1), DRAW: (1, 1), None: None}


def rate_sides(
    sides: list[list[Rating]],
    places: list[int] | tuple[int, ...] | None,
    *,
    model: PlackettLuce = MODEL,
) -> list[list[Rating]]:
    """Every player's rating after one rated occasion: ``sides`` are openskill's teams
    (a side of one player for a duel or a pod seat, every member for a team), ``places``
    each side's rank (1 = first; equal places share the rank). None: not rated, nothing
    moves. openskill rates a team by the sum of its members' skills and shares the
    change out by each member's uncertainty (docs/ratings.md). ``model``: the service's
    one; tests pass openskill's own settings to check against its published figures."""
    if places is None:
        return [list(side) for side in sides]
    if len(places) != len(sides) or len(sides) < 2 or any(not side for side in sides):
        raise ValueError("Give a place for each of at least two sides, each of one player or more.")
    rated = model.rate(
        [[model.rating(mu=r.mu, sigma=r.sigma) for r in side] for side in sides],
        ranks=list(places),
    )
    return [[Rating(r.mu, r.sigma) for r in side] for side in rated]


def rate(a: Rating, b: Rating, outcome: str | None) -> tuple[Rating, Rating]:
    """The two ratings after a two-player match with this outcome (unchanged when not
    rated)."""
    if outcome not in PLACES:
        raise ValueError(f"Unknown outcome {outcome!r}: 'a', 'b', 'draw' or None.")
    [[new_a], [new_b]] = rate_sides([[a], [b]], PLACES[outcome])
    return new_a, new_b


@dataclass(frozen=True)
class RatedOccasion:
    """One rated occasion of a history (a match or a pod table), in the order the
    ratings take them: the game, the player ids of each side and each side's place
    (None: not rated)."""

    game: str
    sides: tuple[tuple[int, ...], ...]
    places: tuple[int, ...] | None


def replay(
    occasions: Iterable[RatedOccasion], start: dict[tuple[int, str], Rating] | None = None
) -> tuple[list[list[list[Rating]]], dict[tuple[int, str], Rating]]:
    """Rate the occasions in order from ``start`` (keyed by (player, game); a player
    not in it starts at START in that game): each occasion's ratings after it, side by
    side, and every (player, game)'s final rating. Each game is its own history: a
    player's 36d6 results never move their IRONDIE rating. Deterministic: the same
    history gives the same figures, bit for bit."""
    current = dict(start or {})
    afters = []
    for occasion in occasions:
        before = [[current.get((p, occasion.game), START) for p in side] for side in occasion.sides]
        after = rate_sides(before, occasion.places)
        for side, ratings in zip(occasion.sides, after, strict=True):
            for player, rating in zip(side, ratings, strict=True):
                current[player, occasion.game] = rating
        afters.append(after)
    return afters, current


def side_rating(ratings: list[Rating | None]) -> Rating:
    """One figure for a team, to seed it: its members' average skill (the mean of their
    mu, with the uncertainty of a mean of independent estimates). A member never rated
    counts at START."""
    members = [rating or START for rating in ratings]
    if not members:
        return START
    count = len(members)
    mu = sum(r.mu for r in members) / count
    sigma = sum(r.sigma**2 for r in members) ** 0.5 / count
    return Rating(mu, sigma)


def seeding_key(rating: Rating | None, tiebreak: float) -> tuple:
    """Sort key for seeding by rating, best first: ordinal, then mu, then ``tiebreak``
    (a number the caller draws from the round's seed). An unrated player has START."""
    rating = rating or START
    return (-rating.ordinal, -rating.mu, tiebreak)
