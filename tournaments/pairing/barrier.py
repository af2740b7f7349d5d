"""The barrier tier: a field whose optimum needs rematches because of a few players who
have met most of the field, split along a Tutte-Berge barrier so that only a small core
is matched exactly and the large rest is paired by the other tiers.

G is the graph of the pairs who have not met, with the bye vertex (adjacent to every
player) in an odd field. For a set X of vertices, every matching of G leaves at least
odd(G - X) - |X| vertices exposed: each odd component of G - X has a vertex exposed or
matched into X, and X holds |X| vertices. A matching M and a set X with equality (X is
a *tight barrier*) prove M maximum, and then every maximum matching of G

- matches every even component of G - X perfectly inside itself, and
- leaves exactly one vertex of each odd component matched outside it or exposed

(a vertex of X matched elsewhere, or a second vertex of an odd component exposed or
matched out, would leave more vertices exposed than M does). Every optimal pairing has
the fewest rematches, so its pairs who have not met form a maximum matching of G and its
rematches join vertices that matching leaves exposed (docs/pairing.md, step 3).
Therefore every optimal pairing pairs each even component of G - X inside itself
without a rematch, and pairs exactly one player of an odd component C with someone
outside C: a vertex of X (or the bye) or a player exposed in another odd component.

The cost is a sum over pairs (the bye's terms belong to one pair), and a lexicographic
order on sums is kept by adding: the optimum is the sum of the optima of the parts.
The engine pairs each even component as a field of its own (any tier), and for the
largest odd component C tries every possible partner p outside it: C with p as a field
of its own (p's pair into C is their only way out), the rest (the core) matched exactly
without p; the cheapest option is the optimum. A player p from another odd component
has met all of C, so that field is the forced rematch of step 0.

The bye stays in the core (its matching prices it with the whole field's bye terms),
except when the bye is C's partner: C is then an odd field paired by the tiers, whose
bye terms count only C's players. That is accepted only when its bye goes to a bye
candidate of the whole field (the fewest byes, the lowest score among them): those have
bye terms (0, 0) in both fields, the candidates inside C are candidates of C's field, and
with the whole field's ranks the lowest-ranked possible one is the same in both; any
other answer hands the round to the next tier.

The barrier is found on a small graph: the players who have met at least half the
field, everyone they have not met, the bye, and a clique of stand-ins for the rest (each
player of that set who has not met somebody of the rest is joined to every stand-in).
Its Gallai-Edmonds decomposition (deficiency.py) names the set A of neighbours of its
deficient set; A (with the bye, in an odd field), taken as X in G, is checked on G: components counted on the
pairs who have not met without building them (each player's past opponents skipped), and
a matching of G built from the small graph's matching, with the rest matched greedily.
Only equality is used; anything else returns None and the next tier decides.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from tournaments.pairing.deficiency import deficient_components, maximum_matching
from tournaments.pairing.exact import solve_exact
from tournaments.pairing.field import Field
from tournaments.pairing.matching import match_group
from tournaments.pairing.work import Work

BYE_NODE = ("bye",)

# The small graph is not built past these sizes (players who met half the field; the
# small graph's real vertices), and the core's exact matching holds at most CORE_LIMIT
# players: beyond them the whole-field tier decides.
SPECIAL_LIMIT = 64
KERNEL_LIMIT = 400
CORE_LIMIT = 60

Pairs = list[tuple[int, int]]
Solver = Callable[[Field, Work], tuple[Pairs, int | None, str]]


def solve_barrier(
    field: Field, work: Work, solve: Solver, core_limit: int = CORE_LIMIT
) -> tuple[Pairs, int | None] | None:
    """The optimal pairs and bye through a tight barrier, or None (no rematch needed, no
    barrier found, or a core too large): the next tier decides. The largest odd
    component is paired apart when the rest would pass core_limit (tests lower it to
    take that path on small fields)."""
    ids = field.ids
    count = len(ids)
    special = [pid for pid in ids if 2 * len(field.opp[pid]) >= count]
    if not special or len(special) > SPECIAL_LIMIT:
        return None
    odd = count % 2 == 1
    nodes: list = [*ids, BYE_NODE] if odd else list(ids)
    barrier = _barrier(field, special, odd)
    if barrier is None:
        return None
    components = _components(field, nodes, barrier)
    exposed = _exposed(field, nodes, barrier, components)
    odd_components = [c for c in components if len(c) % 2]
    if exposed is None or exposed != len(odd_components) - len(barrier):
        return None
    if not exposed and not odd:
        return None  # no rematch needed: the other tiers decide
    if odd and BYE_NODE not in barrier:
        return None
    separate = [c for c in components if len(c) % 2 == 0]
    # The largest odd component is paired apart only when the core cannot hold it.
    port = max(odd_components, key=len, default=None)
    unsplit = count - sum(len(c) for c in separate)
    if port is not None and unsplit <= core_limit:
        port = None
    split = {pid for c in separate for pid in c} | set(port or ())
    core = [pid for pid in ids if pid not in split]
    if len(core) > CORE_LIMIT or not split or (port is not None and len(port) == count):
        return None
    pairs: Pairs = []
    for component in separate:
        sub_pairs, _, _ = solve(_subfield(field, component), work)
        pairs.extend(sub_pairs)
    if port is None:
        core_pairs, bye_id = solve_exact(field, work, core)
        return pairs + core_pairs, bye_id
    # The port component's one partner outside it: a barrier vertex that has not met
    # one of its players, or a player of another odd component (a rematch).
    port_set = set(port)
    partners: list = [
        v
        for v in (*ids, BYE_NODE)
        if v in barrier and (v == BYE_NODE or len(field.opp[v] & port_set) < len(port))
    ]
    partners += [pid for c in odd_components if c is not port for pid in c]
    # Each option's core is matched exactly at once; its port field is paired only while
    # the option's floor (the core's cost plus a bound on the port field's) is below the
    # best option found, cheapest floor first.
    order = {v: i for i, v in enumerate(nodes)}
    port_counts: dict[int, int] = {}
    for pid in port:
        points = field.players[pid].points
        port_counts[points] = port_counts.get(points, 0) + 1
    options = []
    for partner in sorted(partners, key=order.__getitem__):
        if partner == BYE_NODE:
            core_ids, port_ids = core, list(port)
            offsets = field.bye_offsets()
            bye_terms = min(
                (field.players[pid].byes - field.min_byes, offsets[pid][0]) for pid in port
            )
            floor = _port_floor(port_counts, None, 0, bye_terms)
        else:
            core_ids, port_ids = [p for p in core if p != partner], [*port, partner]
            # A player of another odd component has met all of the port component.
            rematch = 0 if partner in barrier else 1
            floor = _port_floor(port_counts, field.players[partner].points, rematch, None)
        core_pairs, core_bye = solve_exact(field, work, core_ids)
        core_key = field.cost_of(core_pairs, core_bye).key()
        total = tuple(a + b for a, b in zip(core_key, floor, strict=True))
        options.append((total, order[partner], partner, core_pairs, core_bye, port_ids))
    options.sort(key=lambda option: option[:2])
    best: tuple | None = None
    for floor, _, partner, core_pairs, core_bye, port_ids in options:
        if best is not None and floor >= best[0]:
            break
        port_pairs, port_bye, _ = solve(_subfield(field, port_ids), work)
        if partner == BYE_NODE and port_bye not in field.bye_candidates():
            return None
        bye_id = port_bye if partner == BYE_NODE else core_bye
        option = port_pairs + core_pairs
        key = field.cost_of(pairs + option, bye_id).key()
        if best is None or key < best[0]:
            best = (key, option, bye_id)
    if best is None:
        return None
    return pairs + best[1], best[2]


def _port_floor(
    port_counts: dict[int, int],
    partner_points: int | None,
    rematches: int,
    bye_terms: tuple[int, int] | None,
) -> tuple[int, int, int, int, int]:
    """A lower bound on the cost of any pairing of the port component (players by points
    in port_counts) with the partner (its points; None for the bye): the rematches given,
    and one pair-down across every score boundary with an odd number of players above it
    (docs/pairing.md, step 1); with the bye, the least bye excess and score offset of the
    component's players (in the whole field) and the least such sum over whichever score
    the bye is taken from."""
    counts = dict(port_counts)
    if partner_points is not None:
        counts[partner_points] = counts.get(partner_points, 0) + 1
    levels = sorted(counts, reverse=True)

    def crossings(removed: int | None) -> int:
        above = total = 0
        for upper, lower in zip(levels, levels[1:], strict=False):
            above += counts[upper] - (upper == removed)
            if above % 2:
                total += (upper - lower) ** 2
        return total

    if bye_terms is None:
        return (rematches, 0, 0, crossings(None), 0)
    squares = min(crossings(level) for level in levels)
    return (rematches, *bye_terms, squares, 0)


def _subfield(field: Field, ids: list[int]) -> Field:
    """Those players as a field of their own, ranked by their places in the whole field
    (so that equal ranks are ordered as there)."""
    return Field(
        [replace(field.players[pid], rank=field.position[pid] + 1) for pid in sorted(ids)],
        field.round_number,
        field.seed,
    )


def _barrier(field: Field, special: list[int], odd: bool) -> set | None:
    """The Gallai-Edmonds set A of the small graph standing in for G (module docstring):
    the candidate barrier, or None when a stand-in would be in it."""
    kernel = set(special)
    for pid in special:
        met = field.opp[pid]
        kernel.update(v for v in field.ids if v != pid and v not in met)
    if len(kernel) > KERNEL_LIMIT:
        return None
    members: list = [pid for pid in field.ids if pid in kernel]
    if odd:
        members.append(BYE_NODE)
    rest_count = len(field.ids) - len(kernel)
    adjacency: dict = {v: set() for v in members}
    for i, a in enumerate(members):
        for b in members[i + 1 :]:
            if BYE_NODE in (a, b) or b not in field.opp[a]:
                adjacency[a].add(b)
                adjacency[b].add(a)
    stand_ins: list = []
    if rest_count:
        # A clique of the rest's parity, larger than the kernel, so that the kernel can
        # never use up the stand-ins.
        size = len(members) + 2
        size += (size - rest_count) % 2
        stand_ins = [("rest", i) for i in range(size)]
        for s in stand_ins:
            adjacency[s] = {t for t in stand_ins if t != s}
        for v in members:
            outside = v == BYE_NODE or rest_count > sum(1 for w in field.opp[v] if w not in kernel)
            if outside:
                adjacency[v].update(stand_ins)
                for s in stand_ins:
                    adjacency[s].add(v)
    graph_nodes = members + stand_ins
    mate = maximum_matching(graph_nodes, adjacency)
    if not odd and all(mate[v] is not None for v in graph_nodes):
        return None  # no rematch needed there: the other tiers decide
    deficient = deficient_components(graph_nodes, adjacency, mate)
    barrier = {
        v for v in graph_nodes if v not in deficient and any(w in deficient for w in adjacency[v])
    }
    if any(isinstance(v, tuple) and v[0] == "rest" for v in barrier):
        return None
    if odd:
        # The bye is tried in the barrier too: a bye that must leave the candidates to
        # avoid a rematch (a closed knot of three in an odd field) is a barrier of its
        # own, and only a barrier holding the bye splits an odd field.
        barrier.add(BYE_NODE)
    return barrier


def _components(field: Field, nodes: list, barrier: set) -> list[list]:
    """The connected components of G - barrier, each in the order of nodes. Only past
    opponents are skipped, so the cost is the players plus their meetings."""
    order = {v: i for i, v in enumerate(nodes)}
    unvisited = {v for v in nodes if v not in barrier}
    components = []
    for start in nodes:
        if start not in unvisited:
            continue
        unvisited.discard(start)
        component = [start]
        stack = [start]
        while stack:
            v = stack.pop()
            if v == BYE_NODE:
                found = list(unvisited)
            else:
                met = field.opp[v]
                found = [w for w in unvisited if w == BYE_NODE or w not in met]
            unvisited.difference_update(found)
            component.extend(found)
            stack.extend(found)
        components.append(sorted(component, key=order.__getitem__))
    return components


def _exposed(field: Field, nodes: list, barrier: set, components: list[list]) -> int | None:
    """The vertices left exposed by a matching of G built component by component: each
    barrier vertex with a player of a different odd component it has not met, then each
    component matched greedily (an odd one leaves one player). None when a component's
    greedy matching fails (no certificate)."""
    odd_components = [c for c in components if len(c) % 2]
    used: set = set()
    matched = 0
    for x in (v for v in nodes if v in barrier):
        for component in odd_components:
            if component[0] in used:
                continue
            partner = next(
                (w for w in component if x == BYE_NODE or w == BYE_NODE or w not in field.opp[x]),
                None,
            )
            if partner is not None:
                used.add(component[0])
                used.add(x)
                matched += 1
                # The component's other players must now pair among themselves.
                component.remove(partner)
                component.insert(0, partner)
                break
    for component in components:
        rest = component[1:] if component[0] in used else component
        rest = [v for v in rest if v != BYE_NODE]
        if len(rest) % 2:
            rest = rest[:-1]
        pairs = match_group(field.opp, [], rest) if rest else []
        if pairs is None:
            return None
        matched += len(pairs)
    return len(nodes) - 2 * matched
