"""The IRONDIE rules engine: pure Python, no Django imports.

The dice catalogue (types, classes, colours, affinity) lives in ``dice``; the rules in
``engine`` (the two-player game) and ``team`` (the team game, "Playing with More
Players"); ``seats`` hands each state to the right one; verifiable rolls in ``randomness`` and ``verify``; bots in ``bots``.
docs/engine.md describes the API and docs/rules.md every ruling.
"""

from .bots import SIMULATED_LIMIT_TURN
from .engine import JUDGE, SPECTATOR, SYSTEM, ConfigError, IllegalAction, State
from .randomness import commitment, new_seed
from .seats import (
    GAME,
    SEAT_COUNTS,
    SEATS,
    alter_hidden,
    apply,
    default_action,
    enable_sudden_death,
    is_over,
    legal_actions,
    new_game,
    placings,
    random_action,
    random_config,
    replay,
    result,
    seat_count,
    teams,
    to_act,
    view,
)
from .team_bots import HeuristicBot, RandomBot
from .verify import verify
from .words import WORDS, bonus_amounts

# The bots by kind (they read only the seat's view and legal actions).
BOTS = {"heuristic": HeuristicBot, "random": RandomBot}

# The game's name as people read it (a name: the same in every language).
LABEL = "IRONDIE"

__all__ = [
    "LABEL",
    "GAME",
    "SEATS",
    "SEAT_COUNTS",
    "alter_hidden",
    "placings",
    "random_config",
    "seat_count",
    "teams",
    "BOTS",
    "WORDS",
    "bonus_amounts",
    "SIMULATED_LIMIT_TURN",
    "JUDGE",
    "SPECTATOR",
    "SYSTEM",
    "ConfigError",
    "IllegalAction",
    "State",
    "apply",
    "commitment",
    "default_action",
    "enable_sudden_death",
    "is_over",
    "legal_actions",
    "new_game",
    "new_seed",
    "random_action",
    "replay",
    "result",
    "to_act",
    "verify",
    "view",
]
