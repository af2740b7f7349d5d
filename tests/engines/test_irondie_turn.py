"""Limits, the DAMAGE phase, END OF TURN, the end of the game and tournament rules."""

import pytest

from games.engines.irondie import engine as E
from games.engines.irondie.testing import config, die, scenario

CRUSHER, ASSAULT, SHOOTER, ANNULATOR, BARRIER, BOOSTER, ABSORBER, FORTRESS, REGEN = range(9)
P1 = 9
LIVES = {FORTRESS: 6, P1 + FORTRESS: 6}
PASS = {"kind": "pass"}


def throw(d, *targets):
    return {"kind": "throw", "die": d, "targets": list(targets)}


def finish_duel(state):
    events = []
    while state.phase == E.DUEL and not state.bonus_queue:
        (player,) = E.to_act(state)
        state, new = E.apply(state, player, PASS)
        events.extend(new)
    return state, events


# --- limits (Golden rule 1) ---------------------------------------------------------------


def test_values_never_exceed_six():
    s = scenario(battle={**LIVES, SHOOTER: 5}, rolls=[6])
    s, _ = finish_duel(E.apply(s, 0, throw(BOOSTER, SHOOTER))[0])
    assert s.value[SHOOTER] == 6


def test_attack_and_defense_dice_never_go_below_one():
    s = scenario(battle={**LIVES, P1 + BARRIER: 1, P1 + CRUSHER: 2}, rolls=[5, 6])
    s, _ = E.apply(s, 0, throw(SHOOTER, P1 + BARRIER))
    s, _ = finish_duel(s)
    assert s.zone[P1 + BARRIER] == E.BATTLE and s.value[P1 + BARRIER] == 1


def test_life_die_in_the_clash_zone_never_goes_below_one():
    # Player 0 throws its red fortress (a LIFE die) at player 1's attack dice; player 1's
    # shooter answers: 6 > 2, -2 on a LIFE die in the clash zone -> 1, not the abyss.
    s = scenario(battle={ABSORBER: 6, P1 + FORTRESS: 6, P1 + CRUSHER: 3}, rolls=[2, 6])
    s, _ = E.apply(s, 0, throw(FORTRESS, P1 + CRUSHER))
    s, events = E.apply(s, 1, throw(P1 + SHOOTER, FORTRESS))
    s, more = finish_duel(s)
    events += more
    assert {"type": "value", "die": FORTRESS, "value": 1} in events
    assert s.zone[FORTRESS] == E.STORAGE  # the duel ended normally: to storage, not abyss


def test_life_die_in_the_life_zone_at_zero_goes_to_the_abyss():
    s = scenario(battle={**LIVES, P1 + ABSORBER: 2}, rolls=[5])
    s, _ = finish_duel(E.apply(s, 0, throw(SHOOTER, P1 + ABSORBER))[0])
    assert s.zone[P1 + ABSORBER] == E.ABYSS


# --- DAMAGE -------------------------------------------------------------------------------


def test_damage_is_attack_minus_opponent_defense_and_the_victim_distributes_it():
    battle = {SHOOTER: 6, CRUSHER: 5, P1 + BARRIER: 3, P1 + FORTRESS: 6, P1 + ABSORBER: 5, 7: 2}
    s = scenario(battle=battle, phase=E.DAMAGE)
    assert s.damage == [0, 8]
    assert E.to_act(s) == {1}
    options = [tuple(map(tuple, a["amounts"])) for a in E.legal_actions(s, 1)]
    assert sorted(options) == [
        ((P1 + ABSORBER, 2), (P1 + FORTRESS, 6)),
        ((P1 + ABSORBER, 3), (P1 + FORTRESS, 5)),
        ((P1 + ABSORBER, 4), (P1 + FORTRESS, 4)),
        ((P1 + ABSORBER, 5), (P1 + FORTRESS, 3)),
    ]
    s, events = E.apply(
        s, 1, {"kind": "damage", "amounts": [[P1 + ABSORBER, 2], [P1 + FORTRESS, 6]]}
    )
    assert s.zone[P1 + FORTRESS] == E.ABYSS and s.value[P1 + ABSORBER] == 3
    # ATTACK and DEFENSE dice go to storage, then storage returns to hand at end of turn.
    assert {"type": "move", "die": SHOOTER, "to": "storage", "cause": "damage_phase_over"} in events
    assert s.zone[SHOOTER] == E.HAND and s.zone[P1 + BARRIER] == E.HAND


@pytest.mark.parametrize(
    ("amounts", "message"),
    [
        ([[P1 + ABSORBER, 3], [P1 + FORTRESS, 6]], "add up"),  # more than the damage
        ([[P1 + ABSORBER, 6], [P1 + FORTRESS, 2]], "up to its value"),  # more than a die has
        ([[P1 + FORTRESS, 4], [P1 + ABSORBER, 4]], "ascending"),
        ([[P1 + BARRIER, 4], [P1 + ABSORBER, 4]], "not one of your LIFE dice"),
        ([[P1 + ABSORBER, 0], [P1 + FORTRESS, 8]], "up to its value"),
    ],
)
def test_damage_distribution_must_match_the_damage_exactly(amounts, message):
    battle = {SHOOTER: 6, CRUSHER: 5, P1 + BARRIER: 3, P1 + FORTRESS: 6, P1 + ABSORBER: 5, 7: 2}
    s = scenario(battle=battle, phase=E.DAMAGE)
    with pytest.raises(E.IllegalAction, match=message):
        E.apply(s, 1, {"kind": "damage", "amounts": amounts})


def test_damage_is_simultaneous_and_secret_until_both_have_distributed():
    battle = {SHOOTER: 6, 7: 4, 6: 4, P1 + SHOOTER: 5, P1 + FORTRESS: 6, P1 + ABSORBER: 5}
    s = scenario(battle=battle, phase=E.DAMAGE)
    assert s.damage == [5, 6] and E.to_act(s) == {0, 1}
    s, _ = E.apply(s, 0, {"kind": "damage", "amounts": [[6, 1], [7, 4]]})
    assert "0" not in E.view(s, 1)["pending"] and "0" in E.view(s, 0)["pending"]
    assert E.view(s, 1)["committed"] == [True, False]
    assert s.zone[7] == E.BATTLE  # nothing applied before both chose
    s, _ = E.apply(s, 1, {"kind": "damage", "amounts": [[P1 + ABSORBER, 5], [P1 + FORTRESS, 1]]})
    assert s.zone[7] == E.ABYSS and s.zone[P1 + ABSORBER] == E.ABYSS


def test_no_damage_when_defense_covers_attack():
    s = scenario(battle={**LIVES, SHOOTER: 3, P1 + BARRIER: 3}, phase=E.DAMAGE)
    # No damage, one LIFE die each (nothing to return): the next turn has begun.
    assert s.turn == 3 and s.value[P1 + FORTRESS] == 6 and s.value[FORTRESS] == 6


def test_damage_beyond_all_life_ends_the_game():
    s = scenario(
        battle={SHOOTER: 6, CRUSHER: 6, 7: 2, P1 + FORTRESS: 3, P1 + ABSORBER: 2}, phase=E.DAMAGE
    )
    assert E.result(s) == {"winner": 0, "reason": "no_life_dice", "turns": 2}


def test_both_players_losing_every_life_die_at_once_goes_to_a_roll_off():
    battle = {SHOOTER: 6, 7: 2, P1 + SHOOTER: 6, P1 + FORTRESS: 3}
    s = scenario(battle=battle, phase=E.DAMAGE, rolls=[2, 5])
    assert E.result(s) == {"winner": 1, "reason": "roll_off", "turns": 2}


# --- END OF TURN ----------------------------------------------------------------------------


def test_end_of_turn_may_return_one_life_die_but_not_the_last():
    s = scenario(
        battle={7: 4, 6: 2, P1 + FORTRESS: 5}, storage=[SHOOTER, P1 + BARRIER], phase=E.END_TURN
    )
    assert E.to_act(s) == {0}
    assert E.legal_actions(s, 0) == [
        {"kind": "return", "die": None},
        {"kind": "return", "die": 6},
        {"kind": "return", "die": 7},
    ]
    assert E.legal_actions(s, 1) == []  # one LIFE die: nothing to choose
    with pytest.raises(E.IllegalAction):
        E.apply(s, 0, {"kind": "return", "die": SHOOTER})
    s, events = E.apply(s, 0, {"kind": "return", "die": 6})
    assert s.turn == 3 and s.phase == E.SPLIT
    assert s.zone[6] == E.HAND
    assert s.zone[SHOOTER] == E.HAND and s.zone[P1 + BARRIER] == E.HAND  # storage to hand
    assert s.zone[7] == E.BATTLE and s.value[7] == 4  # LIFE dice stay with their values
    assert s.zone[P1 + FORTRESS] == E.BATTLE and s.value[P1 + FORTRESS] == 5


# --- the end of the game ----------------------------------------------------------------


def test_game_ends_the_moment_a_duel_removes_the_last_life_die():
    s = scenario(battle={7: 6, P1 + FORTRESS: 2}, rolls=[5])
    s, _ = E.apply(s, 0, throw(CRUSHER, P1 + FORTRESS))
    s, events = finish_duel(s)
    assert E.result(s) == {"winner": 0, "reason": "no_life_dice", "turns": 2}
    assert events[-1]["type"] == "game_over"


def test_game_ends_the_moment_a_black_bonus_costs_the_last_life_die():
    set0 = [
        die("crusher", "black"),
        die("assault", "black"),
        die("fortress", "red"),
        die("annulator", "red"),
        *[die("shooter", "red")] * 5,
    ]
    s = scenario(config(set0), phase=E.SPLIT, battle={2: 1, P1 + FORTRESS: 6}, rolls=[1, 3, 4])
    s, _ = E.apply(s, 0, {"kind": "split", "throw": [0, 1]})
    s, events = E.apply(s, 1, {"kind": "split", "throw": [P1]})
    assert E.result(s) == {"winner": 1, "reason": "no_life_dice", "turns": 2}


def test_seed_is_revealed_in_every_view_once_the_game_is_over():
    s = scenario(battle={7: 6, P1 + FORTRESS: 2}, rolls=[5], seed="hidden-seed")
    assert E.view(s, 0)["seed"] is None and E.view(s, "spectator")["seed"] is None
    assert E.view(s, "judge")["seed"] == "hidden-seed"
    s, _ = finish_duel(E.apply(s, 0, throw(CRUSHER, P1 + FORTRESS))[0])
    for viewer in (0, 1, "spectator"):
        assert E.view(s, viewer)["seed"] == "hidden-seed"


# --- tournament rules ---------------------------------------------------------------------


def test_sudden_death_lets_the_turn_finish_then_changes_every_later_turn():
    s = scenario(phase=E.SPLIT, battle={7: 4, 6: 2, P1 + FORTRESS: 5}, rolls=[3, 3, 3, 3])
    s, events = E.enable_sudden_death(s)
    assert events == [{"type": "sudden_death_called", "from_turn": 3}]
    assert s.log[-1] == ("system", {"kind": "sudden_death"})
    # This turn is still normal: the CLASH happens (both keep reserves).
    s, _ = E.apply(s, 0, {"kind": "split", "throw": [SHOOTER]})
    s, _ = E.apply(s, 1, {"kind": "split", "throw": [P1 + BARRIER]})
    assert s.phase == E.OFFER
    s, _ = E.apply(s, E.to_act(s).pop(), {"kind": "decline"})
    s, _ = E.apply(s, E.to_act(s).pop(), {"kind": "decline"})
    # No damage (3 against 3); at the end of this turn a LIFE die may still return.
    assert s.phase == E.END_TURN
    assert E.legal_actions(s, 0)[1:] == [{"kind": "return", "die": 6}, {"kind": "return", "die": 7}]
    s, events = E.apply(s, 0, {"kind": "return", "die": None})
    # Turn 3 under sudden death: every LIFE die in the life zone loses 1 at the start.
    assert {"type": "turn_started", "turn": 3, "sudden_death": True} in events
    assert (s.value[7], s.value[6], s.value[P1 + FORTRESS]) == (3, 1, 4)
    # No CLASH although both keep dice in reserve.
    s, _ = E.apply(s, 0, {"kind": "split", "throw": [SHOOTER]})
    s, events = E.apply(s, 1, {"kind": "split", "throw": [P1 + BARRIER]})
    assert {"type": "clash_skipped"} in events
    # No LIFE die may return (player 0 holds two): turn 4 starts at once, with another -1.
    assert s.turn == 4 and s.phase == E.SPLIT
    assert s.zone[6] == E.ABYSS and s.value[7] == 2 and s.value[P1 + FORTRESS] == 3


def test_sudden_death_forbids_returning_life_dice():
    s = scenario(battle={7: 4, 6: 3, P1 + FORTRESS: 5}, phase=E.END_TURN, sudden_death_from=2)
    # Nobody was asked: the turn ended with no return, and turn 3 began with -1.
    assert s.turn == 3 and s.phase == E.SPLIT
    assert s.zone[6] == E.BATTLE and (s.value[7], s.value[6]) == (3, 2)


def test_sudden_death_from_the_config_and_twice_is_an_error():
    s = E.new_game(config(sudden_death_turn=2), "seed")
    assert s.sudden_death_from == 2
    with pytest.raises(E.IllegalAction, match="already"):
        E.enable_sudden_death(s)
    s2 = E.new_game(config(), "seed")
    s2, _ = E.enable_sudden_death(s2)
    with pytest.raises(E.IllegalAction, match="already"):
        E.enable_sudden_death(s2)


def test_sudden_death_from_the_first_turn_has_no_clash_and_no_returns():
    # The tournament layer's decider after time is played under sudden death throughout.
    s = E.new_game(config(sudden_death_turn=1), "seed")
    s, _ = E.apply(s, 0, {"kind": "split", "throw": [ABSORBER, FORTRESS]})
    s, events = E.apply(s, 1, {"kind": "split", "throw": [P1 + ABSORBER, P1 + FORTRESS]})
    assert {"type": "clash_skipped"} in events
    # No damage, and nobody was asked about returning a LIFE die: turn 2 has begun.
    assert s.turn == 2 and s.phase == E.SPLIT
    with pytest.raises(E.ConfigError, match="turn number"):
        E.new_game(config(sudden_death_turn=0), "seed")


def test_match_time_over_ends_the_game_without_a_winner():
    s = scenario(battle=LIVES)
    s, events = E.apply(s, "system", {"kind": "match_time_over"})
    assert E.result(s) == {"winner": None, "reason": "match_time_over", "turns": 2}
    assert E.legal_actions(s, 0) == [] and E.to_act(s) == set()


def test_forfeit_gives_the_game_to_the_other_player():
    s = scenario(battle=LIVES)
    s, _ = E.apply(s, "system", {"kind": "forfeit", "player": 0})
    assert E.result(s)["winner"] == 1
    with pytest.raises(E.IllegalAction, match="over"):
        E.apply(s, 1, {"kind": "decline"})
