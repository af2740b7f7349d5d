"""Round 1 paired by a seeding order (e.g. by rating), pure Python: docs/pairing.md.

The players in seed order 1..n: an odd field's last seed has the bye, then the first
half of the others meets the second half in order (seed 1 v seed n/2+1, seed 2 v seed
n/2+2, ...), as a Swiss system's first round pairs a rated field: the strongest do not
meet each other early, and every table is a stronger against a weaker player.
"""

from __future__ import annotations

from collections.abc import Sequence

from tournaments.pairing.model import (
    Bye,
    Pair,
    PairingError,
    PairingPlayer,
    PairingResult,
    Reason,
    ReasonCode,
)
from tournaments.pairing.swiss import evaluate_pairing


def pair_by_seed(
    players: Sequence[PairingPlayer], order: Sequence[int], round_number: int, seed: int | str
) -> PairingResult:
    """Pair ``players`` (all on equal points, as in round 1) by ``order``: their ids,
    best seed first. Tables follow the seeds (table 1: seed 1)."""
    ids = list(order)
    if sorted(ids) != sorted(p.id for p in players) or len(set(ids)) != len(ids):
        raise PairingError("the seed order must list every active player exactly once")
    points = {p.id: p.points for p in players}
    bye = None
    if len(ids) % 2:
        bye_id = ids.pop()
        text = f"seed {len(ids) + 1} of {len(ids) + 1}, the lowest rating, has the bye"
        bye = Bye(
            bye_id,
            points[bye_id],
            0,
            (Reason(ReasonCode.BY_RATING, text, previous_byes=0),),
        )
    half = len(ids) // 2
    pairs = []
    for index in range(half):
        high, low = ids[index], ids[index + half]
        text = f"paired by rating: seed {index + 1} v seed {index + half + 1}"
        pairs.append(
            Pair(
                high,
                low,
                points[high],
                points[low],
                high in _opponents(players, low),
                (Reason(ReasonCode.BY_RATING, text, points[high], points[low]),),
            )
        )
    cost = evaluate_pairing(
        players, [p.ids for p in pairs], bye.player_id if bye else None, round_number, seed
    )
    return PairingResult(round_number, seed, tuple(pairs), bye, cost, "by_rating")


def _opponents(players: Sequence[PairingPlayer], player_id: int) -> frozenset[int]:
    for player in players:
        if player.id == player_id:
            return player.opponents
    return frozenset()
