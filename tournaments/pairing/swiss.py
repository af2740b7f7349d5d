"""Swiss pairing as the optimum of a documented lexicographic cost.

Pure Python, no Django. The cost, the algorithm and the optimality argument are described
in docs/pairing.md; in short:

cost = (rematches, bye excess, bye rank offset, sum of squared point differences)

compared lexicographically. The pairer first tries to build a pairing that meets a simple
lower bound on that cost (no rematch, the bye to the lowest-ranked player with the fewest
byes, and exactly one adjacent-group pair-down across every score boundary with an odd
number of players above it). Reaching the bound proves optimality. When the bound cannot
be met, an exact matching is solved on a window of score groups around the obstacle and
certified against a relaxation of the whole field; if no window can be certified, an
exact maximum-weight matching of the whole field decides.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum

import networkx as nx

__all__ = [
    "Bye",
    "Pair",
    "PairingCost",
    "PairingError",
    "PairingPlayer",
    "PairingResult",
    "Reason",
    "ReasonCode",
    "evaluate_pairing",
    "pair_round",
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


@dataclass(frozen=True)
class Reason:
    """Why a pairing or bye is what it is: a code and figures for programs, a sentence for people.

    high_points / low_points: the two players' points (a same-group pair has them equal).
    previous_byes: for bye reasons, the byes the player had before this one.
    skipped: for BYE_MOVED, how many lower-ranked players with no more byes were passed over.
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
    """The cost of a round's pairing. key() is what the pairer minimises, lexicographically.

    rematches: pairs of players who have met before.
    bye_excess: byes the bye player already had beyond the fewest any active player has
        (non-zero means a repeat bye while someone with fewer byes was available).
    bye_rank_offset: active players ranked below the bye player who have no more byes than
        the bye player (0 means the bye went to the lowest-ranked eligible player).
    pair_down_cost: sum over pairs of the squared point difference.
    pair_downs, point_differences: the pairs with unequal points and their differences,
        largest first (reported, implied by the cost above).
    repeat_byes: 1 when the bye player already had a bye (reported).
    """

    rematches: int = 0
    bye_excess: int = 0
    bye_rank_offset: int = 0
    pair_down_cost: int = 0
    pair_downs: int = 0
    point_differences: tuple[int, ...] = ()
    repeat_byes: int = 0

    def key(self) -> tuple[int, int, int, int]:
        return (self.rematches, self.bye_excess, self.bye_rank_offset, self.pair_down_cost)


@dataclass(frozen=True)
class PairingResult:
    """Pairs ordered best records first (table 1 first), the bye if any, and the cost.

    method tells how optimality was established: "lower_bound" (the cost equals a lower
    bound valid for every pairing), "window" (exact on a window of score groups, certified
    by a relaxation of the whole field) or "exact" (matching of the whole field).
    """

    round_number: int
    seed: int | str
    pairs: tuple[Pair, ...]
    bye: Bye | None
    cost: PairingCost
    method: str


def pair_round(
    players: Sequence[PairingPlayer], round_number: int, seed: int | str
) -> PairingResult:
    """Pair one round among the active players. Deterministic for a given seed."""
    field = _Field(players, round_number, seed)
    if not field.ids:
        return PairingResult(round_number, seed, (), None, PairingCost(), "lower_bound")
    matching, bye_id, method = field.solve()
    return field.result(matching, bye_id, method)


def evaluate_pairing(
    players: Sequence[PairingPlayer],
    pairs: Iterable[tuple[int, int]],
    bye_id: int | None,
    round_number: int,
    seed: int | str,
) -> PairingCost:
    """The cost of any complete pairing of the players (e.g. one edited by hand).

    round_number and seed only matter when ranks are equal: they order equal ranks for the
    bye rule exactly as pair_round does.
    """
    field = _Field(players, round_number, seed)
    pair_list = [tuple(pair) for pair in pairs]
    seen = [pid for pair in pair_list for pid in pair]
    if bye_id is not None:
        seen.append(bye_id)
    if len(seen) != len(set(seen)) or set(seen) != set(field.ids):
        raise PairingError("every active player must appear exactly once")
    if (bye_id is None) != (len(field.ids) % 2 == 0):
        raise PairingError("an odd field needs exactly one bye, an even field none")
    return field.cost_of(pair_list, bye_id)


# (share of the bound, pairs inside the window, window players the floaters entering from
# above must play, window players leaving downwards)
_WindowPlan = tuple[int, list[tuple[int, int]], list[int], list[int]]


class _ChainFailure(Exception):
    def __init__(self, group_index: int) -> None:
        super().__init__(group_index)
        self.group_index = group_index


# Matching attempts the lower-bound chain may spend before handing over to the exact tiers.
_CHAIN_BUDGET = 400
# Floater candidates tried per group when backtracking (all of them in small groups).
_FLOATER_TRIES = 8
_SMALL_GROUP = 24
# Players above which an exact matching of a window is not attempted.
_WINDOW_LIMIT = 500
# Groups up to this size get an exact cardinality matching when the greedy repair fails.
_EXACT_GROUP_LIMIT = 800


class _Field:
    """One round's active players with the derived orders the cost needs."""

    def __init__(self, players: Sequence[PairingPlayer], round_number: int, seed: int | str):
        self.round_number = round_number
        self.seed = seed
        self.players: dict[int, PairingPlayer] = {}
        for player in players:
            if player.id in self.players:
                raise PairingError(f"player {player.id} appears twice")
            self.players[player.id] = player
        self.ids = sorted(self.players)
        # str seeds are hashed with SHA-512 by random.Random, so this is stable across runs.
        self.rng = random.Random(f"irondie-swiss:{seed}:{round_number}")
        drawn = list(self.ids)
        self.rng.shuffle(drawn)
        self.draw = {pid: index for index, pid in enumerate(drawn)}
        # Best first; equal ranks ordered by the seeded draw.
        ranked = sorted(self.ids, key=lambda pid: (self.players[pid].rank, self.draw[pid]))
        self.position = {pid: index for index, pid in enumerate(ranked)}
        self.ranked = ranked
        # Rematch sets are made symmetric: one side's record is enough to count a meeting.
        present = self.players.keys()
        self.opp: dict[int, set[int]] = {pid: set() for pid in self.ids}
        for pid, player in self.players.items():
            for other in player.opponents:
                if other in present and other != pid:
                    self.opp[pid].add(other)
                    self.opp[other].add(pid)
        self.min_byes = min((p.byes for p in players), default=0)

    # --- cost -----------------------------------------------------------------------------

    def bye_rank_offsets(self) -> dict[int, int]:
        """For each player: how many players ranked below have no more byes than they do."""
        below_by_byes: dict[int, int] = {}
        offsets: dict[int, int] = {}
        for pid in reversed(self.ranked):
            byes = self.players[pid].byes
            offsets[pid] = sum(count for b, count in below_by_byes.items() if b <= byes)
            below_by_byes[byes] = below_by_byes.get(byes, 0) + 1
        return offsets

    def ideal_bye(self) -> int:
        """The lowest-ranked player among those with the fewest byes."""
        return max(
            (pid for pid in self.ids if self.players[pid].byes == self.min_byes),
            key=self.position.__getitem__,
        )

    def cost_of(self, pairs: Sequence[tuple[int, int]], bye_id: int | None) -> PairingCost:
        rematches = 0
        differences = []
        square_sum = 0
        for a, b in pairs:
            if b in self.opp[a]:
                rematches += 1
            difference = abs(self.players[a].points - self.players[b].points)
            square_sum += difference * difference
            if difference:
                differences.append(difference)
        bye_excess = bye_offset = repeat = 0
        if bye_id is not None:
            previous = self.players[bye_id].byes
            bye_excess = previous - self.min_byes
            bye_offset = self.bye_rank_offsets()[bye_id]
            repeat = 1 if previous else 0
        return PairingCost(
            rematches=rematches,
            bye_excess=bye_excess,
            bye_rank_offset=bye_offset,
            pair_down_cost=square_sum,
            pair_downs=len(differences),
            point_differences=tuple(sorted(differences, reverse=True)),
            repeat_byes=repeat,
        )

    # --- solving --------------------------------------------------------------------------

    def solve(self) -> tuple[list[tuple[int, int]], int | None, str]:
        bye_id = self.ideal_bye() if len(self.ids) % 2 else None
        pool = [pid for pid in self.ids if pid != bye_id]
        groups, points = self.score_groups(pool)
        try:
            pairs, _ = self.chain(groups, [], [])
            return pairs, bye_id, "lower_bound"
        except _ChainFailure as failure:
            trouble = failure.group_index
        pairs = self.solve_windows(groups, points, trouble)
        if pairs is not None:
            return pairs, bye_id, "window"
        pairs, bye_id = self.solve_exact()
        return pairs, bye_id, "exact"

    def score_groups(self, pool: Iterable[int]) -> tuple[list[list[int]], list[int]]:
        """Players by points, best group first; random order inside a group from the seed."""
        by_points: dict[int, list[int]] = {}
        for pid in sorted(pool, key=self.draw.__getitem__):
            by_points.setdefault(self.players[pid].points, []).append(pid)
        points = sorted(by_points, reverse=True)
        return [by_points[p] for p in points], points

    def chain(
        self,
        groups: list[list[int]],
        incoming: list[int],
        targets: list[int],
    ) -> tuple[list[tuple[int, int]], list[int]]:
        """Pair the groups top-down at the lower bound.

        Players in `incoming` float into the first group and must be paired inside it.
        Every group then sends down the fewest floaters parity allows (0 or 1), each to be
        paired inside the next group, except the last group, which sends one floater per
        id in `targets` (each floater must not have met its target). Returns the pairs and
        the floaters for the targets, in target order. Raises _ChainFailure with the index
        of the deepest group where the search got stuck.
        """
        opp = self.opp
        self.chain_attempts = 0

        def floater_choices(k: int, in_count: int) -> Iterator[list[int]]:
            members = groups[k]
            if k == len(groups) - 1:
                if not targets:
                    yield []
                    return
                yield from self.target_floaters(members, targets)
                return
            if (in_count + len(members)) % 2 == 0:
                yield []
                return
            following = groups[k + 1]
            limit = len(members) if len(members) <= _SMALL_GROUP else _FLOATER_TRIES
            tried = 0
            for candidate in reversed(members):
                blocked = opp[candidate]
                if len(blocked) >= len(following) and all(v in blocked for v in following):
                    continue
                yield [candidate]
                tried += 1
                if tried >= limit:
                    return

        def step(k: int, floaters: list[int]) -> tuple[list[tuple[int, int]], list[int]]:
            deepest = k
            for outs in floater_choices(k, len(floaters)):
                self.chain_attempts += 1
                if self.chain_attempts > _CHAIN_BUDGET:
                    raise _ChainFailure(deepest)
                out_set = set(outs)
                rest = [pid for pid in groups[k] if pid not in out_set] if outs else groups[k]
                pairs = self.match_group(floaters, rest)
                if pairs is None:
                    continue
                if k == len(groups) - 1:
                    return pairs, outs
                try:
                    below, final = step(k + 1, outs)
                except _ChainFailure as failure:
                    deepest = max(deepest, failure.group_index)
                    continue
                pairs.extend(below)
                return pairs, final
            raise _ChainFailure(deepest)

        if not groups:
            if incoming or targets:
                raise _ChainFailure(0)
            return [], []
        return step(0, incoming)

    def target_floaters(self, members: list[int], targets: list[int]) -> Iterator[list[int]]:
        """A few distinct choices of floaters, one per target, none a past opponent of it."""
        if len(targets) > len(members):
            return
        for rotation in range(min(len(members), _FLOATER_TRIES)):
            order = members[len(members) - rotation :] + members[: len(members) - rotation]
            used: set[int] = set()
            chosen = []
            for target in targets:
                blocked = self.opp[target]
                pick = next(
                    (m for m in reversed(order) if m not in used and m not in blocked), None
                )
                if pick is None:
                    break
                used.add(pick)
                chosen.append(pick)
            else:
                yield chosen

    def match_group(self, floaters: list[int], members: list[int]) -> list[tuple[int, int]] | None:
        """A perfect matching without rematches of members plus floaters, where every floater
        plays a member. Greedy in the seeded order, then augmenting-path repair; exact
        cardinality matching if the repair does not finish. None when none exists."""
        opp = self.opp
        floater_set = set(floaters)
        pairs: list[tuple[int, int]] = []
        free = list(members)
        stuck: list[int] = []
        for floater in floaters:
            blocked = opp[floater]
            for index in range(len(free) - 1, -1, -1):
                member = free[index]
                if member not in blocked:
                    free[index] = free[-1]
                    free.pop()
                    pairs.append((floater, member))
                    break
            else:
                stuck.append(floater)
        while free:
            player = free.pop()
            blocked = opp[player]
            for index in range(len(free) - 1, -1, -1):
                other = free[index]
                if other not in blocked:
                    free[index] = free[-1]
                    free.pop()
                    pairs.append((player, other))
                    break
            else:
                stuck.append(player)
        if not stuck:
            return pairs

        def fits(a: int, b: int) -> bool:
            return b not in opp[a] and not (a in floater_set and b in floater_set)

        while stuck:
            player = stuck.pop()
            partner = next((w for w in stuck if fits(player, w)), None)
            if partner is not None:
                stuck.remove(partner)
                pairs.append((player, partner))
                continue
            # Augmenting path player - a = b - other: break the pair (a, b).
            repaired = False
            for other in stuck:
                for index, (a, b) in enumerate(pairs):
                    if fits(player, a) and fits(other, b):
                        pairs[index] = (player, a)
                    elif fits(player, b) and fits(other, a):
                        pairs[index] = (player, b)
                        a, b = b, a
                    else:
                        continue
                    pairs.append((other, b))
                    stuck.remove(other)
                    repaired = True
                    break
                if repaired:
                    break
            if not repaired:
                return self.exact_group_matching(floaters, members)
        return pairs

    def exact_group_matching(
        self, floaters: list[int], members: list[int]
    ) -> list[tuple[int, int]] | None:
        everyone = floaters + members
        if len(everyone) > _EXACT_GROUP_LIMIT:
            return None
        floater_set = set(floaters)
        graph = nx.Graph()
        graph.add_nodes_from(everyone)
        for i, a in enumerate(everyone):
            blocked = self.opp[a]
            for b in everyone[i + 1 :]:
                if b not in blocked and not (a in floater_set and b in floater_set):
                    graph.add_edge(a, b)
        matching = _sorted_matching(
            nx.max_weight_matching(graph, maxcardinality=True),
            {pid: i for i, pid in enumerate(everyone)},
        )
        if 2 * len(matching) != len(everyone):
            return None
        return [(a, b) if a in floater_set else (b, a) for a, b in matching]

    # --- window tier ----------------------------------------------------------------------

    def solve_windows(
        self, groups: list[list[int]], points: list[int], trouble: int
    ) -> list[tuple[int, int]] | None:
        """Exact matchings on windows of score groups, the lower-bound chain between them.

        The bye is fixed to the ideal player. Every score boundary's crossing count has the
        parity of the number of players above it, whatever the pairing. A pair crossing a
        window's upper boundary is split at the window's top score and one crossing its
        lower boundary at the score just below it; as (x + y)^2 >= x^2 + y^2 for x, y >= 0,
        every pairing costs at least

            sum over odd boundaries outside the windows of gap^2
            + sum over windows of min over crossing counts (t, b) of
              t * top_gap^2 + window(t, b)

        where window(t, b) is the exact optimum of the window's players plus t free players
        entering at its top score and b free players leaving to the score below it. The
        windows are independent because the parities are fixed. A construction reaching
        this bound is optimal among pairings giving the bye to the ideal player, and with
        no rematch it beats every pairing that gives the bye to anyone else. Windows grow
        around obstacles until the bound is reached; None hands over to the exact tier.
        """
        gaps = [points[k] - points[k + 1] for k in range(len(points) - 1)]
        counts = [len(g) for g in groups]
        prefix = [0]
        for count in counts:
            prefix.append(prefix[-1] + count)
        spread = points[0] - points[-1]
        # Any rematch outweighs every possible total of squared differences.
        rematch_weight = (prefix[-1] // 2 + 2) * spread * spread + 1
        solved: dict[tuple[int, int], _WindowPlan | None] = {}
        windows: list[list[int]] = [[trouble, trouble]]

        for _ in range(2 * len(groups) + 2):
            windows = _merge_windows(windows)
            if windows[0] == [0, len(groups) - 1]:
                return None
            if sum(prefix[last + 1] - prefix[first] for first, last in windows) > _WINDOW_LIMIT:
                return None
            plans = []
            grow: list[int] | None = None
            for window in windows:
                key = (window[0], window[1])
                if key not in solved:
                    solved[key] = self.window_plan(
                        groups, points, prefix, window[0], window[1], rematch_weight
                    )
                plan = solved[key]
                if plan is None:
                    grow = window
                    break
                plans.append(plan)
            if grow is not None:
                if grow == [0, len(groups) - 1]:
                    return None
                grow[0], grow[1] = max(0, grow[0] - 1), min(len(groups) - 1, grow[1] + 1)
                continue

            pairs: list[tuple[int, int]] = []
            bound = 0
            leaving: list[int] = []
            segment_start = 0
            failed_at: int | None = None
            for (first, last), (value, inner_pairs, targets, outs) in zip(
                windows, plans, strict=True
            ):
                segment = groups[segment_start:first]
                for k in range(segment_start, first - 1):
                    if prefix[k + 1] % 2:
                        bound += gaps[k] ** 2
                try:
                    above, entering = self.chain(segment, leaving, targets)
                except _ChainFailure as failure:
                    failed_at = segment_start + failure.group_index
                    break
                pairs.extend(above)
                pairs.extend(zip(entering, targets, strict=True))
                pairs.extend(inner_pairs)
                bound += value
                leaving = outs
                segment_start = last + 1
            else:
                for k in range(segment_start, len(groups) - 1):
                    if prefix[k + 1] % 2:
                        bound += gaps[k] ** 2
                try:
                    below, _ = self.chain(groups[segment_start:], leaving, [])
                except _ChainFailure as failure:
                    failed_at = segment_start + failure.group_index
                else:
                    pairs.extend(below)
                    cost = self.cost_of(pairs, None)
                    if not cost.rematches and cost.pair_down_cost == bound:
                        return pairs
                    # Only a floater landing below a window's top group costs more than
                    # its share of the bound: let those windows reach one group higher.
                    top_points = {pid: points[w[0]] for w in windows for pid in _ids(groups, w)}
                    grew = False
                    for window, (_, _, targets, _) in zip(windows, plans, strict=True):
                        if window[0] > 0 and any(
                            self.players[t].points != top_points[t] for t in targets
                        ):
                            window[0] -= 1
                            grew = True
                    if not grew:
                        return None
                    continue
            # A chain between windows got stuck: open a window there (or grow a neighbour).
            for window in windows:
                if window[0] - 1 <= failed_at <= window[1] + 1:
                    window[0] = min(window[0], failed_at)
                    window[1] = max(window[1], failed_at)
                    break
            else:
                windows.append([failed_at, failed_at])
        return None

    def window_plan(
        self,
        groups: list[list[int]],
        points: list[int],
        prefix: list[int],
        first: int,
        last: int,
        rematch_weight: int,
    ) -> _WindowPlan | None:
        """The window's share of the bound and a matching reaching it.

        Returns (value, pairs inside the window, players the entering floaters must play,
        players leaving downwards), or None when the window needs to grow: its optimum
        needs a rematch, or pairs a floater from above straight to below.
        """
        window_ids = _ids(groups, [first, last])
        above = prefix[first]
        below = prefix[-1] - prefix[last + 1]
        top_gap = (points[first - 1] - points[first]) ** 2 if first > 0 else 0
        bottom_gap = (points[last] - points[last + 1]) ** 2 if below else 0
        exit_points = points[last + 1] if below else None
        best: tuple[int, list[tuple]] | None = None
        for entering in range(above % 2, above + 1, 2) if first > 0 else (0,):
            if best is not None and entering * top_gap >= best[0]:
                break
            leaving_counts = range(prefix[last + 1] % 2, below + 1, 2) if below else (0,)
            for leaving in leaving_counts:
                floor = entering * top_gap + leaving * bottom_gap
                if best is not None and floor >= best[0]:
                    break
                matched = self.window_matching(
                    window_ids, entering, leaving, points[first], exit_points, rematch_weight
                )
                if matched is not None:
                    value = entering * top_gap + matched[0]
                    if best is None or value < best[0]:
                        best = (value, matched[1])
        if best is None or best[0] >= rematch_weight:
            return None
        value, matching = best
        inner: list[tuple[int, int]] = []
        targets: list[int] = []
        outs: list[int] = []
        for a, b in matching:
            kinds = (_kind(a), _kind(b))
            if kinds == ("real", "real"):
                inner.append((a, b))
            elif "real" not in kinds:
                return None
            else:
                real, virtual = (a, b) if kinds[0] == "real" else (b, a)
                (targets if virtual[0] == "in" else outs).append(real)
        return value, inner, targets, outs

    def window_matching(
        self,
        window_ids: list[int],
        entering: int,
        leaving: int,
        entry_points: int,
        exit_points: int | None,
        rematch_weight: int,
    ) -> tuple[int, list[tuple]] | None:
        """Exact minimum cost of the window plus free entering and leaving players."""
        pts = {pid: self.players[pid].points for pid in window_ids}
        graph = nx.Graph()
        nodes: list = list(window_ids)
        nodes += [("in", t) for t in range(entering)]
        nodes += [("out", t) for t in range(leaving)]
        costs: dict[tuple, int] = {}
        for i, a in enumerate(nodes):
            for b in nodes[i + 1 :]:
                ka, kb = _kind(a), _kind(b)
                if ka == "real" and kb == "real":
                    cost = (pts[a] - pts[b]) ** 2 + (rematch_weight if b in self.opp[a] else 0)
                elif ka == kb:
                    continue
                elif "real" not in (ka, kb):
                    cost = (entry_points - exit_points) ** 2
                else:
                    real, virtual = (a, b) if ka == "real" else (b, a)
                    if virtual[0] == "in":
                        cost = (entry_points - pts[real]) ** 2
                    else:
                        cost = (pts[real] - exit_points) ** 2
                costs[(a, b)] = cost
        if not costs and nodes:
            return None
        ceiling = max(costs.values(), default=0) + 1
        for (a, b), cost in costs.items():
            graph.add_edge(a, b, weight=ceiling - cost)
        # Virtual nodes are tuples of a string, whose hash (so the matching set's order)
        # changes from process to process; the order decides which floater meets which
        # target, so it must come from the seeded order of the nodes instead.
        matching = _sorted_matching(
            nx.max_weight_matching(graph, maxcardinality=True),
            {node: i for i, node in enumerate(nodes)},
        )
        if 2 * len(matching) != len(nodes):
            return None
        total = sum(costs[(a, b)] if (a, b) in costs else costs[(b, a)] for a, b in matching)
        return total, matching

    # --- whole-field exact tier -----------------------------------------------------------

    def solve_exact(self) -> tuple[list[tuple[int, int]], int | None]:
        """Maximum-weight perfect matching of the whole field, the bye as a dummy vertex."""
        ids = self.ids
        pts = [self.players[pid].points for pid in ids]
        spread = max(pts) - min(pts)
        # Each weight exceeds the largest possible total of everything below it.
        square_ceiling = (len(ids) // 2) * spread * spread
        offset_weight = square_ceiling + 1
        excess_weight = offset_weight * len(ids)
        max_excess = max(self.players[pid].byes for pid in ids) - self.min_byes
        rematch_weight = excess_weight * (max_excess + 1)
        ceiling = rematch_weight + spread * spread + 1
        graph = nx.Graph()
        for i, a in enumerate(ids):
            for b in ids[i + 1 :]:
                cost = (self.players[a].points - self.players[b].points) ** 2
                if b in self.opp[a]:
                    cost += rematch_weight
                graph.add_edge(a, b, weight=ceiling - cost)
        bye_node = ("bye",)
        if len(ids) % 2:
            offsets = self.bye_rank_offsets()
            for pid in ids:
                excess = self.players[pid].byes - self.min_byes
                cost = excess * excess_weight + offsets[pid] * offset_weight
                graph.add_edge(pid, bye_node, weight=ceiling - cost)
        nodes = [*ids, bye_node] if len(ids) % 2 else ids
        matching = _sorted_matching(
            nx.max_weight_matching(graph, maxcardinality=True),
            {node: i for i, node in enumerate(nodes)},
        )
        pairs: list[tuple[int, int]] = []
        bye_id = None
        for a, b in matching:
            if a == bye_node or b == bye_node:
                bye_id = b if a == bye_node else a
            else:
                pairs.append((a, b))
        return pairs, bye_id

    # --- presentation ---------------------------------------------------------------------

    def result(
        self, matching: list[tuple[int, int]], bye_id: int | None, method: str
    ) -> PairingResult:
        cost = self.cost_of(matching, bye_id)
        pairs = []
        for a, b in matching:
            pa, pb = self.players[a], self.players[b]
            if (pb.points, -self.position[b]) > (pa.points, -self.position[a]):
                pa, pb = pb, pa
            rematch = pb.id in self.opp[pa.id]
            reasons = []
            if pa.points == pb.points:
                reasons.append(
                    Reason(
                        ReasonCode.SAME_GROUP,
                        f"same point group ({pa.points} points)",
                        high_points=pa.points,
                        low_points=pb.points,
                    )
                )
            else:
                reasons.append(
                    Reason(
                        ReasonCode.PAIR_DOWN,
                        f"paired down from {pa.points} to {pb.points} points",
                        high_points=pa.points,
                        low_points=pb.points,
                    )
                )
            if rematch:
                reasons.append(
                    Reason(
                        ReasonCode.REMATCH,
                        "rematch impossible to avoid",
                        high_points=pa.points,
                        low_points=pb.points,
                    )
                )
            pairs.append(Pair(pa.id, pb.id, pa.points, pb.points, rematch, tuple(reasons)))
        pairs.sort(
            key=lambda p: (
                -p.high_points,
                -p.low_points,
                min(self.position[p.high_id], self.position[p.low_id]),
            )
        )
        bye = None
        if bye_id is not None:
            bye = Bye(
                bye_id,
                self.players[bye_id].points,
                self.players[bye_id].byes,
                self.bye_reasons(bye_id, cost),
            )
        return PairingResult(self.round_number, self.seed, tuple(pairs), bye, cost, method)

    def bye_reasons(self, bye_id: int, cost: PairingCost) -> tuple[Reason, ...]:
        previous = self.players[bye_id].byes
        reasons = []
        if cost.bye_excess:
            reasons.append(
                Reason(
                    ReasonCode.BYE_MOVED,
                    "repeat bye: no player with fewer byes could sit out without an extra rematch",
                    previous_byes=previous,
                    skipped=cost.bye_rank_offset,
                )
            )
        elif cost.bye_rank_offset:
            reasons.append(
                Reason(
                    ReasonCode.BYE_MOVED,
                    f"bye: the {cost.bye_rank_offset} lower-ranked player(s) with no more byes "
                    "could not sit out without an extra rematch",
                    previous_byes=previous,
                    skipped=cost.bye_rank_offset,
                )
            )
        elif previous == 0:
            reasons.append(
                Reason(
                    ReasonCode.BYE,
                    "bye: lowest-ranked player without a bye",
                    previous_byes=0,
                    skipped=0,
                )
            )
        if previous and not cost.bye_excess:
            reasons.append(
                Reason(
                    ReasonCode.REPEAT_BYE,
                    f"repeat bye: every active player has had {previous} or more; "
                    "lowest-ranked among those with the fewest"
                    if not cost.bye_rank_offset
                    else f"repeat bye: every active player has had {previous} or more",
                    previous_byes=previous,
                    skipped=cost.bye_rank_offset,
                )
            )
        return tuple(reasons)


def _ids(groups: list[list[int]], window: list[int]) -> list[int]:
    return [pid for group in groups[window[0] : window[1] + 1] for pid in group]


def _merge_windows(windows: list[list[int]]) -> list[list[int]]:
    """Sorted, with overlapping or touching windows merged (no empty chain between)."""
    merged: list[list[int]] = []
    for first, last in sorted(windows):
        if merged and first <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], last)
        else:
            merged.append([first, last])
    return merged


def _sorted_matching(matching: set[tuple], order: dict) -> list[tuple]:
    """A networkx matching as a list in a fixed order: each edge's earlier node first, edges
    by their earlier node. A set's iteration order follows the hashes of its items, and
    strings hash differently in every process (PYTHONHASHSEED): the same seed must give
    the same round anywhere."""
    edges = [(a, b) if order[a] <= order[b] else (b, a) for a, b in matching]
    return sorted(edges, key=lambda edge: order[edge[0]])


def _kind(node: object) -> str:
    return node[0] if isinstance(node, tuple) else "real"
