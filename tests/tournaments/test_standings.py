"""Hand-computed standings examples; the arithmetic is written next to each check.

MWP = match points / (3 x rounds played), GWP = game points / (3 x games played),
both floored; OMW and OGW are means of the opponents' floored MWP and GWP.
"""

from decimal import Decimal
from fractions import Fraction

import pytest

from tournaments.standings import (
    DEFAULT_TIEBREAKERS,
    MTR_FLOOR,
    MatchRecord,
    PlayerEntry,
    Tiebreaker,
    compute_standings,
    format_percentage,
)

F = Fraction
ANN, BOB, CAT, DAN, EVE = 1, 2, 3, 4, 5


def five_player_event():
    """Three rounds, five players, one bye per round.

    R1: Ann beats Bob 2-0, Cat beats Dan 2-1, Eve bye.
    R2: Eve beats Ann 2-1, Cat beats Bob 2-0, Dan bye.
    R3: Eve and Cat draw 1-1-1, Ann beats Dan 2-1, Bob bye.
    """
    players = [
        PlayerEntry(ANN, "Ann"),
        PlayerEntry(BOB, "Bob"),
        PlayerEntry(CAT, "Cat"),
        PlayerEntry(DAN, "Dan"),
        PlayerEntry(EVE, "Eve"),
    ]
    matches = [
        MatchRecord(1, ANN, BOB, 2, 0),
        MatchRecord(1, CAT, DAN, 2, 1),
        MatchRecord.bye(1, EVE),
        MatchRecord(2, ANN, EVE, 1, 2),
        MatchRecord(2, CAT, BOB, 2, 0),
        MatchRecord.bye(2, DAN),
        MatchRecord(3, EVE, CAT, 1, 1, 1),
        MatchRecord(3, ANN, DAN, 2, 1),
        MatchRecord.bye(3, BOB),
    ]
    return players, matches


def test_points_records_and_percentages():
    standings = compute_standings(*five_player_event())
    ann = standings.row(ANN)
    # W, L, W: 3 + 0 + 3 = 6 points over 3 rounds: 6/9.
    assert (ann.match_points, ann.record, ann.rounds_played) == (6, "2-1-0", 3)
    assert ann.match_win == F(2, 3)
    # Games 2-0, 1-2, 2-1: won 5, lost 3; 5 x 3 = 15 game points of 3 x 8 = 24.
    assert (ann.games_won, ann.games_lost, ann.games_drawn, ann.game_points) == (5, 3, 0, 15)
    assert ann.game_win == F(15, 24)
    cat = standings.row(CAT)
    # W, W, D: 3 + 3 + 1 = 7 of 9. Games 2-1, 2-0, 1-1-1: 5 won (15) + 1 drawn (1) = 16 of 24.
    assert (cat.match_points, cat.record) == (7, "2-0-1")
    assert cat.match_win == F(7, 9)
    assert cat.game_win == F(16, 24)


def test_bye_is_a_two_nil_win_that_counts_as_a_round_and_adds_no_opponent():
    standings = compute_standings(*five_player_event())
    bob = standings.row(BOB)
    # L 0-2, L 0-2, bye: 3 points over 3 rounds (the bye round counts) = 1/3.
    assert (bob.match_points, bob.record, bob.byes, bob.rounds_played) == (3, "1-2-0", 1, 3)
    assert bob.match_win == F(3, 9)
    # The bye adds games 2-0: won 2, lost 4 -> 6 game points of 18.
    assert (bob.games_won, bob.games_lost) == (2, 4)
    assert bob.game_win == F(6, 18)
    assert bob.opponent_ids == (ANN, CAT)


def test_opponents_match_win_breaks_a_points_tie():
    standings = compute_standings(*five_player_event())
    cat, eve = standings.row(CAT), standings.row(EVE)
    # Both 7 points, both GWP 16/24.
    assert cat.match_points == eve.match_points == 7
    assert cat.game_win == eve.game_win
    # Cat met Dan (3/9), Bob (3/9), Eve (7/9): 13/9 / 3 = 13/27.
    assert cat.opponents_match_win == F(13, 27)
    # Eve met Ann (6/9) and Cat (7/9); her bye adds nobody: 13/9 / 2 = 13/18.
    assert eve.opponents_match_win == F(13, 18)
    assert [row.player_id for row in standings.rows[:3]] == [EVE, CAT, ANN]
    assert [row.rank for row in standings.rows[:3]] == [1, 2, 3]


def test_game_win_breaks_a_tie_on_points_and_opponents_match_win():
    standings = compute_standings(*five_player_event())
    bob, dan = standings.row(BOB), standings.row(DAN)
    # Both 3 points. Bob met Ann (6/9) and Cat (7/9); Dan met Cat and Ann: both 13/18.
    assert bob.match_points == dan.match_points == 3
    assert bob.opponents_match_win == dan.opponents_match_win == F(13, 18)
    # Dan: games 1-2, bye 2-0, 1-2 -> 4 won of 8 -> 12/24 = 1/2 > Bob's 1/3.
    assert dan.game_win == F(1, 2)
    assert [row.player_id for row in standings.rows[3:]] == [DAN, BOB]
    assert [row.rank for row in standings.rows[3:]] == [4, 5]


def ogw_event():
    """Two rounds, six players, built so that only OGW separates A and B.

    R1: A beats C 2-0, B beats D 2-0, E beats F 2-0.
    R2: A and B draw intentionally 0-0-3, C beats E 2-0, D beats F 2-1.
    B has the lower id, so falling back to ids would put B first.
    """
    a, b, c, d, e, f = 20, 10, 30, 40, 50, 60
    players = [
        PlayerEntry(pid, name) for pid, name in zip((a, b, c, d, e, f), "ABCDEF", strict=True)
    ]
    matches = [
        MatchRecord(1, a, c, 2, 0),
        MatchRecord(1, b, d, 2, 0),
        MatchRecord(1, e, f, 2, 0),
        MatchRecord(2, a, b, 0, 0, 3),
        MatchRecord(2, c, e, 2, 0),
        MatchRecord(2, d, f, 2, 1),
    ]
    return players, matches


def test_opponents_game_win_breaks_a_tie_on_points_omw_and_gwp():
    standings = compute_standings(*ogw_event())
    a, b = standings.row(20), standings.row(10)
    # A and B: win 2-0 + intentional draw 0-0-3: 4 points of 6 = 2/3;
    # games 2 won + 3 drawn: 6 + 3 = 9 game points of 3 x 5 = 15 -> 3/5.
    assert a.match_win == b.match_win == F(2, 3)
    assert a.game_win == b.game_win == F(3, 5)
    # C: L 0-2, W 2-0 = 1/2; D: L 0-2, W 2-1 = 1/2.
    # OMW A = (C 1/2 + B 2/3) / 2 = 7/12; OMW B = (D 1/2 + A 2/3) / 2 = 7/12.
    assert a.opponents_match_win == b.opponents_match_win == F(7, 12)
    # GWP C = 2 won of 4 games = 6/12 = 1/2; GWP D = 2 won of 5 = 6/15 = 2/5.
    assert standings.row(30).game_win == F(1, 2)
    assert standings.row(40).game_win == F(2, 5)
    # OGW A = (1/2 + 3/5) / 2 = 11/20; OGW B = (2/5 + 3/5) / 2 = 1/2.
    assert a.opponents_game_win == F(11, 20)
    assert b.opponents_game_win == F(1, 2)
    assert standings.ranked_player_ids()[:2] == [20, 10]
    assert (standings.rows[0].rank, standings.rows[1].rank) == (1, 2)


def test_below_floor_percentages_are_raised_before_averaging():
    standings = compute_standings(*ogw_event())
    # F lost both: 0/6 -> 1/3. E: W, L = 1/2. D met B (2/3) and F (1/3): OMW = 1/2.
    assert standings.row(60).match_win == F(1, 3)
    assert standings.row(40).opponents_match_win == F(1, 2)
    # F: games 0-2, 1-2 -> 3 game points of 15 = 1/5, raised to 1/3.
    assert standings.row(60).game_win == F(1, 3)
    # The 3-point group: C met A (2/3), E (1/2) -> 7/12; D 1/2; E met F (1/3), C (1/2) -> 5/12.
    assert [row.player_id for row in standings.rows[2:5]] == [30, 40, 50]


def floor_event():
    """One round: W beats Z 2-0, X beats Y 2-1. X has a lower id than W."""
    w, x, y, z = 7, 3, 4, 9
    players = [PlayerEntry(w, "W"), PlayerEntry(x, "X"), PlayerEntry(y, "Y"), PlayerEntry(z, "Z")]
    matches = [MatchRecord(1, w, z, 2, 0), MatchRecord(1, x, y, 2, 1)]
    return players, matches


def test_floor_of_one_third():
    standings = compute_standings(*floor_event())
    # Z: 0 points -> 1/3; games 0 of 6 -> 1/3. Y: 0 points -> 1/3; games 1 won of 3 = 3/9 = 1/3.
    assert standings.row(9).match_win == F(1, 3)
    assert standings.row(9).game_win == F(1, 3)
    assert standings.row(4).game_win == F(1, 3)
    # W's OGW = Z's floored GWP = 1/3; X's OGW = Y's GWP = 1/3.
    assert standings.row(7).opponents_game_win == F(1, 3)
    assert standings.row(3).opponents_game_win == F(1, 3)


def test_floor_of_point_three_three():
    for floor in (MTR_FLOOR, F(33, 100), Decimal("0.33"), "0.33"):
        standings = compute_standings(*floor_event(), floor=floor)
        assert standings.floor == F(33, 100)
        # Z: 0/3 and 0/6 are raised to 33/100 only.
        assert standings.row(9).match_win == F(33, 100)
        assert standings.row(9).game_win == F(33, 100)
        # Y's GWP 3/9 = 1/3 is above 0.33, so it stays 1/3.
        assert standings.row(4).game_win == F(1, 3)
        assert standings.row(7).opponents_match_win == F(33, 100)
        assert standings.row(7).opponents_game_win == F(33, 100)
        assert standings.row(3).opponents_game_win == F(1, 3)


def test_floor_choice_can_change_the_order():
    order = (Tiebreaker.MATCH_POINTS, Tiebreaker.OPPONENTS_GAME_WIN)
    # Floor 1/3: W and X are level on points and OGW (1/3 each): shared rank, id order.
    third = compute_standings(*floor_event(), tiebreakers=order)
    assert [(row.player_id, row.rank) for row in third.rows[:2]] == [(3, 1), (7, 1)]
    # Floor 0.33: W's OGW 33/100 < X's 1/3.
    mtr = compute_standings(*floor_event(), tiebreakers=order, floor=MTR_FLOOR)
    assert [(row.player_id, row.rank) for row in mtr.rows[:2]] == [(3, 1), (7, 2)]
    order = (Tiebreaker.MATCH_POINTS, Tiebreaker.GAME_WIN)
    # On GWP W (6/6) beats X (6/9) whatever the floor.
    assert compute_standings(*floor_event(), tiebreakers=order).ranked_player_ids()[:2] == [7, 3]


def test_zero_floor_keeps_raw_percentages():
    standings = compute_standings(*floor_event(), floor=0)
    assert standings.row(9).match_win == 0
    assert standings.row(9).game_win == 0


def test_tiebreaker_order_is_configurable():
    players, matches = five_player_event()
    assert compute_standings(players, matches).tiebreakers == DEFAULT_TIEBREAKERS
    # Points then GWP only: Cat and Eve (7 points, 16/24) stay tied and share
    # rank 1, listed by id; OMW no longer separates them.
    standings = compute_standings(players, matches, tiebreakers=["match_points", "game_win"])
    assert [(row.player_id, row.rank) for row in standings.rows] == [
        (CAT, 1),
        (EVE, 1),
        (ANN, 3),
        (DAN, 4),
        (BOB, 5),
    ]
    # GWP alone: Cat, Eve 2/3 > Ann 5/8 > Dan 1/2 > Bob 1/3.
    standings = compute_standings(players, matches, tiebreakers=[Tiebreaker.GAME_WIN])
    assert [(row.player_id, row.rank) for row in standings.rows] == [
        (CAT, 1),
        (EVE, 1),
        (ANN, 3),
        (DAN, 4),
        (BOB, 5),
    ]
    # OMW first: Eve, Bob and Dan 13/18 > Ann (Bob 1/3, Eve 7/9, Dan 1/3: 13/27)
    # = Cat 13/27; then points: Eve 7 > Bob 3 = Dan 3 -> GWP Dan over Bob; Cat 7 > Ann 6.
    standings = compute_standings(
        players,
        matches,
        tiebreakers=["opponents_match_win", "match_points", "game_win"],
    )
    assert standings.row(ANN).opponents_match_win == F(13, 27)
    assert standings.ranked_player_ids() == [EVE, DAN, BOB, CAT, ANN]
    # Own MWP as a tiebreaker: Cat and Eve 7/9, Ann 2/3, Bob and Dan 1/3.
    standings = compute_standings(players, matches, tiebreakers=["match_win"])
    assert [row.rank for row in standings.rows] == [1, 1, 3, 4, 4]


def test_complete_tie_shares_rank_and_lists_by_player_id():
    players = [PlayerEntry(8, "Hal"), PlayerEntry(2, "Ida"), PlayerEntry(5, "Jo")]
    # Hal and Ida draw 1-1; Jo loses a missed round, so sits below.
    matches = [MatchRecord(1, 8, 2, 1, 1), MatchRecord.missed_round_loss(1, 5)]
    standings = compute_standings(players, matches)
    assert [(row.player_id, row.rank) for row in standings.rows] == [(2, 1), (8, 1), (5, 3)]


def test_dropped_player_divides_by_rounds_played_and_stays_listed():
    players = [
        PlayerEntry(1, "Kim", dropped=True, rounds_played=1),
        PlayerEntry(2, "Lou"),
        PlayerEntry(3, "Max"),
        PlayerEntry(4, "Ned"),
    ]
    matches = [
        MatchRecord(1, 1, 2, 2, 0),  # Kim beats Lou, then drops
        MatchRecord(1, 3, 4, 2, 0),
        MatchRecord(2, 2, 3, 0, 2),
        MatchRecord.bye(2, 4),
        MatchRecord(3, 2, 4, 2, 0),
        MatchRecord.bye(3, 3),
    ]
    standings = compute_standings(players, matches)
    kim = standings.row(1)
    # Kim: 3 points over the 1 round played = 3/3, not 3/9.
    assert (kim.dropped, kim.rounds_played, kim.match_win) == (True, 1, F(1))
    # Lou met Kim (1), Max (W, W, bye: 9/9 = 1), Ned (L, bye, L: 3/9):
    # (1 + 1 + 1/3) / 3 = 7/9.
    assert standings.row(2).opponents_match_win == F(7, 9)
    assert len(standings) == 4
    assert 1 not in standings.ranked_player_ids()
    assert 1 in standings.ranked_player_ids(include_dropped=True)


def test_intentional_draws_with_and_without_games():
    players = [PlayerEntry(1, "Oz"), PlayerEntry(2, "Pia"), PlayerEntry(3, "Quinn")]
    matches = [
        MatchRecord(1, 1, 2, 0, 0, 3),  # recorded as three drawn games
        MatchRecord.bye(1, 3),
        MatchRecord(2, 1, 3, 0, 0, 0),  # match draw with no games
        MatchRecord.bye(2, 2),
    ]
    standings = compute_standings(players, matches)
    oz = standings.row(1)
    # Two draws: 1 + 1 = 2 points of 6 = 1/3.
    assert (oz.match_points, oz.record) == (2, "0-0-2")
    assert oz.match_win == F(1, 3)
    # Only the 0-0-3 adds games: 3 drawn -> 3 game points of 9 = 1/3.
    assert (oz.games_played, oz.game_points) == (3, 3)
    # Pia: 0-0-3 and a bye: (3 + 6) / (3 x 5) = 9/15; Quinn: bye + 0-0-0: 6/6.
    assert standings.row(2).game_win == F(9, 15)
    assert standings.row(3).game_win == F(1)


def test_no_games_and_no_opponents_give_the_floor():
    players = [PlayerEntry(1, "Ray"), PlayerEntry(2, "Sue"), PlayerEntry(3, "Tom")]
    matches = [MatchRecord(1, 1, 2, 0, 0, 0), MatchRecord.bye(1, 3)]
    standings = compute_standings(players, matches, floor=F(1, 4))
    # 0-0-0: no games, so GWP is the floor; a bye alone: no opponents.
    assert standings.row(1).game_win == F(1, 4)
    assert standings.row(3).opponents_match_win == F(1, 4)
    assert standings.row(3).opponents_game_win == F(1, 4)
    # Sue's OGW is Ray's GWP (the floor).
    assert standings.row(2).opponents_game_win == F(1, 4)
    nobody = compute_standings([PlayerEntry(9, "Uma")], [])
    assert nobody.row(9).match_win == nobody.row(9).game_win == F(1, 3)
    assert nobody.row(9).rounds_played == 0


def test_game_loss_penalty_is_a_game_for_the_opponent():
    players = [PlayerEntry(1, "Vic"), PlayerEntry(2, "Wes")]
    # Vic took a game loss for game 1 and won the next two: 2-1, recorded as such.
    standings = compute_standings(players, [MatchRecord(1, 1, 2, 2, 1)])
    assert standings.row(1).record == "1-0-0"
    assert (standings.row(2).games_won, standings.row(2).game_win) == (1, F(3, 9))


def test_match_loss_overrides_the_games_but_the_games_still_count():
    players = [PlayerEntry(1, "Xia"), PlayerEntry(2, "Yan"), PlayerEntry(3, "Zed")]
    # Xia won 2-0 on the table but took a match loss.
    matches = [MatchRecord(1, 1, 2, 2, 0, match_loss_a=True), MatchRecord.bye(1, 3)]
    standings = compute_standings(players, matches)
    xia, yan = standings.row(1), standings.row(2)
    assert (xia.match_points, xia.record) == (0, "0-1-0")
    assert (yan.match_points, yan.record) == (3, "1-0-0")
    assert (xia.game_win, yan.game_win) == (F(1), F(1, 3))


def test_both_players_can_take_a_match_loss():
    players = [PlayerEntry(1, "Ada"), PlayerEntry(2, "Ben")]
    matches = [MatchRecord(1, 1, 2, 1, 0, match_loss_a=True, match_loss_b=True)]
    standings = compute_standings(players, matches)
    assert [row.record for row in standings.rows] == ["0-1-0", "0-1-0"]
    assert [row.match_points for row in standings.rows] == [0, 0]


def test_missed_round_loss_counts_as_a_round_not_a_bye():
    players = [PlayerEntry(1, "Cy"), PlayerEntry(2, "Di"), PlayerEntry(3, "Ed")]
    # Cy entered late with a loss for round 1, then beat Di 2-1.
    matches = [
        MatchRecord.missed_round_loss(1, 1),
        MatchRecord(1, 2, 3, 2, 0),
        MatchRecord(2, 1, 2, 2, 1),
        MatchRecord.bye(2, 3),
    ]
    cy = compute_standings(players, matches).row(1)
    # 3 points of 6 = 1/2; games 0-2 (missed round) + 2-1: 6 game points of 15.
    assert (cy.record, cy.byes, cy.rounds_played, cy.opponent_ids) == ("1-1-0", 0, 2, (2,))
    assert cy.match_win == F(1, 2)
    assert cy.game_win == F(6, 15)


def test_explanation_shows_the_arithmetic():
    standings = compute_standings(*five_player_event())
    why = standings.explain(CAT)
    assert (why.match_win.earned, why.match_win.possible) == (7, 9)
    assert why.match_win.value == F(7, 9) and not why.match_win.floored
    assert (why.game_win.earned, why.game_win.possible) == (16, 24)
    assert [(line.round_number, line.opponent_id) for line in why.opponents] == [
        (1, DAN),
        (2, BOB),
        (3, EVE),
    ]
    assert [line.match_win for line in why.opponents] == [F(1, 3), F(1, 3), F(7, 9)]
    assert why.opponents_match_win_sum == F(13, 9)
    assert why.opponents_match_win == standings.row(CAT).opponents_match_win == F(13, 27)
    # OGW: Dan 1/2, Bob 1/3, Eve 2/3 -> 3/2 / 3 = 1/2.
    assert why.opponents_game_win_sum == F(3, 2)
    assert why.opponents_game_win == standings.row(CAT).opponents_game_win == F(1, 2)
    text = "\n".join(why.lines())
    assert "Match-win % = 7 / 9 = 77.78%" in text
    assert "Round 3 v Eve: MWP 77.78%, GWP 66.67%" in text
    assert "OMW = 13/9 / 3 = 48.15%" in text


def test_explanation_marks_floored_values():
    standings = compute_standings(*ogw_event())
    why_f = standings.explain(60)
    # F: 0 of 6 match points, raised to the floor.
    assert why_f.match_win.unfloored == 0 and why_f.match_win.floored
    assert "raised to the floor 33.33%" in "\n".join(why_f.lines())
    why_d = standings.explain(40)
    assert [line.match_win_floored for line in why_d.opponents] == [False, True]
    bye_only = compute_standings([PlayerEntry(1, "Al")], [MatchRecord.bye(1, 1)]).explain(1)
    assert bye_only.opponents == ()
    assert bye_only.opponents_match_win == F(1, 3)
    assert "No opponents" in bye_only.lines()[-1]


@pytest.mark.parametrize(
    ("value", "places", "text"),
    [
        (F(2, 3), 2, "66.67%"),
        (F(13, 27), 2, "48.15%"),
        (F(1, 8), 1, "12.5%"),
        (F(1, 800), 2, "0.13%"),  # 0.125 rounds half up
        (F(1), 0, "100%"),
        (F(1, 3), 0, "33%"),
    ],
)
def test_format_percentage(value, places, text):
    assert format_percentage(value, places) == text


@pytest.mark.parametrize(
    ("players", "matches", "message"),
    [
        ([PlayerEntry(1, "A"), PlayerEntry(1, "B")], [], "listed twice"),
        ([PlayerEntry(1, "A")], [MatchRecord(1, 1, 2, 2, 0)], "unknown player 2"),
        ([PlayerEntry(1, "A")], [MatchRecord(1, 3, None, 2, 0)], "unknown player 3"),
        ([PlayerEntry(1, "A")], [MatchRecord(1, 1, 1, 2, 0)], "paired with themselves"),
        ([PlayerEntry(1, "A")], [MatchRecord(1, 1, None, -1, 0)], "negative game count"),
        (
            [PlayerEntry(1, "A"), PlayerEntry(2, "B")],
            [MatchRecord(1, 1, 2, 2, 0), MatchRecord.bye(1, 2)],
            "two results in one round",
        ),
        (
            [PlayerEntry(1, "A", rounds_played=2)],
            [MatchRecord.bye(1, 1)],
            "rounds_played is 2 but the results hold 1",
        ),
        (
            [PlayerEntry(1, "A")],
            [MatchRecord(1, 1, None, 2, 0, match_loss_b=True)],
            "missing opponent",
        ),
    ],
)
def test_inconsistent_input_is_rejected(players, matches, message):
    with pytest.raises(ValueError, match=message):
        compute_standings(players, matches)


def test_bad_settings_are_rejected():
    players, matches = five_player_event()
    with pytest.raises(ValueError, match="unknown tiebreaker 'luck'"):
        compute_standings(players, matches, tiebreakers=["match_points", "luck"])
    with pytest.raises(ValueError, match="listed twice"):
        compute_standings(players, matches, tiebreakers=["game_win", Tiebreaker.GAME_WIN])
    with pytest.raises(ValueError, match="at least one"):
        compute_standings(players, matches, tiebreakers=[])
    with pytest.raises(TypeError, match="exact"):
        compute_standings(players, matches, floor=0.33)
    with pytest.raises(ValueError, match="between 0 and 1"):
        compute_standings(players, matches, floor=F(4, 3))


def test_unknown_player_row_raises_key_error():
    standings = compute_standings(*five_player_event())
    with pytest.raises(KeyError, match="not in these standings"):
        standings.row(99)
