"""Swiss pairing: one test per rule and edge case, on hand-built fields."""

import itertools

import pytest

from tournaments.pairing import (
    PairingError,
    PairingPlayer,
    ReasonCode,
    evaluate_pairing,
    pair_round,
)
from tournaments.pairing.exact import solve_exact
from tournaments.pairing.field import Field


def player(pid, points=0, met=(), byes=0, rank=None):
    return PairingPlayer(pid, points, frozenset(met), byes, pid if rank is None else rank)


def pair_sets(result):
    return {frozenset(pair.ids) for pair in result.pairs}


def codes(reasons):
    return [reason.code for reason in reasons]


def assert_complete(result, players):
    seen = [pid for pair in result.pairs for pid in pair.ids]
    if result.bye is not None:
        seen.append(result.bye.player_id)
    assert sorted(seen) == sorted(p.id for p in players)


def test_no_players_gives_an_empty_round():
    result = pair_round([], 1, 7)
    assert result.pairs == ()
    assert result.bye is None
    assert result.cost.key() == (0, 0, 0, 0, 0)


def test_a_single_player_gets_the_bye():
    result = pair_round([player(1, 6)], 4, 7)
    assert result.pairs == ()
    assert result.bye.player_id == 1
    assert codes(result.bye.reasons) == [ReasonCode.BYE]
    assert result.bye.explanation == "bye: lowest-ranked player without a bye"


def test_two_players_are_paired_with_each_other():
    result = pair_round([player(1, 3), player(2, 3)], 2, 7)
    assert pair_sets(result) == {frozenset({1, 2})}
    assert result.pairs[0].explanation == "same point group (3 points)"
    assert result.bye is None


def test_two_players_who_met_are_paired_anyway_and_told_why():
    result = pair_round([player(1, 3, met=[2]), player(2, 0, met=[1])], 2, 7)
    (pair,) = result.pairs
    assert pair.ids == (1, 2)
    assert pair.rematch
    assert codes(pair.reasons) == [ReasonCode.PAIR_DOWN, ReasonCode.REMATCH]
    assert pair.explanation == "paired down from 3 to 0 points; rematch impossible to avoid"
    assert result.cost.rematches == 1


def test_round_one_is_random_but_fixed_by_the_seed():
    field = [player(pid, rank=0) for pid in range(1, 17)]
    first = pair_round(field, 1, 12345)
    assert pair_sets(pair_round(field, 1, 12345)) == pair_sets(first)
    assert len({frozenset(pair_sets(pair_round(field, 1, seed))) for seed in range(20)}) > 15
    assert first.cost.key() == (0, 0, 0, 0, 0)
    assert all(codes(p.reasons) == [ReasonCode.SAME_GROUP] for p in first.pairs)


def test_round_one_bye_among_equal_ranks_is_drawn_from_the_seed():
    field = [player(pid, rank=0) for pid in range(1, 10)]
    byes = {pair_round(field, 1, seed).bye.player_id for seed in range(40)}
    assert len(byes) > 4


def test_string_seeds_are_deterministic():
    field = [player(pid, rank=0) for pid in range(1, 12)]
    assert pair_round(field, 1, "spring-open").pairs == pair_round(field, 1, "spring-open").pairs


def test_players_stay_in_their_point_group_when_they_can():
    field = [player(1, 3), player(2, 3), player(3, 0), player(4, 0)]
    result = pair_round(field, 2, 1)
    assert pair_sets(result) == {frozenset({1, 2}), frozenset({3, 4})}
    assert [p.explanation for p in result.pairs] == [
        "same point group (3 points)",
        "same point group (0 points)",
    ]
    assert result.cost.pair_downs == 0


def test_an_odd_group_sends_exactly_one_player_to_the_next_group():
    field = [player(pid, 6) for pid in (1, 2, 3)] + [player(pid, 3) for pid in (4, 5, 6)]
    field += [player(7, 0), player(8, 0)]
    result = pair_round(field, 3, 1)
    assert result.cost.pair_downs == 1
    assert result.cost.point_differences == (3,)
    (down,) = [p for p in result.pairs if p.point_difference]
    assert down.explanation == "paired down from 6 to 3 points"
    assert down.reasons[0].high_points == 6
    assert down.reasons[0].low_points == 3
    assert frozenset({7, 8}) in pair_sets(result)


def test_two_small_pair_downs_beat_one_large_one():
    # 9 | 6 6 | 3: 9-6 and 6-3 (9 + 9) rather than 9-3 and 6-6 (36).
    field = [player(1, 9), player(2, 6), player(3, 6), player(4, 3)]
    result = pair_round(field, 4, 1)
    assert result.cost.point_differences == (3, 3)
    assert result.cost.pair_down_cost == 18


def test_a_pair_down_is_preferred_to_a_rematch():
    field = [player(1, 3, met=[2]), player(2, 3, met=[1]), player(3, 0), player(4, 0)]
    result = pair_round(field, 2, 1)
    assert result.cost.rematches == 0
    assert result.cost.pair_downs == 2
    assert frozenset({1, 2}) not in pair_sets(result)


def test_the_floater_is_chosen_so_the_next_group_can_absorb_them():
    # 6 6 6 | 3: whoever floats must not have met player 4.
    field = [player(1, 6, met=[4]), player(2, 6, met=[4]), player(3, 6), player(4, 3, met=[1, 2])]
    for seed in range(10):
        result = pair_round(field, 3, seed)
        assert frozenset({3, 4}) in pair_sets(result)
        assert result.cost.rematches == 0


def test_bye_goes_to_the_lowest_ranked_player_without_a_bye():
    field = [player(1, 6), player(2, 3), player(3, 3), player(4, 3), player(5, 3, byes=1)]
    result = pair_round(field, 3, 1)
    assert result.bye.player_id == 4
    assert result.bye.explanation == "bye: lowest-ranked player without a bye"
    assert result.cost.bye_excess == 0
    assert result.cost.bye_rank_offset == 0


def test_nobody_gets_a_second_bye_while_someone_has_none():
    field = [player(pid, 3, byes=1) for pid in range(1, 7)] + [player(7, 9, byes=0)]
    result = pair_round(field, 4, 1)
    assert result.bye.player_id == 7
    assert result.cost.repeat_byes == 0


def test_a_repeat_bye_when_everyone_has_had_one_goes_to_the_lowest_ranked():
    field = [player(pid, 3, byes=1) for pid in range(1, 4)]
    result = pair_round(field, 5, 1)
    assert result.bye.player_id == 3
    assert codes(result.bye.reasons) == [ReasonCode.REPEAT_BYE]
    assert result.cost.repeat_byes == 1
    assert result.cost.bye_excess == 0


def test_the_bye_moves_up_when_the_lowest_ranked_would_force_a_rematch():
    # Bye to 3 would force 1 v 2, who met; bye to 2 lets 1 play 3.
    field = [player(1, 6, met=[2]), player(2, 3, met=[1]), player(3, 0)]
    result = pair_round(field, 3, 1)
    assert result.bye.player_id == 2
    assert codes(result.bye.reasons) == [ReasonCode.BYE_MOVED]
    assert result.bye.reasons[0].skipped == 1
    assert result.cost.rematches == 0
    assert result.cost.bye_score_offset == 1
    assert result.cost.bye_rank_offset == 0


def test_the_bye_stays_in_the_lowest_score_group_but_moves_up_to_spare_a_pair_down():
    # The example of issue 13: the leaders may meet, but 3 has met 4. A bye to 5 (the
    # lowest-ranked) leaves 3 and 4 unable to play: 1 v 3 and 2 v 4 cost 9 + 36 = 45.
    # A bye to 4, on the same 0 points, lets 1 play 2 and 3 play 5: 9.
    field = [player(1, 6), player(2, 6), player(3, 3, met=[4]), player(4, 0, met=[3])]
    field.append(player(5, 0))
    result = pair_round(field, 3, 1)
    assert result.bye.player_id == 4
    assert pair_sets(result) == {frozenset({1, 2}), frozenset({3, 5})}
    assert result.cost.key() == (0, 0, 0, 9, 1)
    assert codes(result.bye.reasons) == [ReasonCode.BYE_MOVED]
    assert result.bye.reasons[0].skipped == 1
    assert "bigger pair-down" in result.bye.explanation
    # Giving it to 5 is what the cost says is worse, and only on the pair-downs.
    worse = evaluate_pairing(field, [(1, 3), (2, 4)], 5, 3, 1)
    assert worse.key() == (0, 0, 0, 45, 0)


def test_the_lowest_score_group_keeps_the_bye_even_at_a_bigger_pair_down():
    # A bye to 3 (on 3 points) would let everyone else pair at 0 cost; a 0-point player
    # still sits out, because the score group comes before the pair-downs.
    field = [player(1, 6), player(2, 6), player(3, 3), player(4, 0), player(5, 0)]
    result = pair_round(field, 3, 1)
    assert result.bye.player_id == 5
    assert result.cost.key() == (0, 0, 0, 9, 0)
    assert evaluate_pairing(field, [(1, 2), (4, 5)], 3, 3, 1).key() == (0, 0, 2, 0, 0)


def test_the_bye_goes_to_the_lower_rank_when_pair_downs_are_equal():
    field = [player(pid, 3) for pid in (1, 2)] + [player(pid, 0) for pid in (3, 4, 5)]
    result = pair_round(field, 2, 1)
    assert result.bye.player_id == 5
    assert result.cost.key() == (0, 0, 0, 0, 0)
    # The same when a window has to choose the bye: the leaders met, so both play down
    # whoever sits out, and the lowest-ranked 0-point player still does.
    field = [player(1, 6, met=[2]), player(2, 6, met=[1]), player(3, 3), player(4, 3)]
    field += [player(pid, 0) for pid in (5, 6, 7)]
    for seed in range(8):
        result = pair_round(field, 3, seed)
        assert result.method == "window"
        assert result.bye.player_id == 7
        assert result.cost.key() == (0, 0, 0, 18, 0)


def test_a_repeat_bye_is_given_only_to_avoid_a_rematch():
    # 3 alone has no bye but has met both others; 1 and 2 met each other too.
    field = [player(1, 6, met=[2, 3], byes=1), player(2, 3, met=[1, 3], byes=1)]
    field.append(player(3, 0, met=[1, 2]))
    result = pair_round(field, 4, 1)
    assert result.cost.rematches == 1
    assert result.bye.player_id == 3


def test_everyone_already_played_everyone_still_pairs_with_fewest_rematches():
    ids = range(1, 7)
    field = [player(pid, 3 * (6 - pid), met=[o for o in ids if o != pid]) for pid in ids]
    result = pair_round(field, 6, 1)
    assert_complete(result, field)
    assert result.cost.rematches == 3
    assert all(ReasonCode.REMATCH in codes(p.reasons) for p in result.pairs)
    assert result.method == "exact"


def test_only_the_unavoidable_rematch_is_made():
    # 1 has met everyone; the others have not met each other.
    field = [player(1, 9, met=[2, 3, 4]), player(2, 6), player(3, 3), player(4, 0)]
    result = pair_round(field, 4, 1)
    assert result.cost.rematches == 1
    rematches = [p for p in result.pairs if p.rematch]
    assert len(rematches) == 1 and 1 in rematches[0].ids
    assert [p for p in result.pairs if not p.rematch][0].reasons[-1].code != ReasonCode.REMATCH


def test_dropped_players_in_histories_are_ignored():
    # 9 and 10 dropped: they are not in the field, but appear as past opponents.
    field = [player(1, 3, met=[9]), player(2, 3, met=[10]), player(3, 0, met=[9])]
    field.append(player(4, 0, met=[10]))
    result = pair_round(field, 2, 1)
    assert_complete(result, field)
    assert pair_sets(result) == {frozenset({1, 2}), frozenset({3, 4})}


def test_late_entries_join_the_bottom_group():
    veterans = [player(pid, 6, met=[pid ^ 1]) for pid in range(2, 6)]
    latecomers = [player(pid, 0, rank=0) for pid in (10, 11)]
    result = pair_round(veterans + latecomers, 3, 1)
    assert frozenset({10, 11}) in pair_sets(result)
    assert result.cost.key() == (0, 0, 0, 0, 0)


def test_late_entry_alone_on_zero_is_paired_up_with_the_smallest_step():
    field = [player(1, 6), player(2, 6), player(3, 3), player(4, 3), player(5, 3)]
    field.append(player(6, 0))
    result = pair_round(field, 3, 1)
    assert result.cost.point_differences == (3,)
    assert frozenset({1, 2}) in pair_sets(result)


def test_a_one_sided_record_of_a_meeting_still_counts_as_a_rematch():
    field = [player(1, 3, met=[2]), player(2, 3), player(3, 3), player(4, 3)]
    result = pair_round(field, 2, 1)
    assert frozenset({1, 2}) not in pair_sets(result)


def test_pairs_are_ordered_best_records_first_with_the_stronger_player_first():
    field = [player(pid, points) for pid, points in enumerate([0, 9, 3, 6, 6, 9, 3, 0], 1)]
    result = pair_round(field, 4, 1)
    assert [(p.high_points, p.low_points) for p in result.pairs] == [
        (9, 9),
        (6, 6),
        (3, 3),
        (0, 0),
    ]
    mixed = pair_round([player(1, 0), player(2, 3), player(3, 3), player(4, 6)], 3, 1)
    assert [(p.high_points, p.low_points) for p in mixed.pairs] == [(6, 3), (3, 0)]
    assert all(p.high_points >= p.low_points for p in mixed.pairs)


def test_on_equal_points_the_better_ranked_player_is_listed_first():
    result = pair_round([player(1, 3, rank=2), player(2, 3, rank=1)], 2, 1)
    assert result.pairs[0].ids == (2, 1)


def test_duplicate_players_are_rejected():
    with pytest.raises(PairingError):
        pair_round([player(1), player(1)], 1, 1)


def test_evaluate_pairing_scores_hand_edited_pairings():
    field = [player(1, 6, met=[2]), player(2, 6, met=[1]), player(3, 3), player(4, 0)]
    result = pair_round(field, 3, 1)
    assert evaluate_pairing(field, [p.ids for p in result.pairs], None, 3, 1) == result.cost
    edited = evaluate_pairing(field, [(1, 2), (3, 4)], None, 3, 1)
    assert edited.rematches == 1
    assert edited.pair_down_cost == 9
    with pytest.raises(PairingError):
        evaluate_pairing(field, [(1, 2)], None, 3, 1)
    with pytest.raises(PairingError):
        evaluate_pairing(field, [(1, 2), (3, 4)], 4, 3, 1)


def test_small_fields_match_brute_force_on_every_history():
    # Every opponent graph on 5 players with fixed points: compare with enumeration.
    points = [6, 3, 3, 3, 0]
    edges = list(itertools.combinations(range(1, 6), 2))
    for mask in range(0, 1 << len(edges), 7):
        met = {pid: set() for pid in range(1, 6)}
        for bit, (a, b) in enumerate(edges):
            if mask >> bit & 1:
                met[a].add(b)
                met[b].add(a)
        field = [player(pid, points[pid - 1], met[pid]) for pid in range(1, 6)]
        result = pair_round(field, 3, mask)
        assert result.cost.key() == brute_force_best(field)


def brute_force_best(field):
    best = None
    ids = [p.id for p in field]
    for bye in ids if len(ids) % 2 else [None]:
        rest = [pid for pid in ids if pid != bye]
        for pairs in perfect_matchings(rest):
            key = evaluate_pairing(field, pairs, bye, 1, 1).key()
            best = key if best is None else min(best, key)
    return best


def perfect_matchings(ids):
    if not ids:
        yield []
        return
    first, rest = ids[0], ids[1:]
    for index, partner in enumerate(rest):
        for tail in perfect_matchings(rest[:index] + rest[index + 1 :]):
            yield [(first, partner), *tail]


def test_two_leaders_who_met_both_float_down_and_a_window_proves_it():
    field = [player(1, 6, met=[2]), player(2, 6, met=[1])]
    field += [player(pid, 3) for pid in (3, 4, 5, 6)] + [player(7, 0), player(8, 0)]
    result = pair_round(field, 3, 1)
    assert result.method == "window"
    assert result.cost.key() == (0, 0, 0, 18, 0)
    assert frozenset({7, 8}) in pair_sets(result)


def test_a_knot_under_a_large_group_is_proved_by_a_window_not_the_whole_field():
    # 3 and 4 alone on 3 points have both met 5, the only player on 0: one of the 301
    # leaders must play 5 (36) while 3 plays 4. A window over the three proves it once
    # floaters are counted from the leaders' score, without the 301-player group.
    leaders = [player(pid, 6) for pid in range(10, 311)]
    field = [*leaders, player(3, 3, met=[5]), player(4, 3, met=[5]), player(5, 0, met=[3, 4])]
    result = pair_round(field, 3, 1)
    assert result.method == "window"
    assert result.cost.key() == (0, 0, 0, 36, 0)
    assert frozenset({3, 4}) in pair_sets(result)


def test_two_players_who_met_everyone_are_paired_through_a_barrier(monkeypatch):
    # No window can avoid the rematch, so none is tried: the two form components of
    # their own in the pairs who have not met, and the barrier tier pairs them together
    # and the others apart (docs/pairing.md, step 0b).
    def no_windows(*args):
        raise AssertionError("windows tried although a rematch is certain")

    monkeypatch.setattr("tournaments.pairing.swiss.solve_windows", no_windows)
    field = [player(1, 6, met=range(2, 9)), player(2, 6, met=range(1, 9))]
    field += [player(pid, 3, met=[1, 2]) for pid in range(3, 9)]
    result = pair_round(field, 8, 1)
    assert result.method == "barrier"
    assert result.cost.key() == (1, 0, 0, 0, 0)  # 1 and 2 meet again, the rest on 3 points
    assert frozenset({1, 2}) in pair_sets(result)


def test_in_an_even_field_the_one_player_who_met_everyone_has_the_only_rematch(monkeypatch):
    # Every pairing has 1's pair as a rematch; the others are paired as though nobody
    # had met 1, and the chain proves that: no whole-field matching.
    def no_exact(*args):
        raise AssertionError("the whole-field matching ran")

    monkeypatch.setattr("tournaments.pairing.swiss.solve_exact", no_exact)
    field = [player(1, 6, met=range(2, 9))] + [player(pid, 3, met=[1]) for pid in range(2, 9)]
    field[1] = player(2, 3, met=[1, 3])
    result = pair_round(field, 8, 1)
    assert_complete(result, field)
    assert result.method == "forced_rematch"
    assert result.cost.key() == (1, 0, 0, 9, 0)  # 1 plays down once, the rest on 3 points
    assert frozenset({2, 3}) not in pair_sets(result)
    rematch = [pair for pair in result.pairs if pair.rematch]
    assert len(rematch) == 1 and 1 in rematch[0].ids
    assert ReasonCode.REMATCH in codes(rematch[0].reasons)


def test_an_even_field_whose_lone_rematch_leaves_another_is_still_paired_optimally():
    # 1 has met everyone; 2-4, 5-7 and 8-10 are three trios, each of whom has met every
    # player of the other trios but not their own. Even with 1's meetings erased, three
    # odd trios and one player between them leave a rematch: two in all.
    trios = [[2, 3, 4], [5, 6, 7], [8, 9, 10]]
    field = [player(1, 3, met=range(2, 11))]
    for trio in trios:
        others = [pid for other in trios if other is not trio for pid in other]
        field += [player(pid, 3, met=[1, *others]) for pid in trio]
    result = pair_round(field, 6, 1)
    assert_complete(result, field)
    assert result.method == "forced_rematch"
    assert result.cost.key() == (2, 0, 0, 0, 0)


def test_in_an_odd_field_the_one_player_who_met_everyone_sits_out():
    # 1 leads and has met everyone: a bye to anyone else would force a rematch on 1.
    field = [player(1, 9, met=[2, 3, 4, 5]), *(player(pid, 3) for pid in range(2, 6))]
    result = pair_round(field, 5, 1)
    assert_complete(result, field)
    assert result.method == "forced_bye" and result.bye.player_id == 1
    assert result.cost.key() == (0, 0, 4, 0, 0)  # 4 players on fewer points kept theirs
    assert ReasonCode.BYE_MOVED in codes(result.bye.reasons)


def test_the_whole_field_tier_uses_the_pairs_not_yet_met_when_they_cover_the_field():
    # Late in a round robin of 8 with distinct scores: only a few pairs are unplayed.
    unplayed = {(1, 2), (3, 4), (5, 6), (7, 8), (1, 8), (2, 7)}
    ids = range(1, 9)
    field = [
        player(
            pid,
            3 * (8 - pid),
            met=[o for o in ids if o != pid and (min(o, pid), max(o, pid)) not in unplayed],
        )
        for pid in ids
    ]
    whole = Field(field, 7, 1)
    pairs, bye_id = solve_exact(whole)
    assert bye_id is None and sorted(pairs) == [(1, 2), (3, 4), (5, 6), (7, 8)]
    assert whole.cost_of(pairs, None).key() == pair_round(field, 7, 1).cost.key()
    # Every pair but one met: the rematch pairs join the graph, one rematch is made.
    field[0] = player(1, 21, met=range(2, 9))
    field[1] = player(2, 18, met=[1, 3, 4, 5, 6, 8])
    pairs, _ = solve_exact(Field(field, 7, 1))
    assert Field(field, 7, 1).cost_of(pairs, None).rematches == 1
