"""The integer-programme tier of the pod pairer (tournaments/pairing/pod_programme.py),
against brute force over every partition and against the exhaustive search."""

from __future__ import annotations

import random
import subprocess
import sys
from fractions import Fraction
from itertools import combinations, islice
from pathlib import Path
from unittest import mock

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tests.hypothesis_profiles import examples
from tests.tournaments.test_pods import histories, partitions
from tournaments.pairing import pod_programme, pods
from tournaments.pairing.pod_profile import typed_profile
from tournaments.pairing.pod_programme import (
    _fill_counts,
    _Fillability,
    _has_table,
    _Pricer,
    _profile_model,
    _Programme,
    _seat_signatures,
    _short_table_offset,
    solve_programme,
)
from tournaments.pairing.pod_simulation import SimulatedPods
from tournaments.pairing.pods import (
    FOUR_THREE,
    THREE,
    PodPlayer,
    _Field,
    _solve_exact,
    pair_pods,
    short_plan,
    table_sizes,
)


def seatings(field, sizes):
    return [[list(t) for t in p] for p in partitions(field.ids, list(sizes))]


def every_seating(players, mode):
    """The field of a round of at least two tables, its tables, its short-table plan, every
    seating and each seating's cost key."""
    field = _Field(players, 3, "p", mode)
    sizes = table_sizes(len(field.ids), mode)
    assume(len(sizes) >= 2)
    every = seatings(field, sizes)
    return field, sizes, short_plan(field, sizes), every, [field.ikey(s) for s in every]


@settings(max_examples=examples(120), deadline=None)
@given(players=histories(), mode=st.sampled_from([FOUR_THREE, THREE]), data=st.data())
def test_the_programme_proves_the_least_seating_of_any_partition(players, mode, data):
    field, sizes, plan, every, keys = every_seating(players, mode)
    # The tier starts from a seating with no repeat and the least excess, any of them.
    starts = [s for s, k in zip(every, keys, strict=True) if not k[0] and k[1] == plan.excess]
    assume(starts)
    incumbent = data.draw(st.sampled_from(starts))
    outcome = solve_programme(field, sizes, plan, incumbent)
    assert outcome is not None and outcome.proved, outcome
    assert field.ikey(outcome.tables) == min(keys)
    assert outcome.bound == min(keys)[2]
    assert sorted(p for t in outcome.tables for p in t) == field.ids


@settings(max_examples=examples(60), deadline=None)
@given(players=histories(max_players=12), mode=st.sampled_from([FOUR_THREE, THREE]))
def test_no_score_group_cut_removes_a_seating(players, mode):
    """Every cut of the family holds for every partition into the round's tables, with or
    without repeats: a cut that removed one could make the programme prove a wrong optimum."""
    field = _Field(players, 3, "p", mode)
    sizes = table_sizes(len(field.ids), mode)
    pricer = _Pricer(field, sizes, short_plan(field, sizes), lambda steps: None)
    programme = _Programme(pricer, sizes)
    family = programme.group_cut_family()
    bounds = np.array([cut.bound for cut in family])
    index = pricer.index
    coefficients: dict[tuple[int, ...], np.ndarray] = {}
    for seating in partitions(field.ids, list(sizes)):
        total = np.zeros(len(family), dtype=np.int64)
        for table in seating:
            key = programme.signature([index[p] for p in table])
            if key not in coefficients:
                coefficients[key] = np.array(
                    [cut.coefficient(key, len(key)) for cut in family], dtype=np.int64
                )
            total += coefficients[key]
        broken = np.flatnonzero(total > bounds)
        assert not len(broken), (family[broken[0]], seating)


def test_a_profile_the_typed_bound_cannot_seat_is_proved():
    """Six leaders on 3 points who met in pairs and 18 players on 2: the typed bound seats
    four leaders together, which the pairs forbid. The least seating puts three leaders (one
    of each pair) with one player on 2 points, twice; the score-group cuts lift the
    relaxation to it, and its profile is seated without a repeat."""
    leaders = [PodPlayer(i, 3, frozenset({i + 1 if i % 2 else i - 1})) for i in range(1, 7)]
    field_players = [*leaders, *(PodPlayer(i, 2) for i in range(7, 25))]
    field = _Field(field_players, 2, "p", FOUR_THREE)
    sizes = table_sizes(24)
    plan = short_plan(field, sizes)
    least = [[1, 3, 5, 7], [2, 4, 6, 8], *([i, i + 1, i + 2, i + 3] for i in range(9, 25, 4))]
    unit = field.spread([1, 7])
    assert sum(field.spread(t) for t in least) == 6 * unit
    assert typed_profile(field, sizes, plan)[0] == 4 * unit
    worse = [
        [1, 3, 7, 8],
        [2, 5, 9, 10],
        [4, 6, 11, 12],
        *([i, i + 1, i + 2, i + 3] for i in range(13, 25, 4)),
    ]
    assert field.ikey(worse)[:2] == (0, 0) and field.ikey(worse)[2] > 6 * unit
    outcome = solve_programme(field, sizes, plan, worse, known_bound=4 * unit)
    assert outcome is not None and outcome.proved, outcome
    assert field.ikey(outcome.tables) == (0, 0, 6 * unit, 0)
    assert outcome.bound == 6 * unit


@settings(max_examples=examples(120), deadline=None)
@given(players=histories(), mode=st.sampled_from([FOUR_THREE, THREE]), data=st.data())
def test_the_programme_from_any_seating_finds_the_least_or_says_nothing(players, mode, data):
    """From a seating with a repeat or more than the least excess (artificial columns keep
    the relaxation solvable): the least seating when one without a repeat and with the
    least excess exists, else nothing."""
    field, sizes, plan, every, keys = every_seating(players, mode)
    incumbent = data.draw(st.sampled_from(every))
    outcome = solve_programme(field, sizes, plan, incumbent)
    if any(not k[0] and k[1] == plan.excess for k in keys):
        assert outcome is not None and outcome.proved, outcome
        assert field.ikey(outcome.tables) == min(keys)
    else:
        assert outcome is None


def test_the_profiles_of_score_groups_seat_a_round_below_its_incumbent():
    """Two pairs who met share the top score, twenty players another: no table seats all
    four leaders (the signature has no table without a repeat), and the least profile
    that remains is filled without a repeat, below a poor incumbent."""
    leaders = [PodPlayer(i, 3, frozenset({i + 1 if i % 2 else i - 1})) for i in range(1, 5)]
    field_players = [*leaders, *(PodPlayer(i, 2) for i in range(5, 25))]
    field = _Field(field_players, 2, "p", FOUR_THREE)
    sizes = table_sizes(24)
    plan = short_plan(field, sizes)
    pricer = _Pricer(field, sizes, plan, lambda steps: None)
    assert not _has_table(pricer, (0, 0, 0, 0)) and _has_table(pricer, (0, 0, 1, 1))
    programme = _Programme(pricer, sizes)
    poor = [[1, 5, 6, 7], [2, 8, 9, 10], [3, 11, 12, 13], [4, 14, 15, 16], [17, 18, 19, 20]]
    poor.append([21, 22, 23, 24])
    below = field.ikey(poor)[2]
    bound, seated = _seat_signatures(field, pricer, programme, below, tries=1)
    assert seated is not None
    assert sorted(p for t in seated for p in t) == field.ids
    key = field.ikey(seated)
    assert key[:2] == (0, 0) and key[2] < below
    # The least: the leaders two and two, each pair apart, with two players on 2 points;
    # the profiles prove it (no profile costs less).
    assert key[2] == 2 * 4 * field.spread([1, 5]) == bound


def test_a_profile_the_filling_missed_never_raises_the_bound(monkeypatch):
    """The round above with the filling made to miss every profile: each is excluded and
    the next tried, but an excluded profile may be a seating's, so the bound stays the
    least profile's (the optimum here), never the next ones'."""
    leaders = [PodPlayer(i, 3, frozenset({i + 1 if i % 2 else i - 1})) for i in range(1, 5)]
    field = _Field([*leaders, *(PodPlayer(i, 2) for i in range(5, 25))], 2, "p", FOUR_THREE)
    sizes = table_sizes(24)
    plan = short_plan(field, sizes)
    pricer = _Pricer(field, sizes, plan, lambda steps: None)
    least = 2 * 4 * field.spread([1, 5])
    monkeypatch.setattr(pod_programme, "_fill_counts", lambda *args: None)
    programme = _Programme(pricer, sizes)
    bound, seated = _seat_signatures(field, pricer, programme, 10 * least, tries=6, most_cuts=4)
    assert seated is None
    assert bound == least


@settings(max_examples=examples(60), deadline=None)
@given(players=histories(max_players=12), mode=st.sampled_from([FOUR_THREE, THREE]))
def test_the_profiles_bound_is_never_above_the_least_seating(players, mode):
    """The least profile of score groups bounds every seating with no repeat and the least
    excess (every partition of up to 12 players): a bound above one would prove a worse
    seating the least."""
    field, sizes, plan, every, keys = every_seating(players, mode)
    valid = [k[2] for k in keys if not k[0] and k[1] == plan.excess]
    assume(valid)
    least = min(valid)
    pricer = _Pricer(field, sizes, plan, lambda steps: None)
    for below in (least, least + 1, max(valid) + 1):
        for most_cuts in (0, 12):
            programme = _Programme(pricer, sizes)
            bound, _ = _seat_signatures(field, pricer, programme, below, 0, most_cuts)
            assert bound <= least, (below, most_cuts, bound, least)


@settings(max_examples=examples(60), deadline=None)
@given(players=histories(max_players=12), mode=st.sampled_from([FOUR_THREE, THREE]))
def test_a_fillability_cut_keeps_every_seating_and_breaks_its_profile(players, mode):
    """The Benders cuts of the profiles' programme: each profile no seating fills even
    fractionally gets a row that its own counts break and that the profile of every seating
    with no repeat and the least excess keeps (every partition of up to 12 players). A row
    cutting off a seating would let the profiles prove a worse one the least."""
    field, sizes, plan, every, keys = every_seating(players, mode)
    seatings = [s for s, k in zip(every, keys, strict=True) if not k[0] and k[1] == plan.excess]
    assume(seatings)
    pricer = _Pricer(field, sizes, plan, lambda steps: None)
    programme = _Programme(pricer, sizes)
    model = _profile_model(pricer, programme, max(k[2] for k in keys) + 1)
    assume(model is not None)
    h, signatures = model
    where = {key: c for c, key in enumerate(signatures)}
    profiles = []
    for seating in seatings:
        counts = np.zeros(len(signatures))
        for table in seating:
            counts[where[programme.signature([pricer.index[p] for p in table])]] += 1
        profiles.append(counts)
    fillability = _Fillability(pricer, signatures)
    cuts = 0
    for _ in range(12):
        h.run()
        if h.getModelStatus() != h.getModelStatus().kOptimal:
            break
        values = [round(x) for x in h.getSolution().col_value]
        used = [c for c in range(len(signatures)) if values[c]]
        cut = fillability.cut(values, used)
        if cut is None:
            # Filled fractionally: some seating's profile is this one, or mixes to it.
            break
        coefficients = np.array([cut.coefficient(key) for key in signatures])
        most = cut.most
        assert coefficients @ np.array(values, dtype=float) > most + 1e-7
        for counts in profiles:
            assert coefficients @ counts <= most, counts
        columns = np.flatnonzero(coefficients)
        h.addRow(-np.inf, most, len(columns), columns.astype(np.int32), coefficients[columns])
        cuts += 1
    if cuts:
        programme = _Programme(pricer, sizes)
        bound, _ = _seat_signatures(field, pricer, programme, 10**9, tries=0, most_cuts=12)
        assert bound <= min(k[2] for k in keys if not k[0] and k[1] == plan.excess)


@settings(max_examples=examples(80), deadline=None)
@given(
    players=histories(max_players=12),
    mode=st.sampled_from([FOUR_THREE, THREE]),
    data=st.data(),
)
def test_a_cut_around_who_sits_short_keeps_every_seating_and_breaks_its_choice(players, mode, data):
    """The rank offset's Benders cuts: a seating's profile with other players short (drawn),
    which no seating fills even fractionally, gets a row that
    the choice breaks and that every seating with no repeat and the least excess keeps,
    with its own players short (every partition of up to 12 players). A row cutting off a
    seating would let the offset's programme prove a worse offset the least."""
    field, sizes, plan, every, keys = every_seating(players, mode)
    seatings = [s for s, k in zip(every, keys, strict=True) if not k[0] and k[1] == plan.excess]
    assume(seatings)
    pricer = _Pricer(field, sizes, plan, lambda steps: None)
    programme = _Programme(pricer, sizes)
    index = pricer.index
    signatures = sorted({programme.signature([index[p] for p in t]) for s in every for t in s})
    where = {key: c for c, key in enumerate(signatures)}

    def choice(seating):
        counts = [0] * len(signatures)
        short = set()
        for table in seating:
            counts[where[programme.signature([index[p] for p in table])]] += 1
            if field.is_short(len(table)):
                short.update(index[p] for p in table)
        return counts, short

    kept = [choice(seating) for seating in seatings]
    counts, short = choice(data.draw(st.sampled_from(seatings)))
    used = [c for c, x in enumerate(counts) if x]
    fillability = _Fillability(pricer, signatures)
    # Others short instead: every choice of as many among those who may sit short (of
    # other score groups too, which no filling of the profile seats), up to 40.
    may_short = [i for i in range(pricer.n) if pricer.may_short[i]]
    cuts = 0
    for drawn in islice(combinations(may_short, len(short)), 40):
        if any(not pricer.may_full[i] for i in range(pricer.n) if i not in drawn):
            continue
        cut = fillability.cut(counts, used, set(drawn))
        if cut is None:
            continue

        def row(counts, short, cut=cut):
            weights = zip(signatures, counts, strict=True)
            return sum(cut.coefficient(key) * x for key, x in weights) + sum(
                cut.sits_short(i) for i in short
            )

        assert row(counts, drawn) > cut.most + 1e-7
        for seated, seated_short in kept:
            assert row(seated, seated_short) <= cut.most, (seated, seated_short)
        cuts += 1
    assume(cuts)


def test_past_the_listing_the_profiles_cut_prove_the_round(monkeypatch):
    """Twenty players on four scores, 38 meetings: the relaxation and the profiles without
    cuts leave the bound at 15, below the least spread, 16. With the listing of tables past
    its limits (as equal players make it in large fields), the profiles cut until one is
    filled prove 16: without the cuts the round stays unproved at 15."""
    points = [2, 2, 3, 1, 3, 3, 1, 2, 1, 1, 2, 2, 2, 3, 2, 2, 3, 1, 3, 1]
    met = [(1, 5), (1, 9), (1, 20), (2, 5), (2, 14), (2, 16), (2, 17), (2, 19), (3, 4)]
    met += [(3, 14), (4, 5), (4, 8), (4, 10), (4, 16), (4, 18), (5, 6), (5, 11), (5, 16)]
    met += [(6, 13), (6, 15), (7, 18), (7, 19), (7, 20), (8, 12), (9, 10), (10, 12), (10, 16)]
    met += [(10, 20), (12, 14), (13, 16), (13, 18), (14, 16), (14, 19), (15, 16), (16, 20)]
    met += [(17, 19), (18, 19), (19, 20)]
    players = [
        PodPlayer(i, Fraction(points[i - 1]), frozenset({a + b - i for a, b in met if i in (a, b)}))
        for i in range(1, 21)
    ]
    field = _Field(players, 3, "p", FOUR_THREE)
    sizes = table_sizes(20)
    poor = [[12, 19, 3, 5], [4, 15, 1, 14], [20, 13, 17, 11], [6, 16, 18, 9], [7, 8, 10, 2]]

    def too_many(*args):
        raise pod_programme._GiveUp("too many tables")

    monkeypatch.setattr(pod_programme, "_list_tables", too_many)
    outcome = solve_programme(field, sizes, short_plan(field, sizes), poor)
    assert outcome.proved, outcome
    assert field.ikey(outcome.tables) == (0, 0, 16, 0) and outcome.bound == 16
    monkeypatch.setattr(pod_programme, "PROFILE_CUTS", 0)
    without = solve_programme(field, sizes, short_plan(field, sizes), poor)
    assert not without.proved and without.bound == 15


def test_the_profiles_bound_proves_a_round_without_the_relaxation():
    """The round above from its poor seating: the least profile both bounds the spread and
    is filled, so the tier proves the round without solving the relaxation over tables."""
    leaders = [PodPlayer(i, 3, frozenset({i + 1 if i % 2 else i - 1})) for i in range(1, 5)]
    field = _Field([*leaders, *(PodPlayer(i, 2) for i in range(5, 25))], 2, "p", FOUR_THREE)
    sizes = table_sizes(24)
    poor = [[1, 5, 6, 7], [2, 8, 9, 10], [3, 11, 12, 13], [4, 14, 15, 16], [17, 18, 19, 20]]
    poor.append([21, 22, 23, 24])
    outcome = solve_programme(field, sizes, short_plan(field, sizes), poor)
    assert outcome is not None and outcome.proved, outcome
    assert outcome.relaxations == 0
    assert field.ikey(outcome.tables) == (0, 0, 2 * 4 * field.spread([1, 5]), 0)


def _leaders_met_in_pairs():
    """Four players on 3 points who met in pairs (1-2, 3-4) and three on 2."""
    met = {1: 2, 2: 1, 3: 4, 4: 3}
    leaders = [PodPlayer(i, 3, frozenset({met[i]}), 0, i) for i in range(1, 5)]
    others = [PodPlayer(i, 2, frozenset(), 0, i) for i in range(5, 8)]
    return _Field([*leaders, *others], 2, "p", FOUR_THREE)


def test_a_profile_whose_lowest_ranked_met_is_filled_with_others_short(monkeypatch):
    """Four players on 3 points who met in pairs (1-2, 3-4) and three on 2: the profile lays
    a table of 4 and a table of 3 with two of the leaders at each. Its short seats go first
    to the group's lowest ranked, 3 and 4, who met, and re-seating within kinds of seat
    cannot part them; the assignment programme chooses who sits short as well."""
    field = _leaders_met_in_pairs()
    sizes = table_sizes(7)
    assert sorted(sizes) == [3, 4]
    pricer = _Pricer(field, sizes, short_plan(field, sizes), lambda steps: None)
    counts = {(0, 0, 1, 1): 1, (0, 0, 1): 1}
    seated = _fill_counts(field, pricer, counts)
    assert seated is not None
    assert not any(field.repeats(t) for t in seated)
    assert sorted(sorted(pricer.group[pricer.index[p]] for p in t) for t in seated) == sorted(
        list(key) for key in counts
    )
    monkeypatch.setattr(pod_programme, "_fill_by_programme", lambda *args, **kwargs: None)
    assert _fill_counts(field, pricer, counts) is None


@settings(max_examples=examples(80), deadline=None)
@given(
    players=histories(max_players=12),
    mode=st.sampled_from([FOUR_THREE, THREE]),
    how=st.sampled_from(["listed", "past the listing", "by player"]),
    data=st.data(),
)
def test_the_short_tables_offset_is_the_least_of_its_spread_when_it_says_so(
    players, mode, how, data
):
    """From any seating of the least spread (no repeat, the least excess), the short-table
    programme's seating keeps that spread, never has a larger offset, and when it says its
    offset is the least, no seating of that spread has a smaller one (every partition). With
    the short tables listed, past the listing's limit, and by player from the start (short
    seats by signature, the Benders cuts around who sits short)."""
    field, sizes, plan, every, keys = every_seating(players, mode)
    valid = [(k, s) for k, s in zip(keys, every, strict=True) if not k[0] and k[1] == plan.excess]
    assume(valid)
    spread = min(k[2] for k, _ in valid)
    least_offset = min(k[3] for k, _ in valid if k[2] == spread)
    start = data.draw(st.sampled_from([s for k, s in valid if k[2] == spread]))
    pricer = _Pricer(field, sizes, plan, lambda steps: None)
    index = pricer.index
    best = [tuple(sorted(index[p] for p in t)) for t in start]
    limit = pod_programme.MAX_TABLES if how == "listed" else -1
    with mock.patch.object(pod_programme, "MAX_TABLES", limit):
        seating, least = _short_table_offset(
            field, pricer, _Programme(pricer, sizes), best, spread, how == "by player"
        )
    key = field.ikey([[pricer.order[i] for i in t] for t in seating])
    assert key[:3] == (0, plan.excess, spread)
    assert key[3] <= field.ikey(start)[3]
    if least:
        assert key[3] == least_offset


def test_the_short_tables_prove_an_offset_no_seating_of_the_spread_avoids():
    """Four players on 3 points who met in pairs (1-2, 3-4) and three on 2: two leaders sit
    at the table of 3, and its lowest ranked two, 3 and 4, cannot both sit there. The
    least offset of that spread is 1, which the short-table programme proves."""
    field = _leaders_met_in_pairs()
    sizes = table_sizes(7)
    plan = short_plan(field, sizes)
    pricer = _Pricer(field, sizes, plan, lambda steps: None)
    index = pricer.index
    worse = [[2, 3, 7], [1, 4, 5, 6]]
    spread, offset = field.ikey(worse)[2:]
    assert offset == 2
    best = [tuple(sorted(index[p] for p in t)) for t in worse]
    seating, least = _short_table_offset(field, pricer, _Programme(pricer, sizes), best, spread)
    assert least
    assert field.ikey([[pricer.order[i] for i in t] for t in seating]) == (0, 0, spread, 1)


def test_cuts_around_who_sits_short_prove_the_offset_by_player(monkeypatch):
    """The same round by player (who sits short a 0/1 choice, short tables by signature,
    as past the listing of short tables): its first choice, 3 and 4 short, no seating
    fills; a Benders cut around who sits short and the next choice proves offset 1.
    Without the cuts it proves nothing."""
    field = _leaders_met_in_pairs()
    sizes = table_sizes(7)
    pricer = _Pricer(field, sizes, short_plan(field, sizes), lambda steps: None)
    worse = [[2, 3, 7], [1, 4, 5, 6]]
    spread = field.ikey(worse)[2]
    best = [tuple(sorted(pricer.index[p] for p in t)) for t in worse]

    def offset_by_player():
        programme = _Programme(pricer, sizes)
        return _short_table_offset(field, pricer, programme, best, spread, by_player=True)

    seating, least = offset_by_player()
    assert least
    assert field.ikey([[pricer.order[i] for i in t] for t in seating]) == (0, 0, spread, 1)
    monkeypatch.setattr(pod_programme, "OFFSET_CUTS", 0)
    assert offset_by_player() == (best, False)


def test_a_profiles_short_seats_pass_over_a_player_who_may_not_sit_short():
    """The lowest ranked leader (4) sat short before, so may not now: the profile's two
    short seats of the leaders go to the next lowest, 3 and 2, not to 4 and 3 (a 209-player
    round 5 was left at 73 against its bound 52 by that)."""
    leaders = [PodPlayer(i, 3, frozenset(), 1 if i == 4 else 0, i) for i in range(1, 5)]
    others = [PodPlayer(i, 2, frozenset(), 0, i) for i in range(5, 8)]
    field = _Field([*leaders, *others], 2, "p", FOUR_THREE)
    sizes = table_sizes(7)
    plan = short_plan(field, sizes)
    assert 4 not in plan.must | plan.either
    pricer = _Pricer(field, sizes, plan, lambda steps: None)
    seated = _fill_counts(field, pricer, {(0, 0, 1, 1): 1, (0, 0, 1): 1})
    assert seated is not None
    short = next(t for t in seated if len(t) == 3)
    assert sorted(p for p in short if p <= 4) == [2, 3]


def test_a_seating_with_a_repeat_is_replaced_by_the_least_one_without():
    field_players = [
        PodPlayer(1, 0, frozenset({2})),
        PodPlayer(2, 0, frozenset({1})),
        *(PodPlayer(i, 0) for i in range(3, 9)),
    ]
    field = _Field(field_players, 2, "p", FOUR_THREE)
    sizes = table_sizes(8)
    plan = short_plan(field, sizes)
    outcome = solve_programme(field, sizes, plan, [[1, 2, 3, 4], [5, 6, 7, 8]])
    assert outcome is not None and outcome.proved
    assert field.ikey(outcome.tables) == (0, 0, 0, 0)


def test_the_programme_finds_nothing_where_every_seating_repeats():
    """Four players who all met: the relaxation keeps its artificial columns, so the tier
    says nothing (the exhaustive tiers seat the round with its least repeats)."""
    field_players = [PodPlayer(i, 0, frozenset(set(range(1, 5)) - {i})) for i in range(1, 5)]
    field = _Field(field_players, 2, "p", FOUR_THREE)
    sizes = table_sizes(4)
    assert solve_programme(field, sizes, short_plan(field, sizes), [[1, 2, 3, 4]]) is None


@settings(max_examples=examples(12), deadline=None)
@given(n=st.integers(13, 16), seed=st.integers(0, 1000), rounds=st.integers(2, 5))
def test_the_programme_agrees_with_the_exhaustive_search(n, seed, rounds):
    event = SimulatedPods(n, seed=seed)
    for _ in range(rounds - 1):
        event.play_round()
    players = event.field()
    field = _Field(players, rounds, "x", FOUR_THREE)
    sizes = table_sizes(len(field.ids))
    plan = short_plan(field, sizes)
    start = [list(t.player_ids) for t in pair_pods(players, rounds, "x").tables]
    exact, proved = _solve_exact(field, sizes, start, None)
    assert proved
    assume(not field.ikey(exact)[0] and field.ikey(exact)[1] == plan.excess)
    # The incumbent: a worse seating than the optimum where one exists (shuffled tables
    # repaired to no repeat), so the programme has something to find.
    incumbent = start
    rng = random.Random(seed)
    for _ in range(20):
        ids = list(field.ids)
        rng.shuffle(ids)
        cut, tables = 0, []
        for size in sizes:
            tables.append(ids[cut : cut + size])
            cut += size
        key = field.ikey(tables)
        if not key[0] and key[1] == plan.excess:
            incumbent = tables
            break
    outcome = solve_programme(field, sizes, plan, incumbent)
    assert outcome is not None and outcome.proved
    assert field.ikey(outcome.tables) == field.ikey(exact)


def test_a_field_too_large_to_search_is_proved_by_the_programme():
    """64 players, 5 % dropping: rounds 4-6 of this event were seated without a proof
    before the programme tier (docs/benchmarks.md, "Pod seating")."""
    event = SimulatedPods(64, seed=1001, drop_rate=0.05)
    methods = [event.play_round().method for _ in range(6)]
    assert methods[3:5] == ["programme", "programme"], methods


def test_a_round_two_of_123_players_is_proved_by_the_relaxations_profile():
    """bench/pods.py's 128-player event, round 2 (123 players): three pairs who met share 2½
    points and four share ½, so the typed bound (16) cannot be seated; the least profile of
    score groups (as the relaxation with the score-group cuts) says 18 and is seated
    without a repeat. The best seating found before these cuts cost 22."""
    event = SimulatedPods(128, seed=1000, drop_rate=0.05)
    event.play_round()
    result = event.play_round()
    assert len(event.field()) <= 123
    assert result.method == "programme"
    assert result.cost.key() == (0, 0, Fraction(18, 4), 0)


def test_a_round_whose_best_seating_repeats_a_meeting_is_proved_by_the_programme(monkeypatch):
    """A round whose construction and polish leave a repeat went to the exhaustive search
    (bench/pods.py's 32-player round 5 ran to its node limit, 252 s, unproved): from such a
    seating the tier finds the least seating without one and proves it."""
    rng = random.Random(7)
    ids = list(range(1, 41))
    met: dict[int, set[int]] = {pid: set() for pid in ids}
    for _ in range(3):  # three earlier rounds of tables of 4
        rng.shuffle(ids)
        for cut in range(0, 40, 4):
            for a in ids[cut : cut + 4]:
                met[a].update(b for b in ids[cut : cut + 4] if b != a)
    players = [
        PodPlayer(pid, Fraction(rng.randrange(0, 19), 2), frozenset(met[pid])) for pid in ids
    ]
    proved = pair_pods(players, 4, "r")
    assert proved.method == "programme"

    def with_a_repeat(field, tables):
        # Two players who met, put at one table.
        a = next(p for p in field.ids if field.opp[p])
        b = next(iter(field.opp[a]))
        tables = [list(t) for t in tables]
        ta = next(t for t in tables if a in t)
        tb = next(t for t in tables if b in t)
        if ta is not tb:
            swap = next(p for p in ta if p != a)
            ta[ta.index(swap)], tb[tb.index(b)] = b, swap
        assert field.ikey(tables)[0] > 0
        return tables

    monkeypatch.setattr(pods, "_polish", with_a_repeat)
    monkeypatch.setattr(pods, "certify_windows", lambda *args, **kwargs: None)
    again = pair_pods(players, 4, "r")
    assert again.method == "programme"
    assert again.cost.key() == proved.cost.key()


def test_a_pairing_through_the_programme_writes_nothing_to_standard_output():
    """HiGHS prints a banner when a process makes its first instance, whatever the options:
    a worker's or a command's output would carry it on every pod pairing."""
    script = (
        "from tournaments.pairing.pod_programme import solve_programme\n"
        "from tournaments.pairing.pods import PodPlayer, _Field, short_plan, table_sizes\n"
        "players = [PodPlayer(i, i % 3) for i in range(1, 9)]\n"
        "field = _Field(players, 2, 'p', 'four_three')\n"
        "sizes = table_sizes(8)\n"
        "outcome = solve_programme(field, sizes, short_plan(field, sizes), [[1, 2, 3, 4], [5, 6, 7, 8]])\n"
        # Proved by HiGHS: the profiles' programme (or the relaxation) ran.
        "assert outcome.proved and outcome.bound > 0, outcome\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
