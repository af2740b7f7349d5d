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
    "25aba67ba6ab8b042e42",
    "424fc3ed22e3aa82c63a",
    "856bafedfd4039ea13ac",
    "e4fe0172c1586bc438e8",
    "bd52f387595b15060dab",
    "24160ba7c07082b87118",
    "9f2c5c748bd8542d5b0a",
    "a36f2cf478458c0f9957",
    "56adc1274197813f975f",
]


def test_games_match_the_recorded_digests():
    assert [game_digest(i) for i in range(COUNT)] == GOLDEN


if __name__ == "__main__":
    print([game_digest(i) for i in range(COUNT)])
