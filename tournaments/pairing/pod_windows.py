"""Certified windows for Swiss pods (docs/pairing.md, "Swiss pods", tier 2). Pure Python.

The seating of tier 1 is cut, at score boundaries where none of its tables crosses, into
the tables above a window, the window's tables and those below. For any seating, a pair
split by a boundary satisfies (a - w)^2 >= (a - y)^2 + (y - w)^2 with y the value on the
boundary's far side, so every seating's spread is at least

    A (the players above, padded with any number of copies of their lowest value)
  + W (the window's players with any number of virtual players at the value just above
       and just below the window, every table holding a real player)
  + B (the players below, padded with copies of their highest value),

each solved with any number of full tables and at most the round's short tables. W is
solved exactly (repeats, then spread), A and B by the block DP. The window's repeats are
a bound on every seating's repeats too. When the window's best seating with real players
only (and the construction's table sizes), put together with the construction's tables
outside, costs exactly (the window's least repeats, the least excess, A + W + B, 0), no
seating costs less: it is optimal. Otherwise the window grows by a score group on each
side, up to ``WINDOW_LIMIT`` real players.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from tournaments.pairing.pod_blocks import _best_blocks

WINDOW_LIMIT = 14
WINDOW_NODES = 60_000


class _OutOfNodes(Exception):
    pass


def _short_combos(short_sizes: Sequence[int], limit: int) -> list[tuple[int, ...]]:
    combos: set[tuple[int, ...]] = {()}
    for _ in range(limit):
        combos |= {tuple(sorted((*c, s), reverse=True)) for c in combos for s in short_sizes}
    return sorted(combos)


def padded_bound(values, full, short_sizes, short_limit, top=None, bottom=None):
    """The least spread of ``values`` (sorted, best first) seated at any number of full
    tables and at most ``short_limit`` short ones, with any number of copies of ``top``
    added above them and of ``bottom`` below (either may be None: no copies)."""
    if not values:
        return 0
    best = None
    for t_top in range(full if top is not None else 1):
        for t_bottom in range(full if bottom is not None else 1):
            seq = [top] * t_top + list(values) + [bottom] * t_bottom
            for combo in _short_combos(short_sizes, short_limit):
                rest = len(seq) - sum(combo)
                if rest < 0 or rest % full:
                    continue
                sizes = [full] * (rest // full) + list(combo)
                spread = _best_blocks(seq, sizes)[0]
                if best is None or spread < best:
                    best = spread
    return best


def window_relaxed(field, reals, full, short_sizes, short_limit, top, bottom, budget):
    """The least (repeats, spread) of the window's players with virtual players at ``top``
    and ``bottom`` (None: none) in any number, every table holding a real player."""
    order = sorted(reals, key=lambda pid: (-field.value[pid], field.draw[pid]))
    sizes = [full, *short_sizes]
    best = [None]

    def rest_bound(rest):
        bound = padded_bound(
            [field.value[p] for p in rest], full, short_sizes, short_limit, top, bottom
        )
        return 0 if bound is None else bound  # no fit: 0 is still a bound

    def search(rest, shorts, repeats, spread):
        budget[0] -= 1
        if budget[0] < 0:
            raise _OutOfNodes
        if not rest:
            if best[0] is None or (repeats, spread) < best[0]:
                best[0] = (repeats, spread)
            return
        if best[0] is not None and (repeats, spread + rest_bound(rest)) >= best[0]:
            return
        anchor, others = rest[0], rest[1:]
        for size in sizes:
            short = size != full
            if short and shorts == short_limit:
                continue
            for reals_more in range(min(size - 1, len(others)), -1, -1):
                virtual = size - 1 - reals_more
                splits = (
                    [(0, 0)]
                    if not virtual
                    else [
                        (t, virtual - t)
                        for t in range(virtual + 1)
                        if (t == 0 or top is not None) and (virtual - t == 0 or bottom is not None)
                    ]
                )
                for mates in combinations(others, reals_more):
                    table = (anchor, *mates)
                    table_repeats = field.repeats(table)
                    values = [field.value[p] for p in table]
                    taken = set(mates)
                    left = tuple(p for p in others if p not in taken)
                    for t, b in splits:
                        vals = values + [top] * t + [bottom] * b
                        table_spread = sum((x - y) ** 2 for x, y in combinations(vals, 2))
                        search(left, shorts + short, repeats + table_repeats, spread + table_spread)

    search(tuple(order), 0, 0, 0)
    return best[0]


def window_real(field, reals, sizes, budget):
    """The least (repeats, spread) seating of the window's players at tables of ``sizes``,
    and the seating."""
    order = sorted(reals, key=lambda pid: (-field.value[pid], field.draw[pid]))
    distinct = sorted(set(sizes), reverse=True)
    best = [None, None]

    def search(rest, remaining, tables, repeats, spread):
        budget[0] -= 1
        if budget[0] < 0:
            raise _OutOfNodes
        if not rest:
            if best[0] is None or (repeats, spread) < best[0]:
                best[0], best[1] = (repeats, spread), [list(t) for t in tables]
            return
        if best[0] is not None and (repeats, spread) >= best[0]:
            return
        anchor, others = rest[0], rest[1:]
        for index, size in enumerate(distinct):
            if not remaining[index]:
                continue
            left = remaining[:index] + (remaining[index] - 1,) + remaining[index + 1 :]
            for mates in combinations(others, size - 1):
                table = (anchor, *mates)
                taken = set(mates)
                tables.append(table)
                search(
                    tuple(p for p in others if p not in taken),
                    left,
                    tables,
                    repeats + field.repeats(table),
                    spread + field.spread(table),
                )
                tables.pop()

    counts = tuple(list(sizes).count(s) for s in distinct)
    search(tuple(order), counts, [], 0, 0)
    return best[0], best[1]


def certify_windows(field, sizes, tables, node_limit=WINDOW_NODES):
    """A seating proved optimal by a window around tier 1's trouble, or None."""
    full = field.full
    short_sizes = sorted({s for s in sizes if field.is_short(s)}, reverse=True)
    short_limit = sum(1 for s in sizes if field.is_short(s))
    level = {pid: field.value[pid] for pid in field.ids}
    # Tables in order of their best value; each spans a range of values.
    ordered = sorted(tables, key=lambda t: (-max(level[p] for p in t), -min(level[p] for p in t)))
    bound_key = field.ibound(sizes)
    budget = [node_limit]  # partial seatings left for every window tried
    troubled = [i for i, t in enumerate(ordered) if field.repeats(t)]
    if not troubled:
        return None
    lo, hi = min(troubled), max(troubled)
    while True:
        # Grow [lo, hi] until every player above is on at least the window's best value
        # and every player below on at most its lowest.
        changed = True
        while changed:
            changed = False
            top_value = max(level[p] for t in ordered[lo : hi + 1] for p in t)
            low_value = min(level[p] for t in ordered[lo : hi + 1] for p in t)
            if lo > 0 and min(level[p] for t in ordered[:lo] for p in t) < top_value:
                lo -= 1
                changed = True
            if (
                hi < len(ordered) - 1
                and max(level[p] for t in ordered[hi + 1 :] for p in t) > low_value
            ):
                hi += 1
                changed = True
        window_tables = ordered[lo : hi + 1]
        reals = [p for t in window_tables for p in t]
        if len(reals) > WINDOW_LIMIT:
            return None
        above = sorted((level[p] for t in ordered[:lo] for p in t), reverse=True)
        below = sorted((level[p] for t in ordered[hi + 1 :] for p in t), reverse=True)
        top = above[-1] if above else None
        bottom = below[0] if below else None
        try:
            relaxed = window_relaxed(
                field, reals, full, short_sizes, short_limit, top, bottom, budget
            )
            _, real_tables = window_real(field, reals, [len(t) for t in window_tables], budget)
        except _OutOfNodes:
            return None
        bound_a = padded_bound(above, full, short_sizes, short_limit, None, top)
        bound_b = padded_bound(below, full, short_sizes, short_limit, bottom, None)
        bounded = None not in (relaxed, real_tables, bound_a, bound_b)
        if bounded:
            seating = (
                [list(t) for t in ordered[:lo]] + real_tables + [list(t) for t in ordered[hi + 1 :]]
            )
            window_bound = (relaxed[0], bound_key[1], bound_a + relaxed[1] + bound_b, 0)
            if field.ikey(seating) == window_bound:
                return seating
        if lo == 0 and hi == len(ordered) - 1:
            return None
        lo, hi = max(0, lo - 1), min(len(ordered) - 1, hi + 1)
