"""Hand-computed examples of the tiebreak systems of tournaments/tiebreakers.py, through
compute_standings (the way standings use them) and, for head-to-head, directly.

The five-player event (tests/tournaments/test_standings.py):
R1 Ann beats Bob, Cat beats Dan, Eve bye; R2 Eve beats Ann, Cat beats Bob, Dan bye;
R3 Eve and Cat draw, Ann beats Dan, Bob bye.
Match points: Ann 6, Bob 3, Cat 7, Dan 3, Eve 7. A bye adds no opponent.
"""

import hashlib
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.test_standings import ANN, BOB, CAT, DAN, EVE, five_player_event
from tests.tournaments.test_standings_properties import tournaments
from tournaments.standings import (
    MatchRecord,
    PlayerEntry,
    compute_standings,
    tiebreaker_names,
    tiebreaker_order_errors,
    usable_tiebreakers,
)
from tournaments.tiebreakers import REGISTRY, TiebreakInput, head_to_head

F = Fraction


def values(name, seed=""):
    standings = compute_standings(
        *five_player_event(), tiebreakers=["match_points", name], seed=seed
    )
    return {row.player_id: row.tiebreak_values[name] for row in standings}


def test_buchholz_sums_the_opponents_match_points():
    # Ann met Bob 3, Eve 7, Dan 3; Bob met Ann 6, Cat 7; Cat met Dan 3, Bob 3, Eve 7;
    # Dan met Cat 7, Ann 6; Eve met Ann 6, Cat 7.
    assert values("buchholz") == {ANN: 13, BOB: 13, CAT: 13, DAN: 13, EVE: 13}


def test_median_buchholz_drops_the_best_and_the_worst_opponent():
    # Ann [3, 3, 7] -> 3; Cat [3, 3, 7] -> 3; two opponents leave nothing.
    assert values("median_buchholz") == {ANN: 3, BOB: 0, CAT: 3, DAN: 0, EVE: 0}


def test_cut_one_buchholz_drops_the_worst_opponent():
    # Ann [3, 3, 7] -> 10; Bob [6, 7] -> 7; Cat 10; Dan [6, 7] -> 7; Eve [6, 7] -> 7.
    assert values("cut1_buchholz") == {ANN: 10, BOB: 7, CAT: 10, DAN: 7, EVE: 7}


def test_sonneborn_berger_counts_beaten_opponents_and_half_of_drawn_ones():
    # Ann beat Bob (3) and Dan (3), lost to Eve: 6. Cat beat Dan (3) and Bob (3), drew
    # Eve (7 / 2): 19/2. Eve beat Ann (6), drew Cat (7 / 2): 19/2. Bob, Dan won no match.
    assert values("sonneborn_berger") == {ANN: 6, BOB: 0, CAT: F(19, 2), DAN: 0, EVE: F(19, 2)}


def test_cumulative_score_adds_the_running_totals():
    # Ann W L W: 3 + 3 + 6 = 12. Bob L L bye: 0 + 0 + 3 = 3. Cat W W D: 3 + 6 + 7 = 16.
    # Dan L bye L: 0 + 3 + 3 = 6. Eve bye W D: 3 + 6 + 7 = 16.
    assert values("cumulative_score") == {ANN: 12, BOB: 3, CAT: 16, DAN: 6, EVE: 16}


def test_cumulative_score_follows_round_order_not_record_order():
    players = [PlayerEntry(1, "A"), PlayerEntry(2, "B")]
    # Given round 2 first: A loses round 2 after winning round 1: 3 + 3 = 6, B 0 + 3 = 3.
    matches = [MatchRecord(2, 1, 2, 0, 2), MatchRecord(1, 1, 2, 2, 0)]
    standings = compute_standings(players, matches, tiebreakers=["cumulative_score"])
    assert {r.player_id: r.tiebreak_values["cumulative_score"] for r in standings} == {1: 6, 2: 3}
    assert standings.ranked_player_ids() == [1, 2]


def test_opponents_opponents_match_win_averages_the_opponents_omw():
    # MWP: Ann 6/9, Bob 3/9, Cat 7/9, Dan 3/9, Eve 7/9 (floor 1/3 not reached).
    # OMW: Ann (3+7+3)/27 = 13/27; Bob (6+7)/18 = 13/18; Cat (3+3+7)/27 = 13/27;
    #      Dan (7+6)/18 = 13/18; Eve (6+7)/18 = 13/18.
    # OOMW: Ann (Bob, Eve, Dan) 13/18; Bob (Ann, Cat) 13/27; Cat (Dan, Bob, Eve) 13/18;
    #       Dan (Cat, Ann) 13/27; Eve (Ann, Cat) 13/27.
    assert values("opponents_opponents_match_win") == {
        ANN: F(13, 18),
        BOB: F(13, 27),
        CAT: F(13, 18),
        DAN: F(13, 27),
        EVE: F(13, 27),
    }


def test_oomw_of_a_player_without_opponents_is_the_floor():
    standings = compute_standings(
        [PlayerEntry(1, "A")],
        [MatchRecord.bye(1, 1)],
        tiebreakers=["opponents_opponents_match_win"],
    )
    assert standings.row(1).tiebreak_values["opponents_opponents_match_win"] == F(1, 3)


def test_a_system_reorders_players_level_on_points():
    # Cat and Eve 7: equal SB (19/2) and cumulative (16): a shared first rank, by id.
    # Bob and Dan 3: cumulative Dan 6 > Bob 3.
    standings = compute_standings(
        *five_player_event(), tiebreakers=["match_points", "sonneborn_berger", "cumulative_score"]
    )
    assert [(r.rank, r.player_id) for r in standings] == [
        (1, CAT),
        (1, EVE),
        (3, ANN),
        (4, DAN),
        (5, BOB),
    ]
    # Median Buchholz separates Cat (3) from Eve (0).
    standings = compute_standings(
        *five_player_event(), tiebreakers=["match_points", "median_buchholz"]
    )
    assert [(r.rank, r.player_id) for r in standings][:2] == [(1, CAT), (2, EVE)]


def six_player_event():
    """1, 2 and 3 all met; 4 and 6 met. Final points: 5 has 7; 1, 2, 3 have 4; 4, 6 have 3.

    R1: 1 beats 2, 3 beats 4, 5 beats 6.
    R2: 1 and 3 draw, 2 and 5 draw, 4 beats 6.
    R3: 2 beats 3, 6 beats 1, 5 beats 4.
    Among 1, 2, 3: 1 earned 3 (v 2) + 1 (v 3) = 4; 2 earned 0 + 3 = 3; 3 earned 1 + 0 = 1.
    """
    players = [PlayerEntry(i, f"P{i}") for i in range(1, 7)]
    matches = [
        MatchRecord(1, 1, 2, 2, 0),
        MatchRecord(1, 3, 4, 2, 0),
        MatchRecord(1, 5, 6, 2, 0),
        MatchRecord(2, 1, 3, 1, 1),
        MatchRecord(2, 2, 5, 1, 1),
        MatchRecord(2, 4, 6, 2, 1),
        MatchRecord(3, 2, 3, 2, 1),
        MatchRecord(3, 6, 1, 2, 0),
        MatchRecord(3, 5, 4, 2, 0),
    ]
    return players, matches


def test_head_to_head_splits_a_group_whose_players_all_met():
    standings = compute_standings(*six_player_event(), tiebreakers=["match_points", "head_to_head"])
    assert [row.match_points for row in standings] == [7, 4, 4, 4, 3, 3]
    assert [(r.rank, r.player_id) for r in standings] == [
        (1, 5),
        (2, 1),
        (3, 2),
        (4, 3),
        (5, 4),
        (6, 6),
    ]
    assert {r.player_id: r.tiebreak_values["head_to_head"] for r in standings} == {
        5: 0,  # alone on 7 points
        1: 4,
        2: 3,
        3: 1,
        4: 3,  # 4 beat 6
        6: 0,
    }


def test_head_to_head_does_nothing_unless_every_tied_player_met_every_other():
    # Bob and Dan (3 points) never met: 0 each, they stay level. Cat and Eve drew: 1 each.
    standings = compute_standings(
        *five_player_event(), tiebreakers=["match_points", "head_to_head"]
    )
    assert [(r.rank, r.player_id, r.tiebreak_values["head_to_head"]) for r in standings] == [
        (1, CAT, 1),
        (1, EVE, 1),
        (3, ANN, 0),
        (4, BOB, 0),
        (4, DAN, 0),
    ]


def test_head_to_head_of_three_where_only_two_met_is_zero_for_all():
    # Positions 0 and 1 met (0 won); 2 met neither.
    data = TiebreakInput(
        player_ids=[10, 11, 12],
        match_points=[3, 0, 3],
        opponents=[[1], [0], []],
        opponent_points=[[3], [0], []],
        rounds=[[(1, 3)], [(1, 0)], [(1, 3)]],
        opponents_match_win=[F(1, 3)] * 3,
        floor=F(1, 3),
        seed="",
    )
    assert head_to_head(data, [0, 1, 2]) == [0, 0, 0]
    assert head_to_head(data, [0, 1]) == [3, 0]


def test_head_to_head_first_in_the_order_treats_everyone_as_tied():
    # First tiebreaker: the whole field is one group, and not everyone met: no effect,
    # so the next tiebreaker decides.
    standings = compute_standings(
        *five_player_event(), tiebreakers=["head_to_head", "match_points"]
    )
    assert standings.ranked_player_ids()[:2] == [CAT, EVE]


def expected_draw(seed, player_id):
    digest = hashlib.sha256(f"{seed}:{player_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def test_the_random_tiebreak_is_reproducible_from_the_seed():
    drawn = values("random", seed="event-7")
    assert drawn == {pid: expected_draw("event-7", pid) for pid in (ANN, BOB, CAT, DAN, EVE)}
    assert values("random", seed="event-7") == drawn
    assert values("random", seed="event-8") != drawn


def test_the_random_tiebreak_last_leaves_no_shared_rank():
    order = ["match_points", "random"]
    standings = compute_standings(*five_player_event(), tiebreakers=order, seed="s")
    assert [r.rank for r in standings] == [1, 2, 3, 4, 5]
    cat, eve = expected_draw("s", CAT), expected_draw("s", EVE)
    assert standings.ranked_player_ids()[:2] == ([CAT, EVE] if cat > eve else [EVE, CAT])
    bob, dan = expected_draw("s", BOB), expected_draw("s", DAN)
    assert standings.ranked_player_ids()[3:] == ([BOB, DAN] if bob > dan else [DAN, BOB])


def test_rows_carry_only_the_chosen_figures():
    standings = compute_standings(*five_player_event())
    assert all(row.tiebreak_values == {} for row in standings)
    assert standings.other_tiebreakers == ()
    order = ["match_points", "cumulative_score", "opponents_match_win", "buchholz"]
    standings = compute_standings(*five_player_event(), tiebreakers=order)
    assert standings.other_tiebreakers == ("cumulative_score", "buchholz")
    assert list(standings.row(ANN).tiebreak_values) == ["cumulative_score", "buchholz"]


def test_every_registered_system_is_a_valid_name_with_a_label_and_a_formula():
    for name, system in REGISTRY.items():
        assert system.name == name and system.label and system.description
        assert (system.per_player is None) != (system.per_group is None)
        assert name in tiebreaker_names()
        assert tiebreaker_order_errors(["match_points", name]) == []
        assert usable_tiebreakers(["match_points", name]) == ("match_points", name)
    # Every system is documented with its formula.
    text = (Path(__file__).resolve().parents[2] / "docs" / "standings.md").read_text()
    for name in REGISTRY:
        assert f"`{name}`" in text, name


@pytest.mark.parametrize(
    "order,wrong",
    [(["match_points", "luck"], "Unknown tiebreaker 'luck'"), (["buchholz", "buchholz"], "twice")],
)
def test_bad_orders_name_the_valid_choices(order, wrong):
    (message,) = tiebreaker_order_errors(order)
    assert wrong in message
    for name in tiebreaker_names():
        assert name in message


def test_the_explanation_lists_the_chosen_figures():
    order = ["match_points", "buchholz", "sonneborn_berger"]
    lines = compute_standings(*five_player_event(), tiebreakers=order).explain(CAT).lines()
    assert "Buchholz: 13" in lines and "Sonneborn-Berger: 19/2" in lines
    lines = compute_standings(*five_player_event()).explain(CAT).lines()
    assert not any(line.startswith(("Buchholz", "Sonneborn")) for line in lines)


# --- against a plain reference on random tournaments -----------------------------------


def reference_points(record):
    """Match points of A and B (B None without opponent), straight from the rules."""
    a_wins = record.games_won_a > record.games_won_b
    level = record.games_won_a == record.games_won_b
    if record.player_b is None:
        return (0 if record.match_loss_a else 3 if a_wins else 1 if level else 0), None
    if record.match_loss_a or record.match_loss_b:
        return (0 if record.match_loss_a else 3), (0 if record.match_loss_b else 3)
    if level:
        return 1, 1
    return (3, 0) if a_wins else (0, 3)


def reference_values(players, records, floor, seed):
    ids = [p.player_id for p in players]
    points = dict.fromkeys(ids, 0)
    rounds = dict.fromkeys(ids, 0)
    met = {pid: [] for pid in ids}  # (opponent, points earned against them)
    by_round = {pid: [] for pid in ids}
    for r in records:
        points_a, points_b = reference_points(r)
        points[r.player_a] += points_a
        rounds[r.player_a] += 1
        by_round[r.player_a].append((r.round_number, points_a))
        if r.player_b is not None:
            points[r.player_b] += points_b
            rounds[r.player_b] += 1
            by_round[r.player_b].append((r.round_number, points_b))
            met[r.player_a].append((r.player_b, points_a))
            met[r.player_b].append((r.player_a, points_b))

    def mwp(pid):
        return max(Fraction(points[pid], 3 * rounds[pid]), floor) if rounds[pid] else floor

    def mean(values):
        return sum(values, Fraction(0)) / len(values) if values else floor

    omw = {pid: mean([mwp(o) for o, _ in met[pid]]) for pid in ids}
    values = {}
    for pid in ids:
        scores = sorted(points[o] for o, _ in met[pid])
        running, cumulative = 0, 0
        for _, earned in sorted(by_round[pid]):
            running += earned
            cumulative += running
        values[pid] = {
            "buchholz": sum(scores),
            "median_buchholz": sum(scores[1:-1]) if len(scores) > 2 else 0,
            "cut1_buchholz": sum(scores[1:]) if len(scores) > 1 else 0,
            "sonneborn_berger": sum(
                (points[o] * {3: Fraction(1), 1: Fraction(1, 2), 0: 0}[e] for o, e in met[pid]),
                Fraction(0),
            ),
            "cumulative_score": cumulative,
            "opponents_opponents_match_win": mean([omw[o] for o, _ in met[pid]]),
            "random": expected_draw(seed, pid),
        }
    return points, met, values


def reference_order(ids, points, met, values, order):
    """Rank by the order one tiebreaker at a time; head-to-head within each level group."""
    keys = {pid: () for pid in ids}
    for name in order:
        if name == "match_points":
            column = dict(points)
        elif name != "head_to_head":
            column = {pid: values[pid][name] for pid in ids}
        else:
            column = dict.fromkeys(ids, 0)
            for key in set(keys.values()):
                group = [pid for pid in ids if keys[pid] == key]
                everyone_met = all({o for o, _ in met[pid]} >= set(group) - {pid} for pid in group)
                if len(group) > 1 and everyone_met:
                    for pid in group:
                        column[pid] = sum(e for o, e in met[pid] if o in group)
        keys = {pid: (*keys[pid], column[pid]) for pid in ids}
    ranked = sorted(ids, key=lambda pid: (tuple(-v for v in keys[pid]), pid))
    return [(pid, 1 + sum(1 for o in ids if keys[o] > keys[pid])) for pid in ranked], keys


OTHER_NAMES = ["match_points", *REGISTRY]


@settings(max_examples=300, deadline=None)
@given(tournaments(), st.permutations(OTHER_NAMES), st.integers(1, len(OTHER_NAMES)))
def test_the_systems_match_a_plain_reference(tournament, names, length):
    players, records, floor, _ = tournament
    order = names[:length]
    standings = compute_standings(players, records, floor=floor, tiebreakers=order, seed="h")
    ids = [p.player_id for p in players]
    points, met, values = reference_values(players, records, floor, "h")
    expected, keys = reference_order(ids, points, met, values, order)
    assert [(row.player_id, row.rank) for row in standings] == expected
    for row in standings:
        for name, value in row.tiebreak_values.items():
            if name == "head_to_head":
                assert value == keys[row.player_id][order.index(name)]
            else:
                assert value == values[row.player_id][name], (name, row.player_id)
