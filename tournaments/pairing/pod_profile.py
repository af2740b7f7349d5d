"""The typed bound of Swiss pods and the seating that meets it (docs/pairing.md, "Swiss pods",
tier 1). Pure Python.

The least short-table excess fixes who may sit short: players below the threshold count
("must sit short"), above it ("must sit full"), and at it ("either"), of whom a known number
sit short. Among seatings with that least excess, short and full tables are two streams of
players; each stream has one table size (when both kinds exist), so its least spread is a
cut of it, sorted by points, into consecutive blocks. A dynamic programme over the score
groups, choosing how many "either" players of each score join the short stream, gives the
least spread of any seating with the least excess: the spread component of the bound.

Its optimal profile (the points of every seat at every table) is then filled with players
so that no table repeats a meeting: a backtracking search over the players who could meet
an opponent there, most constrained first, within a budget of steps.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from tournaments.pairing.pod_blocks import _best_blocks

__all__ = [
    "ShortPlan",
    "fill_profile",
    "profile_tables",
    "seat_part",
    "short_plan",
    "typed_profile",
]

# Steps the repeat-free filling may take before the profile is handed to the exact tiers.
FILL_STEPS = 2_000
# Swaps the min-conflicts repair may try after the search.
MIN_CONFLICT_STEPS = 400


@dataclass(frozen=True)
class ShortPlan:
    """Who may sit at a short table under the least short-table excess."""

    seats: int
    excess: int
    must: frozenset[int]
    either: frozenset[int]
    either_seats: int


def short_plan(field, sizes: Sequence[int], ids: Sequence[int] | None = None) -> ShortPlan:
    """Who may sit short among ``ids`` (default: the field) at tables of ``sizes``."""
    ids = field.ids if ids is None else ids
    seats = sum(s for s in sizes if field.is_short(s))
    counts = sorted(field.short[pid] for pid in ids)
    if not seats:
        return ShortPlan(0, 0, frozenset(), frozenset(), 0)
    threshold = counts[seats - 1]
    must = frozenset(pid for pid in ids if field.short[pid] < threshold)
    either = frozenset(pid for pid in ids if field.short[pid] == threshold)
    excess = sum(c - field.min_short for c in counts[:seats])
    return ShortPlan(seats, excess, must, either, seats - len(must))


def _add(cost: int, count: int, total: int, size: int, value: int, k: int):
    """Put k players on ``value`` at the end of a stream cut into blocks of ``size`` whose open
    block holds ``count`` players summing to ``total``: the new (cost, count, total). A
    block's spread is size * (sum of squares) - (sum)^2; squares are added as players come,
    the square of the sum when the block closes."""
    if not k:
        return cost, count, total
    cost += k * size * value * value
    space = size - count
    if k < space:
        return cost, count + k, total + k * value
    total += space * value
    cost -= total * total
    k -= space
    whole, rest = divmod(k, size)
    cost -= whole * (size * value) ** 2
    return cost, rest, rest * value


def typed_profile(
    field,
    sizes: Sequence[int],
    plan: ShortPlan,
    ids: Sequence[int] | None = None,
    rng: random.Random | None = None,
):
    """The least spread (in whole units) of a seating with the least short-table excess, and
    how many "either" players of each score sit short in one seating reaching it (None when
    every table is of one kind: the plain block bound holds). ``ids``: the players seated
    (default: the field), as in the exact tier's bound on the players left. With ``rng``,
    one of the optimal profiles drawn at random (ties are common; another profile may be
    fillable without repeats where the first is not)."""
    ids = field.ids if ids is None else ids
    short_sizes = [s for s in sizes if field.is_short(s)]
    full_sizes = [s for s in sizes if not field.is_short(s)]
    if not short_sizes or not full_sizes:
        values = sorted((field.value[pid] for pid in ids), reverse=True)
        return _best_blocks(values, list(sizes))[0], None
    short_size, full_size = short_sizes[0], full_sizes[0]
    groups: dict[int, list] = {}
    for pid in ids:
        groups.setdefault(field.value[pid], [0, 0, 0])
        kind = 0 if pid in plan.must else 1 if pid in plan.either else 2
        groups[field.value[pid]][kind] += 1
    values = sorted(groups, reverse=True)
    # state (short players so far, open short sum, open full sum, open full count) -> cost
    # state -> (cost, every (previous state, either players joined) reaching it)
    states: dict[tuple, tuple[int, list]] = {(0, 0, 0, 0): (0, [])}
    for value in values:
        must, either, full_only = groups[value]
        nxt: dict[tuple, tuple[int, list]] = {}
        for state, (cost, _) in states.items():
            taken, short_sum, full_sum, full_count = state
            for joined in range(either + 1):
                to_short = must + joined
                if taken + to_short > plan.seats:
                    break
                cost_s, count_s, sum_s = _add(
                    0, taken % short_size, short_sum, short_size, value, to_short
                )
                cost_f, count_f, sum_f = _add(
                    0, full_count, full_sum, full_size, value, full_only + either - joined
                )
                key = (taken + to_short, sum_s, sum_f, count_f)
                total = cost + cost_s + cost_f
                if key not in nxt or total < nxt[key][0]:
                    nxt[key] = (total, [(state, joined)])
                elif total == nxt[key][0]:
                    nxt[key][1].append((state, joined))
        states = nxt
        groups[value].append(states)
    final = sorted((cost, key) for key, (cost, _) in states.items() if key[0] == plan.seats)
    cost = final[0][0]
    ends = [key for c, key in final if c == cost]
    key = rng.choice(ends) if rng else ends[0]
    joined_by_value: dict[int, int] = {}
    for value in reversed(values):
        ways = groups[value][3][key][1]
        key, joined = rng.choice(ways) if rng else ways[0]
        joined_by_value[value] = joined
    return cost, joined_by_value


def _stream_tables(players: list[int], field, size: int) -> list[list[int]]:
    ordered = sorted(players, key=lambda pid: -field.value[pid])
    return [ordered[i : i + size] for i in range(0, len(ordered), size)]


def profile_tables(field, sizes: Sequence[int], plan: ShortPlan, joined_by_value, ids=None):
    """A seating reaching the typed bound, before repeats are considered: the short seats of
    each score go to its "must" players and its lowest-ranked "either" players (so the
    short-table rank offset is 0). ``ids``: the players seated (default: the field)."""
    ids = field.ids if ids is None else ids
    if joined_by_value is None:
        order = sorted(ids, key=lambda pid: (-field.value[pid], field.draw[pid]))
        _, blocks = _best_blocks([field.value[pid] for pid in order], list(sizes))
        tables, start = [], 0
        for size in blocks:
            tables.append(order[start : start + size])
            start += size
        return tables
    short_size = next(s for s in sizes if field.is_short(s))
    full_size = next(s for s in sizes if not field.is_short(s))
    short_players, full_players = [], []
    by_value: dict[int, list[int]] = {}
    for pid in ids:
        by_value.setdefault(field.value[pid], []).append(pid)
    for value, members in by_value.items():
        either = sorted(
            (pid for pid in members if pid in plan.either), key=lambda pid: -field.position[pid]
        )
        chosen = set(either[: joined_by_value.get(value, 0)])
        for pid in members:
            if pid in plan.must or pid in chosen:
                short_players.append(pid)
            else:
                full_players.append(pid)
    return _stream_tables(full_players, field, full_size) + _stream_tables(
        short_players, field, short_size
    )


def fill_profile(field, tables: list[list[int]], rng: random.Random, steps: int = FILL_STEPS):
    """Re-seat players among the seats of their own kind (same points, same kind of table) so
    that no table repeats a meeting; every other component of the cost is unchanged (the
    same players sit short). None when the search finds no such filling within ``steps``."""
    cls_of: dict[int, tuple] = {}
    free: dict[tuple, dict[int, int]] = {}  # class -> table index -> seats left
    classes_at: list[set] = []
    for index, table in enumerate(tables):
        short = field.is_short(len(table))
        present = set()
        for pid in table:
            cls = (field.value[pid], short)
            cls_of[pid] = cls
            free.setdefault(cls, {})
            free[cls][index] = free[cls].get(index, 0) + 1
            present.add(cls)
        classes_at.append(present)
    # Only opponents in classes that share some table can meet again.
    neighbours: dict[tuple, set] = {cls: set() for cls in free}
    for present in classes_at:
        for cls in present:
            neighbours[cls] |= present
    constrained = []
    for pid, cls in cls_of.items():
        degree = sum(1 for q in field.opp[pid] if q in cls_of and cls_of[q] in neighbours[cls])
        if degree:
            constrained.append((-degree, field.draw[pid], pid))
    constrained.sort()
    order = [pid for _, _, pid in constrained]
    seated: list[list[int]] = [[] for _ in tables]

    def options(pid: int) -> list[int]:
        cls = cls_of[pid]
        found = [
            i
            for i, left in free[cls].items()
            if left and not any(other in field.opp[pid] for other in seated[i])
        ]
        rng.shuffle(found)
        # Fullest tables first: they have the fewest seats left for later players.
        found.sort(key=lambda i: -len(seated[i]))
        return found

    # Depth-first search without recursion: stack[k] = the options left for order[k].
    stack: list[list[int]] = []
    chosen: list[int] = []
    if order:
        stack.append(options(order[0]))
    while len(chosen) < len(order):
        steps -= 1
        if steps < 0 or not stack:
            return _min_conflicts(field, tables, cls_of, rng, MIN_CONFLICT_STEPS)
        pid = order[len(stack) - 1]
        if len(chosen) == len(stack):  # undo the seat tried last for this player
            index = chosen.pop()
            seated[index].pop()
            free[cls_of[pid]][index] += 1
        if not stack[-1]:
            stack.pop()
            continue
        index = stack[-1].pop(0)
        seated[index].append(pid)
        free[cls_of[pid]][index] -= 1
        chosen.append(index)
        if len(chosen) < len(order):
            stack.append(options(order[len(chosen)]))
    # Everyone else meets no possible opponent: any free seat of their class will do.
    placed = set(order)
    rest: dict[tuple, list[int]] = {}
    for pid in sorted(cls_of, key=field.draw.__getitem__):
        if pid not in placed:
            rest.setdefault(cls_of[pid], []).append(pid)
    for cls, seats in free.items():
        for index, left in sorted(seats.items()):
            for _ in range(left):
                seated[index].append(rest[cls].pop())
    return seated


def _min_conflicts(field, tables, cls_of, rng, steps):
    """Min-conflicts repair: a player who meets an opponent again swaps with a player of the
    same class at another table, the swap that leaves the fewest repeats (ties drawn), until
    no table repeats a meeting. None when ``steps`` swaps were not enough."""
    seating = [list(t) for t in tables]
    where = {pid: index for index, table in enumerate(seating) for pid in table}
    by_class: dict[tuple, list[int]] = {}
    for pid in sorted(cls_of, key=field.draw.__getitem__):
        by_class.setdefault(cls_of[pid], []).append(pid)

    def met(pid: int, index: int, skip: int) -> int:
        return sum(1 for q in seating[index] if q != skip and q in field.opp[pid])

    conflicted = {pid for pid in where if met(pid, where[pid], pid)}
    for _ in range(steps):
        if not conflicted:
            return seating
        pid = rng.choice(sorted(conflicted, key=field.draw.__getitem__))
        here = where[pid]
        before_pid = met(pid, here, pid)
        best, best_delta = [], None
        for other in by_class[cls_of[pid]]:
            there = where[other]
            if there == here:
                continue
            delta = (
                met(pid, there, other)
                + met(other, here, pid)
                - before_pid
                - met(other, there, other)
            )
            if best_delta is None or delta < best_delta:
                best, best_delta = [other], delta
            elif delta == best_delta:
                best.append(other)
        if not best or (best_delta > 0 and rng.random() < 0.7):
            continue
        other = rng.choice(best)
        there = where[other]
        seating[here][seating[here].index(pid)] = other
        seating[there][seating[there].index(other)] = pid
        where[pid], where[other] = there, here
        for index in (here, there):
            for q in seating[index]:
                if met(q, index, q):
                    conflicted.add(q)
                else:
                    conflicted.discard(q)
    return None


def seat_part(field, ids: Sequence[int], sizes: Sequence[int], rng: random.Random):
    """Players ``ids`` at tables of ``sizes`` on their typed profile without a repeat, or
    None (the windows seat the field outside a window this way)."""
    if not ids:
        return []
    plan = short_plan(field, sizes, ids)
    _, joined = typed_profile(field, sizes, plan, ids)
    return fill_profile(field, profile_tables(field, sizes, plan, joined, ids), rng)
