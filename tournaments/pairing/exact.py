"""The whole-field exact tier: one maximum-weight matching of every player, the bye as a
dummy vertex, with weights that make the lexicographic cost a single number. O(n^3), so
only used when no window can be certified."""

from __future__ import annotations

import networkx as nx

from tournaments.pairing.field import Field
from tournaments.pairing.matching import sorted_matching
from tournaments.pairing.work import STAGE_EXACT, Work, matching_work


def solve_exact(field: Field, work: Work | None = None) -> tuple[list[tuple[int, int]], int | None]:
    """Maximum-weight perfect matching of the whole field, the bye as a dummy vertex."""
    ids = field.ids
    if work is not None:
        work.spend(STAGE_EXACT, matching_work(len(ids) + len(ids) % 2))
    pts = [field.players[pid].points for pid in ids]
    spread = max(pts) - min(pts)
    count = len(ids)
    # Each weight exceeds the largest possible total of everything after it in the cost:
    # rank offset (under count), squares, score offset (under count), bye excess, rematches.
    square_weight = count
    score_weight = square_weight * (count // 2) * spread * spread + count
    excess_weight = score_weight * count
    max_excess = max(field.players[pid].byes for pid in ids) - field.min_byes
    rematch_weight = excess_weight * (max_excess + 1)
    ceiling = rematch_weight + square_weight * spread * spread + 1
    graph = nx.Graph()
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            cost = square_weight * (field.players[a].points - field.players[b].points) ** 2
            if b in field.opp[a]:
                cost += rematch_weight
            graph.add_edge(a, b, weight=ceiling - cost)
    bye_node = ("bye",)
    if len(ids) % 2:
        offsets = field.bye_offsets()
        for pid in ids:
            excess = field.players[pid].byes - field.min_byes
            score_offset, rank_offset = offsets[pid]
            cost = excess * excess_weight + score_offset * score_weight + rank_offset
            graph.add_edge(pid, bye_node, weight=ceiling - cost)
    nodes = [*ids, bye_node] if len(ids) % 2 else ids
    matching = sorted_matching(
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
