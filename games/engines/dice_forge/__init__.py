"""The Dice Forge rules engine: pure Python, no Django imports.

The rules live in ``engine``; verifiable rolls in ``games.engines.seeded`` and
``verify``; bots in ``bots``. docs/engine.md describes the contract and
docs/rules-dice-forge.md every ruling.
"""

from ..seeded import commitment, new_seed
from .bots import HeuristicBot, RandomBot

# What the play page draws beyond the view (games/dice_forge_board.py): the Sanctuary's
# prices, the special faces and the cards' conversions.
from .engine import (
    BOAR_CARD,
    BOAR_FACES,
    BOAR_FORGE,
    CONVERTING,
    FORGING_CARDS,
    GAME,
    JUDGE,
    MIRROR,
    POOLS,
    SEATS,
    SHIELD_CARD,
    SHIELD_GLORY,
    SHIELDS,
    SHIP,
    SHIP_DISCOUNT,
    SPECTATOR,
    SYSTEM,
    TRITON_GAINS,
    X3,
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
# Bots playing a whole game at once: Dice Forge ends by itself after its 9 or 10 rounds,
# so the time limit stands in only as a far backstop.
SIMULATED_LIMIT_TURN = 10_000

# The game's name as people read it (a name: the same in every language).
LABEL = "Dice Forge"

__all__ = [
    "LABEL",
    "BOAR_CARD",
    "BOAR_FACES",
    "BOAR_FORGE",
    "BOTS",
    "CONVERTING",
    "FORGING_CARDS",
    "MIRROR",
    "POOLS",
    "SHIELD_CARD",
    "SHIELD_GLORY",
    "SHIELDS",
    "SHIP",
    "SHIP_DISCOUNT",
    "TRITON_GAINS",
    "X3",
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
