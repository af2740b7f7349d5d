"""Golden master for Dice Forge: fixed seeds, configs and random choices give exactly the
games they gave when these digests were recorded (actions, events, legal actions, views,
the final state). Speed work must leave them unchanged; to re-record after a deliberate
rules change, run this file as a script and paste its output below.
"""

from __future__ import annotations

import hashlib
import json
import random

from games.engines.dice_forge import engine as E
from games.engines.dice_forge.bots import HeuristicBot, RandomBot

SEATS = [2, 3, 4]


def _feed(digest, obj) -> None:
    digest.update(json.dumps(obj, sort_keys=True).encode())


def game_digest(index: int) -> str:
    seats = SEATS[index % len(SEATS)]
    config = {"game_id": f"golden-{index}", "seats": seats}
    rng = random.Random(index)
    bots = [
        (HeuristicBot if (seat + index) % 3 == 0 else RandomBot)(index * 10 + seat)
        for seat in range(seats)
    ]
    state = E.new_game(config, f"seed-{index}")
    digest = hashlib.sha256()
    while not E.is_over(state):
        seat = min(E.to_act(state))
        if rng.random() < 0.1:
            _feed(digest, [E.legal_actions(state, seat), E.view(state, seat)])
        action = E.default_action(state, seat) if rng.random() < 0.1 else None
        action = action or bots[seat].choose(state, seat)
        state, events = E.apply(state, seat, action)
        _feed(digest, [seat, action, events])
    _feed(digest, state.to_dict())
    return digest.hexdigest()[:20]


COUNT = 9
GOLDEN = [
    "0a1efbc49dea46dc1db6",
    "9bd373003049a48b47a7",
    "b863de0751f2767eebc3",
    "c9b7a7ed822f63e7a0bc",
    "244fc80b382d013e7e31",
    "534ad92f99705a48a575",
    "b2eca7e2acd989ebc2f9",
    "779e16f46199ace29d2a",
    "53cffdfdaac0451c805b",
]


def test_games_match_the_recorded_digests():
    assert [game_digest(i) for i in range(COUNT)] == GOLDEN


if __name__ == "__main__":
    print([game_digest(i) for i in range(COUNT)])
