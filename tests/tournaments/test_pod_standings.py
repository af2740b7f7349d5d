"""Pod standings (tournaments/pod_standings.py): points by placing as exact fractions,
placings validated, the tiebreakers in their documented order."""

from fractions import Fraction as F

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.pod_standings import (
    PlacingError,
    PodSeat,
    placing_errors,
    placing_points,
    pod_standings,
    table_points,
)


@pytest.mark.parametrize(
    ("placings", "points"),
    [
        ([1, 2, 3, 4], [3, 2, 1, 0]),
        ([1, 2, 3], [3, F(3, 2), 0]),
        ([2, 1], [0, 3]),
        ([1, 1, 3, 4], [F(5, 2), F(5, 2), 1, 0]),
        ([1, 2, 2, 2], [3, 1, 1, 1]),
        ([1, 1, 3], [F(9, 4), F(9, 4), 0]),
        ([1, 2, 2], [3, F(3, 4), F(3, 4)]),
        ([1, 1, 1, 1], [F(3, 2)] * 4),
        ([1, 1], [F(3, 2)] * 2),
    ],
)
def test_points_by_placing(placings, points):
    assert table_points(placings) == points


@given(st.integers(2, 8).flatmap(lambda n: st.lists(st.integers(1, n), min_size=n, max_size=n)))
def test_valid_placings_share_out_the_whole_table(placings):
    if placing_errors(placings):
        with pytest.raises(PlacingError):
            table_points(placings)
        return
    # Every table hands out the same total whatever the ties: 3 x s / 2.
    assert sum(table_points(placings)) == F(3 * len(placings), 2)


@pytest.mark.parametrize(
    ("placings", "message"),
    [
        ([1, 1, 2], "next place is 3"),
        ([1, 2, 2, 3], "next place is 4"),
        ([2, 2, 3], "next place is 1"),
        ([0, 1, 2], "from 1 to 3"),
        ([1, 2, 5], "from 1 to 3"),
        ([1], "at least two"),
        ([1, "2"], "whole number"),
    ],
)
def test_impossible_placings_are_explained(placings, message):
    errors = placing_errors(placings)
    assert errors and message in " ".join(errors)


def test_placing_points_checks_its_arguments():
    assert placing_points(4, 2, 2) == F(3, 2)
    with pytest.raises(PlacingError):
        placing_points(3, 3, 2)
    with pytest.raises(PlacingError):
        placing_points(1, 1)


def seats(round_number, table, placed):
    return [PodSeat(round_number, (round_number, table), pid, place) for pid, place in placed]


def test_standings_points_then_opponents_then_own_percentage():
    # Round 1: table A 1>2>3>4, table B 5>6>7 (three seats); 8 has the bye.
    played = seats(1, "A", [(1, 1), (2, 2), (3, 3), (4, 4)]) + seats(
        1, "B", [(5, 1), (6, 2), (7, 3)]
    )
    rows = pod_standings(range(1, 9), played, byes=[(1, 8)])
    by_id = {row.player_id: row for row in rows}
    assert by_id[1].points == 3 and by_id[5].points == 3 and by_id[8].points == 3
    assert by_id[6].points == F(3, 2) and by_id[2].points == 2
    # 1's opponents placed 2/3, 1/3, floor 1/3 -> average 4/9; 5's: 1/2 and floor 1/3 -> 5/12.
    assert by_id[1].opponents_placing == F(4, 9)
    assert by_id[5].opponents_placing == F(5, 12)
    # 8 played no table: floor percentage, no opponents, and ranks after both winners.
    assert by_id[8].tables == 0 and by_id[8].byes == 1 and by_id[8].placing == F(1, 3)
    assert [row.player_id for row in rows[:3]] == [1, 5, 8]
    assert [row.rank for row in rows[:3]] == [1, 2, 3]
    assert by_id[1].opponents_opponents_placing > 0


def test_equal_on_everything_share_a_rank_and_unfinished_tables_do_not_count():
    played = seats(1, "A", [(1, 1), (2, 1), (3, 3), (4, 3)]) + seats(2, "B", [(1, None), (3, 1)])
    rows = pod_standings([1, 2, 3, 4], played)
    assert [(row.player_id, row.rank) for row in rows] == [(1, 1), (2, 1), (3, 3), (4, 3)]
    assert rows[0].tables == 1 and rows[0].points == F(5, 2)


def test_unknown_players_are_refused():
    with pytest.raises(PlacingError):
        pod_standings([1, 2], seats(1, "A", [(1, 1), (9, 2)]))
    with pytest.raises(PlacingError):
        pod_standings([1, 2], [], byes=[(1, 9)])
