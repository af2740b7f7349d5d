"""The engine contract: config checks, JSON, errors, secrecy, seed commitment, verify, docs."""

import hashlib
import json
import random
import re
from pathlib import Path

import pytest

from games.engines import ENGINES, UnknownEngine, engine_for, missing_from_contract
from games.engines.irondie import engine as E
from games.engines.irondie import verify
from games.engines.irondie.bots import HeuristicBot, RandomBot, play_game
from games.engines.irondie.randomness import roll_sequence
from games.engines.irondie.testing import MIXED_SET, config

ROOT = Path(__file__).resolve().parents[2]


def finished_game(seed="verify-seed"):
    state, _ = play_game(config(), seed, (RandomBot(1), RandomBot(2)))
    return state


def test_registry_names_the_engine():
    # The registry's functions hand a team game to ``team`` and the two-player game to
    # ``engine``; the bots are the two-player bots, extended to team seats.
    registered = engine_for("irondie")
    assert registered.new_game(config(), "s") == E.new_game(config(), "s")
    assert issubclass(registered.BOTS["heuristic"], HeuristicBot)
    assert issubclass(registered.BOTS["random"], RandomBot)
    assert set(registered.BOTS) == {"heuristic", "random"}


def test_every_registered_engine_provides_the_whole_contract():
    for name, engine in ENGINES.items():
        assert missing_from_contract(engine) == [], name


def test_an_unknown_game_is_a_clear_error():
    with pytest.raises(UnknownEngine, match="No engine hosts the game “chess”"):
        engine_for("chess")


def test_config_rejects_bad_sets_with_the_catalogue_messages():
    with pytest.raises(E.ConfigError, match="exactly 9 dice"):
        E.new_game(config(set0=MIXED_SET[:8]), "s")
    no_defense = [
        d for d in MIXED_SET if d["type"] not in ("annulator", "barrier", "power_booster")
    ]
    with pytest.raises(E.ConfigError, match="DEFENSE"):
        E.new_game(config(set0=no_defense + MIXED_SET[:3]), "s")
    rare = [{**d, "rare": True} for d in MIXED_SET]
    with pytest.raises(E.ConfigError, match="rare"):
        E.new_game(config(set1=rare), "s")
    with pytest.raises(E.ConfigError, match="Unknown die type"):
        E.new_game(config(set0=[{"type": "laser", "colour": "red"}, *MIXED_SET[1:]]), "s")


def test_commitment_is_published_from_the_start_and_rolls_derive_from_the_seed():
    s = E.new_game(config(), "my-seed")
    assert s.commitment == hashlib.sha256(b"my-seed").hexdigest()
    assert E.view(s, "spectator")["commitment"] == s.commitment
    s, _ = E.apply(s, 0, {"kind": "split", "throw": [0, 7]})
    s, events = E.apply(s, 1, {"kind": "split", "throw": [16]})
    assert s.rolls[:3] == roll_sequence("my-seed", "test", 3)
    (thrown,) = [e["dice"] for e in events if e["type"] == "battle_throw"]
    assert thrown == [[0, s.rolls[0]], [7, s.rolls[1]], [16, s.rolls[2]]]


def test_verify_accepts_a_finished_game_from_its_public_record():
    s = finished_game()
    record = E.view(s, "spectator")
    json.dumps(record)
    report = verify(record)
    assert report["ok"], report["problems"]
    assert report["rolls_checked"] == len(s.rolls) > 0
    assert report["result"] == E.result(s)


def test_verify_reports_a_changed_roll_a_wrong_seed_and_a_forged_log():
    record = E.view(finished_game(), "spectator")
    tampered = {**record, "rolls": [*record["rolls"]]}
    tampered["rolls"][2] = tampered["rolls"][2] % 6 + 1
    report = verify(tampered)
    assert not report["ok"] and any("Roll 2" in p for p in report["problems"])
    report = verify(record, seed="another seed")
    assert "commitment" in report["problems"][0]
    forged = {**record, "log": [[0, {"kind": "split", "throw": [99]}], *record["log"][1:]]}
    assert any("Log entry 0" in p for p in verify(forged)["problems"])
    assert verify({**record, "seed": None})["problems"] == ["The seed is not revealed yet."]


def test_illegal_actions_name_the_rule_and_leave_the_state_unchanged():
    s = E.new_game(config(), "seed")
    before = s.to_dict()
    for action in ({"kind": "split", "throw": [12]}, {"kind": "throw"}, "split", {"kind": "x"}):
        with pytest.raises(E.IllegalAction) as caught:
            E.apply(s, 0, action)
        assert "[rule: " in str(caught.value)
    with pytest.raises(E.IllegalAction):
        E.apply(s, 2, {"kind": "split", "throw": []})
    assert s.to_dict() == before


def test_errors_do_not_echo_the_opponents_secret_split():
    s = E.new_game(config(), "seed")
    s, _ = E.apply(s, 0, {"kind": "split", "throw": [1, 2, 7]})
    for action in ({"kind": "split", "throw": [1, 2, 7]}, {"kind": "split", "throw": [15, 11]}):
        with pytest.raises(E.IllegalAction) as caught:
            E.apply(s, 1, action)
        assert "1, 2, 7" not in str(caught.value) and "[1, 2, 7]" not in str(caught.value)


def test_secret_split_is_visible_to_its_owner_and_the_judge_only():
    s = E.new_game(config(), "seed")
    s, events = E.apply(s, 0, {"kind": "split", "throw": [1, 2, 7]})
    assert events == [{"type": "split_committed", "player": 0}]
    assert E.view(s, 0)["pending"] == {"0": [1, 2, 7]}
    assert E.view(s, "judge")["pending"] == {"0": [1, 2, 7]}
    for viewer in (1, "spectator"):
        view = E.view(s, viewer)
        assert view["pending"] == {} and view["log"] == []
        assert view["committed"] == [True, False]
        assert "[1, 2, 7]" not in json.dumps(view)
    s, _ = E.apply(s, 1, {"kind": "split", "throw": [16]})
    assert E.view(s, "spectator")["log"][0] == [0, {"kind": "split", "throw": [1, 2, 7]}]


def test_view_rejects_unknown_viewers():
    with pytest.raises(ValueError):
        E.view(E.new_game(config(), "seed"), "player 0")


def test_state_round_trips_through_json_mid_game():
    s = E.new_game(config(), "seed")
    rng = random.Random(3)
    for _ in range(25):
        if E.is_over(s):
            break
        player = min(E.to_act(s))
        s, _ = E.apply(s, player, E.random_action(s, player, rng))
        restored = E.State.from_dict(json.loads(json.dumps(s.to_dict())))
        assert restored == s and E.to_act(restored) == E.to_act(s)


def test_default_actions_follow_the_documented_choices():
    s = E.new_game(config(), "seed")
    assert E.default_action(s, 0) == {"kind": "split", "throw": list(range(9))}
    s, _ = E.apply(s, 0, E.default_action(s, 0))
    assert E.default_action(s, 0) is None
    from games.engines.irondie.testing import scenario

    s = scenario(battle={7: 6, 16: 6})
    assert E.default_action(s, 0) == {"kind": "decline"}
    s = scenario(battle={0: 6, 1: 6, 15: 6, 16: 5, 17: 2, 7: 3}, phase=E.DAMAGE)
    # 12 damage over 6, 5, 2: bring each down to 1 (5 + 4 + 1 = 10), then drain the
    # smallest dice first; one die survives, the most any distribution can save.
    assert E.default_action(s, 1) == {"kind": "damage", "amounts": [[15, 5], [16, 5], [17, 2]]}


def test_heuristic_bot_uses_only_its_own_view():
    seen = []

    class Spy(HeuristicBot):
        def decide(self, view, legal, seat):
            seen.append(view["viewer"])
            return super().decide(view, legal, seat)

    play_game(config(), "spy", (Spy(1), RandomBot(2)))
    assert seen and set(seen) == {0}


def test_heuristic_bot_beats_the_random_bot():
    wins = 0
    for i in range(60):
        seat = i % 2
        bots = [RandomBot(i), RandomBot(i)]
        bots[seat] = HeuristicBot(i)
        state, _ = play_game(config(), f"duel-{i}", bots)
        wins += E.result(state)["winner"] == seat
    assert wins >= 40


def test_the_docs_example_runs():
    text = (ROOT / "docs" / "engine.md").read_text()
    example = re.search(r"<!-- example -->\n```python\n(.*?)```", text, re.S).group(1)
    namespace = {}
    exec(compile(example, "docs/engine.md", "exec"), namespace)
    assert namespace["result"]["winner"] in (0, 1)


def test_random_action_draws_what_choice_over_legal_actions_draws():
    """Outside the battle split, random_action(state, p, rng) picks exactly
    rng.choice(legal_actions(state, p)) for the same rng state."""
    import random

    from games.engines.irondie.bots import RandomBot

    checked = set()
    for game in range(60):
        s = E.new_game(config(game_id=f"draw-{game}"), f"seed-{game}")
        bots = (RandomBot(game), RandomBot(game + 1000))
        while not E.is_over(s):
            player = min(E.to_act(s))
            decision = E._decision(s, player)
            if decision != E.SPLIT:
                for k in range(3):
                    legal = E.legal_actions(s, player)
                    expected = random.Random(k).choice(legal)
                    assert E.random_action(s, player, random.Random(k)) == expected
                checked.add(decision)
            s, _ = E.apply(s, player, bots[player].choose(s, player))
    assert checked >= {"bonus", E.OFFER, E.DUEL, E.DAMAGE, E.END_TURN}
