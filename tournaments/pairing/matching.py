"""Matchings the pairer is built from: a rematch-free perfect matching of one score group
(with floaters from above who must play a member of it), and networkx matchings put in
an order that does not depend on the process."""

from __future__ import annotations

import networkx as nx

# Groups up to this size get an exact cardinality matching when the greedy repair fails.
EXACT_GROUP_LIMIT = 800


def match_group(
    opp: dict[int, set[int]], floaters: list[int], members: list[int]
) -> list[tuple[int, int]] | None:
    """A perfect matching without rematches of members plus floaters, where every floater
    plays a member. Greedy in the seeded order, then augmenting-path repair; exact
    cardinality matching if the repair does not finish. None when none exists."""
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
            return exact_group_matching(opp, floaters, members)
    return pairs


def exact_group_matching(
    opp: dict[int, set[int]], floaters: list[int], members: list[int]
) -> list[tuple[int, int]] | None:
    """match_group's fallback: a maximum cardinality matching of the group (too large a
    group gives None at once), each pair with its floater first."""
    everyone = floaters + members
    if len(everyone) > EXACT_GROUP_LIMIT:
        return None
    floater_set = set(floaters)
    graph = MatchingGraph()
    graph.add_nodes_from(everyone)
    for i, a in enumerate(everyone):
        blocked = opp[a]
        for b in everyone[i + 1 :]:
            if b not in blocked and not (a in floater_set and b in floater_set):
                graph.add_edge(a, b, weight=1.0)  # floats: see blossom()
    matching = sorted_matching(
        nx.max_weight_matching(graph, maxcardinality=True),
        {pid: i for i, pid in enumerate(everyone)},
    )
    if 2 * len(matching) != len(everyone):
        return None
    return [(a, b) if a in floater_set else (b, a) for a, b in matching]


class MatchingGraph(nx.Graph):
    """The graph every blossom matching of the pairer runs on: an nx.Graph whose
    G[v] is the adjacency dict itself rather than a read-only view of it. networkx's
    matching computes each edge's slack through G[v][w], millions of times on a
    whole-field graph, and building the view took about a third of the run; the lookups
    and their order are otherwise the same, so the matching is identical."""

    def __getitem__(self, node):
        return self._adj[node]


# Integers up to this are exact as floats (the 53-bit significand).
EXACT_FLOAT = 2**53


def blossom(graph: nx.Graph, max_weight: int) -> set[tuple]:
    """networkx's maximum-weight maximum-cardinality matching, without its final check.

    Given integer weights, networkx verifies the optimum at the end, which takes about
    40% of the run on the pairer's graphs. With float weights it skips that check, and
    its arithmetic is otherwise the same operations: its dual values stay integers
    (they start at the largest weight and move by halves of even slacks) of magnitude
    under 8 x max_weight, all exact as floats below 2^53, so the answer is identical.
    Larger weights keep the integers."""
    if 8 * max_weight < EXACT_FLOAT:
        for _, _, data in graph.edges(data=True):
            data["weight"] = float(data["weight"])
    return nx.max_weight_matching(graph, maxcardinality=True)


def sorted_matching(matching: set[tuple], order: dict) -> list[tuple]:
    """A networkx matching as a list in a fixed order: each edge's earlier node first, edges
    by their earlier node. A set's iteration order follows the hashes of its items, and
    strings hash differently in every process (PYTHONHASHSEED): the same seed must give
    the same round anywhere."""
    edges = [(a, b) if order[a] <= order[b] else (b, a) for a, b in matching]
    return sorted(edges, key=lambda edge: order[edge[0]])
