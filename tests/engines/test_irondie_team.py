"""The team game ("Playing with More Players"): every ruling of docs/rules.md, "Team game".

Seats alternate between the teams: seats 0 and 2 are team 0 (captain seat 0), seats 1
and 3 team 1 (captain seat 1). Seat s owns dice 9 * s to 9 * s + 8 in its set's order;
testing.MIXED_SET is crusher red, assault blue, shooter yellow, annulator red, barrier
yellow, power booster green, absorber blue, fortress red, regenerator purple.
"""

import random

import pytest

from games.engines import engine_for
from games.engines.irondie import team as T
from games.engines.irondie.testing import MIXED_SET, die, team_config, team_play, team_scenario

IRONDIE = engine_for("irondie")
CRUSHER, ASSAULT, SHOOTER, ANNULATOR, BARRIER, BOOSTER, ABSORBER, FORTRESS, REGEN = range(9)


def d(seat, index):
    return 9 * seat + index


def throw(die_id, *targets):
    return {"kind": "throw", "die": die_id, "targets": list(targets)}


PASS = {"kind": "pass"}
# Every seat keeps a LIFE die (its regenerator) in its life zone.
LIVES = {d(seat, REGEN): 6 for seat in range(4)}


def zone(state, die_id):
    return T.E.ZONE_NAMES[state.zone[die_id]]


def finish_duel(state):
    events = []
    while state.phase == T.DUEL and not state.bonus_queue:
        (seat,) = T.to_act(state)
        state, new = T.apply(state, seat, PASS)
        events.extend(new)
    return state, events


# --- Config and seats -----------------------------------------------------------------


def test_team_configs_have_four_or_six_seats_and_alternate_teams():
    for seats in (4, 6):
        config = team_config(seats=seats)
        assert IRONDIE.seat_count(config) == seats
        assert IRONDIE.teams(config) == [s % 2 for s in range(seats)]
        state = IRONDIE.new_game(config, "s")
        assert IRONDIE.to_act(state) == set(range(seats))
    assert IRONDIE.teams({"game_id": "x", "sets": [MIXED_SET, MIXED_SET]}) == [0, 1]
    for seats in (3, 5, 8):
        with pytest.raises(IRONDIE.ConfigError, match="two teams of equal size"):
            IRONDIE.new_game(team_config(seats=seats), "s")


def test_every_player_set_follows_the_set_rules_and_errors_name_the_seat():
    four_rare = [{**x, "rare": i < 4} for i, x in enumerate(MIXED_SET)]
    with pytest.raises(IRONDIE.ConfigError, match="Player 2's set"):
        IRONDIE.new_game(team_config(MIXED_SET, MIXED_SET, four_rare), "s")
    no_life = [x for x in MIXED_SET if x["type"] not in ("absorber", "fortress", "regenerator")]
    with pytest.raises(IRONDIE.ConfigError, match="Player 3's set"):
        IRONDIE.new_game(team_config(MIXED_SET, MIXED_SET, MIXED_SET, no_life * 2), "s")


# --- BATTLE: simultaneous for everyone; teammates see each other's split ----------------


def test_battle_split_is_simultaneous_for_all_players_and_throws_only_own_dice():
    s = IRONDIE.new_game(team_config(), "split")
    with pytest.raises(IRONDIE.IllegalAction, match="Die 0 is not in your hand"):
        IRONDIE.apply(s, 2, {"kind": "split", "throw": [0]})
    for seat in range(4):
        assert s.phase == "split"
        s, events = IRONDIE.apply(s, seat, {"kind": "split", "throw": [d(seat, REGEN)]})
    assert [e for e in events if e["type"] == "battle_throw"][0]["dice"][0][0] == d(0, REGEN)
    assert all(zone(s, d(seat, REGEN)) == "battle" for seat in range(4))


def test_teammates_see_each_others_pending_split_opponents_and_spectators_do_not():
    s = IRONDIE.new_game(team_config(), "secret")
    s, _ = IRONDIE.apply(s, 0, {"kind": "split", "throw": [d(0, REGEN)]})
    secret = [[d(0, REGEN)]]
    assert IRONDIE.view(s, 0)["pending"] == {"0": secret[0]}
    assert IRONDIE.view(s, 2)["pending"] == {"0": secret[0]}  # the teammate
    assert IRONDIE.view(s, 2)["log"] == [[0, {"kind": "split", "throw": secret[0]}]]
    for viewer in (1, 3, "spectator"):
        visible = IRONDIE.view(s, viewer)
        assert visible["pending"] == {} and visible["log"] == []
        assert visible["committed"] == [True, False, False, False]
        assert IRONDIE.view(IRONDIE.alter_hidden(s, viewer), viewer) == visible
    assert IRONDIE.view(s, "judge")["pending"] == {"0": secret[0]}
    # An opponent's refusal does not echo the split either.
    with pytest.raises(IRONDIE.IllegalAction) as refused:
        IRONDIE.apply(s, 1, {"kind": "split", "throw": [d(0, REGEN)]})
    assert str(d(0, REGEN)) in str(refused.value) and "throw" not in str(refused.value)


def test_advantage_goes_to_the_team_with_more_reserve_and_orders_the_bonuses_by_team():
    s = team_scenario(phase="split", rolls=[1, 4, 5, 1, 5, 1, 4, 5, 1, 5])
    # Team 0 throws 6 dice, team 1 throws 4: team 1 keeps more in reserve.
    s, events = team_play(
        s,
        (0, {"kind": "split", "throw": [d(0, CRUSHER), d(0, ASSAULT), d(0, REGEN)]}),
        (1, {"kind": "split", "throw": [d(1, CRUSHER), d(1, REGEN)]}),
        (2, {"kind": "split", "throw": [d(2, CRUSHER), d(2, ASSAULT), d(2, REGEN)]}),
        (3, {"kind": "split", "throw": [d(3, CRUSHER), d(3, REGEN)]}),
    )
    advantage = next(e for e in events if e["type"] == "advantage")
    assert advantage == {"type": "advantage", "team": 1, "basis": "reserve"}
    # Every red crusher rolled a 1 (no allied ATTACK die in play: the bonus lapses);
    # the ADVANTAGE team's players first, each team in seat order.
    lapsed = [e["player"] for e in events if e["type"] == "bonus_lapsed"]
    assert lapsed == [1, 3, 0, 2]


def test_advantage_on_equal_reserve_goes_to_the_team_with_more_life_points():
    s = team_scenario(phase="split", rolls=[2, 6, 6, 6])
    s, events = team_play(
        s, *((seat, {"kind": "split", "throw": [d(seat, REGEN)]}) for seat in range(4))
    )
    advantage = next(e for e in events if e["type"] == "advantage")
    # Team 0: 2 + 6 = 8 life points; team 1: 6 + 6 = 12.
    assert advantage == {"type": "advantage", "team": 1, "basis": "life_points"}


def test_colour_bonus_targets_only_the_players_own_dice_not_a_teammates():
    reds = [
        die("crusher", "red"),
        die("assault", "red"),
        die("assault", "red"),
        *MIXED_SET[3:],
    ]
    cfg = team_config(MIXED_SET, MIXED_SET, reds)
    # Seat 0 has a red ATTACK die in play; seat 2's crusher (thrown by the captain)
    # rolls a 1: the bonus is seat 2's, on seat 2's own red ATTACK dice.
    s = team_scenario(
        cfg,
        battle={**LIVES, d(0, CRUSHER): 4, d(2, ASSAULT): 3, d(2, SHOOTER): 2, d(1, SHOOTER): 3},
        rolls=[1],
    )
    s, _ = T.apply(s, 0, throw(d(2, CRUSHER), d(1, SHOOTER)))
    assert T.to_act(s) == {2}
    assert T.view(s, 3)["decision"] == {"kind": "bonus", "player": 2, "team": 0, "die": 18}
    assert T.legal_actions(s, 2) == [
        {"kind": "bonus", "targets": [d(2, ASSAULT)]},
        {"kind": "bonus", "targets": [d(2, SHOOTER)]},
    ]


# --- CLASH: team against team; the captain throws any member's dice ----------------------


def test_the_captain_decides_the_teams_clash_throws_with_any_members_reserve():
    s = team_scenario(battle={**LIVES, d(1, SHOOTER): 3}, rolls=[5])
    assert T.to_act(s) == {0}
    with pytest.raises(T.IllegalAction, match="no decision"):
        T.apply(s, 2, throw(d(2, CRUSHER), d(1, SHOOTER)))
    offered = T.legal_actions(s, 0)
    assert throw(d(0, CRUSHER), d(1, SHOOTER)) in offered
    assert throw(d(2, CRUSHER), d(1, SHOOTER)) in offered
    s, events = T.apply(s, 0, throw(d(2, CRUSHER), d(1, SHOOTER)))
    assert events[-1]["player"] == 2 and events[-1]["team"] == 0  # seat 2's die
    # The defending team's captain answers.
    assert T.to_act(s) == {1}
    assert T.view(s, 3)["decision"]["kind"] == "defender_first"


def test_each_duel_is_still_four_throws_two_per_team():
    battle = {**LIVES, d(1, SHOOTER): 3, d(0, SHOOTER): 3}
    s = team_scenario(battle=battle, rolls=[5, 5, 5, 5])
    s, _ = T.apply(s, 0, throw(d(0, CRUSHER), d(1, SHOOTER)))
    s, _ = T.apply(s, 1, throw(d(3, CRUSHER), d(0, CRUSHER)))
    s, _ = T.apply(s, 0, throw(d(2, CRUSHER), d(3, CRUSHER)))
    s, _ = T.apply(s, 1, throw(d(1, CRUSHER), d(2, CRUSHER)))
    assert s.phase == "offer" and T.to_act(s) == {1}  # resolved; the defender opens next
    thrown = [d(0, CRUSHER), d(3, CRUSHER), d(2, CRUSHER), d(1, CRUSHER)]
    assert all(zone(s, x) != "hand" for x in thrown)


def test_fortress_targets_the_attack_dice_of_all_opponents():
    battle = {**LIVES, d(1, SHOOTER): 3, d(3, ASSAULT): 4, d(2, SHOOTER): 2}
    s = team_scenario(battle=battle, rolls=[3])
    option = throw(d(2, FORTRESS), d(1, SHOOTER), d(3, ASSAULT))  # not the teammate's
    assert option in T.legal_actions(s, 0)
    s, _ = T.apply(s, 0, option)
    s, _ = finish_duel(s)
    # "<": 3 beats 3 (ties win) and loses to 4.
    assert s.value[d(1, SHOOTER)] == 1 and s.value[d(3, ASSAULT)] == 4
    assert s.value[d(2, SHOOTER)] == 2


def test_absorber_targets_the_defense_dice_of_all_opponents():
    battle = {**LIVES, d(1, BARRIER): 2, d(3, BARRIER): 5, d(0, BARRIER): 1}
    s = team_scenario(battle=battle, rolls=[6])
    option = throw(d(0, ABSORBER), d(1, BARRIER), d(3, BARRIER))
    assert option in T.legal_actions(s, 0)
    s, _ = T.apply(s, 0, option)
    s, _ = finish_duel(s)
    assert s.value[d(1, BARRIER)] == 1 and s.value[d(3, BARRIER)] == 3
    assert s.value[d(0, BARRIER)] == 1


def test_opponent_only_dice_target_any_opponent_and_never_a_teammate():
    battle = {**LIVES, d(1, SHOOTER): 3, d(3, SHOOTER): 4, d(2, SHOOTER): 2}
    s = team_scenario(battle=battle)
    targets = {tuple(a["targets"]) for a in T.legal_actions(s, 0) if a.get("die") == d(0, CRUSHER)}
    assert targets == {
        (x,) for x in (d(1, SHOOTER), d(3, SHOOTER), *(d(s1, REGEN) for s1 in (1, 3)))
    }


def test_power_booster_and_assault_help_teammates_and_regenerator_keeps_to_its_owner():
    battle = {**LIVES, d(2, SHOOTER): 2, d(1, SHOOTER): 5}
    s = team_scenario(battle=battle, storage=[d(0, BARRIER), d(2, BARRIER)], rolls=[6])
    offered = T.legal_actions(s, 0)
    booster = {tuple(a["targets"]) for a in offered if a.get("die") == d(0, BOOSTER)}
    assert (d(2, SHOOTER),) in booster and (d(1, SHOOTER),) not in booster
    regen = {tuple(a["targets"]) for a in offered if a.get("die") == d(2, REGEN)}
    assert regen == set()  # seat 2's regenerator is in its life zone
    lives = {k: v for k, v in LIVES.items() if k != d(2, REGEN)}
    s2 = team_scenario(battle={**lives, d(2, FORTRESS): 6}, storage=[d(0, BARRIER), d(2, BARRIER)])
    regen = {tuple(a["targets"]) for a in T.legal_actions(s2, 0) if a.get("die") == d(2, REGEN)}
    assert regen == {(d(2, BARRIER),)}  # its owner's storage only
    # Assault adds its value to a teammate's ATTACK die.
    s, _ = T.apply(s, 0, throw(d(0, ASSAULT), d(2, SHOOTER)))
    s, _ = finish_duel(s)
    assert s.value[d(2, SHOOTER)] == 6


# --- DAMAGE: team against team; the captain distributes over the team's LIFE dice ---------


def damage_state(changed=None):
    battle = {
        d(0, SHOOTER): 4,
        d(2, SHOOTER): 3,
        d(1, BARRIER): 2,
        d(3, BARRIER): 1,
        d(0, REGEN): 5,
        d(2, REGEN): 5,
        d(1, REGEN): 3,
        d(3, REGEN): 3,
        **(changed or {}),
    }
    return team_scenario(battle=battle, phase="damage")


def test_damage_is_team_attack_minus_opposing_team_defense_and_the_captain_distributes_it():
    s = damage_state()
    assert s.damage == [0, 4]  # (4 + 3) - (2 + 1) on team 1
    assert T.to_act(s) == {1}
    assert T.legal_actions(s, 3) == []
    # Step by step, dice in ascending order of id: die 17 first, from 1 point (die 35,
    # value 3, cannot take all 4) up to 3 (its value).
    assert T.legal_actions(s, 1) == [
        {"kind": "damage", "die": d(1, REGEN), "points": points} for points in (1, 2, 3)
    ]
    with pytest.raises(T.IllegalAction, match="ascending order of id"):
        T.apply(s, 1, {"kind": "damage", "die": d(3, REGEN), "points": 3})
    with pytest.raises(T.IllegalAction, match="not one of your team's LIFE dice"):
        T.apply(s, 1, {"kind": "damage", "die": d(0, REGEN), "points": 1})
    s, events = T.apply(s, 1, {"kind": "damage", "die": d(1, REGEN), "points": 1})
    # The rest (3 points on die 35) had only one outcome: taken at once; the choice
    # was complete, so the damage was dealt.
    taken = next(e for e in events if e["type"] == "damage_taken")
    assert taken["amounts"] == [[d(1, REGEN), 1], [d(3, REGEN), 3]]
    assert zone(s, d(3, REGEN)) == "abyss" and s.value[d(1, REGEN)] == 2
    # Seat 3 has no LIFE die left but stays in: a teammate still has one.
    assert not T.is_over(s)
    assert s.phase == "split" and 3 in T.to_act(s)


def test_a_captains_unfinished_distribution_is_seen_by_the_team_only():
    lives = {d(1, FORTRESS): 4, d(1, REGEN): 5, d(3, REGEN): 6}
    s = damage_state({**lives, d(1, BARRIER): 1, d(3, BARRIER): 1})
    assert s.damage == [0, 5]
    s, events = T.apply(s, 1, {"kind": "damage", "die": d(1, FORTRESS), "points": 1})
    assert events == [] and T.to_act(s) == {1}
    partial = [[d(1, FORTRESS), 1]]
    assert T.view(s, 3)["pending"] == {"1": partial, "3": []}  # seat 3 has nothing to choose
    for viewer in (0, 2, "spectator"):
        visible = T.view(s, viewer)
        assert "1" not in visible["pending"] and visible["log"] == []
        assert T.view(T.alter_hidden(s, viewer), viewer) == visible
    assert T.default_action(s, 1) in T.legal_actions(s, 1)


def test_damage_that_takes_every_life_die_of_a_team_ends_the_game_for_the_team():
    s = damage_state({d(1, REGEN): 1, d(3, REGEN): 2})
    assert T.is_over(s)
    assert T.result(s) == {
        "winning_team": 0,
        "winners": [0, 2],
        "placings": [1, 2, 1, 2],
        "teams": [0, 1, 0, 1],
        "reason": "no_life_dice",
        "turns": 2,
    }
    assert IRONDIE.placings(s) == [1, 2, 1, 2]


def test_both_teams_losing_every_life_die_at_once_goes_to_a_team_roll_off():
    battle = {
        d(0, SHOOTER): 6,
        d(1, SHOOTER): 6,
        d(0, REGEN): 1,
        d(1, REGEN): 1,
    }
    s = team_scenario(battle=battle, phase="split", rolls=[])
    s = T.E.OTHER_FORMATS[T.FORMAT].from_dict(s.to_dict())
    s.scripted_rolls = [3, 3, 2, 5]
    s.phase = "damage"
    events = []
    T._start_damage(s, events)
    assert [e["rolls"] for e in events if e["type"] == "roll_off"] == [[3, 3], [2, 5]]
    assert T.result(s)["winning_team"] == 1 and T.result(s)["reason"] == "roll_off"


def test_a_player_may_return_their_last_life_die_only_while_a_teammate_has_two():
    lives = {d(0, REGEN): 4, d(2, FORTRESS): 3, d(2, REGEN): 2, d(1, REGEN): 5, d(3, REGEN): 5}
    s = team_scenario(battle=lives, phase="end_turn")
    assert T.legal_actions(s, 0) == [
        {"kind": "return", "die": None},
        {"kind": "return", "die": d(0, REGEN)},
    ]
    assert len(T.legal_actions(s, 2)) == 3
    # Seats 1 and 3 hold one LIFE die each: neither may return it (nothing to decide).
    assert T.to_act(s) == {0, 2}
    s, _ = team_play(
        s,
        (0, {"kind": "return", "die": d(0, REGEN)}),
        (2, {"kind": "return", "die": d(2, REGEN)}),
    )
    assert zone(s, d(0, REGEN)) == "hand" and zone(s, d(2, FORTRESS)) == "battle"
    assert not T.is_over(s)


def test_forfeit_by_one_player_gives_the_game_to_the_other_team():
    s = IRONDIE.new_game(team_config(), "forfeit")
    s, _ = IRONDIE.apply(s, "system", {"kind": "forfeit", "player": 3})
    assert IRONDIE.result(s)["winning_team"] == 0 and IRONDIE.placings(s) == [1, 2, 1, 2]
    with pytest.raises(IRONDIE.IllegalAction):
        IRONDIE.apply(
            IRONDIE.new_game(team_config(), "f"), "system", {"kind": "forfeit", "player": 4}
        )


# --- Whole games -------------------------------------------------------------------------


@pytest.mark.parametrize("seats", [4, 6])
def test_bot_games_end_verify_and_keep_dice_and_values_in_range(seats):
    rng = random.Random(seats)
    for game in range(6):
        config = IRONDIE.random_config(rng, seats=seats, game_id=f"team-{seats}-{game}")
        s = IRONDIE.new_game(config, f"seed-{game}")
        bots = [IRONDIE.BOTS[("heuristic", "random")[seat % 2]](seed=seat) for seat in range(seats)]
        while not IRONDIE.is_over(s):
            if s.turn >= IRONDIE.SIMULATED_LIMIT_TURN and s.sudden_death_from is None:
                s, _ = IRONDIE.enable_sudden_death(s)
                continue
            seat = min(IRONDIE.to_act(s))
            s, _ = IRONDIE.apply(s, seat, bots[seat].choose(s, seat))
            assert all(1 <= v <= 6 for z, v in zip(s.zone, s.value, strict=True) if z in (1, 2))
        places = IRONDIE.placings(s)
        assert sorted(set(places)) in ([1, 2], [1])
        assert IRONDIE.verify(IRONDIE.view(s, "spectator"))["ok"]
        assert IRONDIE.State.from_dict(s.to_dict()) == s


@pytest.mark.parametrize("seats", [2, 4])
def test_states_made_from_one_state_keep_their_own_log_and_rolls(seats):
    # The log and rolls are shared between a state and its successor; a second successor
    # of the same state, or a further action on an older one, must not see the first's.
    rng = random.Random(seats)
    config = IRONDIE.random_config(rng, seats=seats, game_id=f"branch-{seats}")
    s = IRONDIE.new_game(config, "branch")
    bots = [IRONDIE.BOTS["random"](seed=seat) for seat in range(seats)]
    kept = []
    while not IRONDIE.is_over(s) and len(kept) < 60:
        seat = min(IRONDIE.to_act(s))
        kept.append((s, s.to_dict(), seat, bots[seat].choose(s, seat)))
        s, _ = IRONDIE.apply(s, seat, kept[-1][3])
    last = s.to_dict()
    for old, before, seat, action in kept[::7]:
        first, _ = IRONDIE.apply(old, seat, action)
        others = [a for a in IRONDIE.legal_actions(old, seat) if a != action]
        second = IRONDIE.apply(old, seat, others[0])[0] if others else first
        again, _ = IRONDIE.apply(old, seat, action)
        assert old.to_dict() == before and again == first
        assert first.log == [*old.log, (seat, first.log[-1][1])]
        assert first.rolls[: len(old.rolls)] == old.rolls == second.rolls[: len(old.rolls)]
        assert second.log[: len(old.log)] == old.log and len(second.log) == len(old.log) + 1
        assert IRONDIE.replay(old.config, old.seed, second.log) == second
    assert s.to_dict() == last
    assert IRONDIE.replay(config, "branch", s.log) == s


def test_match_time_over_ends_a_team_game_without_a_winner():
    s = IRONDIE.new_game(team_config(seats=6), "time")
    s, _ = IRONDIE.apply(s, "system", {"kind": "match_time_over"})
    outcome = IRONDIE.result(s)
    assert outcome["winning_team"] is None and outcome["winners"] == []
    assert outcome["placings"] == [1] * 6 and outcome["reason"] == "match_time_over"


def test_sudden_death_lowers_every_life_zone_and_forbids_returns_in_a_team_game():
    lives = {d(0, REGEN): 4, d(0, FORTRESS): 3, d(2, REGEN): 1, d(1, REGEN): 5, d(3, REGEN): 2}
    s = team_scenario(battle=lives, phase="end_turn", sudden_death_from=2)
    # No return was asked for (seat 0 has two LIFE dice): the next turn has started.
    assert s.turn == 3 and s.phase == "split" and zone(s, d(0, REGEN)) == "battle"
    assert [s.value[x] for x in (d(0, REGEN), d(0, FORTRESS), d(1, REGEN), d(3, REGEN))] == [
        3,
        2,
        4,
        1,
    ]
    assert zone(s, d(2, REGEN)) == "abyss" and not T.is_over(s)


def test_the_random_bots_one_call_draw_is_randranges_draw():
    """``_below`` stands in for ``rng.randrange`` in the random bot: the same numbers
    from the same generator (the recorded random-bot games depend on it), and no draw
    from nothing."""
    for n in (1, 2, 3, 5, 7, 8, 9, 33, 64, 65, 100):
        ours, theirs = random.Random(n), random.Random(n)
        assert [T._below(ours, n) for _ in range(50)] == [theirs.randrange(n) for _ in range(50)]
    with pytest.raises(IndexError):
        T._below(random.Random(1), 0)
