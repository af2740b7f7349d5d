"""The engine contract, checked the same way on every registered engine (docs/engine.md,
"The contract"): random games terminate with placings, replay and JSON reproduce every
state, a view never shows what its viewer may not see (and the bots decide from their
view only), every offered action is accepted and unoffered ones refused, verify
re-derives every roll. A new entry in ``ENGINES`` is checked here without more code.
"""

from __future__ import annotations

import json
import math
import random
import types

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines import CONTRACT, ENGINES, missing_from_contract
from tests.hypothesis_profiles import examples, examples_per_shard

NAMES = sorted(ENGINES)
RELAXED = settings(
    max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
MAX_DECISIONS = 5000
# The view check of a 6-seat IRONDIE game costs seconds (every state, several viewers, a
# view that carries the whole log): it runs as this many shards that parallel workers share.
VIEW_SHARDS = 2


@st.composite
def games(draw, engine):
    seats = draw(st.sampled_from(seat_counts(engine)))
    config_seed = draw(st.integers(0, 2**32))
    return {
        "config": engine.random_config(random.Random(config_seed), seats=seats, game_id="conf"),
        "seed": draw(st.text(min_size=1, max_size=12)),
        "choices": draw(st.integers(0, 2**32)),
    }


def seat_counts(engine):
    """The seat counts to play: ``SEAT_COUNTS`` when an engine has gaps in its range
    (IRONDIE: 2, 4 or 6), else every count of ``SEATS``."""
    low, high = engine.SEATS
    return getattr(engine, "SEAT_COUNTS", range(low, high + 1))


# The replay and view checks of a long game cost the square of its length (each state
# carries the whole log): every state of the first EVERY_STATE_UNTIL decisions is checked,
# then a random LATER_SHARE of them, and always the final state. Each phase of a game
# comes back many times, so the 25 games of a run still check every kind of state.
EVERY_STATE_UNTIL = 40
LATER_SHARE = 1 / 3


def sampled(engine, on_state):
    """``on_state`` at the states the expensive checks visit (see EVERY_STATE_UNTIL)."""
    decisions = [0]

    def on_some_states(s, rng):
        decisions[0] += 1
        early = decisions[0] <= EVERY_STATE_UNTIL
        if early or engine.is_over(s) or rng.random() < LATER_SHARE:
            on_state(s, rng)

    return on_some_states


def roundtrip(obj):
    return json.loads(json.dumps(obj))


def assert_json_data(obj) -> None:
    """Fail unless ``obj`` comes back equal from JSON (``roundtrip(obj) == obj``): dicts
    with string keys, lists (a tuple comes back a list), strings, numbers other than NaN,
    booleans and None. A late view of a long game is some 10,000 values; this walk (no
    call per value, strings and integers passed over in place) takes a tenth of the time
    of writing them out and reading them back."""
    stack = [obj]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is dict:
            for key, value in item.items():
                if type(key) is not str:
                    assert isinstance(key, str), f"a key that is not a string: {key!r}"
                value_kind = type(value)
                if value_kind is not str and value_kind is not int and value is not None:
                    stack.append(value)
        elif kind is list:
            for value in item:
                value_kind = type(value)
                if value_kind is not str and value_kind is not int and value is not None:
                    stack.append(value)
        elif isinstance(item, (str, int)) or item is None:  # bool is an int
            pass
        elif isinstance(item, float):
            assert not math.isnan(item), "NaN does not come back equal from JSON"
        elif isinstance(item, dict):
            for key in item:
                assert isinstance(key, str), f"a key that is not a string: {key!r}"
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        else:
            raise AssertionError(f"not JSON data: {item!r} ({type(item).__name__})")


def seats_of(engine, game):
    return range(engine.seat_count(game["config"]))


def play_random(engine, game, on_state=None):
    """A random game; ``on_state(state, rng)`` before every decision and at the end.
    The games layer's time limit comes at ``SIMULATED_LIMIT_TURN``, as for bots."""
    rng = random.Random(game["choices"])
    s = engine.new_game(game["config"], game["seed"])
    limited = False
    for _ in range(MAX_DECISIONS):
        if engine.is_over(s):
            break
        if not limited and s.turn >= engine.SIMULATED_LIMIT_TURN:
            s, events = engine.enable_sudden_death(s)
            assert roundtrip(events) == events
            limited = True
            continue
        if on_state:
            on_state(s, rng)
        seat = rng.choice(sorted(engine.to_act(s)))
        action = rng.choice(engine.legal_actions(s, seat))
        s, events = engine.apply(s, seat, roundtrip(action))
        assert roundtrip(events) == events
    else:
        raise AssertionError("the game did not end")
    if on_state:
        on_state(s, rng)
    return s


def test_every_registered_engine_provides_the_contract():
    for name in NAMES:
        assert missing_from_contract(ENGINES[name]) == [], name
        assert name == ENGINES[name].GAME
    assert "placings" in CONTRACT and "teams" in CONTRACT


@pytest.mark.parametrize("name", NAMES)
def test_a_bad_config_is_a_config_error(name):
    engine = ENGINES[name]
    for bad in (None, {"seats": "many", "sets": "none"}, {"surprise": True}):
        with pytest.raises(engine.ConfigError):
            engine.new_game(bad, "seed")


@pytest.mark.parametrize("name", NAMES)
@RELAXED
@given(data=st.data())
def test_random_games_terminate_with_placings(name, data):
    engine = ENGINES[name]
    game = data.draw(games(engine))
    s = play_random(engine, game)
    seats = list(seats_of(engine, game))
    assert engine.to_act(s) == set()
    assert all(engine.legal_actions(s, seat) == [] for seat in seats)
    assert all(engine.default_action(s, seat) is None for seat in seats)
    places = engine.placings(s)
    assert len(places) == len(seats) and min(places) == 1
    # A team shares one placing; placings rank the teams, ties shared (1, 1, 3).
    team = engine.teams(game["config"])
    by_team = {}
    for seat in seats:
        assert by_team.setdefault(team[seat], places[seat]) == places[seat]
    for t, place in by_team.items():
        assert place == 1 + sum(1 for other in by_team.values() if other < place), t
    outcome = engine.result(s)
    assert roundtrip(outcome) == outcome


@pytest.mark.parametrize("name", NAMES)
@RELAXED
@given(data=st.data())
def test_replay_and_json_reproduce_every_state(name, data):
    engine = ENGINES[name]
    game = data.draw(games(engine))

    def on_state(s, rng):
        restored = engine.State.from_dict(roundtrip(s.to_dict()))
        assert restored == s
        for seat in engine.to_act(s):
            assert engine.legal_actions(restored, seat) == engine.legal_actions(s, seat)

    s = play_random(engine, game, sampled(engine, on_state))
    log = roundtrip(s.to_dict()["log"])
    assert engine.replay(game["config"], game["seed"], log) == s


def views_check(engine, viewers):
    """The per-state check of hidden information (``on_state`` for ``play_random``)."""

    def on_state(s, rng):
        # The seats to act, one other seat and the spectator (all of them is slow at 8).
        acting = engine.to_act(s)
        others = [v for v in viewers if v not in acting and v != engine.SPECTATOR]
        chosen = [*sorted(acting), engine.SPECTATOR, *rng.sample(others, min(1, len(others)))]
        judge_view = engine.view(s, engine.JUDGE)
        for viewer in chosen:
            visible = engine.view(s, viewer)
            assert_json_data(visible)
            altered = engine.alter_hidden(s, viewer)
            assert engine.view(altered, viewer) == visible
            if not engine.is_over(s):
                assert visible["seed"] is None
                # The alteration is real: the judge sees the difference.
                assert engine.view(altered, engine.JUDGE) != judge_view
            if viewer in engine.to_act(s):
                # Bots decide from their own view: hidden changes change nothing.
                for kind, bot in engine.BOTS.items():
                    seed = rng.randrange(1000)
                    assert bot(seed=seed).choose(s, viewer) == bot(seed=seed).choose(
                        altered, viewer
                    ), kind
        assert judge_view["seed"] == s.seed

    return on_state


@pytest.mark.parametrize("shard", range(VIEW_SHARDS))
@pytest.mark.parametrize("name", NAMES)
@settings(RELAXED, max_examples=examples_per_shard(25, VIEW_SHARDS))
@given(data=st.data())
def test_views_never_show_what_the_viewer_may_not_see(name, shard, data):
    engine = ENGINES[name]
    game = data.draw(games(engine))
    viewers = [*seats_of(engine, game), engine.SPECTATOR]
    play_random(engine, game, sampled(engine, views_check(engine, viewers)))


def mutations(action, rng, pool):
    """Actions near ``action`` (one field changed, a key added or dropped, another kind)
    and actions offered elsewhere in the game (``pool``)."""
    out = [{**action, "extra": 1}, {**action, "kind": "no-such-kind"}, {}]
    keys = [k for k in action if k != "kind"]
    if keys:
        out.append({k: v for k, v in action.items() if k != keys[0]})
    for key in keys:
        value = action[key]
        if isinstance(value, bool) or value is None:
            changed = [1, "x"]
        elif isinstance(value, int):
            changed = [value + 1, value - 1, -1, 99, str(value), True]
        elif isinstance(value, list):
            changed = [[], [*value, value[-1] if value else 0], value[:-1], "x"]
            if value and isinstance(value[0], int) and not isinstance(value[0], bool):
                changed.append([value[0] + 1, *value[1:]])
                changed.append([-1, *value[1:]])
        else:
            changed = [None, 0]
        out += [{**action, key: c} for c in changed]
    out += rng.sample(pool, min(4, len(pool)))
    return out


def actions_check(engine, seats):
    """The per-state check of legal actions (``on_state`` for ``play_random``)."""
    pool: list = []

    def on_state(s, rng):
        before = s.to_dict()
        acting = engine.to_act(s)
        for seat in seats:
            legal = engine.legal_actions(s, seat)
            if seat not in acting:
                assert legal == [] and engine.default_action(s, seat) is None
                continue
            assert legal, "a seat to act has something to do"
            for action in rng.sample(legal, min(4, len(legal))):
                engine.apply(s, seat, action)
            assert engine.default_action(s, seat) in legal
            assert engine.random_action(s, seat, rng) in legal
            candidates = mutations(rng.choice(legal), rng, pool)
            for candidate in candidates:
                if candidate in legal:
                    continue
                with pytest.raises(engine.IllegalAction):
                    engine.apply(s, seat, candidate)
            for other in seats:
                if other not in acting:
                    with pytest.raises(engine.IllegalAction):
                        engine.apply(s, other, rng.choice(legal))
            pool.extend(rng.sample(legal, min(2, len(legal))))
        with pytest.raises(engine.IllegalAction):
            engine.apply(s, len(seats), {"kind": "anything"})
        assert s.to_dict() == before

    return on_state


@pytest.mark.parametrize("name", NAMES)
@RELAXED
@given(data=st.data())
def test_every_offered_action_is_accepted_and_unoffered_ones_refused(name, data):
    engine = ENGINES[name]
    game = data.draw(games(engine))
    play_random(engine, game, actions_check(engine, list(seats_of(engine, game))))


@pytest.mark.parametrize("name", NAMES)
@RELAXED
@given(data=st.data())
def test_verify_re_derives_every_roll(name, data):
    engine = ENGINES[name]
    game = data.draw(games(engine))
    s = play_random(engine, game)
    record = engine.view(s, engine.SPECTATOR)
    report = engine.verify(roundtrip(record))
    assert report["ok"], report["problems"]
    assert report["rolls_checked"] == len(s.rolls)
    assert report["result"] == engine.result(s)
    assert not engine.verify(record, seed=game["seed"] + "x")["ok"]
    if s.rolls:
        index = data.draw(st.integers(0, len(s.rolls) - 1))
        tampered = roundtrip(record)
        tampered["rolls"][index] = tampered["rolls"][index] % 6 + 1
        assert not engine.verify(tampered)["ok"]


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=examples(10), deadline=None)
@given(data=st.data())
def test_same_seed_and_actions_give_the_same_game(name, data):
    engine = ENGINES[name]
    game = data.draw(games(engine))
    assert play_random(engine, game) == play_random(engine, game)


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=examples(10), deadline=None)
@given(data=st.data())
def test_apply_without_events_makes_the_same_states(name, data):
    """``apply(..., events=False)`` gives None for the events and the same new state, so
    a game played without them is the same game, state by state."""
    engine = ENGINES[name]
    game = data.draw(games(engine))
    rng = random.Random(game["choices"])
    quiet = engine.new_game(game["config"], game["seed"])
    full = engine.new_game(game["config"], game["seed"])
    limited = False
    for _ in range(MAX_DECISIONS):
        if engine.is_over(full):
            break
        if not limited and full.turn >= engine.SIMULATED_LIMIT_TURN:
            full, _ = engine.enable_sudden_death(full)
            quiet, _ = engine.enable_sudden_death(quiet)
            limited = True
            continue
        seat = rng.choice(sorted(engine.to_act(full)))
        action = rng.choice(engine.legal_actions(full, seat))
        full, events = engine.apply(full, seat, action)
        quiet, none = engine.apply(quiet, seat, action, events=False)
        assert isinstance(events, list) and none is None
        assert quiet == full
        assert quiet.to_dict() == full.to_dict()
    else:
        raise AssertionError("the game did not end")
    assert engine.is_over(quiet)


@pytest.mark.parametrize("name", NAMES)
def test_bots_finish_games_at_every_seat_count(name):
    engine = ENGINES[name]
    for seats in seat_counts(engine):
        rng = random.Random(seats)
        config = engine.random_config(rng, seats=seats, game_id=f"bots-{seats}")
        s = engine.new_game(config, f"seed-{seats}")
        bots = [engine.BOTS[("heuristic", "random")[seat % 2]](seed=seat) for seat in range(seats)]
        while not engine.is_over(s):
            if s.turn >= engine.SIMULATED_LIMIT_TURN and s.sudden_death_from is None:
                s, _ = engine.enable_sudden_death(s)
                continue
            seat = min(engine.to_act(s))
            s, _ = engine.apply(s, seat, bots[seat].choose(s, seat))
        assert sorted(engine.placings(s))[0] == 1


@pytest.mark.parametrize(
    "data",
    [
        {"log": [[0, {"kind": "throw", "die": 3, "targets": [1, 2]}]], "x": 1.5, "y": None},
        [True, False, "s", -(2**70), float("inf")],
        [{"nested": [[[{"deep": [1.0, None, True]}]]]}],
    ],
)
def test_assert_json_data_passes_what_comes_back_equal_from_json(data):
    assert roundtrip(data) == data
    assert_json_data(data)


@pytest.mark.parametrize(
    "data",
    [
        {"log": [[0, (1, 2)]]},
        {"pending": {1: "x"}},
        {"value": float("nan")},
        [{"dice": {1, 2}}],
        [{"kind": b"bytes"}],
        [object()],
        [[[{"deep": [1, (2,)]}]]],
        {"deep": [{"x": [{"y": {2: 1}}]}]},
    ],
)
def test_assert_json_data_fails_what_does_not_come_back_equal(data):
    with pytest.raises((TypeError, ValueError, AssertionError)):
        assert roundtrip(data) == data
    with pytest.raises(AssertionError):
        assert_json_data(data)


def broken(engine, **replaced):
    """The engine with some of its contract replaced (to show the checks catch faults)."""
    namespace = types.SimpleNamespace(**{n: getattr(engine, n) for n in CONTRACT})
    for key, value in replaced.items():
        setattr(namespace, key, value)
    return namespace


@pytest.mark.parametrize("name", NAMES)
def test_the_checks_catch_a_leak_and_a_false_offer(name):
    engine = ENGINES[name]
    game = {
        "config": engine.random_config(random.Random(1), game_id="teeth"),
        "seed": "teeth",
        "choices": 1,
    }
    seats = list(seats_of(engine, game))
    leaky = broken(engine, view=lambda s, v: {**engine.view(s, v), "seed": s.seed})
    with pytest.raises(AssertionError):
        play_random(leaky, game, views_check(leaky, [*seats, engine.SPECTATOR]))
    bad_offer = {"kind": "no-such-kind"}
    offering = broken(
        engine,
        legal_actions=lambda s, p: (
            [*engine.legal_actions(s, p), bad_offer] if p in engine.to_act(s) else []
        ),
    )
    with pytest.raises(engine.IllegalAction):
        play_random(engine, game, actions_check(offering, seats))
