"""Tiebreak systems beyond the MTR set, each a pure function over the players' results.

Pure Python and free of Django. ``tournaments.standings`` looks a chosen name up in
``REGISTRY`` and ranks by the values it returns (higher is better). Every formula is
written down in docs/standings.md ("More tiebreakers").

Players are handled by position (an index into the parallel lists of
:class:`TiebreakInput`), like the rest of the standings core. Values are ints or exact
Fractions, so comparisons are exact.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

__all__ = [
    "REGISTRY",
    "TiebreakInput",
    "TiebreakSystem",
    "buchholz",
    "cumulative_score",
    "cut_one_buchholz",
    "head_to_head",
    "median_buchholz",
    "opponents_opponents_match_win",
    "seeded_random",
    "sonneborn_berger",
]


@dataclass(frozen=True, slots=True)
class TiebreakInput:
    """What every system may need, one entry per player position.

    ``opponents[i]`` and ``opponent_points[i]`` are parallel: the positions met and
    the match points player ``i`` earned in each of those matches (3 win, 1 draw,
    0 loss). ``rounds[i]`` is every round of player ``i`` as ``(round_number,
    match_points_earned)``, byes and missed-round losses included.
    ``opponents_match_win[i]`` is player ``i``'s OMW (floored figures, the floor when
    there is no opponent); ``seed`` makes the random tiebreak reproducible.
    """

    player_ids: Sequence[int]
    match_points: Sequence[int]
    opponents: Sequence[Sequence[int]]
    opponent_points: Sequence[Sequence[int]]
    rounds: Sequence[Sequence[tuple[int, int]]]
    opponents_match_win: Sequence[Fraction]
    floor: Fraction
    seed: str


PlayerValues = Callable[[TiebreakInput], list]
GroupValues = Callable[[TiebreakInput, Sequence[int]], list]


def gettext_noop(text: str) -> str:
    """Marks ``text`` for translation (this module imports no Django); the API schema
    shows a system's description in the reader's language."""
    return text


@dataclass(frozen=True, slots=True)
class TiebreakSystem:
    """One tiebreak system: its name, how it is shown, and how it is computed.

    ``per_player`` systems give every player one value. A ``per_group`` system
    (head-to-head) only means something among the players still level on every
    earlier tiebreaker: it is given those positions and returns one value for each.
    """

    name: str
    label: str
    description: str
    per_player: PlayerValues | None = None
    per_group: GroupValues | None = None
    # Shown as a percentage (a fraction of 1) rather than a number.
    percentage: bool = False


def _opponent_scores(data: TiebreakInput, i: int) -> list[int]:
    points = data.match_points
    return [points[j] for j in data.opponents[i]]


def buchholz(data: TiebreakInput) -> list[int]:
    """The sum of the opponents' match points."""
    return [sum(_opponent_scores(data, i)) for i in range(len(data.player_ids))]


def median_buchholz(data: TiebreakInput) -> list[int]:
    """Buchholz without the best and the worst opponent (0 with fewer than three)."""
    values = []
    for i in range(len(data.player_ids)):
        scores = sorted(_opponent_scores(data, i))
        values.append(sum(scores[1:-1]))
    return values


def cut_one_buchholz(data: TiebreakInput) -> list[int]:
    """Buchholz without the worst opponent (0 with fewer than two)."""
    values = []
    for i in range(len(data.player_ids)):
        scores = sorted(_opponent_scores(data, i))
        values.append(sum(scores[1:]))
    return values


def sonneborn_berger(data: TiebreakInput) -> list[Fraction]:
    """The match points of each opponent times the share of that match won:
    all of a beaten opponent's points, half of a drawn one's, none of a winner's."""
    points = data.match_points
    values = []
    for opponents, earned in zip(data.opponents, data.opponent_points, strict=True):
        total = Fraction(0)
        for j, result in zip(opponents, earned, strict=True):
            total += points[j] * _SHARE_OF_MATCH[result]
        values.append(total)
    return values


# Match points earned in one match -> the share of that match won.
_SHARE_OF_MATCH = {3: Fraction(1), 1: Fraction(1, 2), 0: Fraction(0)}


def cumulative_score(data: TiebreakInput) -> list[int]:
    """The sum of the running match-point totals after each of the player's rounds
    (early wins weigh more)."""
    values = []
    for rounds in data.rounds:
        running = total = 0
        for _round, earned in sorted(rounds):
            running += earned
            total += running
        values.append(total)
    return values


def opponents_opponents_match_win(data: TiebreakInput) -> list[Fraction]:
    """The mean of the opponents' OMW (the floor without opponents)."""
    omw = data.opponents_match_win
    return [
        sum((omw[j] for j in opponents), Fraction(0)) / len(opponents) if opponents else data.floor
        for opponents in data.opponents
    ]


def seeded_random(data: TiebreakInput) -> list[int]:
    """A number drawn for each player from the tournament's seed and the player's id
    (SHA-256), so the draw is the same on every computation and cannot be steered."""
    return [
        int.from_bytes(hashlib.sha256(f"{data.seed}:{player_id}".encode()).digest()[:8], "big")
        for player_id in data.player_ids
    ]


def head_to_head(data: TiebreakInput, group: Sequence[int]) -> list[int]:
    """Among players level on every earlier tiebreaker: the match points each earned
    against the others of the group, but only when every two of them have met;
    otherwise 0 for all (the tiebreaker does not separate them)."""
    members = set(group)
    met: dict[int, set[int]] = {}
    earned: dict[int, int] = {}
    for i in group:
        met[i] = set()
        earned[i] = 0
        for j, points in zip(data.opponents[i], data.opponent_points[i], strict=True):
            if j in members:
                met[i].add(j)
                earned[i] += points
    if any(met[i] != members - {i} for i in group):
        return [0] * len(group)
    return [earned[i] for i in group]


REGISTRY: dict[str, TiebreakSystem] = {
    system.name: system
    for system in (
        TiebreakSystem(
            "buchholz",
            "Buchholz",
            gettext_noop("Sum of the opponents' match points."),
            per_player=buchholz,
        ),
        TiebreakSystem(
            "median_buchholz",
            "Median Buchholz",
            gettext_noop("Buchholz without the best and the worst opponent."),
            per_player=median_buchholz,
        ),
        TiebreakSystem(
            "cut1_buchholz",
            "Buchholz cut 1",
            gettext_noop("Buchholz without the worst opponent."),
            per_player=cut_one_buchholz,
        ),
        TiebreakSystem(
            "sonneborn_berger",
            "Sonneborn-Berger",
            gettext_noop("Beaten opponents' match points plus half of drawn opponents'."),
            per_player=sonneborn_berger,
        ),
        TiebreakSystem(
            "head_to_head",
            "Head-to-head",
            gettext_noop("Match points among the tied players, when all of them have met."),
            per_group=head_to_head,
        ),
        TiebreakSystem(
            "cumulative_score",
            "Cumulative score",
            gettext_noop("Sum of the running match-point totals after each round."),
            per_player=cumulative_score,
        ),
        TiebreakSystem(
            "opponents_opponents_match_win",
            "OOMW",
            gettext_noop("Mean of the opponents' OMW."),
            per_player=opponents_opponents_match_win,
            percentage=True,
        ),
        TiebreakSystem(
            "random",
            "Random draw",
            gettext_noop("A draw reproducible from the tournament's seed; use it last."),
            per_player=seeded_random,
        ),
    )
}
