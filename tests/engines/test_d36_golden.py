"""Golden master for 36d6: fixed seeds, configs and random choices give exactly the games
they gave when these digests were recorded (actions, events, legal actions, views, the
final state). Speed work must leave them unchanged; to re-record after a deliberate
rules change, run this file as a script and paste its output below.
"""

from __future__ import annotations

import hashlib
import json
import random

from games.engines.d36 import engine as E
from games.engines.d36.bots import HeuristicBot, RandomBot

CONFIGS = [
    {"seats": 2, "variants": []},
    {"seats": 3, "variants": ["stronghold"]},
    {"seats": 2, "variants": ["elemental"]},
    {"seats": 4, "variants": ["team", "elemental", "stronghold"]},
    {"seats": 2, "variants": ["zombie"]},
    {"seats": 6, "variants": ["team", "zombie"]},
]


def _feed(digest, obj) -> None:
    digest.update(json.dumps(obj, sort_keys=True).encode())


def game_digest(index: int) -> str:
    config = {"game_id": f"golden-{index}", **CONFIGS[index % len(CONFIGS)]}
    rng = random.Random(index)
    bots = [
        (HeuristicBot if (seat + index) % 3 == 0 else RandomBot)(index * 10 + seat)
        for seat in range(config["seats"])
    ]
    state = E.new_game(config, f"seed-{index}")
    digest = hashlib.sha256()
    while not E.is_over(state):
        seat = state.actor
        if rng.random() < 0.1:
            _feed(digest, [E.legal_actions(state, seat), E.view(state, seat)])
        action = E.default_action(state, seat) if rng.random() < 0.1 else None
        action = action or bots[seat].choose(state, seat)
        state, events = E.apply(state, seat, action)
        _feed(digest, [seat, action, events])
    _feed(digest, state.to_dict())
    return digest.hexdigest()[:20]


COUNT = 18
GOLDEN = [
    "5cd34d4c56b3d202ebf5",
    "47db37501c977754c1e3",
    "c76985e8797ee38db661",
    "17a2ac7a69fc887491be",
    "2062494d8557f19e760f",
    "ff47be6fc9751edca9d8",
    "a30bd7e876eab3eeef40",
    "91e9cde81456491e9fd4",
    "28f8c48720a2aa51ff03",
    "ede371d1026f29e1aad6",
    "e459f97664c3a6376462",
    "08be6118da793c02ceec",
    "6fd24c95fc053638066d",
    "b45892c09fc869294da5",
    "be333550d6e9222a845e",
    "e81092897bf4223bf00e",
    "0863726da6ed2db02398",
    "155d509b2ee8cd1068fa",
]


def test_games_match_the_recorded_digests():
    assert [game_digest(i) for i in range(COUNT)] == GOLDEN


if __name__ == "__main__":
    print([game_digest(i) for i in range(COUNT)])
