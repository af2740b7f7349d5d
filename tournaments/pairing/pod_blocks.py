"""The block dynamic programme of Swiss pods (docs/pairing.md, "Swiss pods"): the least
score spread of a sorted field cut into consecutive tables of given sizes. Pure Python."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

__all__ = ["_best_blocks"]


def _block_spread(prefix: list, prefix_sq: list, start: int, size: int) -> Fraction:
    total = prefix[start + size] - prefix[start]
    squares = prefix_sq[start + size] - prefix_sq[start]
    return size * squares - total * total


def _prefix(points: Sequence) -> tuple[list, list]:
    prefix, prefix_sq = [0], [0]
    for x in points:
        prefix.append(prefix[-1] + x)
        prefix_sq.append(prefix_sq[-1] + x * x)
    return prefix, prefix_sq


def _best_blocks(
    points: Sequence,
    sizes: Sequence[int],
    short_cost: Callable[[int, int], int] | None = None,
) -> tuple[Fraction, list[int]]:
    """The least spread of consecutive blocks of ``points`` (sorted, best first) with the
    given size multiset, and one block order reaching it: among equal spreads, the one whose
    smaller tables cost least by ``short_cost(start, size)`` (if given), then the one with
    the smaller tables lowest in the field (as the bye goes to the lowest scores)."""
    distinct = sorted(set(sizes), reverse=True)
    counts = tuple(sizes.count(s) for s in distinct)
    prefix, prefix_sq = _prefix(points)
    # best[used] = (spread, -sum of short starts, previous used, size); used = counts taken.
    best: dict[tuple[int, ...], tuple] = {(0,) * len(distinct): (0, 0, 0, None, 0)}
    order = sorted(
        _all_used(counts), key=lambda used: sum(u * s for u, s in zip(used, distinct, strict=True))
    )
    for used in order:
        if used not in best:
            continue
        spread, estimate, tie, _, _ = best[used]
        start = sum(u * s for u, s in zip(used, distinct, strict=True))
        for index, size in enumerate(distinct):
            if used[index] == counts[index]:
                continue
            nxt = used[:index] + (used[index] + 1,) + used[index + 1 :]
            cost = spread + _block_spread(prefix, prefix_sq, start, size)
            short = index > 0
            extra = short_cost(start, size) if short and short_cost else 0
            candidate = (cost, estimate + extra, tie - (start if short else 0), used, size)
            if nxt not in best or candidate[:3] < best[nxt][:3]:
                best[nxt] = candidate
    used = counts
    blocks: list[int] = []
    while best[used][3] is not None:
        blocks.append(best[used][4])
        used = best[used][3]
    blocks.reverse()
    return best[counts][0], blocks


def _all_used(counts: tuple[int, ...]) -> list[tuple[int, ...]]:
    states: list[tuple[int, ...]] = [()]
    for count in counts:
        states = [state + (k,) for state in states for k in range(count + 1)]
    return states
