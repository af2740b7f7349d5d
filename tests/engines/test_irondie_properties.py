"""Properties over random games: termination, zones, ranges, replay, secrecy, legality."""

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines.irondie import engine as E
from games.engines.irondie.dice import Colour, DieType
from tests.hypothesis_profiles import examples

DIE = st.builds(
    lambda t, c, r: {"type": t.value, "colour": c.value, "rare": r},
    st.sampled_from(list(DieType)),
    st.sampled_from(list(Colour)),
    st.booleans(),
)


@st.composite
def playing_sets(draw):
    """Any legal playing set: one die of each class, six more, at most three rare."""
    by_class = {
        cls: [t for t in DieType if t.die_class == cls] for cls in {t.die_class for t in DieType}
    }
    dice = [
        {
            "type": draw(st.sampled_from(types)).value,
            "colour": draw(st.sampled_from(list(Colour))).value,
            "rare": False,
        }
        for types in by_class.values()
    ]
    dice += draw(st.lists(DIE, min_size=6, max_size=6))
    dice = draw(st.permutations(dice))
    rare_seen = 0
    for d in dice:
        if d["rare"]:
            rare_seen += 1
            if rare_seen > 3:
                d["rare"] = False
    return dice


GAMES = st.fixed_dictionaries(
    {
        "sets": st.tuples(playing_sets(), playing_sets()),
        "seed": st.text(min_size=1, max_size=12),
        "choices": st.integers(0, 2**32),
        "sudden_death_turn": st.sampled_from([None, 2, 3, 6]),
    }
)
RELAXED = settings(
    max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def make_config(game):
    return {
        "game_id": "prop",
        "sets": list(game["sets"]),
        "sudden_death_turn": game["sudden_death_turn"],
    }


CLOCK_TURN = 20  # stands in for the tournament clock's 20-minute sudden death


def play_random(game, on_state, max_decisions=3000):
    """Play a random game, calling ``on_state(state, rng)`` before every decision.

    Without sudden death nothing in the rulebook bounds a game (two passive players can
    go on for ever), so like the clock layer we switch it on at turn CLOCK_TURN.
    """
    rng = random.Random(game["choices"])
    s = E.new_game(make_config(game), game["seed"])
    decisions = 0
    while not E.is_over(s):
        if s.turn >= CLOCK_TURN and s.sudden_death_from is None:
            s, _ = E.enable_sudden_death(s)
        on_state(s, rng)
        player = rng.choice(sorted(E.to_act(s)))
        s, _ = E.apply(s, player, rng.choice(E.legal_actions(s, player)))
        decisions += 1
        assert decisions < max_decisions, "game did not end"
    on_state(s, rng)
    return s


def check_zones_and_values(s):
    view = E.view(s, "judge")
    for p in (0, 1):
        mine = [d for d in view["dice"] if d["owner"] == p]
        assert len(mine) == 9 and {d["id"] for d in mine} == set(range(9 * p, 9 * p + 9))
    for d in view["dice"]:
        assert d["zone"] in E.ZONE_NAMES
        if d["zone"] in ("battle", "clash"):
            assert 1 <= d["value"] <= 6
        else:
            assert d["value"] is None
        # Dice sit in the clash zone only during a duel (or where a duel ended the game).
        if d["zone"] == "clash":
            assert s.phase in (E.DUEL, E.OVER)


@RELAXED
@given(GAMES)
def test_random_games_end_with_dice_in_one_zone_and_values_in_range(game):
    s = play_random(game, lambda s, rng: check_zones_and_values(s))
    assert E.result(s)["winner"] in (0, 1)
    assert E.result(s)["reason"] in ("no_life_dice", "roll_off")


@RELAXED
@given(GAMES)
def test_replay_and_json_reproduce_the_state(game):
    def on_state(s, rng):
        restored = E.State.from_dict(json.loads(json.dumps(s.to_dict())))
        assert restored == s
        assert E.legal_actions(restored, 0) == E.legal_actions(s, 0)

    s = play_random(game, on_state)
    assert E.replay(make_config(game), game["seed"], s.log) == s


def hidden_from(s, viewer):
    """``s`` with everything ``viewer`` may not see replaced by something else."""
    other = s.clone()
    other.seed = s.seed + "-other"
    if s.phase in E._SIMULTANEOUS:
        for p in E.PLAYERS:
            if p != viewer and s.choices[p] is not None:
                other.choices[p] = ("altered",)
                other.log = [
                    (actor, {"kind": "altered"} if i in s.secret_log and actor == p else action)
                    for i, (actor, action) in enumerate(other.log)
                ]
    return other


@RELAXED
@given(GAMES)
def test_views_do_not_depend_on_hidden_information(game):
    def on_state(s, rng):
        for viewer in (0, 1, "spectator"):
            visible = E.view(s, viewer)
            if not E.is_over(s):
                altered = hidden_from(s, viewer)
                assert E.view(altered, viewer) == visible
                assert visible["seed"] is None
                # The alteration is real: a judge sees the difference.
                assert E.view(altered, "judge") != E.view(s, "judge")
            json.dumps(visible)

    play_random(game, on_state)


def random_candidate(rng):
    """An arbitrary, mostly illegal action."""
    ids = list(range(-1, 19))
    kind = rng.choice(["split", "bonus", "throw", "decline", "pass", "damage", "return", "x"])
    if kind == "split":
        return {"kind": kind, "throw": sorted(rng.sample(ids, rng.randrange(4)))}
    if kind == "bonus":
        return {
            "kind": kind,
            "targets": [rng.choice([*ids, None]) for _ in range(rng.randrange(3))],
        }
    if kind == "throw":
        return {
            "kind": kind,
            "die": rng.choice(ids),
            "targets": sorted(rng.sample(ids, rng.randrange(3))),
        }
    if kind == "damage":
        return {
            "kind": kind,
            "amounts": [[rng.choice(ids), rng.randrange(-1, 8)] for _ in range(rng.randrange(3))],
        }
    if kind == "return":
        return {"kind": kind, "die": rng.choice([*ids, None])}
    if kind == "x":
        return {"kind": "decline", "extra": 1}
    return {"kind": kind}


@RELAXED
@given(GAMES)
def test_every_offered_action_is_accepted_and_unoffered_ones_are_rejected(game):
    def on_state(s, rng):
        before = s.to_dict()
        for player in E.PLAYERS:
            legal = E.legal_actions(s, player)
            if player not in E.to_act(s):
                assert legal == []
            for action in rng.sample(legal, min(4, len(legal))):
                E.apply(s, player, action)
            if legal:
                assert E.default_action(s, player) in legal
                assert E.random_action(s, player, rng) in legal
            for _ in range(6):
                candidate = random_candidate(rng)
                if candidate in legal:
                    continue
                try:
                    E.apply(s, player, candidate)
                except E.IllegalAction:
                    pass
                else:
                    raise AssertionError(f"accepted an unoffered action {candidate}")
        assert s.to_dict() == before

    play_random(game, on_state)


@settings(max_examples=examples(30), deadline=None)
@given(GAMES)
def test_same_seed_and_actions_give_the_same_game(game):
    first = play_random(game, lambda s, rng: None)
    second = play_random(game, lambda s, rng: None)
    assert first == second and first.rolls == second.rolls
