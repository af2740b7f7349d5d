"""The Gallai-Edmonds deficient set the whole-field tier uses to add only the rematch
pairs an optimal pairing can need (tournaments/pairing/deficiency.py), checked against
its definition: the players without whom the largest matching keeps its size."""

import itertools

import networkx as nx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.hypothesis_profiles import examples
from tournaments.pairing.deficiency import deficient_components, maximum_matching


def largest_matching(nodes, edges):
    graph = nx.Graph()
    graph.add_nodes_from(nodes)
    graph.add_edges_from(edges)
    return len(nx.max_weight_matching(graph, maxcardinality=True))


@st.composite
def graphs(draw, max_nodes):
    count = draw(st.integers(0, max_nodes))
    density = draw(st.sampled_from([0.05, 0.15, 0.3, 0.5, 0.8]))
    nodes = list(range(count))
    edges = [(a, b) for a, b in itertools.combinations(nodes, 2) if draw(st.floats(0, 1)) < density]
    return nodes, edges


def adjacency(nodes, edges):
    adj = {v: set() for v in nodes}
    for a, b in edges:
        adj[a].add(b)
        adj[b].add(a)
    return adj


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(graph=graphs(max_nodes=16))
def test_the_deficient_set_and_its_components_match_their_definition(graph):
    nodes, edges = graph
    adj = adjacency(nodes, edges)
    mate = maximum_matching(nodes, adj)
    for v, partner in mate.items():
        assert partner is None or (mate[partner] == v and partner in adj[v])
    size = sum(1 for partner in mate.values() if partner is not None) // 2
    largest = largest_matching(nodes, edges)
    assert size == largest

    component = deficient_components(nodes, adj, mate)
    deficient = {
        v
        for v in nodes
        if largest_matching([u for u in nodes if u != v], [e for e in edges if v not in e])
        == largest
    }
    assert set(component) == deficient
    induced = nx.Graph()
    induced.add_nodes_from(deficient)
    induced.add_edges_from((a, b) for a, b in edges if a in deficient and b in deficient)
    expected = sorted(sorted(c) for c in nx.connected_components(induced))
    found = {}
    for v, number in component.items():
        found.setdefault(number, []).append(v)
    assert sorted(sorted(c) for c in found.values()) == expected
    # A maximum matching leaves out at most one player of each component, none outside D.
    exposed = [v for v, partner in mate.items() if partner is None]
    assert set(exposed) <= deficient
    assert len({component[v] for v in exposed}) == len(exposed)


def test_blossoms_are_contracted():
    # A triangle hanging off a path: 0-1, 1-2, 2-3, 3-1 (odd cycle), 3-4, plus 5 alone on 4.
    nodes = list(range(6))
    edges = [(0, 1), (1, 2), (2, 3), (3, 1), (3, 4), (4, 5)]
    adj = adjacency(nodes, edges)
    mate = maximum_matching(nodes, adj)
    assert sum(partner is not None for partner in mate.values()) == 6
    assert deficient_components(nodes, adj, mate) == {}
    # Five players around an odd cycle: any one can be left out, one component.
    nodes = list(range(5))
    adj = adjacency(nodes, [(i, (i + 1) % 5) for i in range(5)])
    component = deficient_components(nodes, adj, maximum_matching(nodes, adj))
    assert set(component) == set(nodes) and len(set(component.values())) == 1
