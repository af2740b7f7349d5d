"""The BATTLE phase: the secret split, the throw, colour bonuses and ADVANTAGE."""

import pytest

from games.engines.irondie import engine as E
from games.engines.irondie.testing import config, die, scenario, with_rolls

P1 = 9
PADDING = [die("crusher", "white"), die("annulator", "white"), die("regenerator", "white")]


def make_set(*dice):
    dice = list(dice)
    i = 0
    while len(dice) < 9:
        dice.append(PADDING[i % 3])
        i += 1
    return dice


def split(ids):
    return {"kind": "split", "throw": sorted(ids)}


def battle(set0, thrown0, thrown1=None, set1=None, extra_rolls=()):
    """Turn 2: player 0 throws ``thrown0`` ({index: roll}), player 1 ``thrown1``.

    Player 1 keeps more dice in reserve by default, so player 1 has the ADVANTAGE.
    """
    thrown1 = thrown1 if thrown1 is not None else {P1 + 7: 4}  # player 1's red fortress
    rolls = [thrown0[d] for d in sorted(thrown0)] + [thrown1[d] for d in sorted(thrown1)]
    s = scenario(config(set0, set1), phase=E.SPLIT, rolls=[*rolls, *extra_rolls])
    s, _ = E.apply(s, 0, split(thrown0))
    s, events = E.apply(s, 1, split(thrown1))
    return s, events


def bonus_options(s):
    return {tuple(a["targets"]) for a in E.legal_actions(s, 0)}


def bonus(*targets):
    return {"kind": "bonus", "targets": list(targets)}


# --- every colour bonus -----------------------------------------------------------------


def test_red_bonus_adds_two_to_an_allied_attack_die_capped_at_six():
    dice = make_set(
        die("shooter", "red"),
        die("assault", "purple"),
        die("crusher", "blue"),
        die("barrier", "red"),
        die("fortress", "orange"),
        die("shooter", "orange"),
    )
    s, _ = battle(dice, {0: 1, 1: 3, 2: 3, 3: 3, 4: 3, 5: 5})
    assert E.to_act(s) == {0}
    assert bonus_options(s) == {(1,), (5,)}
    s, _ = E.apply(s, 0, bonus(5))
    assert [s.value[d] for d in range(6)] == [1, 3, 3, 3, 3, 6]


def test_blue_bonus_adds_two_to_an_allied_defense_die():
    dice = make_set(
        die("annulator", "blue"),
        die("barrier", "green"),
        die("barrier", "red"),
        die("shooter", "blue"),
        die("fortress", "blue"),
    )
    s, events = battle(dice, {0: 1, 1: 3, 2: 3, 3: 3, 4: 3})
    # One allowed target only: applied without asking.
    assert {"type": "bonus", "player": 0, "die": 0, "targets": [1]} in events
    assert [s.value[d] for d in range(5)] == [1, 5, 3, 3, 3]


def test_yellow_bonus_adds_two_to_an_allied_life_die():
    dice = make_set(
        die("fortress", "yellow"),
        die("absorber", "green"),
        die("regenerator", "blue"),
        die("shooter", "yellow"),
        die("barrier", "orange"),
        die("absorber", "orange"),
    )
    s, _ = battle(dice, {0: 1, 1: 2, 2: 2, 3: 2, 4: 2, 5: 2})
    assert bonus_options(s) == {(1,), (5,)}
    s, _ = E.apply(s, 0, bonus(1))
    assert s.value[1] == 4 and s.value[5] == 2 and s.value[2] == 2


def test_orange_bonus_adds_one_to_an_allied_attack_die_and_one_to_an_allied_life_die():
    dice = make_set(
        die("shooter", "orange"),
        die("crusher", "red"),
        die("assault", "yellow"),
        die("fortress", "yellow"),
        die("barrier", "orange"),
        die("regenerator", "blue"),
    )
    s, _ = battle(dice, {0: 1, 1: 3, 2: 3, 3: 3, 4: 3, 5: 3})
    assert bonus_options(s) == {(1, 3), (2, 3)}
    s, _ = E.apply(s, 0, bonus(2, 3))
    assert [s.value[d] for d in range(6)] == [1, 3, 4, 4, 3, 3]


def test_purple_bonus_adds_one_to_an_allied_attack_die_and_one_to_an_allied_defense_die():
    dice = make_set(
        die("barrier", "purple"),
        die("shooter", "red"),
        die("barrier", "blue"),
        die("fortress", "red"),
        die("crusher", "green"),
        die("annulator", "yellow"),
    )
    s, events = battle(dice, {0: 1, 1: 3, 2: 3, 3: 3, 4: 3, 5: 3})
    assert {"type": "bonus", "player": 0, "die": 0, "targets": [1, 2]} in events
    assert [s.value[d] for d in range(6)] == [1, 4, 4, 3, 3, 3]


def test_green_bonus_adds_one_to_an_allied_defense_die_and_one_to_an_allied_life_die():
    dice = make_set(
        die("fortress", "green"),
        die("barrier", "blue"),
        die("absorber", "yellow"),
        die("annulator", "red"),
        die("shooter", "green"),
    )
    s, _ = battle(dice, {0: 1, 1: 3, 2: 3, 3: 3, 4: 3})
    assert [s.value[d] for d in range(5)] == [1, 4, 4, 3, 3]


def test_black_bonus_adds_three_to_an_allied_attack_or_defense_die_and_costs_one_life():
    dice = make_set(
        die("crusher", "black"),
        die("assault", "black"),
        die("annulator", "black"),
        die("fortress", "red"),
        die("absorber", "black"),
    )
    s, _ = battle(dice, {0: 1, 1: 3, 2: 3, 3: 3, 4: 3})
    assert bonus_options(s) == {(1, 3), (1, 4), (2, 3), (2, 4)}
    s, _ = E.apply(s, 0, bonus(1, 3))
    assert [s.value[d] for d in range(5)] == [1, 6, 3, 2, 3]


def test_black_bonus_without_an_allied_target_costs_nothing():
    dice = make_set(die("crusher", "black"), die("shooter", "red"), die("fortress", "red"))
    s, events = battle(dice, {0: 1, 1: 3, 2: 3})
    assert {"type": "bonus_lapsed", "player": 0, "die": 0} in events
    assert s.value[2] == 3


def test_black_bonus_cost_can_exhaust_a_life_die():
    dice = make_set(
        die("crusher", "black"),
        die("assault", "black"),
        die("fortress", "red"),
        die("absorber", "red"),
    )
    s, _ = battle(dice, {0: 1, 1: 3, 2: 1, 3: 4})
    # Die 2 (red fortress) also rolled 1 but red has no allied ATTACK die in play: lapses.
    s, events = E.apply(s, 0, bonus(1, 2))
    assert s.zone[2] == E.ABYSS
    assert {"type": "to_abyss", "die": 2, "cause": "life_exhausted"} in events


def test_white_bonus_adds_one_to_an_allied_or_neutral_die_and_one_to_a_life_die():
    dice = make_set(
        die("power_booster", "white"),
        die("crusher", "black"),
        die("shooter", "red"),
        die("fortress", "yellow"),
    )
    s, events = battle(dice, {0: 1, 1: 3, 2: 3, 3: 3})
    # Black is WHITE's enemy; the two parts go to different dice: only (2, 3).
    assert {"type": "bonus", "player": 0, "die": 0, "targets": [2, 3]} in events
    assert [s.value[d] for d in range(4)] == [1, 3, 4, 4]


def test_two_part_bonus_with_one_target_applies_one_part():
    dice = make_set(die("power_booster", "white"), die("fortress", "yellow"))
    s, _ = battle(dice, {0: 1, 1: 3})
    assert bonus_options(s) == {(1, None), (None, 1)}
    s, _ = E.apply(s, 0, bonus(None, 1))
    assert s.value[1] == 4


@pytest.mark.parametrize(
    ("rare", "roll", "gives"),
    [(False, 1, True), (False, 2, False), (True, 1, True), (True, 2, True), (True, 3, False)],
)
def test_rare_dice_also_give_their_bonus_on_a_two(rare, roll, gives):
    dice = make_set(die("shooter", "red", rare), die("assault", "red"), die("fortress", "red"))
    s, _ = battle(dice, {0: roll, 1: 3, 2: 3})
    assert s.value[1] == (5 if gives else 3)


def test_rare_bonus_on_every_colour_uses_the_same_table():
    # A rare green die rolling 2 gives the green bonus (+1 DEFENSE, +1 LIFE).
    dice = make_set(
        die("fortress", "green", True), die("barrier", "blue"), die("absorber", "yellow")
    )
    s, _ = battle(dice, {0: 2, 1: 3, 2: 3})
    assert [s.value[d] for d in range(3)] == [2, 4, 4]


def test_bonus_never_targets_the_die_that_rolled_it():
    dice = make_set(die("barrier", "blue"), die("shooter", "red"), die("fortress", "red"))
    s, events = battle(dice, {0: 1, 1: 3, 2: 3})
    assert {"type": "bonus_lapsed", "player": 0, "die": 0} in events
    assert s.value[0] == 1


def test_bonus_size_is_fixed_by_the_roll_even_when_the_die_was_raised():
    # The rulebook's example: two blue barriers roll 1, each bonus goes to the other.
    dice = make_set(die("barrier", "blue"), die("barrier", "blue"), die("fortress", "blue"))
    s, _ = battle(dice, {0: 1, 1: 1, 2: 3})
    assert s.value[0] == 3 and s.value[1] == 3


def test_bonus_targets_only_own_dice():
    dice = make_set(die("shooter", "red"), die("fortress", "red"))
    set1 = make_set(die("assault", "red"), die("fortress", "red"))
    s, events = battle(dice, {0: 1, 1: 3}, {P1: 3, P1 + 1: 3}, set1=set1)
    assert {"type": "bonus_lapsed", "player": 0, "die": 0} in events
    assert s.value[P1] == 3


def test_bonus_counts_only_rolled_values_not_modified_ones():
    # Golden rule 2: a die brought down to 1 gives no bonus. The shooter's -2 brings
    # player 1's blue assault from 2 to 1; no bonus follows.
    s = scenario(battle={7: 6, 16: 6, 10: 2, 9 + 2: 4}, rolls=[3])
    s, _ = E.apply(s, 0, {"kind": "throw", "die": 2, "targets": [10]})
    while s.phase == E.DUEL:
        (p,) = E.to_act(s)
        s, events = E.apply(s, p, {"kind": "pass"})
    assert s.value[10] == 1
    assert not any(e["type"] in ("bonus", "bonus_lapsed") for e in events)


# --- ADVANTAGE ----------------------------------------------------------------------------


def test_advantage_goes_to_more_dice_in_reserve_and_orders_the_bonuses():
    set_ = make_set(die("shooter", "red"), die("assault", "red"), die("fortress", "red"))
    # Both roll a bonus; player 1 throws one die fewer, so player 1 chooses first.
    s, events = battle(set_, {0: 1, 1: 3, 2: 3, 3: 3}, {P1: 1, P1 + 1: 3, P1 + 2: 3}, set1=set_)
    assert {"type": "advantage", "player": 1, "basis": "reserve"} in events
    bonus_events = [e for e in events if e["type"] == "bonus"]
    assert [e["player"] for e in bonus_events] == [1, 0]


def test_advantage_on_equal_reserve_goes_to_more_life_points():
    set_ = make_set(die("shooter", "red"), die("fortress", "red"))
    s, events = battle(set_, {0: 3, 1: 5}, {P1: 3, P1 + 1: 4}, set1=set_)
    assert {"type": "advantage", "player": 0, "basis": "life_points"} in events
    assert E.to_act(s) == {0}  # the ADVANTAGE player may attack first


def test_life_points_are_the_sum_of_life_zone_values_not_the_number_of_dice():
    set_ = make_set(die("shooter", "red"), die("fortress", "red"), die("absorber", "red"))
    s, events = battle(set_, {0: 3, 1: 5, 3: 3}, {P1: 3, P1 + 1: 2, P1 + 2: 2}, set1=set_)
    assert {"type": "advantage", "player": 0, "basis": "life_points"} in events


def test_advantage_roll_off_rerolls_ties():
    set_ = make_set(die("shooter", "red"), die("fortress", "red"))
    s, events = battle(set_, {0: 3, 1: 4}, {P1: 3, P1 + 1: 4}, set1=set_, extra_rolls=[4, 4, 2, 5])
    assert [e["rolls"] for e in events if e["type"] == "roll_off"] == [[4, 4], [2, 5]]
    assert {"type": "advantage", "player": 1, "basis": "roll_off"} in events


# --- the split --------------------------------------------------------------------------


def test_split_may_throw_all_or_none():
    s = scenario(phase=E.SPLIT, battle={7: 5, 16: 5})
    actions = E.legal_actions(s, 0)
    assert len(actions) == 2**8
    assert {"kind": "split", "throw": []} in actions
    assert {"kind": "split", "throw": [0, 1, 2, 3, 4, 5, 6, 8]} in actions


def test_split_rejects_dice_not_in_hand_and_unsorted_lists():
    s = scenario(phase=E.SPLIT, battle={7: 5, 16: 5})
    with pytest.raises(E.IllegalAction, match="not in your hand"):
        E.apply(s, 0, split([7]))
    with pytest.raises(E.IllegalAction, match="not in your hand"):
        E.apply(s, 0, split([10]))
    with pytest.raises(E.IllegalAction, match="ascending"):
        E.apply(s, 0, {"kind": "split", "throw": [3, 1]})


def test_split_is_simultaneous_and_the_throw_waits_for_both():
    s = E.new_game(config(), "seed")
    assert E.to_act(s) == {0, 1}
    s, events = E.apply(s, 1, split([9, 15]))
    assert E.to_act(s) == {0} and not s.rolls
    assert events == [{"type": "split_committed", "player": 1}]
    with pytest.raises(E.IllegalAction, match="no decision"):
        E.apply(s, 1, split([9]))


def test_first_battle_without_life_dice_loses():
    s = E.new_game(config(), "seed")
    s, _ = E.apply(s, 0, split([0, 1]))  # no LIFE die
    s, events = E.apply(s, 1, split([15]))
    assert E.is_over(s)
    assert E.result(s) == {"winner": 1, "reason": "no_life_dice", "turns": 1}


def test_first_battle_without_life_dice_on_both_sides_goes_to_a_roll_off():
    # Rolls: the two throws, the ADVANTAGE roll-off (2-2, 6-1), the end roll-off (5-5, 1-4).
    s = with_rolls(E.new_game(config(), "seed"), [3, 3, 2, 2, 6, 1, 5, 5, 1, 4])
    s, _ = E.apply(s, 0, split([0]))
    s, events = E.apply(s, 1, split([9]))
    assert E.result(s)["reason"] == "roll_off"
    roll_offs = [(e["purpose"], e["rolls"]) for e in events if e["type"] == "roll_off"]
    assert roll_offs[-2:] == [("end_of_game", [5, 5]), ("end_of_game", [1, 4])]
    assert E.result(s)["winner"] == 1
