"""Final placings from hand-built brackets and Swiss rows (tournaments.placings).

Players are "p<Swiss rank>", so seed n is pn; each test writes out the expected
placings by hand.
"""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.pairing.topcut import ALLOWED_CUT_SIZES, advance_round, seed_bracket
from tournaments.placings import BracketLosers, Stage, final_placings
from tournaments.standings import StandingsRow

SHARED = BracketLosers.SHARED
SPLIT = BracketLosers.SWISS_ORDER


def swiss_rows(count, *, ranks=None, dropped=()):
    """Rows p1..p<count> in standings order; ``ranks`` overrides the rank of each row."""
    ranks = ranks or list(range(1, count + 1))
    zero = Fraction(0)
    return [
        StandingsRow(
            rank=ranks[i],
            player_id=f"p{i + 1}",
            name=f"Player {i + 1}",
            dropped=f"p{i + 1}" in dropped,
            match_points=0,
            wins=0,
            losses=0,
            draws=0,
            byes=0,
            rounds_played=0,
            games_won=0,
            games_lost=0,
            games_drawn=0,
            game_points=0,
            opponent_ids=(),
            match_win=zero,
            game_win=zero,
            opponents_match_win=zero,
            opponents_game_win=zero,
        )
        for i in range(count)
    ]


def played(size, *rounds_of_winners, players=None):
    bracket = seed_bracket(players or [f"p{n}" for n in range(1, size + 1)], size)
    for winners in rounds_of_winners:
        bracket = advance_round(bracket, winners)
    return bracket


def places(placings):
    return [(line.player_id, line.place) for line in placings]


def test_top_two_the_final_decides_first_and_second_then_swiss():
    bracket = played(2, ["p2"])
    for setting in (SHARED, SPLIT):
        placings = final_placings(swiss_rows(4), bracket, bracket_losers=setting)
        assert places(placings) == [("p2", 1), ("p1", 2), ("p3", 3), ("p4", 4)]
        assert [line.finish for line in placings] == ["Champion", "Final", "Swiss", "Swiss"]
        assert [line.seed for line in placings] == [2, 1, None, None]


# Top 4: semifinals 1 v 4 (4 wins) and 2 v 3 (2 wins); the final 2 v 4 (2 wins).
TOP_FOUR = (["p4", "p2"], ["p2"])


def test_top_four_semifinal_losers_share_third():
    placings = final_placings(swiss_rows(6), played(4, *TOP_FOUR), bracket_losers=SHARED)
    assert places(placings) == [
        ("p2", 1),
        ("p4", 2),
        ("p1", 3),
        ("p3", 3),
        ("p5", 5),
        ("p6", 6),
    ]
    finishes = [line.finish for line in placings[:4]]
    assert finishes == ["Champion", "Final", "Semifinals", "Semifinals"]


def test_top_four_semifinal_losers_split_by_swiss_order():
    placings = final_placings(swiss_rows(6), played(4, *TOP_FOUR), bracket_losers=SPLIT)
    assert places(placings) == [
        ("p2", 1),
        ("p4", 2),
        ("p1", 3),
        ("p3", 4),
        ("p5", 5),
        ("p6", 6),
    ]


# Top 8 with upsets: quarterfinals 1 v 8, 4 v 5, 2 v 7, 3 v 6 won by 8, 4, 7, 3;
# semifinals 8 v 4 (4 wins) and 7 v 3 (7 wins); the final 4 v 7 (7 wins).
TOP_EIGHT = (["p8", "p4", "p7", "p3"], ["p4", "p7"], ["p7"])


def test_top_eight_shared_places():
    placings = final_placings(swiss_rows(10), played(8, *TOP_EIGHT), bracket_losers=SHARED)
    assert places(placings) == [
        ("p7", 1),
        ("p4", 2),
        ("p3", 3),
        ("p8", 3),
        ("p1", 5),
        ("p2", 5),
        ("p5", 5),
        ("p6", 5),
        ("p9", 9),
        ("p10", 10),
    ]
    assert [line.finish for line in placings[4:8]] == ["Quarterfinals"] * 4


def test_top_eight_split_by_swiss_order():
    placings = final_placings(swiss_rows(10), played(8, *TOP_EIGHT), bracket_losers=SPLIT)
    assert places(placings) == [
        ("p7", 1),
        ("p4", 2),
        ("p3", 3),
        ("p8", 4),
        ("p1", 5),
        ("p2", 6),
        ("p5", 7),
        ("p6", 8),
        ("p9", 9),
        ("p10", 10),
    ]
    assert {line.stage for line in placings[:8]} == {Stage.TOP_CUT}
    assert {line.stage for line in placings[8:]} == {Stage.SWISS}


@pytest.mark.parametrize("setting", [SHARED, SPLIT])
def test_a_cut_larger_than_the_field_shrinks_so_the_bracket_has_no_byes(setting):
    # Six players for a top 8 play a top 4 (tournaments.pairing.topcut): every slot
    # of the bracket holds a player, and seeds 5 and 6 are placed by their Swiss order.
    bracket = seed_bracket([f"p{n}" for n in range(1, 7)], 8)
    assert bracket.size == 4
    assert all(m.player_a and m.player_b for m in bracket.rounds[0].matches)
    bracket = advance_round(advance_round(bracket, ["p1", "p3"]), ["p1"])
    placings = final_placings(swiss_rows(6), bracket, bracket_losers=setting)
    third_fourth = [("p2", 3), ("p4", 3)] if setting == SHARED else [("p2", 3), ("p4", 4)]
    assert places(placings) == [("p1", 1), ("p3", 2), *third_fourth, ("p5", 5), ("p6", 6)]


def test_without_a_top_cut_the_swiss_order_is_the_placing():
    placings = final_placings(swiss_rows(3), None)
    assert places(placings) == [("p1", 1), ("p2", 2), ("p3", 3)]


def test_players_tied_in_the_swiss_share_a_place_below_the_cut():
    rows = swiss_rows(6, ranks=[1, 2, 3, 4, 5, 5])
    placings = final_placings(rows, played(2, ["p1"]))
    assert places(placings)[2:] == [("p3", 3), ("p4", 4), ("p5", 5), ("p6", 5)]


def test_dropped_players_keep_their_swiss_place():
    rows = swiss_rows(5, dropped={"p3"})
    placings = final_placings(rows, played(2, ["p1"], players=["p1", "p2"]))
    assert places(placings) == [("p1", 1), ("p2", 2), ("p3", 3), ("p4", 4), ("p5", 5)]
    assert placings[2].dropped and placings[2].stage == Stage.SWISS


def test_disqualified_players_get_no_place_and_the_others_move_up():
    placings = final_placings(swiss_rows(6), played(2, ["p1"]), disqualified={"p4"})
    assert places(placings) == [
        ("p1", 1),
        ("p2", 2),
        ("p3", 3),
        ("p5", 4),
        ("p6", 5),
        ("p4", None),
    ]
    assert placings[-1].stage == Stage.DISQUALIFIED and placings[-1].finish == "Disqualified"


@pytest.mark.parametrize(
    "setting,expected",
    [
        (SHARED, [("p2", 1), ("p4", 2), ("p3", 3), ("p5", 4), ("p1", None)]),
        (SPLIT, [("p2", 1), ("p4", 2), ("p3", 3), ("p5", 4), ("p1", None)]),
    ],
)
def test_a_top_cut_player_disqualified_afterwards_leaves_the_placings(setting, expected):
    placings = final_placings(
        swiss_rows(5), played(4, *TOP_FOUR), bracket_losers=setting, disqualified={"p1"}
    )
    assert places(placings) == expected


def test_an_unfinished_bracket_has_no_placings():
    with pytest.raises(ValueError, match="finished top cut"):
        final_placings(swiss_rows(4), played(4, ["p1", "p2"]))


def test_a_seed_missing_from_the_standings_is_refused():
    bracket = played(2, ["p1"], players=["p1", "ghost"])
    with pytest.raises(ValueError, match="ghost"):
        final_placings(swiss_rows(3), bracket)


@given(
    size=st.sampled_from(ALLOWED_CUT_SIZES),
    below_cut=st.integers(min_value=0, max_value=6),
    choices=st.lists(st.booleans(), min_size=31, max_size=31),
)
def test_any_finished_bracket_places_everyone_once_and_agrees_with_the_bracket(
    size, below_cut, choices
):
    bracket = seed_bracket([f"p{n}" for n in range(1, size + 1)], size)
    picks = iter(choices)
    while not bracket.is_finished:
        current = bracket.current_round.matches
        bracket = advance_round(
            bracket, [m.player_a if next(picks) else m.player_b for m in current]
        )
    rows = swiss_rows(size + below_cut)
    shared = final_placings(rows, bracket, bracket_losers=SHARED)
    split = final_placings(rows, bracket, bracket_losers=SPLIT)
    for placings in (shared, split):
        assert sorted(line.player_id for line in placings) == sorted(r.player_id for r in rows)
        assert [line.place for line in placings] == sorted(line.place for line in placings)
        assert [line.player_id for line in placings[size:]] == [
            f"p{n}" for n in range(size + 1, size + below_cut + 1)
        ]
    # Shared places are the bracket's own (1, 2, 3, 3, 5, ...); split places are 1..N.
    assert {line.player_id: line.place for line in shared[:size]} == bracket.placements()
    assert [line.place for line in split] == list(range(1, size + below_cut + 1))
    # Splitting only reorders within a shared place, by seed.
    assert [line.player_id for line in split] == [line.player_id for line in shared]
    assert all(a.place <= b.place for a, b in zip(shared, split, strict=True))
