"""The window tier: when the lower-bound chain gets stuck, solve score groups around the
obstacle exactly (a small minimum-cost matching per window) and chain the rest, then
certify the result against a relaxation of the whole field (the proof is in
solve_windows' docstring and docs/pairing.md). Windows grow until the bound is met or
they get too large, which hands over to the whole-field exact tier.

When several players could sit out at the same bye cost (the fewest byes, the lowest
score among them), the bye is a slot in their score group that only they can fill, so a
window over that group chooses the bye by the pair-downs first and the rank second.
"""

from __future__ import annotations

from tournaments.pairing.exact import exact_work
from tournaments.pairing.field import Field
from tournaments.pairing.lower_bound import ChainFailure, chain_score_groups
from tournaments.pairing.matching import MatchingGraph, blossom, sorted_matching
from tournaments.pairing.work import STAGE_WINDOWS, Work, matching_work

# Players above which an exact matching of a window is not attempted.
WINDOW_LIMIT = 500

# Fields up to this size may hand over to the whole-field matching as soon as the
# windows have cost as much as it would; larger fields keep trying windows, as the
# whole-field matching would take too long and too much memory.
EXACT_AFFORDABLE = 400

# The bye as a window node: it "plays" the player who sits out, at no pair-down cost.
BYE_SLOT = ("bye",)

# (share of the bound, pairs inside the window, window players the floaters entering from
# above must play, window players leaving downwards)
WindowPlan = tuple[int, list[tuple[int, int]], list[int], list[int]]

# A window whose best matching pairs a floater from above straight to a player leaving
# below: the window needs the group below, where that floater lands, and nothing above.
PASS_THROUGH = "pass_through"


def solve_windows(
    field: Field,
    groups: list[list[int]],
    points: list[int],
    trouble: int,
    bye_candidates: list[int],
    work: Work | None = None,
) -> tuple[list[tuple[int, int]], int | None] | None:
    """Exact matchings on windows of score groups, the lower-bound chain between them;
    the pairs and the bye, or None to hand over to the exact tier.

    groups are the score groups without bye_candidates[0], the lowest-ranked candidate
    (candidates: docs/pairing.md). With one candidate the bye is fixed to it. With more,
    the bye is a slot added with that player to their group, which only the candidates
    may fill at no pair-down cost: pairings of that field are exactly the pairings giving
    the bye to a candidate. Every score boundary's crossing count has the parity of the
    number of players above it, whatever the pairing. A pair crossing a window's upper
    boundary is split at the score just above the window and one crossing its lower
    boundary at the score just below it; as (x + y)^2 >= x^2 + y^2 for x, y >= 0, every
    such pairing has scale * squares + rank offset of the bye at least

        scale * sum over odd boundaries outside the windows of gap^2
        + sum over windows of min over crossing counts (t, b) of window(t, b)

    where window(t, b) is the exact optimum of the window's players plus t free players
    entering from the score just above it and b free players leaving to the score just
    below it, in the same units (the slot's edge to a candidate costs its rank offset,
    under scale). The floaters the construction sends do come from the group just above,
    so it pays exactly that price. The windows are independent because the parities are
    fixed; a bye outside every window goes to the lowest-ranked candidate, rank offset 0.
    A construction reaching this bound with no rematch is optimal: it is best on squares,
    then rank, among pairings giving the bye to a candidate, and beats on the earlier
    terms every pairing that does not. Windows grow around obstacles until the bound is
    reached, or until their matchings have cost as much as the whole-field one would.
    """
    ideal = bye_candidates[0] if bye_candidates else None
    chain_groups = groups
    bye_costs: dict[int, int] = {}
    if len(bye_candidates) > 1:
        bye_costs = {pid: offset for offset, pid in enumerate(bye_candidates)}
        # The other candidates share the ideal player's score, so the group exists.
        index = points.index(field.players[ideal].points)
        groups = list(groups)
        groups[index] = [*groups[index], ideal, BYE_SLOT]
    counts = [len(g) for g in groups]
    prefix = [0]
    for count in counts:
        prefix.append(prefix[-1] + count)
    # Squares are counted in units of scale so that a rank offset (under scale) only
    # breaks ties between equal squares.
    scale = len(field.ids) + 1
    # What each boundary adds to the bound: its squared gap when an odd number of
    # players sits above it (one pair must cross it), nothing otherwise.
    crossing_costs = [
        scale * (points[k] - points[k + 1]) ** 2 if prefix[k + 1] % 2 else 0
        for k in range(len(points) - 1)
    ]
    spread = points[0] - points[-1]
    # Any rematch outweighs every possible total of squared differences and rank offset.
    rematch_weight = scale * ((prefix[-1] // 2 + 2) * spread * spread + 1)
    field_size = len(field.ids) + 1
    # Windows that have spent a quarter of what the whole-field matching is estimated to
    # cost hand over to it: at worst 1.25 times that matching, where trying windows until
    # they had spent all of it gave twice (a window worth solving is usually far smaller;
    # near round-robin saturation the windows that succeed need many small matchings,
    # more than the sparse whole-field matching takes).
    budget = exact_work(field) // 4 if field_size <= EXACT_AFFORDABLE else float("inf")
    costs = WindowCosts(scale, rematch_weight, bye_costs, budget, work or Work())
    solved: dict[tuple[int, int], WindowPlan | str | None] = {}
    windows: list[list[int]] = [[trouble, trouble]]
    whole_field = [0, len(groups) - 1]

    for _ in range(2 * len(groups) + 2):
        windows = _merge_windows(windows)
        if windows[0] == whole_field:
            return None
        if sum(prefix[last + 1] - prefix[first] for first, last in windows) > WINDOW_LIMIT:
            return None
        plans = []
        grow: list[int] | None = None
        for window in windows:
            key = (window[0], window[1])
            if key not in solved:
                try:
                    solved[key] = window_plan(
                        field, groups, points, prefix, window[0], window[1], costs
                    )
                except OverBudget:
                    return None
            plan = solved[key]
            if plan is None or plan == PASS_THROUGH:
                grow = window
                break
            plans.append(plan)
        if grow is not None:
            if grow == whole_field:
                return None
            if plan == PASS_THROUGH and grow[1] < len(groups) - 1:
                grow[1] += 1
            else:
                grow[0], grow[1] = max(0, grow[0] - 1), min(len(groups) - 1, grow[1] + 1)
            continue
        try:
            pairs, bound = _join_windows(field, chain_groups, windows, plans, crossing_costs)
        except ChainFailure as failure:
            _open_window_at(windows, failure.group_index)
            continue
        bye_id = ideal
        real_pairs = []
        for a, b in pairs:
            if BYE_SLOT in (a, b):
                bye_id = b if a == BYE_SLOT else a
            else:
                real_pairs.append((a, b))
        cost = field.cost_of(real_pairs, bye_id)
        if not cost.rematches and scale * cost.pair_down_cost + cost.bye_rank_offset == bound:
            return real_pairs, bye_id
        if not _raise_windows_under_floaters(field, groups, points, windows, plans):
            return None
    return None


class WindowCosts:
    """The units of the window tier: scale per squared point, the rematch weight, and
    what the bye slot costs with each candidate (empty when the bye is fixed)."""

    def __init__(
        self,
        scale: int,
        rematch_weight: int,
        bye_costs: dict[int, int],
        work_left: float,
        work: Work,
    ) -> None:
        self.scale = scale
        self.rematch_weight = rematch_weight
        self.bye_costs = bye_costs
        # What the window matchings may still spend, in cubed nodes (the cost model of a
        # blossom matching), before the whole-field matching is the cheaper proof.
        self.work_left = work_left
        # The caller's limit on the whole pairing's work (PairingDeferred past it).
        self.work = work


class OverBudget(Exception):
    """The windows have cost as much as the whole-field matching would."""


def _join_windows(
    field: Field,
    groups: list[list[int]],
    windows: list[list[int]],
    plans: list[WindowPlan],
    crossing_costs: list[int],
) -> tuple[list[tuple[int, int]], int]:
    """The windows' matchings joined by lower-bound chains through the groups between
    them, and the bound that pairing has to meet. Raises ChainFailure with the index of
    the group where a chain got stuck."""
    pairs: list[tuple[int, int]] = []
    bound = 0
    leaving: list[int] = []
    segment_start = 0
    for (first, last), (value, inner_pairs, targets, outs) in zip(windows, plans, strict=True):
        bound += sum(crossing_costs[segment_start : max(segment_start, first - 1)])
        above, entering = _chain_segment(field, groups, segment_start, first, leaving, targets)
        pairs.extend(above)
        pairs.extend(zip(entering, targets, strict=True))
        pairs.extend(inner_pairs)
        bound += value
        leaving = outs
        segment_start = last + 1
    bound += sum(crossing_costs[segment_start:])
    below, _ = _chain_segment(field, groups, segment_start, len(groups), leaving, [])
    pairs.extend(below)
    return pairs, bound


def _chain_segment(
    field: Field,
    groups: list[list[int]],
    start: int,
    stop: int,
    incoming: list[int],
    targets: list[int],
) -> tuple[list[tuple[int, int]], list[int]]:
    """The lower-bound chain on groups[start:stop]; a failure names the group in groups."""
    try:
        return chain_score_groups(field.opp, groups[start:stop], incoming, targets)
    except ChainFailure as failure:
        raise ChainFailure(start + failure.group_index) from None


def _open_window_at(windows: list[list[int]], group_index: int) -> None:
    """A chain between windows got stuck: open a window there (or grow a neighbour)."""
    for window in windows:
        if window[0] - 1 <= group_index <= window[1] + 1:
            window[0] = min(window[0], group_index)
            window[1] = max(window[1], group_index)
            return
    windows.append([group_index, group_index])


def _raise_windows_under_floaters(
    field: Field,
    groups: list[list[int]],
    points: list[int],
    windows: list[list[int]],
    plans: list[WindowPlan],
) -> bool:
    """Only a floater landing below a window's top group costs more than its share of
    the bound: let those windows reach one group higher. False when none can."""
    top_points = {pid: points[w[0]] for w in windows for pid in _ids(groups, w)}
    grew = False
    for window, (_, _, targets, _) in zip(windows, plans, strict=True):
        if window[0] > 0 and any(field.players[t].points != top_points[t] for t in targets):
            window[0] -= 1
            grew = True
    return grew


def window_plan(
    field: Field,
    groups: list[list[int]],
    points: list[int],
    prefix: list[int],
    first: int,
    last: int,
    costs: WindowCosts,
) -> WindowPlan | str | None:
    """The window's share of the bound and a matching reaching it.

    Returns (value, pairs inside the window, players the entering floaters must play,
    players leaving downwards), or None when the window needs to grow: its optimum
    needs a rematch; PASS_THROUGH when it pairs a floater from above straight to below
    (the window needs the group below). The bye slot's pair, when the window holds it,
    is among the inner pairs.
    """
    window_ids = _ids(groups, [first, last])
    above = prefix[first]
    below = prefix[-1] - prefix[last + 1]
    # Floaters enter from the group just above, at its score: every entering pair costs at
    # least the top gap, and exactly what the construction will pay.
    entry_points = points[first - 1] if first > 0 else points[first]
    top_gap = costs.scale * (points[first - 1] - points[first]) ** 2 if first > 0 else 0
    bottom_gap = costs.scale * (points[last] - points[last + 1]) ** 2 if below else 0
    exit_points = points[last + 1] if below else None
    # A slot pairs with a window player or a slot of the other kind, so counts beyond
    # the window's size plus the other kind's count have no perfect matching.
    size = len(window_ids)
    best: tuple[int, list[tuple]] | None = None
    for entering in range(above % 2, min(above, size + below) + 1, 2) if first > 0 else (0,):
        if best is not None and entering * top_gap >= best[0]:
            break
        fewest_leaving = prefix[last + 1] % 2 if below else 0
        most_leaving = min(below, size + entering) if below else 0
        most_leaving -= (most_leaving - fewest_leaving) % 2
        # The fewest leaving players first (usually the answer), then every larger count
        # in one matching whose spare leaving slots pair off among themselves at no cost.
        for leaving, spare in ((fewest_leaving, False), (most_leaving, True)):
            if spare and leaving <= fewest_leaving:
                break
            floor = entering * top_gap + (fewest_leaving + 2 * spare) * bottom_gap
            if best is not None and floor >= best[0]:
                break
            matched = window_matching(
                field, window_ids, entering, leaving, entry_points, exit_points, costs, spare
            )
            if matched is not None and (best is None or matched[0] < best[0]):
                best = matched
    if best is None or best[0] >= costs.rematch_weight:
        return None
    value, matching = best
    inner: list[tuple[int, int]] = []
    targets: list[int] = []
    outs: list[int] = []
    for a, b in matching:
        kinds = (_kind(a), _kind(b))
        if kinds == ("real", "real") or "bye" in kinds:
            inner.append((a, b))
        elif kinds == ("out", "out"):
            continue  # spare leaving slots: fewer players leave
        elif "real" not in kinds:
            return PASS_THROUGH
        else:
            real, virtual = (a, b) if kinds[0] == "real" else (b, a)
            (targets if virtual[0] == "in" else outs).append(real)
    return value, inner, targets, outs


def window_matching(
    field: Field,
    window_ids: list[int],
    entering: int,
    leaving: int,
    entry_points: int,
    exit_points: int | None,
    costs: WindowCosts,
    spare_leaving: bool = False,
) -> tuple[int, list[tuple]] | None:
    """Exact minimum cost of the window plus free entering and leaving players. With
    spare_leaving, leaving slots may also pair off among themselves at no cost, so the
    answer is the best over every leaving count of the same parity up to `leaving`
    (the slots are interchangeable, so a path of edges between them is enough)."""
    nodes: list = list(window_ids)
    units = matching_work(len(window_ids) + entering + leaving)
    costs.work_left -= units
    if costs.work_left < 0:
        raise OverBudget
    costs.work.spend(STAGE_WINDOWS, units)
    nodes += [("in", t) for t in range(entering)]
    nodes += [("out", t) for t in range(leaving)]
    edge_costs = _window_edge_costs(field, nodes, entry_points, exit_points, costs)
    if spare_leaving:
        for t in range(leaving - 1):
            edge_costs[(("out", t), ("out", t + 1))] = 0
    if not edge_costs and nodes:
        return None
    ceiling = max(edge_costs.values(), default=0) + 1
    graph = MatchingGraph()
    for (a, b), cost in edge_costs.items():
        graph.add_edge(a, b, weight=ceiling - cost)
    # Virtual nodes are tuples of a string, whose hash (so the matching set's order)
    # changes from process to process; the order decides which floater meets which
    # target, so it must come from the seeded order of the nodes instead.
    matching = sorted_matching(blossom(graph, ceiling), {node: i for i, node in enumerate(nodes)})
    if 2 * len(matching) != len(nodes):
        return None
    total = sum(
        edge_costs[(a, b)] if (a, b) in edge_costs else edge_costs[(b, a)] for a, b in matching
    )
    return total, matching


def _window_edge_costs(
    field: Field,
    nodes: list,
    entry_points: int,
    exit_points: int | None,
    costs: WindowCosts,
) -> dict[tuple, int]:
    """Every pair the window's matching may use, with its cost in the window's units: two
    window players (their squared difference, plus the rematch weight), a player and an
    entering or leaving slot (the squared difference to the entry or exit score), an
    entering slot straight to a leaving one, or the bye slot and a bye candidate (the
    candidate's rank offset). Two slots of the same kind never pair, and the bye slot
    pairs with nothing else."""
    scale, rematch_weight = costs.scale, costs.rematch_weight
    pts = {node: field.players[node].points for node in nodes if _kind(node) == "real"}
    edge_costs: dict[tuple, int] = {}
    for i, a in enumerate(nodes):
        for b in nodes[i + 1 :]:
            ka, kb = _kind(a), _kind(b)
            if ka == "real" and kb == "real":
                cost = scale * (pts[a] - pts[b]) ** 2 + (rematch_weight if b in field.opp[a] else 0)
            elif ka == kb:
                continue
            elif "bye" in (ka, kb):
                candidate = b if ka == "bye" else a
                if candidate not in costs.bye_costs:
                    continue
                cost = costs.bye_costs[candidate]
            elif "real" not in (ka, kb):
                cost = scale * (entry_points - exit_points) ** 2
            else:
                real, virtual = (a, b) if ka == "real" else (b, a)
                if virtual[0] == "in":
                    cost = scale * (entry_points - pts[real]) ** 2
                else:
                    cost = scale * (pts[real] - exit_points) ** 2
            edge_costs[(a, b)] = cost
    return edge_costs


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


def _kind(node: object) -> str:
    return node[0] if isinstance(node, tuple) else "real"
