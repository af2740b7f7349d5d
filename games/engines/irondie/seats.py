"""IRONDIE's part of the N-seat contract (docs/engine.md, "The contract"): two seats
(the two-player game, ``engine``) or four or six (the team game, ``team``; seat ``s`` is
on team ``s % 2``); placings from the winner; a random legal config; the
hidden-information probe the conformance suite uses; and the contract's functions,
each handing a team game's state to ``team`` and any other to ``engine``."""

from __future__ import annotations

import random
from collections.abc import Iterable

from ..errors import gettext_noop
from . import engine as E
from . import team as T
from .dice import Colour, DieClass, DieType

GAME = "irondie"
SEATS = (2, 6)
# The seat counts a game may have (SEATS is only the range): two players, or two teams
# of two or three.
SEAT_COUNTS = (2, *T.TEAM_SEAT_COUNTS)

_CLASSES = {c: [t for t in DieType if t.die_class == c] for c in DieClass}


def seat_count(config: dict) -> int:
    return len(config["sets"]) if T.is_team_config(config) else 2


def teams(config: dict) -> list[int]:
    """Each seat's team: the two-player game's seats are teams 0 and 1; in a team game
    seat ``s`` is on team ``s % 2``."""
    return [T.team_of(seat) for seat in range(seat_count(config))]


def placings(state: E.State) -> list[int] | None:
    """[1, 2] or [2, 1] by the winner; [1, 1] for a game ended without one. A team
    game: 1 for every seat of the winning team, 2 for the others."""
    if type(state) is T.TeamState:
        return T.placings(state)
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
    if seats is None:
        seats = 2
    if seats not in SEAT_COUNTS:
        raise E.ConfigError(
            gettext_noop(
                "IRONDIE is played by two players or by two teams of two or three players."
            )
        )
    return {"game_id": game_id, "sets": [random_set(rng) for _ in range(seats)]}


def alter_hidden(state: E.State, viewer) -> E.State:
    """A copy of ``state`` with everything ``viewer`` may not see changed: the seed (for
    anyone but a judge, while the game runs) and the other player's pending secret
    choice (the battle split, the damage distribution, the end-of-turn return)."""
    if type(state) is T.TeamState:
        return T.alter_hidden(state, viewer)
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


# ---------------------------------------------------------------------------
# The contract's functions: a team game's state goes to ``team``, any other to
# ``engine`` (the two-player game, unchanged).


def new_game(config: dict, seed: str):
    """Start a game: two sets, the two-player game; four or six, the team game."""
    if T.is_team_config(config):
        return T.new_game(config, seed)
    return E.new_game(config, seed)


# ``to_act``, ``apply`` and ``random_action``, the calls of every decision, are the team
# game's functions, which hand a two-player state to ``engine`` themselves (one call
# less per decision).
to_act = T.to_act


def legal_actions(state, seat) -> list[dict]:
    if type(state) is T.TeamState:
        return T.legal_actions(state, seat)
    return E.legal_actions(state, seat)


apply = T.apply


def view(state, viewer) -> dict:
    return T.view(state, viewer) if type(state) is T.TeamState else E.view(state, viewer)


def is_over(state) -> bool:
    return state.phase == E.OVER


def result(state) -> dict | None:
    return T.result(state) if type(state) is T.TeamState else E.result(state)


def default_action(state, seat) -> dict | None:
    if type(state) is T.TeamState:
        return T.default_action(state, seat)
    return E.default_action(state, seat)


random_action = T.random_action


def enable_sudden_death(state):
    if type(state) is T.TeamState:
        return T.enable_sudden_death(state)
    return E.enable_sudden_death(state)


def replay(config: dict, seed: str, log: Iterable):
    if T.is_team_config(config):
        return T.replay(config, seed, log)
    return E.replay(config, seed, log)
