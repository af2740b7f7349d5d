"""The pairer reaches the optimum of its documented cost.

The reference is an exact maximum-weight matching (networkx blossom) of the complete graph,
the cost encoded as weights and a dummy vertex for the bye. The encoding and the cost
arithmetic here are written independently of the engine.

The blossom is pure Python and cubic in the field (most of this file's time on fields of
200). It is skipped when a cheaper proof exists: the pairing's cost (recomputed here from
its pairs) equals ``bound_key``, a lower bound of every pairing's cost, so no pairing is
cheaper. ``test_the_bound_is_never_above_the_blossom_optimum`` checks the bound against the
blossom.
"""

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.hypothesis_profiles import examples, examples_per_shard
from tournaments.pairing import PairingPlayer, ReasonCode, pair_round
from tournaments.pairing.barrier import solve_barrier
from tournaments.pairing.exact import solve_exact
from tournaments.pairing.field import Field
from tournaments.pairing.simulation import SimulatedSwiss
from tournaments.pairing.swiss import solve
from tournaments.pairing.work import Work

BYE = "bye"
# The longest tests run as this many shards (each a share of the examples, drawn at random
# independently), so that parallel workers share them.
SHARDS = 4


def met(players):
    present = {p.id for p in players}
    meetings = {p.id: set() for p in players}
    for p in players:
        for other in p.opponents & present:
            meetings[p.id].add(other)
            meetings[other].add(p.id)
    return meetings


def bye_terms(players, bye_id):
    """(byes beyond the field's fewest, players on fewer points with no more byes, players
    on the same points ranked below with no more byes)."""
    by_id = {p.id: p for p in players}
    chosen = by_id[bye_id]
    fewest = min(p.byes for p in players)
    eligible = [p for p in players if p.byes <= chosen.byes]
    on_fewer_points = sum(1 for p in eligible if p.points < chosen.points)
    ranked_below = sum(1 for p in eligible if p.points == chosen.points and p.rank > chosen.rank)
    return chosen.byes - fewest, on_fewer_points, ranked_below


def cost_key(players, pairs, bye_id):
    """(rematches, bye excess, bye score offset, squares, bye rank offset)."""
    by_id = {p.id: p for p in players}
    meetings = met(players)
    rematches = sum(1 for a, b in pairs if b in meetings[a])
    squares = sum((by_id[a].points - by_id[b].points) ** 2 for a, b in pairs)
    excess, fewer, below = bye_terms(players, bye_id) if bye_id is not None else (0, 0, 0)
    return (rematches, excess, fewer, squares, below)


def reference_optimum(players):
    """Exact optimum of (rematches, bye excess, bye score offset, sum of squared
    differences, bye rank offset)."""
    if not players:
        return (0, 0, 0, 0, 0)
    count = len(players)
    points = [p.points for p in players]
    spread = max(points) - min(points)
    # Each weight is above the largest total of everything after it.
    below_weight = 1
    squares_weight = count * below_weight
    fewer_weight = squares_weight * (count // 2) * spread * spread + count
    excess_weight = fewer_weight * (count + 1)
    rematch_weight = excess_weight * (max(p.byes for p in players) + 1)
    meetings = met(players)
    graph = nx.Graph()
    for i, a in enumerate(players):
        for b in players[i + 1 :]:
            cost = squares_weight * (a.points - b.points) ** 2
            cost += rematch_weight if b.id in meetings[a.id] else 0
            graph.add_edge(a.id, b.id, weight=-cost)
    if count % 2:
        for p in players:
            excess, fewer, below = bye_terms(players, p.id)
            cost = excess * excess_weight + fewer * fewer_weight + below * below_weight
            graph.add_edge(p.id, BYE, weight=-cost)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    bye_id = next((a if b == BYE else b for a, b in matching if BYE in (a, b)), None)
    pairs = [(a, b) for a, b in matching if BYE not in (a, b)]
    return cost_key(players, pairs, bye_id)


def lower_bound(players, bye_id):
    """No rematch, the given bye, one adjacent pair-down across each odd score boundary."""
    rest = sorted((p.points for p in players if p.id != bye_id), reverse=True)
    levels = sorted(set(rest), reverse=True)
    total = 0
    for upper, lower in zip(levels, levels[1:], strict=False):
        if sum(1 for value in rest if value >= upper) % 2:
            total += (upper - lower) ** 2
    return total


def bound_key(players):
    """A lower bound of the cost key of any pairing of ``players``: for each possible bye,
    no rematch, that bye's terms and ``lower_bound``'s squares (each pair crossing score
    boundaries costs at least the sum of their squared gaps, and a boundary with an odd
    number of players above it is crossed by a pair); the least over the byes."""
    if len(players) % 2 == 0:
        return (0, 0, 0, lower_bound(players, None), 0)
    squares = {}  # the squares' bound depends on the bye's points only
    bounds = []
    for p in players:
        if p.points not in squares:
            squares[p.points] = lower_bound(players, p.id)
        excess, fewer, below = bye_terms(players, p.id)
        bounds.append((0, excess, fewer, squares[p.points], below))
    return min(bounds)


def proved_optimal(players, reported):
    """Is ``reported`` (the cost key of a pairing of ``players``) the least there is?
    Proved by the bound when it is reached, else by the blossom."""
    if reported == bound_key(players):
        return True
    return reported == reference_optimum(players)


def check_optimal(players, round_number, seed):
    result = pair_round(players, round_number, seed)
    ids = sorted(p.id for p in players)
    seen = [pid for pair in result.pairs for pid in pair.ids]
    if result.bye is not None:
        seen.append(result.bye.player_id)
    assert sorted(seen) == ids
    assert (result.bye is not None) == (len(players) % 2 == 1)

    pairs = [pair.ids for pair in result.pairs]
    bye_id = result.bye.player_id if result.bye else None
    reported = result.cost.key()
    assert cost_key(players, pairs, bye_id) == reported
    assert proved_optimal(players, reported), (reported, reference_optimum(players))

    meetings = met(players)
    for pair in result.pairs:
        reason_codes = [reason.code for reason in pair.reasons]
        assert (ReasonCode.REMATCH in reason_codes) == (pair.low_id in meetings[pair.high_id])
        assert (ReasonCode.PAIR_DOWN in reason_codes) == (pair.high_points != pair.low_points)
        assert pair.high_points >= pair.low_points
    order = [(-p.high_points, -p.low_points) for p in result.pairs]
    assert order == sorted(order)
    if result.method == "lower_bound":
        assert reported == (0, 0, 0, lower_bound(players, bye_id), 0)
    return result


@st.composite
def simulated_fields(draw, max_players, min_players=0):
    """A tournament after a few random rounds, paired by the engine, with drops and late
    entries; ranks are the simulated standings (distinct)."""
    entrants = draw(st.integers(min_players, max_players))
    swiss = SimulatedSwiss(
        seed=draw(st.integers(0, 2**32)),
        draw_rate=draw(st.sampled_from([0.0, 0.05, 0.3])),
        drop_rate=draw(st.sampled_from([0.0, 0.03, 0.15])),
    )
    swiss.enter(entrants)
    rounds = draw(st.integers(0, 9))
    late_round = draw(st.integers(0, 9))
    for round_index in range(rounds):
        if round_index == late_round:
            swiss.enter(draw(st.integers(0, 5)))
        swiss.play_round()
    return swiss.active_players(), rounds + 1


@st.composite
def arbitrary_fields(draw, max_players):
    """Histories no real tournament would produce: any points, any meetings, any byes."""
    count = draw(st.integers(0, max_players))
    density = draw(st.sampled_from([0.0, 0.1, 0.3, 0.6, 0.9]))
    ranks = draw(st.permutations(range(1, count + 1)))
    players = []
    meetings = {pid: set() for pid in range(count)}
    for a in range(count):
        for b in range(a + 1, count):
            if draw(st.floats(0, 1)) < density:
                meetings[a].add(b)
                meetings[b].add(a)
    for pid in range(count):
        players.append(
            PairingPlayer(
                id=pid,
                points=draw(st.integers(0, 12)),
                opponents=frozenset(meetings[pid]),
                byes=draw(st.integers(0, 2)),
                rank=ranks[pid],
            )
        )
    return players


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(field=simulated_fields(max_players=60), seed=st.integers(0, 10**9))
def test_simulated_tournaments_are_paired_optimally(field, seed):
    players, round_number = field
    check_optimal(players, round_number, seed)


@pytest.mark.parametrize("shard", range(2))
@settings(
    max_examples=examples_per_shard(30, 2),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(field=simulated_fields(max_players=200, min_players=120), seed=st.integers(0, 10**9))
def test_simulated_tournaments_up_to_200_players_are_paired_optimally(shard, field, seed):
    players, round_number = field
    check_optimal(players, round_number, seed)


@settings(
    max_examples=examples(300),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(players=arbitrary_fields(max_players=14), seed=st.integers(0, 10**9))
def test_arbitrary_histories_are_paired_optimally(players, seed):
    check_optimal(players, 5, seed)


@settings(
    max_examples=examples(200),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    field=st.one_of(
        simulated_fields(max_players=60).map(lambda field: field[0]),
        arbitrary_fields(max_players=30),
    ),
    seed=st.integers(0, 10**9),
)
def test_the_bound_is_never_above_the_blossom_optimum(field, seed):
    """The shortcut of ``proved_optimal`` is sound: the bound never exceeds the exact
    optimum, and where the pairer reaches the bound the blossom finds it the optimum too."""
    optimum = reference_optimum(field)
    bound = bound_key(field)
    assert bound <= optimum
    reported = pair_round(field, 5, seed).cost.key()
    if reported == bound:
        assert optimum == bound


@settings(
    max_examples=examples(60),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(players=arbitrary_fields(max_players=40), seed=st.integers(0, 10**9))
def test_larger_arbitrary_histories_are_paired_optimally(players, seed):
    check_optimal(players, 5, seed)


@pytest.mark.slow
@pytest.mark.parametrize("shard", range(SHARDS))
@settings(
    max_examples=examples_per_shard(150, SHARDS),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(field=simulated_fields(max_players=220, min_players=60), seed=st.integers(0, 10**9))
def test_many_simulated_tournaments_up_to_220_players_are_paired_optimally(shard, field, seed):
    players, round_number = field
    check_optimal(players, round_number, seed)


@pytest.mark.slow
@pytest.mark.parametrize("shard", range(SHARDS))
@settings(
    max_examples=examples_per_shard(400, SHARDS),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(players=arbitrary_fields(max_players=60), seed=st.integers(0, 10**9))
def test_many_arbitrary_histories_are_paired_optimally(shard, players, seed):
    check_optimal(players, 5, seed)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(6))
def test_long_tournaments_stay_optimal_round_after_round(seed):
    # 40 players through 14 rounds: late rounds force rematches and repeat byes.
    swiss = SimulatedSwiss(seed=seed, draw_rate=0.1, drop_rate=0.04)
    swiss.enter(40)
    for round_number in range(1, 15):
        result = check_optimal(swiss.active_players(), round_number, seed)
        swiss.record(result)
        swiss.rounds_played += 1


@pytest.mark.parametrize("seed", range(3))
def test_events_up_to_round_robin_saturation_stay_optimal(seed):
    # 14 players through 13 rounds: the last rounds have almost no rematch-free pairing.
    swiss = SimulatedSwiss(seed=seed, draw_rate=0.1, drop_rate=0.0)
    swiss.enter(14)
    for round_number in range(1, 14):
        result = check_optimal(swiss.active_players(), round_number, seed)
        swiss.record(result)
        swiss.rounds_played += 1


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    group=st.integers(1, 20),
    clique=st.integers(2, 6),
    knot_points=st.sampled_from([0, 1, 3]),
    seed=st.integers(0, 10**9),
)
def test_planted_cliques_and_knots_are_paired_optimally(group, clique, knot_points, seed):
    """A top group whose players have all met, a large middle group, and two players
    alone on a score who have both met the only player below them."""
    top = [
        PairingPlayer(pid, 12, frozenset(range(clique)) - {pid}, 0, pid + 1)
        for pid in range(clique)
    ]
    middle = [PairingPlayer(100 + i, 6, frozenset(), 0, 100 + i) for i in range(group)]
    a, b, c = 900, 901, 902
    knot = [
        PairingPlayer(a, knot_points + 3, frozenset({c}), 0, a),
        PairingPlayer(b, knot_points + 3, frozenset({c}), 0, b),
        PairingPlayer(c, knot_points, frozenset({a, b}), 0, c),
    ]
    check_optimal(top + middle + knot, 5, seed)


@settings(
    max_examples=examples(200),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    players=arbitrary_fields(max_players=24),
    met_everyone=st.integers(0, 3),
    seed=st.integers(0, 10**9),
)
def test_the_whole_field_tier_alone_is_optimal_when_rematches_are_unavoidable(
    players, met_everyone, seed
):
    """The whole-field tier adds only the rematch pairs between players of different
    Gallai-Edmonds components; run alone (no chain or window first) it must still reach
    the reference optimum of the complete graph, on fields where rematches are likely or
    certain (a few players who have met everyone)."""
    everyone = frozenset(p.id for p in players)
    players = [
        PairingPlayer(p.id, p.points, everyone - {p.id}, p.byes, p.rank)
        if p.id < met_everyone
        else p
        for p in players
    ]
    field = Field(players, 5, seed)
    if not field.ids:
        return
    pairs, bye_id = solve_exact(field)
    assert cost_key(players, pairs, bye_id) == reference_optimum(players)
    assert field.cost_of(pairs, bye_id).key() == reference_optimum(players)


@settings(
    max_examples=examples(150),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(players=arbitrary_fields(max_players=30), seed=st.integers(0, 10**9))
def test_an_even_field_with_one_player_who_met_everyone_is_paired_optimally(players, seed):
    """Their pair is a rematch in every pairing: the engine pairs the field with their
    meetings erased (one rematch fewer in every pairing) and must reach the reference
    optimum, also when other rematches remain."""
    players = players[: len(players) - len(players) % 2]
    if len(players) < 2:
        return
    everyone = frozenset(p.id for p in players)
    lone = players[0].id
    players = [
        PairingPlayer(
            p.id,
            p.points,
            everyone - {lone} if p.id == lone else p.opponents | {lone},
            p.byes,
            p.rank,
        )
        for p in players
    ]
    meetings = met(players)
    if any(len(meetings[p.id]) == len(players) - 1 for p in players if p.id != lone):
        return  # two who met everyone: the whole-field tier's case, tested above
    result = check_optimal(players, 5, seed)
    assert result.method == "forced_rematch" and result.cost.rematches >= 1


@st.composite
def rematch_structures(draw, max_players):
    """Arbitrary histories with planted structures that force rematches: players who have
    met everyone, and knots whose players have met everyone but a few helpers (and each
    other, or not)."""
    players = draw(arbitrary_fields(max_players=max_players))
    ids = [p.id for p in players]
    everyone = frozenset(ids)
    meetings = met(players)

    def meet(a, b):
        if a != b:
            meetings[a].add(b)
            meetings[b].add(a)

    for pid in ids[: draw(st.integers(0, 3))]:
        for other in ids:
            meet(pid, other)
    for _ in range(draw(st.integers(0, 2))):
        knot = draw(st.lists(st.sampled_from(ids), max_size=5, unique=True)) if ids else []
        helpers = set(draw(st.lists(st.sampled_from(ids), max_size=2))) if ids else set()
        closed = draw(st.booleans())
        for pid in knot:
            for other in everyone - helpers - (set(knot) if closed else set()):
                meet(pid, other)
    return [
        PairingPlayer(p.id, p.points, frozenset(meetings[p.id]), p.byes, p.rank) for p in players
    ]


@settings(
    max_examples=examples(300),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    players=rematch_structures(max_players=28),
    core_limit=st.sampled_from([0, 3, 60]),
    seed=st.integers(0, 10**9),
)
def test_fields_split_along_a_barrier_are_paired_optimally(players, core_limit, seed):
    """The barrier tier (barrier.py) run alone, and the engine, reach the reference
    optimum on fields whose rematches come from players who have met most of the field.
    A low core_limit makes the tier pair the largest odd component apart, trying its
    partners, as it does at thousands of players."""
    reference = reference_optimum(players)
    field = Field(players, 5, seed)
    if field.ids:
        split = solve_barrier(field, Work(), solve, core_limit)
        if split is not None:
            pairs, bye_id = split
            seated = [pid for pair in pairs for pid in pair]
            assert sorted(seated + ([bye_id] if bye_id is not None else [])) == field.ids
            assert field.cost_of(pairs, bye_id).key() == reference
    assert check_optimal(players, 5, seed).cost.key() == reference


def test_the_barrier_tier_pairs_the_planted_structures_of_the_benchmark():
    """Two and three players who met everyone, and a knot of five held by one helper,
    each in an even and an odd field larger than the core limit (three in an even field
    leave an odd rest, paired apart with each partner): the barrier tier proves them, at
    the reference optimum."""
    for count in (70, 71):
        everyone = frozenset(range(count))
        for saturated in ({0, 1}, {0, 1, 2}):
            players = [
                PairingPlayer(
                    pid,
                    3 * (pid % 4),
                    everyone - {pid} if pid in saturated else frozenset(saturated),
                    0,
                    pid + 1,
                )
                for pid in range(count)
            ]
            result = check_optimal(players, 5, 7)
            assert result.method == "barrier"
            assert result.cost.rematches == (len(saturated) - count % 2 + 1) // 2
        knot = {10, 11, 12, 13, 14}
        players = [
            PairingPlayer(
                pid,
                6 if pid in knot or pid == 15 else 3 * (pid % 2),
                (everyone - {15, pid}) if pid in knot else frozenset(),
                0,
                pid + 1,
            )
            for pid in range(count)
        ]
        result = check_optimal(players, 5, 7)
        assert result.method == "barrier"
        assert result.cost.rematches == 2  # one of the five plays the helper
