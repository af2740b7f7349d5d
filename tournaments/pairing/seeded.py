"""Round 1 paired by a seeding order (e.g. by rating), pure Python: docs/pairing.md.

The players in seed order 1..n: an odd field's last seed has the bye, then the first
half of the others meets the second half in order (seed 1 v seed n/2+1, seed 2 v seed
n/2+2, ...), as a Swiss system's first round pairs a rated field: the strongest do not
meet each other early, and every table is a stronger against a weaker player.

An event in pods seats round 1 by the same order in a snake (``seat_pods_by_seed``):
the mode's tables (tournaments/pairing/pods.py ``table_sizes``) take seeds 1, 2, ..., T
in turn, then T + 1, ... back from the last table to the first, and so on, a full table
left out of the later passes. The reason (docs/pairing.md "Round 1 by rating in pods"):
the same as for pairs, the strongest T players sit at T different tables and every
table is balanced, its seeds adding up to about the same, so no table is a group of the
strongest and none a gift of the weakest.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations

from tournaments.pairing.model import (
    Bye,
    Pair,
    PairingError,
    PairingPlayer,
    PairingResult,
    Reason,
    ReasonCode,
)
from tournaments.pairing.pods import (
    PodCost,
    PodPlayer,
    PodResult,
    PodTable,
    evaluate_pods,
    full_size,
    table_sizes,
)
from tournaments.pairing.swiss import evaluate_pairing

BY_RATING = "by_rating"


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
    return PairingResult(round_number, seed, tuple(pairs), bye, cost, BY_RATING)


def _opponents(players: Sequence[PairingPlayer], player_id: int) -> frozenset[int]:
    for player in players:
        if player.id == player_id:
            return player.opponents
    return frozenset()


def snake_tables(order: Sequence[int], sizes: Sequence[int]) -> list[list[int]]:
    """Deal ``order`` (best seed first) to tables of ``sizes`` in a snake: forward over
    the tables, then back, and so on; a table already full is passed over."""
    tables: list[list[int]] = [[] for _ in sizes]
    lanes = (list(range(len(sizes))), list(reversed(range(len(sizes)))))
    seeds = iter(order)
    dealt, forward = 0, True
    while dealt < len(order):
        for index in lanes[0 if forward else 1]:
            if len(tables[index]) < sizes[index] and dealt < len(order):
                tables[index].append(next(seeds))
                dealt += 1
        forward = not forward
    return tables


def seat_pods_by_seed(
    players: Sequence[PodPlayer],
    order: Sequence[int],
    round_number: int,
    seed: int | str,
    mode: str,
) -> PodResult:
    """Seat ``players`` (all on equal points, as in round 1) at the tables of ``mode`` by
    ``order``, their ids best seed first, dealt in a snake (``snake_tables``). Table k
    holds seed k; a lone player has the bye. Inside a table the seats are drawn from the
    round's seed, as the pod pairer draws them: who opens is not a reward for rating."""
    ids = list(order)
    if sorted(ids) != sorted(p.id for p in players) or len(set(ids)) != len(ids):
        raise PairingError("the seed order must list every active player exactly once")
    sizes = table_sizes(len(ids), mode)
    if not sizes:
        bye = ids[0] if ids else None
        return PodResult(round_number, seed, mode, (), bye, PodCost(), PodCost(), BY_RATING)
    points = {p.id: p.points for p in players}
    met = {p.id: p.opponents for p in players}
    full = full_size(mode)
    tables = snake_tables(ids, sizes)
    out = []
    for number, table in enumerate(tables, start=1):
        seats = list(table)
        random.Random(f"irondie-pods-seats:{seed}:{round_number}:{number}").shuffle(seats)
        out.append(
            PodTable(
                number=number,
                player_ids=tuple(seats),
                points=tuple(points[pid] for pid in seats),
                short=len(seats) < full,
                repeats=sum(1 for a, b in combinations(seats, 2) if b in met[a] or a in met[b]),
            )
        )
    cost = evaluate_pods(players, tables, mode)
    # No proof of an optimum is claimed (the method says the order is the ratings'); the
    # bound is round 1's: nobody has met and everyone has the same points.
    return PodResult(round_number, seed, mode, tuple(out), None, cost, PodCost(), BY_RATING)
