"""Pure Python game engines, one package a game, no Django imports.

Every engine is a package under games/engines/ that exposes the same contract at its
top level (docs/engine.md, "The contract"), for any number of seats: ``new_game(config,
seed)`` (the config names the seats), ``to_act`` (every seat that decides now: several
during simultaneous decisions), ``legal_actions``, ``apply``, ``view`` (for a seat, the
judge or a spectator), ``is_over``, ``result``, ``placings`` (each seat's placing, ties
shared), ``default_action``, ``random_action``, ``replay``, ``verify``,
``enable_sudden_death`` (the games layer's time limit), ``State`` (with
``from_dict``/``to_dict`` and ``turn``), ``new_seed``, ``commitment``, the viewer
constants ``JUDGE``/``SPECTATOR``/``SYSTEM``, the errors ``ConfigError``/
``IllegalAction``, ``BOTS`` (bot classes by kind, each choosing from the seat's own view),
``SIMULATED_LIMIT_TURN`` (the turn from which a game of bots played whole at once is
under the time limit), ``WORDS`` (the game's words for people), ``bonus_amounts(colour)``
(IRONDIE's colour bonuses; empty elsewhere), ``GAME`` (its name), ``LABEL`` (its name as people read it), ``SEATS`` (the fewest
and most seats), ``seat_count(config)``, ``teams(config)`` (each seat's team),
``random_config(rng, seats=None, game_id=...)`` (a random playable config) and
``alter_hidden(state, viewer)`` (a copy with everything the viewer may not see changed:
the conformance suite checks views with it). The online layer (games/) reaches an engine
only through ``engine_for(session.engine)``, so a new game is one more entry in
``ENGINES``; tests/engines/test_conformance.py runs over every entry.
"""

from __future__ import annotations

from types import ModuleType

from . import d36, dice_forge, irondie

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
    "GAME",
    "LABEL",
    "SEATS",
    "seat_count",
    "teams",
    "placings",
    "random_action",
    "random_config",
    "alter_hidden",
)

ENGINES: dict[str, ModuleType] = {"irondie": irondie, "36d6": d36, "dice-forge": dice_forge}


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
