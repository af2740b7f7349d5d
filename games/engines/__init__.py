"""Pure Python game engines, one package a game, no Django imports.

Every engine is a package under games/engines/ that exposes the same contract at its
top level (docs/engine.md): ``new_game(config, seed)``, ``to_act``, ``legal_actions``,
``apply``, ``view``, ``is_over``, ``result``, ``default_action``, ``replay``,
``verify``, ``enable_sudden_death``, ``State`` (with ``from_dict``/``to_dict``),
``new_seed``, ``commitment``, the viewer constants ``JUDGE``/``SPECTATOR``/``SYSTEM``,
the errors ``ConfigError``/``IllegalAction``, ``BOTS`` (bot classes by kind, each
choosing from the seat's own view) and ``SIMULATED_LIMIT_TURN`` (the turn from which a
game of two bots played whole at once, with no time passing, is under sudden death),
``WORDS`` (the game's words for people: phases, decisions, end reasons, marked for
translation) and ``bonus_amounts(colour)`` (what a colour bonus adds to each target). The online layer (games/) reaches an engine only
through ``engine_for(session.engine)``, so a new game is one more entry in ``ENGINES``.
"""

from __future__ import annotations

from types import ModuleType

from . import irondie

CONTRACT = (
    "new_game",
    "to_act",
    "legal_actions",
    "apply",
    "view",
    "is_over",
    "result",
    "default_action",
    "replay",
    "verify",
    "enable_sudden_death",
    "State",
    "new_seed",
    "commitment",
    "JUDGE",
    "SPECTATOR",
    "SYSTEM",
    "ConfigError",
    "IllegalAction",
    "BOTS",
    "SIMULATED_LIMIT_TURN",
    "WORDS",
    "bonus_amounts",
)

ENGINES: dict[str, ModuleType] = {"irondie": irondie}


class UnknownEngine(LookupError):
    """A session or event names a game no engine hosts."""


def engine_for(name: str) -> ModuleType:
    try:
        return ENGINES[name]
    except KeyError:
        raise UnknownEngine(f"No engine hosts the game “{name}”.") from None


def missing_from_contract(engine: ModuleType) -> list[str]:
    """The names of the contract an engine does not provide (empty when it conforms)."""
    return [name for name in CONTRACT if not hasattr(engine, name)]
