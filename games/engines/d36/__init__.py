"""The 36d6 rules engine: pure Python, no Django imports.

The rules live in ``engine``; verifiable rolls in ``games.engines.seeded`` and
``verify``; bots in ``bots``. docs/engine.md describes the contract and
docs/rules-36d6.md every ruling.
"""

from ..seeded import commitment, new_seed
from .bots import HeuristicBot, RandomBot
from .engine import (
    GAME,
    JUDGE,
    SEATS,
    SPECTATOR,
    SYSTEM,
    ConfigError,
    IllegalAction,
    State,
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
from .verify import verify
from .words import WORDS, bonus_amounts

BOTS = {"heuristic": HeuristicBot, "random": RandomBot}
# Bots playing a whole game at once: 36d6 ends by itself (the six quiet turns), so the
# time limit stands in only as a far backstop.
SIMULATED_LIMIT_TURN = 10_000

# The game's name as people read it (a name: the same in every language).
LABEL = "36d6"

__all__ = [
    "LABEL",
    "BOTS",
    "GAME",
    "JUDGE",
    "SEATS",
    "SIMULATED_LIMIT_TURN",
    "SPECTATOR",
    "SYSTEM",
    "WORDS",
    "ConfigError",
    "IllegalAction",
    "State",
    "alter_hidden",
    "apply",
    "bonus_amounts",
    "commitment",
    "default_action",
    "enable_sudden_death",
    "is_over",
    "legal_actions",
    "new_game",
    "new_seed",
    "placings",
    "random_action",
    "random_config",
    "replay",
    "result",
    "seat_count",
    "teams",
    "to_act",
    "verify",
    "view",
]
