"""Pure Python game engines, one package a game, no Django imports.

``ENGINES`` maps a game's name to its engine module (the contract in docs/engine.md).
"""

from .irondie import engine as irondie_engine

ENGINES = {"irondie": irondie_engine}
