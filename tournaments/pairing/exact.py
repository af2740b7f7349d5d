"""The whole-field exact tier: one maximum-weight matching of every player, the bye as a
dummy vertex, with weights that make the lexicographic cost a single number. O(n^3), so
only used when no window can be certified.

The matching is first solved on the pairs who have not met: when they cover the field,
no pairing has a rematch and the best perfect matching of that graph is the optimum (late
in long events, where this tier is needed, that graph is small). Only when a rematch is
unavoidable are rematch pairs added, and only those between players that a maximum
matching of the first graph may leave out, in different components of its Gallai-Edmonds
deficient set (deficiency.py): every optimal pairing uses no other rematch."""

from __future__ import annotations

from tournaments.pairing.deficiency import deficient_components, maximum_matching
from tournaments.pairing.field import Field
from tournaments.pairing.matching import MatchingGraph, blossom, sorted_matching
from tournaments.pairing.work import STAGE_EXACT, Work, matching_work, sparse_matching_work


def solve_exact(
    field: Field, work: Work | None = None, ids: list[int] | None = None
) -> tuple[list[tuple[int, int]], int | None]:
    """Maximum-weight perfect matching of the whole field, the bye as a dummy vertex.

    With ids, only those players are paired (the bye, when they are odd, still priced by
    the whole field's bye terms): the barrier tier's core (barrier.py)."""
    ids = field.ids if ids is None else ids
    if not ids:
        return [], None
    members = set(ids)
    pts = [field.players[pid].points for pid in ids]
    spread = max(pts) - min(pts)
    count = len(ids)
    # Each weight exceeds the largest possible total of everything after it in the cost:
    # rank offset and score offset (under the field's size), squares, bye excess,
    # rematches.
    field_size = len(field.ids)
    square_weight = field_size
    score_weight = square_weight * (count // 2) * spread * spread + field_size
    excess_weight = score_weight * field_size
    max_excess = max(field.players[pid].byes for pid in ids) - field.min_byes
    rematch_weight = excess_weight * (max_excess + 1)
    ceiling = rematch_weight + square_weight * spread * spread + 1
    bye_node = ("bye",)
    nodes = [*ids, bye_node] if len(ids) % 2 else ids
    order = {node: i for i, node in enumerate(nodes)}
    bye_weights: dict[int, int] = {}
    if len(ids) % 2:
        offsets = field.bye_offsets()
        for pid in ids:
            excess = field.players[pid].byes - field.min_byes
            score_offset, rank_offset = offsets[pid]
            cost = excess * excess_weight + score_offset * score_weight + rank_offset
            bye_weights[pid] = ceiling - cost

    def square_weight_of(a: int, b: int) -> int:
        return ceiling - square_weight * (field.players[a].points - field.players[b].points) ** 2

    # First the pairs who have not met: if they alone cover the field, no pairing has
    # fewer rematches (none), and every pairing without one is a perfect matching of
    # this graph, so its best perfect matching is the optimum. Late in long events,
    # where this tier is needed, few pairs are left and this graph is small.
    graph = MatchingGraph()
    graph.add_nodes_from(nodes)
    matching: set = set()
    # Someone who has met every other player and cannot sit out makes a rematch certain.
    isolated = any(len(field.opp[pid] & members) == count - 1 for pid in ids) and not bye_weights
    if work is not None:
        # A certain rematch goes straight to the complete graph, and pays for it first.
        work.spend(STAGE_EXACT, matching_work(len(nodes)) if isolated else exact_work(field, ids))
    for i, a in enumerate(ids):
        met = field.opp[a]
        for b in ids[i + 1 :]:
            if b not in met:
                graph.add_edge(a, b, weight=square_weight_of(a, b))
    for pid, weight in bye_weights.items():
        graph.add_edge(pid, bye_node, weight=weight)
    if not isolated:
        matching = blossom(graph, ceiling)
    if 2 * len(matching) != len(nodes):
        # A rematch is unavoidable. Every optimal pairing is a maximum matching of this
        # graph plus rematch pairs between players of different components of its
        # Gallai-Edmonds deficient set (deficiency.py): only those pairs are added.
        if work is not None and not isolated:
            work.spend(STAGE_EXACT, matching_work(len(nodes)))
        if isolated:
            mate = maximum_matching(nodes, graph.adj)
        else:
            mate = dict.fromkeys(nodes)
            for a, b in matching:
                mate[a], mate[b] = b, a
        component = deficient_components(nodes, graph.adj, mate)
        deficient = [pid for pid in ids if pid in component]
        for i, a in enumerate(deficient):
            met = field.opp[a]
            for b in deficient[i + 1 :]:
                if component[a] != component[b] and b in met:
                    graph.add_edge(a, b, weight=square_weight_of(a, b) - rematch_weight)
        matching = blossom(graph, ceiling)
    pairs: list[tuple[int, int]] = []
    bye_id = None
    for a, b in sorted_matching(matching, order):
        if a == bye_node or b == bye_node:
            bye_id = b if a == bye_node else a
        else:
            pairs.append((a, b))
    return pairs, bye_id


def exact_work(field: Field, ids: list[int] | None = None) -> int:
    """The estimated work of this tier when no rematch is needed: a matching of the
    pairs who have not met (with the bye vertex in an odd field)."""
    ids = field.ids if ids is None else ids
    members = set(ids) if len(ids) < len(field.ids) else None
    count = len(ids)
    met = sum(len(field.opp[pid] & members if members else field.opp[pid]) for pid in ids)
    fresh = (count * (count - 1) - met) // 2
    odd = count % 2
    return sparse_matching_work(count + odd, fresh + odd * count)
