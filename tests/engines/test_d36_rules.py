"""36d6: every rule of the rulebook and every ruling of docs/rules-36d6.md (R1 ...)."""

from __future__ import annotations

import collections
import json
import random
import re
from pathlib import Path

import pytest

from games.engines import engine_for
from games.engines.d36 import WORDS
from games.engines.d36 import engine as E
from games.engines.d36.testing import move, scenario, sq, with_rolls


def play(state, seat, action):
    return E.apply(state, seat, action)


def event(events, kind):
    return next(e for e in events if e["type"] == kind)


# --- R1: the board and the start ---------------------------------------------------


def test_r1_every_square_holds_a_die_showing_1_and_seat_0_starts():
    s = E.new_game({"game_id": "g", "seats": 3}, "seed")
    assert engine_for("36d6") is not None and engine_for("36d6").new_game is E.new_game
    view = E.view(s, 0)
    assert [view["board"][r][c] for r in range(6) for c in range(6)] == list(range(36))
    assert {d["face"] for d in view["dice"]} == {1}
    assert E.to_act(s) == {0}
    # Every first move is an attack; only orthogonal steps: 2 * (2 * 6 * 5) moves.
    legal = E.legal_actions(s, 0)
    assert len(legal) == 120
    assert move(7, 2, 2) not in legal and move(7, 0, 1) in legal
    with pytest.raises(E.IllegalAction, match="never diagonally"):
        play(s, 0, move(7, 2, 2))
    with pytest.raises(E.IllegalAction, match="seat 0's go"):
        play(s, 1, move(7, 0, 1))


def test_a_move_to_an_empty_square_rolls_nothing_and_passes_the_turn():
    s = scenario(keep=[0, 35, 20])
    s, events = play(s, 0, move(0, 0, 1))
    assert s.rolls == [] and s.pos[0] == sq(0, 1) and s.actor == 1
    assert events[0] == {"type": "move", "die": 0, "from": [0, 0], "to": [0, 1]}


# --- R2: attacks -----------------------------------------------------------------------


def attack(rolls, attacker_face=1, defender_face=1, config=None):
    """Die 0 at (0,0) attacks die 1 at (0,1); die 35 stays out of the way."""
    s = scenario(config, keep=[0, 1, 35], faces={0: attacker_face, 1: defender_face})
    s, events = play(with_rolls(s, rolls), 0, move(0, 0, 1))
    return s, events


def test_the_higher_total_wins_and_the_attacker_takes_the_square_and_the_die():
    s, events = attack([5, 3], attacker_face=2, defender_face=3)  # 7 against 6
    assert event(events, "attack")["totals"] == [7, 6]
    assert s.pos[0] == sq(0, 1) and s.pos[1] == -1 and s.owner[1] == 0
    assert E.scores(s) == [3, 0]  # the captured die keeps the face it showed
    assert s.face[0] == 3  # the winner goes one face up


def test_the_defender_wins_a_higher_total_and_the_attacker_is_discarded():
    s, events = attack([2, 5], attacker_face=3, defender_face=1)  # 5 against 6
    assert event(events, "attack")["outcome"] == "lose"
    assert s.owner[0] == E.DISCARD and s.pos[1] == sq(0, 1)
    assert E.scores(s) == [0, 0]
    assert s.face[1] == 1  # R3: only the die you moved changes face when it wins


def test_equal_totals_are_a_standoff_and_the_attacker_returns():
    s, events = attack([3, 4], attacker_face=2, defender_face=1)
    assert event(events, "attack")["outcome"] == "standoff"
    assert s.pos[0] == sq(0, 0) and s.pos[1] == sq(0, 1)
    assert s.face[0] == 2 and s.face[1] == 1


def test_a_natural_6_wins_and_a_natural_1_loses_whatever_the_totals():
    s, events = attack([6, 5], attacker_face=1, defender_face=6)  # 7 against 11
    assert event(events, "attack")["outcome"] == "win"
    s, events = attack([1, 2], attacker_face=6, defender_face=1)  # 7 against 3
    assert event(events, "attack")["outcome"] == "lose"
    s, events = attack([2, 1], attacker_face=1, defender_face=6)  # defender's natural 1
    assert event(events, "attack")["outcome"] == "win"
    s, events = attack([5, 6], attacker_face=6, defender_face=1)  # defender's natural 6
    assert event(events, "attack")["outcome"] == "lose"
    s, events = attack([6, 1])
    assert event(events, "attack")["outcome"] == "win"


def test_two_sixes_are_a_standoff_and_two_ones_destroy_both_dice():
    s, events = attack([6, 6], attacker_face=5)
    assert event(events, "attack")["outcome"] == "standoff" and s.pos[0] == sq(0, 0)
    s, events = attack([1, 1])
    assert event(events, "attack")["outcome"] == "both"
    assert s.owner[0] == s.owner[1] == E.DISCARD and E.scores(s) == [0, 0]


# --- R3: faces ---------------------------------------------------------------------------


@pytest.mark.parametrize(("before", "after"), [(1, 2), (4, 5), (5, 6), (6, 1)])
def test_r3_a_winning_die_goes_one_face_up_and_a_6_turns_to_1(before, after):
    s, _ = attack([5, 2], attacker_face=before)
    assert s.face[0] == after


# --- R4, R5, R6: the extra go and the forbidden dice -------------------------------------


def test_r4_a_natural_6_gives_another_go_with_a_different_die():
    s, events = attack([6, 2])
    assert event(events, "extra_go")["not_piece"] == 0
    assert E.to_act(s) == {0} and s.turn == 1
    legal = E.legal_actions(s, 0)
    assert {"kind": "end_turn"} in legal and not any(a.get("die") == 0 for a in legal)
    with pytest.raises(E.IllegalAction, match=r"\[1.4\]"):
        play(s, 0, move(0, 0, 2))
    after, _ = play(s, 0, move(35, 5, 4))
    assert after.actor == 1 and after.prev_moved == 35
    declined, events = play(s, 0, {"kind": "end_turn"})
    assert declined.actor == 1 and declined.prev_moved == 0
    with pytest.raises(E.IllegalAction, match="Only an extra go"):
        play(declined, 1, {"kind": "end_turn"})


def test_r4_the_extra_go_follows_a_natural_6_even_in_a_standoff_and_chains():
    s, events = attack([6, 6])
    assert "extra_go" in [e["type"] for e in events]
    s = scenario(keep=[0, 1, 2, 3])
    s, _ = play(with_rolls(s, [6, 2]), 0, move(1, 0, 2))  # die 1 takes die 2
    s, _ = play(s, 0, move(0, 0, 1))  # the extra go: a step onto the empty square
    assert s.actor == 1 and s.prev_moved == 0
    s = scenario(keep=[0, 1, 2, 3, 4])
    s, _ = play(with_rolls(s, [6, 2]), 0, move(1, 0, 2))  # die 1 takes die 2
    s, _ = play(with_rolls(s, [6, 2]), 0, move(3, 0, 4))  # die 3 takes die 4: chain
    assert s.actor == 0 and s.extra and s.just_moved == 3
    assert any(a.get("die") == 1 for a in E.legal_actions(s, 0))  # only the last die is barred


def test_r5_you_cannot_move_the_die_the_previous_player_moved():
    s = scenario(keep=[0, 14, 35])
    s, _ = play(s, 0, move(14, 2, 3))
    assert not any(a.get("die") == 14 for a in E.legal_actions(s, 1))
    with pytest.raises(E.IllegalAction, match="same die as the player before you"):
        play(s, 1, move(14, 2, 2))
    s, _ = play(s, 1, move(0, 1, 0))
    assert any(a.get("die") == 14 for a in E.legal_actions(s, 0))  # only the last player's


def test_r6_after_an_extra_go_the_next_player_may_not_move_its_last_die():
    s = scenario(keep=[0, 1, 20, 35])
    s, _ = play(with_rolls(s, [6, 2]), 0, move(0, 0, 1))
    s, _ = play(s, 0, move(20, 3, 1))
    assert s.actor == 1
    barred = {a["die"] for a in E.legal_actions(s, 1)} ^ {0, 20, 35}
    assert barred == {20}
    # The die that earned the extra go is free again for the next player.
    assert any(a["die"] == 0 for a in E.legal_actions(s, 1))


def test_r6_the_extra_go_lapses_when_no_die_may_move():
    # Two dice left: die 0 earned the go, die 35 was the previous player's last move.
    s = scenario(keep=[0, 1, 35], prev_moved=35)
    s, events = play(with_rolls(s, [6, 2]), 0, move(0, 0, 1))
    assert event(events, "extra_go_lapsed")["reason"] == "no_legal_move"
    assert s.actor == 1


# --- R7: the end ---------------------------------------------------------------------------


def test_the_game_ends_when_one_die_is_left_and_the_piles_are_counted():
    s = scenario(keep=[0, 1], faces={0: 4, 1: 5}, piles={10: 1})
    s.face[10] = 3
    s, events = play(with_rolls(s, [6, 2]), 0, move(0, 0, 1))
    assert E.is_over(s) and E.result(s)["reason"] == "one_die_left"
    assert E.result(s)["scores"] == [5, 3] and E.placings(s) == [1, 2]
    assert E.result(s)["winner"] == 0
    assert event(events, "game_over")["seed"] == "scenario"


def test_both_last_dice_destroyed_end_the_game_too():
    s = scenario(keep=[0, 1])
    s, _ = play(with_rolls(s, [1, 1]), 0, move(0, 0, 1))
    assert E.result(s)["reason"] == "one_die_left" and E.placings(s) == [1, 1]


def quiet_turns(s, turns):
    """Play ``turns`` quiet moves, each seat stepping a die back and forth."""
    for _ in range(turns):
        assert not E.is_over(s)
        moves = [a for a in E.legal_actions(s, s.actor) if s.at[a["to"][0] * 6 + a["to"][1]] < 0]
        s, _ = play(s, s.actor, moves[0])
    return s


def test_r7_six_turns_without_an_attack_end_the_game_once_six_dice_or_fewer_are_left():
    six = scenario(keep=[0, 2, 4, 24, 26, 28])
    s = quiet_turns(six, 5)
    assert not E.is_over(s) and s.quiet == 5
    s = quiet_turns(s, 1)
    assert E.is_over(s) and E.result(s)["reason"] == "no_attacks"
    seven = scenario(keep=[0, 2, 4, 24, 26, 28, 34])
    s = quiet_turns(seven, 12)
    assert not E.is_over(s) and s.quiet == 0


def test_r7_an_attack_starts_the_count_again():
    s = scenario(keep=[0, 1, 4, 24, 26, 35])
    s.quiet = 5
    s, _ = play(with_rolls(s, [3, 3]), 0, move(0, 0, 1))
    assert not E.is_over(s) and s.quiet == 0


# --- Scoring and placings ----------------------------------------------------------------


def test_equal_totals_share_a_placing():
    s = scenario({"game_id": "g", "seats": 3}, keep=[0, 35], piles={5: 0, 6: 1, 7: 2})
    s.face[5], s.face[6], s.face[7] = 4, 4, 2
    s, _ = E.enable_sudden_death(s)
    assert E.result(s)["reason"] == "time_limit"
    assert E.placings(s) == [1, 1, 3] and E.result(s)["winners"] == [0, 1]
    assert E.result(s)["winner"] is None


# --- Variants ----------------------------------------------------------------------------


def test_r10_the_strongholds_are_the_four_centre_squares_and_add_1_in_defence():
    config = {"game_id": "g", "seats": 2, "variants": ["stronghold"]}
    view = E.view(E.new_game(config, "s"), 0)
    assert view["tiles"]["strongholds"] == [[2, 2], [2, 3], [3, 2], [3, 3]]
    s = scenario(config, keep=[13, 14, 35])  # die 14 sits on (2,2), a stronghold
    s, events = play(with_rolls(s, [3, 2]), 0, move(13, 2, 2))
    att = event(events, "attack")
    assert att["modifiers"] == [0, 1] and att["totals"] == [4, 4]
    assert att["outcome"] == "standoff"


def test_r10_defeating_a_die_on_a_stronghold_raises_the_winner_by_two():
    config = {"game_id": "g", "seats": 2, "variants": ["stronghold"]}
    for before, after in [(1, 3), (4, 6), (5, 1), (6, 2)]:
        s = scenario(config, keep=[13, 14, 35], faces={13: before})
        s, _ = play(with_rolls(s, [6, 2]), 0, move(13, 2, 2))
        assert s.face[13] == after


def test_r11_the_elemental_board_has_nine_squares_of_each_element_and_dice_match():
    config = {"game_id": "g", "seats": 2, "variants": ["elemental"]}
    view = E.view(E.new_game(config, "s"), 0)
    tiles = [t for row in view["tiles"]["elements"] for t in row]
    assert {t: tiles.count(t) for t in set(tiles)} == dict.fromkeys(E.ELEMENTS, 9)
    assert all(d["element"] == tiles[d["id"]] for d in view["dice"])
    assert view["tiles"]["elements"][0][:3] == ["fire"] * 3
    assert view["tiles"]["elements"][5][3:] == ["water"] * 3


def test_r12_the_element_modifier_table():
    table = {
        ("fire", "fire"): (1, 2),
        ("fire", "water"): (-1, -2),
        ("water", "water"): (1, 2),
        ("water", "fire"): (-1, -2),
        ("air", "air"): (1, 2),
        ("air", "earth"): (-1, -2),
        ("earth", "earth"): (1, 2),
        ("earth", "air"): (-1, -2),
    }
    for die in E.ELEMENTS:
        for square in E.ELEMENTS:
            want = table.get((die, square), (0, 0))
            got = E.element_modifiers(E.ELEMENTS.index(die), E.ELEMENTS.index(square))
            assert got == want, (die, square)


def test_r12_modifiers_apply_on_the_square_attacked():
    config = {"game_id": "g", "seats": 2, "variants": ["elemental"]}
    # Die 3 (an air die, from (0,3)) attacks die 2 (a fire die) on (0,2), a fire square.
    s = scenario(config, keep=[2, 3, 35])
    s, events = play(with_rolls(s, [4, 2]), 0, move(3, 0, 2))
    att = event(events, "attack")
    assert att["modifiers"] == [0, 2] and att["totals"] == [5, 5]
    # Die 2 (fire) attacks die 3 (air) on (0,3), an air square: air defends at +2.
    s = scenario(config, keep=[2, 3, 35])
    s, events = play(with_rolls(s, [4, 2]), 0, move(2, 0, 3))
    assert event(events, "attack")["modifiers"] == [0, 2]
    # A water die (from (5,5)) brought onto a fire square attacks a fire die: -1 / +2.
    s = scenario(config, keep=[1, 35], at={35: (0, 0)})
    s, events = play(with_rolls(s, [5, 2]), 0, move(35, 0, 1))
    assert event(events, "attack")["modifiers"] == [-1, 2]


def test_r13_the_team_game_alternates_seats_and_scores_team_piles():
    config = {"game_id": "g", "seats": 4, "variants": ["team"]}
    assert E.teams(config) == [0, 1, 0, 1]
    s = scenario(config, keep=[0, 35], piles={5: 0, 6: 1, 7: 2})
    s.face[5], s.face[6], s.face[7] = 2, 4, 3
    s, _ = E.enable_sudden_death(s)
    assert E.result(s)["team_scores"] == [5, 4]
    assert E.placings(s) == [1, 2, 1, 2] and E.result(s)["winners"] == [0, 2]
    s = scenario(config, keep=[0, 1, 35], actor=2)
    s, events = play(with_rolls(s, [5, 2]), 2, move(0, 0, 1))
    assert event(events, "captured")["team"] == 0


@pytest.mark.parametrize("seats", [2, 3, 5])
def test_r13_the_team_game_needs_an_even_number_of_at_least_four(seats):
    with pytest.raises(E.ConfigError, match="even number"):
        E.new_game({"game_id": "g", "seats": seats, "variants": ["team"]}, "s")


def test_configs_are_checked():
    for bad, message in [
        ({"seats": 1}, "'seats'"),
        ({"seats": 9}, "'seats'"),
        ({"variants": ["chess"]}, "Unknown variants"),
        ({"variants": ["team", "team"], "seats": 4}, "twice"),
        ({"colour": "red"}, "Unknown config keys"),
    ]:
        with pytest.raises(E.ConfigError, match=message):
            E.new_game({"game_id": "g", **bad}, "s")


# --- R14: forfeits, time limit, views -----------------------------------------------------


def test_r14_a_forfeit_puts_one_seat_out_and_the_others_play_on():
    s = E.new_game({"game_id": "g", "seats": 3}, "s")
    s, events = E.apply(s, E.SYSTEM, {"kind": "forfeit", "player": 0})
    assert not E.is_over(s) and E.to_act(s) == {1}
    s, _ = play(with_rolls(s, [3, 3]), 1, move(0, 0, 1))
    assert E.to_act(s) == {2}
    s, _ = play(with_rolls(s, [3, 3]), 2, move(2, 0, 1))
    assert E.to_act(s) == {1}  # seat 0 is skipped
    s, _ = E.apply(s, E.SYSTEM, {"kind": "forfeit", "player": 2})
    assert E.is_over(s) and E.result(s)["reason"] == "forfeit"
    assert E.placings(s) == [3, 1, 2]
    with pytest.raises(E.IllegalAction):
        E.apply(s, E.SYSTEM, {"kind": "forfeit", "player": 1})


def test_r14_in_the_team_game_a_forfeit_puts_the_whole_team_out():
    s = E.new_game({"game_id": "g", "seats": 4, "variants": ["team"]}, "s")
    s, _ = E.apply(s, E.SYSTEM, {"kind": "forfeit", "player": 3})
    assert E.is_over(s) and E.placings(s) == [1, 2, 1, 2]


def test_views_show_everything_but_the_seed_until_the_end():
    s = E.new_game({"game_id": "g", "seats": 2}, "secret-seed")
    s, _ = play(s, 0, move(0, 0, 1))
    for viewer in (0, 1, "spectator"):
        view = E.view(s, viewer)
        assert view["seed"] is None and view["rolls"] == s.rolls and len(view["log"]) == 1
    assert E.view(s, "judge")["seed"] == "secret-seed"
    with pytest.raises(ValueError):
        E.view(s, 2)


def test_the_default_action_steps_onto_an_empty_square_and_gives_up_an_extra_go():
    s = scenario(keep=[0, 1, 2, 35])
    assert E.default_action(s, 0) == move(0, 1, 0)
    s, _ = attack([6, 2])
    assert E.default_action(s, 0) == {"kind": "end_turn"}
    full = E.new_game({"game_id": "g", "seats": 2}, "s")
    assert E.default_action(full, 0) in E.legal_actions(full, 0)


# --- R15-R17: Zombie dice on the 7x7 board -------------------------------------------------

ZOMBIE = {"game_id": "z", "seats": 2, "variants": ["zombie"]}


def zmove(fr, to):
    return {"kind": "zombie", "from": list(fr), "to": list(to)}


def test_r16_the_zombie_board_grey_squares_corners_and_centre():
    view = E.view(E.new_game(ZOMBIE, "s"), 0)
    assert view["size"] == 7
    zombies = [(r, c) for r in range(7) for c in range(7) if view["zombies"][r][c]]
    assert zombies == [(0, 0), (0, 6), (6, 0), (6, 6)]
    dice = {(r, c) for r in range(7) for c in range(7) if view["board"][r][c] is not None}
    centre = {(r, c) for r in range(2, 5) for c in range(2, 5)}
    assert len(dice) == 36 and not dice & centre and not dice & set(zombies)
    assert view["board"][0][1] == 0 and view["board"][6][5] == 35
    assert view["tiles"]["strongholds"] == [[3, 3]]
    with pytest.raises(E.ConfigError, match="does not combine"):
        E.new_game({**ZOMBIE, "variants": ["zombie", "elemental"]}, "s")


def test_r15_a_zombie_steps_onto_empty_squares_but_never_onto_a_zombie():
    s = scenario(ZOMBIE, keep=[20, 35], zombies={(3, 3): 1, (3, 4): 1})
    legal = E.legal_actions(s, 0)
    assert zmove((3, 3), (2, 3)) in legal and zmove((3, 3), (3, 4)) not in legal
    with pytest.raises(E.IllegalAction, match="already has a zombie"):
        play(s, 0, zmove((3, 3), (3, 4)))
    with pytest.raises(E.IllegalAction, match="no zombie"):
        play(s, 0, zmove((2, 2), (2, 3)))
    s, events = play(s, 0, zmove((3, 3), (2, 3)))
    assert s.rolls == [] and s.zombies[2 * 7 + 3] == 1 and s.zombies[3 * 7 + 3] == 0
    assert event(events, "zombie_moved")["to"] == [2, 3]


def test_r15_a_zombie_attacks_as_a_2_and_a_win_leaves_two_zombies():
    # Die 20 starts on (4, 0); the zombie comes from (3, 0).
    s = scenario(ZOMBIE, keep=[20, 35], faces={20: 3}, zombies={(3, 0): 1})
    after, events = play(with_rolls(s, [5, 4]), 0, zmove((3, 0), (4, 0)))  # 7 against 7
    assert event(events, "attack")["totals"] == [7, 7] and after.zombies[21] == 1
    after, events = play(with_rolls(s, [6, 4]), 0, zmove((3, 0), (4, 0)))
    assert event(events, "attack")["outcome"] == "win"
    assert after.owner[20] == E.DISCARD and E.scores(after) == [0, 0]
    assert after.zombies[4 * 7] == 2 and after.zombies[3 * 7] == 0
    after, events = play(with_rolls(s, [2, 5]), 0, zmove((3, 0), (4, 0)))
    assert event(events, "attack")["outcome"] == "lose"
    assert after.zombies[3 * 7] == 0 and after.pos[20] == 4 * 7  # the zombie is removed


def test_r17_a_die_beating_a_zombie_shares_its_square_and_captures_nothing():
    s = scenario(ZOMBIE, keep=[20, 35], faces={20: 3}, zombies={(3, 0): 1})
    after, events = play(with_rolls(s, [4, 2]), 0, move(20, 3, 0))  # 7 against 4
    assert event(events, "attack")["defender"] == "zombie"
    assert after.pos[20] == 3 * 7 and after.zombies[3 * 7] == 1
    assert after.face[20] == 4 and E.scores(after) == [0, 0]
    # Next turn the zombie may bite the die it shares its square with.
    after, _ = play(after, 1, move(35, 5, 5))
    bite = {"kind": "bite", "at": [3, 0]}
    assert bite in E.legal_actions(after, 0)
    bitten, events = play(with_rolls(after, [6, 3]), 0, bite)
    assert bitten.owner[20] == E.DISCARD and bitten.zombies[3 * 7] == 2
    # A die moving into a square holding a die and a zombie fights the die.
    s = scenario(ZOMBIE, keep=[20, 21, 35], at={21: (3, 0)}, zombies={(3, 0): 1})
    after, events = play(with_rolls(s, [5, 2]), 0, move(20, 3, 0))
    assert event(events, "attack")["defender"] == 21 and after.owner[21] == 0
    assert after.zombies[3 * 7] == 1 and after.pos[20] == 3 * 7


def test_r15_the_centre_stronghold_defends_against_zombies_too():
    s = scenario(ZOMBIE, keep=[20, 35], at={20: (3, 3)}, zombies={(3, 2): 1})
    _, events = play(with_rolls(s, [3, 2]), 0, zmove((3, 2), (3, 3)))
    assert event(events, "attack")["modifiers"] == [0, 1]


def test_r16_zombie_bars_are_by_square():
    s = scenario(ZOMBIE, keep=[20, 35], zombies={(3, 3): 1, (0, 0): 1})
    s, _ = play(s, 0, zmove((3, 3), (2, 3)))
    assert not any(a.get("from") == [2, 3] for a in E.legal_actions(s, 1))
    assert E.view(s, 1)["forbidden"]["previous_player"] == {"zombies": [2, 3]}
    with pytest.raises(E.IllegalAction, match="player before you"):
        play(s, 1, zmove((2, 3), (2, 2)))
    # After a zombie's natural 6, the extra go may not use the zombies of its square.
    s = scenario(ZOMBIE, keep=[20, 30, 35], faces={20: 1}, zombies={(3, 0): 1, (0, 0): 1})
    s, _ = play(with_rolls(s, [6, 2]), 0, zmove((3, 0), (4, 0)))
    assert s.extra and not any(a.get("from") == [4, 0] for a in E.legal_actions(s, 0))
    assert zmove((0, 0), (1, 0)) in E.legal_actions(s, 0)


def test_random_action_draws_every_legal_action_and_only_those():
    positions = [
        E.new_game({"game_id": "g", "seats": 2}, "s"),
        attack([6, 2])[0],  # an extra go: end_turn is one of the choices
        scenario(ZOMBIE, keep=[20, 21, 35], at={21: (3, 0)}, zombies={(3, 0): 1, (0, 0): 2}),
    ]
    rng = random.Random(3)
    for s in positions:
        legal = E.legal_actions(s, s.actor)
        counts = collections.Counter(
            json.dumps(E.random_action(s, s.actor, rng)) for _ in range(40 * len(legal))
        )
        assert set(counts) == {json.dumps(a) for a in legal}


def test_every_phase_decision_and_end_reason_has_words():
    s, _ = attack([6, 2])
    assert E.view(s, 0)["phase"] in WORDS["phases"]
    assert E.view(s, 0)["decision"]["kind"] in WORDS["decisions"]
    s, _ = E.enable_sudden_death(s)
    assert E.view(s, 0)["phase"] in WORDS["phases"]
    assert E.result(s)["reason"] in WORDS["end_reasons"]
    assert {"one_die_left", "no_attacks", "time_limit", "forfeit"} == set(WORDS["end_reasons"])


def test_the_docs_example_runs():
    text = (Path(__file__).resolve().parents[2] / "docs" / "engine.md").read_text()
    example = re.search(r"<!-- example-36d6 -->\n```python\n(.*?)```", text, re.S).group(1)
    namespace = {}
    exec(compile(example, "docs/engine.md", "exec"), namespace)
    assert sorted(namespace["placings"]) in ([1, 1, 2, 2], [1, 1, 1, 1])


# --- Bots with zombies (R15-R17) ----------------------------------------------------


def test_the_random_bot_draws_zombie_steps_and_bites_when_they_are_legal():
    s = scenario(ZOMBIE, keep=[20, 35], at={20: (3, 0)}, zombies={(3, 0): 1})
    bot = engine_for("36d6").BOTS["random"](seed=5)
    kinds = collections.Counter(bot.choose(s, 0)["kind"] for _ in range(300))
    # 6 die moves, 3 zombie steps and 1 bite are legal: each drawn about as often.
    assert kinds["zombie"] > 40 and kinds["bite"] > 10 and kinds["move"] > 100


def test_the_heuristic_bot_bites_with_a_zombie_rather_than_move_quietly():
    s = scenario(ZOMBIE, keep=[20, 35], at={20: (3, 0)}, faces={20: 6}, zombies={(3, 0): 1})
    bot = engine_for("36d6").BOTS["heuristic"](seed=1)
    assert bot.choose(s, 0) == {"kind": "bite", "at": [3, 0]}
    # The zombie one square away: it steps onto the die (an attack) instead.
    s = scenario(ZOMBIE, keep=[20, 35], at={20: (3, 0)}, faces={20: 6}, zombies={(2, 0): 1})
    assert bot.choose(s, 0) == {"kind": "zombie", "from": [2, 0], "to": [3, 0]}


def test_the_heuristic_bot_steps_a_zombie_rather_than_offer_a_high_die():
    s = scenario(ZOMBIE, keep=[20, 35], faces={20: 6, 35: 6}, zombies={(0, 0): 1})
    action = engine_for("36d6").BOTS["heuristic"](seed=1).choose(s, 0)
    assert action["kind"] == "zombie" and action["from"] == [0, 0]
    # A die showing 1 offers less than a zombie's step: that die moves.
    s.face[35] = 1
    action = engine_for("36d6").BOTS["heuristic"](seed=1).choose(s, 0)
    assert action["kind"] == "move" and action["die"] == 35


def test_both_bots_play_zombie_moves_in_whole_games_from_their_own_view():
    engine = engine_for("36d6")
    for name in ("random", "heuristic"):
        kinds = collections.Counter()
        for game in range(3):
            s = engine.new_game({"game_id": f"z{game}", "seats": 2, "variants": ["zombie"]}, "s")
            bots = [engine.BOTS[name](seed=game), engine.BOTS["random"](seed=99)]
            while not engine.is_over(s):
                seat = s.actor
                # The seed is the only hidden thing: changing it changes no choice.
                hidden = engine.alter_hidden(s, seat)
                mirror = engine.BOTS[name](seed=game)
                mirror.rng.setstate(bots[seat].rng.getstate())
                action = bots[seat].choose(s, seat)
                if seat == 0:
                    assert mirror.choose(hidden, seat) == action
                    kinds[action["kind"]] += 1
                assert action in engine.legal_actions(s, seat)
                s, _ = engine.apply(s, seat, action)
        assert kinds["zombie"] > 0, name
