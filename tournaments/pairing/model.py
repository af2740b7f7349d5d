"""What the Swiss pairer takes and gives: players, pairs, the bye, reasons and the cost.

Pure Python, no Django. The cost these types report is defined in docs/pairing.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

__all__ = [
    "Bye",
    "Pair",
    "PairingCost",
    "PairingError",
    "PairingPlayer",
    "PairingResult",
    "Reason",
    "ReasonCode",
]


class PairingError(ValueError):
    """The input cannot describe a round (duplicate ids, an incomplete pairing...)."""


@dataclass(frozen=True)
class PairingPlayer:
    """One active (not dropped) player as the pairer sees them.

    points: match points (win 3, draw 1, loss 0; a bye counts as a win).
    opponents: ids of everyone already played (dropped players' ids are harmless).
    byes: number of byes already received.
    rank: position in the current standings, 1 = best. Equal ranks (round 1, late
    entries...) are ordered at random from the seed. Rank only decides who gets the bye.
    """

    id: int
    points: int
    opponents: frozenset[int] = frozenset()
    byes: int = 0
    rank: int = 0


class ReasonCode(StrEnum):
    SAME_GROUP = "same_group"
    PAIR_DOWN = "pair_down"
    REMATCH = "rematch"
    BYE = "bye"
    REPEAT_BYE = "repeat_bye"
    BYE_MOVED = "bye_moved"
    BY_RATING = "by_rating"


@dataclass(frozen=True)
class Reason:
    """Why a pairing or bye is what it is: a code and figures for programs, a sentence for people.

    high_points / low_points: the two players' points (a same-group pair has them equal).
    previous_byes: for bye reasons, the byes the player had before this one.
    skipped: for BYE_MOVED, how many players with no more byes were passed over: those on
        fewer points plus those on the same points ranked below.
    """

    code: ReasonCode
    text: str
    high_points: int | None = None
    low_points: int | None = None
    previous_byes: int | None = None
    skipped: int | None = None


@dataclass(frozen=True)
class Pair:
    """A match: high is the player with more points (the better rank on equal points)."""

    high_id: int
    low_id: int
    high_points: int
    low_points: int
    rematch: bool
    reasons: tuple[Reason, ...]

    @property
    def ids(self) -> tuple[int, int]:
        return (self.high_id, self.low_id)

    @property
    def point_difference(self) -> int:
        return self.high_points - self.low_points

    @property
    def explanation(self) -> str:
        return "; ".join(reason.text for reason in self.reasons)


@dataclass(frozen=True)
class Bye:
    player_id: int
    points: int
    previous_byes: int
    reasons: tuple[Reason, ...]

    @property
    def explanation(self) -> str:
        return "; ".join(reason.text for reason in self.reasons)


@dataclass(frozen=True)
class PairingCost:
    """The cost of a round's pairing. key() is what the pairer minimises, lexicographically:
    rematches, then where the bye goes (fewest byes, then lowest score group), then the
    pair-downs, and only then the bye player's rank within their score.

    rematches: pairs of players who have met before.
    bye_excess: byes the bye player already had beyond the fewest any active player has
        (non-zero means a repeat bye while someone with fewer byes was available).
    bye_score_offset: active players on fewer points than the bye player with no more byes
        than the bye player (0 means the bye went to the lowest score group it could).
    pair_down_cost: sum over pairs of the squared point difference.
    bye_rank_offset: active players on the bye player's points, ranked below them, with no
        more byes than them (0 means the lowest-ranked such player sat out).
    pair_downs, point_differences: the pairs with unequal points and their differences,
        largest first (reported, implied by the cost above).
    repeat_byes: 1 when the bye player already had a bye (reported).
    """

    rematches: int = 0
    bye_excess: int = 0
    bye_score_offset: int = 0
    pair_down_cost: int = 0
    bye_rank_offset: int = 0
    pair_downs: int = 0
    point_differences: tuple[int, ...] = ()
    repeat_byes: int = 0

    def key(self) -> tuple[int, int, int, int, int]:
        return (
            self.rematches,
            self.bye_excess,
            self.bye_score_offset,
            self.pair_down_cost,
            self.bye_rank_offset,
        )


@dataclass(frozen=True)
class PairingResult:
    """Pairs ordered best records first (table 1 first), the bye if any, and the cost.

    method tells how optimality was established: "lower_bound" (the cost equals a lower
    bound valid for every pairing), "window" (exact on a window of score groups, certified
    by a relaxation of the whole field), "exact" (matching of the whole field),
    "forced_bye" (the one player who has met everyone sits out and the others, paired
    optimally as an even field by one of the other three, need no rematch) or
    "forced_rematch" (an even field's one player who has met everyone: their pair is a
    rematch in every pairing, and the field with their meetings erased is paired
    optimally by the other tiers) or "barrier" (a few players who have met most of the
    field force rematches: the field is split along a tight Tutte-Berge barrier of the
    pairs who have not met, a small core matched exactly and the rest paired apart by the
    other tiers).
    """

    round_number: int
    seed: int | str
    pairs: tuple[Pair, ...]
    bye: Bye | None
    cost: PairingCost
    method: str
