"""Which players a maximum matching may leave out: the Gallai-Edmonds deficient set.

When the pairs who have not met cannot cover the field, a rematch is unavoidable, and the
whole-field tier adds rematch pairs to its graph. It needs only some of them. Let G be the
graph of the pairs who may meet without a rematch (and the bye vertex), nu its largest
matching, and D the players that some maximum matching of G leaves out (the Gallai-Edmonds
deficient set). Every pairing has at least n/2 - nu rematches (a matching of G covers at
most 2 nu players), and a pairing with exactly that many is a maximum matching of G plus
rematch pairs among the players it leaves out. The Gallai-Edmonds theorem says a maximum
matching leaves out at most one player of each connected component of G restricted to D,
and nobody outside D. Since rematches come first in the cost, every optimal pairing is
therefore a maximum matching of G plus rematch pairs joining players of *different*
components of G[D]: adding only those rematch pairs to G keeps every optimal pairing,
and the graph's best perfect matching is the optimum of the complete graph.

This module finds a maximum cardinality matching (greedy, then Edmonds' augmenting paths
with blossoms) and, from one, the components of G[D]: the players an Edmonds search from
every exposed player labels even. Pure Python on adjacency mappings (sets, or a networkx
graph's adj), no Django. The same in every process: the matching follows the order of
the nodes given (neighbours sorted by it), and D with its components is unique whatever
maximum matching and search order found it (the theorem), so no hash order decides.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

Node = Hashable


class AugmentingPath(Exception):
    """The search met two trees: the matching was not maximum."""

    def __init__(self, ends: tuple) -> None:
        super().__init__("augmenting path")
        self.ends = ends


def _search(
    nodes: Sequence[Node],
    adj: dict[Node, set[Node]],
    mate: dict[Node, Node | None],
    roots: Sequence[Node],
) -> tuple[dict[Node, int], dict[Node, Node], dict[Node, Node]]:
    """Edmonds' alternating forest grown from every root at once. Returns the labels (1
    even, 2 odd; unreached players absent), each odd player's parent and the blossom
    bases (a union-find whose find() gives a player's current base). Raises
    AugmentingPath when an edge joins two even players of different trees."""
    label: dict[Node, int] = {}
    parent: dict[Node, Node] = {}
    base: dict[Node, Node] = {}

    def find(x: Node) -> Node:
        root = x
        while base.get(root, root) != root:
            root = base[root]
        while x != root:
            base[x], x = root, base[x]
        return root

    queue: list[Node] = []
    for root in roots:
        label[root] = 1
        queue.append(root)

    def tree_path(x: Node) -> list[Node]:
        """The bases from x's base up to its tree's root."""
        path = [find(x)]
        while True:
            up = mate[path[-1]]
            if up is None:
                return path
            path.append(find(parent[up]))

    def contract(x: Node, top: Node) -> None:
        while x != top:
            odd = mate[x]
            base[x] = top
            base[odd] = top
            if label[odd] == 2:
                label[odd] = 1
                queue.append(odd)
            x = find(parent[odd])

    head = 0
    while head < len(queue):
        v = queue[head]
        head += 1
        for w in adj[v]:
            if label.get(w) == 2:
                continue
            if w not in label:
                # Every exposed player is a root, so w is matched: grow the tree.
                label[w] = 2
                parent[w] = v
                partner = mate[w]
                label[partner] = 1
                queue.append(partner)
                continue
            bv, bw = find(v), find(w)
            if bv == bw:
                continue
            path_v = tree_path(bv)
            on_v = set(path_v)
            top = None
            for x in tree_path(bw):
                if x in on_v:
                    top = x
                    break
            if top is None:
                raise AugmentingPath((v, w))
            contract(bv, top)
            contract(bw, top)
    return label, parent, base


def maximum_matching(nodes: Sequence[Node], adj: dict[Node, set[Node]]) -> dict[Node, Node | None]:
    """A maximum cardinality matching (each node's mate, None when exposed): greedy in the
    order of nodes, then Edmonds' augmenting paths, one exposed node at a time."""
    index = {node: i for i, node in enumerate(nodes)}
    count = len(nodes)
    # Neighbours in the order of nodes, so the result never depends on a set's order.
    graph = [sorted(index[w] for w in adj[v] if w != v) for v in nodes]
    match = [-1] * count
    for v in range(count):
        if match[v] == -1:
            for w in graph[v]:
                if match[w] == -1:
                    match[v], match[w] = w, v
                    break
    for root in range(count):
        if match[root] == -1:
            end, parent = _augmenting_path(graph, match, root)
            while end != -1:
                previous = parent[end]
                following = match[previous]
                match[end], match[previous] = previous, end
                end = following
    return {node: (nodes[match[i]] if match[i] != -1 else None) for i, node in enumerate(nodes)}


def _augmenting_path(graph: list[list[int]], match: list[int], root: int) -> tuple[int, list[int]]:
    """Edmonds' search from one exposed root (the classic array form, blossoms contracted
    by relabelling their bases): the exposed end of an augmenting path and the parents to
    follow back to the root, or -1."""
    count = len(graph)
    used = [False] * count
    parent = [-1] * count
    base = list(range(count))

    def common_base(a: int, b: int) -> int:
        seen = [False] * count
        while True:
            a = base[a]
            seen[a] = True
            if match[a] == -1:
                break
            a = parent[match[a]]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[match[b]]

    def mark_path(v: int, top: int, child: int, in_blossom: list[bool]) -> None:
        while base[v] != top:
            in_blossom[base[v]] = in_blossom[base[match[v]]] = True
            parent[v] = child
            child = match[v]
            v = parent[match[v]]

    used[root] = True
    queue = [root]
    head = 0
    while head < len(queue):
        v = queue[head]
        head += 1
        for to in graph[v]:
            if base[v] == base[to] or match[v] == to:
                continue
            if to == root or (match[to] != -1 and parent[match[to]] != -1):
                top = common_base(v, to)
                in_blossom = [False] * count
                mark_path(v, top, to, in_blossom)
                mark_path(to, top, v, in_blossom)
                for i in range(count):
                    if in_blossom[base[i]]:
                        base[i] = top
                        if not used[i]:
                            used[i] = True
                            queue.append(i)
            elif parent[to] == -1:
                parent[to] = v
                if match[to] == -1:
                    return to, parent
                used[match[to]] = True
                queue.append(match[to])
    return -1, parent


def deficient_components(
    nodes: Sequence[Node], adj: dict[Node, set[Node]], mate: dict[Node, Node | None]
) -> dict[Node, int]:
    """The Gallai-Edmonds deficient set D of the graph, given a maximum matching (mate),
    as {player: index of their connected component of G[D]}. D is the set of nodes an
    Edmonds search from every exposed node labels even (outer). Raises AugmentingPath
    when the matching was not maximum."""
    roots = [v for v in nodes if mate[v] is None]
    label, _, _ = _search(nodes, adj, mate, roots)
    deficient = [v for v in nodes if label.get(v) == 1]
    component: dict[Node, int] = {}
    number = -1
    for start in deficient:
        if start in component:
            continue
        number += 1
        component[start] = number
        stack = [start]
        while stack:
            v = stack.pop()
            for w in adj[v]:
                if w not in component and label.get(w) == 1:
                    component[w] = number
                    stack.append(w)
    return component
