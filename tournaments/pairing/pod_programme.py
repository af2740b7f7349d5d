"""Swiss pods, the integer-programme tier: a proof for fields too large to search.

A seating is a choice of tables that covers every player once (set partitioning). Among
seatings with no repeat meeting and the least short-table excess (the incumbent has both,
so the optimum does too), the spread is a sum over the chosen tables, so the least spread
is the optimum of an integer programme with one column per possible table. There are far
too many tables to list, so (docs/pairing.md, "The integer programme"):

0. **Profiles of score groups** (``_seat_signatures``): how many tables of each signature
   (the score groups of its players) a seating lays is a small integer programme whose
   least value bounds every seating's spread; its least profile, seated without a repeat
   (a search, else an assignment programme, ``_fill_by_programme``), proves the round.
   Where it does not:
1. **Column generation** solves the linear relaxation over every possible table without
   listing them: HiGHS solves it over the tables known so far, and a search (``_Pricer``)
   finds, per player, the table of least reduced cost that player heads, until none is
   negative. Its value ``z`` is a lower bound on the spread of every seating. Score-group
   cuts (``_GroupCut``: whole tables of a run of score groups) and subset-row cuts lift it;
   when its tables summed by score groups are whole, that profile is seated without a
   repeat if it can be (``_seat_profile``), which proves the round at once.
2. A seating of spread S uses only tables whose reduced cost is at most S - z (the reduced
   costs at the relaxation's optimum are never negative, and a seating's spread is z plus
   the reduced costs of its tables). The incumbent is first improved by the integer
   programme over the tables generated so far; then **every** table of reduced cost at most
   incumbent - z is listed, and the integer programme over them (HiGHS's branch and cut)
   either finds a seating below the incumbent or proves there is none.
3. The short-table rank offset is then minimised among the seatings of that spread: by
   swaps, by a refill of each class's short seats to its lowest ranked, by the assignment
   programme over the seating's profile with who sits short as its cost, by a programme of
   who sits short and tables counted by signature, with Benders cuts around who sits short
   where its choice cannot be filled, or of short tables listed (``_short_table_offset``:
   its least offset bounds every seating's of that spread), else by the same
   programme over the same tables with the spread held by a row and the offset as the
   objective (one count variable per class makes it linear).

With no seating in hand (the best so far has a repeat or excess), artificial columns keep
the relaxation solvable; left at its optimum, they prove no seating of this tier exists.

Spreads are whole numbers (units of 1 / scale^2, as in pods.py), so a relaxation value is
rounded up to the next whole number before any comparison (a tolerance of 1e-6 first).
Pure Python around HiGHS (``highspy``), no Django.
"""

from __future__ import annotations

import math
import os
import random
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from itertools import combinations, combinations_with_replacement

import highspy
import numpy as np

from tournaments.pairing.pod_profile import fill_profile


def _quiet_first_instance() -> None:
    """HiGHS prints its banner to the process's standard output when the first instance is
    made, whatever the options: make that one with file descriptor 1 pointed at /dev/null
    (once, at import), so that a pairing never writes to a command's or a worker's output."""
    sys.stdout.flush()
    saved = os.dup(1)
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 1)
        highspy.Highs()
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        os.close(devnull)


_quiet_first_instance()

# Rounds of subset-row cuts, and cuts added a round.
CUT_ROUNDS = 30
CUTS_PER_ROUND = 60
# Relaxations before the tier gives up (each adds up to one table per player).
MAX_RELAXATIONS = 400
# Tables listed for the final programme before the tier gives up (memory and HiGHS's time).
MAX_TABLES = 60_000
# Branch-and-bound nodes of one integer programme (a deterministic limit: the same input
# gives the same answer on any machine).
MIP_NODES = 5_000
# Seconds, a safety net (the node limits decide most rounds; some of 128-256 players reach
# it, which makes their seating depend on the machine: docs/pairing.md, limits).
MIP_SECONDS = 60.0
# The programme over the tables generated so far only improves the incumbent: where it
# reaches its limit the listing and the profiles after it prove the round (a 202-player
# round 6: 60 s for 190 -> 179, then proved at 176 by the profiles' cuts either way).
INCUMBENT_SECONDS = 15.0
# The first gap of the listing (whole units of spread; doubled until it proves).
FIRST_GAP = 1.0
# Reduced costs within this of zero count as zero (HiGHS's duals are floating point).
EPS = 1e-6
# Search steps between two calls of the work callback.
TICK_STEPS = 4096
# HiGHS's presolve rule bit of probing (its option presolve_rule_off).
PROBING_RULE = 1 << 15
# Tries, and search steps a try, at seating the relaxation's profile without a repeat.
PROFILE_FILLS = 4
PROFILE_FILL_STEPS = 20_000
# The assignment programme that fills a profile where that search does not: its largest
# size (players times the tables with a seat of their kind) and its nodes.
FILL_VARIABLES = 40_000
FILL_NODES = 200
# Profiles of the score-group programme tried before it gives up (see _seat_signatures),
# the search steps spent on whether a signature has a table without a repeat, and the
# players a score group must hold on average for more than the least profile to be worth
# trying (equal players many, repeats few: early rounds of large fields).
PROFILE_TRIES = 12
SIGNATURE_STEPS = 2_000
# Benders cuts from profiles no seating fills even fractionally (_Fillability): how many a
# search for a profile adds, and the most tables of its signatures it lists for one check.
PROFILE_CUTS = 200
PROFILE_CUT_TABLES = 200_000
HEAVIEST_STEPS = 500
PROFILE_GROUP_SIZE = 8
# Players from which the rank offset is proved by short tables (_short_table_offset) before
# the listing: a 114-player round's listing passed its limits, where 64-player rounds'
# listings prove their offset faster than the short tables' programme.
OFFSET_LISTING_PLAYERS = 100
# Benders cuts around who sits short that the rank offset's programme adds at most (a
# 202-player round 6: 13 to prove offset 3).
OFFSET_CUTS = 40


@dataclass(frozen=True)
class ProgrammeResult:
    """tables: the best seating (the incumbent or better). proved: its spread and rank
    offset are the least of any seating with no repeat and the least excess. bound: a
    lower bound on the spread in whole units (the relaxation's value rounded up)."""

    tables: list[list[int]]
    proved: bool
    bound: int
    columns: int
    relaxations: int
    # Why the tier stopped short of a proof ("" when proved).
    reason: str = ""


class _GiveUp(Exception):
    """The tier stops short of a proof; ``seating``: a better one it found on the way."""

    def __init__(self, reason: str, seating: list[tuple[int, ...]] | None = None):
        super().__init__(reason)
        self.seating = seating


@dataclass(frozen=True)
class _GroupCut:
    """A Chvatal-Gomory cut of the seating's rows: each player of the score groups ``first``
    to ``last`` sits once (each row times share / scale) and ``count`` tables of ``size`` are
    laid (that row times size_share / scale), so every seating keeps

        sum over its tables of floor((share * inside + size_share * [size]) / scale)
            <= floor((share * players + size_share * count) / scale)

    (inside: the table's players in those groups). It is what the relaxation misses of whole
    tables: 6 players of one score fill at most one table of 4 by themselves, where the
    relaxation seats them on a quarter of each of 15 tables at no spread. Integers only: the
    coefficients are whole numbers, and the relaxation's duals price them like any row."""

    first: int
    last: int
    share: int
    size: int
    size_share: int
    scale: int
    bound: int

    def coefficient(self, groups: Sequence[int], size: int) -> int:
        inside = sum(1 for g in groups if self.first <= g <= self.last)
        extra = self.size_share if size == self.size else 0
        return (self.share * inside + extra) // self.scale


class _Pricer:
    """Finds tables of low reduced cost: spread(T) - sum of the players' duals - the size's
    dual - the cuts' duals it meets. Players are ordered by score group, best first, and
    within a group by dual, highest first (a new order each search); a table is listed by
    its players in that order (its head first), and a partial table is cut off when its
    cost plus the least its remaining players can add cannot come under the threshold
    (what a player adds is never less than its spread against the partial table minus its
    dual, since the spread among the players still to come is not negative)."""

    def __init__(self, field, sizes: Sequence[int], plan, tick: Callable[[int], None]):
        self.order = sorted(field.ids, key=lambda pid: (-field.value[pid], pid))
        self.index = {pid: i for i, pid in enumerate(self.order)}
        self.value = [field.value[pid] for pid in self.order]
        # Score groups: players of equal points, numbered from the best.
        levels = sorted(set(self.value), reverse=True)
        self.group = [levels.index(v) for v in self.value]
        self.groups = len(levels)
        self.levels = levels
        n = len(self.order)
        self.met = [
            frozenset(self.index[o] for o in field.opp[pid] if o in self.index)
            for pid in self.order
        ]
        # Who may sit at a short table and who at a full one, for the least excess: every
        # "must" player sits short, no player above the threshold does.
        self.may_short = [pid in plan.must or pid in plan.either for pid in self.order]
        self.may_full = [pid not in plan.must for pid in self.order]
        self.sizes = sorted(set(sizes), reverse=True)
        self.short = {s: field.is_short(s) for s in self.sizes}
        self.n = n
        self.tick = tick
        self.steps = 0

    def allowed(self, size: int) -> list[bool]:
        return self.may_short if self.short[size] else self.may_full

    def search(
        self,
        duals: Sequence[float],
        size_duals: dict[int, float],
        limit: float,
        best_only: bool,
        penalty: Callable[[tuple[int, ...]], float] = lambda table: 0.0,
        partial: Callable[[tuple[int, ...], int], float] = lambda groups, size: 0.0,
    ) -> list[tuple[float, tuple[int, ...]]]:
        """Tables of reduced cost below ``limit`` (per head the least one when
        ``best_only``), as (reduced cost, player indices). ``penalty``: the cuts' share of
        a table; ``partial``: a share that only grows as players join a table, by the
        groups of its players so far and its size (a lower bound of the whole table's)."""
        found: list[tuple[float, tuple[int, ...]]] = []
        self.penalty = penalty
        self.partial = partial
        for size in self.sizes:
            allowed = self.allowed(size)
            # Each score group's players who may sit at this size, highest dual first: a
            # player of a group adds the same spread to a table as any other of the group,
            # so in this order what it adds only grows, and the first that cannot come under
            # the threshold ends its group.
            lists: list[list[int]] = [[] for _ in range(self.groups)]
            for i in range(self.n):
                if allowed[i]:
                    lists[self.group[i]].append(i)
            for members in lists:
                members.sort(key=lambda i: (-duals[i], i))
            # What one search over tables of this size reads (the recursion's constants).
            self.size, self.lists, self.duals, self.found = size, lists, duals, found
            self.best_only, self.size_dual = best_only, size_duals[size]
            self.threshold_base = limit + size_duals[size]
            for g, members in enumerate(lists):
                for k, head in enumerate(members):
                    self.best = [self.threshold_base, None]
                    self._extend([head], (g,), -duals[head], size - 1, g, k + 1)
                    if best_only and self.best[1] is not None:
                        found.append((self.best[0] - self.size_dual, self.best[1]))
        return found

    def _extend(
        self,
        members: list[int],
        groups: tuple[int, ...],
        cost: float,
        need: int,
        first_group: int,
        first_index: int,
    ) -> None:
        """Tables that add ``need`` players to ``members`` (of score groups ``groups``),
        taken after position ``first_index`` of group ``first_group`` in ``self.lists``."""
        self.steps += 1
        if not self.steps % TICK_STEPS:
            self.tick(TICK_STEPS)
        value, met, levels = self.value, self.met, self.levels
        lists, duals, best, size = self.lists, self.duals, self.best, self.size
        best_only, threshold_base = self.best_only, self.threshold_base
        # Per group still open: where its candidates start, the spread one of them adds to
        # the partial table, and the least any of them adds (the first, highest dual).
        open_groups = []
        left = 0
        for g in range(first_group, self.groups):
            candidates = lists[g]
            start = first_index if g == first_group else 0
            if start >= len(candidates):
                continue
            level = levels[g]
            spread = 0
            for m in members:
                d = value[m] - level
                spread += d * d
            open_groups.append((g, start, spread, spread - duals[candidates[start]]))
            left += len(candidates) - start
        if left < need:
            return
        # The least any later candidate adds, from each group on: the players still to come
        # after a candidate add at least that each (the spread among them is not negative).
        after = [0.0] * len(open_groups)
        least = math.inf
        for e in range(len(open_groups) - 1, -1, -1):
            least = min(least, open_groups[e][3])
            after[e] = least
        others = need - 1
        for e, (g, start, spread, first_add) in enumerate(open_groups):
            # The score-group cuts' share once a player of g joins: it only grows as players
            # join (coefficients never fall, duals never positive).
            share = self.partial(tuple(sorted((*groups, g))), size)
            floor = cost + share + (others * after[e] if others else 0.0)
            threshold = best[0] if best_only else threshold_base
            if floor + first_add >= threshold - EPS:
                continue
            candidates = lists[g]
            for index in range(start, len(candidates)):
                j = candidates[index]
                add = spread - duals[j]
                threshold = best[0] if best_only else threshold_base
                if floor + add >= threshold - EPS:
                    break
                mj = met[j]
                if any(m in mj for m in members):
                    continue
                if not others:
                    table = (*members, j)
                    # The cuts' whole share (never negative, so the cut-offs above stand).
                    total = cost + add + self.penalty(table)
                    if total >= threshold - EPS:
                        continue
                    if best_only:
                        best[0], best[1] = total, table
                    else:
                        self.found.append((total - self.size_dual, table))
                    continue
                members.append(j)
                self._extend(members, tuple(sorted((*groups, g))), cost + add, others, g, index + 1)
                members.pop()


def _spread(values: Sequence[int]) -> int:
    """A table's spread from its players' scaled points (pods.py's, in whole units)."""
    return sum((a - b) ** 2 for a, b in combinations(values, 2))


def _highs() -> highspy.Highs:
    """A HiGHS instance as every programme here runs it: silent, one thread, a fixed seed,
    the node and time limits."""
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("threads", 1)
    h.setOptionValue("random_seed", 0)
    h.setOptionValue("mip_max_nodes", MIP_NODES)
    h.setOptionValue("time_limit", MIP_SECONDS)
    return h


class _Programme:
    """The set-partitioning programme over the tables listed so far (HiGHS)."""

    def __init__(self, pricer: _Pricer, sizes: Sequence[int]):
        self.pricer = pricer
        self.counts = {s: list(sizes).count(s) for s in pricer.sizes}
        self.columns: list[tuple[int, ...]] = []
        self.known: set[tuple[int, ...]] = set()
        self.costs: list[int] = []
        # Subset-row cuts: for three players, the tables holding two or more of them sum to
        # at most 1 in any seating (each player sits once).
        self.cuts: list[tuple[int, int, int]] = []
        self.cuts_of_pair: dict[tuple[int, int], list[int]] = {}
        self.cut_duals: list[float] = []
        # Score-group cuts (``_GroupCut``) and their duals; a table's share of them depends
        # only on its players' groups and its size, so it is kept per such signature.
        self.group_cuts: list[_GroupCut] = []
        # Benders cuts over the profiles of score groups (_ProfileCut), kept for every later
        # profiles' programme.
        self.profile_cuts: list[_ProfileCut] = []
        self.group_duals: list[float] = []
        self.group_share: dict[tuple[int, ...], float] = {}
        self.family: list[_GroupCut] | None = None
        # The artificial columns' cost, 0 when a seating is in hand (none then), and their
        # total in the last relaxation.
        self.elastic = 0.0
        self.artificial = 0.0
        self.values: list[float] = []
        self.relaxations = 0

    def hits(self, table: Sequence[int]) -> set[int]:
        """The cuts whose players this table holds two or more of."""
        found: set[int] = set()
        get = self.cuts_of_pair.get
        for pair in combinations(sorted(table), 2):
            found.update(get(pair, ()))
        return found

    def penalty(self, table: Sequence[int]) -> float:
        duals = self.cut_duals
        share = -sum(duals[k] for k in self.hits(table)) if self.cuts else 0.0
        if self.group_cuts:
            share += self.group_penalty(table)
        return share

    def signature(self, table: Sequence[int]) -> tuple[int, ...]:
        group = self.pricer.group
        return tuple(sorted(group[i] for i in table))

    def group_penalty(self, table: Sequence[int]) -> float:
        return self.group_part(self.signature(table), len(table))

    def group_part(self, groups: tuple[int, ...], size: int) -> float:
        """The score-group cuts' share of a table of ``size`` whose players so far are of
        ``groups`` (sorted): all of it for a whole table, a lower bound of it before."""
        if not self.group_cuts:
            return 0.0
        key = (*groups, -size)
        share = self.group_share.get(key)
        if share is None:
            duals = self.group_duals
            share = -sum(
                duals[k] * cut.coefficient(groups, size)
                for k, cut in enumerate(self.group_cuts)
                if duals[k]
            )
            self.group_share[key] = share
        return share

    def add_cut(self, triple: tuple[int, int, int]) -> None:
        k = len(self.cuts)
        self.cuts.append(triple)
        self.cut_duals.append(0.0)
        for pair in combinations(triple, 2):
            self.cuts_of_pair.setdefault(pair, []).append(k)

    def separate(self, values: Sequence[float], most: int) -> int:
        """Add up to ``most`` score-group cuts and ``most`` subset-row cuts the relaxation's
        solution breaks; their count."""
        return self.separate_groups(values, most) + self.separate_rows(values, most)

    def group_cut_family(self) -> list[_GroupCut]:
        """Every score-group cut worth a row: each run of consecutive score groups, each
        share a table size (or 2) makes fractional, with or without one size's count row,
        whose right-hand side is rounded down (else the rows imply it)."""
        if self.family is not None:
            return self.family
        pricer = self.pricer
        players_before = [0] * (pricer.groups + 1)
        for g in pricer.group:
            players_before[g + 1] += 1
        for g in range(pricer.groups):
            players_before[g + 1] += players_before[g]
        family = []
        for scale in sorted({2, *pricer.sizes}):
            rows = [(0, 0)] + [
                (size, k) for size in pricer.sizes if self.counts[size] for k in range(1, scale)
            ]
            for share in range(1, scale):
                if math.gcd(share, scale) != 1:
                    continue
                for first in range(pricer.groups):
                    for last in range(first, pricer.groups):
                        players = players_before[last + 1] - players_before[first]
                        for size, size_share in rows:
                            total = share * players + size_share * self.counts.get(size, 0)
                            if total % scale:
                                family.append(
                                    _GroupCut(
                                        first, last, share, size, size_share, scale, total // scale
                                    )
                                )
        self.family = family
        return family

    def separate_groups(self, values: Sequence[float], most: int) -> int:
        """Add the score-group cuts (``_GroupCut``) the solution breaks the most (at most
        ``most``); their count."""
        weight: dict[tuple[int, ...], float] = {}
        for c, x in enumerate(values):
            if x > EPS:
                key = self.signature(self.columns[c])
                weight[key] = weight.get(key, 0.0) + x
        groups = self.pricer.groups
        signatures = list(weight)
        x = np.array([weight[k] for k in signatures])
        length = np.array([len(k) for k in signatures])
        inside_before = np.zeros((len(signatures), groups + 1), dtype=np.int64)
        for row, key in enumerate(signatures):
            for g in key:
                inside_before[row, g + 1] += 1
        inside_before = inside_before.cumsum(axis=1)
        known = set(self.group_cuts)
        broken: list[tuple[float, int, _GroupCut]] = []
        for number, cut in enumerate(self.group_cut_family()):
            if cut in known or not signatures:
                continue
            inside = inside_before[:, cut.last + 1] - inside_before[:, cut.first]
            extra = cut.size_share * (length == cut.size)
            violation = float(x @ ((cut.share * inside + extra) // cut.scale)) - cut.bound
            if violation > 1e-3:
                broken.append((-violation, number, cut))
        broken.sort(key=lambda item: item[:2])
        for _, _, cut in broken[:most]:
            self.group_cuts.append(cut)
            self.group_duals.append(0.0)
        return min(len(broken), most)

    def separate_rows(self, values: Sequence[float], most: int) -> int:
        """Add up to ``most`` subset-row cuts the relaxation's solution breaks; their count."""
        weight: dict[tuple[int, int, int], float] = {}
        n = self.pricer.n
        for c, x in enumerate(values):
            if x < EPS or x > 1 - EPS:
                continue
            table = self.columns[c]
            inside = set(table)
            for a, b in combinations(table, 2):
                for third in range(n):
                    if third in inside:
                        continue
                    key = tuple(sorted((a, b, third)))
                    weight[key] = weight.get(key, 0.0) + x
            for triple in combinations(table, 3):
                weight[triple] = weight.get(triple, 0.0) + x
        known = set(self.cuts)
        broken = sorted((-w, t) for t, w in weight.items() if w > 1 + 1e-3 and t not in known)[
            :most
        ]
        for _, triple in broken:
            self.add_cut(triple)
        return len(broken)

    def spread(self, table: tuple[int, ...]) -> int:
        value = self.pricer.value
        return _spread([value[i] for i in table])

    def add(self, table: tuple[int, ...]) -> None:
        table = tuple(sorted(table))
        if table not in self.known:
            self.known.add(table)
            self.columns.append(table)
            self.costs.append(self.spread(table))

    def _model(self, columns: Sequence[int], integer: bool) -> highspy.Highs:
        n = self.pricer.n
        size_row = {s: n + k for k, s in enumerate(self.pricer.sizes)}
        h = _highs()
        h.setOptionValue("mip_rel_gap", 0.0)
        # The incumbent comes from our own search: HiGHS's heuristics (sub-MIPs) only cost.
        h.setOptionValue("mip_heuristic_effort", 0.0)
        for heuristic in ("feasibility_jump", "rins", "rens", "root_reduced_cost"):
            h.setOptionValue(f"mip_heuristic_run_{heuristic}", False)
        h.setOptionValue("mip_abs_gap", 1.0 - 1e-3)
        # No probing in presolve: over tens of thousands of tables it took the whole time
        # limit before the first node (a 128-player round 4: the gap-1 programme proved in
        # 33 s instead of 56, the gap-2 one in 48 s instead of not at all in 60).
        h.setOptionValue("presolve_rule_off", PROBING_RULE)
        rows = n + len(size_row)
        lower = np.ones(rows)
        for s, row in size_row.items():
            lower[row] = self.counts[s]
        upper = lower.copy()
        cut_row = rows
        group_row = cut_row + len(self.cuts)
        lower = np.concatenate(
            [lower, np.full(len(self.cuts) + len(self.group_cuts), -highspy.kHighsInf)]
        )
        upper = np.concatenate(
            [upper, np.ones(len(self.cuts)), [float(c.bound) for c in self.group_cuts]]
        )
        rows += len(self.cuts) + len(self.group_cuts)
        empty = np.array([], dtype=np.int32)
        h.addRows(rows, lower, upper, 0, empty, empty, np.array([]))
        starts, indices, coefficients = [], [], []
        for c in columns:
            table = self.columns[c]
            starts.append(len(indices))
            indices.extend(table)
            indices.append(size_row[len(table)])
            indices.extend(sorted(cut_row + k for k in self.hits(table)))
            coefficients.extend([1.0] * (len(indices) - len(coefficients)))
            if self.group_cuts:
                signature = self.signature(table)
                for k, cut in enumerate(self.group_cuts):
                    coefficient = cut.coefficient(signature, len(table))
                    if coefficient:
                        indices.append(group_row + k)
                        coefficients.append(float(coefficient))
        k = len(columns)
        h.addCols(
            k,
            np.array([float(self.costs[c]) for c in columns]),
            np.zeros(k),
            # No upper bound in the relaxation: x <= 1 follows from the rows, and a bound
            # there would let a table's reduced cost be negative at the optimum.
            np.ones(k) if integer else np.full(k, highspy.kHighsInf),
            len(indices),
            np.array(starts, dtype=np.int32),
            np.array(indices, dtype=np.int32),
            np.array(coefficients),
        )
        if integer:
            h.changeColsIntegrality(
                k, np.arange(k, dtype=np.int32), np.array([highspy.HighsVarType.kInteger] * k)
            )
        elif self.elastic:
            # With no seating in hand the relaxation may have no solution over the tables
            # known so far: an artificial column per row (a player left out, a table too few
            # or too many) at a cost above any seating's spread keeps it solvable.
            artificial = [*range(n), *size_row.values(), *size_row.values()]
            signs = [1.0] * (n + len(size_row)) + [-1.0] * len(size_row)
            h.addCols(
                len(artificial),
                np.full(len(artificial), self.elastic),
                np.zeros(len(artificial)),
                np.full(len(artificial), highspy.kHighsInf),
                len(artificial),
                np.arange(len(artificial), dtype=np.int32),
                np.array(artificial, dtype=np.int32),
                np.array(signs),
            )
        return h

    def relax(self) -> tuple[float, list[float], dict[int, float]]:
        h = self._model(range(len(self.columns)), integer=False)
        h.run()
        if h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
            raise _GiveUp("the relaxation failed")
        solution = h.getSolution()
        duals = list(solution.row_dual)
        n = self.pricer.n
        size_duals = {s: duals[n + k] for k, s in enumerate(self.pricer.sizes)}
        cuts = n + len(size_duals)
        self.cut_duals = [min(0.0, d) for d in duals[cuts : cuts + len(self.cuts)]]
        self.group_duals = [min(0.0, d) for d in duals[cuts + len(self.cuts) :]]
        self.group_share = {}
        known = len(self.columns)
        self.values = list(solution.col_value[:known])
        self.artificial = sum(solution.col_value[known:])
        return h.getInfo().objective_function_value, duals[:n], size_duals

    def solve(
        self,
        columns: Sequence[int],
        below: float = math.inf,
        start: Sequence[tuple[int, ...]] = (),
        seconds: float = MIP_SECONDS,
    ) -> tuple[list[tuple[int, ...]] | None, bool]:
        """The best seating over ``columns`` of spread at most ``below`` (None if there is
        none) and whether HiGHS finished (proved it best, or that there is none) within its
        limits. The limit prunes every branch that cannot come under it; ``start``, a
        seating over these columns, is HiGHS's first incumbent (and its answer if it finds
        none better before its limits)."""
        if len(columns) > MAX_TABLES:
            raise _GiveUp("too many tables")
        h = self._model(columns, integer=True)
        h.setOptionValue("time_limit", seconds)
        if below < math.inf:
            h.setOptionValue("objective_bound", below + 0.5)
        if start:
            chosen = set(start)
            solution = highspy.HighsSolution()
            solution.col_value = [1.0 if self.columns[c] in chosen else 0.0 for c in columns]
            solution.value_valid = True
            h.setSolution(solution)
        h.run()
        status = h.getModelStatus()
        if status in (
            highspy.HighsModelStatus.kInfeasible,
            highspy.HighsModelStatus.kObjectiveBound,
        ):
            return None, True
        values = h.getSolution().col_value if h.getInfo().primal_solution_status else []
        tables = [self.columns[c] for c, x in zip(columns, values, strict=False) if x > 0.5]
        return (tables or None), status == highspy.HighsModelStatus.kOptimal


def solve_programme(
    field,
    sizes: Sequence[int],
    plan,
    incumbent: list[list[int]],
    tick: Callable[[int], None] = lambda steps: None,
    known_bound: int = 0,
) -> ProgrammeResult | None:
    """Prove the incumbent's spread and rank offset least, or find a seating better in them,
    among seatings with no repeat and the least short-table excess. An incumbent without
    both (a repeat, or more excess) is beaten by any such seating: the tier then looks for
    one, and returns None when it proves there is none or finds none within its limits.
    ``known_bound``: a lower bound on the spread proved elsewhere (the typed bound), used
    with the relaxation's. Within the limits above; past them the best seating found and
    the best lower bound proved (``proved`` False)."""
    incumbent_key = field.ikey(incumbent)
    pricer = _Pricer(field, sizes, plan, tick)
    programme = _Programme(pricer, sizes)
    index = pricer.index
    best: list[tuple[int, ...]] | None = None
    best_spread: float = math.inf
    if not incumbent_key[0] and incumbent_key[1] == plan.excess:
        for table in incumbent:
            programme.add(tuple(index[p] for p in table))
        best = [tuple(sorted(index[p] for p in t)) for t in incumbent]
        best_spread = incumbent_key[2]
    else:
        # Above the spread of any seating: the relaxation leaves its artificial columns
        # only when no seating without a repeat exists.
        widest = max(field.value.values()) - min(field.value.values())
        programme.elastic = float(2 * widest**2 * sum(s * (s - 1) // 2 for s in sizes) + 1)
    lower = 0
    proved = False
    reason = ""

    def better(tables) -> None:
        nonlocal best, best_spread
        if tables is not None:
            spread = sum(programme.spread(t) for t in tables)
            if spread < best_spread:
                best, best_spread = tables, spread

    relaxed: list = []

    def relaxation():
        """The relaxation over every table (its value z, the duals), solved once."""
        if not relaxed:
            relaxed.extend(_relax_with_cuts(pricer, programme, best_spread))
        return relaxed

    try:
        lower = max(0, known_bound)
        # Many equal players a score group (early rounds of large fields): the profiles of
        # score groups first, seconds where the relaxation over tables takes minutes, and a
        # bound that often proves the incumbent at once. Fewer: after the relaxation has
        # narrowed the incumbent, since their programme grows with its spread.
        many = pricer.n >= PROFILE_GROUP_SIZE * pricer.groups

        def profiles(tries: int, cuts: int = 0) -> None:
            nonlocal lower
            profile_bound, filled = _seat_signatures(
                field, pricer, programme, best_spread, tries, cuts
            )
            lower = max(lower, profile_bound)
            if filled is not None:
                better([tuple(sorted(index[p] for p in t)) for t in filled])

        if best is not None and lower < best_spread and many:
            profiles(PROFILE_TRIES)
        if lower < best_spread:
            z, duals, size_duals = relaxation()
            if programme.artificial > EPS:
                return None  # no seating without a repeat and with the least excess
            lower = max(lower, math.ceil(z - EPS))
        if lower < best_spread:
            # The relaxation's tables by score groups often form a whole seating's profile
            # (equal players are interchangeable to it): seat it without a repeat if we can.
            filled = _seat_profile(field, pricer, programme)
            if filled is not None:
                better([tuple(sorted(index[p] for p in t)) for t in filled])
        if lower < best_spread:
            # A better incumbent from the tables generated so far (cheap, and it narrows the
            # listing below).
            better(
                programme.solve(
                    range(len(programme.columns)), start=best or (), seconds=INCUMBENT_SECONDS
                )[0]
            )
        if best is not None and lower < best_spread and not many:
            profiles(1)
        if lower < best_spread:
            # Tables of reduced cost up to a growing gap: a seating over them whose spread
            # is at most z + gap is the least (a better one would use only tables within
            # that gap, all listed); none at most z + gap proves every seating costs more.
            # No seating lies below ``lower``: a gap short of it could prove nothing.
            z, duals, size_duals = relaxation()
            gap = min(best_spread - z, max(FIRST_GAP, (best_spread - z) / 8, lower - z))
            if best is None:
                gap = FIRST_GAP
            try:
                while lower < best_spread:
                    listed = _list_tables(pricer, programme, duals, size_duals, gap)
                    # Only a seating below the incumbent and within the gap settles anything.
                    tables, finished = programme.solve(
                        listed, below=min(best_spread - 1, math.floor(z + gap + EPS))
                    )
                    if not finished:
                        raise _GiveUp("the programme passed its limits")
                    better(tables)
                    if best_spread <= z + gap + EPS:
                        lower = best_spread
                        break
                    lower = max(lower, math.floor(z + gap + EPS) + 1)
                    gap = min(best_spread - z, gap * 2)
            except _GiveUp:
                # Past the listing's limits (equal players make tables of the same reduced
                # cost by the hundred thousand): the profiles again, cut until one is filled.
                if best is None:
                    raise
                profiles(PROFILE_TRIES, PROFILE_CUTS)
                if lower < best_spread:
                    raise

        def listing() -> list[int]:
            z, duals, size_duals = relaxation()
            return _list_tables(pricer, programme, duals, size_duals, best_spread - z)

        best = _least_offset(
            field,
            programme,
            pricer,
            listing,
            best,
            best_spread,
            many or pricer.n >= OFFSET_LISTING_PLAYERS,
        )
        proved = True
    except _GiveUp as stop:
        reason = str(stop)
        if stop.seating is not None:
            best = stop.seating
    if best is None:
        return None
    if not proved:
        # Its spread unproved, the seating still gets the swaps that lower its rank offset
        # at the same spread (a 245-player round 2 came back at offset 99 without them).
        best = _swap_offset(field, pricer, best)
    return ProgrammeResult(
        [[pricer.order[i] for i in t] for t in best],
        proved,
        best_spread if proved else min(lower, best_spread),
        len(programme.columns),
        programme.relaxations,
        reason,
    )


def _seat_profile(field, pricer, programme) -> list[list[int]] | None:
    """A seating of the relaxation's profile with no repeat meeting, or None.

    The relaxation's solution summed by table signature (the score groups of a table's
    players) counts how many tables of each kind it lays; when those counts are whole, they
    are a profile of spread z, its value, that the repeats of the field may still allow. Its
    seats are given to the players of each group (the short ones to those who must sit
    short, then to the lowest ranked who may), and fill_profile re-seats players among seats
    of their own kind until no table repeats a meeting."""
    counts: dict[tuple[int, ...], float] = {}
    for c, x in enumerate(programme.values):
        if x > EPS:
            key = programme.signature(programme.columns[c])
            counts[key] = counts.get(key, 0.0) + x
    if any(abs(x - round(x)) > 1e-6 for x in counts.values()):
        return None
    return _fill_counts(field, pricer, {key: round(x) for key, x in counts.items()})


def _fill_counts(field, pricer, counts: dict[tuple[int, ...], int]) -> list[list[int]] | None:
    """A seating with ``counts[signature]`` tables of each signature and no repeat, or None
    (see _seat_profile)."""
    order, group = pricer.order, pricer.group
    short_seats: dict[int, int] = {}
    for key, x in counts.items():
        if pricer.short[len(key)]:
            for g in key:
                short_seats[g] = short_seats.get(g, 0) + x
    short_pool: dict[int, list[int]] = {}
    full_pool: dict[int, list[int]] = {}
    members: dict[int, list[int]] = {}
    for i in range(pricer.n):
        members.setdefault(group[i], []).append(i)
    for g, players in members.items():
        # Who must sit short first, then the lowest ranked of those who may, never one
        # who may not (a pool that still breaks a rule has more seats than players for it).
        ranked = sorted(
            players,
            key=lambda i: (pricer.may_full[i], not pricer.may_short[i], -field.position[order[i]]),
        )
        k = short_seats.get(g, 0)
        short_pool[g], full_pool[g] = ranked[:k], ranked[k:]
        if any(not pricer.may_short[i] for i in short_pool[g]) or any(
            not pricer.may_full[i] for i in full_pool[g]
        ):
            return None
    tables: list[list[int]] = []
    for key, x in sorted(counts.items()):
        pool = short_pool if pricer.short[len(key)] else full_pool
        for _ in range(x):
            tables.append([order[pool[g].pop()] for g in key])
    filled = _fill_without_repeat(field, tables, "profile")
    if filled is None:
        # The short seats given to others of the group than its lowest ranked (the rank
        # offset's stage sees to them after): two who met and share the lowest places of
        # a small group cannot both sit short.
        index = pricer.index
        filled = _fill_by_programme(
            field,
            tables,
            lambda pid, short: (pricer.may_short if short else pricer.may_full)[index[pid]],
        )
    return filled


def _fill_without_repeat(field, tables, purpose: str) -> list[list[int]] | None:
    """``tables`` re-seated, players among seats of their own kind (same points, same kind
    of table), so that no table repeats a meeting, or None: fill_profile's search first
    (PROFILE_FILLS seeded tries), then the assignment programme (_fill_by_programme)."""
    for attempt in range(PROFILE_FILLS):
        rng = random.Random(f"irondie-pods-{purpose}:{attempt}")
        filled = fill_profile(field, tables, rng, PROFILE_FILL_STEPS)
        if filled is not None and not any(field.repeats(t) for t in filled):
            return filled
    return _fill_by_programme(field, tables)


def _fill_by_programme(field, tables, may_sit=None, short_cost=None) -> list[list[int]] | None:
    """fill_profile's re-seating as an assignment programme: one 0/1 variable for each
    player and each table with a seat of the player's kind; each player seated once, each
    table given its count of each kind, no two players who met at one table. Exact where
    the search is not: small score groups of players who met each other (shared places)
    leave the search at dead ends a 246-player round 2 never got out of, where this finds
    a filling at once. A seat's kind is its points and its kind of table; with ``may_sit``
    (player, short table: whether they may sit there) only its points, so who sits short
    is chosen too, at the least sum of ``short_cost`` (player: their cost at a short table).
    None when there is none, or none within FILL_NODES nodes, or the programme would pass
    FILL_VARIABLES variables; with costs, the best filling found within them."""
    kind_of: dict[int, tuple] = {}
    seats: list[dict[tuple, int]] = []
    for table in tables:
        counts: dict[tuple, int] = {}
        short = field.is_short(len(table))
        for pid in table:
            kind = (field.value[pid],) if may_sit else (field.value[pid], short)
            kind_of[pid] = kind
            counts[kind] = counts.get(kind, 0) + 1
        seats.append(counts)
    tables_of: dict[tuple, list[int]] = {}
    for t, counts in enumerate(seats):
        for kind in counts:
            tables_of.setdefault(kind, []).append(t)
    players = sorted(kind_of)
    variable: dict[tuple[int, int], int] = {}
    for pid in players:
        for t in tables_of[kind_of[pid]]:
            if may_sit is None or may_sit(pid, field.is_short(len(tables[t]))):
                variable[pid, t] = len(variable)
    count = len(variable)
    if count > FILL_VARIABLES:
        return None
    h = _highs()
    h.setOptionValue("mip_max_nodes", FILL_NODES)
    h.addVars(count, np.zeros(count), np.ones(count))
    if short_cost:
        costs = np.zeros(count)
        for (pid, t), column in variable.items():
            if field.is_short(len(tables[t])):
                costs[column] = short_cost.get(pid, 0.0)
        h.changeColsCost(count, np.arange(count, dtype=np.int32), costs)
    h.changeColsIntegrality(
        count,
        np.arange(count, dtype=np.int32),
        np.array([highspy.HighsVarType.kInteger] * count),
    )

    def row(lower: float, upper: float, columns: list[int]) -> None:
        h.addRow(
            lower, upper, len(columns), np.array(columns, dtype=np.int32), np.ones(len(columns))
        )

    for pid in players:
        row(1.0, 1.0, [variable[pid, t] for t in tables_of[kind_of[pid]] if (pid, t) in variable])
    members: dict[tuple, list[int]] = {}
    for pid in players:
        members.setdefault(kind_of[pid], []).append(pid)
    for t, counts in enumerate(seats):
        for kind, number in counts.items():
            columns = [variable[pid, t] for pid in members[kind] if (pid, t) in variable]
            row(float(number), float(number), columns)
    for pid in players:
        for other in field.opp[pid]:
            if other > pid and other in kind_of:
                for t in tables_of[kind_of[pid]]:
                    if (pid, t) in variable and (other, t) in variable:
                        row(-highspy.kHighsInf, 1.0, [variable[pid, t], variable[other, t]])
    h.run()
    if not h.getInfo().primal_solution_status:
        return None
    values = h.getSolution().col_value
    filled: list[list[int]] = [[] for _ in tables]
    for (pid, t), column in variable.items():
        if values[column] > 0.5:
            filled[t].append(pid)
    return filled


def _seat_signatures(
    field, pricer, programme, below: int, tries: int, most_cuts: int = 0
) -> tuple[int, list[list[int]] | None]:
    """The profiles of score groups (how many tables of each signature a seating lays): a
    lower bound on the spread, and a seating of spread below ``below`` if ``tries`` profiles
    find one.

    The least profile of the score groups' counts, the table sizes, who may sit short and
    the score-group cuts, over the signatures of spread below ``below`` that some table
    without a repeat has, is a relaxation of the seating: every seating below ``below`` has
    such a profile, of its own spread. Its least spread (``below`` when there is none) bounds
    every seating's; where equal players are many the relaxation over tables misses what it
    sees, whole tables of a signature (a 219-player round 4: 45 against 47, the optimum).
    The least profile is then filled without a repeat (_fill_counts): filled, it proves the
    round. A profile no seating fills even fractionally gets a Benders cut (_Fillability),
    ``most_cuts`` in all, that every seating's profile keeps: the bound rises with them (a
    202-player round 6: 144, the relaxation over tables 173, four cuts later 176, filled).
    A profile that can be filled fractionally but not without a repeat is excluded and the
    next tried, ``tries`` in all (a heuristic: that row holds only for this profile)."""
    model = _profile_model(pricer, programme, below)
    if model is None:
        return below, None
    h, signatures = model
    k = len(signatures)
    fillability = _Fillability(pricer, signatures)
    bound = 0
    cuts = 0
    excluded = False  # a profile the filling missed is excluded: the bound stays as it was
    while True:
        h.run()
        status = h.getModelStatus()
        if status == highspy.HighsModelStatus.kInfeasible:
            # No profile, so no seating, below ``below`` (unless one was excluded).
            return (bound if excluded else below), None
        # HiGHS's dual bound holds whether it finished or stopped at a limit, and every cut
        # holds for every seating's profile; an excluded profile may be some seating's.
        dual_bound = h.getInfo().mip_dual_bound
        if math.isfinite(dual_bound) and not excluded:
            bound = max(bound, min(below, math.ceil(dual_bound - EPS)))
        if status != highspy.HighsModelStatus.kOptimal:
            return bound, None
        if h.getInfo().objective_function_value > below - 0.5:
            return bound, None
        values = [round(x) for x in h.getSolution().col_value]
        used = [c for c in range(k) if values[c]]
        # No seating, not even a fractional one, has this profile: a row that every
        # seating's profile keeps and this one breaks (a Benders feasibility cut).
        if cuts < most_cuts and _add_fillability_cut(h, programme, fillability, values, used):
            cuts += 1
            continue
        if tries <= 0:
            return bound, None
        tries -= 1
        filled = _fill_counts(field, pricer, {signatures[c]: values[c] for c in used})
        if filled is not None:
            return bound, filled
        # Exclude this profile (and those holding all its tables and more of them).
        excluded = True
        h.addRow(
            -highspy.kHighsInf,
            float(sum(values) - 1),
            len(used),
            np.array(used, dtype=np.int32),
            np.ones(len(used)),
        )


def _add_fillability_cut(
    h: highspy.Highs, programme, fillability: _Fillability, values, used
) -> bool:
    """Add the cut breaking this profile if it cannot be filled fractionally (see
    _Fillability), to ``h`` and to the programme's for later profiles' programmes (the
    short tables' cap and offset); whether it added one."""
    cut = fillability.cut(values, used)
    if cut is None:
        return False
    programme.profile_cuts.append(cut)
    _add_profile_cut(h, cut, fillability.signatures)
    return True


def _add_profile_cut(h: highspy.Highs, cut: _ProfileCut, signatures) -> None:
    """The cut as a row over the profiles' programme's counts of ``signatures``."""
    coefficients = np.array([cut.coefficient(key) for key in signatures])
    columns = np.flatnonzero(coefficients)
    h.addRow(
        -highspy.kHighsInf, cut.most, len(columns), columns.astype(np.int32), coefficients[columns]
    )


@dataclass
class _ProfileCut:
    """A Benders cut over the profiles (see _Fillability): sum(mu_s y_s) <= most, mu_s
    minus the heaviest table of s for the players' weights pi (computed when first asked)."""

    pi: np.ndarray
    mu: dict[tuple[int, ...], float]
    most: float
    fillability: _Fillability
    # A cut around who sits short (_Fillability.cut with ``short``): the players' weights
    # at short tables, ``pi`` those at full ones; the row then has sum((pi_short_i - pi_i)
    # z_i) over the players' 0/1 "sits short" besides, and ``most`` counts everyone full.
    pi_short: np.ndarray | None = None

    def coefficient(self, key: tuple[int, ...]) -> float:
        if key not in self.mu:
            short = self.pi_short is not None and self.fillability.pricer.short[len(key)]
            weight = self.fillability.heaviest(key, self.pi_short if short else self.pi)
            self.mu[key] = -weight if abs(weight) > 1e-9 else 0.0
        return self.mu[key]

    def sits_short(self, i: int) -> float:
        """The coefficient of player ``i``'s "sits short" in the row."""
        return 0.0 if self.pi_short is None else float(self.pi_short[i] - self.pi[i])


class _Fillability:
    """Whether a profile of the score groups can be filled even fractionally, and the cut
    that says why not (logic-based Benders over the profiles' programme).

    A profile y (tables of each signature) is filled fractionally when some x >= 0 over the
    tables without a repeat seats each player once (sum of x over a player's tables = 1)
    and lays y_s tables of each signature s (sum of x over s's tables = y_s). When none
    does, Farkas's lemma gives weights pi (players) and mu (signatures), with
    sum(pi over T) + mu_s <= 0 for every table T of every signature s and
    sum(pi) + sum(mu_s y_s) > 0: the row sum(mu_s y'_s) <= -sum(pi) then holds for every
    profile y' of a seating and breaks y. The weights come from the phase-one programme
    over the tables of the profile's own signatures (all listed, so their mu_s are exact);
    any other signature gets mu_s = -(its heaviest table without a repeat, by a search; past
    its steps each group's largest weights, repeats ignored), no more than every one of its
    tables allows. A 202-player round 6 whose profiles' least was 144 against a best seating
    of 190 (the relaxation over tables: 173): four cuts, a profile of 176 filled, the
    optimum (31 cuts with mu from each group's largest weights alone)."""

    def __init__(self, pricer, signatures: list[tuple[int, ...]]):
        self.pricer = pricer
        self.signatures = signatures
        self.members: dict[int, list[int]] = {}
        for i in range(pricer.n):
            self.members.setdefault(pricer.group[i], []).append(i)
        self.listed: dict[int, np.ndarray | None] = {}

    def tables(self, c: int) -> np.ndarray | None:
        """Every table without a repeat of signature ``c`` (one row of player indices
        each), or None past PROFILE_CUT_TABLES."""
        if c not in self.listed:
            self.listed[c] = self._list(self.signatures[c])
        return self.listed[c]

    def _list(self, key: tuple[int, ...]) -> np.ndarray | None:
        pricer, met = self.pricer, self.pricer.met
        allowed = pricer.allowed(len(key))
        found: list[tuple[int, ...]] = []
        parts = sorted(Counter(key).items())

        def extend(part: int, chosen: tuple[int, ...]) -> bool:
            if part == len(parts):
                found.append(chosen)
                return len(found) <= PROFILE_CUT_TABLES
            group, seats = parts[part]
            pool = [
                i
                for i in self.members[group]
                if allowed[i] and not any(i in met[j] for j in chosen)
            ]
            for picked in combinations(pool, seats):
                if any(b in met[a] for a, b in combinations(picked, 2)):
                    continue
                if not extend(part + 1, chosen + picked):
                    return False
            return True

        if not extend(0, ()):
            return None
        return np.array(found, dtype=np.int32).reshape(len(found), len(key))

    def cut(self, values: list[int], used: list[int], short=None) -> _ProfileCut | None:
        """The cut breaking the profile ``values`` (signatures ``used``), or None when it
        can be filled fractionally or its signatures have too many tables to list.

        With ``short`` (who sits short, a set of players) the filling must seat exactly
        those at short tables: each player has a row for each kind of table (seated once
        at the kind chosen, never at the other), so the weights are per kind and the row
        holds for every seating whoever sits short in it (see _ProfileCut.pi_short)."""
        listed = [self.tables(c) for c in used]
        if any(t is None for t in listed) or sum(len(t) for t in listed) > PROFILE_CUT_TABLES:
            return None
        n = self.pricer.n
        kinds = 1 if short is None else 2
        players = kinds * n
        rows = players + len(used)
        if short is None:
            seated = [1.0] * n
        else:
            seated = [0.0 if i in short else 1.0 for i in range(n)]
            seated += [1.0 if i in short else 0.0 for i in range(n)]
        target = np.array(seated + [float(values[c]) for c in used])
        h = _highs()
        h.addRows(
            rows, target, target, 0, np.zeros(rows, dtype=np.int32), np.array([], np.int32), []
        )
        # Phase one: every row's excess either way costs 1, the tables nothing.
        h.addCols(
            2 * rows,
            np.ones(2 * rows),
            np.zeros(2 * rows),
            np.full(2 * rows, highspy.kHighsInf),
            2 * rows,
            np.arange(2 * rows, dtype=np.int32),
            np.tile(np.arange(rows, dtype=np.int32), 2),
            np.concatenate([np.ones(rows), -np.ones(rows)]),
        )
        for position, tables in enumerate(listed):
            count = len(tables)
            if not count:
                continue
            size = tables.shape[1]
            rows_of = tables + n if kinds == 2 and self.pricer.short[size] else tables
            entries = np.hstack([rows_of, np.full((count, 1), players + position, dtype=np.int32)])
            h.addCols(
                count,
                np.zeros(count),
                np.zeros(count),
                np.full(count, highspy.kHighsInf),
                count * (size + 1),
                np.arange(0, count * (size + 1), size + 1, dtype=np.int32),
                entries.ravel(),
                np.ones(count * (size + 1)),
            )
        h.run()
        if h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
            return None
        if h.getInfo().objective_function_value < EPS:
            return None  # filled fractionally
        weights = np.array(h.getSolution().row_dual)
        # Whatever the weights pi, these mu make the row hold for every seating's profile
        # (the players' weight = the sum of its tables' weights <= sum(y_s * the heaviest
        # table of s)); the programme's own pi make it break this profile (its mu are at
        # least the programme's own).
        pi = weights[:n]
        pi_short = weights[n:players] if kinds == 2 else None
        mu: dict[tuple[int, ...], float] = {}
        for position, c in enumerate(used):
            tables = listed[position]
            at = pi_short if pi_short is not None and self.pricer.short[tables.shape[1]] else pi
            # A signature with no table at all takes any mu: the programme's own.
            mu[self.signatures[c]] = (
                -float(at[tables].sum(axis=1).max()) if len(tables) else weights[players + position]
            )
        # A margin for the sums' rounding: the row must never cut off a seating's profile.
        largest = float(np.abs(weights[:players]).max(initial=0))
        margin = 1e-6 * (1.0 + (len(self.signatures) + players) * largest)
        return _ProfileCut(pi, mu, float(-pi.sum() + margin), self, pi_short)

    def heaviest(self, key: tuple[int, ...], pi: np.ndarray) -> float:
        """At least the weight of every table of this signature: the heaviest table
        without a repeat (a search of HEAVIEST_STEPS steps), else each group's largest
        weights among those allowed at its size, repeats ignored."""
        allowed = self.pricer.allowed(len(key))
        met = self.pricer.met
        parts = []
        for group, seats in sorted(Counter(key).items()):
            pool = sorted((i for i in self.members[group] if allowed[i]), key=lambda i: -pi[i])
            parts.append((seats, pool))
        # The most the parts from each on can add, repeats ignored.
        rest = [0.0] * (len(parts) + 1)
        for p in range(len(parts) - 1, -1, -1):
            seats, pool = parts[p]
            rest[p] = rest[p + 1] + sum(pi[i] for i in pool[:seats])
        best = [-math.inf]
        steps = [HEAVIEST_STEPS]

        def extend(part: int, start: int, need: int, chosen: list[int], weight: float) -> bool:
            """False once out of steps."""
            if need == 0:
                if part + 1 == len(parts):
                    best[0] = max(best[0], weight)
                    return True
                return extend(part + 1, 0, parts[part + 1][0], chosen, weight)
            steps[0] -= 1
            if steps[0] < 0:
                return False
            pool = parts[part][1]
            for position in range(start, len(pool) - need + 1):
                i = pool[position]
                # This player and the next need - 1 of the pool, the later parts at most.
                top = weight + sum(pi[j] for j in pool[position : position + need])
                if top + rest[part + 1] <= best[0] + 1e-12:
                    break
                if any(i in met[j] for j in chosen):
                    continue
                chosen.append(i)
                going = extend(part, position + 1, need - 1, chosen, weight + pi[i])
                chosen.pop()
                if not going:
                    return False
            return True

        if extend(0, 0, parts[0][0], [], 0.0):
            return best[0] if best[0] > -math.inf else rest[0]
        return rest[0]


def _profile_model(pricer, programme, below: int):
    """The profiles' integer programme (see _seat_signatures): one count a signature of
    spread below ``below`` that some table without a repeat has, the spread its objective;
    with those signatures, or None when there is none."""
    levels = pricer.levels

    def spread(key: tuple[int, ...]) -> int:
        return _spread([levels[g] for g in key])

    signatures = [
        key
        for size in pricer.sizes
        for key in combinations_with_replacement(range(pricer.groups), size)
        if spread(key) < below and _has_table(pricer, key)
    ]
    if not signatures:
        return None
    costs = [float(spread(key)) for key in signatures]
    k = len(signatures)
    h = _highs()
    h.addVars(k, np.zeros(k), np.full(k, highspy.kHighsInf))
    h.changeColsCost(k, np.arange(k, dtype=np.int32), np.array(costs))
    h.changeColsIntegrality(
        k, np.arange(k, dtype=np.int32), np.array([highspy.HighsVarType.kInteger] * k)
    )
    short = [pricer.short[len(key)] for key in signatures]
    for g in range(pricer.groups):
        members = [i for i in range(pricer.n) if pricer.group[i] == g]
        seats = [key.count(g) for key in signatures]
        columns = [c for c in range(k) if seats[c]]
        h.addRow(
            len(members),
            len(members),
            len(columns),
            np.array(columns, dtype=np.int32),
            np.array([float(seats[c]) for c in columns]),
        )
        # Short seats: at least the group's "must" players, at most those who may.
        must = sum(1 for i in members if not pricer.may_full[i])
        may = sum(1 for i in members if pricer.may_short[i])
        short_columns = [c for c in columns if short[c]]
        if short_columns:
            h.addRow(
                must,
                may,
                len(short_columns),
                np.array(short_columns, dtype=np.int32),
                np.array([float(seats[c]) for c in short_columns]),
            )
    for size in pricer.sizes:
        columns = [c for c in range(k) if len(signatures[c]) == size]
        count = programme.counts[size]
        h.addRow(
            count, count, len(columns), np.array(columns, dtype=np.int32), np.ones(len(columns))
        )
    for cut in programme.group_cuts:
        coefficient = [cut.coefficient(key, len(key)) for key in signatures]
        columns = [c for c in range(k) if coefficient[c]]
        h.addRow(
            -highspy.kHighsInf,
            cut.bound,
            len(columns),
            np.array(columns, dtype=np.int32),
            np.array([float(coefficient[c]) for c in columns]),
        )
    for profile_cut in programme.profile_cuts:
        _add_profile_cut(h, profile_cut, signatures)
    return h, signatures


def _has_table(pricer, key: tuple[int, ...]) -> bool:
    """Whether some table of the players allowed at its size, of these score groups (sorted),
    has no repeat meeting."""
    allowed = pricer.allowed(len(key))
    pools = [[i for i in range(pricer.n) if pricer.group[i] == g and allowed[i]] for g in key]
    met = pricer.met
    steps = [SIGNATURE_STEPS]

    def extend(chosen: list[int], position: int) -> bool:
        if position == len(key):
            return True
        steps[0] -= 1
        if steps[0] < 0:
            return True  # not settled within the budget: the filling will tell
        for i in pools[position]:
            if position and key[position] == key[position - 1] and i <= chosen[-1]:
                continue
            if any(i in met[j] or i == j for j in chosen):
                continue
            chosen.append(i)
            if extend(chosen, position + 1):
                return True
            chosen.pop()
        return False

    return extend([], 0)


def _relax_with_cuts(pricer, programme, best_spread: int):
    """The linear relaxation over every table (column generation), lifted by rounds of
    subset-row cuts while they raise it; its value and duals."""
    lifted: list[float] = []
    while True:
        while True:
            programme.relaxations += 1
            if programme.relaxations > MAX_RELAXATIONS:
                raise _GiveUp("too many relaxations")
            z, duals, size_duals = programme.relax()
            found = pricer.search(
                duals,
                size_duals,
                -EPS,
                best_only=True,
                penalty=programme.penalty,
                partial=programme.group_part,
            )
            if not found:
                break
            for _, table in found:
                programme.add(table)
        if math.ceil(z - EPS) >= best_spread or len(lifted) >= CUT_ROUNDS:
            return z, duals, size_duals
        if len(lifted) >= 2 and z <= lifted[-2] + EPS:
            return z, duals, size_duals  # two rounds of cuts without a gain
        lifted.append(z)
        if not programme.separate(programme.values, CUTS_PER_ROUND):
            return z, duals, size_duals


def _list_tables(pricer, programme, duals, size_duals, gap: float) -> list[int]:
    """Every table of reduced cost at most ``gap`` (added to the programme), by column."""
    # A margin over the search's own tolerance: a table of reduced cost exactly ``gap``
    # (a seating at exactly z + gap whose other tables cost 0) must be listed.
    found = pricer.search(
        duals,
        size_duals,
        gap + 4 * EPS,
        best_only=False,
        penalty=programme.penalty,
        partial=programme.group_part,
    )
    if len(found) > MAX_TABLES:
        raise _GiveUp("too many tables")
    for _, table in found:
        programme.add(table)
    where = {t: c for c, t in enumerate(programme.columns)}
    return sorted({where[tuple(sorted(t))] for _, t in found})


def _swap_offset(field, pricer, tables):
    """Swap a player at a short table with one of the same points and short tables ranked
    below them at a full table, while that lowers the rank offset without a repeat meeting
    (the spread and the excess do not change): offset 0 needs no programme."""
    order = pricer.order
    tables = [list(t) for t in tables]
    met = pricer.met

    def clean(i: int, table: list[int], leaving: int) -> bool:
        return not any(m in met[i] for m in table if m != leaving)

    def offset() -> int:
        return field.cost([[order[i] for i in t] for t in tables]).short_rank_offset

    current = offset()
    improved = True
    while current and improved:
        improved = False
        for t, u in combinations(range(len(tables)), 2):
            if field.is_short(len(tables[t])) == field.is_short(len(tables[u])):
                continue
            short, full = (t, u) if field.is_short(len(tables[t])) else (u, t)
            for a in list(tables[short]):
                for b in list(tables[full]):
                    pa, pb = order[a], order[b]
                    if (field.value[pa], field.short[pa]) != (field.value[pb], field.short[pb]):
                        continue
                    if field.position[pb] < field.position[pa]:
                        continue
                    if not (clean(b, tables[short], a) and clean(a, tables[full], b)):
                        continue
                    tables[short][tables[short].index(a)] = b
                    tables[full][tables[full].index(b)] = a
                    after = offset()
                    if after < current:
                        current, improved = after, True
                        break
                    tables[short][tables[short].index(b)] = a
                    tables[full][tables[full].index(a)] = b
                if improved:
                    break
            if improved:
                break
    return [tuple(sorted(t)) for t in tables]


def _refill_offset(field, pricer, seated):
    """The seating's short seats of each class (points, short tables so far) given to the
    class's lowest ranked players (rank offset 0), then re-seated within each kind of seat
    until no table repeats a meeting (fill_profile); the spread is unchanged. None when the
    filling finds no such seating."""
    index = pricer.index
    classes: dict[tuple, list[int]] = {}
    short_seats: dict[tuple, int] = {}
    for table in seated:
        short = field.is_short(len(table))
        for pid in table:
            cls = (field.value[pid], field.short[pid])
            classes.setdefault(cls, []).append(pid)
            short_seats[cls] = short_seats.get(cls, 0) + short
    goes_short: set[int] = set()
    for cls, members in classes.items():
        ranked = sorted(members, key=lambda pid: -field.position[pid])
        goes_short.update(ranked[: short_seats[cls]])
    # Seats by class and kind; the players who take them, in the seating's order.
    pools: dict[tuple, list[int]] = {}
    for cls, members in classes.items():
        for pid in members:
            pools.setdefault((*cls, pid in goes_short), []).append(pid)
    tables = []
    for table in seated:
        short = field.is_short(len(table))
        tables.append([pools[(field.value[pid], field.short[pid], short)].pop() for pid in table])
    filled = _fill_without_repeat(field, tables, "offset")
    if filled is None or field.cost(filled).short_rank_offset:
        return None
    return [tuple(sorted(index[p] for p in t)) for t in filled]


def _least_offset(field, programme, pricer, listing, best, best_spread, short_first):
    """Among seatings of spread ``best_spread`` over the tables ``listing()`` lists (all that
    any such seating can use), one of least short-table rank offset.

    Within one class (points, short tables) of players who may sit either way, with k of
    its players short, the offset is the sum over those k of the class's players ranked
    below them, less k(k - 1) / 2 (the pairs of short players counted there): linear in
    the tables, plus one choice of k a class (0/1 variables y_k, sum 1, sum of k y_k the
    class's short players). Before it, swaps, a refill and the seating's own profile; then
    the short tables' programme (_short_table_offset), before the listing when
    ``short_first``, else where the listing stops short."""
    order = pricer.order
    best = _swap_offset(field, pricer, best)
    seated = [[order[i] for i in t] for t in best]
    if field.cost(seated).short_rank_offset == 0:
        return best
    refilled = _refill_offset(field, pricer, seated)
    if refilled is not None:
        return refilled
    classes, below, class_of = _offset_classes(field, pricer)
    sizes = [len(members) for members in classes]
    # The least offset of this seating's profile (its tables' points and sizes): the
    # profile fixes how many of each class sit short, so the offset is linear in who does.
    index = pricer.index
    reseated = _fill_by_programme(
        field,
        seated,
        lambda pid, short: (pricer.may_short if short else pricer.may_full)[index[pid]],
        {order[i]: float(rank) for i, rank in below.items()},
    )
    if reseated is not None:
        offset = field.cost(reseated).short_rank_offset
        if offset < field.cost(seated).short_rank_offset:
            best = [tuple(sorted(index[p] for p in t)) for t in reseated]
            if offset == 0:
                return best

    def by_listing():
        try:
            listed = listing()
        except _GiveUp as stop:
            raise _GiveUp(str(stop), best) from None
        h = programme._model(listed, integer=True)
        k = len(listed)
        # The spread held at its least (a row), the offset the objective: a weighted sum of the
        # two lets the relaxation trade spread for offset and proves nothing.
        h.addRow(
            -highspy.kHighsInf,
            float(best_spread),
            k,
            np.arange(k, dtype=np.int32),
            np.array([float(programme.costs[c]) for c in listed]),
        )
        costs = []
        short_in: list[list[int]] = [[] for _ in sizes]  # per class: (column, members) entries
        for position, c in enumerate(listed):
            table = programme.columns[c]
            cost = 0.0
            if field.is_short(len(table)):
                for i in table:
                    if i in below:
                        cost += below[i]
                        short_in[class_of[i]].append(position)
            costs.append(cost)
        h.changeColsCost(k, np.arange(k, dtype=np.int32), np.array(costs))
        for number, m in enumerate(sizes):
            ys = _add_short_count(h, m)
            # sum over short columns of this class's players in them - sum t y_t = 0
            counts: dict[int, float] = {}
            for position in short_in[number]:
                counts[position] = counts.get(position, 0.0) + 1.0
            index = [*counts, *ys.tolist()]
            value = [*counts.values(), *(-float(t) for t in range(m + 1))]
            h.addRow(0.0, 0.0, len(index), np.array(index, dtype=np.int32), np.array(value))
        # The seating in hand as HiGHS's first incumbent.
        chosen = set(best)
        start = [1.0 if programme.columns[c] in chosen else 0.0 for c in listed]
        for number, m in enumerate(sizes):
            short_here = sum(
                1 for t in best if field.is_short(len(t)) for i in t if class_of.get(i) == number
            )
            start += [1.0 if t == short_here else 0.0 for t in range(m + 1)]
        solution = highspy.HighsSolution()
        solution.col_value = start
        solution.value_valid = True
        h.setSolution(solution)
        h.run()
        values = h.getSolution().col_value if h.getInfo().primal_solution_status else []
        seating = [
            programme.columns[listed[position]] for position, x in enumerate(values[:k]) if x > 0.5
        ]
        if seating and sum(programme.spread(t) for t in seating) != best_spread:
            raise _GiveUp("the rank offset programme lost the least spread")
        if h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
            # Its best seating so far keeps the least spread and an offset no worse.
            raise _GiveUp("the rank offset programme passed its limits", seating or None)
        return seating

    if short_first:
        for by_player in (True, False):
            best, least = _short_table_offset(
                field, pricer, programme, best, best_spread, by_player
            )
            if least:
                return best
        return by_listing()
    try:
        return by_listing()
    except _GiveUp as stop:
        best, least = _short_table_offset(
            field, pricer, programme, stop.seating or best, best_spread
        )
        if least:
            return best
        raise _GiveUp(str(stop), best) from None


def _offset_classes(field, pricer):
    """The rank offset's classes: players who may sit either way, by points and short
    tables so far (lists of indices); for each such player, how many of their class are
    ranked below them, and their class's number."""
    order = pricer.order
    by_key: dict[tuple, list[int]] = {}
    for i, pid in enumerate(order):
        if pricer.may_short[i] and pricer.may_full[i]:
            by_key.setdefault((field.value[pid], field.short[pid]), []).append(i)
    classes = list(by_key.values())
    below: dict[int, int] = {}
    class_of: dict[int, int] = {}
    for number, members in enumerate(classes):
        ranked = sorted(members, key=lambda i: field.position[order[i]])
        for place, i in enumerate(ranked):
            below[i] = len(ranked) - place - 1
            class_of[i] = number
    return classes, below, class_of


def _add_short_count(h: highspy.Highs, most: int) -> np.ndarray:
    """A class's count k of short players as 0/1 choices y_0 .. y_most (sum 1), each of
    cost -k(k - 1)/2, added to ``h``; their columns. The offset of a class is the sum over
    its short players of those ranked below them, less that (see _least_offset)."""
    first = h.getNumCol()
    h.addCols(
        most + 1,
        np.array([-float(t * (t - 1) // 2) for t in range(most + 1)]),
        np.zeros(most + 1),
        np.ones(most + 1),
        0,
        np.zeros(most + 1, dtype=np.int32),
        np.array([], dtype=np.int32),
        np.array([]),
    )
    ys = np.arange(first, first + most + 1, dtype=np.int32)
    h.changeColsIntegrality(most + 1, ys, np.array([highspy.HighsVarType.kInteger] * (most + 1)))
    h.addRow(1.0, 1.0, most + 1, ys, np.ones(most + 1))
    return ys


@dataclass(frozen=True)
class _OffsetColumn:
    """A column of _short_table_offset's programme: a short table listed (its players), a
    player's 0/1 "sits short" (players of one), or a count of tables of a signature."""

    cost: float = 0.0  # the offset it adds
    lower: float = 0.0
    upper: float = 1.0
    signature: tuple[int, ...] | None = None  # a table's score groups (None: not a table)
    players: tuple[int, ...] | None = None
    short_seats: dict = dataclass_field(
        default_factory=dict
    )  # group: short seats it takes (+) or lays (-)
    classes: dict = dataclass_field(default_factory=dict)  # offset class: its players short here


def _short_table_offset(field, pricer, programme, best, best_spread, by_player=False):
    """The least rank offset of any seating of spread ``best_spread``, by who sits short.

    The offset counts only who sits short, and short tables are few: they are columns of
    their own (every short table without a repeat and of spread at most ``best_spread``),
    the full tables are counted by signature as in _seat_signatures, and the offset is the
    objective (one choice of k a class, as in _least_offset). A seating of offset below the
    current one seats short only players with fewer than that many of their class below
    them not short, so only those are listed. Past MAX_TABLES short tables, the short ones
    are counted by signature too, with a 0/1 choice of who sits short (a weaker relaxation:
    it does not see who met at a short table), as always ``by_player`` (a few thousand
    columns where the listing has tens of thousands). Either way a relaxation of the
    seatings of that spread and of a smaller offset: its least offset bounds theirs (none:
    the current offset is the least). Its choice is filled without a repeat; where none
    fills it, a Benders cut around who sits short (_Fillability.cut with ``short``), that
    every seating keeps, and the next choice, OFFSET_CUTS in all (by player only). Returns
    the seating in hand or a better one, and whether its offset is proved the least."""
    order, index, group = pricer.order, pricer.index, pricer.group
    seated = [[order[i] for i in t] for t in best]
    current = field.cost(seated).short_rank_offset
    classes, below, class_of = _offset_classes(field, pricer)
    short_sizes = [size for size in pricer.sizes if pricer.short[size]]
    seats = sum(size * programme.counts[size] for size in short_sizes)
    candidates = [
        i
        for i in range(pricer.n)
        if pricer.may_short[i] and (i not in below or below[i] < seats + current - 1)
    ]
    short_tables = None
    if not by_player:
        short_tables = _short_tables(pricer, candidates, short_sizes, best_spread)
        if short_tables is None:
            # Too many to list: only those no wider than a profile of this spread allows.
            most_spread = _short_spread_cap(pricer, programme, best_spread)
            short_tables = _short_tables(pricer, candidates, short_sizes, most_spread)
    levels = pricer.levels

    def spread(key: tuple[int, ...]) -> int:
        return _spread([levels[g] for g in key])

    def signatures(short: bool) -> list[tuple[int, ...]]:
        return [
            key
            for size in pricer.sizes
            if pricer.short[size] == short
            for key in combinations_with_replacement(range(pricer.groups), size)
            if spread(key) <= best_spread and _has_table(pricer, key)
        ]

    columns: list[_OffsetColumn] = []
    if short_tables is not None:
        for table in short_tables:
            columns.append(
                _OffsetColumn(
                    cost=float(sum(below.get(i, 0) for i in table)),
                    signature=tuple(sorted(group[i] for i in table)),
                    players=table,
                    classes=Counter(class_of[i] for i in table if i in class_of),
                )
            )
    else:
        for i in candidates:
            columns.append(
                _OffsetColumn(
                    cost=float(below.get(i, 0)),
                    lower=0.0 if pricer.may_full[i] else 1.0,
                    players=(i,),
                    short_seats={group[i]: 1.0},
                    classes=Counter([class_of[i]] if i in class_of else []),
                )
            )
        for key in signatures(True):
            columns.append(
                _OffsetColumn(
                    upper=highspy.kHighsInf,
                    signature=key,
                    short_seats={g: -1.0 * key.count(g) for g in key},
                )
            )
    for key in signatures(False):
        columns.append(_OffsetColumn(upper=highspy.kHighsInf, signature=key))
    count = len(columns)
    h = _highs()
    h.addVars(
        count,
        np.array([col.lower for col in columns]),
        np.array([col.upper for col in columns]),
    )
    h.changeColsCost(
        count, np.arange(count, dtype=np.int32), np.array([col.cost for col in columns])
    )
    h.changeColsIntegrality(
        count,
        np.arange(count, dtype=np.int32),
        np.array([highspy.HighsVarType.kInteger] * count),
    )

    def row(lower: float, upper: float, entries: dict[int, float]) -> None:
        h.addRow(
            lower,
            upper,
            len(entries),
            np.array(list(entries), dtype=np.int32),
            np.array(list(entries.values()), dtype=float),
        )

    if short_tables is not None:
        tables_of: dict[int, list[int]] = {}
        for c, table in enumerate(short_tables):
            for i in table:
                tables_of.setdefault(i, []).append(c)
        for i in candidates:
            # Who must sit short does; the others at most once.
            row(0.0 if pricer.may_full[i] else 1.0, 1.0, dict.fromkeys(tables_of.get(i, []), 1.0))
    else:
        # A group's short seats are taken by its players chosen to sit short.
        for g in range(pricer.groups):
            row(
                0.0,
                0.0,
                {c: col.short_seats[g] for c, col in enumerate(columns) if g in col.short_seats},
            )
    for g in range(pricer.groups):
        members = sum(1 for i in range(pricer.n) if group[i] == g)
        seats_of_g = {
            c: float(col.signature.count(g)) for c, col in enumerate(columns) if col.signature
        }
        row(members, members, {c: x for c, x in seats_of_g.items() if x})
    for size in pricer.sizes:
        tables = {
            c: 1.0 for c, col in enumerate(columns) if col.signature and len(col.signature) == size
        }
        row(programme.counts[size], programme.counts[size], tables)
    row(
        -highspy.kHighsInf,
        float(best_spread),
        {c: float(spread(col.signature)) for c, col in enumerate(columns) if col.signature},
    )
    # Per class, the count k of its short players (0/1 choices y_k): the offset less k(k-1)/2.
    objective = {c: col.cost for c, col in enumerate(columns) if col.cost}
    for number, members in enumerate(classes):
        ys = _add_short_count(h, min(len(members), seats))
        entries = {
            c: float(col.classes[number])
            for c, col in enumerate(columns)
            if col.classes.get(number)
        }
        entries.update({int(y): -float(t) for t, y in enumerate(ys)})
        row(0.0, 0.0, entries)
        objective.update({int(y): -float(t * (t - 1) // 2) for t, y in enumerate(ys)})
    # The profiles' Benders cuts hold for this seating's tables counted by signature too.
    for cut in programme.profile_cuts:
        weights = {
            c: cut.coefficient(col.signature) for c, col in enumerate(columns) if col.signature
        }
        row(-highspy.kHighsInf, cut.most, {c: w for c, w in weights.items() if w})
    # Only a smaller offset than the seating's in hand is looked for.
    below_current = h.getNumRow()
    row(-highspy.kHighsInf, current - 1.0, objective)
    _fix_by_spread(h, columns, spread, best_spread, below_current)
    keys = sorted({col.signature for col in columns if col.signature})
    fillability = _Fillability(pricer, keys)
    key_index = {key: c for c, key in enumerate(keys)}
    # Listed, a programme takes 40-50 s at 256 players (the cuts from offset 7: 603 s and
    # no proof); by player, 6-8 s.
    most_cuts = OFFSET_CUTS if by_player else 0
    cuts = 0
    while True:
        h.run()
        if h.getModelStatus() == highspy.HighsModelStatus.kInfeasible:
            return best, True  # no seating of that spread has a smaller offset
        least = h.getInfo().mip_dual_bound
        if math.isfinite(least) and math.ceil(least - EPS) >= current:
            return best, True
        if not h.getInfo().primal_solution_status:
            return best, False
        values = h.getSolution().col_value
        # Who sits short as chosen, the tables filled by signature without a repeat.
        short_players = {
            i
            for c, col in enumerate(columns)
            if col.players
            for i in col.players
            if values[c] > 0.5
        }
        pools: dict[tuple[int, bool], list[int]] = {}
        for i in range(pricer.n):
            pools.setdefault((group[i], i in short_players), []).append(order[i])
        tables = []
        counts = [0] * len(keys)
        for c, col in enumerate(columns):
            key = col.signature
            if key is None:
                continue
            short = pricer.short[len(key)]
            counts[key_index[key]] += round(values[c])
            for _ in range(round(values[c])):
                if col.players is not None:
                    tables.append([order[i] for i in col.players])
                else:
                    tables.append([pools[(g, short)].pop() for g in key])
        filled = _fill_without_repeat(field, tables, "short")
        if filled is not None:
            offset = field.cost(filled).short_rank_offset
            if offset >= current:
                return best, False
            best = [tuple(sorted(index[p] for p in t)) for t in filled]
            current = offset
            if not current or (math.isfinite(least) and math.ceil(least - EPS) >= current):
                return best, True
            h.changeRowBounds(below_current, -highspy.kHighsInf, current - 1.0)
            continue
        # No seating lays these tables with these players short: a Benders cut around who
        # sits short (every seating keeps it, whoever sits short), then the next choice.
        used = [c for c, x in enumerate(counts) if x]
        cut = fillability.cut(counts, used, short_players) if cuts < most_cuts else None
        if cut is None:
            return best, False
        cuts += 1
        weights = {}
        for c, col in enumerate(columns):
            weight = cut.coefficient(col.signature) if col.signature else 0.0
            weight += sum(cut.sits_short(i) for i in col.players or ())
            if weight:
                weights[c] = weight
        row(-highspy.kHighsInf, cut.most, weights)
        _fix_by_spread(h, columns, spread, best_spread, below_current)


def _fix_by_spread(h: highspy.Highs, columns, spread, best_spread: int, free_row: int) -> None:
    """Fix at 0 the tables whose reduced cost in the relaxation of least spread (the same
    rows, the offset's row ``free_row`` left out) takes the spread past ``best_spread``: no
    seating of that spread lays them (reduced-cost fixing; the offset programme cannot, its
    objective is not the spread). A 202-player round: 2,860 signatures of 3,737."""
    count = h.getNumCol()
    lp = _highs()
    lp.passModel(h.getLp())
    lp.changeColsIntegrality(
        count,
        np.arange(count, dtype=np.int32),
        np.array([highspy.HighsVarType.kContinuous] * count),
    )
    lp.changeRowBounds(free_row, -highspy.kHighsInf, highspy.kHighsInf)
    costs = np.zeros(count)
    for c, col in enumerate(columns):
        if col.signature:
            costs[c] = float(spread(col.signature))
    lp.changeColsCost(count, np.arange(count, dtype=np.int32), costs)
    lp.run()
    if lp.getModelStatus() != highspy.HighsModelStatus.kOptimal:
        return
    least = lp.getInfo().objective_function_value
    reduced = lp.getSolution().col_dual
    fixed = [
        c
        for c, col in enumerate(columns)
        if col.signature and least + reduced[c] > best_spread + 1e-6 * (1 + best_spread)
    ]
    if fixed:
        zeros = np.zeros(len(fixed))
        h.changeColsBounds(len(fixed), np.array(fixed, dtype=np.int32), zeros, zeros)


def _short_tables(pricer, candidates, sizes, most_spread):
    """Every table of ``sizes`` of the ``candidates`` without a repeat and of spread at most
    ``most_spread``; None past MAX_TABLES."""
    value, met = pricer.value, pricer.met
    found: list[tuple[int, ...]] = []
    for size in sizes:
        for table in combinations(candidates, size):
            if any(b in met[a] for a, b in combinations(table, 2)):
                continue
            if _spread([value[i] for i in table]) <= most_spread:
                found.append(table)
                if len(found) > MAX_TABLES:
                    return None
    return found


def _short_spread_cap(pricer, programme, total: int) -> int:
    """The largest spread a short table has in some profile of spread at most ``total``
    (its tables' signatures, the profiles' programme with a short table of at least that
    spread required: whether one exists only grows less likely with the spread, so a binary
    search over the short signatures' spreads). No seating of spread ``total`` has a short
    table wider: most of the short tables a listing would hold are."""
    model = _profile_model(pricer, programme, total + 1)
    if model is None:
        return total
    h, signatures = model
    levels = pricer.levels
    spreads = [_spread([levels[g] for g in key]) for key in signatures]
    k = len(signatures)
    h.addRow(
        -highspy.kHighsInf, float(total), k, np.arange(k, dtype=np.int32), np.array(spreads, float)
    )
    short = [c for c in range(k) if pricer.short[len(signatures[c])]]
    widths = sorted({spreads[c] for c in short})
    if not widths:
        return total

    def possible(width: int) -> bool:
        wide = [c for c in short if spreads[c] >= width]
        h.addRow(
            1.0, highspy.kHighsInf, len(wide), np.array(wide, dtype=np.int32), np.ones(len(wide))
        )
        h.run()
        found = h.getModelStatus() != highspy.HighsModelStatus.kInfeasible
        h.deleteRows(1, np.array([h.getNumRow() - 1], dtype=np.int32))
        return found

    # widths[low] is possible (the seating in hand has short tables), widths[high] is not.
    low, high = 0, len(widths)
    while high - low > 1:
        middle = (low + high) // 2
        if possible(widths[middle]):
            low = middle
        else:
            high = middle
    return widths[low]
