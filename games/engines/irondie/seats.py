"""IRONDIE's part of the N-seat contract (docs/engine.md, "The contract"): always two
seats, each its own team; placings from the winner; a random legal config; and the
hidden-information probe the conformance suite uses."""

from __future__ import annotations

import random

from ..errors import gettext_noop
from . import engine as E
from .dice import Colour, DieClass, DieType

GAME = "irondie"
SEATS = (2, 2)

_CLASSES = {c: [t for t in DieType if t.die_class == c] for c in DieClass}


def seat_count(config: dict) -> int:
    return 2


def teams(config: dict) -> list[int]:
    return [0, 1]


def placings(state: E.State) -> list[int] | None:
    """[1, 2] or [2, 1] by the winner; [1, 1] for a game ended without one."""
    outcome = E.result(state)
    if outcome is None:
        return None
    winner = outcome["winner"]
    if winner is None:
        return [1, 1]
    return [1 if seat == winner else 2 for seat in E.PLAYERS]


def random_set(rng: random.Random) -> list[dict]:
    """A random legal playing set: every class, six more dice, at most three rare."""
    types = [rng.choice(_CLASSES[c]) for c in DieClass] + [
        rng.choice(list(DieType)) for _ in range(6)
    ]
    rng.shuffle(types)
    rare = set(rng.sample(range(9), rng.randrange(4)))
    return [
        {"type": t.value, "colour": rng.choice(list(Colour)).value, "rare": i in rare}
        for i, t in enumerate(types)
    ]


def random_config(rng: random.Random, seats: int | None = None, game_id: str = "random") -> dict:
    if seats not in (None, 2):
        raise E.ConfigError(gettext_noop("IRONDIE is a game for two players."))
    return {"game_id": game_id, "sets": [random_set(rng), random_set(rng)]}


def alter_hidden(state: E.State, viewer) -> E.State:
    """A copy of ``state`` with everything ``viewer`` may not see changed: the seed (for
    anyone but a judge, while the game runs) and the other player's pending secret
    choice (the battle split, the damage distribution, the end-of-turn return)."""
    other = state.clone()
    if viewer == E.JUDGE or state.phase == E.OVER:
        return other
    other.seed = state.seed + "-other"
    if state.phase in E._SIMULTANEOUS:
        for p in E.PLAYERS:
            if p != viewer and state.choices[p] is not None:
                other.choices[p] = ("altered",)
                other.log = [
                    (actor, {"kind": "altered"} if i in state.secret_log and actor == p else action)
                    for i, (actor, action) in enumerate(other.log)
                ]
    return other
