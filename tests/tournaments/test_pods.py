"""Swiss pods (tournaments/pairing/pods.py, docs/pairing.md "Swiss pods"): the table sizes,
the consecutive-block lower bound checked by brute force on mixed sizes, the seating
against a brute force over every partition of small fields, the proof each round carries,
the best seating found where no proof fits the limits, and the same seating in processes
with different hash seeds."""

import itertools
import json
import math
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.hypothesis_profiles import examples
from tournaments.pairing import pod_windows, pods
from tournaments.pairing.model import PairingError
from tournaments.pairing.pod_simulation import SimulatedPods
from tournaments.pairing.pod_windows import counted_window, lending_blocks, window_relaxed
from tournaments.pairing.pods import (
    BEST_FOUND,
    FOUR_THREE,
    THREE,
    PodPlayer,
    _Field,
    _polish,
    evaluate_pods,
    pair_pods,
    spread_lower_bound,
    table_sizes,
)

ROOT = Path(__file__).resolve().parents[2]


def partitions(items, sizes):
    """Every partition of ``items`` into tables of the given size multiset."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for size in sorted(set(sizes)):
        left = list(sizes)
        left.remove(size)
        for mates in itertools.combinations(rest, size - 1):
            others = [x for x in rest if x not in mates]
            for tail in partitions(others, left):
                yield [(first, *mates), *tail]


def least_spread(points, sizes):
    """Brute force: the least spread of any partition into tables of ``sizes``, exactly:
    in whole numbers of the points' least common denominator (with fractions, most of the
    brute force's time), then divided back."""
    scale = math.lcm(*(Fraction(x).denominator for x in points))
    whole = [int(x * scale) for x in points]
    least = min(
        sum((whole[a] - whole[b]) ** 2 for t in p for a, b in itertools.combinations(t, 2))
        for p in partitions(list(range(len(points))), list(sizes))
    )
    return Fraction(least, scale * scale)


# --- table sizes -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "four_three", "three"),
    [
        (0, (), ()),
        (1, (), ()),
        (2, (2,), (2,)),
        (3, (3,), (3,)),
        (4, (4,), (2, 2)),
        (5, (3, 2), (3, 2)),
        (6, (3, 3), (3, 3)),
        (7, (4, 3), (3, 2, 2)),
        (9, (3, 3, 3), (3, 3, 3)),
        (10, (4, 3, 3), (3, 3, 2, 2)),
        (13, (4, 3, 3, 3), (3, 3, 3, 2, 2)),
        (16, (4, 4, 4, 4), (3, 3, 3, 3, 2, 2)),
    ],
)
def test_table_sizes(n, four_three, three):
    assert table_sizes(n, FOUR_THREE) == four_three
    assert table_sizes(n, THREE) == three


@pytest.mark.parametrize("n", range(2, 200))
def test_table_sizes_seat_everyone_with_fewest_short_tables(n):
    sizes = table_sizes(n)
    assert sum(sizes) == n
    if n >= 6:
        assert set(sizes) <= {3, 4} and sizes.count(3) <= 3


def test_unknown_mode_is_refused():
    with pytest.raises(PairingError):
        table_sizes(8, "fives")


# --- the consecutive-block bound (checked before anything relies on it) -----------------------

point_values = st.integers(0, 24).map(lambda q: Fraction(q, 4))
mixed_sizes = st.sampled_from(
    [
        (4, 3),
        (3, 3),
        (4, 4, 3),
        (4, 3, 3),
        (3, 2),
        (4, 2),
        (4, 3, 2),
        (3, 3, 2),
        (3, 2, 2),
        (4, 4),
        (3, 3, 3),
    ]
)


@settings(max_examples=examples(150), deadline=None)
@given(sizes=mixed_sizes, data=st.data())
def test_consecutive_blocks_reach_the_least_spread_of_any_partition(sizes, data):
    points = data.draw(st.lists(point_values, min_size=sum(sizes), max_size=sum(sizes)))
    assert spread_lower_bound(points, sizes) == least_spread(points, sizes)


def test_the_bound_needs_the_sizes_to_seat_the_field():
    with pytest.raises(PairingError):
        spread_lower_bound([1, 2, 3], (4,))


# --- the seating against brute force -----------------------------------------------------------


def every_seating_cost(players, mode):
    """Brute force: the cost of every seating of the round, as ``evaluate_pods`` gives it.
    One field serves them all (evaluate_pods builds one a call, most of the brute force's
    time); the first seating is priced by evaluate_pods itself as well."""
    ids = [p.id for p in players]
    sizes = list(table_sizes(len(ids), mode))
    field = _Field(players, 0, 0, mode)
    costs, first = [], None
    for seating in partitions(ids, sizes):
        costs.append(field.cost(seating))
        first = seating if first is None else first
    assert costs[0] == evaluate_pods(players, first, mode)
    return costs


def brute_force_key(players, mode):
    return min(cost.key() for cost in every_seating_cost(players, mode))


@st.composite
def histories(draw, max_players=9):
    n = draw(st.integers(2, max_players))
    ids = list(range(1, n + 1))
    pairs = list(itertools.combinations(ids, 2))
    met = draw(st.lists(st.sampled_from(pairs), max_size=2 * n, unique=True)) if pairs else []
    ranks = draw(st.permutations(ids))
    players = []
    for index, pid in enumerate(ids):
        players.append(
            PodPlayer(
                pid,
                draw(st.integers(0, 8).map(lambda q: Fraction(q, 2))),
                frozenset(b for a, b in met if a == pid) | frozenset(a for a, b in met if b == pid),
                draw(st.integers(0, 2)),
                ranks[index],
            )
        )
    return players


@settings(max_examples=examples(200), deadline=None)
@given(players=histories(), mode=st.sampled_from([FOUR_THREE, THREE]), seed=st.integers(0, 99))
def test_seating_is_optimal_against_brute_force(players, mode, seed):
    result = pair_pods(players, 3, seed, mode)
    assert result.cost.key() == brute_force_key(players, mode)
    seated = sorted(pid for table in result.tables for pid in table.player_ids)
    assert seated == sorted(p.id for p in players)
    assert result.cost == evaluate_pods(players, [t.player_ids for t in result.tables], mode)
    # Every tier's claim holds: the bound is below every seating, reached under lower_bound.
    assert result.bound.key() <= result.cost.key()
    if result.method == "lower_bound":
        assert result.cost.key() == result.bound.key()


@settings(max_examples=examples(30), deadline=None)
@given(n=st.integers(5, 11), seed=st.integers(0, 1000), rounds=st.integers(1, 5))
def test_simulated_events_are_optimal_round_by_round(n, seed, rounds):
    event = SimulatedPods(n, seed=seed)
    for _ in range(rounds - 1):
        event.play_round()
    players = event.field()
    result = pair_pods(players, rounds, "x")
    if n <= 9:
        assert result.cost.key() == brute_force_key(players, FOUR_THREE)
    assert result.method in ("lower_bound", "window", "exact")


# --- rules, one each ----------------------------------------------------------------------------


def field(points, short=None, met=()):
    short = short or [0] * len(points)
    opponents = {pid: set() for pid in range(1, len(points) + 1)}
    for a, b in met:
        opponents[a].add(b)
        opponents[b].add(a)
    return [
        PodPlayer(pid, points[pid - 1], frozenset(opponents[pid]), short[pid - 1], pid)
        for pid in range(1, len(points) + 1)
    ]


def test_one_player_has_the_bye_and_none_is_empty():
    assert pair_pods(field([0]), 1, 1).bye == 1
    assert pair_pods([], 1, 1).tables == ()


def test_round_one_short_table_goes_to_the_lowest_ranks():
    result = pair_pods(field([0] * 7), 1, "s")
    short = next(t for t in result.tables if t.short)
    assert sorted(short.player_ids) == [5, 6, 7]
    assert result.method == "lower_bound"


def test_players_who_sat_short_sit_full_next():
    # 7 players on equal points: the three who had a table of three sit at the four.
    result = pair_pods(field([0] * 7, short=[0, 0, 0, 0, 1, 1, 1]), 2, "s")
    short = next(t for t in result.tables if t.short)
    assert not set(short.player_ids) & {5, 6, 7}
    assert result.cost.short_excess == 0


def test_tables_follow_points_and_numbering_best_first():
    points = [9, 9, 9, 9, 6, 6, 6, 6, 3, 3, 3, 3]
    result = pair_pods(field(points), 4, "s")
    assert [sorted(t.points) for t in result.tables] == [[9] * 4, [6] * 4, [3] * 4]
    assert [t.number for t in result.tables] == [1, 2, 3]
    assert result.cost.spread == 0


def test_repeat_meetings_are_avoided_before_the_spread():
    # 1 met 2 and 3 met 4: the table of equal scores would repeat two meetings.
    players = field([3, 3, 3, 3, 0, 0, 0, 0], met=[(1, 2), (3, 4)])
    result = pair_pods(players, 2, "s")
    assert result.cost.repeats == 0
    assert result.cost.spread > 0
    assert result.cost.key() == brute_force_key(players, FOUR_THREE)


def test_unavoidable_repeats_are_counted_and_exact():
    players = field([0] * 5, met=list(itertools.combinations(range(1, 6), 2)))
    result = pair_pods(players, 5, "s")
    assert result.cost.repeats == 4  # a table of 3 (3 pairs) and one of 2
    assert result.method in ("window", "exact")


def assert_best_found(players, result, mode=FOUR_THREE):
    """A seating no tier proved: every player seated once at the round's tables, its cost
    as evaluate_pods scores it, and no lower than the bound it reports."""
    assert result.method == BEST_FOUND
    tables = [t.player_ids for t in result.tables]
    assert evaluate_pods(players, tables, mode).key() == result.cost.key()
    assert result.cost.key() >= result.bound.key()


def test_the_best_found_when_no_proof_fits_the_limits():
    # Everyone has met everyone: the window would be the whole field, past its limit, and
    # the exhaustive search after the windows is off.
    players = field([0] * 20, met=list(itertools.combinations(range(1, 21), 2)))
    result = pair_pods(players, 5, "s", search_limit=0)
    assert_best_found(players, result)
    assert result.bound.repeats == 0 and result.cost.repeats > 0  # a bound, not the optimum
    assert pair_pods(players, 5, "s", search_limit=0) == result  # deterministic
    # The exhaustive search past its node limit returns its incumbent.
    event = SimulatedPods(13, seed=0)
    event.play_round()
    players = event.field()
    stopped = pair_pods(players, 2, "s", node_limit=10)
    assert_best_found(players, stopped)
    proved = pair_pods(players, 2, "s")
    assert proved.method == "exact" and proved.cost.key() <= stopped.cost.key()


def test_the_refused_round_of_the_benchmark_is_proved_by_the_programme():
    # bench/pods.py --sizes 64 --rounds 3: the third event's round 3 (58 players) was
    # refused (no window certifies it, too large to search), then seated unproved (the
    # construction's 3 repeat meetings swapped away); the integer programme proves it.
    event = SimulatedPods(64, seed=1002, drop_rate=0.05)
    event.play_round()
    event.play_round()
    players = event.field()
    assert len(players) == 58
    result = pair_pods(players, 3, "sim3")
    assert result.method == "programme"
    tables = [t.player_ids for t in result.tables]
    assert evaluate_pods(players, tables).key() == result.cost.key()
    assert result.cost.key() > result.bound.key()  # above the typed bound: the repeats cost
    assert result.cost.repeats == 0


def test_the_swaps_of_an_unproved_round_only_lower_its_cost():
    # A seating in the draw's order, blind to points and meetings: the swaps keep every
    # player once at the same table sizes, and lower the key until no swap of two players
    # lowers it further.
    event = SimulatedPods(24, seed=7, drop_rate=0.0)
    for _ in range(3):
        event.play_round()
    players = event.field()
    state = _Field(players, 4, "p", FOUR_THREE)
    sizes = table_sizes(len(players))
    start, tables = 0, []
    for size in sizes:
        tables.append(list(state.ids[start : start + size]))
        start += size
    polished = _polish(state, tables)
    assert sorted(len(t) for t in polished) == sorted(sizes)
    assert sorted(p for t in polished for p in t) == state.ids
    key = state.ikey(polished)
    assert key < state.ikey(tables)
    for t, u in itertools.combinations(range(len(polished)), 2):
        for i, j in itertools.product(range(len(polished[t])), range(len(polished[u]))):
            swapped = [list(x) for x in polished]
            swapped[t][i], swapped[u][j] = swapped[u][j], swapped[t][i]
            assert state.ikey(swapped)[:3] >= key[:3]


def test_everyone_met_everyone_is_proved_by_the_bound():
    players = field([0] * 12, met=list(itertools.combinations(range(1, 13), 2)))
    result = pair_pods(players, 12, "s", node_limit=1)
    assert result.cost.repeats == 18 and result.method in ("window", "exact")


def test_evaluate_refuses_incomplete_seatings():
    players = field([0] * 5)
    with pytest.raises(PairingError):
        evaluate_pods(players, [(1, 2, 3), (4,)])
    with pytest.raises(PairingError):
        evaluate_pods(players, [(1, 2, 3, 4, 5)])
    with pytest.raises(PairingError):
        pair_pods(players + [players[0]], 1, 1)


def test_seat_order_is_seeded():
    players = field([0] * 8)
    one = pair_pods(players, 1, "a")
    assert one == pair_pods(players, 1, "a")
    orders = {pair_pods(players, 1, seed).tables[0].player_ids for seed in range(20)}
    assert len(orders) > 1


# --- the same seating in any process --------------------------------------------------------------

CHILD = """
import json, sys
from fractions import Fraction
from tournaments.pairing.pods import PodPlayer, pair_pods
out = []
for state in json.load(sys.stdin):
    players = [PodPlayer(p[0], Fraction(p[1]), frozenset(p[2]), p[3], p[4]) for p in state["players"]]
    r = pair_pods(players, state["round"], state["seed"])
    out.append([r.method, [list(t.player_ids) for t in r.tables], str(r.cost.key())])
print(json.dumps(out))
"""


def test_same_seating_across_hash_seeds():
    states = []
    for n, rounds in ((10, 3), (12, 4), (64, 1)):
        event = SimulatedPods(n, seed=n)
        for _ in range(rounds):
            event.play_round()
        players = event.field()
        states.append(
            {
                "players": [
                    [p.id, str(p.points), sorted(p.opponents), p.short_tables, p.rank]
                    for p in players
                ],
                "round": rounds + 1,
                "seed": f"s{n}",
            }
        )
    answers = set()
    for hash_seed in ("0", "1", "7", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(ROOT)}
        run = subprocess.run(
            [sys.executable, "-c", CHILD],
            input=json.dumps(states),
            capture_output=True,
            text=True,
            env=env,
            check=True,
        )
        answers.add(run.stdout)
    assert len(answers) == 1


@settings(max_examples=examples(100), deadline=None)
@given(
    players=histories(max_players=9),
    mode=st.sampled_from([FOUR_THREE, THREE]),
    seed=st.integers(0, 99),
)
def test_windows_claim_only_optimal_seatings(players, mode, seed):
    # No exact tier: every seating claimed optimal is proved by the bound, a window or the
    # integer programme; one not proved lies between its bound and the optimum it does not
    # claim.
    result = pair_pods(players, 3, seed, mode, exact_limit=0, search_limit=0)
    optimum = brute_force_key(players, mode)
    if result.method == BEST_FOUND:
        assert result.bound.key() <= optimum <= result.cost.key()
        return
    assert result.method in ("lower_bound", "window", "programme")
    assert result.cost.key() == optimum


@settings(max_examples=examples(60), deadline=None)
@given(
    players=histories(max_players=9),
    mode=st.sampled_from([FOUR_THREE, THREE]),
    seed=st.integers(0, 99),
)
def test_the_search_after_the_windows_seats_every_round_at_the_optimum(players, mode, seed):
    # The exhaustive search that follows the windows (exact tier first off): no refusal,
    # and the brute-force optimum.
    result = pair_pods(players, 3, seed, mode, exact_limit=0)
    assert result.cost.key() == brute_force_key(players, mode)


def test_a_window_certifies_a_repeat_the_bound_cannot():
    # 1 and 2 alone on 6 points met last round: the bound puts them together; a window
    # over the top scores seats them apart at the least extra spread.
    points = [6, 6, 3, 3, 3, 3, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    players = field(points, met=[(1, 2)])
    result = pair_pods(players, 3, "w", exact_limit=0, search_limit=0)
    assert result.method == "window"
    assert result.cost.repeats == 0
    assert result.cost.spread > result.bound.spread


# --- the typed bound: who must sit short --------------------------------------------------------


def least_excess_spread(players, mode):
    """Brute force: the least spread over every seating with the least short-table excess,
    repeats ignored (what the typed bound claims to be)."""
    keys = every_seating_cost(players, mode)
    least = min(k.short_excess for k in keys)
    return least, min(k.spread for k in keys if k.short_excess == least)


@settings(max_examples=examples(150), deadline=None)
@given(players=histories(max_players=10), mode=st.sampled_from([FOUR_THREE, THREE]))
def test_typed_bound_is_the_least_spread_with_the_least_excess(players, mode):
    if len(players) < 2:
        return
    result = pair_pods(players, 2, "t", mode)
    assert (result.bound.short_excess, result.bound.spread) == least_excess_spread(players, mode)


def test_players_who_must_sit_short_set_the_bound():
    # 1, 2 and 7 never sat short: they fill the table of 3 whatever their points, so the
    # bound is their spread and the rest's, not the 0 of score blocks.
    players = field([3, 3, 3, 3, 0, 0, 0], short=[0, 0, 1, 1, 1, 1, 0])
    result = pair_pods(players, 2, "s")
    short = next(t for t in result.tables if t.short)
    assert sorted(short.player_ids) == [1, 2, 7]
    assert result.method == "lower_bound"
    assert result.cost == result.bound
    assert result.cost.spread == 2 * 9 + 4 * 9


def test_a_profile_is_filled_without_repeats_by_swapping_equal_players():
    # 64 players on four scores; each score's first four met each other, so each score's
    # four tables must take one of them each to avoid every repeat.
    points = [9] * 16 + [6] * 16 + [3] * 16 + [0] * 16
    met = []
    for start in (1, 17, 33, 49):
        met += list(itertools.combinations(range(start, start + 4), 2))
    result = pair_pods(field(points, met=met), 4, "f", exact_limit=0, search_limit=0)
    assert result.method == "lower_bound"
    assert result.cost.repeats == 0 and result.cost.spread == 0


@settings(max_examples=examples(25), deadline=None)
@given(n=st.integers(12, 16), seed=st.integers(0, 10_000), rounds=st.integers(2, 4))
def test_windows_agree_with_the_exact_tier_on_simulated_events(n, seed, rounds):
    # Windows alone (exact tier off) against the exact tier on the same round.
    event = SimulatedPods(n, seed=seed, tie_rate=0.3)
    for _ in range(rounds - 1):
        event.play_round()
    players = event.field()
    windowed = pair_pods(players, rounds, "w", exact_limit=0, search_limit=0)
    exact = pair_pods(players, rounds, "w", exact_limit=16)
    if windowed.method == BEST_FOUND:  # not claimed optimal: no better than the optimum
        assert windowed.bound.key() <= exact.cost.key() <= windowed.cost.key()
        return
    assert windowed.cost.key() == exact.cost.key()


def test_a_window_takes_players_from_outside_its_edges():
    # 7 and 8, alone on 5 points, met: the score blocks seat them together. A window over
    # their table seats them apart with players from the scores above and below.
    points = [6] * 6 + [5, 5] + [4] * 8
    players = field(points, met=[(7, 8)])
    result = pair_pods(players, 2, "b", exact_limit=0, search_limit=0)
    assert result.method == "window"
    assert result.cost.repeats == 0
    assert result.cost.key() == pair_pods(players, 2, "b").cost.key()
    table_of = {pid: t.number for t in result.tables for pid in t.player_ids}
    assert table_of[7] != table_of[8]


def test_a_round_no_window_certifies_is_searched_exhaustively():
    # 17 players, round 2: avoiding every repeat needs someone to sit short again, which
    # neither the typed bound nor a window can prove; windows alone leave it unproved.
    event = SimulatedPods(17, seed=1002, drop_rate=0.05)
    event.play_round()
    players = event.field()
    assert len(players) == 17
    assert_best_found(players, pair_pods(players, 2, "sim2", search_limit=0))
    assert_best_found(players, pair_pods(players, 2, "sim2", wide_node_limit=10))
    result = pair_pods(players, 2, "sim2")
    assert result.method == "exact"
    assert result.cost.repeats == 0 and result.cost.short_excess > result.bound.short_excess
    # The seating claimed is scored the same by evaluate_pods (a seating edited by hand).
    tables = [t.player_ids for t in result.tables]
    assert evaluate_pods(players, tables, "four_three").key() == result.cost.key()


# --- the window relaxation against brute force ------------------------------------------------


def set_partitions(items, largest):
    """Every partition of ``items`` into blocks of at most ``largest``."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for size in range(min(largest, len(items))):
        for mates in itertools.combinations(rest, size):
            others = [x for x in rest if x not in mates]
            for tail in set_partitions(others, largest):
                yield [(first, *mates), *tail]


def relaxed_brute_force(field, reals, full, short_sizes, short_limit, top, bottom):
    """The least (repeats, spread) of the window relaxation over every partition of its
    players, every table size and every split of its virtual players."""
    best = None
    for blocks in set_partitions(list(reals), full):
        repeats = sum(field.repeats(block) for block in blocks)
        options = []  # per block: (least spread at a full table, at a short one)
        for block in blocks:
            values = [field.value[p] for p in block]
            by_kind = [None, None]
            for size in [full, *short_sizes]:
                virtual = size - len(block)
                if virtual < 0:
                    continue
                for t in range(virtual + 1):
                    if (t and top is None) or (virtual - t and bottom is None):
                        continue
                    vals = values + [top] * t + [bottom] * (virtual - t)
                    spread = sum((x - y) ** 2 for x, y in itertools.combinations(vals, 2))
                    kind = int(size != full)
                    if by_kind[kind] is None or spread < by_kind[kind]:
                        by_kind[kind] = spread
            options.append(by_kind)
        for shorts in itertools.product((0, 1), repeat=len(blocks)):
            if sum(shorts) > short_limit:
                continue
            if any(options[i][kind] is None for i, kind in enumerate(shorts)):
                continue
            key = (repeats, sum(options[i][kind] for i, kind in enumerate(shorts)))
            if best is None or key < best:
                best = key
    return best


@settings(max_examples=examples(150), deadline=None)
@given(
    players=histories(max_players=7),
    mode=st.sampled_from([FOUR_THREE, THREE]),
    short_limit=st.integers(0, 2),
    edges=st.tuples(st.integers(0, 4) | st.none(), st.integers(0, 4) | st.none()),
    capacity=st.tuples(st.integers(0, 3), st.integers(0, 3)),
)
def test_window_relaxation_is_the_least_of_every_partition(
    players, mode, short_limit, edges, capacity
):
    # Players who can trade places are chosen once, and the seating that the edges can
    # seat is preferred: neither may change the relaxation's least (repeats, spread).
    field_ = _Field(players, 1, "r", mode)
    reals = field_.ids
    values = [field_.value[p] for p in reals]
    top = None if edges[0] is None else max(values) + edges[0]
    bottom = None if edges[1] is None else min(values) - edges[1]
    full = field_.full
    short_sizes = [3] if full == 4 else [2]
    found, tables = window_relaxed(
        field_, reals, full, short_sizes, short_limit, top, bottom, [10**6], capacity
    )
    assert found == relaxed_brute_force(field_, reals, full, short_sizes, short_limit, top, bottom)
    if found is None:  # no table fits (a window of 4 seats of 3 with no virtual players)
        return
    # The seating returned reaches it and seats every window player once.
    assert sorted(p for table, _, _ in tables for p in table) == sorted(reals)
    repeats = sum(field_.repeats(table) for table, _, _ in tables)
    spread = sum(
        sum(
            (x - y) ** 2
            for x, y in itertools.combinations(
                [field_.value[p] for p in table] + [top] * t + [bottom] * b, 2
            )
        )
        for table, t, b in tables
    )
    assert (repeats, spread) == found
    assert sum(1 for table, t, b in tables if len(table) + t + b != full) <= short_limit


@settings(max_examples=examples(150), deadline=None)
@given(
    players=histories(max_players=9),
    mode=st.sampled_from([FOUR_THREE, THREE]),
    data=st.data(),
)
def test_counted_window_is_a_lower_bound_of_every_seating(players, mode, data):
    # Every seating's (repeats, spread) is at least the counted window's, whatever the
    # window's range; a bound that is not one fails here.
    field_ = _Field(players, 1, "c", mode)
    values = sorted({field_.value[p] for p in field_.ids})
    lo = data.draw(st.sampled_from(values))
    hi = data.draw(st.sampled_from([v for v in values if v >= lo]))
    window = [p for p in field_.ids if lo <= field_.value[p] <= hi]
    sizes = list(table_sizes(len(field_.ids), mode))
    found = counted_window(field_, window, sizes, [10**6])
    least = min(
        (
            sum(field_.repeats(t) for t in seating),
            sum(field_.spread(t) for t in seating),
        )
        for seating in partitions(field_.ids, sizes)
    )
    assert found is not None and found <= least


@settings(max_examples=examples(150), deadline=None)
@given(
    points=st.lists(st.integers(0, 6), min_size=0, max_size=10),
    mode=st.sampled_from([FOUR_THREE, THREE]),
    short_limit=st.integers(0, 2),
)
def test_lending_blocks_is_the_least_over_every_choice_of_whom_to_lend(points, mode, short_limit):
    values = sorted(points, reverse=True)
    full, short = (4, 3) if mode == FOUR_THREE else (3, 2)
    table = lending_blocks(values, full, [short], short_limit)
    brute = {}
    for kept in range(len(values) + 1):
        for chosen in itertools.combinations(range(len(values)), kept):
            subset = [values[i] for i in chosen]
            for q in range(short_limit + 1):
                if kept < q * short or (kept - q * short) % full:
                    continue
                sizes = [full] * ((kept - q * short) // full) + [short] * q
                least = (
                    min(
                        sum(
                            (subset[a] - subset[b]) ** 2
                            for t in seating
                            for a, b in itertools.combinations(t, 2)
                        )
                        for seating in partitions(list(range(kept)), sizes)
                    )
                    if kept
                    else 0
                )
                if (kept, q) not in brute or least < brute[(kept, q)]:
                    brute[(kept, q)] = least
    assert table == brute


def test_the_counted_window_proves_a_round_the_relaxed_windows_cannot(monkeypatch):
    # 60 players, round 2: two pairs who met sit alone on 2½ and on 1½ points. Seating
    # them apart costs a score group's divisibility, which the relaxed windows (free
    # virtual players) do not see; the counted window over 1½-2½ points does.
    event = SimulatedPods(64, seed=1001, drop_rate=0.05)
    event.play_round()
    players = event.field()
    assert len(players) == 60
    result = pair_pods(players, 2, "sim2", search_limit=0)
    assert result.method == "window"
    assert result.cost.key() == (0, 0, 7, 0)
    assert result.bound.spread == 4  # the typed bound: far from it
    monkeypatch.setattr(pod_windows, "certify_counted", lambda *args, **kwargs: None)
    # Without it, the integer programme's score-group cuts see the same divisibility.
    again = pair_pods(players, 2, "sim2", search_limit=0)
    assert (again.method, again.cost.key()) == ("programme", (0, 0, 7, 0))
    monkeypatch.setattr(pods, "solve_programme", lambda *args, **kwargs: None)
    assert_best_found(players, pair_pods(players, 2, "sim2", search_limit=0))
