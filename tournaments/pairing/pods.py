"""Swiss pods: one round of a game of three or more seats, seated at tables of 4 and 3
(or of 3) by score, as the optimum of a documented lexicographic cost.

Pure Python, no Django. docs/pairing.md ("Swiss pods") defines the cost and the proof of
each round; in short:

cost = (repeat meetings, short-table excess, score spread, short-table rank offset)

compared lexicographically. A round is certified by one of:

- ``lower_bound``: the seating has no repeat meeting, the least short-table excess any
  seating could have, and the least score spread of any seating with that excess (the
  typed block DP of pod_profile.py: who must sit short, then consecutive blocks of each
  stream), with no short-table rank offset;
- ``exact``: branch and bound over every partition of the field (fields of up to
  ``EXACT_LIMIT`` players), pruned by the same bounds on the players left;
- ``window``: larger fields, windows of tables around the repeats solved exactly with
  players from outside their edges where needed, certified by a bound on the whole field
  split at the windows' edges (pod_windows.py);
- ``programme``: larger fields no window certifies, an integer programme over every table
  with no repeat meeting (column generation, score-group and subset-row cuts, HiGHS:
  pod_programme.py);

otherwise the round is seated with the best seating found (``best_found``), its cost and
the proven lower bound shown side by side: no proof, but never a stuck event.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

from tournaments.pairing.model import PairingError
from tournaments.pairing.pod_blocks import _best_blocks
from tournaments.pairing.pod_profile import fill_profile, profile_tables, short_plan, typed_profile
from tournaments.pairing.pod_programme import MAX_TABLES, solve_programme
from tournaments.pairing.pod_windows import WINDOW_NODES, certify_windows
from tournaments.pairing.work import (
    STAGE_EXACT,
    STAGE_LOWER_BOUND,
    STAGE_PROGRAMME,
    STAGE_WINDOWS,
    Progress,
    Work,
)

__all__ = [
    "BEST_FOUND",
    "EXACT_LIMIT",
    "MODES",
    "PodCost",
    "PodPlayer",
    "PodResult",
    "PodTable",
    "SEARCH_LIMIT",
    "evaluate_pods",
    "full_size",
    "pair_pods",
    "spread_lower_bound",
    "table_sizes",
]

# The table modes an organiser may choose: tables of 4 with as few of 3 as fit, or of 3.
FOUR_THREE = "four_three"
THREE = "three"
MODES = (FOUR_THREE, THREE)

# Fields up to this size that the lower bound cannot certify are solved exactly.
EXACT_LIMIT = 16
# Partial seatings the exhaustive search may visit before it settles for its best found.
NODE_LIMIT = 200_000
# Fields above EXACT_LIMIT and up to this size that neither the bound nor a window
# certifies are searched exhaustively after the windows (in the background pairing job,
# as the search's work passes any request's limit): a proof is worth the wait.
SEARCH_LIMIT = 32
# The node limit of that later search: bench/pods.py saw the unproved rounds of 17-32
# players proved in 0.3-21 s of CPU (docs/benchmarks.md), well within this.
WIDE_NODE_LIMIT = 3_000_000
# Bounds of the players left that the exact tier keeps at once.
BOUND_CACHE = 200_000
# Seeded restarts of the construction before the lower bound is given up.
RESTARTS = 8
# The work of one partial seating of the exhaustive or window search, in the units of
# tournaments/pairing/work.py (0.25-0.3 s of CPU per million): bench/pods.py --work
# measured 16 microseconds of CPU at the median and 30 at worst (docs/benchmarks.md).
NODE_WORK = 120
# Passes of the swaps that improve a seating no tier proved (each pass tries every swap of
# two players of different tables; bench/pods.py: 1-2 s a round at 256 players).
POLISH_PASSES = 8
# The exhaustive search counts its work (and reports progress) this many seatings at a time.
PROGRESS_NODES = 1024
# Seeded attempts at filling the typed bound's profile without a repeat meeting.
FILLS = 3


# The method of a round the integer programme proved (pod_programme.py).
PROGRAMME = "programme"
# The work of the programme tier, in the units of work.py: a step of its table search per
# candidate player, one table of a programme, one swap of the polish per pair of players.
PRICE_WORK = 4
TABLE_WORK = 400
POLISH_WORK = 30 * POLISH_PASSES

# The method of a round no tier proved: the best seating found, not claimed optimal.
BEST_FOUND = "best_found"


class _NodeLimitPassed(Exception):
    """The exhaustive search passed its node limit (it returns its best seating then)."""


@dataclass(frozen=True)
class PodPlayer:
    """One active player as the pod pairer sees them.

    points: pod points (fractions allowed: 3 x (s - p) / (s - 1) for place p of s).
    opponents: everyone already met at a table (one side's record is enough).
    short_tables: tables smaller than the round's full size already sat at (byes count).
    rank: position in the current standings, 1 = best; only the short tables use it.
    """

    id: int
    points: Fraction | int
    opponents: frozenset[int] = frozenset()
    short_tables: int = 0
    rank: int = 0


@dataclass(frozen=True)
class PodCost:
    """repeats: pairs at a table who have met before. short_excess: over players at a
    short table, their earlier short tables beyond the fewest any player has. spread: over
    tables, the sum of the squared point differences of each pair at it. short_rank_offset:
    over players at a short table, players on the same points and short tables ranked
    below them who sit at a full table."""

    repeats: int = 0
    short_excess: int = 0
    spread: Fraction = Fraction(0)
    short_rank_offset: int = 0

    def key(self) -> tuple[int, int, Fraction, int]:
        return (self.repeats, self.short_excess, self.spread, self.short_rank_offset)


@dataclass(frozen=True)
class PodTable:
    """One table: its players in seat order (seat 1 first) and their points."""

    number: int
    player_ids: tuple[int, ...]
    points: tuple[Fraction, ...]
    short: bool
    repeats: int

    @property
    def size(self) -> int:
        return len(self.player_ids)


@dataclass(frozen=True)
class PodResult:
    round_number: int
    seed: int | str
    mode: str
    tables: tuple[PodTable, ...]
    bye: int | None
    cost: PodCost
    bound: PodCost
    method: str


def full_size(mode: str) -> int:
    if mode not in MODES:
        raise PairingError(f"unknown table mode {mode!r}")
    return 4 if mode == FOUR_THREE else 3


def table_sizes(n: int, mode: str = FOUR_THREE) -> tuple[int, ...]:
    """The round's table sizes, largest first. Tables of 4 with as few tables of 3 as fit
    (5 players: 3 + 2); tables of 3 with one or two tables of 2 for the remainder. A single
    player has a bye (no table)."""
    full = full_size(mode)
    if n < 0:
        raise PairingError("a field cannot have fewer than no players")
    if n <= 1:
        return ()
    if n <= 3:
        return (n,)
    if full == 4:
        if n == 5:
            return (3, 2)
        threes = (-n) % 4
        return (4,) * ((n - 3 * threes) // 4) + (3,) * threes
    twos = (3 - n % 3) % 3
    return (3,) * ((n - 2 * twos) // 3) + (2,) * twos


def spread_lower_bound(points: Sequence, sizes: Sequence[int]) -> Fraction:
    """The least score spread over every partition of players with these points into tables
    of these sizes: the best cut of the sorted field into consecutive blocks."""
    if sum(sizes) != len(points):
        raise PairingError("the table sizes do not seat the field")
    ordered = sorted((Fraction(x) for x in points), reverse=True)
    return _best_blocks(ordered, list(sizes))[0]


class _Field:
    def __init__(self, players: Sequence[PodPlayer], round_number: int, seed, mode: str):
        self.full = full_size(mode)
        self.players: dict[int, PodPlayer] = {}
        for player in players:
            if player.id in self.players:
                raise PairingError(f"player {player.id} appears twice")
            if player.short_tables < 0:
                raise PairingError(f"player {player.id} has a negative short-table count")
            self.players[player.id] = player
        self.ids = sorted(self.players)
        self.points = {pid: Fraction(p.points) for pid, p in self.players.items()}
        # Whole numbers for the arithmetic: points times the least common denominator, so
        # spreads are counted in units of 1 / scale^2 (Fraction arithmetic was most of the
        # exact tier's time).
        self.scale = math.lcm(1, *(x.denominator for x in self.points.values()))
        self.value = {pid: int(x * self.scale) for pid, x in self.points.items()}
        self.short = {pid: p.short_tables for pid, p in self.players.items()}
        self.seed, self.round_number = seed, round_number
        self.rng = random.Random(f"irondie-pods:{seed}:{round_number}")
        drawn = list(self.ids)
        self.rng.shuffle(drawn)
        self.draw = {pid: index for index, pid in enumerate(drawn)}
        ranked = sorted(self.ids, key=lambda pid: (self.players[pid].rank, self.draw[pid]))
        self.position = {pid: index for index, pid in enumerate(ranked)}
        present = self.players.keys()
        self.opp: dict[int, set[int]] = {pid: set() for pid in self.ids}
        for pid, player in self.players.items():
            for other in player.opponents:
                if other in present and other != pid:
                    self.opp[pid].add(other)
                    self.opp[other].add(pid)
        self.min_short = min(self.short.values(), default=0)

    def is_short(self, size: int) -> bool:
        return size < self.full

    def repeats(self, table: Sequence[int]) -> int:
        return sum(1 for a, b in combinations(table, 2) if b in self.opp[a])

    def spread(self, table: Sequence[int]) -> int:
        """The table's spread in units of 1 / scale^2."""
        value = self.value
        return sum((value[a] - value[b]) ** 2 for a, b in combinations(table, 2))

    def units(self, spread: int) -> Fraction:
        return Fraction(spread, self.scale * self.scale)

    def ikey(self, tables: Sequence[Sequence[int]]) -> tuple[int, int, int, int]:
        """The cost's key with the spread in whole units (what the tiers compare)."""
        cost = self.cost(tables)
        spread = cost.spread * self.scale * self.scale
        return (cost.repeats, cost.short_excess, int(spread), cost.short_rank_offset)

    def cost(self, tables: Sequence[Sequence[int]]) -> PodCost:
        seated_short = [pid for t in tables if self.is_short(len(t)) for pid in t]
        short_set = set(seated_short)
        rank_offset = 0
        for pid in seated_short:
            rank_offset += sum(
                1
                for other in self.ids
                if other not in short_set
                and self.points[other] == self.points[pid]
                and self.short[other] == self.short[pid]
                and self.position[other] > self.position[pid]
            )
        return PodCost(
            repeats=sum(self.repeats(t) for t in tables),
            short_excess=sum(self.short[pid] - self.min_short for pid in seated_short),
            spread=self.units(sum(self.spread(t) for t in tables)),
            short_rank_offset=rank_offset,
        )

    def excess_bound(self, pool: Sequence[int], short_seats: int) -> int:
        values = sorted(self.short[pid] - self.min_short for pid in pool)
        return sum(values[:short_seats])

    def ibound(self, sizes: Sequence[int]) -> tuple[int, int, int, int]:
        """The round's bound as a key, the spread in whole units: no repeat, the least
        short-table excess, and the least spread of any seating with that excess."""
        plan = short_plan(self, sizes)
        spread, _ = typed_profile(self, sizes, plan)
        return (0, plan.excess, spread, 0)

    def bound(self, sizes: Sequence[int]) -> PodCost:
        repeats, excess, spread, offset = self.ibound(sizes)
        return PodCost(repeats, excess, self.units(spread), offset)


def evaluate_pods(
    players: Sequence[PodPlayer],
    tables: Sequence[Sequence[int]],
    mode: str = FOUR_THREE,
) -> PodCost:
    """The cost of any seating (for example one edited by hand) on the pairer's scale.
    PairingError when a player is missing or seated twice, or the sizes are not the
    round's."""
    field = _Field(players, 0, 0, mode)
    seated = [pid for table in tables for pid in table]
    if sorted(seated) != field.ids:
        raise PairingError("every player must sit at exactly one table")
    if sorted((len(t) for t in tables), reverse=True) != list(table_sizes(len(seated), mode)):
        raise PairingError("the table sizes are not the round's")
    return field.cost(tables)


# --- tier 1: consecutive blocks met ----------------------------------------------------------


def _construct(field: _Field, sizes: Sequence[int], rng: random.Random) -> list[list[int]]:
    """Cut the field, by points, into the spread-optimal blocks; inside each score, the short
    tables' seats go to the fewest short tables and then the lowest ranks; then swap players
    of equal points between tables of the same kind while that removes repeat meetings."""
    order = sorted(field.ids, key=lambda pid: (-field.points[pid], field.draw[pid]))
    # Each score's short-table counts, fewest first: a short table over part of a score
    # costs (about) the smallest of them, so the blocks go where the fewest short tables are.
    excess_by_points: dict[Fraction, list[int]] = {}
    for pid in order:
        excess_by_points.setdefault(field.points[pid], []).append(
            field.short[pid] - field.min_short
        )
    for values in excess_by_points.values():
        values.sort()

    def short_cost(start: int, size: int) -> int:
        overlap: dict[Fraction, int] = {}
        for pid in order[start : start + size]:
            overlap[field.points[pid]] = overlap.get(field.points[pid], 0) + 1
        return sum(sum(excess_by_points[p][:k]) for p, k in overlap.items())

    _, blocks = _best_blocks([field.value[pid] for pid in order], list(sizes), short_cost)
    # Which positions of the sorted field lie in short tables.
    short_position = []
    for size in blocks:
        short_position += [field.is_short(size)] * size
    groups: dict[Fraction, list[int]] = {}
    for pid in order:
        groups.setdefault(field.points[pid], []).append(pid)
    positions: dict[Fraction, list[int]] = {}
    for index, pid in enumerate(order):
        positions.setdefault(field.points[pid], []).append(index)
    seat_at: list[int] = [0] * len(order)
    for points, members in groups.items():
        members = list(members)
        rng.shuffle(members)
        spots = positions[points]
        short_spots = [i for i in spots if short_position[i]]
        full_spots = [i for i in spots if not short_position[i]]
        by_short = sorted(members, key=lambda pid: (field.short[pid], -field.position[pid]))
        chosen = by_short[: len(short_spots)]
        rest = [pid for pid in members if pid not in set(chosen)]
        for spot, pid in zip(short_spots, chosen, strict=True):
            seat_at[spot] = pid
        for spot, pid in zip(full_spots, rest, strict=True):
            seat_at[spot] = pid
    tables: list[list[int]] = []
    start = 0
    for size in blocks:
        tables.append(seat_at[start : start + size])
        start += size
    _repair(field, tables)
    return tables


def _repair(field: _Field, tables: list[list[int]]) -> None:
    """Swap equal-point players between tables of the same kind (and, across kinds, of the
    same short-table count) while a swap lowers the repeat meetings. Such swaps change no
    other component of the cost except possibly the rank offset, which is checked after."""
    where = {pid: t for t, table in enumerate(tables) for pid in table}
    by_points: dict[Fraction, list[int]] = {}
    for pid in field.ids:
        by_points.setdefault(field.points[pid], []).append(pid)
    for pid in by_points:
        by_points[pid].sort(key=field.draw.__getitem__)

    def met_at(pid: int, table: list[int], skip: int) -> int:
        return sum(1 for other in table if other != skip and other in field.opp[pid])

    for _ in range(4 * len(tables) + 4):
        improved = False
        for t, table in enumerate(tables):
            for a in list(table):
                here = met_at(a, table, a)
                if not here:
                    continue
                for c in by_points[field.points[a]]:
                    u = where[c]
                    if u == t:
                        continue
                    same_kind = field.is_short(len(tables[u])) == field.is_short(len(table))
                    if not same_kind:
                        continue
                    before = here + met_at(c, tables[u], c)
                    after = met_at(c, table, a) + met_at(a, tables[u], c)
                    if after < before:
                        table[table.index(a)] = c
                        tables[u][tables[u].index(c)] = a
                        where[a], where[c] = u, t
                        improved = True
                        break
        if not improved:
            return


def _improve(field: _Field, tables: list[list[int]]) -> list[list[int]]:
    """Swap two players of different tables while that lowers the cost's key (a better
    incumbent lets the exact search cut more); the result is no claim of optimality."""
    tables = [list(t) for t in tables]
    best_key = field.ikey(tables)
    improved = True
    while improved:
        improved = False
        for t, u in combinations(range(len(tables)), 2):
            for i in range(len(tables[t])):
                for j in range(len(tables[u])):
                    tables[t][i], tables[u][j] = tables[u][j], tables[t][i]
                    key = field.ikey(tables)
                    if key < best_key:
                        best_key, improved = key, True
                    else:
                        tables[t][i], tables[u][j] = tables[u][j], tables[t][i]
    return tables


def _polish(field: _Field, tables: list[list[int]]) -> list[list[int]]:
    """Swap two players of different tables while that lowers the cost of the two tables
    (repeats, short-table excess, spread, compared in that order): a lower key for the whole
    seating, as the other tables do not change. For a round no tier proved, whose best
    seating would otherwise be the construction's (no claim of optimality)."""
    tables = [list(t) for t in tables]

    def local(table: list[int]) -> tuple[int, int, int]:
        excess = (
            sum(field.short[p] - field.min_short for p in table)
            if field.is_short(len(table))
            else 0
        )
        return (field.repeats(table), excess, field.spread(table))

    def joined(a: list[int], b: list[int]) -> tuple[int, int, int]:
        x, y = local(a), local(b)
        return (x[0] + y[0], x[1] + y[1], x[2] + y[2])

    for _ in range(POLISH_PASSES):
        improved = False
        for t, u in combinations(range(len(tables)), 2):
            first, second = tables[t], tables[u]
            before = joined(first, second)
            for i in range(len(first)):
                for j in range(len(second)):
                    first[i], second[j] = second[j], first[i]
                    after = joined(first, second)
                    if after < before:
                        before, improved = after, True
                    else:
                        first[i], second[j] = second[j], first[i]
        if not improved:
            break
    return tables


# --- tier 3: exact set partitioning ------------------------------------------------------------


def _solve_exact(
    field: _Field,
    sizes: Sequence[int],
    incumbent: list[list[int]],
    node_limit: int | None,
    tick=None,
) -> tuple[list[list[int]], bool]:
    """Branch and bound over every partition into tables of ``sizes``: the best player left
    (by points, then the draw) anchors the next table; a partial seating is pruned when its
    cost plus the bounds of the rest cannot beat the best found. Returns the best seating
    and whether the search finished (proved it optimal) within ``node_limit``."""
    order = sorted(field.ids, key=lambda pid: (-field.points[pid], field.draw[pid]))
    best_tables = [list(t) for t in incumbent]
    best_key = field.ikey(best_tables)
    distinct = sorted(set(sizes), reverse=True)
    bound_cache: dict[tuple, tuple[int, int]] = {}
    nodes = [0]

    def rest_bound(rest: tuple[int, ...], remaining: tuple[int, ...]) -> tuple[int, int]:
        key = (rest, remaining)
        if key not in bound_cache:
            if len(bound_cache) > BOUND_CACHE:  # memory stays bounded on long searches
                bound_cache.clear()
            sizes_left = [s for s, c in zip(distinct, remaining, strict=True) for _ in range(c)]
            plan = short_plan(field, sizes_left, rest)
            bound_cache[key] = (
                plan.excess,
                typed_profile(field, sizes_left, plan, rest)[0] if rest else 0,
            )
        return bound_cache[key]

    def search(
        rest: tuple[int, ...], remaining: tuple[int, ...], tables: list, partial: tuple
    ) -> None:
        nonlocal best_key, best_tables
        if not rest:
            key = field.ikey(tables)
            if key < best_key:
                best_key, best_tables = key, [list(t) for t in tables]
            return
        nodes[0] += 1
        if tick is not None and not nodes[0] % PROGRESS_NODES:
            tick(nodes[0])
        if node_limit is not None and nodes[0] > node_limit:
            raise _NodeLimitPassed
        excess_left, spread_left = rest_bound(rest, remaining)
        smallest = min(s for s, c in zip(distinct, remaining, strict=True) if c)
        # A player with fewer than ``smallest - 1`` others left not yet met meets some again.
        # Those not met: all the others but the met ones (a player never met themself).
        to_seat, others_left = set(rest), len(rest) - 1
        forced = sum(
            max(0, smallest - 1 - (others_left - len(field.opp[p] & to_seat))) for p in rest
        )
        bound = (
            partial[0] + (forced + 1) // 2,
            partial[1] + excess_left,
            partial[2] + spread_left,
            0,
        )
        if bound >= best_key:
            return
        anchor, others = rest[0], rest[1:]
        for index, size in enumerate(distinct):
            if not remaining[index]:
                continue
            left = remaining[:index] + (remaining[index] - 1,) + remaining[index + 1 :]
            for mates in combinations(others, size - 1):
                table = (anchor, *mates)
                repeats = partial[0] + field.repeats(table)
                if repeats > best_key[0]:
                    continue
                excess = partial[1] + (
                    sum(field.short[p] - field.min_short for p in table)
                    if field.is_short(size)
                    else 0
                )
                taken = set(mates)
                tables.append(table)
                search(
                    tuple(p for p in others if p not in taken),
                    left,
                    tables,
                    (repeats, excess, partial[2] + field.spread(table)),
                )
                tables.pop()

    counts = tuple(list(sizes).count(s) for s in distinct)
    try:
        search(tuple(order), counts, [], (0, 0, 0))
    except _NodeLimitPassed:
        return best_tables, False
    return best_tables, True


# --- the round ---------------------------------------------------------------------------------


def _seat_order(field: _Field, table: Sequence[int], number: int) -> tuple[int, ...]:
    """Seat 1 first: a seeded draw per table (who opens is decided at random)."""
    seats = sorted(table, key=field.draw.__getitem__)
    random.Random(f"irondie-pods-seats:{field.seed}:{field.round_number}:{number}").shuffle(seats)
    return tuple(seats)


def pair_pods(
    players: Sequence[PodPlayer],
    round_number: int,
    seed: int | str,
    mode: str = FOUR_THREE,
    *,
    exact_limit: int = EXACT_LIMIT,
    node_limit: int | None = NODE_LIMIT,
    search_limit: int = SEARCH_LIMIT,
    wide_node_limit: int | None = WIDE_NODE_LIMIT,
    work_limit: int | None = None,
    progress: Progress | None = None,
) -> PodResult:
    """Seat one round of pods among the active players; deterministic for a given seed.
    A round no tier proves within the limits is seated with the best seating found
    (``method`` "best_found"), ``bound`` the typed lower bound it could not reach.

    Fields up to ``exact_limit`` that the bound does not certify are searched exhaustively
    (``node_limit``); larger ones go to the windows, and those up to ``search_limit`` that
    no window certifies are then searched exhaustively too (``wide_node_limit``).

    ``work_limit`` and ``progress`` as for pair_round (tournaments/pairing/work.py): the
    construction and its lower bound always run; the window tier is charged its whole
    budget (WINDOW_NODES partial seatings) before it runs, and the exhaustive search its
    partial seatings as it visits them. PairingDeferred is raised before the work passes
    the limit, so that the caller seats the round in the background."""
    work = Work(work_limit, progress)
    field = _Field(players, round_number, seed, mode)
    n = len(field.ids)
    sizes = table_sizes(n, mode)
    if n <= 1:
        return PodResult(
            round_number,
            seed,
            mode,
            (),
            field.ids[0] if n else None,
            PodCost(),
            PodCost(),
            "lower_bound",
        )
    work.spend(STAGE_LOWER_BOUND, 0)
    plan = short_plan(field, sizes)
    typed_spread, joined = typed_profile(field, sizes, plan)
    bound_key = (0, plan.excess, typed_spread, 0)
    bound = PodCost(0, plan.excess, field.units(typed_spread), 0)
    best, best_key, method = None, None, ""
    for attempt in range(FILLS):
        rng = random.Random(f"irondie-pods-fill:{seed}:{round_number}:{attempt}")
        if attempt:  # another of the optimal profiles, drawn at random
            _, joined = typed_profile(field, sizes, plan, rng=rng)
        filled = fill_profile(field, profile_tables(field, sizes, plan, joined), rng)
        if filled is not None:
            key = field.ikey(filled)
            if best_key is None or key < best_key:
                best, best_key = filled, key
            if key == bound_key:
                method = "lower_bound"
                break
    if not method:
        # Incumbents for the proofs below: the score-block construction with its swaps.
        for attempt in range(RESTARTS):
            rng = random.Random(f"irondie-pods-build:{seed}:{round_number}:{attempt}")
            tables = _construct(field, sizes, rng)
            key = field.ikey(tables)
            if best_key is None or key < best_key:
                best, best_key = tables, key
            if key == bound_key:
                method = "lower_bound"
                break
    if not method and n > exact_limit:
        work.spend(STAGE_WINDOWS, WINDOW_NODES * NODE_WORK)
        found = certify_windows(field, sizes, best)
        if found is not None:
            best, method = found, "window"
    if not method and n > exact_limit:
        # The integer programme over every table (pod_programme.py), from the polished
        # incumbent; its work is counted as its table search goes, and its programmes'
        # before each runs (at most MAX_TABLES tables each).
        work.spend(STAGE_PROGRAMME, POLISH_WORK * n * n)
        best = _polish(field, best)
        work.spend(STAGE_PROGRAMME, MAX_TABLES * TABLE_WORK)
        outcome = solve_programme(
            field,
            sizes,
            plan,
            best,
            tick=lambda steps: work.spend(STAGE_PROGRAMME, steps * n * PRICE_WORK),
            known_bound=typed_spread,
        )
        if outcome is not None:
            if field.ikey(outcome.tables) < field.ikey(best):
                best = outcome.tables
            if outcome.proved:
                method = PROGRAMME
            elif outcome.bound > typed_spread:
                bound = PodCost(0, plan.excess, field.units(outcome.bound), 0)
    if not method and n > max(exact_limit, search_limit):
        # Too large to search exhaustively: the best seating the tiers found (no proof
        # either way).
        method = BEST_FOUND
    if not method:
        # The search's size is not known before it runs: its work is counted as it goes
        # (PROGRESS_NODES partial seatings at a time, each batch before it runs) and a
        # limit passed defers the round.
        work.spend(STAGE_EXACT, PROGRESS_NODES * NODE_WORK)
        best, proved = _solve_exact(
            field,
            sizes,
            _improve(field, best),
            node_limit if n <= exact_limit else wide_node_limit,
            lambda nodes: work.spend(STAGE_EXACT, PROGRESS_NODES * NODE_WORK),
        )
        method = "exact" if proved else BEST_FOUND
    cost = field.cost(best)
    ordered = sorted(
        best,
        key=lambda t: (
            -sum(field.points[p] for p in t) / len(t),
            min(field.position[p] for p in t),
        ),
    )
    tables_out = []
    for number, table in enumerate(ordered, start=1):
        seats = _seat_order(field, table, number)
        tables_out.append(
            PodTable(
                number=number,
                player_ids=seats,
                points=tuple(field.points[p] for p in seats),
                short=field.is_short(len(seats)),
                repeats=field.repeats(seats),
            )
        )
    return PodResult(round_number, seed, mode, tuple(tables_out), None, cost, bound, method)
