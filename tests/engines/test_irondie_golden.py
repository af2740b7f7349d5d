"""Golden master: fixed seeds and fixed random action sequences give exactly the games
they gave when these digests were recorded (rolls, events, final state, legal actions).

Speed work on the engine must leave every digest unchanged. To re-record after a
deliberate rules change, run this file as a script and paste its output below.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import random

import pytest

from games.engines.irondie import engine as E
from games.engines.irondie.bots import HeuristicBot, RandomBot, play_game
from games.engines.irondie.dice import Colour, DieClass, DieType

CLASSES = {c: [t for t in DieType if t.die_class == c] for c in DieClass}


def random_set(rng: random.Random) -> list[dict]:
    types = [rng.choice(CLASSES[c]) for c in DieClass] + [
        rng.choice(list(DieType)) for _ in range(6)
    ]
    rng.shuffle(types)
    rare = set(rng.sample(range(9), rng.randrange(4)))
    return [
        {"type": t.value, "colour": rng.choice(list(Colour)).value, "rare": i in rare}
        for i, t in enumerate(types)
    ]


def config(index: int) -> dict:
    rng = random.Random(f"golden-{index}")
    return {"game_id": f"golden-{index}", "sets": [random_set(rng), random_set(rng)]}


def _feed(digest, obj) -> None:
    digest.update(json.dumps(obj, sort_keys=True).encode())


def random_bot_game(index: int) -> str:
    """RandomBot against RandomBot; every action, event list and the final state."""
    bots = (RandomBot(2 * index), RandomBot(2 * index + 1))
    state = E.new_game(config(index), f"seed-{index}")
    digest = hashlib.sha256()
    while not E.is_over(state):
        if state.turn >= 30 and state.sudden_death_from is None:
            state, events = E.enable_sudden_death(state)
            _feed(digest, events)
        seat = min(E.to_act(state))
        action = bots[seat].choose(state, seat)
        state, events = E.apply(state, seat, action)
        _feed(digest, [seat, action, events])
    _feed(digest, state.to_dict())
    return digest.hexdigest()[:20]


def legal_choice_game(index: int) -> str:
    """Choices from ``legal_actions`` and ``default_action``; every legal action list,
    every view, a few rejected actions (their messages) and the final state."""
    rng = random.Random(index)
    state = E.new_game(config(index), f"seed-{index}")
    digest = hashlib.sha256()
    while not E.is_over(state):
        for p in E.PLAYERS:
            _feed(digest, [E.legal_actions(state, p), E.default_action(state, p)])
        for viewer in (0, 1, E.JUDGE, E.SPECTATOR):
            _feed(digest, E.view(state, viewer))
        player = min(E.to_act(state))
        probes = [
            (1 - player, {"kind": "pass"}),
            (player, {"kind": "throw", "die": rng.randrange(18), "targets": [rng.randrange(18)]}),
            (player, {"kind": "split", "throw": [rng.randrange(18)]}),
            (player, {"kind": "bonus", "targets": [rng.randrange(18), None]}),
            (player, {"kind": "damage", "amounts": [[rng.randrange(18), rng.randrange(4)]]}),
            (player, {"kind": "return", "die": rng.randrange(18)}),
        ]
        for who, probe in probes:
            try:
                _after, events = E.apply(state, who, probe)
                _feed(digest, ["accepted", events])
            except E.IllegalAction as exc:
                _feed(digest, ["rejected", str(exc)])
        if rng.random() < 0.3:
            action = E.default_action(state, player)
        else:
            action = rng.choice(E.legal_actions(state, player))
        state, events = E.apply(state, player, action)
        _feed(digest, events)
    _feed(digest, state.to_dict())
    return digest.hexdigest()[:20]


def heuristic_game(index: int) -> str:
    bots = [RandomBot(index), RandomBot(index)]
    bots[index % 2] = HeuristicBot(index)
    state, decisions = play_game(config(index), f"seed-{index}", bots)
    return hashlib.sha256(json.dumps([state.to_dict(), decisions]).encode()).hexdigest()[:20]


GAMES = {"random": random_bot_game, "legal": legal_choice_game, "heuristic": heuristic_game}
COUNTS = {"random": 30, "legal": 8, "heuristic": 8}

GOLDEN = {
    "heuristic": [
        "e4ae400162d1fe8f3a99",
        "d9d8581a95ebb4d862a0",
        "4906b181ab015ddaa796",
        "fe628d939c2b20fe5c34",
        "57fb399e478d5ed4c961",
        "618fad444c4c3311d02e",
        "5636cd0efbe315d1de71",
        "3c1fbdb40c9226f29621",
    ],
    "legal": [
        "5313847bda666f47edf6",
        "231bef09aac8195526e4",
        "84c5aaa3b3c8fc38fe18",
        "297282aa47e0b4cc7e57",
        "0674221f8d9534a3b886",
        "b2cafebf8343c4f8dc05",
        "7d2bee7624c50c88b268",
        "9b110f4e1698813f2e25",
    ],
    "random": [
        "cd7be70e27a54ca8c956",
        "317214b293c397a94c6b",
        "a8b17503e2eae33df0df",
        "65c8d558705bfc3a8117",
        "b35395103a760b675ab2",
        "1daa9ab8995627e50f60",
        "4aed23c549010dec5b54",
        "06d6199c9d5f8fad9419",
        "c9e1bd67d9c2ac8eb52a",
        "596ecb1e23beaeb81809",
        "fbf160dd6ee07df01483",
        "fb097cd6505e9132e2b1",
        "028fcb1a1428bda2db70",
        "6e61b757810aa525bff0",
        "3e2ab4499b56ccf855b4",
        "97f775208120ea1f170a",
        "f3f5e4f3d624bcac72c9",
        "a44f01c79c27d5b777b2",
        "0696e960e00cdba5494f",
        "979381b7ba360f6f29d3",
        "d6190d625dcc75097710",
        "5eb2f3f89d49c9d55e8e",
        "6d3f3c0f1f8a76446e6c",
        "753198fa7ed01fa88b26",
        "c28b2c4940b2e63a21cf",
        "89077c88f6d8b9a65db7",
        "945478d146eeed272f83",
        "3fa5084fa2559c2fa59d",
        "e10581d1ee171e0fd8d5",
        "ec4e8a3715f3c92acb2b",
    ],
}


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_games_match_the_recorded_digests(kind):
    got = [GAMES[kind](i) for i in range(COUNTS[kind])]
    assert got == GOLDEN[kind]


if __name__ == "__main__":
    print("GOLDEN = {")
    for kind in sorted(GAMES):
        print(f"    {kind!r}: {[GAMES[kind](i) for i in range(COUNTS[kind])]!r},")
    print("}")


def test_earlier_states_stay_unchanged_while_the_game_goes_on():
    """apply shares unchanged parts between a state and the next one: playing on (and
    rejected actions) must leave every earlier state exactly as it was."""
    for index in range(12):
        bots = (RandomBot(index), RandomBot(index + 100))
        state = E.new_game(config(index), f"keep-{index}")
        history = [(state, json.dumps(state.to_dict(), sort_keys=True))]
        while not E.is_over(state):
            seat = min(E.to_act(state))
            with contextlib.suppress(E.IllegalAction):
                E.apply(state, 1 - seat, {"kind": "pass"})
            state, _ = E.apply(state, seat, bots[seat].choose(state, seat))
            history.append((state, json.dumps(state.to_dict(), sort_keys=True)))
        for old, snapshot in history:
            assert json.dumps(old.to_dict(), sort_keys=True) == snapshot
