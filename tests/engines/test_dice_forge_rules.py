"""Dice Forge: the setup, every die face, every heroic feat card, forging, ousting, the
extra action, reserve maxima, the end and shared placings (docs/rules-dice-forge.md)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from games.engines import engine_for
from games.engines.dice_forge import WORDS
from games.engines.dice_forge import engine as E
from games.engines.dice_forge.testing import scenario, with_rolls


def gains(before, after, seat=0):
    return [b - a for a, b in zip(before.res[seat], after.res[seat], strict=True)]


# ---------------------------------------------------------------------------
# F1, F2: setup and the player-count table


@pytest.mark.parametrize(
    "seats, rounds, pool_size, blessings", [(2, 9, 2, 2), (3, 10, 4, 1), (4, 9, 4, 1)]
)
def test_setup_follows_the_table(seats, rounds, pool_size, blessings):
    s = E.new_game({"game_id": "t", "seats": seats}, "seed")
    assert s.rounds == rounds
    assert all(len(pool) == pool_size for pool in s.pools)
    assert s.stacks == [seats] * len(E.CARD_NAMES)
    assert s.pawns == [None] * seats
    # Every seat rolled both dice, once per blessing, before the first player's step 2.
    assert len(s.rolls) == seats * 2 * blessings
    before_blessing = [3, 2, 1, 0][:seats]
    for seat in range(seats):
        # Starting dice give gold, a sun, a moon or 2 glory: gold only ever went up.
        assert s.res[seat][E.GOLD] >= before_blessing[seat]
    assert s.dice[0] == [list(E.START_DICE[0]), list(E.START_DICE[1])]


def test_starting_gold_is_three_two_one_zero_before_the_blessings():
    s = with_rolls(scenario(4), [1] * 8)  # slot 0 of each die: 1 gold each
    s.res = [[3, 0, 0, 0], [2, 0, 0, 0], [1, 0, 0, 0], [0, 0, 0, 0]]
    s.turn, s.active = 4, 3
    s.phase = "extra"
    after, _ = E.apply(s, 3, {"kind": "end_turn"})
    assert after.round == 2 and after.active == 0
    assert [r[E.GOLD] for r in after.res] == [5, 4, 3, 2]


def test_the_starting_dice():
    assert E.START_DICE[0] == ("gold1",) * 5 + ("sun1",)
    assert E.START_DICE[1] == ("gold1",) * 4 + ("moon1", "glory2")


# ---------------------------------------------------------------------------
# F4, F5: every face, rolled through the Silver Hind's minor blessing


def rolled(face, res=(0, 0, 0, 0), cards=("silver_hind",)):
    s = scenario(
        2,
        res={0: list(res)},
        dice={0: [[face] * 6, list(E.START_DICE[1])]},
        cards={0: list(cards)},
        phase="reinforce",
    )
    s = with_rolls(s, [4])
    after, events = E.apply(s, 0, {"kind": "reinforce", "card": "silver_hind", "die": 0})
    assert after.up[0][0] == 3
    assert {"type": "roll", "seat": 0, "die": 0, "slot": 3, "face": face} in events
    return s, after


ALL_FACES = sorted(E.FACES)


@pytest.mark.parametrize("face", [f for f in ALL_FACES if E.FACES[f][0] == "all"])
def test_each_plain_face_gives_all_it_shows(face):
    s, after = rolled(face)
    expected = [0, 0, 0, 0]
    for resource, amount in E.FACES[face][1]:
        expected[resource] += amount
    assert gains(s, after) == expected
    assert not after.pending


@pytest.mark.parametrize("face", [f for f in ALL_FACES if E.FACES[f][0] == "choice"])
def test_each_choice_face_gives_one_resource_of_the_rollers_choice(face):
    s, after = rolled(face)
    assert after.pending == [[0, face]] and E.to_act(after) == {0}
    options = E.legal_actions(after, 0)
    assert [o["resource"] for o in options] == [E.RESOURCES[r] for r, _ in E.FACES[face][1]]
    for resource, amount in E.FACES[face][1]:
        chosen, _ = E.apply(after, 0, {"kind": "choose", "resource": E.RESOURCES[resource]})
        expected = [0, 0, 0, 0]
        expected[resource] = amount
        assert gains(s, chosen) == expected
        assert chosen.pending == []
    with pytest.raises(E.IllegalAction):
        E.apply(after, 0, {"kind": "choose", "resource": "glory"} if "glory" not in face else {})


def test_the_face_list_matches_the_sanctuary():
    assert [price for price, _ in E.POOLS] == [2, 2, 3, 3, 4, 5, 6, 8, 8, 12]
    for _price, faces in E.POOLS:
        assert len(faces) == 4
        assert all(face in E.FACES for face in faces)


def test_reserves_stop_at_their_maximum_and_a_chest_raises_it():
    s, after = rolled("gold6", res=(10, 6, 6, 0))
    assert after.res[0][:3] == [12, 6, 6]
    s, after = rolled("moon2+glory2", res=(0, 0, 5, 0))
    assert after.res[0] == [0, 0, 6, 2]  # the extra moon shard is lost
    s, after = rolled("gold6", res=(10, 0, 0, 0), cards=("silver_hind", "blacksmiths_chest"))
    assert after.res[0][E.GOLD] == 16
    assert E.reserve_max(after, 0) == (16, 9, 9)


# ---------------------------------------------------------------------------
# F5: forging


def test_forging_pays_replaces_a_face_and_shows_it():
    s = scenario(3, res={0: [10, 0, 0, 0]})
    action = {"kind": "forge", "pool": 4, "face": "gold6", "die": 1, "slot": 5}
    after, events = E.apply(s, 0, action)
    assert after.res[0][E.GOLD] == 6
    assert after.dice[0][1] == ["gold1", "gold1", "gold1", "gold1", "moon1", "gold6"]
    assert after.up[0][1] == 5
    assert events[0]["removed"] == "glory2"
    assert after.pools[4] == ["gold1/sun1/moon1", "gold2+moon1", "sun1+glory1"]
    assert s.pools[4][-1] == "gold6"  # the earlier state is unchanged
    # One face per pool in an action; other pools while gold lasts.
    assert after.phase == "forge"
    offered = E.legal_actions(after, 0)
    assert all(a["pool"] != 4 for a in offered if a["kind"] == "forge")
    assert {a["pool"] for a in offered if a["kind"] == "forge"} == {0, 1, 2, 3, 5, 6}
    with pytest.raises(E.IllegalAction):
        E.apply(after, 0, {**action, "face": "gold2+moon1"})
    with pytest.raises(E.IllegalAction):
        E.apply(after, 0, {"kind": "forge", "pool": 7, "face": "glory3", "die": 0, "slot": 0})
    ended, _ = E.apply(after, 0, {"kind": "end_forge"})
    assert ended.phase == "extra" or ended.active == 1


def test_a_face_cannot_be_bought_without_the_gold_or_once_the_pool_is_empty():
    s = scenario(2, res={0: [7, 0, 0, 0]})
    assert not any(a.get("pool") == 7 for a in E.legal_actions(s, 0))
    with pytest.raises(E.IllegalAction):
        E.apply(s, 0, {"kind": "forge", "pool": 7, "face": "glory3", "die": 0, "slot": 0})
    s.pools = [list(p) for p in s.pools]
    s.pools[0] = []
    with pytest.raises(E.IllegalAction):
        E.apply(s, 0, {"kind": "forge", "pool": 0, "face": "gold3", "die": 0, "slot": 0})


# ---------------------------------------------------------------------------
# F6, F7: every heroic feat card


def feat(card, res):
    """Seat 0 performs ``card``; 2 more sun shards (and a chest to hold them) keep the
    turn at the extra action, so the next turn's blessings do not blur the change."""
    res = [res[0], res[1] + 2, res[2], res[3]]
    s = scenario(2, res={0: res}, cards={0: ["blacksmiths_chest"]})
    assert {"kind": "feat", "card": card} in E.legal_actions(s, 0)
    after, events = E.apply(s, 0, {"kind": "feat", "card": card})
    assert card in after.cards[0] and after.phase == "extra"
    assert after.stacks[E.CARD_NAMES.index(card)] == 1
    assert after.pawns[0] == E.CARDS[card]["island"]
    return s, after


@pytest.mark.parametrize(
    "card, res, change",
    [
        ("ferryman", [0, 0, 4, 0], [0, 0, -4, 12]),
        ("gorgon", [0, 4, 0, 0], [0, -4, 0, 14]),
        ("hydra", [0, 5, 5, 0], [0, -5, -5, 26]),
        ("blacksmiths_chest", [0, 0, 1, 0], [0, 0, -1, 2]),
        ("silver_hind", [0, 0, 2, 0], [0, 0, -2, 2]),
        ("elder", [0, 1, 0, 0], [0, -1, 0, 0]),
        ("guardians_owl", [0, 2, 0, 0], [0, -2, 0, 4]),
        ("wild_spirits", [0, 1, 0, 0], [3, -1, 3, 2]),
    ],
)
def test_each_card_costs_and_gives_what_its_table_says(card, res, change):
    s, after = feat(card, res)
    assert gains(s, after) == change


@pytest.mark.parametrize("card", E.CARD_NAMES)
def test_a_card_is_refused_one_shard_short(card):
    cost = E.CARDS[card]["cost"]
    short = [cost[0], max(cost[1] - 1, 0), cost[2], 0]
    if cost[1] == 0:
        short = [cost[0], 0, cost[2] - 1, 0]
    s = scenario(2, res={0: short})
    assert {"kind": "feat", "card": card} not in E.legal_actions(s, 0)
    with pytest.raises(E.IllegalAction):
        E.apply(s, 0, {"kind": "feat", "card": card})


def test_the_chest_raises_every_reserve():
    s = scenario(2, res={0: [12, 2, 1, 0]})
    assert E.reserve_max(s, 0) == (12, 6, 6)
    after, _ = E.apply(s, 0, {"kind": "feat", "card": "blacksmiths_chest"})
    assert E.reserve_max(after, 0) == (16, 9, 9)
    assert E.view(after, 1)["players"][0]["maximum"] == [16, 9, 9]
    after, _ = E.apply(after, 0, {"kind": "extra"})
    s2 = after.clone()
    s2.res[0] = [0, 0, 1, 0]
    again, _ = E.apply(s2, 0, {"kind": "feat", "card": "blacksmiths_chest"})
    assert E.reserve_max(again, 0) == (20, 12, 12)  # two chests, twice the room


def test_the_elder_turns_three_gold_into_four_glory_at_step_two_and_only_then():
    s = scenario(2, res={0: [3, 0, 0, 0]}, cards={0: ["elder"]}, phase="reinforce")
    assert E.legal_actions(s, 0) == [{"kind": "reinforce", "card": "elder"}, {"kind": "done"}]
    after, _ = E.apply(s, 0, {"kind": "reinforce", "card": "elder"})
    assert after.res[0] == [0, 0, 0, 4]
    assert after.phase == "action"  # used once: nothing left to reinforce
    poor = scenario(2, res={0: [2, 0, 0, 0]}, cards={0: ["elder"]}, phase="reinforce")
    assert E.legal_actions(poor, 0) == [{"kind": "done"}]


def test_the_owl_gives_one_resource_of_choice_at_step_two():
    s = scenario(
        2, res={0: [0, 0, 0, 0]}, cards={0: ["guardians_owl", "guardians_owl"]}, phase="reinforce"
    )
    after, _ = E.apply(s, 0, {"kind": "reinforce", "card": "guardians_owl", "resource": "moon"})
    assert after.res[0][E.MOON] == 1 and after.phase == "reinforce"  # the second owl
    after, _ = E.apply(after, 0, {"kind": "reinforce", "card": "guardians_owl", "resource": "sun"})
    assert after.res[0][:3] == [0, 1, 1] and after.phase == "action"


def test_reinforcements_are_used_only_by_the_active_player_in_step_two():
    # Seat 1 owns an owl: seat 0's turn has no step 2, seat 1's has.
    s = scenario(2, res={0: [0, 0, 0, 0]}, cards={1: ["guardians_owl"]}, phase="reinforce")
    s = with_rolls(s, [1] * 8)
    assert E.legal_actions(s, 1) == []
    after, _ = E.apply(s, 0, {"kind": "done"})
    assert after.phase == "action"
    after, _ = E.apply(after, 0, {"kind": "pass"})
    assert after.active == 1 and after.phase == "reinforce"
    assert {"kind": "reinforce", "card": "guardians_owl", "resource": "sun"} in E.legal_actions(
        after, 1
    )


def test_a_stack_runs_out():
    s = scenario(2, res={0: [0, 0, 8, 0]})
    s.stacks = [0] * len(E.CARD_NAMES)
    assert not any(a["kind"] == "feat" for a in E.legal_actions(s, 0))


# ---------------------------------------------------------------------------
# Ousting, the extra action, repeated feats


def test_ousting_sends_the_other_hero_home_with_a_divine_blessing():
    s = scenario(2, res={0: [0, 2, 4, 0], 1: [0, 0, 0, 0]}, pawns={1: "moon_3"})
    s = with_rolls(s, [6, 6])  # seat 1 rolls the sun shard and the 2 glory
    after, events = E.apply(s, 0, {"kind": "feat", "card": "ferryman"})
    assert after.pawns == ["moon_3", None]
    assert {"type": "ousted", "seat": 1, "island": "moon_3"} in events
    assert after.res[1] == [0, 1, 0, 2]


def test_no_ousting_from_ones_own_portal_or_another_island():
    s = scenario(2, res={0: [0, 2, 4, 0]}, pawns={0: "moon_3", 1: "sun_1"})
    after, events = E.apply(s, 0, {"kind": "feat", "card": "ferryman"})
    assert after.pawns == ["moon_3", "sun_1"] and not any(e["type"] == "ousted" for e in events)


def test_the_extra_action_costs_two_sun_shards_and_allows_the_same_feat_again():
    s = scenario(2, res={0: [0, 6, 8, 0]})
    after, _ = E.apply(s, 0, {"kind": "feat", "card": "ferryman"})
    assert after.phase == "extra"
    assert E.legal_actions(after, 0) == [{"kind": "extra"}, {"kind": "end_turn"}]
    after, _ = E.apply(after, 0, {"kind": "extra"})
    assert after.res[0][E.SUN] == 4 and after.phase == "action" and after.extra_taken
    after, events = E.apply(after, 0, {"kind": "feat", "card": "ferryman"})
    assert after.res[0][E.GLORY] == 24 and after.cards[0] == ["ferryman", "ferryman"]
    # One extra action a turn: the turn ends by itself though 4 sun shards are left.
    assert after.active == 1 and any(e["type"] == "turn" for e in events)


def test_without_two_sun_shards_the_turn_ends_after_the_action():
    s = scenario(2, res={0: [0, 1, 0, 0]})
    after, events = E.apply(s, 0, {"kind": "pass"})
    assert after.active == 1 and any(e["type"] == "turn" for e in events)


# ---------------------------------------------------------------------------
# The end: rounds, ties shared, the time limit


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_a_game_lasts_its_rounds(seats):
    engine = engine_for("dice-forge")
    s = engine.new_game({"game_id": "r", "seats": seats}, "seed")
    rng = random.Random(seats)
    while not engine.is_over(s):
        seat = min(engine.to_act(s))
        s, _ = engine.apply(s, seat, engine.random_action(s, seat, rng))
    assert s.turn == E.ROUNDS[seats] * seats
    assert engine.result(s)["reason"] == "rounds"
    assert engine.verify(engine.view(s, "spectator"))["ok"]


def test_ties_are_shared():
    s = scenario(3)
    s.res = [[0, 0, 0, 10], [0, 0, 0, 10], [0, 0, 0, 4]]
    over, events = E.enable_sudden_death(s)
    assert E.placings(over) == [1, 1, 3]
    assert E.result(over)["winner"] is None and E.result(over)["winners"] == [0, 1]
    assert events[-1]["reason"] == "time_limit"


def test_a_forfeit_ends_the_game_with_the_conceding_seat_last():
    two = scenario(2)
    two.res = [[0, 0, 0, 5], [0, 0, 0, 9]]
    done, events = E.apply(two, E.SYSTEM, {"kind": "forfeit", "player": 1})
    assert done.over and E.to_act(done) == set()
    assert E.placings(done) == [1, 2]  # the most glory, but it conceded
    assert E.result(done)["winner"] == 0 and E.result(done)["reason"] == "forfeit"
    assert events[0] == {"type": "forfeit", "seats": [1]}
    for bad in ({"kind": "forfeit", "player": 3}, {"kind": "forfeit"}, {"kind": "x"}):
        with pytest.raises(E.IllegalAction):
            E.apply(two, E.SYSTEM, bad)
    with pytest.raises(E.IllegalAction):
        E.apply(done, E.SYSTEM, {"kind": "forfeit", "player": 0})  # the game is over


def test_after_a_forfeit_the_others_play_on_without_the_seat():
    engine = engine_for("dice-forge")
    s = engine.new_game({"game_id": "f", "seats": 3}, "seed-forfeit")
    rng = random.Random(3)
    while s.active != 1 or s.pending:  # seat 1's turn, nothing waiting
        seat = min(engine.to_act(s))
        s, _ = engine.apply(s, seat, engine.random_action(s, seat, rng))
    s, events = E.apply(s, E.SYSTEM, {"kind": "forfeit", "player": 1})
    assert not s.over and s.active == 2  # its turn passed to the next seat
    assert any(e["type"] == "turn" and e["seat"] == 2 for e in events)
    with pytest.raises(E.IllegalAction, match="already out"):
        E.apply(s, E.SYSTEM, {"kind": "forfeit", "player": 1})
    rolled_by_1 = 0
    while not s.over:
        assert 1 not in engine.to_act(s) and s.active != 1
        seat = min(engine.to_act(s))
        s, events = engine.apply(s, seat, engine.random_action(s, seat, rng))
        rolled_by_1 += sum(1 for e in events if e["type"] == "roll" and e["seat"] == 1)
    assert rolled_by_1 == 0  # no blessing for a seat that is out
    assert s.end_reason == "rounds" and s.round == s.rounds
    placings = E.placings(s)
    assert placings[1] == 3 and sorted(placings[0::2]) in ([1, 2], [1, 1])
    assert engine.replay(s.config, s.seed, s.log) == s
    # A judge's ruling in a game of three: both other seats forfeit, the winner is first.
    t = engine.new_game({"game_id": "r", "seats": 3}, "seed-ruling")
    t, _ = E.apply(t, E.SYSTEM, {"kind": "forfeit", "player": 0})
    t, _ = E.apply(t, E.SYSTEM, {"kind": "forfeit", "player": 1})
    assert t.over and E.placings(t)[2] == 1 and E.result(t)["winner"] == 2


def test_bad_configs_are_refused():
    for bad in ({"seats": 1}, {"seats": 5}, {"seats": 2, "variants": ["x"]}, {"seats": True}):
        with pytest.raises(E.ConfigError):
            E.new_game(bad, "seed")


def test_the_heuristic_bot_chooses_legal_actions_and_beats_nothing_by_accident():
    engine = engine_for("dice-forge")
    s = engine.new_game({"game_id": "b", "seats": 3}, "seed")
    bots = [engine.BOTS["heuristic"](seed=k) for k in range(3)]
    while not engine.is_over(s):
        seat = min(engine.to_act(s))
        action = bots[seat].choose(s, seat)
        assert action in engine.legal_actions(s, seat)
        s, _ = engine.apply(s, seat, action)
    assert sum(len(cards) for cards in s.cards) > 0  # the bots perform feats


def test_choices_after_a_blessing_are_simultaneous_and_public():
    choice = "gold1/sun1/moon1"
    s = scenario(2, res={0: [0, 0, 0, 0], 1: [0, 0, 0, 0]}, phase="extra", active=1)
    s.dice = [[[choice] * 6, [choice] * 6] for _ in range(2)]
    s = with_rolls(s, [1] * 8)
    after, _ = E.apply(s, 1, {"kind": "end_turn"})
    # Two blessings with two players: four faces to choose for each seat, both at once.
    assert E.to_act(after) == {0, 1} and len(after.pending) == 8
    assert E.view(after, "spectator")["decision"] == {"seats": [0, 1], "kind": "choose"}
    assert E.view(after, 0)["pending"] == E.view(after, "spectator")["pending"]
    step, _ = E.apply(after, 1, {"kind": "choose", "resource": "moon"})
    assert step.res[1][E.MOON] == 1 and E.to_act(step) == {0, 1}
    for seat, resource in [(0, "sun")] * 4 + [(1, "gold")] * 3:
        step, _ = E.apply(step, seat, {"kind": "choose", "resource": resource})
    assert E.to_act(step) == {0} and step.phase == "action"
    assert step.res[0][:3] == [0, 4, 0] and step.res[1][:3] == [3, 0, 1]


@pytest.mark.parametrize(
    "phase, default",
    [("reinforce", "done"), ("action", "pass"), ("forge", "end_forge"), ("extra", "end_turn")],
)
def test_the_clock_default_is_the_passive_choice(phase, default):
    s = scenario(2, res={0: [5, 3, 0, 0]}, cards={0: ["guardians_owl"]}, phase=phase)
    assert E.default_action(s, 0) == {"kind": default}
    assert E.default_action(s, 1) is None
    E.apply(s, 0, E.default_action(s, 0))


def test_a_choice_defaults_to_its_first_resource():
    s, after = rolled("gold2/sun2/moon2")
    assert E.default_action(after, 0) == {"kind": "choose", "resource": "gold"}


def test_the_example_in_docs_engine_md_runs():
    text = (Path(__file__).resolve().parents[2] / "docs" / "engine.md").read_text()
    example = re.search(r"<!-- example-dice-forge -->\n```python\n(.*?)```", text, re.S).group(1)
    namespace = {}
    exec(compile(example, "docs/engine.md", "exec"), namespace)
    assert len(namespace["outcome"]["placings"]) == 3


def test_every_phase_decision_and_end_reason_has_words():
    engine = engine_for("dice-forge")
    s = engine.new_game({"game_id": "w", "seats": 2}, "seed")
    rng = random.Random(3)
    seen = set()
    while not engine.is_over(s):
        visible = engine.view(s, 0)
        assert visible["phase"] in WORDS["phases"]
        assert visible["decision"]["kind"] in WORDS["decisions"]
        seen.add(visible["phase"])
        seat = min(engine.to_act(s))
        s, _ = engine.apply(s, seat, engine.random_action(s, seat, rng))
    assert engine.view(s, 0)["phase"] in WORDS["phases"]
    assert engine.result(s)["reason"] in WORDS["end_reasons"]
    assert {"action", "extra"} <= seen


# ---------------------------------------------------------------------------
# F12: the Blacksmith's Hammer


def test_the_hammer_costs_one_moon_shard_and_gives_no_glory():
    s, after = feat("blacksmiths_hammer", [0, 0, 1, 0])
    assert gains(s, after) == [0, 0, -1, 0]
    assert after.hammers[0] == 1 and after.hammer[0] == 0
    assert E.view(after, 1)["players"][0]["hammers"] == 1


def hammer_roll(face, track, res=(0, 0, 0, 0)):
    _s, after = rolled(face, res=res, cards=("silver_hind", "blacksmiths_hammer"))
    after.hammer = [track, 0]
    return after


def test_gold_gained_with_a_hammer_is_split_by_its_owner():
    after = hammer_roll("gold3", 0)
    assert after.pending == [[0, "hammer:3"]] and E.to_act(after) == {0}
    assert E.legal_actions(after, 0) == [{"kind": "hammer", "gold": k} for k in range(4)]
    assert E.default_action(after, 0) == {"kind": "hammer", "gold": 0}
    split, events = E.apply(after, 0, {"kind": "hammer", "gold": 2})
    assert split.hammer[0] == 2 and split.res[0][E.GOLD] == 1 and split.pending == []
    assert {"type": "hammer", "seat": 0, "gold": 2, "glory": 0} in events
    with pytest.raises(E.IllegalAction):
        E.apply(after, 0, {"kind": "hammer", "gold": 4})


def test_a_mixed_face_sends_only_its_gold_to_the_split():
    after = hammer_roll("gold2+moon1", 0)
    assert after.res[0][E.MOON] == 1 and after.pending == [[0, "hammer:2"]]


def test_the_hammer_gives_ten_glory_at_15_and_fifteen_more_at_30_then_is_done():
    after = hammer_roll("gold4", 13)
    split, _ = E.apply(after, 0, {"kind": "hammer", "gold": 3})
    assert split.hammer[0] == 16 and split.res[0][E.GLORY] == 10 and split.res[0][E.GOLD] == 1
    after = hammer_roll("gold3", 28)
    assert E.legal_actions(after, 0)[-1] == {"kind": "hammer", "gold": 2}  # room for 2 only
    done, _ = E.apply(after, 0, {"kind": "hammer", "gold": 2})
    assert done.res[0][E.GLORY] == 15 and done.res[0][E.GOLD] == 1
    assert done.hammers[0] == 0 and done.hammer[0] == 0
    # Once the hammer is done, gold goes to the reserve at once.
    again = with_rolls(done, [4])
    again.used = [[], []]
    again.phase = "reinforce"
    again.pending = []
    later, _ = E.apply(again, 0, {"kind": "reinforce", "card": "silver_hind", "die": 0})
    assert later.pending == [] and later.res[0][E.GOLD] == 4


def test_wild_spirits_and_the_owl_gold_go_through_the_hammer_too():
    s = scenario(2, res={0: [0, 3, 0, 0]}, cards={0: ["blacksmiths_hammer"]})
    after, _ = E.apply(s, 0, {"kind": "feat", "card": "wild_spirits"})
    assert after.pending == [[0, "hammer:3"]] and after.res[0][E.MOON] == 3
    s = scenario(
        2,
        res={0: [0, 0, 0, 0]},
        cards={0: ["blacksmiths_hammer", "guardians_owl"]},
        phase="reinforce",
    )
    after, _ = E.apply(s, 0, {"kind": "reinforce", "card": "guardians_owl", "resource": "gold"})
    assert after.pending == [[0, "hammer:1"]]


def test_gold_waiting_for_a_split_goes_to_the_reserve_once_the_hammer_is_done():
    after = hammer_roll("gold3", 28)
    after.pending = [[0, "hammer:3"], [0, "hammer:4"]]
    done, _ = E.apply(after, 0, {"kind": "hammer", "gold": 2})
    assert done.pending == [] and done.res[0][E.GOLD] == 1 + 4


# ---------------------------------------------------------------------------
# F14-F19: the first-game cards that bring more rules


def feat_with(card, res, rolls=(), seats=2, extra=None, others=None):
    """Seat 0 performs ``card`` (``extra`` fields: die, slot) with scripted rolls; a chest
    and 2 more sun shards keep the turn at the extra action. ``others``: other seats'
    reserves."""
    res = [res[0], res[1] + 2, res[2], res[3]]
    s = scenario(seats, res={0: res, **(others or {})}, cards={0: ["blacksmiths_chest"]})
    s = with_rolls(s, list(rolls))
    action = {"kind": "feat", "card": card, **(extra or {})}
    assert action in E.legal_actions(s, 0)
    after, events = E.apply(s, 0, action)
    assert card in after.cards[0] and after.stacks[E.CARD_NAMES.index(card)] == seats - 1
    assert after.pawns[0] == E.CARDS[card]["island"]
    return s, after, events


def blessed(dice, rolls, res=(0, 0, 0, 0)):
    """Seat 0, with ``dice``, receives the next turn's divine blessing (3 seats: one
    blessing each, seat 0 first) with its two rolls ``rolls``; the others roll 1s."""
    s = scenario(3, res={0: list(res)}, dice={0: dice}, phase="extra", active=2)
    s = with_rolls(s, [*rolls, 1, 1, 1, 1])
    after, events = E.apply(s, 2, {"kind": "end_turn"})
    assert after.active == 0
    return s, after, events


def test_the_satyrs_take_two_of_the_faces_the_other_players_roll():
    s, after, events = feat_with("satyrs", [0, 0, 3, 0], rolls=[6, 6, 1, 5], seats=3)
    # Seat 1 rolled a sun shard and 2 glory, seat 2 a gold and a moon shard: for nobody.
    assert after.res[1] == s.res[1] and after.res[2] == s.res[2]
    assert after.up[1] == [5, 5] and after.up[2] == [0, 4]
    assert after.pending == [[0, "satyrs:sun1|glory2|gold1|moon1"]] and E.to_act(after) == {0}
    assert len(E.legal_actions(after, 0)) == 6  # every pair of the four faces
    taken, events = E.apply(after, 0, {"kind": "satyrs", "take": [1, 3]})
    assert gains(s, taken) == [0, 0, -3 + 1, 6 + 2]
    assert {"type": "satyrs", "seat": 0, "faces": ["glory2", "moon1"]} in events
    for bad in ([2, 2], [0, 1.0], [3, 1], "01", [0, True]):
        with pytest.raises(E.IllegalAction):
            E.apply(after, 0, {"kind": "satyrs", "take": bad})
    # With two players the other player's two faces are the only two: taken at once.
    s, after, _ = feat_with("satyrs", [0, 0, 3, 0], rolls=[6, 6])
    assert after.pending == [] and gains(s, after) == [0, 1, -3, 6 + 2]


def test_the_helmet_forges_the_x3_face_which_triples_the_other_die():
    s, after, events = feat_with(
        "helmet_of_invisibility", [0, 0, 5, 0], extra={"die": 0, "slot": 2}
    )
    assert gains(s, after) == [0, 0, -5, 4]
    assert after.dice[0][0][2] == "x3" and after.up[0][0] == 2
    assert events[-1]["removed"] == "gold1" and events[-1]["card"] == "helmet_of_invisibility"
    # A divine blessing: the x3 triples the Dark die's face.
    x3_light = ["x3"] * 6
    _s, after, _ = blessed([x3_light, list(E.START_DICE[1])], [1, 6])
    assert after.res[0][E.GLORY] == 6
    _s, after, _ = blessed([x3_light, ["gold1/sun1/moon1"] * 6], [1, 1])
    assert [0, "3*gold1/sun1/moon1"] in after.pending
    chosen, _ = E.apply(after, 0, {"kind": "choose", "resource": "sun"})
    assert chosen.res[0][E.SUN] == 3
    # Two x3 faces give nothing; the x3 alone (a minor blessing) gives nothing.
    _s, after, _ = blessed([x3_light, ["x3"] * 6], [1, 1])
    assert after.res[0] == [0, 0, 0, 0]
    s, after = rolled("x3")
    assert gains(s, after) == [0, 0, 0, 0] and not after.pending


def test_the_cancer_gives_two_divine_blessings():
    # Slot 0 of both dice (2 gold), then the sun shard and the 2 glory.
    s, after, events = feat_with("cancer", [0, 0, 6, 0], rolls=[1, 1, 6, 6])
    assert gains(s, after) == [2, 1, -6, 8 + 2]
    assert [e["face"] for e in events if e["type"] == "roll"] == [
        "gold1",
        "gold1",
        "sun1",
        "glory2",
    ]


def test_the_minotaur_makes_the_other_players_lose_what_they_roll():
    s, after, _ = feat_with(
        "minotaur",
        [0, 3, 0, 0],
        rolls=[1, 6, 6, 5],
        seats=3,
        others={1: [5, 2, 2, 3], 2: [0, 0, 0, 0]},
    )
    assert gains(s, after) == [0, -3, 0, 8]
    assert after.res[1] == [4, 2, 2, 1]  # a gold and 2 glory lost
    assert after.res[2] == [0, 0, 0, 0]  # nothing to lose: never below 0
    # A choice face: its roller chooses what to lose; an x3 triples the loss.
    dice = {1: [["x3"] * 6, ["gold1/sun1/moon1"] * 6]}
    s = scenario(2, res={0: [0, 3, 0, 0], 1: [5, 5, 5, 0]}, dice=dice)
    after, _ = E.apply(with_rolls(s, [1, 1]), 0, {"kind": "feat", "card": "minotaur"})
    assert after.pending == [[1, "-3*gold1/sun1/moon1"]] and E.to_act(after) == {1}
    lost, events = E.apply(after, 1, {"kind": "choose", "resource": "moon"})
    assert lost.res[1] == [5, 5, 2, 0]
    assert {"type": "loss", "seat": 1, "resource": "moon", "amount": 3} in events


def test_the_mirror_forges_its_face_which_copies_a_face_another_player_shows():
    s, after, _ = feat_with("mirror_of_the_abyss", [0, 5, 0, 0], extra={"die": 1, "slot": 5})
    assert gains(s, after) == [0, -5, 0, 10]
    assert after.dice[0][1][5] == "mirror" and after.up[0][1] == 5
    # Rolled (a minor blessing): copy one of the faces the other player shows.
    s = scenario(
        2,
        dice={0: [["mirror"] * 6, list(E.START_DICE[1])], 1: [["gold6"] * 6, ["x3"] * 6]},
        cards={0: ["silver_hind"]},
        phase="reinforce",
    )
    s.up = [[0, 0], [0, 0]]
    after, _ = E.apply(
        with_rolls(s, [2]), 0, {"kind": "reinforce", "card": "silver_hind", "die": 0}
    )
    # The other player's x3 cannot be copied.
    assert after.pending == [[0, "mirror:1:gold6"]]
    assert E.legal_actions(after, 0) == [{"kind": "mirror", "face": "gold6"}]
    copied, events = E.apply(after, 0, {"kind": "mirror", "face": "gold6"})
    assert copied.res[0][E.GOLD] == s.res[0][E.GOLD] + 6
    assert {"type": "mirror", "seat": 0, "face": "gold6"} in events
    # With the x3 on the other die the copy counts three times.
    _s, after, _ = blessed([["x3"] * 6, ["mirror"] * 6], [1, 1])
    assert after.pending[0][0] == 0 and after.pending[0][1].startswith("mirror:3:")
    copied, _ = E.apply(after, 0, {"kind": "mirror", "face": "gold1"})
    assert copied.res[0][E.GOLD] == 3


def test_the_sphinx_rolls_the_chosen_die_four_times():
    s, after, events = feat_with("sphinx", [0, 6, 0, 0], rolls=[6, 5, 1, 6], extra={"die": 1})
    assert [e["face"] for e in events if e["type"] == "roll"] == [
        "glory2",
        "moon1",
        "gold1",
        "glory2",
    ]
    assert all(e["die"] == 1 for e in events if e["type"] == "roll")
    assert gains(s, after) == [1, -6, 1, 10 + 4]
    assert {"kind": "feat", "card": "sphinx"} not in E.legal_actions(s, 0)
    for bad in ({}, {"die": 1.0}, {"die": 2}, {"die": 1, "slot": 0}):
        with pytest.raises(E.IllegalAction):
            E.apply(s, 0, {"kind": "feat", "card": "sphinx", **bad})


# ---------------------------------------------------------------------------
# F11, F20-F22: alternate cards, each swapped for the first-game card of its location


def alternate(variants, seats=2, **kwargs):
    s = scenario(seats, **kwargs)
    game = E.new_game({"game_id": "alt", "seats": seats, "variants": variants}, "alt")
    s.config, s.deck, s.stacks = game.config, game.deck, list(game.stacks)
    return s


def test_an_alternate_card_takes_the_place_of_its_location_s_first_game_card():
    game = E.new_game({"game_id": "a", "seats": 3, "variants": ["typhon", "great_bear"]}, "s")
    assert game.config["variants"] == ["great_bear", "typhon"]  # in the table's order
    names = [feat["card"] for feat in E.view(game, 0)["feats"]]
    assert names == [
        {"silver_hind": "great_bear", "hydra": "typhon"}.get(n, n) for n in E.CARD_NAMES
    ]
    for info in E.ALTERNATES.values():
        replaced = E.CARDS[info["replaces"]]
        assert (info["island"], info["cost"]) == (replaced["island"], replaced["cost"])
    for bad in (["typhon", "typhon"], ["hydra"], "typhon", [1]):
        with pytest.raises(E.ConfigError):
            E.new_game({"game_id": "a", "seats": 2, "variants": bad}, "s")
    s = alternate(["typhon"], res={0: [0, 5, 5, 0]})
    assert {"kind": "feat", "card": "hydra"} not in E.legal_actions(s, 0)
    with pytest.raises(E.IllegalAction):
        E.apply(s, 0, {"kind": "feat", "card": "hydra"})


def test_the_great_bear_gives_three_glory_to_whoever_ousts_or_is_ousted_holding_it():
    # (2 sun shards keep the turn at the extra action: no new blessings blur the figures.)
    s = alternate(["great_bear"], res={0: [0, 2, 2, 0], 1: [0, 0, 0, 0]}, pawns={1: "moon_2"})
    after, events = E.apply(with_rolls(s, [1, 1]), 0, {"kind": "feat", "card": "great_bear"})
    assert after.res[0] == [0, 2, 0, 2] and after.pawns == ["moon_2", None]
    assert not any(e["type"] == "great_bear" for e in events)  # bought after the ousting
    # Seat 1, holding two bears, is ousted; seat 0, holding one, ousts.
    s = alternate(
        ["great_bear"],
        res={0: [0, 2, 4, 0], 1: [0, 0, 0, 0]},
        pawns={1: "moon_3"},
        cards={0: ["great_bear"], 1: ["great_bear", "great_bear"]},
    )
    after, events = E.apply(with_rolls(s, [1, 1]), 0, {"kind": "feat", "card": "ferryman"})
    assert after.res[0][E.GLORY] == 12 + 3 and after.res[1] == [2, 0, 0, 6]
    assert {"type": "great_bear", "seat": 1, "glory": 6} in events


def test_the_triton_gives_a_token_spent_once_for_six_gold_or_two_shards():
    s = alternate(["triton"], res={0: [0, 6, 0, 0]})
    after, _ = E.apply(s, 0, {"kind": "feat", "card": "triton"})
    assert after.res[0] == [0, 2, 0, 8] and E.tokens(after, 0) == 1
    assert E.view(after, 1)["players"][0]["tokens"] == {"triton": 1}
    assert "tokens" not in E.view(scenario(2), 0)["players"][0]  # games without Tritons
    # Spent in a later turn's step 3 (or 2 or 4): the action stays to be taken.
    later = alternate(["triton"], res={0: [0, 0, 0, 0]}, cards={0: ["triton"]})
    offered = [a for a in E.legal_actions(later, 0) if a["kind"] == "triton"]
    assert offered == [{"kind": "triton", "resource": r} for r in ("gold", "sun", "moon")]
    for resource, gain in (("gold", [6, 0, 0, 0]), ("sun", [0, 2, 0, 0]), ("moon", [0, 0, 2, 0])):
        spent, events = E.apply(later, 0, {"kind": "triton", "resource": resource})
        assert gains(later, spent) == gain and spent.phase == "action"
        assert E.tokens(spent, 0) == 0 and not any(
            a["kind"] == "triton" for a in E.legal_actions(spent, 0)
        )
        with pytest.raises(E.IllegalAction):
            E.apply(spent, 0, {"kind": "triton", "resource": resource})
    with pytest.raises(E.IllegalAction):
        E.apply(later, 0, {"kind": "triton", "resource": "glory"})
    # Only its owner, only as the active player.
    other = alternate(["triton"], cards={1: ["triton"]})
    with pytest.raises(E.IllegalAction):
        E.apply(other, 1, {"kind": "triton", "resource": "gold"})


def test_the_typhon_gives_a_glory_point_for_each_face_in_the_inventory():
    s = alternate(["typhon"], res={0: [8, 5, 5, 0]})
    s, _ = E.apply(s, 0, {"kind": "forge", "pool": 0, "face": "gold3", "die": 0, "slot": 0})
    s, _ = E.apply(s, 0, {"kind": "forge", "pool": 1, "face": "moon1", "die": 0, "slot": 1})
    s.phase, s.bought = "action", []  # as after an extra action
    after, events = E.apply(s, 0, {"kind": "feat", "card": "typhon"})
    assert after.res[0][E.GLORY] == 16 + 2
    assert {"type": "typhon", "seat": 0, "glory": 2} in events


def test_the_cerberus_gives_a_token_that_repeats_the_faces_showing_in_step_two():
    s = alternate(["cerberus"], res={0: [0, 2, 4, 0]})
    after, _ = E.apply(s, 0, {"kind": "feat", "card": "cerberus"})
    assert after.res[0] == [0, 2, 0, 6] and E.tokens(after, 0, "cerberus") == 1
    assert E.view(after, 1)["players"][0]["tokens"] == {"cerberus": 1}
    # Its owner's next turn stops at step 2 (no reinforcement card needed) for the token.
    after.phase, after.active = "extra", 1
    turn, _ = E.apply(with_rolls(after, [1] * 8), 1, {"kind": "end_turn"})
    assert turn.active == 0 and turn.phase == "reinforce"
    assert E.legal_actions(turn, 0) == [{"kind": "cerberus"}, {"kind": "done"}]
    # The two faces showing take effect again (an x3 would triple the other).
    dice = {0: [["gold6"] * 6, ["moon2+glory2"] * 6]}
    s = alternate(["cerberus"], dice=dice, cards={0: ["cerberus"]}, phase="reinforce")
    doubled, events = E.apply(s, 0, {"kind": "cerberus"})
    assert gains(s, doubled) == [6, 0, 2, 2]
    assert {"type": "cerberus", "seat": 0, "faces": ["gold6", "moon2+glory2"]} in events
    assert E.tokens(doubled, 0, "cerberus") == 0 and doubled.phase == "action"
    with pytest.raises(E.IllegalAction):
        E.apply(doubled, 0, {"kind": "cerberus"})
    # Only in step 2.
    s = alternate(["cerberus"], cards={0: ["cerberus"]})
    assert {"kind": "cerberus"} not in E.legal_actions(s, 0)


def test_the_sentinel_s_two_blessings_may_turn_each_shard_into_two_glory():
    # The sun shard and 2 glory, then 1 gold and the moon shard.
    s = alternate(["sentinel"], res={0: [0, 2, 6, 0]})
    after, events = E.apply(with_rolls(s, [6, 6, 1, 5]), 0, {"kind": "feat", "card": "sentinel"})
    assert after.pending == [[0, "convert:sentinel:1:1"], [0, "convert:sentinel:2:1"]]
    assert after.res[0] == [1, 2, 0, 6 + 2]  # the gold and the glory at once
    assert E.legal_actions(after, 0) == [{"kind": "convert", "count": k} for k in (0, 1)]
    converted, events = E.apply(after, 0, {"kind": "convert", "count": 1})
    assert converted.res[0][E.GLORY] == 8 + 2 and converted.res[0][E.SUN] == 2
    kept, _ = E.apply(converted, 0, {"kind": "convert", "count": 0})
    assert kept.res[0][E.MOON] == 1 and kept.pending == []
    # An "or" face rolled then converts too, once chosen.
    s = alternate(["sentinel"], res={0: [0, 2, 6, 0]}, dice={0: [["gold1/sun1/moon1"] * 6] * 2})
    after, _ = E.apply(with_rolls(s, [1] * 4), 0, {"kind": "feat", "card": "sentinel"})
    assert after.pending[0] == [0, "sentinel@gold1/sun1/moon1"]
    assert len(after.pending) == 4  # the four faces of the two blessings
    chosen, _ = E.apply(after, 0, {"kind": "choose", "resource": "moon"})
    assert chosen.pending[-1] == [0, "convert:sentinel:2:1"] and len(chosen.pending) == 4
    chosen, _ = E.apply(after, 0, {"kind": "choose", "resource": "gold"})
    assert len(chosen.pending) == 3 and chosen.res[0][E.GOLD] == 1  # gold: no conversion


def test_the_cyclops_four_rolls_may_turn_their_gold_into_glory():
    dice = {0: [list(E.START_DICE[0]), ["gold3"] * 4 + ["glory2", "moon1"]]}
    s = alternate(["cyclops"], res={0: [0, 8, 0, 0]}, dice=dice, cards={0: ["blacksmiths_hammer"]})
    action = {"kind": "feat", "card": "cyclops", "die": 1}
    after, _ = E.apply(with_rolls(s, [1, 5, 6, 2]), 0, action)
    assert after.res[0] == [0, 2, 1, 8 + 2]
    assert after.pending == [[0, "convert:cyclops:0:3"], [0, "convert:cyclops:0:3"]]
    # Two of 3 gold become glory; the third still goes through the hammer's split.
    after, events = E.apply(after, 0, {"kind": "convert", "count": 2})
    assert after.res[0][E.GLORY] == 12 and after.pending[-1] == [0, "hammer:1"]
    assert {
        "type": "convert",
        "seat": 0,
        "card": "cyclops",
        "resource": "gold",
        "count": 2,
        "glory": 2,
    } in events
    assert {"kind": "feat", "card": "cyclops"} not in E.legal_actions(s, 0)


def test_the_celestial_ship_forges_its_face_which_buys_a_face_two_gold_cheaper():
    s = alternate(["celestial_ship"], res={0: [0, 4, 0, 0]})
    action = {"kind": "feat", "card": "celestial_ship", "die": 0, "slot": 1}
    after, _ = E.apply(s, 0, action)
    assert after.res[0] == [0, 2, 0, 4] and after.dice[0][0][1] == "ship"
    # Rolled (a minor blessing): one Sanctuary face at its price less 2 gold, forged now.
    dice = {0: [["ship"] * 6, list(E.START_DICE[1])]}
    s = alternate(["celestial_ship"], res={0: [1, 0, 0, 0]}, dice=dice, cards={0: ["silver_hind"]})
    s.phase = "reinforce"
    rolled_ship, _ = E.apply(
        with_rolls(s, [3]), 0, {"kind": "reinforce", "card": "silver_hind", "die": 0}
    )
    assert rolled_ship.pending == [[0, "ship"]]
    offered = E.legal_actions(rolled_ship, 0)
    assert {a.get("pool") for a in offered} == {0, 1, 2, 3, None}  # 2 or 3 gold, less 2
    buy = {"kind": "ship", "pool": 2, "face": "gold4", "die": 1, "slot": 4}
    bought, events = E.apply(rolled_ship, 0, buy)
    assert bought.res[0][E.GOLD] == 0 and bought.dice[0][1][4] == "gold4"
    assert bought.up[0][1] == 4 and bought.pools[2] == ["gold4"]
    assert events[0]["removed"] == "moon1" and events[0]["card"] == "celestial_ship"
    declined, _ = E.apply(rolled_ship, 0, {"kind": "ship"})
    assert declined.res[0] == rolled_ship.res[0] and declined.pending == []
    with pytest.raises(E.IllegalAction):
        E.apply(rolled_ship, 0, {**buy, "pool": 4, "face": "gold6"})  # 4 - 2 > 1 gold
    # The Typhon counts a face the Ship's forge removed.
    assert E._removed_faces(bought, 0) == 1


# ---------------------------------------------------------------------------
# F28, F29: the Tenacious Boar and the Guardian's Shield


def test_the_tenacious_boar_forges_its_face_on_another_player_who_keeps_it():
    s = alternate([E.BOAR_CARD], seats=3, res={0: [0, 2, 3, 0]})
    offered = [a for a in E.legal_actions(s, 0) if a.get("card") == E.BOAR_CARD]
    assert offered == [{"kind": "feat", "card": E.BOAR_CARD, "bearer": b} for b in (1, 2)]
    for bad in (0, 3, None):  # not oneself, not an empty seat
        with pytest.raises(E.IllegalAction):
            E.apply(s, 0, {"kind": "feat", "card": E.BOAR_CARD, "bearer": bad})
    after, _ = E.apply(s, 0, {"kind": "feat", "card": E.BOAR_CARD, "bearer": 2})
    assert after.res[0] == [0, 2, 0, 4] and after.pending == [[2, "boar:0"]]
    assert E.to_act(after) == {2}  # the bearer chooses which face it replaces
    assert len(E.legal_actions(after, 2)) == 12
    placed, events = E.apply(after, 2, {"kind": "boar", "die": 1, "slot": 4})
    assert placed.dice[2][1][4] == "boar0" and placed.up[2][1] == 4 and not placed.pending
    assert events[0]["removed"] == "moon1" and events[0]["card"] == E.BOAR_CARD
    assert E._removed_faces(placed, 2) == 1 and E._removed_faces(placed, 0) == 0
    # The face stays for good: no forge, Ship, Helmet or second Boar goes over it.
    later = placed.clone()
    later.active, later.phase, later.res[2] = 2, "action", [12, 5, 5, 0]
    assert not any(
        (a.get("die"), a.get("slot")) == (1, 4) for a in E.legal_actions(later, 2) if "slot" in a
    )
    with pytest.raises(E.IllegalAction, match="Boar"):
        E.apply(later, 2, {"kind": "forge", "pool": 0, "face": "gold3", "die": 1, "slot": 4})


def test_the_boar_s_face_gives_its_bearer_a_shard_and_its_owner_a_choice_each_time():
    dice = {1: [["boar0"] * 6, ["gold1"] * 6]}
    s = alternate([E.BOAR_CARD], res={0: [0, 0, 0, 0], 1: [0, 0, 0, 0]}, dice=dice)
    s.phase = "extra"  # seat 0 ends its turn: seat 1's turn starts with two blessings each
    after, events = E.apply(with_rolls(s, [1] * 8), 0, {"kind": "end_turn"})
    assert {"type": "boar", "seat": 0, "bearer": 1} in events
    assert sorted(after.pending) == [[0, E.BOAR_GAIN]] * 2 + [[1, "boar0"]] * 2
    assert E.legal_actions(after, 1) == [
        {"kind": "choose", "resource": "sun"},
        {"kind": "choose", "resource": "moon"},
    ]
    assert [a["resource"] for a in E.legal_actions(after, 0)] == ["sun", "moon", "glory"]
    owner, _ = E.apply(after, 0, {"kind": "choose", "resource": "glory"})
    assert owner.res[0][E.GLORY] == 3
    bearer, _ = E.apply(owner, 1, {"kind": "choose", "resource": "moon"})
    assert bearer.res[1][E.MOON] == 1
    # The Minotaur: the bearer loses a shard, the owner still gains (once, also tripled).
    s = scenario(2, res={0: [0, 5, 0, 0], 1: [0, 1, 1, 0]}, dice={1: [["boar0"] * 6, ["x3"] * 6]})
    after, events = E.apply(with_rolls(s, [1, 1]), 0, {"kind": "feat", "card": "minotaur"})
    assert sorted(after.pending) == [[0, E.BOAR_GAIN], [1, "-3*boar0"]]
    lost, _ = E.apply(after, 1, {"kind": "choose", "resource": "sun"})
    assert lost.res[1][E.SUN] == 0


def test_the_guardian_s_shield_forges_a_face_of_choice_worth_five_glory_beside_its_match():
    s = alternate([E.SHIELD_CARD], seats=3, res={0: [0, 5, 0, 0]})
    offered = [a for a in E.legal_actions(s, 0) if a.get("card") == E.SHIELD_CARD]
    assert {a["face"] for a in offered} == set(E.SHIELDS) and len(offered) == 48
    action = {"kind": "feat", "card": E.SHIELD_CARD, "face": "shield_sun", "die": 0, "slot": 2}
    after, _ = E.apply(s, 0, action)
    assert after.res[0] == [0, 2, 0, 6] and after.dice[0][0][2] == "shield_sun"
    assert E._removed_faces(after, 0) == 1
    # Each face once a game: the sun shield is gone for the next player.
    after.active, after.phase, after.res[1] = 1, "action", [0, 3, 0, 0]
    faces = {a["face"] for a in E.legal_actions(after, 1) if a.get("card") == E.SHIELD_CARD}
    assert faces == {"shield_gold", "shield_moon", "shield_glory"}
    with pytest.raises(E.IllegalAction):
        E.apply(after, 1, {**action, "slot": 3})


@pytest.mark.parametrize(
    "shield, other, gained",
    [
        ("shield_gold", "gold1", [1, 0, 0, 5]),  # the match: 5 glory
        ("shield_gold", "sun1", [0, 3 - 2, 0, 0]),  # none: the shield's 3 gold (sun: +1)
        ("shield_sun", "sun1", [0, 1, 0, 5]),
        ("shield_moon", "gold2+moon1", [2, 0, 1, 5]),
        ("shield_glory", "glory2", [0, 0, 0, 7]),
        ("shield_glory", "x3", [0, 0, 0, 9]),  # tripled: its own resource
        ("shield_moon", "shield_glory", [0, 0, 2, 3]),  # two shields: no match
    ],
)
def test_each_shield_face_in_a_divine_blessing(shield, other, gained):
    s = scenario(2, dice={0: [[shield] * 6, [other] * 6]}, res={0: [0, 0, 0, 0]})
    s.phase = "extra"
    s.active = 1
    after, events = E.apply(with_rolls(s, [1] * 8), 1, {"kind": "end_turn"})
    once = gains(s, after)
    if shield == "shield_gold" and other == "sun1":
        assert once == [6, 2, 0, 0]  # two blessings with two players
    else:
        assert once == [2 * g for g in gained]
    assert any(e["type"] == "shield" and e["seat"] == 0 for e in events)


def test_a_shield_rolled_alone_or_lost_to_the_minotaur():
    s, after = rolled("shield_moon")  # a minor blessing: no other die, its own resource
    assert gains(s, after) == [0, 0, 2, 0]
    s = scenario(2, res={0: [0, 5, 0, 0], 1: [5, 0, 0, 9]})
    s.dice[1] = [["shield_gold"] * 6, ["gold1"] * 6]
    after, _ = E.apply(with_rolls(s, [1, 1]), 0, {"kind": "feat", "card": "minotaur"})
    assert after.res[1] == [4, 0, 0, 4]  # 1 gold, and 5 glory for the matching shield


def test_bots_play_the_boar_and_the_shield():
    from games.engines.dice_forge.bots import HeuristicBot, RandomBot

    config = {"game_id": "b", "seats": 3, "variants": [E.BOAR_CARD, E.SHIELD_CARD]}
    seen = set()
    for game in range(6):
        state = E.new_game({**config, "game_id": f"b{game}"}, f"s{game}")
        bots = [HeuristicBot(game), RandomBot(game), HeuristicBot(game + 1)]
        while not E.is_over(state):
            seat = min(E.to_act(state))
            action = bots[seat].choose(state, seat)
            assert action in E.legal_actions(state, seat) or action["kind"] == "forge"
            state, events = E.apply(state, seat, action)
            seen |= {e["type"] for e in events} | {action.get("card")}
    assert {"boar", "shield", E.BOAR_CARD, E.SHIELD_CARD} <= seen
