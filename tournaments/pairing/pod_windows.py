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

When these relaxed windows fail, the counted window (``certify_counted``) spans every
repeat of the incumbent: a bound that also counts how many players each side lends to the
window's tables and how many tables of each size are left (``counted_window``), against a
seating found by swaps.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations, product

from tournaments.pairing.pod_blocks import _best_blocks
from tournaments.pairing.pod_profile import seat_part

WINDOW_LIMIT = 16
# Partial seatings of the window relaxations, of the counted window after them, and the
# swaps that seek the counted window's seating (a swap scores two tables: 9-20 CPU
# microseconds at 60-242 players, about a partial seating's, so counted as one). The
# window tier is charged all of them up front (tournaments/pairing/pods.py).
WINDOW_RELAXED_NODES = 60_000
COUNTED_NODES = 50_000
SWAP_STEPS = 100_000
WINDOW_NODES = WINDOW_RELAXED_NODES + COUNTED_NODES + SWAP_STEPS
# Outside segments re-seated over all windows tried (each a typed profile and its filling).
RESEATS = 24


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


def _classes(field, reals) -> dict[int, tuple]:
    """Each window player's class: players of one class (same points, same opponents among
    the window's players, so never each other's) can trade places in any seating of the
    window without changing its repeats or spread."""
    inside = set(reals)
    return {pid: (field.value[pid], tuple(sorted(field.opp[pid] & inside))) for pid in reals}


def _mate_choices(others: Sequence[int], count: int, classes: dict[int, tuple]):
    """The ways of choosing ``count`` mates from ``others`` up to trading places within a
    class: from each class only its first members (in the order of ``others``) are taken,
    so each choice stands for every choice with the same number from each class."""
    groups: dict[tuple, list[int]] = {}
    for pid in others:
        groups.setdefault(classes[pid], []).append(pid)
    members = list(groups.values())

    def choose(index: int, left: int, chosen: tuple):
        if not left:
            yield chosen
            return
        if index == len(members):
            return
        group = members[index]
        for take in range(min(left, len(group)), -1, -1):
            yield from choose(index + 1, left - take, chosen + tuple(group[:take]))

    yield from choose(0, count, ())


def window_relaxed(
    field, reals, full, short_sizes, short_limit, top, bottom, budget, capacity=(None, None)
):
    """The least (repeats, spread) of the window's players with virtual players at ``top``
    and ``bottom`` (None: none) in any number, every table holding a real player; and one
    seating reaching it as (real players, copies of ``top``, copies of ``bottom``) a table.

    ``capacity``: how many real players stand on ``top`` and on ``bottom`` outside the window
    (None: no limit). Among the seatings reaching the least (repeats, spread), one needing
    the fewest virtual players beyond those is returned (it can be seated with real ones);
    the value itself is the same."""
    order = sorted(reals, key=lambda pid: (-field.value[pid], field.draw[pid]))
    classes = _classes(field, reals)
    sizes = [full, *short_sizes]
    best = [None, None]
    cap_top, cap_bottom = capacity

    def overflow(copies_top: int, copies_bottom: int) -> int:
        over = 0
        if cap_top is not None:
            over += max(0, copies_top - cap_top)
        if cap_bottom is not None:
            over += max(0, copies_bottom - cap_bottom)
        return over

    tables: list[tuple] = []

    bounds: dict[tuple, int] = {}

    def rest_bound(rest):
        # Keyed by the points left: players on equal points have equal bounds.
        values = tuple(field.value[p] for p in rest)
        if values not in bounds:
            bound = padded_bound(list(values), full, short_sizes, short_limit, top, bottom)
            bounds[values] = 0 if bound is None else bound  # no fit: 0 is still a bound
        return bounds[values]

    def search(rest, shorts, repeats, spread, copies_top, copies_bottom):
        budget[0] -= 1
        if budget[0] < 0:
            raise _OutOfNodes
        over = overflow(copies_top, copies_bottom)
        if not rest:
            if best[0] is None or (repeats, spread, over) < best[0]:
                best[0], best[1] = (repeats, spread, over), list(tables)
            return
        # The overflow only grows as tables are added: a sound bound of the rest's.
        if best[0] is not None and (repeats, spread + rest_bound(rest), over) >= best[0]:
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
                for mates in _mate_choices(others, reals_more, classes):
                    table = (anchor, *mates)
                    table_repeats = field.repeats(table)
                    values = [field.value[p] for p in table]
                    taken = set(mates)
                    left = tuple(p for p in others if p not in taken)
                    for t, b in splits:
                        vals = values + [top] * t + [bottom] * b
                        table_spread = sum((x - y) ** 2 for x, y in combinations(vals, 2))
                        tables.append((table, t, b))
                        search(
                            left,
                            shorts + short,
                            repeats + table_repeats,
                            spread + table_spread,
                            copies_top + t,
                            copies_bottom + b,
                        )
                        tables.pop()

    search(tuple(order), 0, 0, 0, 0, 0)
    return (best[0][:2] if best[0] is not None else None), best[1]


def window_real(field, reals, sizes, budget):
    """The least (repeats, spread) seating of the window's players at tables of ``sizes``,
    and the seating."""
    order = sorted(reals, key=lambda pid: (-field.value[pid], field.draw[pid]))
    classes = _classes(field, reals)
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
            for mates in _mate_choices(others, size - 1, classes):
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


def _borrow(field, pool: list[int], count: int, table: list[int], short: bool) -> list[int]:
    """``count`` players from ``pool`` (one score) who have met nobody at ``table``; at a
    short table those with the fewest short tables first."""
    order = sorted(pool, key=lambda pid: ((field.short[pid] if short else 0), field.draw[pid]))
    chosen: list[int] = []
    for pid in order:
        if len(chosen) == count:
            break
        if not any(other in field.opp[pid] for other in table + chosen):
            chosen.append(pid)
    return chosen if len(chosen) == count else []


def _distribute(left: list[int], counts: list[int]):
    """Every way of giving the tables ``left`` to parts of ``counts`` players each: a list of
    size lists, one a part, or nothing."""
    if not counts:
        if not left:
            yield []
        return
    distinct = sorted(set(left), reverse=True)
    for taken in product(*(range(left.count(s) + 1) for s in distinct)):
        part = [s for s, c in zip(distinct, taken, strict=True) for _ in range(c)]
        if sum(part) != counts[0]:
            continue
        rest = list(left)
        for s in part:
            rest.remove(s)
        for others in _distribute(rest, counts[1:]):
            yield [part, *others]


def _realize(field, sizes, segments, windows, choices, reseats, why=None):
    """One seating from the windows' choices: a window's own real seating, or its relaxed
    seating with the copies on its edges taken by real players on those points from the
    outside segment next to it (a pair with a player exactly on the edge costs what the
    relaxation counts). Outside segments nobody was taken from keep the incumbent's tables;
    the others are seated on their typed profiles at the tables left. None if it fails, with
    the reason appended to ``why`` (a list) if given."""

    def fail(reason):
        if why is not None:
            why.append(reason)
        return None

    pools = [list(ids) for ids, _ in segments]
    touched = [False] * len(segments)
    window_tables: list[list[int]] = []
    for index, (choice, window) in enumerate(zip(choices, windows, strict=True)):
        if choice[0] == "real":
            window_tables += [list(t) for t in choice[1]]
            continue
        top, bottom = window["top"], window["bottom"]
        for reals, t_top, t_bottom in choice[1]:
            table = list(reals)
            short = field.is_short(len(reals) + t_top + t_bottom)
            for segment, value, count in ((index, top, t_top), (index + 1, bottom, t_bottom)):
                if not count:
                    continue
                pool = [pid for pid in pools[segment] if field.value[pid] == value]
                taken = _borrow(field, pool, count, table, short)
                if not taken:
                    return fail("too few players on an edge")
                table += taken
                pools[segment] = [pid for pid in pools[segment] if pid not in taken]
                touched[segment] = True
            window_tables.append(table)
    seating = list(window_tables)
    left = list(sizes)
    for table in window_tables:
        if len(table) not in left:
            return fail("table sizes")
        left.remove(len(table))
    reseat = []
    for index, (_, kept) in enumerate(segments):
        if touched[index]:
            reseat.append(index)
            continue
        for table in kept:
            if len(table) not in left:
                return fail("table sizes")
            left.remove(len(table))
            seating.append(list(table))
    rng = random.Random(f"irondie-pods-window:{field.seed}:{field.round_number}")
    for parts in _distribute(left, [len(pools[i]) for i in reseat]):
        seated = []
        for i, part in zip(reseat, parts, strict=True):
            reseats[0] -= 1
            if reseats[0] < 0:
                return fail("out of re-seatings")
            seated.append(seat_part(field, pools[i], part, rng))
            if seated[-1] is None:
                break
        else:
            return seating + [t for part in seated for t in part]
    return fail("segment not re-seated")


def _lower_rank_offset(field, seating: list[list[int]]) -> list[list[int]]:
    """Swap a player at a short table with one of the same points and short-table count
    ranked below them at a full table, when that adds no repeat: the excess and the spread
    stay, the rank offset falls (the relaxations do not see ranks)."""
    seating = [list(t) for t in seating]

    def met(pid, table, skip):
        return sum(1 for q in table if q != skip and q in field.opp[pid])

    improved = True
    while improved:
        improved = False
        for short in (t for t in seating if field.is_short(len(t))):
            for full in (t for t in seating if not field.is_short(len(t))):
                for i, p in enumerate(short):
                    for j, q in enumerate(full):
                        if (
                            field.value[q] != field.value[p]
                            or field.short[q] != field.short[p]
                            or field.position[q] < field.position[p]
                        ):
                            continue
                        before = met(p, short, p) + met(q, full, q)
                        after = met(q, short, p) + met(p, full, q)
                        if after <= before:
                            short[i], full[j] = q, p
                            p = q
                            improved = True
    return seating


def certify_windows(field, sizes, tables, node_limit=WINDOW_RELAXED_NODES, trace=None):
    """A seating proved optimal by windows around tier 1's trouble (``certify_relaxed``) or,
    failing that, by the counted window (``certify_counted``); or None."""
    found = certify_relaxed(field, sizes, tables, node_limit, trace)
    if found is None:
        found = certify_counted(field, sizes, tables, trace=trace)
    return found


def certify_relaxed(field, sizes, tables, node_limit=WINDOW_RELAXED_NODES, trace=None):
    """A seating proved optimal by windows around tier 1's trouble, or None.

    The incumbent's tables, ordered by points, are cut into windows (each around tables
    with a repeat, grown until no table crosses its edges) and the outside segments
    between them. Every seating's spread is at least the sum, over the windows, of the
    window's relaxed optimum (copies of the points just outside it on either side) and,
    over the outside segments, of their padded block bound (copies of their own edge
    points where they meet a window); its repeats at least the windows' relaxed repeats.
    A seating that costs exactly that, with the least excess and no rank offset, is
    optimal. Windows grow by a table on each side until one passes ``WINDOW_LIMIT``.

    ``trace``: a list that receives, for each growth of the windows, what was tried and why
    it failed (bench/pods.py --diagnose reads it)."""

    def note(**facts):
        if trace is not None:
            trace.append(facts)

    full = field.full
    short_sizes = sorted({s for s in sizes if field.is_short(s)}, reverse=True)
    short_limit = sum(1 for s in sizes if field.is_short(s))
    level = field.value
    ordered = sorted(tables, key=lambda t: (-max(level[p] for p in t), -min(level[p] for p in t)))
    excess = field.ibound(sizes)[1]
    budget = [node_limit]
    reseats = [RESEATS]
    spans = [[i, i] for i, t in enumerate(ordered) if field.repeats(t)]
    if not spans:
        return None
    last = len(ordered) - 1
    while True:
        # Grow each window until no table outside it lies on points inside its range, then
        # merge windows that touch.
        for span in spans:
            changed = True
            while changed:
                changed = False
                lo, hi = span
                inside = [level[p] for t in ordered[lo : hi + 1] for p in t]
                if lo > 0 and min(level[p] for t in ordered[:lo] for p in t) < max(inside):
                    span[0] -= 1
                    changed = True
                if hi < last and max(level[p] for t in ordered[hi + 1 :] for p in t) > min(inside):
                    span[1] += 1
                    changed = True
        spans.sort()
        merged: list[list[int]] = []
        for lo, hi in spans:
            if merged and lo <= merged[-1][1] + 1:
                merged[-1][1] = max(merged[-1][1], hi)
            else:
                merged.append([lo, hi])
        spans = merged
        widths = [sum(len(t) for t in ordered[lo : hi + 1]) for lo, hi in spans]
        if any(width > WINDOW_LIMIT for width in widths):
            note(outcome="too wide", widths=widths)
            return None
        # Outside segments: before the first window, between windows, after the last.
        edges = [-1] + [x for lo, hi in spans for x in (lo, hi)] + [last + 1]
        segments = []
        for k in range(0, len(edges), 2):
            kept = ordered[edges[k] + 1 : edges[k + 1]]
            segments.append(([p for t in kept for p in t], kept))
        windows, choices_per_window = [], []
        spread_bound = 0
        repeat_bound = 0
        try:
            for index, (lo, hi) in enumerate(spans):
                above = [level[p] for p in segments[index][0]]
                below = [level[p] for p in segments[index + 1][0]]
                top = min(above) if above else None
                bottom = max(below) if below else None
                reals = [p for t in ordered[lo : hi + 1] for p in t]
                capacity = (
                    sum(1 for p in segments[index][0] if level[p] == top),
                    sum(1 for p in segments[index + 1][0] if level[p] == bottom),
                )
                relaxed, relaxed_tables = window_relaxed(
                    field, reals, full, short_sizes, short_limit, top, bottom, budget, capacity
                )
                if relaxed is None:
                    note(outcome="no relaxed seating", widths=widths)
                    return None
                repeat_bound += relaxed[0]
                spread_bound += relaxed[1]
                options = [("borrow", relaxed_tables)]
                if any(t or b for _, t, b in relaxed_tables):
                    # The window's own players may reach the same value at the incumbent's
                    # sizes; a search that runs out of steps just offers nothing.
                    try:
                        own, own_tables = window_real(
                            field,
                            reals,
                            [len(t) for t in ordered[lo : hi + 1]],
                            [WINDOW_RELAXED_NODES],
                        )
                    except _OutOfNodes:
                        own = None
                    if own == relaxed:
                        options.insert(0, ("real", own_tables))
                windows.append({"top": top, "bottom": bottom})
                choices_per_window.append(options)
        except _OutOfNodes:
            note(outcome="out of steps", widths=widths)
            return None
        for index, (ids, _) in enumerate(segments):
            values = sorted((level[p] for p in ids), reverse=True)
            pad_top = values[0] if values and index > 0 else None
            pad_bottom = values[-1] if values and index < len(spans) else None
            bound = padded_bound(values, full, short_sizes, short_limit, pad_top, pad_bottom)
            if bound is None:
                note(outcome="segment cannot be seated", widths=widths)
                return None
            spread_bound += bound
        target = (repeat_bound, excess, spread_bound, 0)
        keys, why = [], []
        for choices in product(*choices_per_window):
            seating = _realize(field, sizes, segments, windows, choices, reseats, why)
            if seating is None:
                keys.append(None)
                continue
            key = field.ikey(seating)
            if key[:3] == target[:3] and key[3]:
                seating = _lower_rank_offset(field, seating)
                key = field.ikey(seating)
            if key == target:
                return seating
            keys.append(key)
        note(outcome="missed the bound", widths=widths, target=target, keys=keys, why=why)
        if reseats[0] < 0 or all(lo == 0 and hi == last for lo, hi in spans):
            return None
        spans = [[max(0, lo - 1), min(last, hi + 1)] for lo, hi in spans]


# --- the counted window: a bound that knows how many players the outside can lend ---------------


def lending_blocks(values, full, short_sizes, short_limit, max_lent=None, budget=None):
    """For a segment of players (``values`` sorted, best first) that lends some of them to
    tables outside it: the least spread of the players it keeps, over every choice of whom
    to lend, seated among themselves at full tables and exactly q short ones. A dict
    (players kept, q) -> least spread.

    The kept players' least spread is a cut of them into consecutive blocks (as for any
    field), and a block can be taken as a run of the segment without gaps: the subset of
    a sorted run with the least spread among those of its size is a contiguous one, and
    exchanging the block for it keeps the number lent.

    ``max_lent``: no more are ever lent (default: all). ``budget``: a one-item list of
    partial seatings left, charged one for every ``STATES_PER_NODE`` states of the
    programme (_OutOfNodes when spent)."""
    m = len(values)
    max_lent = m if max_lent is None else min(m, max_lent)
    prefix, prefix_sq = [0], [0]
    for x in values:
        prefix.append(prefix[-1] + x)
        prefix_sq.append(prefix_sq[-1] + x * x)

    def block(start, size):
        total = prefix[start + size] - prefix[start]
        return size * (prefix_sq[start + size] - prefix_sq[start]) - total * total

    sizes = [(full, 0)] + [(s, 1) for s in short_sizes]
    # states[i]: (lent, short tables) -> least spread of the first i players
    states: list[dict] = [dict() for _ in range(m + 1)]
    states[0][(0, 0)] = 0
    for i in range(m + 1):
        if budget is not None:
            budget[0] -= len(states[i]) // STATES_PER_NODE
            if budget[0] < 0:
                raise _OutOfNodes
        for (lent, q), cost in states[i].items():
            if i == m:
                continue
            step = states[i + 1]
            if lent < max_lent and step.get((lent + 1, q), cost + 1) > cost:
                step[(lent + 1, q)] = cost
            for size, short in sizes:
                if i + size > m or q + short > short_limit:
                    continue
                nxt = states[i + size]
                key = (lent, q + short)
                value = cost + block(i, size)
                if key not in nxt or value < nxt[key]:
                    nxt[key] = value
    return {(m - lent, q): cost for (lent, q), cost in states[m].items()}


# States of the lending programme that cost about one partial seating of a search.
STATES_PER_NODE = 16
# Crossing tables (players from above and below a window, none of its own) counted one by one
# in the counted window; more of them cost at least this many times the cheapest one.
CROSSING_TABLES = 3


def counted_window(field, window_ids, sizes, budget, upper=None):
    """A lower bound of (repeats, spread) over every seating of the whole field, from one
    window: ``window_ids`` are every player whose points lie in a range, A the players
    above it and B those below. Every table of a seating either holds a window player
    ("mixed"), or players of both A and B and none of the window ("crossing"), or only A
    or only B players. Pairs are cut at the window's edges (A's lowest points, B's
    highest), so a mixed table costs at least the window's players with A's players at
    A's lowest points and B's at B's highest; a crossing table of t A players and b B
    players at least t x b x (the gap between the edges)^2; A's tables of their own at
    least the least spread of the A players not lent to the mixed and crossing tables
    (``lending_blocks``), B's likewise. Unlike the window relaxation, the players lent are
    counted: A lends exactly as many players as the mixed and crossing tables take from
    above, and the table counts add up to the round's. Returns the least (repeats,
    spread) of that relaxation, or None when the search passes its budget.

    ``upper``: the (repeats, spread) of a known seating. The search then only looks for
    less, and returns ``upper`` when there is none: the least of the relaxation is at
    least that, so the seating is as good as any (a bound proved by finding nothing)."""
    level = field.value
    full = field.full
    short_sizes = sorted({s for s in sizes if field.is_short(s)}, reverse=True)
    short_count = sum(1 for s in sizes if field.is_short(s))
    inside = set(window_ids)
    above = sorted(
        (
            level[p]
            for p in field.ids
            if p not in inside and level[p] > max(level[q] for q in inside)
        ),
        reverse=True,
    )
    below = sorted(
        (
            level[p]
            for p in field.ids
            if p not in inside and level[p] < min(level[q] for q in inside)
        ),
        reverse=True,
    )
    if len(above) + len(below) + len(inside) != len(field.ids):
        raise ValueError("the window must hold every player on the points it spans")
    top = above[-1] if above else None
    bottom = below[0] if below else None
    # The mixed tables and the crossing tables counted one by one seat at most this many
    # players from either side (beyond them, the crossing tables' floor alone is used).
    max_lent = (len(inside) + CROSSING_TABLES) * (full - 1)
    try:
        kept_above = lending_blocks(above, full, short_sizes, short_count, max_lent, budget)
        kept_below = lending_blocks(below, full, short_sizes, short_count, max_lent, budget)
    except _OutOfNodes:
        return None
    # Crossing tables: (taken from above, from below, short tables) -> least cost.
    crossing = {(0, 0, 0): 0}
    cheapest_crossing = None
    if top is not None and bottom is not None:
        gap = (top - bottom) ** 2
        kinds = [(s, t, int(s != full)) for s in [full, *short_sizes] for t in range(1, s)]
        cheapest_crossing = min(t * (s - t) for s, t, _ in kinds) * gap
        layer = dict(crossing)
        for _ in range(CROSSING_TABLES):
            nxt = {}
            for (ta, tb, tq), cost in layer.items():
                for s, t, short in kinds:
                    key = (ta + t, tb + s - t, tq + short)
                    value = cost + t * (s - t) * gap
                    if key[2] <= short_count and (key not in nxt or value < nxt[key]):
                        nxt[key] = value
            for key, value in nxt.items():
                if key not in crossing or value < crossing[key]:
                    crossing[key] = value
            layer = nxt
    completions: dict[tuple, int | None] = {}

    def completion(lent_above, lent_below, shorts):
        """The least cost of everything but the mixed tables, given what they took."""
        key = (lent_above, lent_below, shorts)
        if key not in completions:
            best = None
            for (ta, tb, tq), cost in crossing.items():
                keep_a, keep_b = len(above) - lent_above - ta, len(below) - lent_below - tb
                if keep_a < 0 or keep_b < 0:
                    continue
                left = short_count - shorts - tq
                for qa in range(left + 1):
                    a_cost = kept_above.get((keep_a, qa))
                    b_cost = kept_below.get((keep_b, left - qa))
                    if a_cost is None or b_cost is None:
                        continue
                    if best is None or cost + a_cost + b_cost < best:
                        best = cost + a_cost + b_cost
            if cheapest_crossing is not None:
                # More crossing tables than counted: at least that many cheapest ones.
                tail = (CROSSING_TABLES + 1) * cheapest_crossing
                best = tail if best is None else min(best, tail)
            completions[key] = best
        return completions[key]

    order = sorted(window_ids, key=lambda pid: (-level[pid], field.draw[pid]))
    classes = _classes(field, window_ids)
    bounds: dict[tuple, int] = {}

    def rest_bound(rest):
        values = tuple(level[p] for p in rest)
        if values not in bounds:
            bound = padded_bound(list(values), full, short_sizes, short_count, top, bottom)
            bounds[values] = 0 if bound is None else bound
        return bounds[values]

    best = [upper]
    table_sizes_ = [(full, False)] + [(s, True) for s in short_sizes]
    # Whatever the mixed tables take, the rest costs at least A's and B's least.
    floor = min(kept_above.values(), default=0) + min(kept_below.values(), default=0)

    def search(rest, shorts, lent_above, lent_below, repeats, spread):
        budget[0] -= 1
        if budget[0] < 0:
            raise _OutOfNodes
        if not rest:
            done = completion(lent_above, lent_below, shorts)
            if done is not None and (best[0] is None or (repeats, spread + done) < best[0]):
                best[0] = (repeats, spread + done)
            return
        if best[0] is not None and (repeats, spread + rest_bound(rest) + floor) >= best[0]:
            return
        anchor, others = rest[0], rest[1:]
        for size, short in table_sizes_:
            if short and shorts == short_count:
                continue
            for reals_more in range(min(size - 1, len(others)), -1, -1):
                virtual = size - 1 - reals_more
                splits = [
                    (t, virtual - t)
                    for t in range(virtual + 1)
                    if (t == 0 or top is not None) and (virtual - t == 0 or bottom is not None)
                ]
                for mates in _mate_choices(others, reals_more, classes):
                    table = (anchor, *mates)
                    values = [level[p] for p in table]
                    taken = set(mates)
                    left = tuple(p for p in others if p not in taken)
                    table_repeats = field.repeats(table)
                    for t, b in splits:
                        if lent_above + t > len(above) or lent_below + b > len(below):
                            continue
                        vals = values + [top] * t + [bottom] * b
                        table_spread = sum((x - y) ** 2 for x, y in combinations(vals, 2))
                        search(
                            left,
                            shorts + short,
                            lent_above + t,
                            lent_below + b,
                            repeats + table_repeats,
                            spread + table_spread,
                        )

    try:
        search(tuple(order), 0, 0, 0, 0, 0)
    except _OutOfNodes:
        return None
    return best[0]


def _swap_down(field, tables, steps):
    """Swap two players of different tables while that lowers (repeats, short-table excess,
    spread), scoring only the two tables a swap changes; then lower the rank offset. The
    result is no claim of optimality: the counted window's bound is what proves it."""
    seating = [list(t) for t in tables]
    level = field.value

    def table_cost(table):
        repeats = field.repeats(table)
        excess = (
            sum(field.short[p] - field.min_short for p in table)
            if field.is_short(len(table))
            else 0
        )
        values = [level[p] for p in table]
        spread = sum((x - y) ** 2 for x, y in combinations(values, 2))
        return (repeats, excess, spread)

    costs = [table_cost(t) for t in seating]
    improved = True
    while improved and steps > 0:
        improved = False
        for t, u in combinations(range(len(seating)), 2):
            first, second = seating[t], seating[u]
            before = tuple(a + b for a, b in zip(costs[t], costs[u], strict=True))
            for i in range(len(first)):
                for j in range(len(second)):
                    steps -= 1
                    first[i], second[j] = second[j], first[i]
                    new_t, new_u = table_cost(first), table_cost(second)
                    after = tuple(a + b for a, b in zip(new_t, new_u, strict=True))
                    if after < before:
                        costs[t], costs[u], before = new_t, new_u, after
                        improved = True
                    else:
                        first[i], second[j] = second[j], first[i]
            if steps <= 0:
                break
    return _lower_rank_offset(field, seating)


def certify_counted(field, sizes, tables, budget=None, steps=SWAP_STEPS, trace=None):
    """A seating proved optimal by the counted window, or None.

    The window spans the points of every repeat meeting of ``tables`` (one window, so that
    every trouble's cost is in it), and grows by a score on each side while its search
    fits ``budget``. The seating offered is ``tables`` improved by swaps; it is proved when
    it costs exactly (the window's repeats, the least excess, the window's spread, 0)."""
    budget = [COUNTED_NODES] if budget is None else budget
    level = field.value
    trouble = [
        level[p]
        for table in tables
        for a, b in combinations(table, 2)
        if b in field.opp[a]
        for p in (a, b)
    ]
    if not trouble:
        return None
    seating = _swap_down(field, tables, steps)
    key = field.ikey(seating)
    excess = field.ibound(sizes)[1]
    values = sorted(set(level.values()))
    low, high = values.index(min(trouble)), values.index(max(trouble))
    while True:
        window = [p for p in field.ids if values[low] <= level[p] <= values[high]]
        found = counted_window(field, window, sizes, budget, (key[0], key[2]))
        if trace is not None:
            trace.append(
                {"outcome": "counted window", "widths": [len(window)], "bound": found, "key": key}
            )
        if found is None:
            return None
        if key == (found[0], excess, found[1], 0):
            return seating
        if low == 0 and high == len(values) - 1:
            return None
        low, high = max(0, low - 1), min(len(values) - 1, high + 1)
