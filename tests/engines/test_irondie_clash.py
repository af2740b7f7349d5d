"""The CLASH phase: every row of the Key Characteristics table, comparisons, duels, LIFO.

Dice ids: 0-8 are player 0's set in config order, 9-17 player 1's. testing.MIXED_SET is
crusher red, assault blue, shooter yellow, annulator red, barrier yellow, power booster
green, absorber blue, fortress red, regenerator purple (none specialised).
"""

import pytest

from games.engines.irondie import engine as E
from games.engines.irondie.testing import MIXED_SET, config, die, scenario

CRUSHER, ASSAULT, SHOOTER, ANNULATOR, BARRIER, BOOSTER, ABSORBER, FORTRESS, REGEN = range(9)
P1 = 9  # add to a MIXED_SET index for player 1's die


def mixed_without(index):
    return [d for i, d in enumerate(MIXED_SET) if i != index]


# Each player keeps a LIFE die (its fortress) in the life zone so no effect ends the game.
LIVES = {FORTRESS: 6, P1 + FORTRESS: 6}


def throw(d, *targets):
    return {"kind": "throw", "die": d, "targets": list(targets)}


PASS = {"kind": "pass"}


def finish_duel(state):
    """Everyone passes until the duel resolves."""
    events = []
    while state.phase == E.DUEL and not state.bonus_queue:
        (player,) = E.to_act(state)
        state, new = E.apply(state, player, PASS)
        events.extend(new)
    return state, events


def duel(battle, first_throw, rolls, cfg=None, **kw):
    """Player 0 opens a duel with ``first_throw``; everyone else passes."""
    s = scenario(cfg, battle={**LIVES, **battle}, rolls=rolls, **kw)
    s, events = E.apply(s, 0, first_throw)
    s2, more = finish_duel(s)
    return s2, events + more


def zone(state, d):
    return E.ZONE_NAMES[state.zone[d]]


# --- Key Characteristics table, ATTACK dice -----------------------------------------


def test_crusher_win_moves_target_to_abyss():
    s, _ = duel({P1 + BARRIER: 3}, throw(CRUSHER, P1 + BARRIER), [5])
    assert zone(s, P1 + BARRIER) == "abyss"
    assert zone(s, CRUSHER) == "storage"


def test_crusher_loss_moves_crusher_to_abyss():
    s, _ = duel({P1 + BARRIER: 3}, throw(CRUSHER, P1 + BARRIER), [2])
    assert zone(s, CRUSHER) == "abyss"
    assert zone(s, P1 + BARRIER) == "battle" and s.value[P1 + BARRIER] == 3


def test_assault_win_subtracts_its_value_from_an_opponent_attack_die():
    s, _ = duel({P1 + SHOOTER: 5}, throw(ASSAULT, P1 + SHOOTER), [6])
    assert s.value[P1 + SHOOTER] == 1  # 5 - 6 -> floor 1 for an ATTACK die


def test_assault_win_adds_its_value_to_an_own_attack_die():
    s, _ = duel({SHOOTER: 2}, throw(ASSAULT, SHOOTER), [3])
    assert s.value[SHOOTER] == 5


def test_assault_loss_moves_the_target_by_one():
    s, _ = duel({P1 + SHOOTER: 5}, throw(ASSAULT, P1 + SHOOTER), [4])
    assert s.value[P1 + SHOOTER] == 4
    s, _ = duel({SHOOTER: 5}, throw(ASSAULT, SHOOTER), [2])
    assert s.value[SHOOTER] == 6


def test_assault_targets_only_attack_dice():
    s = scenario(battle={**LIVES, P1 + BARRIER: 2, P1 + SHOOTER: 2})
    targets = {tuple(a["targets"]) for a in E.legal_actions(s, 0) if a.get("die") == ASSAULT}
    assert targets == {(P1 + SHOOTER,)}


def test_shooter_win_subtracts_two_and_loss_subtracts_one():
    s, _ = duel({P1 + BARRIER: 4}, throw(SHOOTER, P1 + BARRIER), [5])
    assert s.value[P1 + BARRIER] == 2
    s, _ = duel({P1 + BARRIER: 4}, throw(SHOOTER, P1 + BARRIER), [3])
    assert s.value[P1 + BARRIER] == 3


# --- Key Characteristics table, DEFENSE dice ----------------------------------------


def test_annulator_win_places_the_target_in_storage():
    s, _ = duel({P1 + SHOOTER: 3}, throw(ANNULATOR, P1 + SHOOTER), [4])
    assert zone(s, P1 + SHOOTER) == "storage"


def test_annulator_loss_has_no_effect():
    s, _ = duel({P1 + SHOOTER: 3}, throw(ANNULATOR, P1 + SHOOTER), [2])
    assert zone(s, P1 + SHOOTER) == "battle" and s.value[P1 + SHOOTER] == 3


def test_barrier_effects_on_own_and_opponent_defense_dice():
    sets = config(
        set0=[
            die("crusher", "red"),
            die("barrier", "yellow"),
            die("annulator", "red"),
            die("fortress", "red"),
            *[die("shooter", "red")] * 5,
        ]
    )
    lives = {3: 6, P1 + FORTRESS: 6}
    # win on the opponent's DEFENSE die: minus the barrier's value
    s = scenario(sets, battle={**lives, P1 + BARRIER: 5}, rolls=[6])
    s, _ = finish_duel(E.apply(s, 0, throw(1, P1 + BARRIER))[0])
    assert s.value[P1 + BARRIER] == 1  # 5 - 6, floor 1
    # win on an own DEFENSE die: plus the barrier's value
    s = scenario(sets, battle={**lives, 2: 2}, rolls=[3])
    s, _ = finish_duel(E.apply(s, 0, throw(1, 2))[0])
    assert s.value[2] == 5
    # loss: plus or minus one
    s = scenario(sets, battle={**lives, P1 + BARRIER: 5, 2: 5}, rolls=[4])
    s, _ = finish_duel(E.apply(s, 0, throw(1, P1 + BARRIER))[0])
    assert s.value[P1 + BARRIER] == 4
    s = scenario(sets, battle={**lives, 2: 5}, rolls=[3])
    s, _ = finish_duel(E.apply(s, 0, throw(1, 2))[0])
    assert s.value[2] == 6


def test_power_booster_win_adds_three_and_loss_adds_one():
    s, _ = duel({SHOOTER: 2}, throw(BOOSTER, SHOOTER), [3])
    assert s.value[SHOOTER] == 5
    s, _ = duel({SHOOTER: 4}, throw(BOOSTER, SHOOTER), [3])
    assert s.value[SHOOTER] == 5


def test_power_booster_targets_only_own_dice():
    s = scenario(battle={**LIVES, P1 + SHOOTER: 2, SHOOTER: 2})
    targets = {tuple(a["targets"]) for a in E.legal_actions(s, 0) if a.get("die") == BOOSTER}
    assert targets == {(SHOOTER,), (FORTRESS,)}


# --- Key Characteristics table, LIFE dice --------------------------------------------


def test_absorber_compares_with_each_opponent_defense_die():
    battle = {P1 + BARRIER: 3, P1 + ANNULATOR: 5, P1 + ABSORBER: 3}
    s = scenario(battle={**LIVES, **battle}, rolls=[3])
    (action,) = [a for a in E.legal_actions(s, 0) if a.get("die") == ABSORBER]
    assert action["targets"] == [P1 + ANNULATOR, P1 + BARRIER]  # every opponent DEFENSE die
    s, _ = finish_duel(E.apply(s, 0, action)[0])
    assert s.value[P1 + BARRIER] == 1  # 3 is not < 3: a win (ties win), -2
    assert s.value[P1 + ANNULATOR] == 5  # 3 < 5: lost against this one
    assert s.value[P1 + ABSORBER] == 3  # LIFE dice are not Absorber targets


def test_fortress_subtracts_two_from_each_beaten_opponent_attack_die():
    sets = config(set0=[*mixed_without(FORTRESS), die("fortress", "red")])
    battle = {P1 + CRUSHER: 2, P1 + SHOOTER: 6, 6: 5, P1 + FORTRESS: 6}
    s = scenario(sets, battle=battle, rolls=[4])
    s, _ = finish_duel(E.apply(s, 0, throw(8, P1 + CRUSHER, P1 + SHOOTER))[0])
    assert s.value[P1 + CRUSHER] == 1  # 2 - 2 -> floor 1
    assert s.value[P1 + SHOOTER] == 6


def test_regenerator_places_a_stored_die_in_the_battle_zone_with_its_roll():
    s, _ = duel({}, throw(REGEN, SHOOTER), [4], storage=[SHOOTER])
    assert zone(s, SHOOTER) == "battle" and s.value[SHOOTER] == 4
    assert zone(s, REGEN) == "storage"


def test_regenerator_always_wins_and_targets_only_own_storage():
    s = scenario(battle=LIVES, storage=[SHOOTER, P1 + SHOOTER])
    targets = {tuple(a["targets"]) for a in E.legal_actions(s, 0) if a.get("die") == REGEN}
    assert targets == {(SHOOTER,)}
    s, _ = duel({}, throw(REGEN, SHOOTER), [2], storage=[SHOOTER])  # the lowest non-bonus roll
    assert zone(s, SHOOTER) == "battle" and s.value[SHOOTER] == 2


def test_regenerated_life_die_joins_the_life_zone():
    s, _ = duel({}, throw(REGEN, ABSORBER), [5], storage=[ABSORBER])
    assert zone(s, ABSORBER) == "battle" and s.value[ABSORBER] == 5
    assert ABSORBER in E._life_in_zone(s, 0)


# --- comparisons and specialisation --------------------------------------------------

SPECIALISED = [
    die("crusher", "black"),
    die("assault", "red"),
    die("shooter", "purple"),
    die("annulator", "blue"),
    die("barrier", "green"),
    die("power_booster", "white"),
    die("absorber", "orange"),
    die("fortress", "yellow"),
    die("regenerator", "green"),
]


def test_greater_comparison_tie_loses_without_specialisation():
    s, _ = duel({P1 + BARRIER: 4}, throw(SHOOTER, P1 + BARRIER), [4])
    assert s.value[P1 + BARRIER] == 3  # loss: -1


@pytest.mark.parametrize(
    ("target_colour", "wins"),
    [("red", True), ("green", True), ("black", True), ("white", False)],
)
def test_specialised_crusher_wins_ties_except_against_an_enemy_colour(target_colour, wins):
    # Black crusher: allied to black, neutral to the six colours, enemy to white.
    target_set = [die("barrier", target_colour), *mixed_without(BARRIER)]
    cfg = config(SPECIALISED, target_set)
    s = scenario(cfg, battle={7: 6, P1 + 7: 6, P1 + 0: 4}, rolls=[4])
    s, _ = finish_duel(E.apply(s, 0, throw(0, P1 + 0))[0])
    if wins:
        assert zone(s, P1 + 0) == "abyss" and zone(s, 0) == "storage"
    else:
        assert zone(s, 0) == "abyss" and zone(s, P1 + 0) == "battle"


def test_specialised_shooter_tie_wins_against_a_neutral_colour_and_loses_to_an_enemy():
    # Purple is enemy to green and orange, allied to red and blue, neutral to yellow.
    target_set = [die("barrier", "yellow"), die("annulator", "green"), *MIXED_TAIL]
    cfg = config(SPECIALISED, target_set)
    s = scenario(cfg, battle={7: 6, P1 + 8: 6, P1 + 0: 4}, rolls=[4])
    s, _ = finish_duel(E.apply(s, 0, throw(2, P1 + 0))[0])
    assert s.value[P1 + 0] == 2  # tie won: -2
    s = scenario(cfg, battle={7: 6, P1 + 8: 6, P1 + 1: 4}, rolls=[4])
    s, _ = finish_duel(E.apply(s, 0, throw(2, P1 + 1))[0])
    assert s.value[P1 + 1] == 3  # enemy colour: the tie is lost, -1


MIXED_TAIL = [
    die("crusher", "red"),
    die("assault", "blue"),
    die("shooter", "yellow"),
    die("power_booster", "green"),
    die("absorber", "blue"),
    die("regenerator", "purple"),
    die("fortress", "red"),
]


def test_less_than_comparison_ignores_specialisation_and_loses_only_when_lower():
    cfg = config(SPECIALISED)
    # Orange absorber (specialised) rolls 2 against a defense die at 3: 2 < 3, lost.
    s = scenario(cfg, battle={7: 6, P1 + 7: 6, P1 + 4: 3}, rolls=[2])
    s, _ = finish_duel(E.apply(s, 0, throw(6, P1 + 4))[0])
    assert s.value[P1 + 4] == 3


# --- duel procedure ------------------------------------------------------------------


def test_advantage_player_attacks_first_and_may_decline():
    s = scenario(battle={**LIVES, P1 + SHOOTER: 3}, preferred=1)
    assert E.to_act(s) == {1}
    s, events = E.apply(s, 1, {"kind": "decline"})
    assert E.to_act(s) == {0}
    assert s.attack_right == [True, False]


def test_declining_forfeits_attacking_for_the_rest_of_the_phase():
    s = scenario(battle={**LIVES, P1 + BARRIER: 3, SHOOTER: 3}, preferred=0, rolls=[5, 5])
    s, _ = E.apply(s, 0, {"kind": "decline"})
    s, _ = E.apply(s, 1, throw(P1 + SHOOTER, SHOOTER))
    s, _ = finish_duel(s)
    # Player 0 declined: player 1 attacks again although player 0 was the defender.
    assert s.phase == E.OFFER and E.to_act(s) == {1}


def test_defender_gets_the_next_duel():
    s = scenario(battle={**LIVES, P1 + BARRIER: 3, BARRIER: 3}, preferred=0, rolls=[5])
    s, _ = E.apply(s, 0, throw(SHOOTER, P1 + BARRIER))
    s, _ = finish_duel(s)
    assert s.phase == E.OFFER and E.to_act(s) == {1}


def test_clash_ends_when_both_declined():
    s = scenario(battle={**LIVES, P1 + SHOOTER: 3, SHOOTER: 3})
    s, _ = E.apply(s, 0, {"kind": "decline"})
    s, events = E.apply(s, 1, {"kind": "decline"})
    assert {"type": "clash_over"} in events
    assert s.phase != E.OFFER


def test_defender_responses_target_only_dice_in_the_clash_zone():
    s = scenario(battle={**LIVES, P1 + BARRIER: 3}, rolls=[5])
    s, _ = E.apply(s, 0, throw(SHOOTER, P1 + BARRIER))
    assert E.to_act(s) == {1}
    for action in E.legal_actions(s, 1):
        if action["kind"] == "throw":
            assert action["targets"] == [SHOOTER]  # the only die in the clash zone
    with pytest.raises(E.IllegalAction, match="clash zone"):
        E.apply(s, 1, throw(P1 + CRUSHER, FORTRESS))


def test_each_player_throws_at_most_two_dice_per_duel():
    s = scenario(battle={**LIVES, P1 + SHOOTER: 3}, rolls=[5, 4, 5, 4])
    s, _ = E.apply(s, 0, throw(SHOOTER, P1 + SHOOTER))
    s, _ = E.apply(s, 1, throw(P1 + CRUSHER, SHOOTER))
    s, _ = E.apply(s, 0, throw(ANNULATOR, P1 + CRUSHER))
    s, events = E.apply(s, 1, throw(P1 + ANNULATOR, ANNULATOR))
    assert any(e["type"] == "duel_over" for e in events)  # four throws close the duel


def test_defender_who_passes_first_still_has_one_throw_after_the_attacker():
    s = scenario(battle={**LIVES, P1 + SHOOTER: 3}, rolls=[5, 6])
    s, _ = E.apply(s, 0, throw(SHOOTER, P1 + SHOOTER))
    s, _ = E.apply(s, 1, PASS)
    s, _ = E.apply(s, 0, PASS)
    assert E.to_act(s) == {1}  # the rulebook's example: the defender's single throw
    s, events = E.apply(s, 1, throw(P1 + ANNULATOR, SHOOTER))
    assert any(e["type"] == "duel_over" for e in events)
    assert zone(s, SHOOTER) == "storage"
    assert s.value[P1 + SHOOTER] == 3  # the annulled shooter never fired


def test_lifo_resolves_last_throw_first():
    # Attacker: shooter (5) at player 1's shooter (3). Defender: assault (6) at the
    # attacker's shooter: wins, 5 - 6 -> 1. Then the attacker's shooter compares 1 with 3:
    # a loss, only -1. (First-in-first-out would have given -2.)
    s = scenario(battle={**LIVES, P1 + SHOOTER: 3}, rolls=[5, 6])
    s, _ = E.apply(s, 0, throw(SHOOTER, P1 + SHOOTER))
    s, _ = E.apply(s, 1, throw(P1 + ASSAULT, SHOOTER))
    s, _ = finish_duel(s)
    assert s.value[P1 + SHOOTER] == 2


def test_lifo_skips_an_effect_whose_target_left_play():
    # A1 shooter -> 14; A2 power booster -> A1; D2 crusher -> A1 (wins, A1 to the abyss).
    # LIFO: the crusher first; then the booster's target is gone; then A1 is gone.
    s = scenario(battle={**LIVES, P1 + BARRIER: 3}, rolls=[2, 3, 6])
    s, _ = E.apply(s, 0, throw(SHOOTER, P1 + BARRIER))
    s, _ = E.apply(s, 1, PASS)
    s, _ = E.apply(s, 0, throw(BOOSTER, SHOOTER))
    s, events = E.apply(s, 1, throw(P1 + CRUSHER, SHOOTER))
    skipped = [e for e in events if e["type"] == "effect_skipped"]
    assert skipped == [
        {"type": "effect_skipped", "die": BOOSTER, "why": "target_left_play"},
        {"type": "effect_skipped", "die": SHOOTER, "why": "die_left_play"},
    ]
    assert zone(s, SHOOTER) == "abyss" and s.value[P1 + BARRIER] == 3
    assert zone(s, BOOSTER) == "storage" and zone(s, P1 + CRUSHER) == "storage"


def test_colour_bonus_rolled_in_a_duel_applies_at_once():
    # Player 0's yellow shooter rolls 1: +2 to an allied LIFE die before the response.
    s = scenario(battle={**LIVES, FORTRESS: 3, P1 + BARRIER: 3, BARRIER + 0: 2}, rolls=[1])
    s, events = E.apply(s, 0, throw(SHOOTER, P1 + BARRIER))
    # Yellow: +2 to an allied (yellow, green, orange) LIFE die; the only one in play is
    # none (fortress is red): the bonus lapses. Use a yellow life die instead:
    assert {"type": "bonus_lapsed", "player": 0, "die": SHOOTER} in events
    cfg = config(set0=[*mixed_without(BARRIER), die("absorber", "green")])
    s = scenario(cfg, battle={6: 6, 8: 2, P1 + FORTRESS: 6, P1 + BARRIER: 3}, rolls=[1])
    s, events = E.apply(s, 0, throw(2, P1 + BARRIER))
    bonus = [e for e in events if e["type"] == "bonus"]
    assert bonus and bonus[0]["targets"] == [8] and s.value[8] == 4
    assert E.to_act(s) == {1}  # the defender answers after the bonus


def test_clash_is_skipped_when_nobody_kept_a_reserve():
    s = scenario(phase=E.SPLIT, rolls=[3] * 18 + [4, 2])
    s, _ = E.apply(s, 0, {"kind": "split", "throw": list(range(9))})
    s, events = E.apply(s, 1, {"kind": "split", "throw": list(range(9, 18))})
    assert {"type": "clash_skipped"} in events
    assert s.phase != E.OFFER


def test_a_player_without_reserve_lets_the_other_continue():
    # Player 0 holds only the regenerator and has nothing in storage: no attack possible,
    # so the offer passes to player 1 although player 0 is preferred.
    s = scenario(battle=LIVES, abyss=range(7), preferred=0, rolls=[5])
    assert E.to_act(s) == {1}
    s, events = E.apply(s, 1, throw(P1 + SHOOTER, FORTRESS))
    assert any(e["type"] == "pass" and e["forced"] for e in events)
    assert E.to_act(s) == {1}  # the attacker continues: a second throw
